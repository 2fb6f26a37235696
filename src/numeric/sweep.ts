/**
 * Many runs of one compiled model: parameter sweeps and Monte Carlo samples. The model is
 * compiled once and one {@link Simulator} (with its work arrays) serves every run.
 *
 * Reported values are expressions of a run's final values (`n`, `x4'`, `x4' - x3'`),
 * parsed with the model language's own parser and evaluated per run.
 */
import type { Expr } from '../symbolic/ast.js';
import { ModelError } from '../symbolic/errors.js';
import { evaluate, MissingValue } from '../symbolic/evaluate.js';
import { parseModel } from '../symbolic/parser.js';
import type { CompiledModel } from '../transform/compile.js';
import { Simulator, type SimulateOptions, type SimulationResult } from './simulate.js';

export interface ReportExpr { label: string; expr: Expr }

/** Thrown for a --report, --vary or --sample text that cannot be used; `message` says why. */
export class BatchInputError extends Error {}

/** Splits "n, x4'" at top-level commas and parses each expression. */
export function parseReport(text: string): ReportExpr[] {
  const parts: string[] = [];
  let depth = 0, start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) { parts.push(text.slice(start, i)); start = i + 1; }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0).map((label) => {
    try {
      const ast = parseModel(`__report = ${label}`, '--report');
      const st = ast.statements[0];
      if (ast.statements.length !== 1 || st.kind !== 'equation') throw new BatchInputError(`--report '${label}' is not one expression`);
      return { label, expr: st.rhs };
    } catch (err) {
      if (err instanceof ModelError) throw new BatchInputError(`--report '${label}': ${err.what}`);
      throw err;
    }
  });
}

/** The value of each report expression on a run's final values (and the parameters). */
export function reportValues(report: ReportExpr[], run: SimulationResult, parameters: ReadonlyMap<string, number>): number[] {
  const lookup = (k: string) => run.final[k] ?? parameters.get(k);
  return report.map((r) => {
    try {
      return evaluate(r.expr, lookup);
    } catch (err) {
      if (err instanceof MissingValue) {
        throw new BatchInputError(`--report '${r.label}': '${err.key}' is not a final value of the run; they are ${Object.keys(run.final).join(', ')}`);
      }
      throw err;
    }
  });
}

/** COUNT values from FROM to TO, both included (FROM may exceed TO). */
export function sweepValues(from: number, to: number, count: number): number[] {
  if (count === 1) return [from];
  return Array.from({ length: count }, (_, k) => (k === count - 1 ? to : from + ((to - from) * k) / (count - 1)));
}

/** `NAME=FROM:TO:COUNT` */
export function parseVary(text: string): { name: string; values: number[] } {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^:]+):([^:]+):([^:]+)\s*$/.exec(text);
  if (!m) throw new BatchInputError(`--vary '${text}': write NAME=FROM:TO:COUNT, e.g. e=1:0.18:200`);
  const [from, to, count] = [Number(m[2]), Number(m[3]), Number(m[4])];
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw new BatchInputError(`--vary '${text}': FROM and TO must be numbers`);
  if (!Number.isInteger(count) || count < 1) throw new BatchInputError(`--vary '${text}': COUNT must be a whole number of at least 1`);
  return { name: m[1], values: sweepValues(from, to, count) };
}

export interface BatchRow { index: number; parameters: Record<string, number>; values: number[]; status: string; message: string | null }

/**
 * Runs the model once per parameter set (`sets[i]`), reporting `report` of each final state.
 * A run that fails still gives a row (its values from what it computed) with its status.
 */
export function runBatch(model: CompiledModel, sets: { index: number; values: Map<string, number> }[], report: ReportExpr[], options: SimulateOptions, onProgress?: (done: number) => void): BatchRow[] {
  const simulator = new Simulator(model);
  const rows: BatchRow[] = [];
  for (const s of sets) {
    const set = new Map(options.set instanceof Map ? options.set : Object.entries(options.set ?? {}));
    for (const [k, v] of s.values) set.set(k, v);
    const run = simulator.run({ ...options, set, record: false });
    const p = model.parameters(set);
    const params = new Map(model.paramNames.map((n, i) => [n, p[i]]));
    const parameters = Object.create(null) as Record<string, number>;
    for (const [k, v] of s.values) parameters[k] = v;
    rows.push({ index: s.index, parameters, values: reportValues(report, run, params), status: run.status, message: run.message });
    onProgress?.(rows.length);
  }
  return rows;
}

// ---------------------------------------------------------------------------
// Random samples: a seeded generator that gives the same numbers on every machine.

/** xoshiro128** (Blackman & Vigna), 32-bit state words, seeded by splitmix32 from one integer. */
export class SeededRandom {
  private s0: number; private s1: number; private s2: number; private s3: number;
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
    this.s0 = next(); this.s1 = next(); this.s2 = next(); this.s3 = next();
  }

  private nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (this.s1 << 9) >>> 0;
    this.s2 ^= this.s0; this.s3 ^= this.s1; this.s1 ^= this.s2; this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    this.s0 >>>= 0; this.s1 >>>= 0; this.s2 >>>= 0; this.s3 >>>= 0;
    return result;
  }

  /** uniform in [0, 1), 53 random bits */
  uniform(): number {
    const hi = this.nextUint32() >>> 5, lo = this.nextUint32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** standard normal, Box-Muller (pairs; the second value is kept for the next call) */
  normal(): number {
    if (this.spare !== null) { const v = this.spare; this.spare = null; return v; }
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

/** `NAME~normal(MEAN,SD)` or `NAME~uniform(A,B)` */
export function parseSample(text: string): { name: string; distribution: Distribution } {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*~\s*(normal|uniform)\s*\(\s*([^,()]+)\s*,\s*([^,()]+)\s*\)\s*$/.exec(text);
  if (!m) throw new BatchInputError(`--sample '${text}': write NAME~normal(MEAN,SD) or NAME~uniform(A,B)`);
  const a = Number(m[3]), b = Number(m[4]);
  if (!Number.isFinite(a) || !Number.isFinite(b)) throw new BatchInputError(`--sample '${text}': the arguments must be numbers`);
  if (m[2] === 'normal') {
    if (!(b >= 0)) throw new BatchInputError(`--sample '${text}': the standard deviation must not be negative`);
    return { name: m[1], distribution: { kind: 'normal', mean: a, sd: b } };
  }
  if (!(b >= a)) throw new BatchInputError(`--sample '${text}': uniform(A,B) needs A <= B`);
  return { name: m[1], distribution: { kind: 'uniform', a, b } };
}

/**
 * The parameter values of samples 0..count-1. Drawn in sample order, one value per
 * distribution in the order given, so that any slice (shard) of the samples is the same
 * whatever machine or worker computes it.
 */
export function drawSamples(seed: number, count: number, samples: { name: string; distribution: Distribution }[]): Map<string, number>[] {
  const rng = new SeededRandom(seed);
  const out: Map<string, number>[] = [];
  for (let i = 0; i < count; i++) {
    const values = new Map<string, number>();
    for (const s of samples) {
      const d = s.distribution;
      values.set(s.name, d.kind === 'normal' ? d.mean + d.sd * rng.normal() : d.a + (d.b - d.a) * rng.uniform());
    }
    out.push(values);
  }
  return out;
}

export interface Statistics { mean: number; sd: number; ci95: [number, number]; min: number; max: number; n: number }

/** Mean, sample standard deviation, a normal-approximation 95% interval of the mean, extremes. Non-finite values are left out. */
export function statistics(values: readonly number[]): Statistics {
  const xs = values.filter(Number.isFinite);
  const n = xs.length;
  if (n === 0) return { mean: NaN, sd: NaN, ci95: [NaN, NaN], min: NaN, max: NaN, n };
  let mean = 0;
  for (const x of xs) mean += x;
  mean /= n;
  let ss = 0;
  for (const x of xs) ss += (x - mean) ** 2;
  const sd = n > 1 ? Math.sqrt(ss / (n - 1)) : 0;
  const half = 1.959963984540054 * sd / Math.sqrt(n);
  return { mean, sd, ci95: [mean - half, mean + half], min: Math.min(...xs), max: Math.max(...xs), n };
}
