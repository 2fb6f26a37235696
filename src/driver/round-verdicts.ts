/**
 * What a round of actions at an instant did to the event functions it touched: the verdicts
 * both paths' event iteration and re-arming read (Firing here, AnalyticFiring in
 * analytic/fire.ts). A function's value and rate before and after the round (FunctionPoint),
 * whether the round sent it across its zero in its direction (judgeAcross), whether it was
 * held at its own zero through the round (heldThrough), and which impacts of the round the
 * round undid (undoneImpacts).
 */
import type { CompiledModel } from '../codegen/compile.js';
import type { Workspace } from './workspace.js';
import { RoundMarks } from './round-marks.js';

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
  /** the side of zero k came from when it came to rest there (in the order of the run), 0: not known */
  heldFrom(k: number): number;
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
  // through the second and the wall (status ok). Across is away from the side it came to rest
  // from: one turned back to that side leaves zero, as it would have without the impact (x
  // stopped by `x crosses do x' := 0` from above, kicked back up by a delta: `crosses` fired
  // again on the analytic path and stopped it there, x(2) = 0 where exact is 1, status ok).
  const w = m.watchInfo[k];
  if (w.kind === 'event') {
    const ev = m.events[w.event];
    const impact = isImpact(ev, k);
    const heading = dir * rateSign(after);
    const from = held!.heldFrom(k);
    if (impact && heading !== 0 && heading !== from && matches(ev.direction ?? 'crosses', -dir * heading)) {
      // (within its band it is at its zero: judged from there, not from the residue's side,
      // x = 1.7e-16 left by the location of a stop that a delta then kicks down, which read
      // as "above zero, still above": no crossing, then a false "persisting contact")
      before.g = 0;
      after.g = 0;
      return NOT_HELD;
    }
  }
  held!.turn(k, after.rate, after.rateBound);
  return KEPT_AT_ZERO;
}

/**
 * Whether event ev is an impact on its watched function k: its actions can turn k's motion
 * and leave its value (a bounce, a collision), not a detector (n := n + 1) nor a reset. Only an
 * impact rests in contact; only its turn a round can undo.
 */
export function isImpact(ev: CompiledModel['events'][number], k: number): boolean {
  return ev.touches.includes(k) && !ev.moves.includes(k);
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
  /**
   * what the rate's own motion covers over the span of t the instant is known to (rate-band.ts;
   * 0 or absent: only its rounding): within it and its rounding the rate is zero, its sign the
   * location's or the integration's residue (x := 0 where x' = v falls through 0)
   */
  rateBand?: number;
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
    if (k < 0 || !isImpact(ev, k)) continue;
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
  ws.applyActions(e, t, y, d, ws.sw, ws.yTmp, ws.dOwn, ws.dir);
  return readFunction(ws, k, t, ws.yTmp, ws.dOwn, point);
}

/** The sign of a function's rate where it lies beyond its rounding and its band, else 0. */
export function rateSign(point: FunctionPoint): number {
  return Math.abs(point.rate) > 4 * point.rateBound + (point.rateBand ?? 0) ? Math.sign(point.rate) : 0;
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
  // (rates in the order of the run: in a backward run, t's motion turned)
  const headed = dir * rateSign(before);
  const heading = dir * rateSign(after);
  const band = zeroBand(before, firedHere, dtZero, tie);
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
 * How far from zero judgeAcross takes a value for zero, beyond its rounding: where its zero was
 * located here, its rate before the round times the bracket; and a value its rate covers
 * within the rounding of t (x' = 1 - t integrated to t = 1 is -4.4e-16 there, its zero cannot
 * be told from the instant; and the same value after the round, one the actions did not
 * change, is as much at zero: a ball's x at 1.7e-16 as two events kept turning its x' at one
 * instant).
 */
function zeroBand(before: FunctionPoint, firedHere: boolean, dtZero: number, tie: number): number {
  const located = firedHere ? Math.abs(before.rate) * dtZero : 0;
  return Math.max(located, Math.abs(before.rate) * tie);
}

/**
 * Whether a function judgeAcross judged is left at zero after the round, by its measure: one
 * that did not cross (a touch: set onto zero from below, heading back down) stands at zero on
 * the side it heads to, and the residue's sign is no side (both paths start it from zero there:
 * x := 0 at a tick where y is 0 in exact arithmetic and -1.1e-16 in the analytic path's sum,
 * `x - y crosses` heading down, fired 2e-16 after the tick, status ok).
 */
export function leftOnZero(
  before: FunctionPoint,
  after: FunctionPoint,
  firedHere: boolean,
  dtZero: number,
  tie = 0,
): boolean {
  return Math.abs(after.g) <= 4 * after.gBound + zeroBand(before, firedHere, dtZero, tie);
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
  point.rateBand = 0;
  return point;
}

/**
 * The residues of the zeros located at an instant: each function's value there, read before
 * any action, within its rounding and what its rate before the actions covers in `dt`. A later
 * round's rate, turned by the actions, says nothing of the location (two spheres at a wall
 * left their gap at 3.3e-16 with a rate of 0.05 after the first round, not "at zero", and
 * sphere 2 passed through sphere 1); a value that no action changed is still that zero (two
 * events turning a ball's x' at x = 1.7e-16 by -1 and -0.8 in turn). Both paths' event
 * iteration keep one (Firing, AnalyticFiring).
 */
/**
 * How many of the location's spans of t a function's zero may lie from the instant, by its
 * value, rounding and rate, to be the zero located there (LocatedResidues.located).
 */
const SAME_ZERO_SPANS = 64;

export class LocatedResidues {
  private readonly value: Float64Array;
  private readonly marks: RoundMarks;
  /** the functions whose value at the instant located() has read, and of those the ones at that zero */
  private readonly looked: RoundMarks;
  private readonly atZero: RoundMarks;
  /** per function located() found at the zero: its value's band there (its rounding and its rate over the span) */
  private readonly band: Float64Array;
  private readonly point: FunctionPoint = { g: 0, rate: 0, gBound: 0, rateBound: 0 };
  /** the state at the instant before any action (located() reads it), its time and the location's span */
  private y0: Float64Array | null = null;
  private d0: Float64Array | null = null;
  private sw0: Float64Array | null = null;
  private t0 = NaN;
  private dt = 0;
  /** whether a state event's zero was located at this instant (take) */
  private zeroLocated = false;

  constructor(nWatch: number) {
    this.value = new Float64Array(Math.max(1, nWatch));
    this.marks = new RoundMarks(nWatch);
    this.looked = new RoundMarks(nWatch);
    this.atZero = new RoundMarks(nWatch);
    this.band = new Float64Array(Math.max(1, nWatch));
  }

  /** Forgets the last instant's (an instant that took none: its zeros are not the last one's). */
  forget(): void {
    this.marks.clear();
    this.looked.clear();
    this.atZero.clear();
    this.zeroLocated = false;
  }

  /** Forgets the last instant's and takes those of the state events `fired` at t, (ws.y, ws.d) before any action. */
  take(ws: Workspace, t: number, fired: readonly number[], dt: number): void {
    this.marks.clear();
    this.looked.clear();
    this.atZero.clear();
    this.zeroLocated = false;
    for (const e of fired) {
      const k = ws.model.events[e].watchIndex;
      if (k >= 0) {
        this.note(k, readFunction(ws, k, t, ws.y, ws.d, this.point), dt);
        if (this.marks.has(k)) this.zeroLocated = true;
      }
    }
    if (!this.zeroLocated) return;
    // (the state before the actions, for located(): copied once per instant, not per function)
    if (this.y0 === null || this.y0.length !== ws.y.length) this.y0 = new Float64Array(ws.y.length);
    if (this.d0 === null || this.d0.length !== ws.d.length) this.d0 = new Float64Array(ws.d.length);
    if (this.sw0 === null || this.sw0.length !== ws.sw.length) this.sw0 = new Float64Array(ws.sw.length);
    this.y0.set(ws.y);
    this.d0.set(ws.d);
    this.sw0.set(ws.sw);
    this.t0 = t;
    this.dt = dt;
  }

  /**
   * Whether watched function k's zero was located at this instant, by its value: a state
   * event's zero was located here (take), and k's value there, before any action, lies within
   * its rounding and what its rate covers over the location's span (the coincidence rule,
   * EVENTS.md 2). The location places the whole state at that instant, so every function at
   * zero there within what the location cannot resolve is at the zero it found, whatever its
   * expression: `2*x' rises`, `-x' falls`, `x'*(1 + x*x) rises` beside `x' crosses`, which
   * WatchEntry.zeroOf (the text) does not relate. Judged from the residue's side instead,
   * 2x' (left at rest at 0 by x := 0, an equilibrium) was "crossed" by a delta kicking x'
   * from -2.7e-17 up to 1 (x'(1) = -1 where exact is 1, status ok), or by the residue's
   * motion on radau5. Read once per function per instant (ws.y: scratch).
   */
  located(ws: Workspace, k: number): boolean {
    if (this.marks.has(k)) return true;
    if (!this.zeroLocated) return false;
    if (!this.looked.has(k)) {
      this.looked.add(k);
      // (its value beyond what its rate covers in SAME_ZERO_SPANS spans cannot pass `sharp`
      // below, whatever its rounding: the two bounds are read only for one near its zero)
      const m = ws.model,
        g = m.watchOne[k](this.t0, this.y0!, ws.p, this.d0!, this.sw0!),
        rate = m.rateOne[k](this.t0, this.y0!, ws.p, this.d0!, this.sw0!);
      if (!(Math.abs(g) <= Math.abs(rate) * SAME_ZERO_SPANS * this.dt)) return false;
      const at = readFunction(ws, k, this.t0, this.y0!, this.d0!, this.point, this.sw0!);
      const band = 4 * at.gBound + Math.abs(at.rate) * this.dt;
      // (one heading across in its own event's direction there is at a zero of its own, which
      // this location does not resolve from the other's: its event was due too, and did not
      // fire; taken for "that zero", its crossing was divided out as spent. C12 in absolute
      // positions at e = 0.1715763, with rows: x2 - x3 at -5.2e-14 falling at c12's instant,
      // c23 lost, n = 50 for 1263, status ok, where "precision ran out" is the answer)
      const w = ws.model.watchInfo[k];
      const heading = ws.dir * rateSign(at);
      const ownWay =
        w.kind === 'event' && heading !== 0 && matches(ws.model.events[w.event].direction ?? 'crosses', -heading);
      // (and one whose zero its value and rate place no nearer than its rounding lets a slow
      // function sit: within its rounding of zero for a long span of t, it is at zero there
      // because the arithmetic cannot tell, not because this location found its zero. The
      // same collapse: x3 - x4 within its rounding, 1.4e-14, at a rate of 1e-11, a span of
      // 1e-3 around the instant; 2x' beside x' crosses at a rate of 2.6 places its zero to
      // 1e-16, x' + 1 - 1 to 3e-15: within SAME_ZERO_SPANS of the location's span)
      const sharp = Math.abs(at.g) + at.gBound <= Math.abs(at.rate) * SAME_ZERO_SPANS * this.dt;
      if (!ownWay && sharp && Math.abs(at.g) <= band) {
        this.atZero.add(k);
        this.band[k] = band + Math.abs(at.g);
      }
    }
    return this.atZero.has(k);
  }

  /** For a function located() found at the zero by its value (not one of `fired`): what the location leaves in it; else NaN. */
  bandOf(k: number): number {
    return this.atZero.has(k) ? this.band[k] : NaN;
  }

  /** Takes function k's value at `at` for its zero when it is within its rounding and its rate over dt. */
  note(k: number, at: FunctionPoint, dt: number): void {
    if (Math.abs(at.g) <= 4 * at.gBound + Math.abs(at.rate) * dt) {
      this.value[k] = at.g;
      this.marks.add(k);
    }
  }

  /** Sets to 0 the values of k before and after a round that are its residue unchanged. */
  zeroOut(k: number, before: FunctionPoint, after: FunctionPoint): void {
    if (!this.marks.has(k)) return;
    if (before.g === this.value[k]) before.g = 0;
    if (after.g === this.value[k]) after.g = 0;
  }
}
