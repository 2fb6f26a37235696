/**
 * Firing the events of one instant: every action reads the pre-event values, all
 * assignments apply together, then event iteration (an action that makes another state
 * event's function cross fires it too, bounded); the ledger and the before/after rows.
 */
import type { Stepper } from '../integrators/stepper.js';
import { createStepper } from '../integrators/steppers.js';
import type { Recorder } from './recorder.js';
import type { Switching } from './switching.js';
import type { ValueRecord } from './types.js';
import type { Workspace } from './workspace.js';
import type { CompiledModel } from '../codegen/compile.js';
import { tieTolerance } from './time-tie.js';
import { references } from '../expression/expr.js';
import { stepStates } from './step-fold.js';
import { RateMotion } from './rate-band.js';
import { ActionResidue } from './action-residue.js';
import { RoundMarks } from './round-marks.js';
import {
  afterAlone,
  CROSSED,
  heldThrough,
  judgeAcross,
  LEFT_ZERO,
  leftOnZero,
  LocatedResidues,
  NOT_CROSSED,
  NOT_HELD,
  OPEN,
  rateSign,
  readFunction,
  sideBefore,
  undoneImpacts,
  zeroFiredHere,
  type FunctionPoint,
  type HeldZeros,
} from './round-verdicts.js';

export const MAX_EVENT_ITERATIONS = 100;
/** attempted steps of one Marcus flow at most */
const MAX_FLOW_STEPS = 100_000;
/**
 * A Marcus flow is integrated to this fraction of the run's tolerances: a one-step method's
 * error at the end of an integration is some ten times what each step keeps (exp(-5) at rtol
 * 1e-10 came out 1.9e-9 off, relatively), and the flow is one small ODE per instant, cheap
 * to solve closer, so that the jump it makes is within the run's tolerance.
 */
const FLOW_TOLERANCE = 0.01;
const NONE: number[] = [];

/** the pre/post/jumps of every event of a run with `eventValues: false` */
const NO_VALUES: ValueRecord = Object.freeze(Object.create(null) as ValueRecord);

export interface FireOutcome {
  count: number;
  stopped: boolean;
  stopper: string;
  iterationFailed: boolean;
  /** every event fired at the instant, event iteration included */
  fired: number[];
  /** a switching function the actions left in a sliding mode, or -1 */
  sliding: number;
  /** why a Marcus flow could not be integrated, or null */
  flowFailed: string | null;
}

/** What one event's Marcus flow keeps from one instant to the next: its stepper and work arrays. */
interface Flow {
  readonly stepper: Stepper;
  readonly rtol: number;
  readonly atol: number;
  /** the discrete values during the flow (the flowing slots written from the stepper's state) */
  readonly dm: Float64Array;
  /** the states during the flow (those of flowing levels written from the stepper's state) */
  readonly ym: Float64Array;
  /** per flowing component, the state (y slot) its step variable is added to, or -1 */
  readonly states: Int32Array;
  readonly s0: Float64Array;
  /** the instant of the flow */
  t: number;
  /** the unit the flow's components are integrated in (marcusFlow), and whether every level has a state */
  scale: number;
  readonly allStates: boolean;
}

/** The two causes iterationMessage names, and what to do for each. */
const CHATTERING =
  'chattering (switching both ways at one threshold leaves no time between the switches: give the switch a dead band, hysteresis with thresholds a little apart, or a minimum time between switches)';
const ACCUMULATING =
  'impacts accumulating within the instant (bodies in contact pushed together or against a wall with restitution below 1 pass a shrinking part of their motion round after round, and come to rest only after infinitely many: model the bodies that move together as one while they are in contact)';

/**
 * Why event iteration at t did not settle: the events that fired in its last rounds keep
 * sending each other's functions (or their own) back across zero. A thermostat switching on
 * and off at one threshold does this: nothing lets time pass between the switches.
 */
export function iterationMessage(m: CompiledModel, t: number, fired: readonly number[]): string {
  const names = [...new Set(fired.slice(-4 * m.events.length))].sort((a, b) => a - b).map((e) => m.events[e].name);
  const which =
    names.length === 1
      ? `event ${names[0]} keeps sending its own function back across zero`
      : `events ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} keep sending each other's functions back across zero`;
  // (two causes look alike from here: a switch that chatters, turning rates both ways at one
  // threshold, and impacts that accumulate within the instant, plastic spheres pushed against
  // a wall passing a shrinking part of their motion round after round: both are named)
  return `event iteration at ${m.system.independent} = ${t} did not settle after ${MAX_EVENT_ITERATIONS} rounds: ${which} at this instant: either ${CHATTERING}, or ${ACCUMULATING}`;
}

export class Firing {
  /** whether the run writes rows at all, and fills the ledger's values */
  rows = true;
  withValues = true;
  /** the run's floor of the tie tolerance (time-tie.ts, tieFloor) */
  tieFloor = 1;
  /** the run's tolerances, to which a Marcus flow is integrated */
  rtol = 1e-6;
  atol = 1e-9;
  private readonly flows = new Map<number, Flow>();
  /** the values before an instant, solved for by a backward run (undoTogether) */
  private yUndo: Float64Array | undefined;
  private dUndo: Float64Array | undefined;
  /** per event, the names its actions read and write (crossReads) */
  private actionNames: { reads: Set<string>; writes: Set<string> }[] | undefined;
  /** per step variable (d slot), the state it is added to (step-fold.ts), or -1 */
  private readonly stepStates: Int32Array;
  /**
   * Flows on one level compose within a round: per d slot, the round (flowRound) whose flow
   * last moved it, the level's value it left, and what the round's actions had added to its
   * state before the flows (an assignment y := 5 writes u := 5 - S).
   */
  private flowRound = 0;
  private readonly flowStamp: Float64Array;
  private readonly flowValue: Float64Array;
  private readonly flowOffset: Float64Array;
  /** a touched function before and after a round (event iteration) */
  private readonly before: FunctionPoint = { g: 0, rate: 0, gBound: 0, rateBound: 0 };
  private readonly after: FunctionPoint = { g: 0, rate: 0, gBound: 0, rateBound: 0 };
  /** carriedRateMotion's scratch: the flow before an instant, a state moved along it, the rate after */
  private readonly flowScratch: Float64Array;
  private readonly movedScratch: Float64Array;
  private readonly carriedPoint: FunctionPoint = { g: 0, rate: 0, gBound: 0, rateBound: 0 };
  /** the switches before a round's actions, while ws.sw holds the branches after them */
  private readonly swBefore: Float64Array;
  /**
   * Per watched function, its value and rate just before its own event's actions, for
   * re-arming (Arming.afterInstant): the driver reads them for the events it fires; event
   * iteration writes them for the ones a round sent across.
   */
  readonly gFire: Float64Array;
  readonly rFire: Float64Array;
  /** per watched function sent across by event iteration, sideBefore (0: found at its zero by location; Arming.afterInstant) */
  readonly sideFire: Int8Array;
  /**
   * per watched function sent across by event iteration, its rate's band and the side its next
   * order leaves its zero for (rate-band.ts; 0: none, or found at its zero by location;
   * Arming.afterInstant)
   */
  readonly rateBandFire: Float64Array;
  readonly nextSideFire: Int8Array;
  /**
   * The functions the last instant's event iteration set onto their zero at rest without
   * sending them across in their direction (NOT_CROSSED: `x falls` of an x lifted onto zero from
   * below), with sideFire, rateBandFire and nextSideFire as for one sent across: their zero is
   * the action's, not the residue's side (Arming.holdSetOnZero).
   */
  readonly setOnZero: number[] = [];
  /**
   * per function of setOnZero, what the location leaves in its value where its zero was located
   * at the instant (its rate before the actions times the location's span; 0: set there by an
   * action): its value after them is that zero within it, whatever its rate after
   */
  readonly locatedBandFire: Float64Array;
  private readonly rateMotion: RateMotion;
  /** the rounding the instant's actions left in the values they wrote (action-residue.ts) */
  private readonly actionResidue: ActionResidue;
  private readonly measured = { band: 0, side: 0 };
  /** the zeros located at the instant: the value taken for each */
  private readonly residues: LocatedResidues;
  /** the functions the last instant's event iteration judged (sentAcross) */
  private readonly judgedSet: RoundMarks;
  /** of those, the ones it left at zero without firing them (round-verdicts.ts, leftOnZero) */
  private readonly onZeroSet: RoundMarks;
  /**
   * the functions the current round has looked at: each once, however many of its events
   * touch it (heldThrough lets a held one leave its zero, and a second look judged it afresh)
   */
  private readonly listed: RoundMarks;
  /** the functions held at their own zero since an earlier instant (the simulator sets it: Arming) */
  held: HeldZeros | null = null;

  constructor(
    private readonly ws: Workspace,
    private readonly recorder: Recorder,
    private readonly switching: Switching,
  ) {
    this.swBefore = new Float64Array(ws.model.nSwitch);
    this.gFire = new Float64Array(ws.nWatch);
    this.residues = new LocatedResidues(ws.nWatch);
    this.judgedSet = new RoundMarks(ws.nWatch);
    this.onZeroSet = new RoundMarks(ws.nWatch);
    this.listed = new RoundMarks(ws.nWatch);
    this.rFire = new Float64Array(ws.nWatch);
    this.sideFire = new Int8Array(ws.nWatch);
    this.stepStates = stepStates(ws);
    this.flowStamp = new Float64Array(ws.d.length);
    this.flowValue = new Float64Array(ws.d.length);
    this.flowOffset = new Float64Array(ws.d.length);
    this.rateBandFire = new Float64Array(ws.nWatch);
    this.locatedBandFire = new Float64Array(ws.nWatch);
    this.nextSideFire = new Int8Array(ws.nWatch);
    this.rateMotion = new RateMotion(ws);
    this.flowScratch = new Float64Array(ws.y.length);
    this.movedScratch = new Float64Array(ws.y.length);
    this.actionResidue = new ActionResidue(ws);
  }

  /**
   * The rounding watched function k carries at (t, y, d, sw) from the values the last
   * instant's actions wrote, on the terms they summed (action-residue.ts): its bound's share
   * that its own bound, reading the values alone, misses.
   */
  residueOfActions(k: number, t: number, y: Float64Array, d: Float64Array, sw: Float64Array): number {
    return this.actionResidue.of(k, t, y, d, sw);
  }

  /** readFunction with the actions' residue in its bound (`beforeRound`: as the values stood before this round) */
  private readWritten(
    k: number,
    t: number,
    y: Float64Array,
    d: Float64Array,
    point: FunctionPoint,
    sw: Float64Array,
    beforeRound: boolean,
  ): FunctionPoint {
    readFunction(this.ws, k, t, y, d, point, sw);
    point.gBound += this.actionResidue.of(k, t, y, d, sw, beforeRound);
    return point;
  }

  /**
   * Whether the last instant's event iteration judged watched function k: whether its actions
   * sent it across was decided from its values before and after them (a function set onto
   * zero from below and heading back down touched it), which the first step after the instant
   * does not second-guess (Crossings.startsUnresolved).
   */
  judged(k: number): boolean {
    return this.judgedSet.has(k);
  }

  /**
   * Event e's own function k, located at this instant (e fired in its first round): where the
   * round's actions changed its rate and left it within its rounding and the location's
   * residue of zero, its rate's band and the side its next order leaves for (rate-band.ts),
   * for re-arming (arming.ts).
   */
  private ownRateBand(e: number, t: number, dtZero: number, tie: number, sw: Float64Array): void {
    const ws = this.ws,
      m = ws.model,
      k = m.events[e].watchIndex;
    if (k < 0 || m.watchInfo[k].kind !== 'event') return;
    const before = readFunction(ws, k, t, ws.y, ws.d, this.before, m.nSwitch > 0 ? this.swBefore : sw),
      after = this.readWritten(k, t, ws.yOut, ws.dOut, this.after, sw, false);
    // (only where the actions changed its rate, an impact: a detector's rate is the motion's,
    // 3 (x - 1)^2 at (x - 1)^3 rises, which leaves its triple zero at third order)
    if (after.rate === before.rate) return;
    if (!(Math.abs(after.g) <= 4 * after.gBound + Math.abs(before.rate) * (dtZero + tie))) return;
    const measured = this.measured;
    this.rateMotion.measure(
      k,
      t,
      ws.y,
      ws.d,
      m.nSwitch > 0 ? this.swBefore : sw,
      ws.yOut,
      ws.dOut,
      sw,
      dtZero + tie,
      measured,
      after.gBound,
      this.carriedRateMotion(e, k, t, dtZero + tie, m.nSwitch > 0 ? this.swBefore : sw),
    );
    this.rateBandFire[k] = measured.band;
    this.nextSideFire[k] = measured.side;
  }

  /**
   * How far event e's own actions move its function k's rate after them (at (t, ws.y)) when the instant moves by `span` either way along the flow before it: the rate's band as the
   * action carries it. The band measured after the round, |R'| times the span, is the motion of
   * a rate the action left alone; an impact's v := -e*v scales the arrival's uncertainty by e,
   * and a ball whose bounces accumulate (dopri5, e = 0.8) arrived at -3.9e-14, beyond the band
   * of 3.5e-14, and left at +3.1e-14, within it: held at rest in a band of 2 atol, it fell 1.6e-9
   * through the floor and failed "stays at zero with zero rate", where its next bounce came
   * 6.4e-15 later and made the bounces a Zeno stop (round16-zeno). A rate the action makes of
   * other states (x' := 0 leaving z - x with the rate x - z) moves with those (|x' - z'| span).
   * Infinity where unknown (a non-finite value): the measured band stands.
   */
  private carriedRateMotion(e: number, k: number, t: number, span: number, sw: Float64Array): number {
    const ws = this.ws,
      m = ws.model,
      f = this.flowScratch,
      moved = this.movedScratch;
    if (!(span > 0)) return Infinity;
    m.rhs(t, ws.y, ws.p, ws.d, sw, f);
    // (the rate after e's actions alone, at the instant and moved: the round's other events
    // are in `after`, not in these)
    const rate = afterAlone(ws, e, k, t, ws.y, ws.d, this.carriedPoint).rate;
    let most = 0;
    for (let s = -1; s <= 1; s += 2) {
      for (let i = 0; i < moved.length; i++) moved[i] = ws.y[i] + s * span * f[i];
      const r = afterAlone(ws, e, k, t + s * span, moved, ws.d, this.carriedPoint).rate - rate;
      if (!Number.isFinite(r)) return Infinity;
      most = Math.max(most, Math.abs(r));
    }
    return most;
  }

  /**
   * A round of events undone backwards (from its values after the instant, ws.y and ws.d,
   * into ws.yOut and ws.dOut). Forwards every weight reads the values before the instant:
   * post = pre + W(pre). Going backwards the run has post, and pre = post - W(post) only where
   * no weight reads what another jump of the round makes (range.ts refuses a jump whose weight
   * reads its own variable; which events meet at one instant is known only here): x'' = z
   * delta(t - kick) with z' = delta(t - 1), kick at 1, undid x' by z after the instant, one
   * too many, and came back to x'(0) = -1 with status ok where the
   * run forwards starts from 0. So pre is solved for: from pre = post, each pass takes the
   * weights at the last pass's values. Where the weights read each other in a chain, every
   * pass settles one more link, and a pass that changes no bit has found values whose image
   * is post exactly (what the forward round computes from them); weights that read each
   * other in a cycle (a jumps by b, b by 2a) ask for a system to be solved: the run fails
   * and says so. Returns null, or that message.
   */
  private undoTogether(t: number, round: readonly number[], sc: Float64Array | undefined): string | null {
    const ws = this.ws,
      m = ws.model;
    const yEst = (this.yUndo ??= new Float64Array(ws.y.length)),
      dEst = (this.dUndo ??= new Float64Array(ws.d.length));
    yEst.set(ws.y);
    dEst.set(ws.d);
    // (a chain of k links settles in k + 1 passes, and one more shows that nothing moves)
    for (let pass = 0; pass <= round.length + 1; pass++) {
      ws.yOut.set(ws.y);
      ws.dOut.set(ws.d);
      for (const k of round) ws.applyActions(k, t, yEst, dEst, ws.sw, ws.yOut, ws.dOut, -1);
      if (sameBits(ws.yOut, yEst) && sameBits(ws.dOut, dEst)) {
        if (sc !== undefined) {
          ws.yOut.set(ws.y);
          ws.dOut.set(ws.d);
          for (const k of round) ws.applyActions(k, t, yEst, dEst, ws.sw, ws.yOut, ws.dOut, -1, sc);
        }
        return null;
      }
      yEst.set(ws.yOut);
      dEst.set(ws.dOut);
    }
    const names = round.map((k) => m.events[k].name);
    const x = m.system.independent;
    return `a run backwards must undo the events of ${x} = ${t} (${names.join(', ')}) together, and their weights read what the others make jump in a cycle: the values before the instant solve a system of equations, which deltastep does not. Run forwards, from the instant where the model states its initial values`;
  }

  /**
   * A run backwards fires a state event where its function, continued from after the instant,
   * crosses zero in the event's direction (in the order of t), and undoes its actions. A run
   * forwards fires it only where the function before the instant crosses in that direction:
   * where the undone actions turn its rate against it (x - 1 falls, and undoing v' = -2
   * delta(t - hit) turns v from -1 to 1), the run forwards from the values undone does not
   * fire it, and not undone it would have: no run forwards ends at the values the run started
   * from, and the run backwards said ok with values from which a run forwards ends elsewhere
   * (x = 2, not 0). The run fails there and says so. (Judged where the rate is clearly
   * against the direction: beyond its rounding bound.) Returns null, or that message.
   */
  private undoneAgainst(t: number, round: readonly number[]): string | null {
    const ws = this.ws,
      m = ws.model;
    for (const e of round) {
      const ev = m.events[e],
        k = ev.watchIndex;
      if (k < 0 || m.watchInfo[k].kind !== 'event') continue;
      const side = ev.direction === 'rises' ? 1 : ev.direction === 'falls' ? -1 : 0;
      if (side === 0) continue;
      const before = readFunction(ws, k, t, ws.yOut, ws.dOut, this.before, ws.sw);
      if (!(side * before.rate < -before.rateBound)) continue;
      const x = m.system.independent;
      const other = side > 0 ? 'fall' : 'rise';
      return `a run backwards reached event ${ev.name} at ${x} = ${t}, and no run forwards ends at the values it started from: undoing ${ev.name} makes its function ${other} through zero there, where ${ev.name} fires only as it ${ev.direction}, and not undoing it leaves a function that ${ev.direction} through zero, where ${ev.name} fires. Check the values the run starts from, or run forwards from the instant where the model states its initial values`;
    }
    return null;
  }

  /**
   * A round with a Marcus flow undone backwards: the message of a run that cannot undo it,
   * where an action of one of its events (a jump's weight, a flow's rate) reads a variable
   * that another event of the round writes; else null.
   */
  private crossReads(t: number, round: readonly number[]): string | null {
    const m = this.ws.model;
    const sets = (this.actionNames ??= m.system.events.map((ev) => {
      const reads = new Set<string>(),
        writes = new Set<string>();
      for (const a of ev.actions) {
        if (a.kind === 'assign') {
          writes.add(a.target);
          for (const r of references(a.value)) reads.add(r);
        } else if (a.kind === 'jump') {
          writes.add(a.target);
          for (const r of references(a.increment)) reads.add(r);
        } else if (a.kind === 'marcus')
          for (const j of a.jumps) {
            writes.add(j.target);
            for (const r of references(j.rate)) reads.add(r);
            if (j.frozen) for (const r of references(j.frozen)) reads.add(r);
          }
      }
      return { reads, writes };
    }));
    for (const a of round)
      for (const b of round) {
        if (a === b) continue;
        const read = [...sets[a].reads].find((name) => sets[b].writes.has(name));
        if (read === undefined) continue;
        const x = m.system.independent;
        return `a run backwards must undo the events of ${x} = ${t} together, and ${m.events[a].name} (a Marcus flow among them) reads ${read}, which ${m.events[b].name} changes: the values before the instant solve an equation through the flow, which deltastep does not. Run forwards, from the instant where the model states its initial values`;
      }
    return null;
  }

  /** Whether the last instant's event iteration judged function k a touch: left at its zero, not fired. */
  leftAtZero(k: number): boolean {
    return this.onZeroSet.has(k);
  }

  /**
   * Applies the events `fired` (in file order) at t to (ws.y, ws.d), with the ledger and the
   * before/after rows. `dtZero`: the location's bracket in time (see Switching.lock);
   * `stepper`: the one whose step reached the instant (the scale of its states' rounding,
   * rate-band.ts).
   */
  fire(t: number, fired: readonly number[], dtZero: number, stepper?: Stepper): FireOutcome {
    const ws = this.ws,
      m = ws.model,
      rec = this.recorder;
    const { p, sw } = ws;
    let count = 0,
      stopped = false,
      stopper = '';
    const all: number[] = [];
    let round: readonly number[] = fired;
    const withValues = this.withValues;
    const needOutputs = withValues || this.rows;
    const tie = tieTolerance(t, this.tieFloor);
    // (a new instant forgets the residues and verdicts of the last)
    this.judgedSet.clear();
    this.onZeroSet.clear();
    this.setOnZero.length = 0;
    this.actionResidue.begin();
    if (stepper !== undefined) this.rateMotion.noteStep(stepper.yPrev, stepper.y, ws.y);
    this.residues.take(ws, t, fired, Math.max(dtZero, tie));
    if (needOutputs) m.outputsAtInstant(t, ws.y, p, ws.d, sw, ws.outPre, ws.dir);
    if (this.rows) rec.beforeRow(t, ws.outPre);
    for (let iteration = 0; round.length > 0; iteration++) {
      if (iteration >= MAX_EVENT_ITERATIONS)
        return { count, stopped, stopper, iterationFailed: true, fired: all, sliding: -1, flowFailed: null };
      for (const k of round) all.push(k);
      const preValues = withValues ? rec.values(t, ws.outPre) : NO_VALUES;
      ws.yOut.set(ws.y);
      ws.dOut.set(ws.d);
      ws.yPre.set(ws.y);
      ws.dPre.set(ws.d);
      this.actionResidue.startRound(round);
      const sc = this.actionResidue.scale;
      if (ws.dir < 0 && round.length > 1 && round.some((k) => m.events[k].marcus)) {
        // (a Marcus flow is integrated after the round's jumps, not applied with them: where
        // the round's actions read what another of its events writes, no pass can solve for
        // the values before; undoing each at the values after was a wrong answer, status ok)
        const failed = this.crossReads(t, round);
        if (failed !== null)
          return { count, stopped, stopper, iterationFailed: false, fired: all, sliding: -1, flowFailed: failed };
        for (const k of round) ws.applyActions(k, t, ws.y, ws.d, sw, ws.yOut, ws.dOut, ws.dir, sc);
      } else if (ws.dir < 0) {
        const failed = this.undoTogether(t, round, sc);
        if (failed !== null)
          return { count, stopped, stopper, iterationFailed: false, fired: all, sliding: -1, flowFailed: failed };
      } else for (const k of round) ws.applyActions(k, t, ws.y, ws.d, sw, ws.yOut, ws.dOut, ws.dir, sc);
      this.flowRound++;
      for (const k of round) {
        const failed = m.events[k].marcus ? this.marcusFlow(t, k) : null;
        if (failed !== null)
          return { count, stopped, stopper, iterationFailed: false, fired: all, sliding: -1, flowFailed: failed };
      }
      this.actionResidue.endRound(ws.yOut, ws.dOut);
      if (ws.dir < 0 && iteration === 0) {
        const failed = this.undoneAgainst(t, round);
        if (failed !== null)
          return { count, stopped, stopper, iterationFailed: false, fired: all, sliding: -1, flowFailed: failed };
      }
      // Event iteration: an action that sends another state event's function across fires it
      // now (sentAcross). Only the functions these actions can change are looked at. Their
      // rates after the round take the branches of the state after it (`T' = if on then 2
      // else -1` turns round when `on := 0`): the switches are set there first.
      let next: number[] | null = null;
      if (m.nSwitch > 0) {
        this.swBefore.set(sw);
        this.switching.lock(t, ws.yOut, ws.dOut, dtZero);
      }
      // A located event's own function that its actions leave at its zero: its rate's band,
      // as for one set there by another's (below). Its rate may read its value (z - x crosses
      // with z' = x - z: after x' := 0 the rate is x - z, minus the location's residue of
      // 7e-17), and that residue's sign is no motion: taken for one, z - x went "on across"
      // and back at once, a false persisting contact, where it rests and leaves for the side
      // it came from (the analytic path's answer).
      if (iteration === 0) for (const e of round) this.ownRateBand(e, t, dtZero, tie, sw);
      // Each function once per round, as on the analytic path (fire.ts): its values before and
      // after the round are the round's, whichever event touches it, but a look changes what
      // the next reads. Touched by two events of a round (v := 0, then a delta kicking v from
      // its zero), a function held at the zero its event fired at earlier was let leave it at
      // the first look and, no longer held, judged at the second as one resting on zero that
      // the round moved off: a crossing, its event fired again (status ok).
      this.listed.clear();
      for (const e of round) {
        const touches = m.events[e].touches;
        for (let i = 0; i < touches.length; i++) {
          const k = touches[i],
            w = m.watchInfo[k];
          if (w.kind !== 'event' || round.includes(w.event) || next?.includes(w.event) || this.listed.has(k)) continue;
          this.listed.add(k);
          // (a delta's argument that an action jumps across zero never passes through it: no
          // weight, no impulse; `n := 0.5` at t = 1 with delta(t - n) gave y = 1, exact 0)
          const ev = m.events[w.event];
          if (ev.kind === 'state' && ev.fromDelta) continue;
          const before = this.readWritten(k, t, ws.y, ws.d, this.before, m.nSwitch > 0 ? this.swBefore : sw, true),
            after = this.readWritten(k, t, ws.yOut, ws.dOut, this.after, sw, false);
          // (its zero located here: by an event of the same zeros, WatchEntry.zeroOf, or by its
          // value at the located instant, whatever its expression: LocatedResidues.located)
          const sameZeros = zeroFiredHere(m, k, all);
          const firedHere = sameZeros || this.residues.located(ws, k);
          // (held at its own zero since an earlier instant: it leaves zero, or stays there)
          const held = firedHere ? NOT_HELD : heldThrough(this.held, m, k, ws.dir, before, after);
          if (held === LEFT_ZERO) this.judgedSet.add(k);
          if (held !== NOT_HELD) continue;
          // Where its zero was located at this instant, a value within its rounding and the
          // location's is that zero: the residue's sign is noise, and an action that then moves
          // it away is a reset, not a crossing from the residue's side (x := x + 0.5 at x - th
          // falls, which e0 on x - th crosses had turned: e0 fired again, status ok, on 678 to
          // 813 of 813 runs; as on the analytic path, fire.ts)
          // A residue taken for that zero stays it while no action changes the value, whatever
          // its rate does later in the instant (two events turning a ball's x' at x = 1.7e-16
          // by -1 and -0.8 in turn: the rate shrank below what covers the residue and the
          // iteration stopped, the ball then fell through the floor with status ok).
          if (firedHere) {
            this.residues.note(k, before, dtZero);
            this.residues.zeroOut(k, before, after);
          }
          // Left near its zero where no location put it: its rate within the rate's own band
          // is zero, whatever the sign of its residue (rate-band.ts): set onto zero at rest,
          // it crossed (x := 0 where x' = v falls through 0, v = ±2e-16 there). So for one
          // whose zero another event of the same zeros located here: x' crosses fired where
          // x' fell to zero, x := 0 left x' at rest with the rate -0.5 x' of the location's
          // residue (radau5: x' = -3.7e-16), and `x' rises` fired on that rate's sign, taken for
          // the motion turned back (x(1) = -0.035 where exact is 0, status ok).
          const measured = this.measured;
          measured.band = 0;
          measured.side = 0;
          if (Math.abs(after.g) <= 4 * after.gBound + Math.abs(before.rate) * (dtZero + tie)) {
            const sw1 = m.nSwitch > 0 ? this.swBefore : sw;
            this.rateMotion.measure(k, t, ws.y, ws.d, sw1, ws.yOut, ws.dOut, sw, dtZero + tie, measured, after.gBound);
            before.rateBand = after.rateBand = measured.band;
          }
          const verdict = judgeAcross(
            m.events[w.event].direction ?? 'crosses',
            ws.dir,
            before,
            after,
            firedHere,
            dtZero,
            tie,
          );
          if (verdict !== OPEN) this.judgedSet.add(k);
          if (verdict === NOT_CROSSED && leftOnZero(before, after, firedHere, dtZero, tie)) this.onZeroSet.add(k);
          else this.onZeroSet.delete(k);
          // Set onto its zero at rest, or left at rest on the zero located here with no event of
          // the same zeros to hold it (Arming.band's ring is the text's): held there as if its
          // own event had fired (2x' rises beside x' crosses, at the equilibrium x := 0 leaves).
          // Not held, its residue's side or motion was taken for a crossing later.
          const rests = firedHere
            ? !sameZeros && verdict !== CROSSED && leftOnZero(before, after, true, dtZero, tie)
            : verdict === NOT_CROSSED;
          if (rests && measured.band > 0 && !this.setOnZero.includes(k)) {
            this.setOnZero.push(k);
            this.locatedBandFire[k] = firedHere ? Math.abs(before.rate) * (dtZero + tie) : 0;
            // (located here, it came to its zero along its motion: from the side its rate before
            // the actions leaves behind, which its residue, within the location's band, does not
            // show; with no side, a held function's first step read as a contact, crossings.ts)
            this.sideFire[k] = firedHere ? -ws.dir * rateSign(before) : sideBefore(before);
            this.rateBandFire[k] = measured.band;
            this.nextSideFire[k] = measured.side;
          }
          if (verdict === CROSSED) {
            (next ??= []).push(w.event);
            this.gFire[k] = after.g;
            this.rFire[k] = after.rate;
            this.sideFire[k] = sideBefore(before);
            this.rateBandFire[k] = measured.band;
            this.nextSideFire[k] = measured.side;
          }
        }
      }
      const undone = undoneImpacts(
        m,
        round,
        ws.dir,
        Math.max(dtZero, tie),
        (k) => readFunction(ws, k, t, ws.y, ws.d, this.before, m.nSwitch > 0 ? this.swBefore : sw).rate,
        (e) => rateSign(afterAlone(ws, e, m.events[e].watchIndex, t, ws.y, ws.d, this.before)),
        (k) => readFunction(ws, k, t, ws.yOut, ws.dOut, this.after),
      );
      if (undone !== null)
        for (const e of undone) {
          const k = m.events[e].watchIndex,
            after = readFunction(ws, k, t, ws.yOut, ws.dOut, this.after);
          (next ??= []).push(e);
          this.judgedSet.add(k);
          this.gFire[k] = after.g;
          this.rFire[k] = after.rate;
          // (at its zero, where its own instant located it)
          this.sideFire[k] = 0;
          this.rateBandFire[k] = 0;
          this.nextSideFire[k] = 0;
        }
      ws.y.set(ws.yOut);
      ws.d.set(ws.dOut);
      // (after the events: relations at their zero on the side the motion goes on to)
      if (needOutputs) m.outputsAtInstant(t, ws.y, p, ws.d, sw, ws.outPost, -ws.dir);
      const postValues = withValues ? rec.values(t, ws.outPost) : NO_VALUES;
      for (const k of round) {
        const ev = m.events[k];
        let jumps = NO_VALUES;
        if (withValues) {
          jumps = rec.emptyRecord();
          // Several events at one instant: each ledger line shows what its own actions did.
          const own = round.length > 1 ? this.ownEffect(t, k) : postValues;
          for (const v of ev.changes) if (v in own) jumps[v] = own[v] - preValues[v];
        }
        rec.ledger({ t, name: ev.name, kind: ev.kind, source: ev.source, pre: preValues, post: postValues, jumps });
        count++;
        if (ev.stops) {
          stopped = true;
          stopper = ev.name;
        }
      }
      round = next ? next.sort((a, b) => a - b) : NONE;
      if (needOutputs) ws.outPre.set(ws.outPost);
    }
    if (this.rows) rec.fixedRow(t, ws.outPost);
    const sliding = this.switching.lock(t, ws.y, ws.d, dtZero);
    return { count, stopped, stopper, iterationFailed: false, fired: all, sliding, flowFailed: null };
  }

  /** The output values after event k's actions alone, from the pre-event state (yPre, dPre). */
  private ownEffect(t: number, k: number): ValueRecord {
    const ws = this.ws,
      m = ws.model;
    const yk = ws.yTmp,
      dk = ws.dOwn;
    yk.set(ws.yPre);
    dk.set(ws.dPre);
    ws.applyActions(k, t, ws.yPre, ws.dPre, ws.sw, yk, dk, ws.dir);
    // (its Marcus flow too, alone from the values before: its ledger jump was 0 in a round of two)
    if (m.events[k].marcus) {
      this.flowRound++;
      this.marcusFlow(t, k, dk, ws.dPre, yk, ws.yPre);
    }
    const out = new Float64Array(m.outputNames.length);
    m.outputsAtInstant(t, yk, ws.p, dk, ws.sw, out, -ws.dir);
    return this.recorder.values(t, out);
  }

  /**
   * Marcus rule: the flow dS/ds = rate(S) over the pulse time s from 0 to 1 (to -1 in a
   * backward run), from where the round left its levels (`levels`: dOut; `pre`: the values
   * before the instant, which the rate reads but for the levels), into them. Integrated by `auto` (dopri5, and
   * rodas where the flow is stiff: y' = -800 y delta(t - 1) is dS/ds = -800 (y + S)) with its
   * error control, to FLOW_TOLERANCE of the run's tolerances: a fixed 256 steps of RK4 gave
   * 2.2e55 for exp(-800). The reason it fails, or null.
   *
   * A level with a state (y = u + S) flows as y itself, not as S: the rate reads u := y,
   * S := 0 (the same u + S), and the end goes into the state, S := 0, as the fold after the
   * instant would put it (step-fold.ts). Moving S from 0 to about -y- held it to rtol of |S|,
   * and y = u + S = 1 + (-1 + eps) cancelled: y' = -50 y delta(t - 1) gave 4.2e-15 for
   * exp(-50) = 1.9e-22 at atol 1e-300 (status ok). `yLevels`/`yPre`: the states after the
   * round's actions and before the instant.
   */
  private marcusFlow(
    t: number,
    k: number,
    levels = this.ws.dOut,
    pre = this.ws.d,
    yLevels = this.ws.yOut,
    yPre = this.ws.y,
  ): string | null {
    const ws = this.ws,
      ev = ws.model.events[k];
    const targets = ev.marcus!.targets,
      n = targets.length;
    const flow = this.flowOf(k);
    const stepper = flow.stepper,
      { dm, ym, s0, states } = flow;
    const round = this.flowRound,
      stamp = this.flowStamp,
      value = this.flowValue,
      offset = this.flowOffset;
    // (at the event's own time, as its actions are: a delta root's within the instant's tie,
    // where the rate's 1/|u'| belongs to the root; delta(t^2 - 1e-300) on [0, 1] read 1/|2 t|
    // at t = 0, Infinity, and failed; Workspace.actionTime)
    flow.t = ws.actionTime(k, t);
    dm.set(pre);
    ym.set(yPre);
    // Pulses on one level at one instant compose: the flow starts where the round's actions
    // and the flows before it (file order) left its levels. From the values before the
    // instant, each overwrote the others: y' = y delta(t - 1) + y delta(2t - 2) gave e^0.5
    // (exact e^1.5), and a jump of 3 beside a flow on the same level was lost.
    for (let i = 0; i < n; i++) {
      const target = targets[i],
        s = states[i];
      if (s < 0) s0[i] = levels[target];
      else {
        // (the rate reads the state before the instant plus the level, as all right-hand
        // sides read the values before it; what an assignment to the state added, its
        // offset, is added to the end: y := 5 beside the flow gives 5 + phi(1; y-) - y-)
        if (stamp[target] !== round) {
          stamp[target] = round;
          value[target] = yPre[s] + levels[target];
          offset[target] = yLevels[s] - yPre[s];
        }
        s0[i] = value[target];
        dm[target] = 0;
      }
    }
    // Levels that flow as their states, in units of their largest start: a flow that grows
    // from far below atol (y' = 50 y delta(t - 1) from y = 1e-12: 5.18e9, 8 % off, status ok)
    // is held to rtol of its own size, not to atol, which the growth multiplies.
    let scale = 1;
    if (flow.allStates) {
      scale = 0;
      for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(s0[i]));
      if (!(scale > 0 && scale < Infinity)) scale = 1;
      for (let i = 0; i < n; i++) s0[i] /= scale;
    }
    flow.scale = scale;
    stepper.resetStats();
    stepper.reset(0, s0);
    const end = ws.dir;
    while (stepper.t !== end) {
      const st = stepper.stats;
      const outcome = st.steps + st.rejected < MAX_FLOW_STEPS ? stepper.step(end) : 'limit';
      if (outcome !== 'accepted') {
        const why =
          outcome === 'limit'
            ? `more than ${MAX_FLOW_STEPS} steps`
            : outcome === 'nonFinite'
              ? 'its rate is not finite'
              : 'its step size fell below the resolution of the pulse time';
        return `the Marcus flow of event ${ev.name} at ${ws.model.system.independent} = ${t} cannot be integrated (${why}, at pulse time s = ${stepper.t}): its rate grows without bound along the flow`;
      }
    }
    for (let i = 0; i < n; i++) {
      const target = targets[i],
        s = states[i],
        y = stepper.y[i] * scale;
      if (s < 0) levels[target] = y;
      else {
        value[target] = y;
        yLevels[s] = offset[target] === 0 ? y : y + offset[target];
        levels[target] = 0;
      }
    }
    return null;
  }

  /** The flow of event k at the run's tolerances, made on first use (no allocation at later instants). */
  private flowOf(k: number): Flow {
    const have = this.flows.get(k);
    if (have && have.rtol === this.rtol && have.atol === this.atol) return have;
    const ws = this.ws,
      { targets, rate } = ws.model.events[k].marcus!;
    const n = targets.length;
    const dm = new Float64Array(ws.d.length),
      ym = new Float64Array(ws.y.length);
    const states = Int32Array.from(targets, (target) =>
      target < this.stepStates.length ? this.stepStates[target] : -1,
    );
    // (a level with a state flows as the state, y = u + S with S held at 0: marcusFlow)
    const f = (_s: number, S: Float64Array, out: Float64Array) => {
      const scale = flow.scale;
      for (let i = 0; i < n; i++) {
        if (states[i] < 0) dm[targets[i]] = S[i] * scale;
        else ym[states[i]] = S[i] * scale;
      }
      rate(flow.t, ym, ws.p, dm, ws.sw, out);
      for (let i = 0; i < n; i++) out[i] /= scale;
    };
    const stepper = createStepper('auto', n, f, {
      rtol: FLOW_TOLERANCE * this.rtol,
      atol: FLOW_TOLERANCE * this.atol,
      hMax: Infinity,
    });
    const flow: Flow = {
      stepper,
      rtol: this.rtol,
      atol: this.atol,
      dm,
      ym,
      states,
      s0: new Float64Array(n),
      t: 0,
      scale: 1,
      allStates: states.every((x) => x >= 0),
    };
    this.flows.set(k, flow);
    return flow;
  }
}

/** Whether two arrays hold the same values (NaN equal to NaN). */
function sameBits(a: Float64Array, b: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(a[i] !== a[i] && b[i] !== b[i])) return false;
  return true;
}
