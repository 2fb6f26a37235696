/**
 * The analytic path (issue 23; EVENTS.md 6): an event-driven engine for models whose every
 * part has a closed form between events. Nothing is stepped:
 *
 * - each clock group keeps its own time and is advanced by its closed form only when an event
 *   reads or writes it, or an output asks for it (clocks.ts);
 * - each state event's next crossing is a certified root (predict.ts), kept in an indexed heap
 *   (heap.ts); time events come from the same stop queue as on the stepper;
 * - at an instant, the events due fire together in file order (fire.ts), and only the events
 *   whose functions read what the actions changed are predicted again (plan.ts): O(log N)
 *   per event, not O(N).
 *
 * It keeps the stepper's result record, recorder (rows and ledger, streamed to a sink),
 * Zeno detection and limits, with `stats.method` 'analytic' and one step per instant.
 */
import type { CompiledModel } from '../codegen/compile.js';
import { ScheduleError } from '../codegen/event-times.js';
import { Diagnosis } from '../driver/diagnosis.js';
import { deltasDueAtEnd, isDeltaArgument } from '../driver/delta-touch.js';
import { foldSlots, stepStates } from '../driver/step-fold.js';
import { crossingAtEnd, endGuard } from './range-ends.js';
import { stepsMessage, touchesZeroMessage } from './messages.js';
import { eventUnderflowMessage, rangeRefusal, stiffScan, underflowMessage } from '../report/path.js';
import type { Limits, Run } from './run.js';
import { iterationMessage } from '../driver/firing.js';
import { Recorder } from '../driver/recorder.js';
import type { SimulateOptions, SimulationResult } from '../driver/types.js';
import { StopQueue } from '../driver/stop-queue.js';
import { Workspace } from '../driver/workspace.js';
import { ZenoWatch } from '../driver/zeno.js';
import { structureOf } from '../structure/structure.js';
import { Clocks, addTime } from './clocks.js';
import { FiniteAfter } from './finite-after.js';
import { AnalyticFiring } from './fire.js';
import { EventHeap } from './heap.js';
import { plansOf, type EventPlan } from './plan.js';
import { Predictor } from './predict.js';
import { valueKnownAt, weightUncertainty } from './slow-delta.js';
import { DueEvents } from './due.js';
import { residueKept } from '../driver/arming.js';
import { tieFloor, tieTolerance } from '../driver/time-tie.js';
import { initialState, parameterValues } from './setup.js';
import { resolveRange } from '../driver/range.js';
import { DenseBudget } from '../driver/dense-store.js';
import { denseSolution } from '../driver/dense-solution.js';
import { ClosedFormDense } from './dense-clocks.js';
import type { RunSettings } from '../driver/settings.js';
import { RoundMarks } from '../driver/round-marks.js';

export class AnalyticSimulator {
  readonly model: CompiledModel;
  private readonly ws: Workspace;
  private readonly recorder: Recorder;
  private readonly firing: AnalyticFiring;
  private readonly zeno: ZenoWatch;
  private readonly diagnosis: Diagnosis;
  private readonly plans: EventPlan[];
  private readonly clocks: Clocks;
  private readonly heap: EventHeap;
  private readonly predictor: Predictor;
  private readonly outputGroups: Int32Array;
  /** per event: a crossing it predicted that the arithmetic cannot resolve (1: reported when it comes due), or where its scan stopped (2: resumed there) */
  private readonly unresolved: Uint8Array;
  /** per event: its function's value, rounding and approach sign just before the actions of its instant */
  private readonly preValue: Float64Array;
  /** per event: the side of the jump its function stands for where it is exactly zero (EventSpec.zeroSide), or 0 */
  private readonly zeroSide: Int8Array;
  /** per event: the relative uncertainty of a delta's weight at its predicted root where it exceeds rtol (slow-delta.ts), else 0 */
  private readonly uncertainWeight: Float64Array;
  /** per event: how well a delta's argument is known at its predicted root, the largest along a resumed scan (slow-delta.ts) */
  private readonly rootKnown: Float64Array;
  /** the run's relative tolerance: a delta's weight must be known to it */
  private rtol = 0;
  private readonly preBound: Float64Array;
  private readonly preApproach: Int8Array;
  /** per event: the side its function came from to the zero it is held at (restBand), 0: not known (HeldZeros.heldFrom) */
  private readonly restFrom: Int8Array;
  /**
   * per event: the band its function is held in at the zero it fired at, where its last
   * prediction left it at rest there (0 at an exact zero; NaN: not held); event iteration and later predictions
   * read it (driver/firing.ts, HeldZeros)
   */
  private readonly restBand: Float64Array;
  /** per event whose linear scan stopped at its budget (unresolved 2): the last certain sign it saw (Predictor.carry) */
  private readonly resumeSign: Float64Array;
  /** per event: the time it last fired (NaN: not yet) */
  private readonly lastAt: Float64Array;
  /**
   * per event: the last time another event's actions could turn its function, at an instant
   * it did not fire at (NaN: not yet). Found again right after its own firing, a function
   * that something turned since is a new approach, not a contact: two spheres reaching a wall
   * together resolve as wl, c1, wl, c1, which the rounding of the roots spreads over ulps.
   */
  private readonly turnedAt: Float64Array;
  /**
   * per event: a persisting contact its function showed at the start, found while the start's
   * predictions defer them (deferContacts) until the instant at t0 has acted (it may move the
   * body off the contact) or nothing is due there
   */
  private readonly startContact: Uint8Array;
  private deferContacts = false;
  /** which events are due at an instant (due.ts) */
  private readonly dueAt: DueEvents;
  // (not the literal [0]: its elements would be copy-on-write, shared by every instance, and
  // optimised code that wrote into one instance's would deoptimise at the next instance's)
  private readonly one: number[] = Array.of(0);
  /** the events fired at the current instant (for messages) */
  private firedNow: readonly number[] = [];
  /** the events predicted again after the current event or instant */
  private readonly predicted: RoundMarks;
  /** the events the current instant's event iteration fired at their zeros (repredict) */
  private readonly sentAtZero: RoundMarks;
  /** firing the ties of the instant at which accumulation stops the run (tiesAtStop) */
  private stopping = false;
  private readonly pair = new Float64Array(2);
  private run_: Run | null = null;
  /** the columns of every run's rows, the parameter values' buffer, the stop queue (reused) */
  private readonly columns: string[];
  private readonly pBuffer: Float64Array;
  /** the scheduled times of time events, one stream per event merged (the stepper's stop queue) */
  private readonly stopQueue: StopQueue;
  /** whether any event is a delta on the state (deltas at the ends of the range count: deltasDueAtEnd) */
  private readonly deltas: boolean;
  /** why the last run returned null (it cannot take the analytic path) */
  refusal: string | null = null;
  /** the last run stopped where its linear scan turned too stiff (resumeAt): the stepper can take the whole run */
  stepperNeeded = false;
  /**
   * Set by the caller before a run whose rows reach a sink (analytic/simulator.ts): a scan
   * that turns stiff then ends the run without a failure row, at {@link handOverAt}, so that
   * the stepper can go on from there into the same sink.
   */
  handsOver = false;
  /** where the last run stopped for the stepper (stepperNeeded): every row up to it was written */
  handOverAt = NaN;
  /** the compiled rounding bounds of the watched functions (valueBound), fetched at their first use */
  private boundOne: CompiledModel['boundOne'] | null = null;
  /** the run's dense solution (dense: true), logged at its instants */
  private dense: ClosedFormDense | null = null;
  /** after the actions, the right-hand sides of what they touched (finite-after.ts) */
  private readonly finite: FiniteAfter;
  private readonly changesOf = (k: number): Int32Array => this.plans[k].changes;
  private readonly coefficientRiskOf = (k: number): boolean => this.plans[k].coefficientRisk;
  private readonly functionRiskOf = (k: number): Int32Array => this.plans[k].functionRisk;
  /** per event, the state slots its actions write (its jumps folded in) and its step and discrete slots (finite-after.ts) */
  private readonly writtenSlots: { y: Int32Array; d: Int32Array }[];
  private readonly writtenOf = (k: number): { y: Int32Array; d: Int32Array } => this.writtenSlots[k];
  /** per step variable, the state its jumps are folded into after an instant (driver/step-fold.ts) */
  private readonly stepStates: Int32Array;
  /**
   * Brings state s's group to the instant before a jump is folded into it: a group whose flow
   * does not read the step variable (y' = delta(...): u1' = 0) is not among those the event
   * brought, and a lent one would be put back over the fold.
   */
  private readonly bringState = (s: number): void => {
    const one = this.oneGroup;
    one[0] = this.groupOf[s];
    this.bring(one);
  };
  private readonly groupOf: Int32Array;
  private readonly oneGroup = new Int32Array(1);

  constructor(model: CompiledModel) {
    this.model = model;
    const st = structureOf(model.system);
    if (!st.closedForm)
      throw new Error(`internal: the analytic path asked for ${model.system.model}, which has no closed form`);
    this.ws = new Workspace(model);
    this.recorder = new Recorder(this.ws);
    this.stepStates = stepStates(this.ws);
    this.groupOf = new Int32Array(model.nStates);
    st.groups.forEach((g, i) => g.states.forEach((s) => (this.groupOf[s] = i)));
    this.plans = plansOf(model, st);
    // (a jump's slot is folded into its state: a NaN jump lands there)
    this.writtenSlots = this.plans.map((plan) => {
      const y = new Set(plan.ySlots);
      for (const k of plan.dSlots) if (k < this.stepStates.length && this.stepStates[k] >= 0) y.add(this.stepStates[k]);
      return { y: Int32Array.from(y), d: plan.dSlots };
    });
    this.clocks = new Clocks(
      model.closedForm().advance,
      st.groups.map((g) => Int32Array.from(g.states)),
    );
    this.finite = new FiniteAfter(
      model,
      st.groups.map((g) => Int32Array.from(g.states)),
      (k) => this.plans[k].finiteRisk,
    );
    this.firing = new AnalyticFiring(this.ws, this.recorder, this.plans, (k) => this.bring(this.plans[k].touch));
    this.firing.held = {
      band: (w) => this.restBand[(this.model.watchInfo[w] as { event: number }).event],
      leave: (w) => (this.restBand[(this.model.watchInfo[w] as { event: number }).event] = NaN),
      turn: () => {},
      heldFrom: (w) => this.restFrom[(this.model.watchInfo[w] as { event: number }).event],
    };
    this.zeno = new ZenoWatch(model.events.length);
    this.diagnosis = new Diagnosis(this.ws);
    const n = model.events.length;
    this.heap = new EventHeap(n);
    this.predictor = new Predictor(model.closedForm().maxDegree);
    this.outputGroups = Int32Array.from(st.outputReads);
    this.unresolved = new Uint8Array(n);
    this.preValue = new Float64Array(n);
    this.zeroSide = Int8Array.from(model.events, (ev) => model.system.events[ev.index].zeroSide ?? 0);
    this.uncertainWeight = new Float64Array(n);
    this.rootKnown = new Float64Array(n);
    this.preBound = new Float64Array(n);
    this.preApproach = new Int8Array(n);
    this.restBand = new Float64Array(n).fill(NaN);
    this.resumeSign = new Float64Array(n);
    this.restFrom = new Int8Array(n);
    this.lastAt = new Float64Array(n);
    this.turnedAt = new Float64Array(n);
    this.startContact = new Uint8Array(n);
    this.predicted = new RoundMarks(n);
    this.sentAtZero = new RoundMarks(n);
    this.columns = [model.system.independent, ...model.outputNames];
    this.pBuffer = new Float64Array(model.paramNames.length);
    this.stopQueue = new StopQueue(n);
    this.stopQueue.rootTime = this.ws.rootTime;
    this.stopQueue.rootAt = this.ws.rootAt;
    this.stopQueue.rootShift = this.ws.rootShift;
    this.dueAt = new DueEvents(this.heap, this.stopQueue, this.plans, this.unresolved);
    this.deltas = model.events.some(isDeltaArgument);
  }

  /**
   * One run; null when it cannot take the analytic path (a range that runs backwards) and
   * nothing was done. `settings` are the options resolved (driver/settings.ts).
   */
  run(options: SimulateOptions, settings: RunSettings): SimulationResult | null {
    const m = this.model,
      ws = this.ws,
      sys = m.system;
    const p = parameterValues(m, settings.set, this.pBuffer);
    initialState(m, p, settings.init, ws.y, ws.d);
    const { t0, tEnd, modelStart } = resolveRange(m, p, options);
    this.refusal = rangeRefusal(m, p, ws.y, ws.d, t0, tEnd);
    this.stepperNeeded = false;
    this.handOverAt = NaN;
    if (this.refusal !== null) return null;
    ws.p = p;
    ws.dir = 1;
    this.rtol = settings.rtol;
    const s: Limits = {
      t0,
      tEnd,
      maxSteps: settings.maxSteps,
      maxEvents: settings.maxEvents,
      maxRows: settings.maxRows,
      outputStep: settings.outputStep,
    };
    const keep = settings.record;
    const result: SimulationResult = {
      model: sys.model,
      independent: sys.independent,
      status: 'ok',
      message: null,
      columns: this.columns.slice(),
      rows: [],
      events: [],
      final: {},
      stats: { steps: 0, rejected: 0, rhsEvaluations: 0, events: 0, method: 'analytic' },
      warnings: settings.warnings,
    };
    const budget = settings.dense ? new DenseBudget(settings.maxDenseBytes) : null;
    this.recorder.begin(result, {
      keep,
      sink: settings.sink,
      eventsOnly: settings.eventsOnly,
      outputStep: settings.outputStep,
      outputTimes: settings.outputTimes,
      maxRows: settings.maxRows,
      t0,
      tEnd,
      dense: budget ? { budget } : undefined,
    });
    this.dense = budget
      ? new ClosedFormDense(m, structureOf(sys), this.plans, ws, budget, t0, () => result.final[sys.independent])
      : null;
    if (this.dense) result.sol = denseSolution(m, this.dense);
    this.dueAt.floor = this.firing.tieFloor = this.zeno.floor = tieFloor(t0, tEnd);
    this.firing.rows = keep;
    this.firing.lastInstant = NaN;
    this.firing.withValues = settings.eventValues;
    const probes = settings.probes ? settings.probes.filter((q) => q >= t0 && q <= tEnd).sort(ascending) : NO_PROBES;
    const probeOut: NonNullable<SimulationResult['probes']> = [];
    if (settings.probes) result.probes = probeOut;
    this.stopQueue.rtol = settings.rtol;
    try {
      this.stopQueue.reset(m.events, p, t0, tEnd, 1, modelStart);
    } catch (err) {
      if (err instanceof ScheduleError) return this.fail(result, err.message, t0);
      throw err;
    }
    const gridRows = keep && !settings.eventsOnly && (settings.outputStep > 0 || settings.outputTimes !== undefined);
    const run: Run = {
      s,
      result,
      probes,
      pi: 0,
      probeOut,
      gridRows,
      needOutputs: keep || settings.eventValues,
      instants: 0,
      eventCount: 0,
      hi: t0,
      lo: 0,
      endGuard: endGuard(tEnd),
      progress: settings.progress,
    };
    this.run_ = run;
    const unbounded = this.diagnosis.nonFiniteAt(t0, ws.y, ws.d);
    if (unbounded !== null) return this.fail(result, unbounded, t0);
    this.start(run);
    let over = false;
    const due = this.dueAt.take(t0, 0);
    // (a delta at the start counts: with the time events there, in file order)
    if (t0 < tEnd && this.deltas) deltasDueAtEnd(ws, t0, ws.y, ws.d, true, () => false, due).sort(ascending);
    if (due.length > 0) over = this.instant(run, due);
    else this.recorder.endRow(t0, ws.y, ws.d);
    // A contact at the start that the instant there left as it was (or with none) ends the run
    // at t0, as on the steppers. (Failed inside start, the run went on: a delta's event at 0.75
    // and the motion through the floor were written after the failure at t = 0; and an instant
    // at t0 that threw the ball up off the floor was never seen, a false failure.)
    const contact = over ? -1 : this.startContact.indexOf(1);
    if (contact >= 0) return this.fail(result, this.diagnosis.contactMessage(this.plans[contact].watch, t0, true), t0);
    this.takeProbes(run, t0, 0);
    // (a run past the row limit stops there: its rows could otherwise fill a disk)
    while (!over && !this.recorder.overflow) over = this.simple(run) || this.next(run);
    if (result.status === 'failed') return result;
    return this.finish(run);
  }

  /** Every state event predicted from the initial state. */
  private start(run: Run): void {
    this.clocks.reset(run.s.t0);
    this.firing.beginRun();
    this.heap.clear();
    this.zeno.reset();
    this.unresolved.fill(0);
    this.uncertainWeight.fill(0);
    this.rootKnown.fill(0);
    this.lastAt.fill(NaN);
    this.turnedAt.fill(NaN);
    this.restBand.fill(NaN);
    this.restFrom.fill(0);
    // (setting an array's length is a call into the runtime: only when there is something to drop)
    if (this.dueAt.deferred.length > 0) this.dueAt.deferred.length = 0;
    this.predicted.clear();
    this.startContact.fill(0);
    this.deferContacts = true;
    for (let k = 0; k < this.plans.length; k++) if (this.plans[k].watch >= 0) this.predictOne(run, k, false, true);
    this.deferContacts = false;
  }

  /**
   * The common instant, in one loop: one state event due alone (no scheduled event, probe,
   * grid row or other crossing within the tie tolerance), no rows or ledger values to write,
   * no event iteration. The same steps as `instant`, without its generality, so that a run of
   * bounces or collisions is one hot loop from its first event (what the JIT compiles first).
   * Returns true when the run is over, false when the next instant needs `next`.
   */
  private simple(run: Run): boolean {
    if (run.gridRows || run.needOutputs || this.dense !== null) return false;
    // (everything the loop reads of the engine and the run, once: in V8's baseline code, where
    // short runs stay, every property read is a call into a builtin)
    const { heap, plans, ws, clocks, firing, zeno, stopQueue, unresolved, lastAt, turnedAt, predicted, one } = this;
    const { preValue, preBound, preApproach, predictor: pr, model: m } = this;
    const deferred = this.dueAt.deferred,
      floor = this.dueAt.floor;
    const { y, p, d } = ws;
    const { endGuard, probes } = run,
      { maxSteps, maxEvents } = run.s;
    const order = heap.order,
      heapHi = heap.hi,
      heapLo = heap.lo,
      c = pr.c;
    for (;;) {
      // (heap.top(), written out)
      if (heap.size === 0) return false;
      const k = order[0];
      const hi = heapHi[k],
        lo = heapLo[k];
      if (!(hi < endGuard) || unresolved[k] !== 0) return false;
      const t = hi + lo;
      // (tieTolerance(hi), written out)
      const tol = TIE * Math.max(floor, Math.abs(hi));
      const q = stopQueue.peek();
      if (q <= t + tol || stopQueue.failure !== null || deferred.length > 0) return false;
      if (run.pi < probes.length && probes[run.pi] <= t) return false;
      if (heap.nextWithin(tol) || Math.abs(t - lastAt[k]) <= tol) return false;
      const plan = plans[k];
      if (plan.moves || run.instants >= maxSteps) return false;
      clocks.allTo(plan.touch, hi, lo, y, p, d);
      // a function it turns sitting at zero: event iteration, on the general path
      if (plan.turns.length > 0 && firing.touchesZero(t, k)) return false;
      run.instants++;
      run.hi = hi;
      run.lo = lo;
      const D = plan.degree;
      plan.valueRate!(t, y, p, d, c);
      preValue[k] = c[0];
      // (the location's residue: its rounding, and its rate before the actions over the rounding of t)
      preBound[k] = (plan.linear === null ? c[D + 1] : this.valueBound(plan, t)) + (D >= 1 ? Math.abs(c[1]) * tol : 0);
      // (pr.rateSign(plan), written out)
      preApproach[k] = D >= 1 && Math.abs(c[1]) > c[D + 2] ? Math.sign(c[1]) : 0;
      const outcome = firing.fireOne(t, k);
      foldSlots(ws, this.stepStates, plan.dSlots, this.bringState);
      run.eventCount++;
      one[0] = k;
      if (!this.finite.written(ws, one, this.writtenOf))
        return this.failAt(run, this.diagnosis.nonFiniteAfter(t, one) ?? `not finite at ${t}`, t);
      // (as `instant` does: `k := 0` under x' = 1/k fails here, not where the Infinity surfaces)
      if (plan.finiteRisk && !this.finite.check(t, ws, one, this.changesOf))
        return this.failAt(run, this.diagnosis.nonFiniteAt(t, y, d) ?? `not finite at ${t}`, t);
      if (plan.coefficientRisk) {
        const beyond = this.finite.overflowing(t, ws, one, this.changesOf, this.coefficientRiskOf);
        if (beyond >= 0) return this.beyondDoubles(run, beyond, one, t);
      }
      if (plan.functionRisk.length > 0) {
        const lost = this.finite.functionLost(t, ws, one, this.functionRiskOf);
        if (lost >= 0) return this.beyondDoubles(run, -1, one, t, lost);
      }
      if (outcome.stopped) return this.stoppedBy(run, outcome.stopper, t);
      this.firedNow = one;
      // (the delayed deltas that follow k are due their delays later)
      stopQueue.fired(one, hi, lo);
      predicted.clear();
      const again = plan.repredict,
        brought = plan.broughtFor;
      for (let i = 0; i < again.length; i++) {
        const j = again[i];
        if (predicted.has(j)) continue;
        predicted.add(j);
        if (!this.predictOne(run, j, j === k, false, brought[i] === 1)) return true;
      }
      lastAt[k] = t;
      const turned = plan.turnsEvents;
      for (let i = 0; i < turned.length; i++) turnedAt[turned[i]] = t;
      if (run.eventCount > maxEvents)
        return this.failAt(
          run,
          `more than ${maxEvents} events by ${m.system.independent} = ${t}; raise option maxEvents (--max-events) if that many are expected`,
          t,
        );
      // (accumulates, for the one event)
      const acc = zeno.note(k, hi, lo);
      if ((acc !== null || zeno.crawl === zeno.crawl) && this.stopsAt(run, k, acc, t)) return true;
      if (run.progress !== undefined && (run.instants & 4095) === 0) run.progress(t);
    }
  }

  /**
   * Goes to the next instant (grid rows and probes before it) and processes it; at the end
   * of the range, the rows and probes left. True when the run is over.
   */
  private next(run: Run): boolean {
    const heap = this.heap,
      tEnd = run.s.tEnd;
    const k = heap.top();
    let hi = k >= 0 ? heap.hi[k] : Infinity,
      lo = k >= 0 ? heap.lo[k] : 0;
    if (this.stopQueue.failure !== null) return this.failAt(run, this.stopQueue.failure.message, run.hi + run.lo);
    const queued = this.stopQueue.peek();
    const q = queued === queued ? queued : Infinity;
    const dueAt = this.dueAt;
    if (dueAt.deferred.length > 0) {
      // (time events taken off the queue with a crossing that they commute with: due at their
      // own time, the same or a few ulps after it, unless a crossing comes between)
      if (dueAt.deferredHi < hi || (dueAt.deferredHi === hi && dueAt.deferredLo <= lo)) {
        hi = dueAt.deferredHi;
        lo = dueAt.deferredLo;
      }
    } else if (q < hi || (q === hi && lo > 0)) {
      hi = q;
      lo = 0;
    } else if (k >= 0 && q !== hi && hi < run.endGuard && dueAt.movable(hi, lo, q)) {
      // A time event a few ulps after the crossing, within the tie: one instant, at the time
      // event's time (its decimals, `at 3`, not the crossing's rounded root 2.9999999999999996),
      // as on the stepper, which moves a crossing found within the tie of a stop to the stop.
      // The crossings due there join it (DueEvents.take); fired a rounding past its root, a
      // function is within what its location cannot tell from zero, as one fired at it.
      hi = q;
      lo = 0;
    }
    if (hi > tEnd || (hi === tEnd && lo > 0)) return this.end(run);
    if (k >= 0 && this.unresolved[k] === 2 && heap.hi[k] === hi && heap.lo[k] === lo) return this.resumeAt(run, k);
    // (a crossing that cannot be told from the end: not an event of the range, but a delta's)
    if (
      k >= 0 &&
      hi >= run.endGuard &&
      hi === heap.hi[k] &&
      lo === heap.lo[k] &&
      !isDeltaArgument(this.model.events[k])
    ) {
      const atEnd = crossingAtEnd(this.ws, this.clocks, this.plans[k], hi, lo, run.s.t0, tEnd);
      if (atEnd === true) {
        heap.set(k, Infinity, 0);
        return false;
      }
      if (atEnd !== false) {
        const w = this.plans[k].watch;
        return this.failAt(run, this.diagnosis.endPrecisionMessage(w, hi + lo, tEnd, atEnd.band, atEnd.peak), hi);
      }
    }
    if (this.unresolved[k] === 1 && heap.hi[k] === hi && heap.lo[k] === lo) return this.failUnresolved(run, k, hi, lo);
    if (run.gridRows || run.pi < run.probes.length) this.outputsUntil(run, hi, lo);
    // (the row limit reached on the way: the run ends at its last row, before the instant)
    if (this.recorder.overflow) return true;
    run.hi = hi;
    run.lo = lo;
    const due = this.dueAt.take(hi, lo);
    if (k >= 0 && heap.hi[k] === hi && heap.lo[k] === lo && this.chainsAtZero(due, hi + lo))
      this.dueAt.withEveryCrossing(hi, lo, due);
    if (this.instant(run, due)) return true;
    if (run.pi < run.probes.length) this.takeProbes(run, hi, lo);
    return false;
  }

  /** The end of the range: its rows and probes, and the deltas due there (a delta at the end counts). */
  private end(run: Run): boolean {
    const tEnd = run.s.tEnd,
      ws = this.ws;
    this.outputsUntil(run, tEnd, 0);
    this.clocks.everyTo(tEnd, 0, ws.y, ws.p, ws.d);
    if (!this.deltas) return true;
    const tol = tieTolerance(tEnd, this.dueAt.floor);
    const fired = (k: number) =>
      Math.abs(tEnd - this.lastAt[(this.model.watchInfo[k] as { event: number }).event]) <= tol;
    const due = deltasDueAtEnd(ws, tEnd, ws.y, ws.d, false, fired, []);
    if (due.length === 0) return true;
    run.hi = tEnd;
    run.lo = 0;
    this.instant(run, due);
    return true;
  }

  /**
   * Whether an event of `due` turns a function that rests at its zero at t: event iteration may
   * then carry its actions on to crossings it commutes with (DueEvents.withEveryCrossing).
   */
  private chainsAtZero(due: readonly number[], t: number): boolean {
    if (!this.heap.nextWithin(tieTolerance(t, this.dueAt.floor))) return false;
    for (const e of due) {
      const plan = this.plans[e];
      if (plan.turns.length === 0) continue;
      this.bring(plan.touch);
      if (this.firing.touchesZero(t, e)) return true;
    }
    return false;
  }

  /** Brings the groups listed to the current instant. */
  private bring(groups: Int32Array): void {
    const run = this.run_!,
      ws = this.ws;
    this.clocks.allTo(groups, run.hi, run.lo, ws.y, ws.p, ws.d);
  }

  /** Fires the events due at the current instant (run.hi + run.lo) and predicts again what they changed; true when the run is over. */
  private instant(run: Run, due: number[]): boolean {
    const t = run.hi + run.lo;
    if (++run.instants > run.s.maxSteps) return this.failAt(run, stepsMessage(this.model, run.s.maxSteps, t), t);
    for (const k of due)
      if (this.uncertainWeight[k] > 0)
        return this.failAt(
          run,
          this.diagnosis.touchMessage(this.plans[k].watch, t, {
            uncertainty: this.uncertainWeight[k],
            rtol: this.rtol,
          }),
          t,
        );
    if (!this.arrive(run, due, t)) return true;
    this.dense?.arrived(run.hi, run.lo, due);
    const outcome = this.firing.fire(t, due);
    // the jumps into the states they belong to (driver/step-fold.ts)
    for (const k of outcome.fired) foldSlots(this.ws, this.stepStates, this.plans[k].dSlots, this.bringState);
    this.dense?.fired(run.hi, run.lo, outcome.fired);
    run.eventCount += outcome.count;
    this.stopQueue.fired(outcome.fired, run.hi, run.lo);
    if (outcome.iterationFailed) return this.failAt(run, iterationMessage(this.model, t, outcome.fired), t);
    if (!this.finite.written(this.ws, outcome.fired, this.writtenOf))
      return this.failAt(run, this.diagnosis.nonFiniteAfter(t, outcome.fired) ?? `not finite at ${t}`, t);
    if (!this.finite.check(t, this.ws, outcome.fired, this.changesOf))
      return this.failAt(run, this.diagnosis.nonFiniteAt(t, this.ws.y, this.ws.d) ?? `not finite at ${t}`, t);
    const beyond = this.finite.overflowing(t, this.ws, outcome.fired, this.changesOf, this.coefficientRiskOf);
    if (beyond >= 0) return this.beyondDoubles(run, beyond, outcome.fired, t);
    const lost = this.finite.functionLost(t, this.ws, outcome.fired, this.functionRiskOf);
    if (lost >= 0) return this.beyondDoubles(run, -1, outcome.fired, t, lost);
    // (a stop ends the run here: what the next crossings would be, or whether its own function
    // rests at zero pushed across, is for a run that goes on; the steppers stop at once too)
    if (outcome.stopped) {
      this.clocks.giveBack(this.ws.y);
      return this.stoppedBy(run, outcome.stopper, t);
    }
    if (!this.repredict(run, due, outcome.fired, t)) return true;
    this.clocks.giveBack(this.ws.y);
    if (run.eventCount > run.s.maxEvents)
      return this.failAt(
        run,
        `more than ${run.s.maxEvents} events by ${this.model.system.independent} = ${t}; raise option maxEvents (--max-events) if that many are expected`,
        t,
      );
    if (this.accumulates(run, due, t)) return this.tiesAtStop(run);
    if (run.progress !== undefined && (run.instants & 4095) === 0) run.progress(t);
    return false;
  }

  /**
   * Before the actions: a state event found again at the very instant it fired is a contact
   * (no flight in between that the arithmetic can see); the groups the events touch are
   * brought to the instant; each state event's function is read just before its actions (its
   * residue and how it arrived, for re-arming). False when the run is over.
   */
  private arrive(run: Run, due: number[], t: number): boolean {
    const plans = this.plans,
      ws = this.ws,
      pr = this.predictor;
    const tol = tieTolerance(t, this.dueAt.floor);
    for (let i = 0; i < due.length; i++) {
      const k = due[i],
        plan = plans[k];
      // (a touch predicted within rounding, taken with an event it interacts with a few ulps
      // before it: whether it crosses at this instant cannot be told)
      if (this.unresolved[k] === 1) return !this.failUnresolved(run, k, run.hi, run.lo);
      // (the time since, exact in the instants' two doubles: between their rounded doubles a
      // sawtooth 4.3 units of EPSILON*t apart at t = 1e9 came within the tie, a "contact")
      const since = this.zeno.sinceLast(k, run.hi, run.lo) || Math.abs(t - this.lastAt[k]);
      if (plan.watch >= 0 && since <= tol && !(this.turnedAt[k] > this.lastAt[k])) {
        this.failAt(run, this.diagnosis.contactMessage(plan.watch, t, false, since), t);
        return false;
      }
      this.bring(plan.touch);
    }
    if (run.needOutputs) this.clocks.lend(this.outputGroups, run.hi, run.lo, ws.y, ws.p, ws.d);
    for (let i = 0; i < due.length; i++) {
      const k = due[i],
        plan = plans[k];
      if (plan.watch < 0) continue;
      plan.valueRate!(t, ws.y, ws.p, ws.d, pr.c);
      this.preValue[k] = pr.c[0];
      // (as in simple: the rate before the actions sets how far the location's residue may be)
      this.preBound[k] =
        this.valueBound(plan, t) + (plan.degree >= 1 ? Math.abs(pr.c[1]) * tieTolerance(t, this.dueAt.floor) : 0);
      this.preApproach[k] = pr.rateSign(plan);
    }
    return true;
  }

  /**
   * After the actions: every state event they can have changed predicted again, once. An event
   * that event iteration fired (a level another event's action set to zero, heading across)
   * is re-armed as one due at the instant, from its function just before its own actions:
   * left at zero by them, it waits to leave zero. False when the run is over.
   */
  private repredict(run: Run, due: number[], fired: readonly number[], t: number): boolean {
    const plans = this.plans,
      firing = this.firing;
    this.firedNow = fired;
    const predicted = this.predicted,
      sentAtZero = this.sentAtZero;
    predicted.clear();
    sentAtZero.clear();
    for (let f = due.length; f < fired.length; f++) {
      const k = fired[f];
      if (plans[k].watch < 0 || due.includes(k)) continue;
      this.preValue[k] = firing.sentValue[k];
      this.preBound[k] = firing.sentBound[k];
      this.preApproach[k] = firing.sentApproach[k];
      // (one sent across by a reset, from one side to the other, was never at its zero: it
      // is armed, as any function an action moved)
      if (Math.abs(firing.sentValue[k]) <= 4 * firing.sentBound[k]) sentAtZero.add(k);
    }
    for (let f = 0; f < fired.length; f++) {
      const k = fired[f];
      const again = plans[k].repredict;
      for (let i = 0; i < again.length; i++) {
        const j = again[i];
        if (predicted.has(j)) continue;
        predicted.add(j);
        if (!this.predictOne(run, j, due.includes(j) || sentAtZero.has(j), false)) return false;
      }
      if (plans[k].watch >= 0) this.lastAt[k] = t;
    }
    // (one that fired here too was carried through the instant by event iteration)
    for (let f = 0; f < fired.length; f++) {
      const turned = plans[fired[f]].turnsEvents;
      for (let i = 0; i < turned.length; i++) if (!fired.includes(turned[i])) this.turnedAt[turned[i]] = t;
    }
    return true;
  }

  /** A stop event fired at t: the run ends there, status stopped. */
  private stoppedBy(run: Run, stopper: string, t: number): true {
    run.result.status = 'stopped';
    run.result.message = `stopped by event ${stopper} at ${this.model.system.independent} = ${t}`;
    return true;
  }

  /** A geometric accumulation of one of the events due (zeno.ts): the run stops there. */
  private accumulates(run: Run, due: number[], t: number): boolean {
    // (the ties of an instant that accumulation already stops: tiesAtStop)
    if (this.stopping) return false;
    for (let i = 0; i < due.length; i++) {
      const k = due[i];
      // (a time event listed twice at one time fires twice there: one occurrence for Zeno)
      if (i > 0 && due.indexOf(k) < i) continue;
      const acc = this.zeno.note(k, run.hi, run.lo);
      if ((acc !== null || this.zeno.crawl === this.zeno.crawl) && this.stopsAt(run, k, acc, t)) return true;
    }
    return false;
  }

  /**
   * A run that accumulation stops at an instant still fires the events due at exactly that
   * time (EVENTS.md: ties fire together; the analytic path takes commuting ones one after the
   * other, in file order): of two balls that land at one instant, both land. Always true (the
   * run is over); the Zeno message counts them.
   */
  private tiesAtStop(run: Run): boolean {
    if (run.result.status !== 'zeno') return true;
    const heap = this.heap,
      dueAt = this.dueAt,
      { hi, lo } = run;
    const tied = () => {
      const k = heap.top();
      return (
        (k >= 0 && heap.hi[k] === hi && heap.lo[k] === lo) ||
        (dueAt.deferred.length > 0 && dueAt.deferredHi === hi && dueAt.deferredLo === lo) ||
        (lo === 0 && this.stopQueue.peek() === hi)
      );
    };
    const message = run.result.message!;
    const before = run.eventCount;
    this.stopping = true;
    try {
      while (tied()) {
        const due = dueAt.take(hi, lo);
        if (due.length === 0 || this.instant(run, due)) break;
      }
    } finally {
      this.stopping = false;
    }
    // (a tie that failed the run keeps its own message)
    if (run.result.status === 'zeno' && run.eventCount !== before)
      run.result.message = message.replace(/after \d+ events$/, `after ${run.eventCount} events`);
    return true;
  }

  /** After zeno.note(k) gave acc or set a crawl: whether the run stops there (a crawl fails it; an accumulation point in the range ends it). */
  private stopsAt(run: Run, k: number, acc: number | null, t: number): boolean {
    if (this.zeno.crawl === this.zeno.crawl)
      return this.failAt(run, this.zeno.crawlMessage(this.model.events[k].name, this.model.system.independent, t), t);
    if (acc !== null && acc < run.s.tEnd && acc >= run.s.t0) {
      const sys = this.model.system;
      run.result.status = 'zeno';
      run.result.accumulationPoint = acc;
      run.result.message = `events of ${this.model.events[k].name} accumulate at ${sys.independent} = ${acc} (Zeno): the run stops at ${t}, after ${run.eventCount} events`;
      return true;
    }
    return false;
  }

  /**
   * Predicts state event j's next crossing at the current instant (its groups brought there);
   * false when the run is over (a contact the analytic path does not hold).
   */
  private predictOne(run: Run, j: number, firedHere: boolean, start: boolean, brought = false): boolean {
    const plan = this.plans[j],
      ws = this.ws,
      pr = this.predictor;
    const t = run.hi + run.lo;
    // (brought: every group it reads is among those the event that fired brought to the instant)
    if (!brought) this.clocks.allTo(plan.reads, run.hi, run.lo, ws.y, ws.p, ws.d);
    plan.coefficients!(t, ws.y, ws.p, ws.d, pr.c);
    // (standing for a jump, set exactly onto zero by another event's action, or starting there:
    // on the jump's side, as the watched function is (codegen/emit-flow.ts, onSide): x := 0 at
    // step(x) - 0.5 falls is no crossing, and x moving on down from there crosses at once)
    if (!firedHere && pr.c[0] === 0 && this.zeroSide[j] !== 0) pr.c[0] = this.zeroSide[j] * Number.MIN_VALUE;
    // (an action of its own that assigned what it reads and changed its value reset it, if
    // only by less than its rounding: not still; unless it left it within what its location
    // cannot tell from zero (its rate over the rounding of t) and scaled its residue by a
    // moderate factor: `v := -0.8*v` at `v falls`, located at v = -1.1e-16, leaves +8.9e-17,
    // still at zero, where a reset found it falling through zero again at once, a false
    // "persisting contact"; `x := 0.9999999999999999` at `x - 1 rises`, located at exactly
    // 0, moves it off zero, a reset)
    const c = pr.c;
    const bound = this.valueBound(plan, t);
    let still = false,
      keptHeld = false,
      judged = false,
      hold = 0;
    if (firedHere) {
      const pre = this.preValue[j];
      const located = this.locationBand(j, bound, c[1], t);
      // (a bounce leaves it as it was: still; pr.unmoved, written out)
      if (c[0] === pre) still = true;
      else
        still = residueKept(c[0], pre, located) || (!plan.movesOwn && Math.abs(c[0] - pre) <= this.preBound[j] + bound);
      // (held until it leaves that, as on the steppers: arming.ts, rearm's holdScale)
      if (still) hold = 2 * (located + Math.abs(c[0]));
    } else {
      // (one event iteration judged, that did not fire, leaves zero; so does any at an instant
      // at the run's start: a function at zero there follows the start's rule, as on the steppers)
      judged = this.firing.judged(plan.watch) || (!start && t === run.s.t0);
      // (predicted again there, its start's contact is judged again, after the actions)
      if (!start && t === run.s.t0) this.startContact[j] = 0;
      // (judged a touch, left at its zero: it leaves zero from there, whatever the residue's
      // sign; at 1.1e-16 heading down, it "crossed" 2e-16 after the instant, status ok)
      if (this.firing.leftAtZero(plan.watch) && this.zeroSide[j] === 0) c[0] = 0;
      // (its zeros those of one that fired here, x' rises beside x' falls: held as that one)
      const k = start ? -1 : this.sameZeroFired(plan.watch);
      // (or, whatever its expression, its value was at the zero located here: 2x' rises beside
      // x' crosses, held by nothing and "crossed" from its residue's side by a later kick,
      // fire.ts locatedBand)
      const byValue = k >= 0 || start ? NaN : this.firing.locatedBand(plan.watch);
      const located =
        k >= 0
          ? this.locationBand(k, bound, c[1], t)
          : byValue + bound + Math.abs(c[1]) * tieTolerance(t, this.dueAt.floor);
      // (only where it is at that zero: one sent across by event iteration with it, x' at 1.6
      // after a delta's kick, was held "at rest" in a band of twice its value and never fired)
      if (Math.abs(c[0]) <= located) {
        hold = 2 * (located + Math.abs(c[0]));
        // It is at the zero the other located, and it did not fire with it: no crossing in its
        // direction at this instant, so it leaves zero from there, whatever the residue's sign
        // (z - 1e-6 rises fired and x' := 0 turned z back: falls on the same zero fired on the
        // residue's +1.4e-19 2.4e-8 later, n = 1 for 0, status ok)
        if (this.zeroSide[j] === 0) {
          c[0] = 0;
          judged = true;
        }
      } else if (k < 0 && !start && !judged && Math.abs(c[0]) <= this.restBand[j]) {
        // (held at rest at the zero it fired at, an earlier instant's, and left there by this
        // one's actions: still at that zero, and it leaves it the way they turned it; the
        // residue's sign is noise, as on the steppers: driver/firing.ts, HeldZeros)
        still = true;
        keptHeld = true;
        hold = this.restBand[j];
      }
    }
    // (judged at zero by the instant's event iteration: its rate within the rate's own band is
    // zero, and the next order says where it goes; fire.ts, rateBand)
    if (plan.degree >= 1 && this.firing.judged(plan.watch)) {
      const D = plan.degree;
      c[D + 2] = Math.max(c[D + 2], this.firing.rateBand[plan.watch]);
    }
    // (the scale of "one instant": the tie tolerance's, whose floor is 1 near t = 0 on a unit range)
    pr.timeScale = Math.max(Math.abs(t), this.dueAt.floor);
    // (at an instant at t0, one that did not fire there is at the run's start: at rest at its
    // zero and pushed across, as after a no-op tick, it is the start's persisting contact)
    const atStart = start || (!firedHere && t === run.s.t0 && hold === 0);
    pr.predict(plan, run.s.tEnd - t, still, this.preApproach[j], atStart, bound, judged, hold);
    this.restBand[j] = pr.resting ? hold : NaN;
    // (the side it came to rest from: its approach where it fired here; kept while it stays)
    if (!pr.resting) this.restFrom[j] = 0;
    else if (firedHere) this.restFrom[j] = -this.preApproach[j];
    else if (!keptHeld) this.restFrom[j] = 0;
    // At an instant at the end of the range nothing follows: a contact there pushes nothing
    // through, and a crossing that cannot be told from the instant is not an event of the
    // range (range-ends.ts), a delta's excepted (y*y - 1 with y = t, at zero at
    // t = 1 after the events there, on [0, 1]: "precision ran out", where the steppers end ok)
    if (
      t === run.s.tEnd &&
      (pr.outcome === 'contact' || (pr.outcome === 'unresolved' && !isDeltaArgument(this.model.events[j])))
    ) {
      this.unresolved[j] = 0;
      this.heap.set(j, Infinity, 0);
      return true;
    }
    if (pr.outcome === 'contact' && atStart && (this.deferContacts || t === run.s.t0)) {
      this.startContact[j] = 1;
      this.heap.set(j, Infinity, 0);
      return true;
    }
    if (pr.outcome === 'contact') {
      this.failAt(run, this.diagnosis.contactMessage(plan.watch, t, atStart), t);
      return false;
    }
    if (pr.outcome === 'unresolved' && pr.s === 0) {
      ws.gPrev[plan.watch] = pr.c[0];
      ws.gBound[plan.watch] = bound;
      const message = isDeltaArgument(this.model.events[j])
        ? this.diagnosis.touchMessage(plan.watch, t)
        : this.diagnosis.precisionMessage(plan.watch, t, this.firedNow);
      this.failAt(run, message, t);
      return false;
    }
    // (kept while the scan resumes towards that root: nearer, the value's bound shrinks with
    // it, 5e-36 at x = -2.8e-21, and no longer shows the history's rounding the root carries)
    const resumedKnown = this.unresolved[j] === 2 ? this.rootKnown[j] : 0;
    this.unresolved[j] = pr.outcome === 'unresolved' ? 1 : pr.outcome === 'resume' ? 2 : 0;
    this.resumeSign[j] = pr.outcome === 'resume' ? pr.resumeSign : 0;
    let uncertainty = 0;
    if (pr.s !== Infinity && plan.linear === null && isDeltaArgument(this.model.events[j])) {
      const known = Math.max(resumedKnown, valueKnownAt(c, plan.degree, pr.s, bound));
      this.rootKnown[j] = known;
      uncertainty = weightUncertainty(c, plan.degree, pr.s, known);
    }
    this.uncertainWeight[j] = uncertainty > this.rtol ? uncertainty : 0;
    if (pr.s === Infinity) this.heap.set(j, Infinity, 0);
    else {
      addTime(run.hi, run.lo, pr.s, this.pair);
      this.heap.set(j, this.pair[0], this.pair[1]);
    }
    return true;
  }

  /**
   * What the location of event k's zero at t cannot tell from zero, for a function of rounding
   * `bound` and rate `rate` now: k's residue band before the actions, this rounding, and the
   * rate over the rounding of t.
   */
  private locationBand(k: number, bound: number, rate: number, t: number): number {
    return this.preBound[k] + bound + Math.abs(rate) * tieTolerance(t, this.dueAt.floor);
  }

  /** An event fired at this instant whose function has the zeros of watched function w (another's), or -1. */
  private sameZeroFired(w: number): number {
    const m = this.model,
      zero = m.watchInfo[w].zeroOf;
    for (const e of this.firedNow) {
      const v = m.events[e].watchIndex;
      if (v >= 0 && v !== w && m.watchInfo[v].zeroOf === zero) return e;
    }
    return -1;
  }

  /**
   * The rounding of event k's function at the instant t (its groups there), for deciding
   * whether it sits at zero: a polynomial's constant's bound; along a linear block the
   * function's own (the compiled rounding bound the stepper uses), not the constant's bound of
   * the Taylor polynomial, which holds the remainder over the whole first window: with a far
   * equilibrium (x' = -1e-12 x + 1, at 1e12) that is 1e-7, and a threshold 1e-9 away would
   * sit "at zero" and its crossing be skipped.
   */
  private valueBound(plan: EventPlan, t: number): number {
    if (plan.linear === null) return this.predictor.c[plan.degree + 1];
    const ws = this.ws;
    return (this.boundOne ??= this.model.boundOne)[plan.watch](t, ws.y, ws.p, ws.d, ws.sw);
  }

  /**
   * A linear event's scan that stopped at its budget (predict.ts) goes on from where it
   * stopped, as at a start; unless its block became too stiff to scan (an event set its
   * constants: L := 1e8 in z' = -L z + x), where the run stops and asks for the stepper
   * (stepperNeeded): the scan would take billions of windows, a run that never ends.
   */
  private resumeAt(run: Run, k: number): boolean {
    const hi = this.heap.hi[k],
      lo = this.heap.lo[k];
    if (run.gridRows || run.pi < run.probes.length) this.outputsUntil(run, hi, lo);
    run.hi = hi;
    run.lo = lo;
    const stiff = stiffScan(this.model, k, this.ws.p, this.ws.d, run.s.tEnd - (hi + lo));
    if (stiff !== null) {
      this.stepperNeeded = true;
      const sys = this.model.system;
      const message = `from ${sys.independent} = ${hi + lo}, ${stiff}, which the analytic path cannot scan in reasonable time: a stiff stepper integrates it (method rodas or radau5, or auto)`;
      if (this.handsOver) {
        // (no row at the hand-over: the rows and ledger up to it stand, the stepper writes the rest)
        this.handOverAt = hi + lo;
        run.result.status = 'failed';
        run.result.message = message;
        return true;
      }
      return this.failAt(run, message, hi + lo);
    }
    if (++run.instants > run.s.maxSteps)
      return this.failAt(run, stepsMessage(this.model, run.s.maxSteps, hi + lo), hi + lo);
    // (its scan goes on with the sign it saw: stopped inside the band of a crossing, the
    // first certain sign from here is already across; predict.ts, carry)
    this.predictor.carry = this.resumeSign[k];
    return !this.predictOne(run, k, false, true);
  }

  /**
   * The instant at t left the closed form of `state` with a coefficient beyond doubles
   * or below it (finite-after.ts, overflowing), or an event's function (`event` >= 0) with one
   * below it (functionLost): the run stops and asks for the stepper (stepperNeeded),
   * as a block an event makes too stiff to scan does (resumeAt): under auto the stepper takes
   * the run (from the start, or from the instant into a sink that has its rows and ledger up
   * to it); under method analytic it fails naming the coefficient and the events. It failed
   * later, "precision ran out" within a rounding of Infinity, or "left the range".
   */
  private beyondDoubles(run: Run, state: number, fired: readonly number[], t: number, event = -1): boolean {
    this.stepperNeeded = true;
    const m = this.model,
      sys = m.system;
    const events = fired.map((k) => m.events[k].name).join(', ');
    const what =
      event >= 0
        ? eventUnderflowMessage(m, event)
        : this.finite.below
          ? underflowMessage(m, state)
          : `the closed form of ${sys.states[state].name} has a coefficient beyond double precision (a value large for its time scale)`;
    const message = `from ${sys.independent} = ${t}, after the actions of ${events}, ${what}: the stepper integrates it (use method auto)`;
    if (this.handsOver) {
      // (the instant's rows and ledger stand; the stepper writes what follows it)
      this.handOverAt = t;
      run.result.status = 'failed';
      run.result.message = message;
      return true;
    }
    return this.failAt(run, message, t);
  }

  /** Grid rows (outputStep, or outputTimes: the recorder's grid) up to and including the time hi + lo. */
  private outputsUntil(run: Run, hi: number, lo: number): void {
    if (run.gridRows) {
      const ws = this.ws,
        m = this.model,
        t = hi + lo;
      for (;;) {
        const tg = this.recorder.nextGridTime();
        if (!(tg <= t) || tg >= run.s.tEnd || this.recorder.overflow) break;
        this.recorder.advanceGrid();
        this.clocks.lend(this.outputGroups, tg, 0, ws.y, ws.p, ws.d);
        // (left limits: a grid row at an instant's time comes before its events)
        m.outputsAtInstant(tg, ws.y, ws.p, ws.d, ws.sw, ws.outPost, 1);
        this.clocks.giveBack(ws.y);
        this.recorder.fixedRow(tg, ws.outPost);
      }
    }
    // probes strictly before the instant (those at it are taken after its events)
    while (run.pi < run.probes.length && run.probes[run.pi] < hi + lo) this.takeProbe(run, run.probes[run.pi]);
  }

  /** The probes at the time hi + lo, after the events there. */
  private takeProbes(run: Run, hi: number, lo: number): void {
    while (run.pi < run.probes.length && run.probes[run.pi] === hi + lo) this.takeProbe(run, run.probes[run.pi]);
  }

  private takeProbe(run: Run, t: number): void {
    const ws = this.ws,
      m = this.model;
    this.clocks.lend(null, t, 0, ws.y, ws.p, ws.d);
    run.probeOut.push({ t, y: ws.y.slice(0, m.nStates), d: ws.d.slice() });
    this.clocks.giveBack(ws.y);
    run.pi++;
  }

  /** The end of a run that was not failed: the state at its last time, the final row and values, the counts. */
  private finish(run: Run): SimulationResult {
    const ws = this.ws,
      result = run.result;
    const overflow = this.recorder.overflow;
    const ended = result.status === 'ok' && !overflow;
    let hi = ended ? run.s.tEnd : run.hi,
      lo = ended ? 0 : run.lo;
    // stopped by the row limit: the final values are those of the last row written (grid rows
    // come only before the next instant, so no event lies between)
    const last = this.recorder.lastRowTime;
    if (overflow && last > hi + lo) {
      hi = last;
      lo = 0;
    }
    if (ended) while (run.pi < run.probes.length) this.takeProbe(run, run.probes[run.pi]);
    const t = hi + lo;
    this.clocks.everyTo(hi, lo, ws.y, ws.p, ws.d);
    const unbounded = overflow ? null : this.diagnosis.nonFiniteAt(t, ws.y, ws.d);
    if (unbounded !== null) return this.fail(result, unbounded, t);
    // A run that ends at an instant (a stop, a delta at the end) ends after its events, as its
    // last row; one that ends at the end of its range otherwise, at the left limits (a
    // crossing there is no event).
    const side = t === this.firing.lastInstant ? -1 : ended && t !== run.s.t0 ? 1 : 0;
    result.final = this.recorder.finalRow(t, ws.y, ws.d, side);
    result.stats = { steps: run.instants, rejected: 0, rhsEvaluations: 0, events: run.eventCount, method: 'analytic' };
    if (this.recorder.overflow) return this.fail(result, this.recorder.overflowMessage(), t);
    return result;
  }

  /** A crossing predicted within rounding of a double root has come due: precision ran out. */
  private failUnresolved(run: Run, k: number, hi: number, lo: number): boolean {
    const m = this.model,
      t = hi + lo;
    // (the state brought to the touch, where the message says the run stopped)
    run.hi = hi;
    run.lo = lo;
    if (isDeltaArgument(m.events[k]))
      return this.failAt(run, this.diagnosis.touchMessage(m.events[k].watchIndex, t), t);
    return this.failAt(run, touchesZeroMessage(m, k, t), t);
  }

  /** Fails the run at time t (the state brought there). */
  private failAt(run: Run, message: string, t: number): true {
    const ws = this.ws;
    this.clocks.everyTo(run.hi, run.lo, ws.y, ws.p, ws.d);
    this.fail(run.result, message, t);
    run.result.stats = {
      steps: run.instants,
      rejected: 0,
      rhsEvaluations: 0,
      events: run.eventCount,
      method: 'analytic',
    };
    return true;
  }

  /** Marks a failed run: keeps what was computed and adds the state where it failed. */
  private fail(result: SimulationResult, message: string, t: number): SimulationResult {
    const ws = this.ws;
    result.status = 'failed';
    result.message = message;
    this.recorder.endRow(t, ws.y, ws.d);
    this.model.outputs(t, ws.y, ws.p, ws.d, ws.sw, ws.outPost);
    result.final = this.recorder.values(t, ws.outPost);
    return result;
  }
}

const NO_PROBES: number[] = [];
/** the factor of tieTolerance (driver/time-tie.ts) */
const TIE = 4 * Number.EPSILON;

const ascending = (a: number, b: number): number => a - b;
