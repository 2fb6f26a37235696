/**
 * What a run takes and gives: options, the result record, the ledger and the streaming sink.
 * Plain types only; the driver is `simulator.ts`.
 */
import type { MethodName } from '../integrators/stepper.js';

/** What integrates a run: a stepper, auto, or the analytic path (closed-form segments, issue 23). */
export type RunMethod = MethodName | 'analytic';

export type LocateMode = 'exact' | 'before' | 'after';
export type RunStatus = 'ok' | 'stopped' | 'zeno' | 'failed';

/**
 * Receives rows and ledger entries as they are produced, so that a run's memory does not grow
 * with its length (EVENTS.md, 5). With a sink, `result.rows` and `result.events` stay empty.
 */
export interface SimulationSink {
  /** one output row `[t, ...outputs]` in column order; a reused buffer: copy what you keep */
  row(row: ArrayLike<number>): void;
  /** one ledger entry, as it is produced */
  event?(record: EventRecord): void;
}

/**
 * A sink that keeps nothing (a batch reads final values only): whatever reached it is lost
 * anyway, so a run that streamed into it may be taken again from its start (the analytic path
 * handing a run to the stepper, analytic/simulator.ts) as if it had no sink.
 */
export const DISCARD_SINK: SimulationSink = Object.freeze({
  row() {
    /* not kept */
  },
  event() {
    /* not kept */
  },
});

export interface SimulateOptions {
  from?: number;
  to?: number;
  /** parameter (or unknown) values by name */
  set?: ReadonlyMap<string, number> | Readonly<Record<string, number>>;
  /** initial values by variable key (`y`, `y'`), overriding the model's */
  init?: ReadonlyMap<string, number> | Readonly<Record<string, number>>;
  /** a stepper, `auto`, or `analytic` (every part in closed form: src/analytic) */
  method?: RunMethod;
  rtol?: number;
  atol?: number;
  /** fixed step for rk4, largest step otherwise */
  step?: number;
  /**
   * The first step an adaptive method tries (SciPy's `first_step`), instead of Hairer's
   * starting-step heuristic; at most `maxStep`. Only at the start of the run: after an event
   * the step in use before it carries on. Refused for rk4 and euler (their step is `step`).
   */
  firstStep?: number;
  /**
   * The largest step of an adaptive method (SciPy's `max_step`): what `step` means for the
   * adaptive methods, under the name other tools use. Refused for rk4 and euler.
   */
  maxStep?: number;
  /**
   * Keep the solution as a function of the independent variable over the whole range:
   * `result.sol(t)` (SciPy's `dense_output`, DifferentialEquations.jl's `sol(t)`), jumps
   * included. Built from each step's dense output, or from the closed forms on the analytic path.
   */
  dense?: boolean;
  /** what a dense solution may hold in memory, in bytes (default 256 MiB); past it the run fails with a message */
  maxDenseBytes?: number;
  locate?: LocateMode;
  maxEvents?: number;
  /** limit on integration steps (accepted and rejected); the run fails with a message past it */
  maxSteps?: number;
  /** limit on rows kept in memory (without a sink); the run fails with a message past it */
  maxRows?: number;
  /** keep the trajectory rows (default true); sweeps turn it off */
  record?: boolean;
  /** rows and ledger entries go here as they are produced (streaming) instead of into the result */
  sink?: SimulationSink;
  /**
   * One row per `outputStep` of the independent variable (from the start, on the dense
   * output), besides the before/after rows of every event and the two ends; default: one row
   * per accepted step.
   */
  outputStep?: number;
  /** rows only at events (before and after) and at the two ends of the range */
  eventsOnly?: boolean;
  /**
   * Rows exactly at these values of the independent variable (read off the dense output), plus
   * the before/after rows of every event: SciPy's `t_eval`. The ends of the range get a row only
   * when listed; a run that stops early still gets the row where it stopped. Every time must lie
   * in the range; excludes `outputStep` and `eventsOnly`. A typed array (Float64Array) will do.
   */
  outputTimes?: readonly number[] | Float64Array;
  /**
   * Fill each event's `pre`, `post` and `jumps` (default true). Off, the ledger keeps when
   * and which events happened, and those three are one shared empty record: sweeps and
   * benchmarks that read only final values or event times skip building two value records
   * per event.
   */
  eventValues?: boolean;
  /**
   * times at which to keep the state, for boundary conditions: the right limit there (after
   * any event there in a forward run, before it in a backward one, whose events undo their jumps)
   */
  probes?: readonly number[] | Float64Array;
  /** called with the current time every few thousand steps (a progress bar) */
  progress?: (t: number) => void;
  /**
   * What to do at an accumulation of events or a persisting contact: `stop` (default: status
   * zeno, or failed for a contact) or `continue` (hold the event's function at zero as a
   * constraint while its force pushes); overrides `option zeno` of the model.
   */
  zeno?: 'stop' | 'continue';
}

/** A contact held as a constraint (zeno = continue): which event, from when, until when (null: to the end). */
export interface ContactRecord {
  event: string;
  from: number;
  to: number | null;
}

export type ValueRecord = Record<string, number>;

export interface EventRecord {
  t: number;
  name: string;
  kind: 'time' | 'state' | 'periodic';
  source: string;
  /** values before and after the instant, and what this event's actions changed; empty when run with `eventValues: false` */
  pre: ValueRecord;
  post: ValueRecord;
  jumps: ValueRecord;
}

export interface RunStats {
  steps: number;
  rejected: number;
  rhsEvaluations: number;
  events: number;
  /** the method that integrated the run (for `auto`: the one in use at the end) */
  method?: string;
  /** how often `auto` switched between its explicit and implicit method */
  switches?: number;
  /** why `auto` uses the method it ended with (stiffness, tolerance) */
  methodReason?: string;
  /** rodas, radau5 (and auto once it used one of them): evaluations of the Jacobian */
  jacobians?: number;
  /** rodas, radau5: LU factorisations of the iteration matrix (radau5: a real and a complex one each) */
  factorizations?: number;
  /** radau5: iterations of its simplified Newton method, rejected attempts included */
  newtonIterations?: number;
}

/** Which limit a dense solution gives at a jump: from below (`left`) or from above (`right`). */
export type DenseSide = 'left' | 'right';

/**
 * The solution of a run as a function of the independent variable (`dense: true`), from the
 * start to where the run ended. At an instant where events jump, `sol(t)` gives the limit
 * from above (the right limit: after the events, in a forward run) and `sol(t, 'left')` the
 * limit from below, the values the events read (their ledger's `pre`).
 */
export interface DenseSolution {
  /** the values of every column at t, as a record keyed by name (like `final`) */
  (t: number, side?: DenseSide): ValueRecord;
  /** the same as a row `[t, ...outputs]` in the order of `columns`, written into `out` (no allocation) */
  into(t: number, out: Float64Array, side?: DenseSide): Float64Array;
  readonly columns: readonly string[];
  /** the range it covers: the start of the run and where the run ended */
  readonly from: number;
  readonly to: number;
  /** the memory it holds, in bytes */
  readonly bytes: number;
}

export interface SimulationResult {
  model: string;
  independent: string;
  status: RunStatus;
  message: string | null;
  accumulationPoint?: number;
  columns: string[];
  rows: number[][];
  events: EventRecord[];
  final: ValueRecord;
  stats: RunStats;
  /** contacts held with zeno = continue, in the order they began */
  contacts?: ContactRecord[];
  /** state at each probe time (its right limit: see `options.probes`), in the order of `options.probes` */
  probes?: { t: number; y: Float64Array; d: Float64Array }[];
  /** what the run changed to be meaningful (a tolerance below double precision raised), in words */
  warnings: string[];
  /** the solution as a function of the independent variable (with `dense: true` only) */
  sol?: DenseSolution;
}

export { SimulationInputError } from '../codegen/stages.js';

export const DEFAULTS = {
  method: 'auto' as MethodName,
  rtol: 1e-6,
  atol: 1e-9,
  locate: 'exact' as LocateMode,
  maxEvents: 100_000,
  maxSteps: 10_000_000,
  maxRows: 5_000_000,
};
