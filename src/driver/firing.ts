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
import { RoundMarks } from './round-marks.js';

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
  readonly s0: Float64Array;
  /** the instant of the flow */
  t: number;
}

/**
 * The functions held at the zero their own event fired at, at an earlier instant: by Arming on
 * the steppers, by the engine's rest on the analytic path (a residue an action left at rest).
 * Such a function fires again only once it has left zero and crossed (MODEL-LANGUAGE,
 * Events): another event's action that moves it off its zero, even by a jump, makes it leave
 * zero, whatever the sign of its residue, which is the location's noise (a delta kicking x'
 * from 1e-17 to 1 fired `x' crosses` where the residue was negative, on either path); one that
 * leaves it there and turns its motion sends it off that way (x := x + 1 on a spring at rest:
 * x' leaves zero downwards, and fires where it comes back up).
 */
export interface HeldZeros {
  /** the band function k is held in (what its location cannot tell from zero; 0 at an exact zero), or NaN: not held */
  band(k: number): number;
  /** k was moved off its zero by an action: armed as it stands */
  leave(k: number): void;
  /** k was left at its zero by an action, with the rate `rate` (its rounding `rateBound`) */
  turn(k: number, rate: number, rateBound: number): void;
}

/**
 * Event iteration on a function held at its own zero (HeldZeros) that a round's actions
 * touched, its zero not located at this instant. Never a crossing: LEFT_ZERO when it was
 * within its band before the round and the round moved it beyond (told to leave), KEPT_AT_ZERO
 * when it is still within it (told its new rate); NOT_HELD: not held there, judged as any
 * other (judgeAcross).
 */
export function heldThrough(
  held: HeldZeros | null,
  m: CompiledModel,
  k: number,
  dir: number,
  before: FunctionPoint,
  after: FunctionPoint,
): number {
  const band = held === null ? NaN : held.band(k);
  if (!(Math.abs(before.g) <= band)) return NOT_HELD;
  if (!(Math.abs(after.g) <= band)) {
    held!.leave(k);
    return LEFT_ZERO;
  }
  // An impact's function (its actions turn its motion, leave its value) at rest at its zero,
  // that the round turns across in its direction, is Newton's cradle: the impact passes on at
  // this instant (judgeAcross). Two elastic spheres in contact since an earlier collision,
  // turned by the wall's bounce of the second, were kept "at zero", and the first passed
  // through the second and the wall (status ok).
  const w = m.watchInfo[k];
  if (w.kind === 'event') {
    const ev = m.events[w.event];
    const impact = ev.touches.includes(k) && !ev.moves.includes(k);
    const heading = dir * rateSign(after);
    if (impact && heading !== 0 && matches(ev.direction ?? 'crosses', -dir * heading)) return NOT_HELD;
  }
  held!.turn(k, after.rate, after.rateBound);
  return KEPT_AT_ZERO;
}

/** heldThrough's verdicts */
export const NOT_HELD = 0,
  LEFT_ZERO = 1,
  KEPT_AT_ZERO = 2;

/** Whether a crossing from the side `signBefore` (in the order of t) is one `direction` names. */
export function matches(direction: 'rises' | 'falls' | 'crosses', signBefore: number): boolean {
  return direction === 'crosses' || (direction === 'rises' ? signBefore < 0 : signBefore > 0);
}

/** A watched function's value and rate, with their roundings, at one state. */
export interface FunctionPoint {
  g: number;
  rate: number;
  gBound: number;
  rateBound: number;
}

/**
 * The side of zero a function stood on before a round's actions sent it across (0: within
 * its rounding): where it came from when an action set it onto its zero at rest (a ball
 * lowered onto the floor by a reset), which its value and rate after the round no longer show.
 * Both paths' re-arming read it (Firing.sideFire, AnalyticFiring.sentApproach).
 */
export function sideBefore(before: FunctionPoint): number {
  return Math.abs(before.g) > 4 * before.gBound ? Math.sign(before.g) : 0;
}

/**
 * The events of a round whose impact the round undid: one whose own actions alone would turn
 * its function away from its zero, while the round (another of its events turning the same
 * function) leaves it within its rounding of zero heading across in its direction. Every
 * action of a round reads the values before it, so of two spheres reaching a wall at one
 * instant, the wall's bounce and the collision together leave the first sphere at the wall
 * moving into it: wl fires again in the next round, as any function an action sends across
 * does, where event iteration, which leaves out the round's own events, let it pass through
 * (status ok). Both paths' event iteration add them (Firing.fire, AnalyticFiring.general).
 * `rateBefore(k)` is watched function k's rate before the round, `headingAlone(e)` the sign
 * of its rate after event e's actions alone (afterAlone), `afterRound(k)` the function after
 * the round; `band` is the location's rounding in time (dtZero, the tie tolerance).
 */
export function undoneImpacts(
  m: CompiledModel,
  round: readonly number[],
  dir: number,
  band: number,
  rateBefore: (k: number) => number,
  headingAlone: (e: number) => number,
  afterRound: (k: number) => FunctionPoint,
): number[] | null {
  if (round.length < 2) return null;
  let out: number[] | null = null;
  for (const e of round) {
    const ev = m.events[e],
      k = ev.watchIndex;
    if (k < 0 || !ev.touches.includes(k) || ev.moves.includes(k)) continue;
    if (!round.some((o) => o !== e && m.events[o].touches.includes(k))) continue;
    const direction = ev.direction ?? 'crosses';
    const after = afterRound(k);
    if (!(Math.abs(after.g) <= 4 * after.gBound + Math.abs(rateBefore(k)) * band)) continue;
    const heading = dir * rateSign(after);
    if (heading === 0 || !matches(direction, -dir * heading)) continue;
    // (its own actions alone must send it back: a `v := v + 10` that speeds a crossing on, or a
    // `while` rule's hold beside the others on h = R, is the crossing it fired on, going on)
    const alone = dir * headingAlone(e);
    if (alone !== 0 && !matches(direction, -alone)) (out ??= []).push(e);
  }
  return out;
}

/**
 * Watched function k after event e's actions alone, applied at t to (y, d) (into ws.yTmp and
 * ws.dOwn, whole copies: only for the few events undoneImpacts asks about).
 */
export function afterAlone(
  ws: Workspace,
  e: number,
  k: number,
  t: number,
  y: Float64Array,
  d: Float64Array,
  point: FunctionPoint,
): FunctionPoint {
  ws.yTmp.set(y);
  ws.dOwn.set(d);
  ws.model.events[e].apply(t, y, ws.p, d, ws.sw, ws.yTmp, ws.dOwn, ws.dir);
  return readFunction(ws, k, t, ws.yTmp, ws.dOwn, point);
}

/** The sign of a function's rate where it lies beyond its rounding, else 0. */
export function rateSign(point: FunctionPoint): number {
  return Math.abs(point.rate) > 4 * point.rateBound ? Math.sign(point.rate) : 0;
}

/**
 * Whether one round of actions at an instant sent a state event's function across its zero
 * in its direction (EVENTS.md 2), from its value and rate before and after the round (both
 * paths' event iteration decide by this). A value within its rounding of zero has no side of
 * its own (the sign of a residue is noise: x' = 1 - t read at t = 1 as -1e-16 on one stepper,
 * +1e-16 on another); there the side is the one its motion gives:
 * - before the round, the side it came from (x' reaching zero from above at t = 1, where a
 *   delta kicks it up to 1, touched zero and did not rise through it);
 * - after it, the side it heads to (z := 3026 at z - 3026 falls, a rounding above it, while z
 *   rises: it never falls).
 * So it crossed when
 * - it went from one side to the other (a reset that moves a level past a threshold), or
 * - it was beyond its rounding before and is left on zero at rest: set to zero, it crossed
 *   (y := 0; y' := 0 under y'' = -1 at y falls: then a contact), whatever the sign of the
 *   residue (x := x - 0.5 leaving z - x at 1e-16 under z' = x' crossed on one path and not on
 *   the other), or
 * - it rested on zero before, its zero not located at this instant, and the round moved it
 *   off beyond its rounding, or
 * - the round left it within its rounding of zero and turned its motion across, where its
 *   zero is known: it rested there (a rate within its rounding: the next sphere of Newton's
 *   cradle, at rest in contact, takes the impact at the same instant), or its own event fired
 *   earlier at this instant (sequential impacts of a cradle with e < 1).
 * A function near zero that was moving is not at a zero the arithmetic knows (a gap of 1e-17
 * between spheres near x = 3 rounds to 0): whether it crosses before or after the instant is
 * the first step's to judge, and it says so when it cannot.
 * Where its zero was located at this instant (`firedHere`), it is at zero within its rounding
 * and the location's: its rate before the round times `dtZero`, the bracket in time (a state
 * E = T - 20 of a thermostat, located a rounding of t short of its zero, is at it).
 */
export function sentAcross(...args: Parameters<typeof judgeAcross>): boolean {
  return judgeAcross(...args) === CROSSED;
}

/** sentAcross's verdicts: crossed; not, with its sides before and after known (a touch, a move off zero); not at the instant, on zero on both sides (the first step after it judges) */
export const CROSSED = 1,
  NOT_CROSSED = 0,
  OPEN = -1;

/** sentAcross, telling a function whose sides were known (NOT_CROSSED) from one left on zero (OPEN). */
export function judgeAcross(
  direction: 'rises' | 'falls' | 'crosses',
  dir: number,
  before: FunctionPoint,
  after: FunctionPoint,
  firedHere: boolean,
  dtZero: number,
  /** the rounding of t at the instant (time-tie.ts) */
  tie = 0,
): number {
  const gB = before.g,
    gA = after.g;
  const located = firedHere ? Math.abs(before.rate) * dtZero : 0;
  // (rates in the order of the run: in a backward run, t's motion turned)
  const headed = dir * rateSign(before);
  const heading = dir * rateSign(after);
  // (a value its rate before the round covers within the rounding of t is at zero too: x' =
  // 1 - t integrated to t = 1 is -4.4e-16 there, its zero cannot be told from the instant; and
  // the same value after the round, one the actions did not change, is as much at zero: a
  // ball's x at 1.7e-16 as two events kept turning its x' at one instant)
  const band = Math.max(located, Math.abs(before.rate) * tie);
  const zeroBefore = Math.abs(gB) <= 4 * before.gBound + band;
  const zeroAfter = Math.abs(gA) <= 4 * after.gBound + band;
  if (!zeroBefore || !zeroAfter) {
    // (its zero located at this instant and the round moving it off: a reset, armed for its
    // next crossing, not one now; its side before the round is no longer the one it came from)
    if (zeroBefore && firedHere) return NOT_CROSSED;
    // the side it is on or heads to after the round; left on zero at rest, the other side
    const to = !zeroAfter ? Math.sign(gA) : heading !== 0 ? heading : zeroBefore ? 0 : -Math.sign(gB);
    // the side it was on or came from; rested on zero, the one it leaves from
    const from = !zeroBefore ? Math.sign(gB) : headed !== 0 ? -headed : -to;
    return to !== 0 && from === -to && matches(direction, from) ? CROSSED : NOT_CROSSED;
  }
  // (rises and falls name the side before in the order of t: in a backward run, the other)
  if (heading === 0 || !matches(direction, -dir * heading)) return OPEN;
  return (firedHere ? headed !== heading : headed === 0) ? CROSSED : OPEN;
}

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
  return `event iteration at ${m.system.independent} = ${t} did not settle after ${MAX_EVENT_ITERATIONS} rounds: ${which} at this instant (chattering: switching both ways at one threshold leaves no time between the switches); give the switch a dead band (hysteresis: thresholds a little apart) or a minimum time between switches`;
}

/**
 * Whether watched function k's zero was located at this instant: its own event fired there,
 * or an event whose function has the same zeros (WatchEntry.zeroOf: a thermostat's
 * `T - 20 rises` beside `T - 20 falls`).
 */
export function zeroFiredHere(m: CompiledModel, k: number, fired: readonly number[]): boolean {
  const zero = m.watchInfo[k].zeroOf;
  for (const e of fired) {
    const w = m.events[e].watchIndex;
    if (w >= 0 && m.watchInfo[w].zeroOf === zero) return true;
  }
  return false;
}

/** Reads watched function k and its rate, with their roundings, at (t, y, d) into `point`; rates on the branches `sw`. */
export function readFunction(
  ws: Workspace,
  k: number,
  t: number,
  y: Float64Array,
  d: Float64Array,
  point: FunctionPoint,
  sw: Float64Array = ws.sw,
): FunctionPoint {
  const m = ws.model,
    p = ws.p;
  point.g = m.watchOne[k](t, y, p, d, sw);
  point.rate = m.rateOne[k](t, y, p, d, sw);
  point.gBound = m.boundOne[k](t, y, p, d, sw);
  point.rateBound = m.rateBoundOne[k](t, y, p, d, sw);
  return point;
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
  /** a touched function before and after a round (event iteration) */
  private readonly before: FunctionPoint = { g: 0, rate: 0, gBound: 0, rateBound: 0 };
  private readonly after: FunctionPoint = { g: 0, rate: 0, gBound: 0, rateBound: 0 };
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
  /** per function whose zero was located at the instant (residueSet): the value taken for that zero */
  private readonly residue: Float64Array;
  private readonly residueSet: RoundMarks;
  /** the functions the last instant's event iteration judged (sentAcross) */
  private readonly judgedSet: RoundMarks;
  /** the functions held at their own zero since an earlier instant (the simulator sets it: Arming) */
  held: HeldZeros | null = null;

  constructor(
    private readonly ws: Workspace,
    private readonly recorder: Recorder,
    private readonly switching: Switching,
  ) {
    this.swBefore = new Float64Array(ws.model.nSwitch);
    this.gFire = new Float64Array(ws.nWatch);
    this.residue = new Float64Array(ws.nWatch);
    this.residueSet = new RoundMarks(ws.nWatch);
    this.judgedSet = new RoundMarks(ws.nWatch);
    this.rFire = new Float64Array(ws.nWatch);
    this.sideFire = new Int8Array(ws.nWatch);
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
   * Applies the events `fired` (in file order) at t to (ws.y, ws.d), with the ledger and the
   * before/after rows. `dtZero`: the location's bracket in time (see Switching.lock).
   */
  fire(t: number, fired: readonly number[], dtZero: number): FireOutcome {
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
    this.residueSet.clear();
    this.judgedSet.clear();
    // The zeros located at this instant: each one's residue, read before any action, on the
    // rate it was located with (a later round's rate, turned by the actions, says nothing of
    // the location: two spheres at a wall left their gap at 3.3e-16 with a rate of 0.05, not
    // "at zero", and sphere 2 passed through sphere 1).
    for (const e of fired) {
      const k = m.events[e].watchIndex;
      if (k < 0) continue;
      const at = readFunction(ws, k, t, ws.y, ws.d, this.before);
      if (Math.abs(at.g) <= 4 * at.gBound + Math.abs(at.rate) * Math.max(dtZero, tie)) {
        this.residue[k] = at.g;
        this.residueSet.add(k);
      }
    }
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
      for (const k of round) m.events[k].apply(t, ws.y, p, ws.d, sw, ws.yOut, ws.dOut, ws.dir);
      for (const k of round) {
        const failed = m.events[k].marcus ? this.marcusFlow(t, k) : null;
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
      for (const e of round) {
        const touches = m.events[e].touches;
        for (let i = 0; i < touches.length; i++) {
          const k = touches[i],
            w = m.watchInfo[k];
          if (w.kind !== 'event' || round.includes(w.event) || next?.includes(w.event)) continue;
          // (a delta's argument that an action jumps across zero never passes through it: no
          // weight, no impulse; `n := 0.5` at t = 1 with delta(t - n) gave y = 1, exact 0)
          const ev = m.events[w.event];
          if (ev.kind === 'state' && ev.fromDelta) continue;
          const before = readFunction(ws, k, t, ws.y, ws.d, this.before, m.nSwitch > 0 ? this.swBefore : sw),
            after = readFunction(ws, k, t, ws.yOut, ws.dOut, this.after);
          const firedHere = zeroFiredHere(m, k, all);
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
            if (Math.abs(before.g) <= 4 * before.gBound + Math.abs(before.rate) * dtZero) {
              this.residue[k] = before.g;
              this.residueSet.add(k);
            }
            if (this.residueSet.has(k)) {
              if (before.g === this.residue[k]) before.g = 0;
              if (after.g === this.residue[k]) after.g = 0;
            }
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
          if (verdict === CROSSED) {
            (next ??= []).push(w.event);
            this.gFire[k] = after.g;
            this.rFire[k] = after.rate;
            this.sideFire[k] = sideBefore(before);
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
    m.events[k].apply(t, ws.yPre, ws.p, ws.dPre, ws.sw, yk, dk, ws.dir);
    // (its Marcus flow too, alone from the values before: its ledger jump was 0 in a round of two)
    if (m.events[k].marcus) this.marcusFlow(t, k, dk, ws.dPre);
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
   */
  private marcusFlow(t: number, k: number, levels = this.ws.dOut, pre = this.ws.d): string | null {
    const ws = this.ws,
      ev = ws.model.events[k];
    const targets = ev.marcus!.targets,
      n = targets.length;
    const flow = this.flowOf(k);
    const stepper = flow.stepper,
      dm = flow.dm,
      s0 = flow.s0;
    flow.t = t;
    dm.set(pre);
    // Pulses on one level at one instant compose: the flow starts where the round's actions
    // and the flows before it (file order) left its levels. From the values before the
    // instant, each overwrote the others: y' = y delta(t - 1) + y delta(2t - 2) gave e^0.5
    // (exact e^1.5), and a jump of 3 beside a flow on the same level was lost.
    for (let i = 0; i < n; i++) s0[i] = levels[targets[i]];
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
    for (let i = 0; i < n; i++) levels[targets[i]] = stepper.y[i];
    return null;
  }

  /** The flow of event k at the run's tolerances, made on first use (no allocation at later instants). */
  private flowOf(k: number): Flow {
    const have = this.flows.get(k);
    if (have && have.rtol === this.rtol && have.atol === this.atol) return have;
    const ws = this.ws,
      { targets, rate } = ws.model.events[k].marcus!;
    const n = targets.length;
    const dm = new Float64Array(ws.d.length);
    const f = (_s: number, S: Float64Array, out: Float64Array) => {
      for (let i = 0; i < n; i++) dm[targets[i]] = S[i];
      rate(flow.t, ws.y, ws.p, dm, ws.sw, out);
    };
    const stepper = createStepper('auto', n, f, {
      rtol: FLOW_TOLERANCE * this.rtol,
      atol: FLOW_TOLERANCE * this.atol,
      hMax: Infinity,
    });
    const flow: Flow = { stepper, rtol: this.rtol, atol: this.atol, dm, s0: new Float64Array(n), t: 0 };
    this.flows.set(k, flow);
    return flow;
  }
}
