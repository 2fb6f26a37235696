/**
 * Rows and the impulse ledger: where they go (the result, or a sink as they are produced)
 * and how dense they are (every accepted step, a grid of `outputStep`, rows exactly at the
 * `outputTimes`, or events only). Event rows (before and after) are always written; the two
 * ends too, except with `outputTimes`, whose rows are those times (a run that stops early
 * still writes where it stopped). With `dense: true` every step's dense output and every
 * instant is kept as well (dense-steps.ts), for the run's `sol`.
 */
import { gridPoints } from '../codegen/event-times.js';
import type { MethodName, Stepper } from '../integrators/stepper.js';
import { denseSolution } from './dense-solution.js';
import type { DenseBudget } from './dense-store.js';
import { StepDense } from './dense-steps.js';
import {
  SimulationInputError,
  type EventRecord,
  type SimulationResult,
  type SimulationSink,
  type ValueRecord,
} from './types.js';
import type { Workspace } from './workspace.js';

function record(): ValueRecord {
  return Object.create(null) as ValueRecord;
}

/** How a run's last values read relations at their zero: before (1) or after (-1) in the run's direction, or as they stand (0). */
export type EndSide = -1 | 0 | 1;

export class Recorder {
  private sink: SimulationSink | null = null;
  private rows: number[][] = [];
  private events: EventRecord[] = [];
  /** trajectory rows wanted at all (record: false turns every row off) */
  private keep = true;
  private eventsOnly = false;
  private outputStep = 0;
  private maxRows = Infinity;
  /** absolute start of the grid, and the index of its next point */
  private gridStart = 0;
  private gridNext = 1;
  /** outputTimes, in the order of the run (null: not asked for) */
  private times: Float64Array | null = null;
  private tEnd = 0;
  private readonly buffer: Float64Array;
  private readonly out: Float64Array;
  private count = 0;
  /** the last row's time, and whether it was a plain step row (not an event's) */
  private lastT = NaN;
  private lastWasStep = false;
  /** the run produced more rows than maxRows: no row is written past it */
  private rowsOverflow = false;
  /** where the first row past the limit would have stood */
  private overflowAt = NaN;
  /** the stepper run's dense solution (dense: true), and the budget of a dense solution on either path */
  dense: StepDense | null = null;
  private denseBudget: DenseBudget | null = null;
  /** names are ordinary keys unless a model calls a variable __proto__ */
  private readonly plainRecords: boolean;

  constructor(private readonly ws: Workspace) {
    const m = ws.model;
    this.buffer = new Float64Array(m.outputNames.length + 1);
    this.out = new Float64Array(m.outputNames.length);
    this.plainRecords = ![m.system.independent, ...m.outputNames].includes('__proto__');
  }

  begin(
    result: SimulationResult,
    o: {
      keep: boolean;
      sink?: SimulationSink;
      eventsOnly: boolean;
      outputStep: number;
      outputTimes?: readonly number[];
      maxRows: number;
      t0: number;
      tEnd: number;
      /**
       * dense: true. With the stepper's method the recorder keeps the steps and instants and
       * gives the result its `sol`; without (the analytic path keeps its own), the budget only,
       * whose running out ends the run as the row limit does.
       */
      dense?: { budget: DenseBudget; method?: MethodName };
    },
  ): void {
    this.times = o.outputTimes ? this.orderTimes(o.outputTimes, o.t0, o.tEnd) : null;
    this.sink = o.sink ?? null;
    this.rows = result.rows;
    this.events = result.events;
    this.keep = o.keep;
    this.eventsOnly = o.eventsOnly;
    this.outputStep = o.outputStep;
    // (the limit holds for streamed rows too: a sink writing to a file would fill the disk)
    this.maxRows = o.maxRows;
    this.gridStart = o.t0;
    if (o.outputStep > 0) this.stepPoint = gridPoints(o.t0, this.ws.dir * o.outputStep);
    // (a time at the start is the start's row, written as the start's)
    this.gridNext = this.times ? (this.times.length > 0 && this.times[0] === o.t0 ? 1 : 0) : 1;
    this.tEnd = o.tEnd;
    this.count = 0;
    this.lastT = NaN;
    this.lastWasStep = false;
    this.rowsOverflow = false;
    this.overflowAt = NaN;
    this.denseBudget = o.dense?.budget ?? null;
    this.dense = null;
    if (o.dense?.method !== undefined) {
      this.dense = new StepDense(this.ws, o.dense.method, o.dense.budget, o.t0);
      result.sol = denseSolution(this.ws.model, this.dense);
    }
  }

  /** the run produced more rows than maxRows, or its dense solution more than its budget: the run stops */
  get overflow(): boolean {
    return this.rowsOverflow || (this.denseBudget !== null && this.denseBudget.full);
  }

  /**
   * The output times in the order of the run, each once; a time outside the range is an input
   * error (it could never be written).
   */
  private orderTimes(times: readonly number[], t0: number, tEnd: number): Float64Array {
    const dir = tEnd >= t0 ? 1 : -1;
    for (const t of times)
      if (!(dir * (t - t0) >= 0 && dir * (tEnd - t) >= 0))
        throw new SimulationInputError(
          `outputTimes: ${t} is outside the range ${t0} to ${tEnd} (--output-times on the command line)`,
        );
    const sorted = Float64Array.from(new Set(times)).sort();
    return dir > 0 ? sorted : sorted.reverse();
  }

  /** whether plain step rows are written (not on a grid, not at given times, not events only) */
  get everyStep(): boolean {
    return this.keep && !this.eventsOnly && this.outputStep === 0 && this.times === null;
  }

  /** the grid's point k: of outputStep, or the k-th output time (NaN past the last) */
  private gridPoint(k: number): number {
    if (this.times) return k < this.times.length ? this.times[k] : NaN;
    return this.stepPoint(k);
  }

  /** the k-th point of the outputStep grid: the decimals FROM + k·DT mean (event-times.ts); none without outputStep */
  private stepPoint: (k: number) => number = () => NaN;

  /** the time of the last row written (NaN: none yet) */
  get lastRowTime(): number {
    return this.lastT;
  }

  /** Writes the row [t, ...out], unless it is one past the row limit. */
  private push(t: number, out: Float64Array, step: boolean): void {
    if (++this.count > this.maxRows) {
      if (!this.rowsOverflow) this.overflowAt = t;
      this.rowsOverflow = true;
      return;
    }
    this.lastT = t;
    this.lastWasStep = step;
    if (this.sink) {
      const b = this.buffer;
      b[0] = t;
      for (let i = 0; i < out.length; i++) b[i + 1] = out[i];
      this.sink.row(b);
      return;
    }
    const r = new Array<number>(out.length + 1);
    r[0] = t;
    for (let i = 0; i < out.length; i++) r[i + 1] = out[i];
    this.rows.push(r);
  }

  /** The row of (t, y, d) after an accepted step (only when every step is recorded). */
  stepRow(t: number, y: Float64Array, d: Float64Array): void {
    // (steps closer than an ulp of t, which the time origin's two doubles allow, share the
    // row of the first: two rows at one t mean an event, CLI.md)
    if (!this.everyStep || (this.lastWasStep && this.lastT === t)) return;
    const ws = this.ws;
    ws.model.outputs(t, y, ws.p, d, ws.sw, this.out);
    this.push(t, this.out, true);
  }

  /**
   * The grid rows of `outputStep` in (tPrevAbs, tAbs], from the dense output of the last
   * step: tau0 and tau1 are the stepper's times of tPrevAbs and tAbs (tAbs may be an instant
   * inside the step, where it was cut by an event).
   */
  gridRows(stepper: Stepper, tPrevAbs: number, tAbs: number, tau0: number, tau1: number): void {
    // (the dense solution keeps the same part of the step)
    if (this.dense !== null && tAbs !== tPrevAbs) this.dense.piece(stepper, tPrevAbs, tAbs, tau0, tau1);
    if (!this.keep || this.eventsOnly || (this.outputStep === 0 && this.times === null)) return;
    const ws = this.ws,
      dir = ws.dir;
    const lo = Math.min(tau0, tau1),
      hi = Math.max(tau0, tau1);
    while (!this.overflow) {
      const tg = this.gridPoint(this.gridNext);
      // (the end's row is written as the end's, NaN: no grid point left)
      if (!(dir * (tg - tAbs) <= 0) || dir * (tg - this.tEnd) >= 0) return;
      this.gridNext++;
      if (dir * (tg - tPrevAbs) <= 0) continue;
      // (the stepper's t of the grid point from the time origin's two doubles: tPrevAbs is the
      // step's start rounded to a double, off by up to half an ulp of t, which at t = 1e6 is
      // 5.8e-11, a thousandth of a step of 1e-7 after a stiff kick: y = exp(-1e5 (t - 1e6)) came
      // out 4e-6 off at rtol 1e-10. Kept inside the step against the origin's own rounding.)
      const tau = tg === tAbs ? tau1 : Math.min(Math.max(ws.origin.local(tg), lo), hi);
      stepper.interpolate(tau, ws.yTmp);
      // (left limits: a grid row at an instant's time comes before its events)
      ws.model.outputsAtInstant(tg, ws.yTmp, ws.p, ws.d, ws.sw, this.out, dir);
      if (this.held !== null) this.hold(tg, this.gridNext - 1);
      else this.push(tg, this.out, false);
    }
  }

  /**
   * Grid rows computed but not yet written (holdGridRows), row after row: [k, t, ...out], k
   * the grid point's index; null when rows are written as they come.
   */
  private held: number[] | null = null;

  private hold(t: number, k: number): void {
    const h = this.held!;
    h.push(k, t);
    for (let i = 0; i < this.out.length; i++) h.push(this.out[i]);
  }

  /**
   * The grid rows of {@link gridRows} over the whole step, kept back until
   * {@link releaseGridRows} says where the instant in it stands. For an instant located again
   * on the solution after the step's dense output is gone (solution-refine.ts: radau5, rodas
   * over a stiff step), which moves it a few ulps either way from where the dense output put
   * it: rows written up to the first guess stood after the instant with the values before it
   * (a stop at 1.4142135623730945 after a row at 1.4142135623730951), or were lost between
   * the guess and a later instant. Memory: the rows of one step, held only at such an instant.
   * The dense solution keeps the whole step too, cut at the instant on release: cut at the
   * guess, sol(t) between the guess and a later instant read no piece (the end's values: n = 1
   * before the event that makes it 1).
   */
  holdGridRows(stepper: Stepper, tPrevAbs: number, tAbs: number, tau0: number, tau1: number): void {
    const dense = this.dense;
    if (dense !== null && tAbs !== tPrevAbs) dense.piece(stepper, tPrevAbs, tAbs, tau0, tau1);
    this.dense = null;
    this.held = [];
    try {
      this.gridRows(stepper, tPrevAbs, tAbs, tau0, tau1);
    } finally {
      this.dense = dense;
    }
  }

  /**
   * Writes the held rows up to the instant t (a row at t itself is its left limit, before the
   * instant's rows), and moves the grid back to the first row past it: the motion after the
   * instant writes that one, with the values after it.
   */
  releaseGridRows(t: number): void {
    const h = this.held;
    if (h === null) return;
    this.held = null;
    this.dense?.cutLastPiece(t);
    const width = this.out.length + 2,
      dir = this.ws.dir;
    const row = new Float64Array(this.out.length);
    for (let i = 0; i < h.length; i += width) {
      if (dir * (h[i + 1] - t) > 0) {
        this.gridNext = h[i];
        return;
      }
      for (let j = 0; j < row.length; j++) row[j] = h[i + 2 + j];
      this.push(h[i + 1], row, false);
    }
  }

  /**
   * The next point of the grid (outputStep or outputTimes) not yet written, NaN when there is
   * none: for a driver that writes grid rows itself (the analytic path, from closed forms),
   * which then calls {@link advanceGrid} and writes the row with {@link fixedRow}.
   */
  nextGridTime(): number {
    if (!this.keep || this.eventsOnly || (this.outputStep === 0 && this.times === null) || this.overflow) return NaN;
    return this.gridPoint(this.gridNext);
  }

  advanceGrid(): void {
    this.gridNext++;
  }

  /** Moves the grid past t (an event or restart at t already wrote its rows). */
  skipGridTo(t: number): void {
    if (this.times) {
      while (this.gridNext < this.times.length && this.ws.dir * (this.times[this.gridNext] - t) <= 0) this.gridNext++;
      return;
    }
    if (this.outputStep === 0) return;
    // (the first point past t: the quotient may be off by one in rounding either way; a few
    // steps at most, since past 2^53 points, or with a step below t's ulp, k ± 1 may not move)
    const dir = this.ws.dir;
    let k = Math.floor((dir * (t - this.gridStart)) / this.outputStep) + 1;
    for (let i = 0; i < 4 && k > 1 && dir * (this.stepPoint(k - 1) - t) > 0; i++) k--;
    for (let i = 0; i < 4 && dir * (this.stepPoint(k) - t) <= 0; i++) k++;
    if (k > this.gridNext) this.gridNext = k;
  }

  /** A row that is always written when rows are kept: events, the ends, a failure point. */
  fixedRow(t: number, out: Float64Array): void {
    if (this.keep) this.push(t, out, false);
  }

  /**
   * The row at (t, y, d) unless the last row already stands at t: the start, the end, a failure.
   * With outputTimes, the start and the end only when they are among the times. `side`: how the
   * outputs read relations at their zero (see outputsAt).
   */
  endRow(t: number, y: Float64Array, d: Float64Array, side: EndSide = 0): void {
    if (this.dense !== null) this.dense.point(t, y, d);
    if (!this.keep || this.lastT === t || !Number.isFinite(t)) return;
    if (this.times && (t === this.gridStart || t === this.tEnd) && !this.times.includes(t)) return;
    this.outputsAt(t, y, d, side, this.out);
    this.push(t, this.out, false);
  }

  /**
   * The last row of a run that was not failed, and its final values, at (t, y, d): `side` 1
   * at the end of its range (the left limits: a crossing there is no event), -1 where it ended
   * at an instant (a stop, a delta at the end: after its events, as its last row), 0 as they
   * stand. The stepper and the analytic path end alike.
   */
  finalRow(t: number, y: Float64Array, d: Float64Array, side: EndSide): ValueRecord {
    this.endRow(t, y, d, side);
    this.outputsAt(t, y, d, side, this.ws.outPost);
    return this.values(t, this.ws.outPost);
  }

  /** The outputs at (t, y, d) into out: relations at their zero on `side` in the run's direction, or as they stand (0). */
  private outputsAt(t: number, y: Float64Array, d: Float64Array, side: EndSide, out: Float64Array): void {
    const ws = this.ws;
    if (side !== 0) ws.model.outputsAtInstant(t, y, ws.p, d, ws.sw, out, side * ws.dir);
    else ws.model.outputs(t, y, ws.p, d, ws.sw, out);
  }

  /**
   * The before-row of an instant at t. An event placed at the start of its step (--locate
   * before) stands where the last step row already is, with the same values: that row is it.
   */
  beforeRow(t: number, out: Float64Array): void {
    if (this.keep && this.lastWasStep && this.lastT === t) {
      this.lastWasStep = false;
      return;
    }
    // A point of the grid (a listed output time, or FROM + k·DT of outputStep) at an instant
    // has its own row, the left limit, before the instant's two rows: the grid writes it
    // inside the range (gridRows, the analytic path's outputsUntil), but never at the ends,
    // whose rows are the ends' own, and an instant there writes no start or end row. A grid
    // point at an end with an instant there had 2 rows where one inside had 3 (outputStep
    // after outputTimes: --output-step 0.5 and --output-times 0:2:5 wrote different rows for
    // a tick at 2 = TO). (Once per time: a second instant at t finds the row written.)
    if (this.keep && this.lastT !== t && (t === this.gridStart || t === this.tEnd) && this.onGrid(t))
      this.push(t, out, false);
    this.fixedRow(t, out);
  }

  /** Whether t, an end of the range, is a point of the grid (a listed time, or FROM + k·DT). */
  private onGrid(t: number): boolean {
    const times = this.times;
    if (times !== null) return times.length > 0 && (t === times[0] || t === times[times.length - 1]);
    if (this.outputStep === 0 || this.eventsOnly) return false;
    if (t === this.gridStart) return true;
    // (the point nearest t: the quotient may be off by one in rounding either way)
    const k = Math.round((this.ws.dir * (t - this.gridStart)) / this.outputStep);
    for (let j = Math.max(0, k - 1); j <= k + 1; j++) if (this.stepPoint(j) === t) return true;
    return false;
  }

  /** Why the run stopped at the row limit (or the dense solution's), naming the limit and how to raise it or need less. */
  overflowMessage(): string {
    const budget = this.denseBudget;
    if (!this.rowsOverflow && budget !== null)
      return `the dense solution (dense: true) would hold more than ${mebibytes(budget.limit)} by ${this.ws.model.system.independent} = ${budget.fullAt} (its limit, maxDenseBytes): ask for rows at the times you need instead (outputTimes; --output-times on the command line), shorten the range, or raise maxDenseBytes`;
    // (with eventsOnly the rows are the events' own, two each: fewer only with fewer events)
    const fewer = this.eventsOnly
      ? "the rows are the events' own, two per event (eventsOnly): raise the limit, or shorten the range"
      : 'ask for fewer rows (outputStep or eventsOnly; --output-step, --events-only) or raise the limit';
    return `more than ${this.maxRows} rows by ${this.ws.model.system.independent} = ${this.overflowAt} (the row limit, maxRows; --max-rows on the command line): ${fewer}`;
  }

  ledger(entry: EventRecord): void {
    if (this.sink) this.sink.event?.(entry);
    else this.events.push(entry);
  }

  /** The outputs `out` at t as a record keyed by name. */
  values(t: number, out: Float64Array): ValueRecord {
    // Plain objects with keys in a fixed order share one hidden class (fast); a model that
    // names a variable __proto__ needs a prototype-free object for it to be an ordinary key.
    const v: ValueRecord = this.plainRecords ? {} : record();
    v[this.ws.model.system.independent] = t;
    const names = this.ws.model.outputNames;
    for (let i = 0; i < names.length; i++) v[names[i]] = out[i];
    return v;
  }

  emptyRecord(): ValueRecord {
    return this.plainRecords ? {} : record();
  }
}

/** A size in bytes as people read it: "256 MiB", "1.5 GiB", "900 bytes". */
export function mebibytes(bytes: number): string {
  if (bytes >= 2 ** 30) return `${+(bytes / 2 ** 30).toPrecision(3)} GiB`;
  if (bytes >= 2 ** 20) return `${+(bytes / 2 ** 20).toPrecision(3)} MiB`;
  if (bytes >= 2 ** 10) return `${+(bytes / 2 ** 10).toPrecision(3)} KiB`;
  return `${bytes} bytes`;
}
