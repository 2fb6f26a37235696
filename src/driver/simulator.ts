/**
 * The driver: integrates a compiled model over its range with exact events
 * (MODEL-LANGUAGE.md, "Events, precisely"), around one shared workspace.
 *
 * - Time events (delta roots, `at`, `every`) sit in a stop queue; the stepper lands on them.
 * - State events and switching functions are evaluated once per accepted step; the ones
 *   that can cross are refined on the dense output (crossings.ts). The earliest crossing
 *   wins; coincident ones (coincidence.ts) are processed together, in file order (firing.ts);
 *   at the end of the range only some count (crossings-at-end.ts).
 * - After a jump the stepper restarts cleanly with its t counted from that instant: the
 *   absolute time is kept in two doubles (time-origin.ts).
 * - A geometric accumulation of events stops the run with status `zeno` (zeno.ts); a
 *   persisting contact, a crossing the arithmetic cannot resolve, a step size that collapses
 *   and every limit (steps, events, rows) end it with status `failed` and a message, keeping
 *   what was computed.
 * - Rows and the ledger go to the result or, streaming, to a sink (recorder.ts).
 *
 * A `Simulator` owns every work array for one compiled model and is reused across runs
 * (sweeps, Newton iterations).
 */
import type { CompiledModel } from '../codegen/compile.js';
import { FIRST_STEP_FAC_MAX } from '../integrators/controller.js';
import { minStepSize } from '../integrators/stepper-base.js';
import type { Stepper } from '../integrators/stepper.js';
import { ScheduleError } from '../codegen/event-times.js';
import { ZenoWatch } from './zeno.js';
import { ContactLifecycle } from './contact-lifecycle.js';
import { Crossings } from './crossings.js';
import { Coincidence } from './coincidence.js';
import { CrossingsAtEnd } from './crossings-at-end.js';
import { Diagnosis } from './diagnosis.js';
import { StepGuard } from './step-guard.js';
import { StiffEvents } from './stiff-events.js';
import { tieFloor, tieTolerance } from './time-tie.js';
import { StopQueue } from './stop-queue.js';
import { Firing, iterationMessage } from './firing.js';
import { Recorder } from './recorder.js';
import { fixedStepWarning } from './fixed-step-stability.js';
import { eventScaleWarning } from './watch-scale.js';
import { refineOnSolution, refinesOnSolution } from './solution-refine.js';
import { isNoisyStep } from './stiff-step.js';
import { Switching } from './switching.js';
import { resolveRange, reversedByStart } from './range.js';
import { resolveSettings } from './settings.js';
import { DenseBudget } from './dense-store.js';
import {
  SimulationInputError,
  type LocateMode,
  type SimulateOptions,
  type SimulationResult,
  type ValueRecord,
} from './types.js';
import { Workspace, sharedRhs } from './workspace.js';
import { emptyResult, failRun, finishStats, startValues, takeDue, takeProbes, type RunState } from './run-state.js';
import { StepperCache } from './stepper-cache.js';
import { failed, type RunEnd } from './run-end.js';
import { foldSteps, stepStates } from './step-fold.js';

export class Simulator {
  readonly model: CompiledModel;
  private readonly ws: Workspace;
  private readonly recorder: Recorder;
  private readonly switching: Switching;
  private readonly firing: Firing;
  private readonly crossings: Crossings;
  /** which other events join an instant found by a crossing or at a scheduled time */
  private readonly coincidence: Coincidence;
  /** which crossings count at the end of the range (and at a scheduled time landed on) */
  private readonly atEnd: CrossingsAtEnd;
  private readonly zeno: ZenoWatch;
  /** the stepper of the last run, reused while the settings stay the same */
  private readonly steppers: StepperCache;
  /** the stepper's growth limit after the first step of a restart (see Stepper.firstStepGrowth) */
  private readonly firstStepGrowth: number;
  /** scheduled events due at one instant (see takeDue) */
  private readonly due: number[] = [];
  /** watched functions and rates just before an instant's actions (for re-arming; Firing.gFire) */
  private readonly gFire: Float64Array;
  private readonly rFire: Float64Array;
  private readonly diagnosis: Diagnosis;
  private readonly guard: StepGuard;
  /** state events fired while an explicit method looked stiff (stiff-events.ts) */
  private readonly stiffEvents: StiffEvents;
  private readonly stopQueue: StopQueue;
  /** the events of the last instant (for the message when the next step finds a crossing unresolved) */
  private lastFired: readonly number[] = [];
  /** the time of the last instant (NaN before the first) */
  private lastInstantAt = NaN;
  /** option zeno = continue: accumulations and persisting contacts are held as constraints */
  private zenoContinue = false;
  /** contacts held as constraints (contact-lifecycle.ts) */
  private readonly contacts: ContactLifecycle;
  /** the start of a step taken again to land on an event (solution-refine.ts) */
  private readonly refineStart: Float64Array;
  /** the start of the current run's range (restartAtOrigin measures the resolution from it) */
  private runStart = 0;
  /** per step variable, the state its jumps are folded into at a restart (step-fold.ts) */
  private readonly stepStates: Int32Array;
  /** per watched function an instant fired, its rounding bound on the terms before the fold (processInstant) */
  private readonly termBound: Float64Array;
  /** the run's firstStep: the proposal of the first restart (undefined: the stepper's heuristic) */
  private firstStep: number | undefined = undefined;

  constructor(model: CompiledModel) {
    this.model = model;
    const ws = (this.ws = new Workspace(model));
    this.recorder = new Recorder(ws);
    this.switching = new Switching(ws);
    this.firing = new Firing(ws, this.recorder, this.switching);
    this.crossings = new Crossings(ws);
    this.coincidence = new Coincidence(ws, this.crossings);
    this.atEnd = new CrossingsAtEnd(ws, this.crossings);
    this.crossings.judged = (k) => this.firing.judged(k);
    this.crossings.leftAtZero = (k) => this.firing.leftAtZero(k);
    this.firing.held = this.crossings.arming;
    this.zeno = new ZenoWatch(model.events.length);
    this.gFire = this.firing.gFire;
    this.rFire = this.firing.rFire;
    this.diagnosis = new Diagnosis(ws);
    this.guard = new StepGuard(this.diagnosis, model.nStates);
    this.stiffEvents = new StiffEvents();
    this.stopQueue = new StopQueue(model.events.length);
    this.stopQueue.rootTime = ws.rootTime;
    this.stopQueue.rootAt = ws.rootAt;
    this.stopQueue.rootShift = ws.rootShift;
    this.refineStart = new Float64Array(model.nStates);
    this.stepStates = stepStates(ws);
    this.termBound = new Float64Array(ws.nWatch);
    this.steppers = new StepperCache(ws);
    this.contacts = new ContactLifecycle(ws, this.crossings, this.zeno, this.recorder, {
      restart: (stepper, hInit) => this.restartAtOrigin(stepper, hInit),
      refresh: (t, y, d) => this.refreshWatch(t, y, d),
    });
    // A step that grows a thousandfold could jump over the bump of a non-affine watched
    // function without a sample near it; affine ones cannot hide a crossing that way.
    this.firstStepGrowth = model.watchInfo.every((w) => w.affine) ? FIRST_STEP_FAC_MAX : 1;
  }

  run(options: SimulateOptions = {}): SimulationResult {
    const m = this.model,
      ws = this.ws;
    const sys = m.system;
    const settings = resolveSettings(m, options);
    const { method, rtol, atol, locate, maxEvents, maxSteps, maxRows, outputStep, set } = settings;
    // (the analytic path is chosen before the stepper: src/analytic/simulator.ts)
    if (method === 'analytic')
      throw new SimulationInputError(`method analytic is not a stepper: run it through deltastep's Simulator`);
    const stepOpt = settings.step;
    const p = startValues(ws, settings, set);
    const { y, d } = ws;

    const range = resolveRange(m, p, options);
    const { t0, tEnd, modelStart } = range;
    this.diagnosis.rangeStart = t0;
    const dir = tEnd >= t0 ? 1 : -1;
    ws.dir = dir;
    // (an empty range takes no step: any positive step will do for a fixed-step method)
    const hFixed = stepOpt ?? (Math.abs(tEnd - t0) / 1000 || 1);
    const fixedStep = method === 'rk4' || method === 'euler';
    // the dense output is read only to locate watched functions and to interpolate grid rows
    const dense =
      ws.nWatch > 0 || (outputStep > 0 && !settings.eventsOnly) || settings.outputTimes !== undefined || settings.dense;
    const hMax = fixedStep ? hFixed : (settings.maxStep ?? Infinity);
    const stepper = this.steppers.get(method, rtol, atol, hMax, hFixed, dense);
    stepper.resetStats();
    stepper.firstStepGrowth = this.firstStepGrowth;
    this.zeno.reset();
    this.zenoContinue = settings.zeno === 'continue';
    this.contacts.reset();
    this.lastInstantAt = NaN;
    this.lastFired = [];
    this.crossings.reset();

    const result = emptyResult(m, settings.warnings);
    const reversed = reversedByStart(m, options, range);
    if (reversed !== null) result.warnings.push(reversed);
    const keep = settings.record;
    this.recorder.begin(result, {
      keep,
      sink: settings.sink,
      eventsOnly: settings.eventsOnly,
      outputStep,
      outputTimes: settings.outputTimes,
      maxRows,
      t0,
      tEnd,
      dense: settings.dense ? { budget: new DenseBudget(settings.maxDenseBytes), method } : undefined,
    });
    this.firstStep = settings.firstStep;
    this.firing.rows = keep;
    this.firing.withValues = settings.eventValues;
    this.firing.tieFloor = this.crossings.arming.tieFloor = this.zeno.floor = tieFloor(t0, tEnd);
    this.firing.rtol = rtol;
    this.firing.atol = atol;
    this.crossings.rtol = rtol;
    this.crossings.noise.rtol = rtol;
    this.crossings.noise.atol = atol;
    this.crossings.atol = atol;
    // probes outside the range are never reached (shoot then reports the run as too short)
    const probes = settings.probes ? settings.probes.filter((q) => dir * (q - t0) >= 0 && dir * (tEnd - q) >= 0) : [];
    const probeOut: NonNullable<SimulationResult['probes']> = [];
    if (settings.probes) result.probes = probeOut;

    // The stop queue: scheduled times in the order of integration, then probes.
    const lo = Math.min(t0, tEnd),
      hi = Math.max(t0, tEnd);
    const queue = this.stopQueue;
    queue.rtol = rtol;
    try {
      queue.reset(m.events, p, lo, hi, dir, modelStart);
    } catch (err) {
      if (err instanceof ScheduleError) return this.fail(result, err.message, t0, y, d);
      throw err;
    }
    probes.sort((a, b) => dir * (a - b));

    const rs: RunState = {
      stepper,
      result,
      locate,
      maxEvents,
      maxSteps,
      queue,
      probes,
      pi: 0,
      probeOut,
      eventCount: 0,
      t0,
      tEnd,
      t: t0,
      ended: t0 === tEnd,
      progress: settings.progress,
    };
    this.guard.begin(stepper, rtol, atol, maxSteps, tEnd, sys.independent);
    this.stiffEvents.begin();
    const slidingAtStart = this.switching.lock(t0, y, d);
    const due = t0 !== tEnd ? this.withDeltasAtEnd(takeDue(rs, t0, this.due), t0, true) : takeDue(rs, t0, this.due);
    // (Events at the start may move the state off the sliding surface: fire() checks again.)
    if (slidingAtStart >= 0 && due.length === 0 && t0 !== tEnd)
      return this.fail(result, this.switching.slidingMessage(slidingAtStart, t0), t0, y, d);
    ws.origin.set(t0);
    this.runStart = t0;
    this.restartAtOrigin(stepper, this.firstStep);
    let end: RunEnd | null = null;
    // At the start either the instant's before/after rows (fire writes them) or the initial row.
    if (due.length > 0) {
      // (a backward run keeps its probes before the instant, as at a landing: advanceTo)
      if (ws.dir < 0) takeProbes(rs, this.ws, t0);
      end = this.processInstant(rs, t0, [...due], 0);
      // (and after an instant there, on the state it left: a no-op tick at t0 beside a ball at
      // rest on the floor let it fall through with status ok, where the run without the tick
      // fails; a function the instant held at its zero is left to its own rule)
      if (end === null && t0 !== tEnd) this.crossings.arming.restingAtStart(t0);
    } else {
      this.recorder.endRow(t0, y, d);
      this.refreshWatch(t0, y, d);
      // (a function at rest at its zero: a contact if the motion pushes it across)
      if (t0 !== tEnd) this.crossings.arming.restingAtStart(t0);
    }
    takeProbes(rs, this.ws, t0);
    // (a run past the row limit stops there: its rows could otherwise fill a disk)
    while (end === null && !rs.ended && !this.recorder.overflow) end = this.advance(rs);
    if (end === null && rs.ended && !this.recorder.overflow) end = this.provisionalAtEnd(rs);
    return this.finish(rs, end);
  }

  /** The one place a run ends: its status and message, last row, final values and stats. */
  private finish(rs: RunState, end: RunEnd | null): SimulationResult {
    const ws = this.ws,
      result = rs.result;
    // a state whose error the tolerances never controlled (StepGuard.toleranceWarning)
    const tolerance = this.guard.toleranceWarning(rs.stepper, end !== null && end.kind === 'failed');
    if (tolerance !== null) result.warnings.push(tolerance);
    const stiff = this.stiffEvents.warning(rs.stepper, this.model.system.independent);
    if (stiff !== null) result.warnings.push(stiff);
    const unstable = fixedStepWarning(rs.stepper);
    if (unstable !== null) result.warnings.push(unstable);
    // an event function that never left the band atol leaves it (watch-scale.ts)
    const { rtol, atol } = this.crossings.noise;
    const scale = eventScaleWarning(ws, rs.stepper, this.crossings.peak, rs.t, rtol, atol);
    if (scale !== null) result.warnings.push(scale);
    if (end !== null && end.kind === 'failed') {
      // what a staircase in t (t read far from 0, steps below its ulp) looks like is not its
      // cause: a run failing anyway names it from a hundredth of the tolerance
      const coarse = this.diagnosis.timeResolutionNamed
        ? null
        : this.diagnosis.timeResolutionCause(rs.stepper, end.t, end.y, 0.01);
      const message =
        coarse === null ? end.message : `${coarse} (the run stopped on what that looks like: ${end.message})`;
      this.fail(result, message, end.t, end.y, ws.d);
      finishStats(rs);
      return result;
    }
    if (end !== null) {
      result.status = end.kind;
      result.message = end.message;
      if (end.kind === 'zeno') result.accumulationPoint = end.accumulationPoint;
    }
    const t = rs.t;
    // A run that ends at an instant (a stop, a delta at the end) ends after its events, as its
    // last row; one that ends at the end of its range otherwise, at the left limits (a
    // crossing there is no event).
    const side = t === this.lastInstantAt ? -1 : end === null && rs.ended && t !== rs.t0 ? 1 : 0;
    result.final = this.recorder.finalRow(t, ws.y, ws.d, side);
    finishStats(rs);
    if (this.recorder.overflow) return this.fail(result, this.recorder.overflowMessage(), t, ws.y, ws.d);
    return result;
  }

  /**
   * One accepted step towards the next stop (a scheduled event, a probe or the end), with
   * its crossings and what lands there; null while the run goes on. Kept apart from the
   * set-up in `run` so that this loop, small, gets optimised early in a cold process.
   */
  private advance(rs: RunState): RunEnd | null {
    const ws = this.ws,
      m = this.model,
      stepper = rs.stepper,
      dir = ws.dir,
      origin = ws.origin;
    if (rs.queue.failure !== null) return failed(rs.queue.failure.message, rs.t, ws.y);
    const queued = rs.queue.peek();
    const nextQueued = queued === queued ? queued : rs.tEnd;
    const nextProbe = rs.pi < rs.probes.length ? rs.probes[rs.pi] : rs.tEnd;
    const tStop = dir > 0 ? Math.min(nextQueued, nextProbe, rs.tEnd) : Math.max(nextQueued, nextProbe, rs.tEnd);
    // where the stepper must land, in its own t; 0 when the origin is already there
    const stopLocal = origin.local(tStop);
    if (stopLocal !== 0 && dir * stopLocal > 0) {
      const st = stepper.stats;
      if (st.steps + st.rejected >= rs.maxSteps)
        return this.failSteps(rs, `more than ${rs.maxSteps} steps by ${m.system.independent} = ${rs.t}`);
      const outcome = stepper.step(stopLocal);
      if (outcome === 'stepSizeUnderflow' && this.rebase(stepper)) return null;
      if (outcome !== 'accepted') {
        const at = origin.abs(stepper.t);
        const what =
          outcome === 'nonFinite'
            ? this.diagnosis.describeNonFinite(stepper, stepper.t, stopLocal)
            : stepper.adaptive
              ? this.underflowMessage(stepper)
              : `the fixed step of ${stepper.method}${'hFixed' in stepper ? ` (${String(stepper.hFixed)})` : ''} is below the resolution of ${m.system.independent} (by default it is a thousandth of the range): give a larger step (option step, --step) or an adaptive method`;
        return failed(`${what}, at ${m.system.independent} = ${at}`, at, stepper.y);
      }
      const landed = stepper.t === stopLocal;
      const tNewAbs = landed ? tStop : origin.abs(stepper.t);
      const guarded = this.guard.check(stepper, tNewAbs);
      if (guarded !== null) return failed(guarded, rs.t, ws.y);
      if (rs.progress !== undefined && (stepper.stats.steps & 4095) === 0) rs.progress(tNewAbs);
      const nw = ws.nWatch;
      if (nw > 0) {
        m.watch(tNewAbs, stepper.y, ws.p, ws.d, ws.sw, ws.gNew);
        m.watchRate(tNewAbs, stepper.y, ws.p, ws.d, ws.sw, ws.rNew);
        const crossing = this.crossings.find(stepper);
        if (this.crossings.undefinedFunction >= 0) {
          // (the run ends where the step began: a crossing inside it, before the function
          // became undefined, cannot be told from one after)
          const cr = this.crossings;
          const start = origin.abs(stepper.tPrev);
          const message = this.diagnosis.undefinedMessage(cr.undefinedFunction, cr.undefinedAtStart ? start : tNewAbs);
          cr.undefinedFunction = -1;
          return failed(
            cr.undefinedAtStart
              ? message
              : `${message} (the run ends at ${m.system.independent} = ${start}, where the last step began)`,
            start,
            stepper.yPrev,
          );
        }
        if (this.crossings.contact >= 0) {
          const k = this.crossings.contact,
            fromStart = this.crossings.contactFromStart;
          this.crossings.contact = -1;
          if (!this.zenoContinue || !this.contacts.holdFromStepStart(rs, k))
            return this.failContact(rs, k, undefined, fromStart);
          return null;
        }
        if (this.contacts.current !== null && this.contacts.letsGo(rs, crossing)) return null;
        if (this.crossings.unresolved >= 0) return this.failUnresolved(rs, this.crossings.unresolved);
        if (this.crossings.noise.function >= 0) {
          const k = this.crossings.noise.function;
          const at = origin.abs(stepper.tPrev);
          const { band, reach, stiff, still, absolute, wanderedFrom, returned, crept } = this.crossings.noise;
          // (an explicit method at the border of its stability region carries the function
          // back and forth at the tolerance: that is the cause, and tightening rtol a poor cure)
          const border = (stepper as Stepper & { looksStiff?: boolean }).looksStiff
            ? `; ${stepper.method} runs at the border of its stability region here (the problem looks stiff): --method auto or rodas (implicit) follows the slow solution`
            : '';
          return failed(
            this.diagnosis.toleranceMessage(
              k,
              at,
              tNewAbs,
              band,
              reach,
              stiff,
              still,
              absolute,
              wanderedFrom,
              returned,
              crept,
            ) + border,
            at,
            stepper.yPrev,
          );
        }
        if (this.crossings.touched >= 0) {
          const cr = this.crossings;
          // (a crossing before the touch comes first; the step after it finds the touch again)
          if (crossing >= 0 && dir * (cr.candidateRight[crossing] - cr.touchedAt) < 0) cr.touched = -1;
          else return this.failTouch(rs, cr.touched, cr.touchedAt);
        }
        // A crossing the arithmetic cannot tell from the end of the range (its function within
        // its rounding of zero there) is not an event of this range, as one at the start is not
        // (IDERK 5.5.4: kicks at 1..5 on [0, 6]); wherever rounding placed it, on every method.
        // A delta's is: a delta at the end counts. So is one within the tie of the end in a
        // step that ends before it (rk4's fixed steps, 1000 to a range: x - 5e-5 rises 2.5
        // ulps of t before the end of [1e9, 1e9 + 5.05e-5] fired on rk4 alone).
        const event =
          crossing >= 0 && tStop === rs.tEnd ? this.atEnd.dropAtEnd(tStop, timeTie(rs, tStop), landed) : crossing;
        if (this.atEnd.unresolvedAtEnd >= 0) {
          const k = this.atEnd.unresolvedAtEnd;
          const at = origin.abs(this.crossings.candidateRight[k]);
          return failed(
            this.diagnosis.endPrecisionMessage(k, at, tStop, this.atEnd.unresolvedBand, this.crossings.peak[k]),
            rs.t,
            ws.y,
          );
        }
        if (event >= 0) return this.crossingInstant(rs, event, tNewAbs);
      }
      const tPrevAbs = rs.t;
      ws.y.set(stepper.y);
      ws.gPrev.set(ws.gNew);
      ws.rPrev.set(ws.rNew);
      this.recorder.gridRows(stepper, tPrevAbs, tNewAbs, stepper.tPrev, stepper.t);
      if (!landed) {
        rs.t = tNewAbs;
        this.recorder.stepRow(tNewAbs, ws.y, ws.d);
        return null;
      }
    }
    // landed on tStop (or the origin is already there)
    rs.t = tStop;
    const due = this.due;
    if (tStop === queued) takeDue(rs, tStop, due);
    else due.length = 0;
    if (tStop === rs.tEnd && rs.t0 !== rs.tEnd) this.withDeltasAtEnd(due, tStop, false);
    // a state event within its rounding of zero at a scheduled instant, heading across, is
    // at that instant as well as the arithmetic can tell: it fires with it (EVENTS.md 2)
    // (in file order: coincidentAt appends, and a state event above a tick in the file acts
    // before it, as it does where its crossing is located a rounding before the tick)
    if (due.length > 0 && ws.nWatch > 0) {
      const n = due.length;
      this.coincidence.coincidentAt(tStop, ws.y, due, tStop === rs.tEnd, timeTie(rs, tStop));
      if (due.length > n) due.sort((a, b) => a - b);
    }
    if (due.length > 0) {
      // fire() writes the before and after rows of the instant; the origin moves there exactly
      origin.set(tStop);
      // A probe reads the right limit at its time (a boundary condition at a delta's instant
      // is the value after it, language.md): after the instant in a forward run, before it
      // in a backward one, whose instants undo their jumps. Read after it, a backward run
      // took y'(1-) for y'(1) = 1/2 beside F delta(x - 1), and shooting found F of the other
      // sign from the same conditions stated from the other end, converged both times.
      if (ws.dir < 0) takeProbes(rs, this.ws, tStop);
      const end = this.processInstant(rs, tStop, [...due], 0);
      if (end !== null) return end;
    } else if (tStop !== rs.tEnd) this.recorder.stepRow(tStop, ws.y, ws.d);
    takeProbes(rs, this.ws, tStop);
    // Only the stepper landing on the end ends the run: an absolute time that merely rounds
    // to tEnd (steps below one ulp of t, or a crossing half an ulp before the end) has not
    // integrated the rest, and events or probes at the end would be lost.
    if (tStop === rs.tEnd) rs.ended = true;
    return null;
  }

  /**
   * A crossing taken within atol over a stiff step that nothing after it confirmed, and that
   * the motion at the end of the range carries back (crossing-noise.ts, refutedAtEnd): the
   * run fails as it would have a step later, keeping what it computed.
   */
  private provisionalAtEnd(rs: RunState): RunEnd | null {
    const noise = this.crossings.noise,
      ws = this.ws;
    for (let k = 0; k < ws.nWatch; k++) {
      if (!noise.refutedAtEnd(k, rs.t, ws.y)) continue;
      const message = this.diagnosis.toleranceMessage(
        k,
        noise.wanderedFrom,
        rs.t,
        noise.band,
        0,
        true,
        false,
        noise.absolute,
        noise.wanderedFrom,
        'after',
      );
      return failed(message, rs.t, ws.y);
    }
    return null;
  }

  /** `due` and the deltas on the state due at the start or the end t (CrossingsAtEnd.deltasAtEnd), in file order. */
  private withDeltasAtEnd(due: number[], t: number, atStart: boolean): number[] {
    if (this.ws.nWatch === 0) return due;
    const n = due.length;
    this.atEnd.deltasAtEnd(t, this.ws.y, this.ws.d, atStart, due);
    if (due.length > n) due.sort((a, b) => a - b);
    return due;
  }

  /** Fails the run on the step limit or a collapsed step size, with the likely cause. */
  private failSteps(rs: RunState, what: string): RunEnd {
    const st = rs.stepper.stats;
    const cause = this.diagnosis.stepsCause(rs.stepper, rs.t0, rs.t, rs.tEnd, st.steps, this.guard.collapsing);
    return failed(`${what}: ${cause}`, rs.t, this.ws.y);
  }

  /** The instant of the earliest crossing in the last step: its events, or a switch. */
  private crossingInstant(rs: RunState, crossing: number, tNewAbs: number): RunEnd | null {
    const ws = this.ws,
      m = this.model,
      stepper = rs.stepper,
      dir = ws.dir,
      origin = ws.origin,
      cr = this.crossings;
    // Group every crossing at the earliest instant; events in file order.
    let tc = cr.candidateRight[crossing];
    // (the rounding of t: on a range shorter than 1, of its span; crossings 5e-16 apart on
    // [0, 4e-9] are a relative 5e-7 apart, two instants)
    const tolerance = timeTie(rs, origin.abs(tc));
    const firedEvents: number[] = [];
    let switched = false;
    let eventLeft = NaN;
    for (let j = 0; j < cr.locatedCount; j++) {
      const k = cr.located[j];
      const right = cr.candidateRight[k];
      if (dir * (right - tc) > tolerance) continue;
      const w = m.watchInfo[k];
      if (w.kind === 'event') {
        firedEvents.push(w.event);
        if (!(eventLeft === eventLeft) || dir * (cr.candidateLeft[k] - eventLeft) < 0) eventLeft = cr.candidateLeft[k];
      } else switched = true;
    }
    firedEvents.sort((a, b) => a - b);
    // --locate before/after (or an event's own `locate`) places events the way tools without
    // location do; a switch of the right-hand side is always located exactly: the integrator
    // never steps across one (MODEL-LANGUAGE), and at the step's start it would be found
    // again, forever.
    let locate: LocateMode = 'exact';
    // (an event's own `locate` in the model wins over the run's)
    if (firedEvents.length > 0) locate = m.events[firedEvents[0]].locate ?? rs.locate;
    // The instant is the right end of the collapsed bracket (the first double at or past the
    // zero). Events read the state at the left end, a double earlier: those are the left
    // limits the weights need, still on the near side of the crossing.
    let at = tc;
    if (locate === 'after') at = stepper.t;
    else if (locate === 'before') at = stepper.tPrev;
    let t = locate === 'after' ? tNewAbs : origin.abs(at);
    // grid rows inside the step up to the instant (they use ws.yTmp: before the state there);
    // where the instant is located again on the solution (below), which moves it, the rows of
    // the whole step are held until it has landed (recorder.holdGridRows), and written up to it
    const refines = locate === 'exact' && firedEvents.length > 0 && refinesOnSolution(stepper);
    if (refines && dir * (t - rs.t) > 0) this.recorder.holdGridRows(stepper, rs.t, tNewAbs, stepper.tPrev, stepper.t);
    else if (locate !== 'before' && dir * (t - rs.t) > 0)
      this.recorder.gridRows(stepper, rs.t, t, stepper.tPrev, locate === 'after' ? stepper.t : at);
    if (locate === 'exact') stepper.interpolate(firedEvents.length > 0 ? eventLeft : at, ws.y);
    else ws.y.set(locate === 'after' ? stepper.y : stepper.yPrev);
    // (the stepper's t of the state in ws.y, where the time origin moves: see below)
    let stateAt = locate === 'exact' && firedEvents.length > 0 ? eventLeft : at;
    // (radau5's dense output is too coarse for an event at tight tolerances: the step is taken
    // again to land on the crossing, solution-refine.ts; if that fails, the interpolant stands,
    // and the instant restarts the stepper from it)
    // The step that found the crossing, before landing on it shortens the stepper's last step:
    // that is the step size the motion allowed, the proposal after the instant (a landing step
    // of 7e-14, an event just after the last, would start the next motion with one as short).
    const hFound = stepper.hLast;
    const noisy = isNoisyStep(stepper);
    const onSolution = refines ? refineOnSolution(ws, stepper, crossing, eventLeft, this.refineStart) : NaN;
    if (onSolution === onSolution) {
      at = tc = eventLeft = stateAt = onSolution;
      t = origin.abs(at);
      ws.y.set(stepper.y);
    }
    rs.t = t;
    // (where a crossing within atol landed: the time a failure names, crossing-noise.ts)
    cr.noise.landed(crossing, t);
    const dtZero =
      locate === 'exact'
        ? 4 * (Math.abs(tc - (firedEvents.length > 0 ? eventLeft : tc)) + Number.EPSILON * Math.abs(tc))
        : 0;
    if (locate === 'exact' && firedEvents.length > 0) {
      const before = firedEvents.length;
      this.coincidence.coincident(
        t,
        at,
        ws.y,
        dtZero,
        firedEvents,
        onSolution === onSolution ? this.refineStart : null,
      );
      if (firedEvents.length > before) firedEvents.sort((a, b) => a - b);
      // a delta's argument crossing so slowly that the run cannot tell it from a touch
      const touching = cr.touchingDelta(firedEvents, t, at, ws.y);
      if (touching >= 0) {
        this.recorder.releaseGridRows(t);
        return this.failTouch(rs, touching, at);
      }
    }
    if (firedEvents.length > 0) {
      // Placed at the start of its step, an event has used up its crossing in that step: the
      // step taken again from there would find it again (an action that leaves the function
      // alone), and again, until a false Zeno stop.
      if (locate === 'before') {
        const stepEnd = origin.abs(stepper.t);
        for (const e of firedEvents)
          if (m.events[e].watchIndex >= 0) cr.consumedUntil[m.events[e].watchIndex] = stepEnd;
      }
      // A scheduled event due at this very instant (a tick every 0.1, a crossing at 0.3) is
      // coincident with the crossing: one instant, its events in file order, as on the analytic
      // path; fired apart, the tick would read what the crossing's actions had just written.
      // A crossing is at a scheduled time as well as the arithmetic can tell when that time
      // is closer than its function, at its rate, takes to cross its own rounding (x - 2 on
      // dop853 crossed 1e-15 before `at 2`, whose action read what the crossing wrote): the
      // instant moves to the scheduled time, the stepper's end, where the step landed.
      if (locate === 'exact') {
        const n = firedEvents.length;
        const ts = rs.queue.peek();
        if (
          ts === ts &&
          ts === tNewAbs &&
          ts !== t &&
          this.atEnd.withinRoundingOf(firedEvents, t, ts, ws.y, timeTie(rs, t))
        ) {
          at = stateAt = stepper.t;
          t = ts;
          rs.t = t;
          ws.y.set(stepper.y);
          // (at the end of the range, a crossing there is no event of it; a delta's is)
          if (t === rs.tEnd) this.atEnd.dropCrossingsAtEnd(firedEvents);
          this.coincidence.coincidentAt(t, ws.y, firedEvents, t === rs.tEnd, timeTie(rs, t));
        }
        rs.queue.takeDue(t, firedEvents);
        if (firedEvents.length > n) firedEvents.sort((a, b) => a - b);
      }
      // The motion restarts from the state the events read, so the origin moves to where that
      // state stands, the bracket's left end, not its right end (the instant's t), where both
      // are the same double of the absolute time: the bracket is 1/4096 ulp of the elapsed
      // time wide (restartAtOrigin), and restarted a bracket later than its state, each event
      // set the motion back by that much: 1.1e-13 at t = 1e6, where a decay at rate 1e5 came
      // out 1.1e-8 off ever after (rodas, rtol 1e-10), and over 31831 crossings of an
      // oscillator on [0, 1e5] its phase lagged 1.4e-10. (Where they are different doubles,
      // the bracket is an ulp of t wide, and nothing after the instant may stand before it.)
      origin.moveTo(origin.abs(stateAt) === t ? stateAt : at);
      // (the rows held over the step, up to where the instant landed)
      this.recorder.releaseGridRows(t);
      // (located over a noisy step, its functions are known to the tolerance's band there:
      // arming.ts, noiseBand; the stepper's own test, before processInstant restarts it)
      const arming = this.crossings.arming;
      arming.noisyInstant = locate === 'exact' && noisy;
      try {
        return this.processInstant(rs, t, firedEvents, dtZero, locate, hFound);
      } finally {
        arming.noisyInstant = false;
      }
    }
    if (switched) {
      this.recorder.stepRow(t, ws.y, ws.d);
      const sliding = this.switching.lock(t, ws.y, ws.d, dtZero);
      if (sliding >= 0 && t !== rs.tEnd) return failed(this.switching.slidingMessage(sliding, t), t, ws.y);
      origin.moveTo(at);
      this.restartAtOrigin(stepper, stepper.hLast !== 0 ? stepper.hLast : undefined);
      this.refreshWatch(t, ws.y, ws.d);
    }
    return null;
  }

  /**
   * Fires `fired` at `at` (the time origin already there) and restarts; null while the run goes
   * on. `hStep`: the size of the step that reached the instant (the restart's proposal).
   */
  private processInstant(
    rs: RunState,
    at: number,
    fired: number[],
    dtZero: number,
    locate: LocateMode = 'exact',
    hStep = rs.stepper.hLast,
  ): RunEnd | null {
    const ws = this.ws,
      m = this.model,
      sys = m.system,
      stepper = rs.stepper;
    const nw = ws.nWatch;
    this.stiffEvents.note(stepper, m, at, fired);
    for (const e of fired) {
      const w = m.events[e].watchIndex;
      if (w < 0) continue;
      this.gFire[w] = m.watchOne[w](at, ws.y, ws.p, ws.d, ws.sw);
      this.rFire[w] = m.rateOne[w](at, ws.y, ws.p, ws.d, ws.sw);
      this.firing.sideFire[w] = 0;
      this.firing.rateBandFire[w] = 0;
      this.firing.nextSideFire[w] = 0;
      // A state event found again at the very instant it fired: no flight in between that
      // the arithmetic can see, so a contact, not a new impact. (The run's tie of t: on
      // [0, 1e-14] a sawtooth of period 5e-16 is 20 instants, not a contact at the second.)
      // The time since is the exact one, of the two doubles the instants are kept in (the
      // origin stands at this instant): between the instants' rounded doubles a sawtooth of
      // period 9.5e-7 at t = 1e9 (4.3 units of EPSILON*t) came 8.3e-7 apart, within the tie,
      // and failed as a "persisting contact ... with zero rate" (its rate was 1).
      const since = this.zeno.sinceLast(e, ws.origin.hi, ws.origin.lo) || Math.abs(at - this.lastInstantAt);
      if (locate === 'exact' && since <= timeTie(rs, at) && this.lastFired.includes(e)) {
        if (this.zenoContinue && this.contacts.hold(rs, w, at)) return null;
        return this.failContact(rs, w, at, false, since);
      }
    }
    this.recorder.dense?.instantBefore(at);
    const outcome = this.firing.fire(at, fired, dtZero, stepper);
    this.recorder.dense?.instantAfter();
    // (the delayed deltas that follow these events are due their delays later)
    rs.queue.fired(outcome.fired, ws.origin.hi, ws.origin.lo, dtZero + 4 * Number.EPSILON * Math.abs(at));
    this.lastInstantAt = at;
    rs.eventCount += outcome.count;
    this.guard.restart(stepper);
    const over = (message: string): RunEnd => failed(message, at, ws.y);
    // (a `stop` there, or the end of the range, leaves nothing to integrate)
    if (outcome.sliding >= 0 && !outcome.stopped && at !== rs.tEnd)
      return over(this.switching.slidingMessage(outcome.sliding, at));
    if (outcome.flowFailed !== null) return over(outcome.flowFailed);
    const unbounded = this.diagnosis.nonFiniteAfter(at, outcome.fired);
    if (unbounded !== null) return over(unbounded);
    if (outcome.iterationFailed) return over(iterationMessage(m, at, outcome.fired));
    // Restart with the step size in use before the event as the proposal: the controller
    // shrinks it if the new motion needs that, and the heuristic's evaluations are saved.
    // At most twice the time since one of these events last fired: an event often comes
    // back at the pace of its last occurrences (a ball's flights, shrinking towards a Zeno
    // point), and a step a million times longer than the flight it contains (the error
    // estimate of a parabola is zero, so nothing would shrink it) has dense output whose
    // rounding, on the flight's scale, hides where the bounce is.
    let proposal = Math.abs(hStep);
    for (const k of fired) {
      const gap = this.zeno.sinceLast(k, ws.origin.hi, ws.origin.lo);
      if (gap > 0 && proposal > 2 * gap) proposal = 2 * gap;
    }
    // The rounding of each fired function on the terms it is summed from, before the fold sums
    // them: x = u + S after a delta is u + S to the bit either way, but only the terms say how
    // far off zero its residue is (-0.49999999999999994 + 0.5 = 5.55e-17 is one ulp of them,
    // where the folded u alone, 5.55e-17, bounds it by 1e-31: x was armed there as a value
    // off zero, flew 1e-8 s and fell back across, its event fired twice with status ok).
    // (and where an action's own sum left it, x := x + 0.5 from -0.49999999999999994: the
    // rounding of the terms it summed, action-residue.ts)
    const termBound = (w: number) =>
      m.boundOne[w](at, ws.y, ws.p, ws.d, ws.sw) + this.firing.residueOfActions(w, at, ws.y, ws.d, ws.sw);
    for (const e of outcome.fired) {
      const w = m.events[e].watchIndex;
      if (w >= 0) this.termBound[w] = termBound(w);
    }
    for (const w of this.firing.setOnZero) this.termBound[w] = termBound(w);
    // the jumps into the states they belong to, so that the steps are held to rtol of those
    foldSteps(ws, this.stepStates);
    // (no step yet: the run's firstStep, if given, as at the start)
    this.restartAtOrigin(stepper, proposal !== 0 ? proposal : this.firstStep);
    this.refreshWatch(at, ws.y, ws.d);
    if (nw > 0) {
      this.crossings.afterActions(outcome.fired, at);
      const exact = locate === 'exact';
      const { gFire, rFire, termBound } = this,
        { sideFire, rateBandFire, nextSideFire } = this.firing;
      this.crossings.arming.afterInstant(
        outcome.fired,
        at,
        { gFire, rFire, sideFire, rateBandFire, nextSideFire, termBound },
        dtZero,
        exact,
        fired,
      );
      // (set onto their zero at rest, their events not fired: held there as if they had)
      if (exact)
        for (const w of this.firing.setOnZero) {
          const info = m.watchInfo[w];
          if (info.kind === 'event' && outcome.fired.includes(info.event)) continue;
          this.crossings.arming.holdSetOnZero(
            w,
            at,
            dtZero,
            sideFire[w],
            rateBandFire[w],
            nextSideFire[w],
            termBound[w],
            this.firing.locatedBandFire[w],
          );
        }
      // the first step from here checks that no other event function starts it at its zero
      if (locate === 'exact') {
        this.crossings.checkUnresolved = true;
        this.crossings.instantAtStart = at === rs.t0;
        this.crossings.firedAtInstant = outcome.fired;
        this.lastFired = outcome.fired;
      }
      if (this.zenoContinue && locate === 'exact') this.contacts.noteDirections(outcome.fired, this.rFire);
      // an impact that sends its function on across fired on an approach the arithmetic could not see
      const unseen = locate === 'exact' ? this.contacts.unseenApproach(outcome.fired, this.rFire, fired) : -1;
      if (unseen >= 0 && !(this.zenoContinue && this.contacts.hold(rs, unseen, at)))
        return this.failContact(rs, unseen, at);
    }
    // a contact held through the instant: does its force still push after the actions?
    const held = this.contacts.current;
    if (held !== null && !held.pushing) this.contacts.letGo(rs, at);
    if (rs.eventCount > rs.maxEvents)
      return over(
        `more than ${rs.maxEvents} events by ${sys.independent} = ${at}; raise option maxEvents (--max-events) if that many are expected`,
      );
    for (const k of fired) {
      const acc = this.zeno.note(k, ws.origin.hi, ws.origin.lo);
      if (this.zeno.crawl === this.zeno.crawl)
        return over(this.zeno.crawlMessage(m.events[k].name, sys.independent, at));
      if (acc !== null && ws.dir * (acc - rs.tEnd) < 0 && ws.dir * (acc - rs.t0) >= 0) {
        // zeno = continue: the rest of the accumulation (under a thousand ulps of t) is the
        // contact it converges to, held from here
        if (this.zenoContinue && m.events[k].watchIndex >= 0 && this.contacts.hold(rs, m.events[k].watchIndex, at))
          continue;
        return {
          kind: 'zeno',
          accumulationPoint: acc,
          message: `events of ${m.events[k].name} accumulate at ${sys.independent} = ${acc} (Zeno): the run stops at ${at}, after ${rs.eventCount} events`,
        };
      }
    }
    if (outcome.stopped)
      return { kind: 'stopped', message: `stopped by event ${outcome.stopper} at ${sys.independent} = ${at}` };
    return null;
  }

  /**
   * A step size that fell below the resolution of the stepper's own t, far from the time
   * origin (no event for a long while): the origin moves to where the stepper stands and it
   * restarts there, where its t resolves steps down to the absolute time's two doubles (the
   * rows of steps closer than an ulp of t share one: recorder.ts, stepRow). Van
   * der Pol with mu = 1e6 at rtol 1e-11 needs steps of 2e-9 in its fast transitions at
   * t = 8e5, below 16 ulps of t (2.9e-9): radau5 and rodas failed there. False (the run then
   * fails) when the stepper is near the origin already: its steps are what the problem needs.
   */
  private rebase(stepper: Stepper): boolean {
    if (!stepper.adaptive || !(Math.abs(stepper.t) > 1e6 * Math.abs(stepper.hLast))) return false;
    const ws = this.ws;
    ws.y.set(stepper.y);
    ws.origin.moveTo(stepper.t);
    this.restartAtOrigin(stepper, Math.abs(stepper.hLast));
    this.guard.restart(stepper);
    this.refreshWatch(ws.origin.abs(0), ws.y, ws.d);
    return true;
  }

  /**
   * A step size that fell below the resolution of t where the stepper stands: what that resolution is, and what
   * takes longer steps. (Van der Pol with mu = 1e6 at rtol 1e-11: rodas needs steps below 16 ulps
   * of t = 8e5 in the fast transition, where radau5, of order 5, and auto finish.)
   */
  private underflowMessage(stepper: Stepper): string {
    const x = this.model.system.independent;
    // (the stepper's own floor: 16 ulps of its t, or of the absolute time's double once rebased)
    const resolution = Math.max(minStepSize(stepper.t), stepper.minStep);
    const higher: Partial<Record<string, string>> = {
      rodas: 'radau5, of order 5, takes longer steps at tight tolerances (--method radau5, or auto)',
      dopri5:
        'dop853, of order 8, takes longer steps at tight tolerances (--method dop853), and auto an implicit method where it is stiff',
      dop853: 'auto takes an implicit method where the problem is stiff',
    };
    const hint = higher[stepper.method];
    return `the step size fell below the resolution of ${x} (${resolution.toPrecision(2)} there: shorter steps cannot be told apart): the solution changes faster than ${stepper.method} at rtol ${this.crossings.rtol.toExponential()} can follow (a singularity, or a very fast transition of a stiff problem)${hint ? `; ${hint}, or loosen rtol` : '; loosen rtol'}`;
  }

  /** A delta's argument that touches zero near `at` (stepper's t): the run fails before it. */
  private failTouch(rs: RunState, k: number, at: number): RunEnd {
    this.crossings.touched = -1;
    const t = this.ws.origin.abs(at);
    return failed(this.diagnosis.touchMessage(k, t), rs.t, this.ws.y);
  }

  private failUnresolved(rs: RunState, k: number): RunEnd {
    const ws = this.ws;
    ws.gBound[k] = this.model.boundOne[k](rs.t, ws.y, ws.p, ws.d, ws.sw);
    return failed(this.diagnosis.precisionMessage(k, rs.t, this.lastFired), rs.t, ws.y);
  }

  private failContact(rs: RunState, k: number, atInstant?: number, restedFromStart = false, since = 0): RunEnd {
    const ws = this.ws,
      stepper = rs.stepper;
    const at = atInstant ?? ws.origin.abs(stepper.tPrev);
    // (no instant yet, or none that fired it: the function rested at its zero from the start)
    const fromStart = restedFromStart || (this.lastInstantAt !== this.lastInstantAt && at === rs.t0);
    return failed(
      this.diagnosis.contactMessage(k, at, fromStart, since),
      at,
      atInstant === undefined ? stepper.yPrev : ws.y,
    );
  }

  /** Restarts the stepper at ws.y, at the time origin (its t is 0 there). */
  private restartAtOrigin(stepper: Stepper, hInit?: number): void {
    const origin = this.ws.origin;
    const ctx = sharedRhs(this.model).ctx;
    ctx.tHi = origin.hi;
    ctx.tLo = origin.lo;
    // steps down to the resolution of the absolute time in two doubles, not of one double
    stepper.minStep = 16 * Number.EPSILON * Number.EPSILON * Math.abs(origin.hi);
    // Events are located to 1/4096 of an ulp of the time elapsed since the start: fine enough
    // that their rounding does not add up over a thousand events (the reason for the origin),
    // not so fine that the finder bisects through the plateau where a flat event function
    // rounds to exactly zero (a ball's last flights: 1e-21 wide, found to 1e-25 at one bit
    // per call). Elapsed, not absolute: a run from t = 1e9 is the run from 0 shifted, and
    // 1/4096 ulp of 1e9 is 1.1e-10, a bracket that far exceeds the double of the stepper's t
    // near 1: each crossing was placed up to that much late, the same way every time, and a
    // sawtooth of period 1 drifted 1e-6 over 1e4 periods (its last crossing lost, status ok).
    const elapsed = origin.hi - this.runStart + origin.lo;
    this.crossings.scan.resolution = (2 * Number.EPSILON * Math.abs(elapsed)) / 4096;
    stepper.reset(0, this.ws.y, hInit);
  }

  /** The watched functions and their rates at a restart point. */
  private refreshWatch(t: number, y: Float64Array, d: Float64Array): void {
    const ws = this.ws,
      m = this.model;
    if (ws.nWatch === 0) return;
    m.watch(t, y, ws.p, d, ws.sw, ws.gPrev);
    m.watchRate(t, y, ws.p, d, ws.sw, ws.rPrev);
  }

  /** Marks a failed run: keeps what was computed and adds the state where it failed. */
  private fail(
    result: SimulationResult,
    message: string,
    t: number,
    y: Float64Array,
    d: Float64Array,
  ): SimulationResult {
    return failRun(this.ws, this.recorder, result, message, t, y, d);
  }
}

/** One run of a compiled model. For repeated runs keep a {@link Simulator}. */
export function simulateCompiled(model: CompiledModel, options: SimulateOptions = {}): SimulationResult {
  return new Simulator(model).run(options);
}

export type { ValueRecord };

/** The rounding of t in a run (time-tie.ts, as on the analytic path). */
function timeTie(rs: RunState, t: number): number {
  return tieTolerance(t, tieFloor(rs.t0, rs.tEnd));
}
