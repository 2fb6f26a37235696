/**
 * Running a batch: one Simulator serves every run of a chunk; chunks are claimed from a
 * shared counter by this thread and worker threads alike, and results land in shared arrays.
 */
import type { CompiledModel } from '../codegen/compile.js';
import type { RunStatus, SimulateOptions, SimulationResult, SimulationSink } from '../driver/index.js';
import { Simulator } from '../analytic/index.js';
import { evaluate } from '../expression/evaluate.js';
import { checkReport, finalValue, type ReportExpr } from './report.js';

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
export function runChunk(
  simulator: Simulator,
  report: readonly ReportExpr[],
  options: SimulateOptions,
  names: readonly string[],
  parameters: Float64Array,
  onProgress?: (done: number) => void,
): ChunkResult {
  const model = simulator.model;
  const count = names.length === 0 ? 0 : parameters.length / names.length;
  const set = new Map(options.set instanceof Map ? options.set : Object.entries(options.set ?? {}));
  // (no rows, and a ledger that goes nowhere: a run's events are not kept, however many)
  const runOptions: SimulateOptions = { ...options, set, record: false, eventValues: false, sink: DISCARD };
  const nr = report.length;
  const out: ChunkResult = {
    values: new Float64Array(count * nr),
    status: new Array<RunStatus>(count),
    message: new Array<string | null>(count),
  };
  let final: Record<string, number> = Object.create(null) as Record<string, number>;
  // Parameters are looked up only when a report names one that is not a final value.
  let params: Float64Array | null = null;
  const lookup = (key: string): number | undefined => {
    const v = finalValue(final, key);
    if (v !== undefined) return v;
    const i = model.paramNames.indexOf(key);
    if (i < 0) return undefined;
    params ??= model.parameters(set);
    return params[i];
  };
  for (let k = 0; k < count; k++) {
    for (let j = 0; j < names.length; j++) set.set(names[j], parameters[k * names.length + j]);
    let run: SimulationResult;
    try {
      run = simulator.run(runOptions);
    } catch (err) {
      // One run's problem (an empty range for rk4, an end of the range that its parameter
      // makes infinite) is that run's failure: the others are kept.
      out.values.fill(NaN, k * nr, (k + 1) * nr);
      out.status[k] = 'failed';
      out.message[k] = err instanceof Error ? err.message : String(err);
      onProgress?.(k + 1);
      continue;
    }
    final = run.final;
    params = null;
    for (let j = 0; j < nr; j++) out.values[k * nr + j] = reportValue(report[j], lookup);
    out.status[k] = run.status;
    out.message[k] = run.message;
    onProgress?.(k + 1);
  }
  return out;
}

/** Rows and ledger entries of a batch's runs: dropped as they come. */
const DISCARD: SimulationSink = {
  row() {
    /* not kept */
  },
  event() {
    /* not kept */
  },
};

/** A report's value, NaN where the run has none or it cannot be computed. */
function reportValue(r: ReportExpr, lookup: (key: string) => number | undefined): number {
  try {
    return evaluate(r.expr, lookup);
  } catch {
    // checkReport rules a missing name out (MissingValue), but a failed run may lack a value,
    // and the parameters may not evaluate for this run's values
    return NaN;
  }
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
    parameters: p,
    values: new Float64Array(shared(count * reports * 8)),
    status: new Uint8Array(shared(count)),
    counters: new Int32Array(shared(8)),
    count,
    chunkSize,
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
export function runNextChunk(
  simulator: Simulator,
  report: readonly ReportExpr[],
  options: SimulateOptions,
  names: readonly string[],
  b: SharedBatch,
  messages: Map<number, string>,
  onClaim?: () => void,
): number {
  const c = Atomics.add(b.counters, 0, 1);
  if (c >= chunkCount(b)) return 0;
  onClaim?.();
  const first = c * b.chunkSize,
    end = Math.min(b.count, first + b.chunkSize);
  const m = names.length,
    nr = report.length;
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

export interface BatchRow {
  index: number;
  parameters: Record<string, number>;
  values: number[];
  status: string;
  message: string | null;
}

/**
 * Runs the model once per parameter set (`sets[i]`), reporting `report` of each final state,
 * in this thread: the library's one-call form of {@link runChunk}.
 */
export function runBatch(
  model: CompiledModel,
  sets: { index: number; values: Map<string, number> }[],
  report: ReportExpr[],
  options: SimulateOptions,
  onProgress?: (done: number) => void,
): BatchRow[] {
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
