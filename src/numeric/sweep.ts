/**
 * Many runs of one compiled model: parameter sweeps and Monte Carlo samples. The model is
 * compiled once and one {@link Simulator} (with its work arrays) serves every run.
 *
 * Reported values are expressions of a run's final values (`n`, `x4'`, `x4' - x3'`),
 * parsed with the model language's own parser and evaluated per run.
 */
import type { Expr } from '../symbolic/ast.js';
import { ModelError } from '../symbolic/errors.js';
import { BUILTIN_IMPLEMENTATIONS, evaluate, MissingValue } from '../symbolic/evaluate.js';
import { walk } from '../symbolic/expr.js';
import { parseModel } from '../symbolic/parser.js';
import type { CompiledModel } from '../transform/compile.js';
import { Simulator, type RunStatus, type SimulateOptions, type SimulationResult } from './simulate.js';

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

/**
 * Checks once, before any run, that every name in the report is something a run's final
 * values (the independent variable and the outputs) or the parameters can give, and every
 * function a built-in one: a batch of thousands of runs should not start to fail on its
 * first row, and a worker thread cannot tell a typo from a bug.
 */
export function checkReport(report: readonly ReportExpr[], model: CompiledModel): void {
  const finals = [model.system.independent, ...model.outputNames];
  const known = new Set([...finals, ...model.paramNames, 'pi']);
  for (const r of report) {
    walk(r.expr, (node) => {
      const key = node.kind === 'name' ? node.name : node.kind === 'derivative' ? node.name + "'".repeat(node.order) : null;
      if (key !== null && !known.has(key)) {
        throw new BatchInputError(`--report '${r.label}': '${key}' is not a final value of ${model.system.model}; they are ${finals.join(', ')} (and the parameters ${model.paramNames.join(', ') || '(none)'})`);
      }
      if (node.kind === 'call' && (node.derivativeOrder > 0 || !Object.hasOwn(BUILTIN_IMPLEMENTATIONS, node.name))) {
        throw new BatchInputError(`--report '${r.label}': '${node.name}' is not a built-in function; they are ${Object.keys(BUILTIN_IMPLEMENTATIONS).join(', ')}`);
      }
    });
  }
}

/** What a chunk of runs gives: columnar, like the shared arrays of {@link SharedBatch}. */
export interface ChunkResult {
  /** `values[k * report.length + j]`: report j of the chunk's run k (NaN where it has none) */
  values: Float64Array;
  status: RunStatus[];
  message: (string | null)[];
}

/**
 * Runs the model once per parameter set of a chunk: run k sets `names[j]` to
 * `parameters[k * names.length + j]` on top of `options.set`. One simulator, one option
 * object and one parameter map serve every run; a run that fails still reports what it
 * computed, with its status and message.
 */
export function runChunk(simulator: Simulator, report: readonly ReportExpr[], options: SimulateOptions, names: readonly string[], parameters: Float64Array, onProgress?: (done: number) => void): ChunkResult {
  const model = simulator.model;
  const count = names.length === 0 ? 0 : parameters.length / names.length;
  const set = new Map(options.set instanceof Map ? options.set : Object.entries(options.set ?? {}));
  const runOptions: SimulateOptions = { ...options, set, record: false, eventValues: false };
  const nr = report.length;
  const out: ChunkResult = { values: new Float64Array(count * nr), status: new Array<RunStatus>(count), message: new Array<string | null>(count) };
  let final: Record<string, number> = Object.create(null) as Record<string, number>;
  // Parameters are looked up only when a report names one that is not a final value.
  let params: Float64Array | null = null;
  const lookup = (key: string): number | undefined => {
    const v = final[key];
    if (v !== undefined) return v;
    const i = model.paramNames.indexOf(key);
    if (i < 0) return undefined;
    params ??= model.parameters(set);
    return params[i];
  };
  for (let k = 0; k < count; k++) {
    for (let j = 0; j < names.length; j++) set.set(names[j], parameters[k * names.length + j]);
    const run = simulator.run(runOptions);
    final = run.final;
    params = null;
    for (let j = 0; j < nr; j++) {
      try {
        out.values[k * nr + j] = evaluate(report[j].expr, lookup);
      } catch (err) {
        if (!(err instanceof MissingValue)) throw err;
        // checkReport rules this out; a failed run may still lack a value
        out.values[k * nr + j] = NaN;
      }
    }
    out.status[k] = run.status;
    out.message[k] = run.message;
    onProgress?.(k + 1);
  }
  return out;
}

/**
 * A batch shared between threads: every array lives in a SharedArrayBuffer, and each thread
 * (this one and the workers) claims the next contiguous chunk of runs with one atomic add,
 * runs it and writes its results in place. No thread waits for another to hand it work, so
 * a thread busy with a long chunk never starves the others, and a worker that starts late
 * simply finds fewer chunks left.
 */
export interface SharedBatch {
  /** run i's value of names[j] at [i * names.length + j] */
  parameters: Float64Array;
  /** run i's report j at [i * report.length + j] */
  values: Float64Array;
  /** run i's status as 1 + its place in {@link RUN_STATUSES}; 0 while not run */
  status: Uint8Array;
  /** [next chunk to claim, runs finished]; raising the first past the last chunk stops every thread */
  counters: Int32Array;
  count: number;
  chunkSize: number;
}

export const RUN_STATUSES: readonly RunStatus[] = ['ok', 'stopped', 'zeno', 'failed'];

export function sharedBatch(parameters: Float64Array, count: number, reports: number, chunkSize: number): SharedBatch {
  const shared = (bytes: number) => new SharedArrayBuffer(Math.max(bytes, 8));
  const p = new Float64Array(shared(parameters.length * 8));
  p.set(parameters);
  return {
    parameters: p, values: new Float64Array(shared(count * reports * 8)), status: new Uint8Array(shared(count)),
    counters: new Int32Array(shared(8)), count, chunkSize,
  };
}

export function chunkCount(b: SharedBatch): number {
  return Math.ceil(b.count / b.chunkSize);
}

/**
 * Claims and runs the next chunk of a shared batch; returns the runs it did (0: none left).
 * Messages of runs (why one failed or stopped) go to `messages` by run index: they are few
 * and travel back once, at the end. `onClaim` runs once a chunk is claimed, before any of it
 * counts as finished (a worker flags there that the main thread must wait for its messages).
 */
export function runNextChunk(simulator: Simulator, report: readonly ReportExpr[], options: SimulateOptions, names: readonly string[], b: SharedBatch, messages: Map<number, string>, onClaim?: () => void): number {
  const c = Atomics.add(b.counters, 0, 1);
  if (c >= chunkCount(b)) return 0;
  onClaim?.();
  const first = c * b.chunkSize, end = Math.min(b.count, first + b.chunkSize);
  const m = names.length, nr = report.length;
  const r = runChunk(simulator, report, options, names, b.parameters.subarray(first * m, end * m));
  b.values.set(r.values, first * nr);
  for (let k = 0; k < end - first; k++) {
    b.status[first + k] = 1 + RUN_STATUSES.indexOf(r.status[k]);
    const msg = r.message[k];
    if (msg !== null) messages.set(first + k, msg);
  }
  Atomics.add(b.counters, 1, end - first);
  return end - first;
}

/** The results of a finished shared batch, in the form of {@link runChunk}'s. */
export function sharedResult(b: SharedBatch, messages: ReadonlyMap<number, string>): ChunkResult {
  return {
    values: b.values,
    status: Array.from(b.status, (code) => RUN_STATUSES[code - 1] ?? 'failed'),
    message: Array.from({ length: b.count }, (_, i) => messages.get(i) ?? null),
  };
}

export interface BatchRow { index: number; parameters: Record<string, number>; values: number[]; status: string; message: string | null }

/**
 * Runs the model once per parameter set (`sets[i]`), reporting `report` of each final state,
 * in this thread: the library's one-call form of {@link runChunk}.
 */
export function runBatch(model: CompiledModel, sets: { index: number; values: Map<string, number> }[], report: ReportExpr[], options: SimulateOptions, onProgress?: (done: number) => void): BatchRow[] {
  checkReport(report, model);
  const simulator = new Simulator(model);
  return sets.map((s, i) => {
    const names = [...s.values.keys()];
    const r = runChunk(simulator, report, options, names, Float64Array.from(s.values.values()));
    onProgress?.(i + 1);
    const parameters = Object.create(null) as Record<string, number>;
    for (const [k, v] of s.values) parameters[k] = v;
    return { index: s.index, parameters, values: Array.from(r.values), status: r.status[0], message: r.message[0] };
  });
}

/**
 * The half-open index range `[first, end)` of slice k (1-based) of n of `total` runs:
 * contiguous, in order, sizes differing by at most one.
 */
export function sliceRange(total: number, k: number, n: number): { first: number; end: number } {
  return { first: Math.floor(((k - 1) * total) / n), end: Math.floor((k * total) / n) };
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
 * The parameter values of samples `first .. first+count-1`, flat: sample k's value of
 * `samples[j]` at `[k * samples.length + j]`. The generator runs in sample order, one value
 * per distribution in the order given, from sample 0 (the samples before `first` are drawn
 * and dropped: far cheaper than a run), so that sample i has the same values whatever
 * slice, shard, worker or machine computes it.
 */
export function sampleValues(seed: number, first: number, count: number, samples: readonly { name: string; distribution: Distribution }[]): Float64Array {
  const rng = new SeededRandom(seed);
  const m = samples.length;
  const out = new Float64Array(count * m);
  for (let i = 0; i < first + count; i++) {
    for (let j = 0; j < m; j++) {
      const d = samples[j].distribution;
      const v = d.kind === 'normal' ? d.mean + d.sd * rng.normal() : d.a + (d.b - d.a) * rng.uniform();
      if (i >= first) out[(i - first) * m + j] = v;
    }
  }
  return out;
}

/** The parameter values of samples 0..count-1, one map per sample (see {@link sampleValues}). */
export function drawSamples(seed: number, count: number, samples: { name: string; distribution: Distribution }[]): Map<string, number>[] {
  const flat = sampleValues(seed, 0, count, samples);
  return Array.from({ length: count }, (_, i) => new Map(samples.map((s, j) => [s.name, flat[i * samples.length + j]])));
}

export interface Statistics { mean: number; sd: number; ci95: [number, number]; min: number; max: number; n: number }

/** Mean, sample standard deviation, a normal-approximation 95% interval of the mean, extremes. Non-finite values are left out. */
export function statistics(values: readonly number[]): Statistics {
  const xs = values.filter(Number.isFinite);
  const n = xs.length;
  if (n === 0) return { mean: NaN, sd: NaN, ci95: [NaN, NaN], min: NaN, max: NaN, n };
  // Loops, not Math.min(...xs): a spread of a million samples overflows the stack.
  let mean = 0, min = Infinity, max = -Infinity;
  for (const x of xs) { mean += x; if (x < min) min = x; if (x > max) max = x; }
  mean /= n;
  let ss = 0;
  for (const x of xs) ss += (x - mean) ** 2;
  const sd = n > 1 ? Math.sqrt(ss / (n - 1)) : 0;
  const half = 1.959963984540054 * sd / Math.sqrt(n);
  return { mean, sd, ci95: [mean - half, mean + half], min, max, n };
}
