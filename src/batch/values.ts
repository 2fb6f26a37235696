/**
 * The parameter values of a batch: an evenly spaced sweep (`--vary NAME=FROM:TO:COUNT`) or
 * random samples (`--sample NAME~normal(MEAN,SD)`), drawn by index from a seeded generator so
 * that slices, worker threads and one run give the same numbers.
 */
import { commonDecimals } from '../codegen/event-times.js';
import { BatchInputError } from './report.js';

/**
 * Value k of COUNT values from FROM to TO, both included (FROM may exceed TO): FROM + (TO -
 * FROM)·k/(COUNT - 1). Where FROM and TO are short decimals (decimalPoint), the double nearest
 * that exact value, as `--output-step` and `every` take their decimals: in doubles 0.1:0.5:5
 * gave 0.30000000000000004 (0.1 + 0.2), an output time past a kick at 0.3 where its left
 * limit was asked for, a parameter beside the one written. Else in doubles, the width times k
 * first; where that product overflows though every value is finite (0:1.5e308:5 swept
 * 1.125e308 as Infinity, a run failed "k = Infinity"), the width is divided first; where the
 * width itself overflows (-1e308:1e308), each end is weighed on its own.
 */
export function sweepValue(from: number, to: number, count: number, k: number): number {
  if (count === 1) return from;
  if (k === count - 1) return to;
  const exact = decimalPoint(from, to, count, k);
  if (exact !== null) return exact;
  const width = to - from;
  if (!Number.isFinite(width)) {
    const f = k / (count - 1);
    return from * (1 - f) + to * f;
  }
  const scaled = width * k;
  return from + (Number.isFinite(scaled) ? scaled / (count - 1) : (width / (count - 1)) * k);
}

/**
 * Value k of the grid FROM:TO:COUNT as the decimals mean it, where FROM and TO are decimals of
 * at most 15 places (F/10^q and T/10^q with whole F and T): (F·(COUNT - 1) + k·(T - F)) /
 * (10^q·(COUNT - 1)), one division of exact integers, correctly rounded: the double nearest
 * the exact value. Null where they are not, or the integers leave 2^53.
 */
function decimalPoint(from: number, to: number, count: number, k: number): number | null {
  const d = commonDecimals(from, to);
  if (d === null) return null;
  const f = d.a,
    g = d.b;
  const num = f * (count - 1) + k * (g - f),
    den = d.scale * (count - 1);
  // (each product and sum exact: every partial result a safe integer)
  if (
    !Number.isSafeInteger(f * (count - 1)) ||
    !Number.isSafeInteger(k * (g - f)) ||
    !Number.isSafeInteger(num) ||
    !Number.isSafeInteger(den)
  )
    return null;
  return num / den;
}

/** COUNT values from FROM to TO, both included (FROM may exceed TO); those of runs first..end-1. */
export function sweepValues(from: number, to: number, count: number, first = 0, end = count): number[] {
  if (count === 1) return [from];
  return Array.from({ length: end - first }, (_, j) => sweepValue(from, to, count, first + j));
}

/** The most runs one process takes on (a slice of a larger batch: --shard K/N). */
export const MAX_RUNS_PER_PROCESS = 10_000_000;
/** The most runs a batch may have in all, across its slices. */
export const MAX_BATCH_RUNS = 1e12;

/** A parameter or an element of an array parameter (`v0[3]`, `a[2,1]`), without spaces. */
const PARAMETER = String.raw`([A-Za-z_][A-Za-z0-9_]*(?:\[\s*\d+(?:\s*,\s*\d+)*\s*\])?)`;
const elementName = (written: string) => written.replace(/\s+/g, '');

/** A decimal number as the other flags take it (options.ts): no blanks, hexadecimal or Infinity. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * The number `text` writes, or NaN: `Number` alone reads a blank as 0 (`e=0.5: :3` swept to 0,
 * `uniform(-1, )` drew from [-1, 0]) and `0x10` as 16.
 */
function decimal(text: string): number {
  const t = text.trim();
  return DECIMAL.test(t) ? Number(t) : NaN;
}

/** `NAME=FROM:TO:COUNT`: the values are made per slice (valuesOf), never all at once. */
export function parseVary(text: string): { name: string; from: number; to: number; count: number } {
  const m = new RegExp(String.raw`^\s*${PARAMETER}\s*=\s*([^:]+):([^:]+):([^:]+)\s*$`).exec(text);
  if (!m) throw new BatchInputError(`--vary '${text}': write NAME=FROM:TO:COUNT, e.g. e=1:0.18:200 or v0[3]=0:1:11`);
  m[1] = elementName(m[1]);
  const [from, to, count] = [decimal(m[2]), decimal(m[3]), decimal(m[4])];
  if (!Number.isFinite(from) || !Number.isFinite(to))
    throw new BatchInputError(
      `--vary '${text}': FROM and TO must be numbers written in decimal, such as 10, 0.5 or 1e-8`,
    );
  // (the values are FROM + (TO - FROM)·k/(COUNT - 1): an infinite width gives infinite values)
  if (!Number.isFinite(to - from))
    throw new BatchInputError(
      `--vary '${text}': TO - FROM is beyond the range of double precision numbers (1.8e308), so the values between would not be finite; narrow the range`,
    );
  if (!Number.isInteger(count) || count < 1)
    throw new BatchInputError(`--vary '${text}': COUNT must be a whole number of at least 1`);
  if (count > MAX_BATCH_RUNS)
    throw new BatchInputError(`--vary '${text}': ${count} runs are more than a batch can have (${MAX_BATCH_RUNS})`);
  return { name: m[1], from, to, count };
}

// ---------------------------------------------------------------------------
// Random samples: a seeded generator that gives the same numbers on every machine.

/** xoshiro128** (Blackman & Vigna), 32-bit state words, seeded by splitmix32 from one integer. */
export class SeededRandom {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private spare: number | null = null;

  constructor(seed: number) {
    let x = (Math.trunc(seed) >>> 0) ^ 0x9e3779b9;
    const next = () => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
  }

  private nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (this.s1 << 9) >>> 0;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    this.s0 >>>= 0;
    this.s1 >>>= 0;
    this.s2 >>>= 0;
    this.s3 >>>= 0;
    return result;
  }

  /** uniform in [0, 1), 53 random bits */
  uniform(): number {
    const hi = this.nextUint32() >>> 5,
      lo = this.nextUint32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** standard normal, Box-Muller (pairs; the second value is kept for the next call) */
  normal(): number {
    if (this.spare !== null) {
      const v = this.spare;
      this.spare = null;
      return v;
    }
    let u = 0;
    while (u === 0) u = this.uniform();
    const v = this.uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

export type Distribution = { kind: 'normal'; mean: number; sd: number } | { kind: 'uniform'; a: number; b: number };

/**
 * How far a normal draw reaches, in standard deviations: Box-Muller's radius sqrt(-2 ln u) with
 * the smallest u the generator gives (2^-53) is 8.5717.
 */
const NORMAL_REACH = 8.58;

/** `NAME~normal(MEAN,SD)` or `NAME~uniform(A,B)` */
export function parseSample(text: string): { name: string; distribution: Distribution } {
  const m = new RegExp(
    String.raw`^\s*${PARAMETER}\s*~\s*(normal|uniform)\s*\(\s*([^,()]+)\s*,\s*([^,()]+)\s*\)\s*$`,
  ).exec(text);
  if (!m) throw new BatchInputError(`--sample '${text}': write NAME~normal(MEAN,SD) or NAME~uniform(A,B)`);
  m[1] = elementName(m[1]);
  const a = decimal(m[3]),
    b = decimal(m[4]);
  if (!Number.isFinite(a) || !Number.isFinite(b))
    throw new BatchInputError(
      `--sample '${text}': the arguments must be numbers written in decimal, such as 10, 0.5 or 1e-8`,
    );
  if (m[2] === 'normal') {
    if (!(b >= 0)) throw new BatchInputError(`--sample '${text}': the standard deviation must not be negative`);
    if (!Number.isFinite(Math.abs(a) + NORMAL_REACH * b))
      throw new BatchInputError(
        `--sample '${text}': draws reach MEAN ± ${NORMAL_REACH} SD, beyond the range of double precision numbers (1.8e308), so some would be infinite; give a smaller MEAN or SD`,
      );
    return { name: m[1], distribution: { kind: 'normal', mean: a, sd: b } };
  }
  if (!(b >= a)) throw new BatchInputError(`--sample '${text}': uniform(A,B) needs A <= B`);
  // (a draw is A + (B - A)·u: an infinite width gives infinite draws)
  if (!Number.isFinite(b - a))
    throw new BatchInputError(
      `--sample '${text}': B - A is beyond the range of double precision numbers (1.8e308), so the draws would be infinite; narrow the range`,
    );
  return { name: m[1], distribution: { kind: 'uniform', a, b } };
}

/**
 * The parameter values of samples, drawn in order: the generator runs in sample order, one
 * value per distribution in the order given, from sample 0 (the samples before `first` are
 * drawn and dropped: far cheaper than a run), so that sample i has the same values whatever
 * slice, shard, worker or machine computes it. Sample k's value of `samples[j]` goes to
 * `[k * samples.length + j]`.
 */
export class SampleStream {
  private readonly rng: SeededRandom;
  private readonly m: number;

  constructor(
    seed: number,
    first: number,
    private readonly samples: readonly { name: string; distribution: Distribution }[],
  ) {
    this.rng = new SeededRandom(seed);
    this.m = samples.length;
    const skip = new Float64Array(this.m);
    for (let i = 0; i < first; i++) this.draw(skip, 0);
  }

  private draw(out: Float64Array, at: number): void {
    for (let j = 0; j < this.m; j++) {
      const d = this.samples[j].distribution;
      out[at + j] = d.kind === 'normal' ? d.mean + d.sd * this.rng.normal() : d.a + (d.b - d.a) * this.rng.uniform();
    }
  }

  /** The next `count` samples into `out` (from its start). */
  next(out: Float64Array, count: number): void {
    for (let k = 0; k < count; k++) this.draw(out, k * this.m);
  }
}

/** The parameter values of samples `first .. first+count-1`, flat (see {@link SampleStream}). */
export function sampleValues(
  seed: number,
  first: number,
  count: number,
  samples: readonly { name: string; distribution: Distribution }[],
): Float64Array {
  const out = new Float64Array(count * samples.length);
  new SampleStream(seed, first, samples).next(out, count);
  return out;
}

/** The parameter values of samples 0..count-1, one map per sample (see {@link sampleValues}). */
export function drawSamples(
  seed: number,
  count: number,
  samples: { name: string; distribution: Distribution }[],
): Map<string, number>[] {
  const flat = sampleValues(seed, 0, count, samples);
  return Array.from(
    { length: count },
    (_, i) => new Map(samples.map((s, j) => [s.name, flat[i * samples.length + j]])),
  );
}
