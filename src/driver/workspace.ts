/**
 * The work arrays one Simulator shares between its parts (crossings, switching, firing,
 * recording), allocated once per compiled model and reused across runs: nothing in the step,
 * location or event loops allocates.
 */
import type { CompiledModel } from '../codegen/compile.js';
import type { Rhs } from '../integrators/stepper.js';
import { TimeOrigin } from './time-origin.js';

/**
 * One right-hand-side closure per compiled model, shared by all its Simulators. A new
 * Simulator (a new sweep, a new shoot) then does not change the call target that optimised
 * stepper code was specialised to (V8's "wrong call target" deoptimisations). Each run points
 * the context at its own arrays first. Runs are synchronous, but one can start inside another
 * (from its sink or progress callback): see enterRun.
 */
export interface RhsContext {
  p: Float64Array;
  d: Float64Array;
  sw: Float64Array;
  tHi: number;
  tLo: number;
  /** a contact held as a constraint adds its force (contact.ts); null nearly always */
  contact: { apply(t: number, y: Float64Array, dydt: Float64Array): void } | null;
}
const SHARED_RHS = new WeakMap<CompiledModel, { ctx: RhsContext; f: Rhs }>();
export function sharedRhs(model: CompiledModel): { ctx: RhsContext; f: Rhs } {
  let entry = SHARED_RHS.get(model);
  if (!entry) {
    const ctx: RhsContext = {
      p: new Float64Array(0),
      d: new Float64Array(0),
      sw: new Float64Array(0),
      tHi: 0,
      tLo: 0,
      contact: null,
    };
    const rhs = model.rhs;
    // the stepper's t counts from the run's time origin (see TimeOrigin)
    entry = {
      ctx,
      f: (t, y, dydt) => {
        const T = ctx.tHi + (ctx.tLo + t);
        rhs(T, y, ctx.p, ctx.d, ctx.sw, dydt);
        if (ctx.contact !== null) ctx.contact.apply(T, y, dydt);
      },
    };
    SHARED_RHS.set(model, entry);
  }
  return entry;
}

/** per compiled model, how many of its runs are in progress (more than one: nested in a callback) */
const RUNS_IN_PROGRESS = new WeakMap<CompiledModel, number>();

/**
 * Marks the start of a run of `model`. A run started inside another run of the same model (a
 * sink or progress callback that simulates) points the shared context at its own arrays and
 * times, and the outer run, going on after the callback, integrated the inner run's
 * parameters and clock: `h'' = -g` with the inner run's g gave the outer a wrong trajectory
 * with status ok. So a nested run keeps a copy of the context to give back (leaveRun); an
 * outer run allocates nothing.
 */
export function enterRun(model: CompiledModel): RhsContext | null {
  const depth = RUNS_IN_PROGRESS.get(model) ?? 0;
  RUNS_IN_PROGRESS.set(model, depth + 1);
  return depth === 0 ? null : { ...sharedRhs(model).ctx };
}

/** Marks the end of a run of `model` (whatever way it ended): the outer run's context back. */
export function leaveRun(model: CompiledModel, outer: RhsContext | null): void {
  RUNS_IN_PROGRESS.set(model, (RUNS_IN_PROGRESS.get(model) ?? 1) - 1);
  if (outer !== null) Object.assign(sharedRhs(model).ctx, outer);
}

export class Workspace {
  readonly model: CompiledModel;
  /** states (at least one slot: a model without states integrates a dummy that stays 0) */
  readonly y: Float64Array;
  readonly d: Float64Array;
  readonly sw: Float64Array;
  p: Float64Array;
  /** direction of the current run: +1 forward, -1 backward (jumps are undone backwards) */
  dir = 1;
  readonly origin = new TimeOrigin();
  /** scratch states: a dense-output point, pre-event copies, the post-event values */
  readonly yTmp: Float64Array;
  readonly yPre: Float64Array;
  readonly yOut: Float64Array;
  readonly dPre: Float64Array;
  readonly dOut: Float64Array;
  readonly dOwn: Float64Array;
  /** watched functions and their rates at the start of the step, and at its end */
  readonly gPrev: Float64Array;
  readonly rPrev: Float64Array;
  readonly gNew: Float64Array;
  readonly rNew: Float64Array;
  /** scratch values of all watched functions, their rates and rounding bounds */
  readonly gTmp: Float64Array;
  readonly gAfter: Float64Array;
  readonly rTmp: Float64Array;
  readonly gBound: Float64Array;
  readonly rBound: Float64Array;
  /** output rows before and after an instant */
  readonly outPre: Float64Array;
  readonly outPost: Float64Array;
  readonly nWatch: number;

  /**
   * Per event, the own time of a delta root taken off the stop queue (rootTime) and the
   * instant it was taken for (rootAt): see actionTime.
   */
  readonly rootTime: Float64Array;
  readonly rootAt: Float64Array;
  /** per event, its root's residual: the exact root minus rootTime (see actionShift) */
  readonly rootShift: Float64Array;

  constructor(model: CompiledModel) {
    this.model = model;
    this.rootTime = new Float64Array(model.events.length).fill(NaN);
    this.rootAt = new Float64Array(model.events.length).fill(NaN);
    this.rootShift = new Float64Array(model.events.length);
    const n = Math.max(1, model.nStates),
      nd = model.nDiscrete,
      nw = model.watchInfo.length,
      no = model.outputNames.length;
    this.y = new Float64Array(n);
    this.yTmp = new Float64Array(n);
    this.yPre = new Float64Array(n);
    this.yOut = new Float64Array(n);
    this.d = new Float64Array(nd);
    this.dPre = new Float64Array(nd);
    this.dOut = new Float64Array(nd);
    this.dOwn = new Float64Array(nd);
    this.sw = new Float64Array(model.nSwitch);
    this.p = model.parameters();
    this.nWatch = nw;
    this.gPrev = new Float64Array(nw);
    this.rPrev = new Float64Array(nw);
    this.gNew = new Float64Array(nw);
    this.rNew = new Float64Array(nw);
    this.gTmp = new Float64Array(nw);
    this.gAfter = new Float64Array(nw);
    this.rTmp = new Float64Array(nw);
    this.gBound = new Float64Array(nw);
    this.rBound = new Float64Array(nw);
    this.outPre = new Float64Array(no);
    this.outPost = new Float64Array(no);
  }

  /** the independent variable's name, for messages */
  get independent(): string {
    return this.model.system.independent;
  }

  /**
   * The time at which event k's actions are evaluated at the instant t: a delta root's own
   * time where the stop queue took it for this instant, else t. Within the tie of t an
   * instant holds times that differ (8.9e-16 near t = 0 on [0, 1]), and a root's weight
   * 1/|u'(r)| belongs to its root: delta(t^2 - 1e-300) on [0, 1] has its root 1e-150 in the
   * start's instant, and 1/|2 t| there at t = 0 was Infinity, a false failure.
   */
  actionTime(k: number, t: number): number {
    return this.rootAt[k] === t ? this.rootTime[k] : t;
  }

  /**
   * What event k's actions at the instant t pass as `tr`: where its time is a delta root's
   * (actionTime), the exact root minus that double (the root finder's residual, a fraction of
   * its ulp), for the weight 1/|u'| at the root itself (codegen/emit-events.ts); else 0.
   */
  actionShift(k: number, t: number): number {
    return this.rootAt[k] === t ? this.rootShift[k] : 0;
  }

  /**
   * Event k's actions at the instant t, from (y, d) into (yOut, dOut), in direction `dir`, with
   * rounding scales into `sc` if given: at its own root's time and shift (actionTime,
   * actionShift), which every place an action runs must pass alike.
   */
  applyActions(
    k: number,
    t: number,
    y: Float64Array,
    d: Float64Array,
    sw: Float64Array,
    yOut: Float64Array,
    dOut: Float64Array,
    dir: number,
    sc?: Float64Array,
  ): void {
    this.model.events[k].apply(this.actionTime(k, t), y, this.p, d, sw, yOut, dOut, dir, sc, this.actionShift(k, t));
  }
}
