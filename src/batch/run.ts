/**
 * Running the runs of a batch: one Simulator serves every run of a chunk, each run's failure
 * is its own, and a signal stops the chunk between runs or within one (ring.ts shares chunks
 * between threads).
 */
import type { CompiledModel } from '../codegen/compile.js';
import { DISCARD_SINK, type RunStatus, type SimulateOptions, type SimulationResult } from '../driver/index.js';
import { emptyResult } from '../driver/run-state.js';
import { Simulator } from '../analytic/index.js';
import { evaluate } from '../expression/evaluate.js';
import { shoot } from '../shooting/newton.js';
import { checkInterrupt, Interrupted, type InterruptFlag } from './interrupt.js';
import { checkReport, finalValue, type ReportExpr } from './report.js';

/** What a run of a batch ended with: a run's status, or `interrupted` (a signal stopped it midway). */
export type BatchStatus = RunStatus | 'interrupted';

/** The statuses in the order of their codes (a status is stored as 1 + its place; 0: not run). */
export const RUN_STATUSES: readonly BatchStatus[] = ['ok', 'stopped', 'zeno', 'failed', 'interrupted'];

export function statusCode(s: BatchStatus): number {
  return 1 + RUN_STATUSES.indexOf(s);
}

/** A batch's run options: a simulation's, and whether each run first shoots for the model's unknowns. */
export interface BatchOptions extends SimulateOptions {
  /**
   * Each run solves for the `unknown`s so that the boundary conditions hold (Newton shooting
   * from the guesses: the model's, or `set`'s), and reports its solution's final values and
   * the unknowns found. Every run starts from the same guesses, never from its neighbour's
   * solution, so that a run's numbers do not depend on which runs a thread took before it.
   */
  shoot?: boolean;
}

export interface ChunkResult {
  /** `values[k * report.length + j]`: report j of the chunk's run k (NaN where it has none) */
  values: Float64Array;
  /** undefined for a run not started (the batch was interrupted before it) */
  status: BatchStatus[];
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
  options: BatchOptions,
  names: readonly string[],
  parameters: Float64Array,
  onProgress?: (done: number) => void,
  interrupt?: InterruptFlag,
): ChunkResult {
  const model = simulator.model;
  const count = names.length === 0 ? 0 : parameters.length / names.length;
  const { shoot: shoots, ...simulation } = options;
  const set = new Map(options.set instanceof Map ? options.set : Object.entries(options.set ?? {}));
  // No rows, and a ledger that goes nowhere: a run's events are not kept, however many. A
  // signal is seen between runs and, in a long run, every few thousand steps.
  const runOptions: SimulateOptions = { ...simulation, set, record: false, eventValues: false, sink: DISCARD_SINK };
  if (interrupt) runOptions.progress = () => checkInterrupt(interrupt);
  const nr = report.length;
  const out: ChunkResult = {
    values: new Float64Array(count * nr),
    status: new Array<BatchStatus>(count),
    message: new Array<string | null>(count),
  };
  let final: Record<string, number> = Object.create(null) as Record<string, number>;
  // Parameters are looked up only when a report names one that is not a final value (with
  // the unknowns a shooting run found: `found`).
  let params: Float64Array | null = null;
  let found: Record<string, number> | null = null;
  const lookup = (key: string): number | undefined => {
    const v = finalValue(final, key);
    if (v !== undefined) return v;
    const i = model.paramNames.indexOf(key);
    if (i < 0) return undefined;
    params ??= model.parameters(found ? new Map([...set, ...Object.entries(found)]) : set);
    return params[i];
  };
  for (let k = 0; k < count; k++) {
    if (interrupt !== undefined && Atomics.load(interrupt, 0) !== 0) break;
    for (let j = 0; j < names.length; j++) set.set(names[j], parameters[k * names.length + j]);
    let run: SimulationResult;
    let failure: string | null = null;
    found = null;
    try {
      if (shoots) {
        const shot = shootRun(model, runOptions);
        run = shot.run;
        found = shot.unknowns;
        failure = shot.failure;
      } else run = simulator.run(runOptions);
    } catch (err) {
      out.values.fill(NaN, k * nr, (k + 1) * nr);
      if (err instanceof Interrupted) {
        // the run stopped midway: its values are not final values
        out.status[k] = 'interrupted';
        out.message[k] = err.message;
        break;
      }
      // One run's problem (an empty range for rk4, an end of the range that its parameter
      // makes infinite) is that run's failure: the others are kept.
      out.status[k] = 'failed';
      out.message[k] = err instanceof Error ? err.message : String(err);
      onProgress?.(k + 1);
      continue;
    }
    final = run.final;
    params = null;
    for (let j = 0; j < nr; j++) out.values[k * nr + j] = reportValue(report[j], lookup);
    // (a shooting run that did not converge reports what its last iterate computed, as failed)
    out.status[k] = failure !== null ? 'failed' : run.status;
    // (a completed run's warnings travel as its message: a count at the border of dopri5's
    // stability region, a tolerance raised, are part of its answer)
    out.message[k] =
      failure !== null
        ? failure
        : run.warnings.length === 0
          ? run.message
          : [run.message, ...run.warnings.map((w) => `warning: ${w}`)].filter((x) => x !== null).join('; ');
    onProgress?.(k + 1);
  }
  return out;
}

/**
 * One run of a shooting batch: the solution's run with the unknowns found, and why it failed
 * when shooting did not converge (then the run is the last iterate's, or an empty one).
 */
function shootRun(
  model: CompiledModel,
  options: SimulateOptions,
): { run: SimulationResult; unknowns: Record<string, number>; failure: string | null } {
  const r = shoot(model, options);
  const failure = r.converged ? null : `shooting ${r.status}: ${r.message ?? 'no solution found'}`;
  // (shooting's own warnings, an unknown the conditions fix only loosely, are the run's too)
  if (r.solution)
    return { run: { ...r.solution, warnings: [...r.warnings, ...r.solution.warnings] }, unknowns: r.unknowns, failure };
  // (no run to show: shooting stopped before one, its unknowns where it stopped)
  const run = emptyResult(model, []);
  run.status = 'failed';
  run.message = failure;
  return { run, unknowns: r.unknowns, failure };
}

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
  options: BatchOptions,
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
