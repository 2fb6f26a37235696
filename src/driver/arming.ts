/**
 * Arming (EVENTS.md, 2): after a state event fires, its function is either held at the zero
 * it fired at, until it has left it, or armed at once. The rule follows the action:
 * - left at zero (a bounce: h = 0 before and after, only h' changed): held until |g| exceeds
 *   its rounding and the location's residue, or its rate has surely carried it out; while
 *   held, a sign change is rounding, not a crossing;
 * - moved away (a reset y := 0 moves y - 0.5 to -0.5), or set by its own action at all: armed
 *   at once, nothing of the old value carried;
 * - held with zero rate (a plastic impact): sitting, with the side it came from, so that the
 *   motion pushing it across is found as a contact; a contact held as a constraint keeps it
 *   held until it lets go;
 * - heading on across (the action turned it neither back nor away): besides, unturned until
 *   the flow's rate points it back to the side it came from; until then no change of its
 *   sign is a crossing (crossings.ts, settleUnturned), since only the flow brings it back.
 * One small state machine per watched function, in typed arrays; crossings.ts reads it.
 */
import type { Workspace } from './workspace.js';
import { tieTolerance } from './time-tie.js';
import { atolThrough } from './crossing-noise.js';
import { functionTolerance } from './delta-touch.js';
import { isImpact } from './round-verdicts.js';

/**
 * How much an event's own action may scale its function's located residue and leave it still
 * at that zero (re-arming): -0.8 for a restitution, -2.6 with a delta's jump beside it. A value
 * assigned afresh near zero is told apart by a residue of exactly 0 or by the band.
 */
export const RESIDUE_GAIN = 16;

/**
 * Whether an event's own action left its function's located residue `before` still at its zero
 * as `after`: both within `band`, what the location cannot tell from zero, and scaled by no more
 * than RESIDUE_GAIN (both paths' re-arming decide by this).
 */
export function residueKept(after: number, before: number, band: number): boolean {
  return Math.abs(after) <= RESIDUE_GAIN * Math.abs(before) && Math.abs(after) <= band && Math.abs(before) <= band;
}

/** What a fired function's instant left for re-arming it (Arming.rearm). */
interface FiredFunction {
  /** its value and rate before the actions, and the side it came from */
  gPre: number;
  ratePre: number;
  signPre: number;
  /** its own action assigned a value it reads and changed it (a reset) */
  set: boolean;
  /** its own actions assign what it reads */
  moves: boolean;
  /** the band its rate is zero in (rate-band.ts: 0, only its rounding) */
  rateBand: number;
  /** the side its next order sends it to from its zero (0: none known) */
  nextSide: number;
  /** the rounding of t it sees at the instant (tieOf) */
  tie: number;
}

export class Arming {
  /** the run's floor of the tie tolerance (time-tie.ts, tieFloor) */
  tieFloor = 1;
  /** afterInstant's record of one fired function, reused */
  private readonly fired: FiredFunction = {
    gPre: 0,
    ratePre: 0,
    signPre: 0,
    set: false,
    moves: false,
    rateBand: 0,
    nextSide: 0,
    tie: 0,
  };
  /**
   * Whether the instant afterInstant re-arms at was located over a noisy step (stiff-step.ts,
   * isNoisyStep): its state, and every state the steps after it land on, is off the solution
   * by up to the tolerance (the simulator sets it for the instant, and clears it after).
   */
  noisyInstant = false;
  /**
   * per function fired at an instant located over a noisy step (noiseBand): that band, while
   * no state the run stood on since (a step's start, an instant) has shown it beyond the band
   * (0: none); and the side it fired to. Within it, a return across and back is noise.
   */
  private readonly noiseHold: Float64Array;
  private readonly noiseSide: Int8Array;
  /** whether some noiseHold may be set (false: holdInNoise has nothing to look at after an instant) */
  private anyNoise = false;
  /** per function: held at zero after firing (see the header) */
  readonly held: Uint8Array;
  /** per function held: the scale of its zero, and its rate (how fast it leaves) */
  private readonly holdScale: Float64Array;
  private readonly holdRate: Float64Array;
  /**
   * per function held at zero: the side its rate after the action sends it to. Leaving the
   * zero on the other side is a new crossing, made inside the zero (a ball on a moving table
   * whose flights are lower than the rounding of h - T), not a continuation.
   */
  readonly holdSide: Int8Array;
  /**
   * per function: the side its crossing located in the last step went to (Crossings sets it,
   * and clears it at the next step; 0: none since it fired). Where a function jumps across,
   * its value at the instant may show either side (radau5 lands on the jump), so this says
   * where it went; where it sits down on a flat zero, where it came from (the other side).
   */
  readonly crossedTo: Int8Array;
  /**
   * per function: the side its event fired from, while the flow has not turned it back
   * towards that side since (0: none, or turned). Set where the action turned it neither
   * back nor away (see rearm); crossings.ts clears it (settleUnturned).
   */
  readonly unturned: Int8Array;
  /**
   * per function held at zero: its rate after the action within the rate's own band (rearm,
   * rate-band.ts), zero: the residue it shows is no rate to scan the first step with
   */
  readonly restsInBand: Uint8Array;
  /** per function: held with zero rate (a plastic contact), and the side it came from */
  private readonly sitting: Uint8Array;
  /** per function: held at rest at its zero since the start (restingAtStart), until its first step says how */
  private readonly startRest: Uint8Array;
  private readonly sittingFrom: Int8Array;
  /** per watched function, the next with the same zeros (WatchEntry.zeroOf), itself where none */
  private readonly sameZero: Int32Array;
  /**
   * per function: an impact's, whose event's own actions turn its motion and leave its value
   * (v := -e*v at h falls), the only kind that rests at its zero in contact: a detector's
   * (n := n + 1, (x - 1)^3 rises) at a zero with zero rate goes on across with its flow, and
   * a reset's leaves its zero by its action
   */
  private readonly impact: Uint8Array;

  /** scratch: the state at an instant, one component moved by atol (restBand) */
  private readonly yScratch: Float64Array;

  constructor(
    private readonly ws: Workspace,
    private readonly direction: readonly ('rises' | 'falls' | 'crosses')[],
    private readonly isBoolean: Uint8Array,
    /** the run's tolerances (crossing-noise.ts holds them) */
    private readonly tolerances: { readonly atol: number; readonly rtol: number },
  ) {
    const nw = ws.nWatch;
    this.yScratch = new Float64Array(ws.y.length);
    this.held = new Uint8Array(nw);
    this.noiseHold = new Float64Array(nw);
    this.noiseSide = new Int8Array(nw);
    this.holdScale = new Float64Array(nw);
    this.holdRate = new Float64Array(nw);
    this.holdSide = new Int8Array(nw);
    this.crossedTo = new Int8Array(nw);
    this.unturned = new Int8Array(nw);
    this.sitting = new Uint8Array(nw);
    this.restsInBand = new Uint8Array(nw);
    this.startRest = new Uint8Array(nw);
    this.sittingFrom = new Int8Array(nw);
    const m = ws.model;
    this.impact = Uint8Array.from(m.watchInfo, (info, w) => {
      const ev = info.kind === 'event' ? m.events[info.event] : null;
      return ev !== null && isImpact(ev, w) ? 1 : 0;
    });
    // (a ring through the functions with the same zeros: each to the next, the last to the first)
    this.sameZero = Int32Array.from(m.watchInfo, (_, w) => w);
    const last = new Map<number, number>();
    m.watchInfo.forEach((info, w) => {
      const prev = last.get(info.zeroOf);
      if (prev !== undefined) {
        this.sameZero[w] = this.sameZero[prev];
        this.sameZero[prev] = w;
      }
      last.set(info.zeroOf, w);
    });
  }

  /**
   * After an instant at `at` (ws.y, ws.gPrev and ws.rPrev there, after the actions): each
   * fired event's function armed again, by the rule of the header (`exact`: located at its
   * crossing; placed before or after it, by a fixed-step mode, a function is not at zero and
   * is armed as it stands). gFire and rFire hold the functions and rates before the actions,
   * sideFire the side an action sent one across from (Firing.sideFire), rateBandFire and
   * nextSideFire its rate's band and the side its next order leaves for (rate-band.ts);
   * `located`: the events found at this instant (the rest were sent across by event iteration).
   * termBound: each fired function's rounding bound before the instant's jumps were folded into
   * their states (step-fold.ts), on the terms its value is summed from.
   */
  afterInstant(
    fired: readonly number[],
    at: number,
    {
      gFire,
      rFire,
      sideFire,
      rateBandFire,
      nextSideFire,
      termBound,
    }: {
      gFire: Float64Array;
      rFire: Float64Array;
      sideFire: Int8Array;
      rateBandFire?: Float64Array;
      nextSideFire?: Int8Array;
      termBound?: Float64Array;
    },
    dtZero: number,
    exact: boolean,
    located: readonly number[] = fired,
  ): void {
    const ws = this.ws,
      m = ws.model;
    for (const k of fired) {
      const w = m.events[k].watchIndex;
      if (w < 0) continue;
      // (the value's rounding is that of the terms it was summed from: the fold's sum keeps it)
      ws.gBound[w] = Math.max(m.boundOne[w](at, ws.y, ws.p, ws.d, ws.sw), termBound?.[w] ?? 0);
      ws.rBound[w] = m.rateBoundOne[w](at, ws.y, ws.p, ws.d, ws.sw);
      // Sent across by another event's action (event iteration), not found at its zero: where
      // that left it away from zero (x = u + S, kicked from -0.5 to 1.5 by a delta), it is
      // armed as it stands. Held as if at a zero of that size, it missed its next crossing.
      // So is one located here that a later round sent across again (its last firing is past
      // the located ones in `fired`): gFire holds where that round sent it, not its zero, and
      // compared with that, its value looked unmoved, "still at zero" in a band of its own
      // size: x + x' crosses, sent back up by x' := -x', was never found again (status ok).
      const sent = !located.includes(k) || fired.lastIndexOf(k) >= located.length;
      if (sent && Math.abs(ws.gPrev[w]) > 4 * ws.gBound[w]) {
        this.crossedTo[w] = 0;
        this.arm(w);
        continue;
      }
      // (its own action assigned what it reads, and changed its value: a reset; unless it left
      // it within what the location cannot tell from zero, its residue scaled by a moderate
      // factor: `v := -0.8*v` at `v falls` keeps v at zero, as on the analytic path, engine.ts)
      const moves = m.events[k].moves.includes(w);
      const g = ws.gPrev[w],
        g0 = gFire[w];
      // (the rounding of t it sees: three evaluations of its function, taken once)
      const tie = this.tieOf(w, at);
      const band = 4 * ws.gBound[w] + Math.abs(rFire[w]) * (dtZero + tie);
      const set = moves && g !== g0 && !residueKept(g, g0, band);
      const rateBand = rateBandFire?.[w] ?? 0,
        nextSide = nextSideFire?.[w] ?? 0;
      if (exact) {
        const f = this.fired;
        f.gPre = gFire[w];
        f.ratePre = rFire[w];
        f.signPre = sideFire[w] || Math.sign(gFire[w]);
        f.set = set;
        f.moves = moves;
        f.rateBand = rateBand;
        f.nextSide = nextSide;
        f.tie = tie;
        this.rearm(w, at, dtZero, f);
      } else this.arm(w);
    }
    this.holdInNoise(fired);
  }

  /**
   * After an instant (ws.gPrev, ws.rPrev there, after the actions): each function still in
   * the noise band of its own last firing (noiseHold), not fired here, that this instant's
   * state shows within that band is held at that zero again, as if it had just fired there.
   * An instant located on the solution (solution-refine.ts) stands on a state off the one the
   * step before ended on by up to the tolerance: it may put the function back on the side it
   * came from, within the band, though the step's end had shown it out of its hold. Left so,
   * it "crossed" again from there (x - (1 - 1e-6) rises, fired twice on rodas at rtol 1e-12:
   * noiseBand). One the state shows beyond its band has left it: the record ends.
   */
  private holdInNoise(fired: readonly number[]): void {
    // (the loop over every function runs after each instant only while some hold exists)
    if (!this.anyNoise) return;
    const ws = this.ws,
      m = ws.model;
    let any = false;
    for (let w = 0; w < ws.nWatch; w++) {
      const band = this.noiseHold[w];
      if (band > 0) any = true;
      if (!(band > 0) || this.held[w]) continue;
      const info = m.watchInfo[w];
      if (info.kind === 'event' && fired.includes(info.event)) continue;
      const g = ws.gPrev[w],
        rate = ws.rPrev[w];
      if (!(Math.abs(g) <= band)) {
        this.noiseHold[w] = 0;
        continue;
      }
      const side = this.noiseSide[w];
      this.startRest[w] = 0;
      this.restsInBand[w] = 0;
      this.unturned[w] = 0;
      this.crossedTo[w] = 0;
      this.held[w] = 1;
      this.holdScale[w] = band;
      this.holdRate[w] = rate === rate ? Math.abs(rate) : 0;
      this.holdSide[w] = side;
      this.sitting[w] = 0;
      this.sittingFrom[w] = -side;
    }
    this.anyNoise = any;
  }

  /**
   * Whether function k, of value g at a state the run stands on, is within the noise band of
   * its own last firing (noiseHold): no new crossing of it can be told there (coincidence.ts).
   */
  withinNoise(k: number, g: number): boolean {
    return this.noiseHold[k] > 0 && Math.abs(g) <= this.noiseHold[k];
  }

  /**
   * Function k not held, g0 at the start of a step (a state the run stands on): its noise
   * record ends once that shows it beyond the band (crossings.ts, each step).
   */
  noiseAtStart(k: number, g0: number): void {
    if (this.noiseHold[k] > 0 && !(Math.abs(g0) <= this.noiseHold[k])) this.noiseHold[k] = 0;
  }

  reset(): void {
    this.held.fill(0);
    this.noiseHold.fill(0);
    this.anyNoise = false;
    this.startRest.fill(0);
    this.unturned.fill(0);
    this.crossedTo.fill(0);
    this.sitting.fill(0);
  }

  /**
   * Held function k, g1 at the end of a step of length h: 'held' while still within its zero
   * (its rounding and the location's residue) and too short a step for its rate to have
   * carried it out (a sign change there is rounding: sin(pi t) just after it fired at the end
   * of a range). Otherwise it is let go: 'sitting' when it rested with zero rate, 'left' when
   * it left its zero in this step.
   */
  leaving(k: number, g1: number, h: number, moving = false): 'held' | 'sitting' | 'left' {
    if (!(Math.abs(g1) > this.holdScale[k]) && !(this.holdRate[k] * h > 4 * this.holdScale[k])) {
      // Resting at its zero from the start and still there after the first step, with no
      // rate at its end (`moving`: beyond the rate's rounding): a flat zero (max(x - 1, 0)
      // before x reaches 1), not a body the motion pushes at once; armed as it stands, so
      // that leaving it later is no contact (restingAtStart). One the motion moves stays held
      // until it leaves: only a step too short to show it (a ball at rest at x = 1e6, sinking
      // below the rounding of x - 1e6 over rodas' first step) was armed and fell through.
      if (this.startRest[k] && !moving) this.arm(k);
      return 'held';
    }
    return this.release(k);
  }

  /** whether function k is held at rest at its zero since the start (restingAtStart) */
  restsFromStart(k: number): boolean {
    return this.startRest[k] === 1;
  }

  /** Lets held function k go (it left its zero: leaving, or a sample inside the step showed it). */
  release(k: number): 'sitting' | 'left' {
    this.startRest[k] = 0;
    this.held[k] = 0;
    if (this.sitting[k]) {
      this.sitting[k] = 0;
      return 'sitting';
    }
    return 'left';
  }

  /**
   * Arms watched function w again after its event fired at the exactly located instant `at`
   * (EVENTS.md, 2), where `dtZero` is the width of the location's bracket in time. ws.gPrev/
   * rPrev hold its values after the actions, ws.gBound/rBound their rounding; `fired` what
   * its firing left (FiredFunction).
   */
  private rearm(
    w: number,
    at: number,
    dtZero: number,
    { gPre, ratePre, signPre, set, moves, rateBand, nextSide, tie }: FiredFunction,
  ): void {
    const ws = this.ws;
    this.unturned[w] = 0;
    this.startRest[w] = 0;
    this.restsInBand[w] = 0;
    this.noiseHold[w] = 0;
    if (this.isBoolean[w]) {
      // A truth value is +1 or -1, never near zero. At its instant it may still show the side
      // it fired from (read with the state at the left end) or already the other (a condition
      // on t alone, read at the instant): so it is held only until a step shows a side
      // (|g| = 1 > 0.5), and then scanned from the instant starting on the side it went to:
      // false after `falls`, true after `rises`, and after `crosses` the side of the step's
      // midpoint. (Held with the scale of a real function it would never be let go: the
      // event would fire once only.)
      const direction = this.direction[w];
      this.held[w] = 1;
      this.holdScale[w] = 0.5;
      this.holdRate[w] = 0;
      this.holdSide[w] = direction === 'falls' ? -1 : direction === 'rises' ? 1 : 0;
      this.sitting[w] = 0;
      return;
    }
    const g = ws.gPrev[w];
    const rate = ws.rPrev[w];
    const crossedTo = this.crossedTo[w];
    this.crossedTo[w] = 0;
    const slack = Math.max(Math.abs(ratePre), Math.abs(rate));
    // (the instant itself is known to the rounding of t, a scheduled one too, whose bracket
    // is 0: x = 1 - t at `at 1` is 2.2e-16, and `x := 0` there leaves it at the zero it fired
    // at, not moved away; armed there, the first step found x at 0 heading across, a false
    // "precision ran out")
    const zero = 4 * ws.gBound[w] + (slack === slack ? slack * Math.max(dtZero, tie) : 0);
    // Where it fired is its zero, as well as location can tell (|gPre| may exceed the
    // rounding where flights are lower than it); what counts is whether the action moved it.
    // (`set`: its own action assigned a value it reads and changed it, if only by less than
    // its rounding, x := 0.99999999999999 at x - 1 rises: a reset, armed at once)
    // (a jump: far from zero on its own scale and with no rate that could have carried it
    // there; a continuous function may stand off its zero by more than its rounding where
    // flights are lower than it, a ball riding a table, but it moves)
    // (located over a noisy step, the state is off the solution by up to the tolerance, and
    // the function's residue there by up to its band: no jump either. x - (1 - 1e-6) rises,
    // x = y to the bit (x' = -L (x - y) = 0) at the state rodas located at rtol 1e-12, was
    // -2.7e-14 there, "jumped" across and scanned at once from there: it fired again.)
    // (only where its rate there is within its rounding, before and after the actions: a
    // function the flow moves at a rate the run reads is followed by that motion, and its
    // return across is a crossing, or noise that crossing-noise.ts says it cannot tell, a
    // failure that names it. Held in its band, x of x'' = -k kk x with kk := 2 kk at each
    // crossing (radau5, atol 1e-12) lost its crossings once its swings fell below the band
    // and ground on past their accumulation point.)
    const unread = !(Math.abs(ratePre) > 4 * ws.rBound[w]) && !(Math.abs(rate) > 4 * ws.rBound[w]);
    const noise = unread ? this.noiseBand(w, at) : 0;
    const jumped = !(Math.abs(gPre) <= Math.max(zero, noise)) && !(Math.abs(ratePre) > 4 * ws.rBound[w]);
    if (!set && jumped && Math.abs(g - gPre) <= zero) {
      // It jumped across its zero (step(sin(x)) - 0.5, sign(h)): a discontinuity, not a zero
      // it sits at. Where its action assigned what it reads (x := 0 at step(x - 1) - 0.5
      // crosses), that put it on a side: armed as it stands. Otherwise the first step from
      // the instant is scanned from it (let go at once: scale -Infinity) on the side it
      // jumped to. Held as at a zero of scale 0.5, it would never be let go, and fire once.
      this.held[w] = moves ? 0 : 1;
      this.holdScale[w] = -Infinity;
      this.holdRate[w] = 0;
      this.holdSide[w] = crossedTo || -Math.sign(gPre);
      this.sitting[w] = 0;
      return;
    }
    if (!set && Math.abs(g - gPre) <= zero) {
      // still at zero: the residue is rounding; it fires again only once it has left zero
      // (A rate within its own band, set onto its zero by another event's action where its
      // rate is zero in exact arithmetic, is at rest whatever the sign of its residue: it
      // leaves its zero the way its next order sends it, as on the analytic path, after an
      // excursion of the residue's, at most the band times the span of t. Taken for motion,
      // x := 0 where x' = v falls through 0 went on across at once on v = +2e-16 and back:
      // a false "persisting contact", or e1 fired twice.)
      const span = dtZero + tie;
      const inBand = rateBand > 0 && Math.abs(rate) <= 4 * ws.rBound[w] + rateBand;
      this.restsInBand[w] = inBand ? 1 : 0;
      this.held[w] = 1;
      this.holdScale[w] = Math.max(
        2 * (zero + Math.abs(g)),
        this.restBand(w, at, inBand),
        inBand ? 2 * rateBand * span : 0,
        noise,
      );
      this.holdRate[w] = inBand ? 0 : rate === rate ? Math.abs(rate) : 0;
      // (an even order: the side it leaves for is the same in either direction of the run)
      this.holdSide[w] = inBand ? nextSide : rate === rate ? Math.sign(ws.dir * rate) : 0;
      // Its rate says it heads back to where its crossing came from, and no action turned it:
      // on a stiff step the state it was located at is off the slow manifold by up to the
      // tolerance, and f there is that times the stiffness (Robertson's y2 - 1e-5 falls on
      // radau5 at rtol 1e-4: a rate of +2e-7 where the motion's is -3e-7). Its way on is the
      // way the located crossing went: leaving back across that way is a new crossing, not a
      // "persisting contact" as it read.
      if (!inBand && crossedTo !== 0 && this.holdSide[w] === -crossedTo && Math.sign(rate) === Math.sign(ratePre))
        this.holdSide[w] = crossedTo;
      // (resting with zero rate, a contact if the motion pushes it on across: an impact's only)
      this.sitting[w] = this.impact[w] && (inBand || Math.abs(rate) <= 4 * ws.rBound[w]) ? 1 : 0;
      // the side it came from: fixed by its direction, else the side its rate came from, else
      // the side its located crossing came from, else its side at the instant. An event
      // placed on the solution (radau5, solution-refine.ts) may stand just past a zero where
      // the function is flat: max(h, 0) a little after h reached zero is 0 with rate 0, no
      // side at all, and a function sitting "from no side" took its leaving back towards the
      // side it came from (max(h, 0) as h comes back up) for the motion pushing it across.
      // (a rate within its rounding names no side: a ball lowered onto the floor at its apex
      // by a reset is left there with v = ±2e-16 of the stepper's error)
      const dir = this.direction[w];
      const rateFrom =
        Math.abs(ratePre) > 4 * ws.rBound[w] + (inBand ? rateBand : 0) ? -Math.sign(ws.dir * ratePre) : 0;
      // (rises and falls name sides in the order of t: a backward run meets them reversed)
      this.sittingFrom[w] = dir === 'rises' ? -ws.dir : dir === 'falls' ? ws.dir : rateFrom || -crossedTo || signPre;
      // Heading on across, the action turning it neither back nor away: to cross again in
      // the direction it fired, it must first come back, and only the flow can bring it back
      // (its rate pointing to the side it came from). Until the flow turns it, a change of
      // sign is the method's noise, not a crossing. A draining tank, h' = -k sqrt(max(h,
      // 0)), whose h near its zero is far below atol: rodas lands on h = +6.5e-21 (rate
      // -8e-11), short of the zero, and the next step carried it on across; dop853's
      // interpolant wiggled up from 2.5e-20 by 1e-9 and back, over steps ending below 0.
      // Scanned from zero, each counted as a new `falls` (rodas 2 events with status ok,
      // dop853 more than 100000), where the rate of h is never positive.
      const from = this.sittingFrom[w];
      // (located over a noisy step: known to its band until it has left it, holdInNoise; and
      // a rate within its rounding there is the stiff f read off the slow solution, no side:
      // x' = -L (x - y) = 0 at x = y to the bit, where x climbs at 1e-11. Left with no side,
      // the first step out of the hold was scanned from the side x had before it fired, and
      // x "rose" again at its start, 2.7 after: it goes on the way it fired.)
      if (noise > 0 && from !== 0) {
        this.noiseHold[w] = noise;
        this.anyNoise = true;
        this.noiseSide[w] = -from;
        if (!(Math.abs(rate) > 4 * ws.rBound[w])) this.holdSide[w] = -from;
      }
      if (from !== 0 && this.holdSide[w] === -from) this.unturned[w] = from;
    } else {
      // moved away by the action: armed at once, nothing of the old value carried
      this.held[w] = 0;
      this.sitting[w] = 0;
    }
  }

  /**
   * Function w, whose event did not fire, set onto its zero at rest by the actions at `at`
   * without being sent across in its direction (Firing.setOnZero: `x falls` of an x a delta
   * lifts from below onto zero where x' = 0): held there as one its own event fired at
   * (rearm), on the side it came from (`from`), leaving for `nextSide`, where its rate lies
   * within its band (`rateBand`, rate-band.ts). Armed as it stood, the residue's side was its
   * side: x = +5.55e-17 (a fold's) or x = 0 with x' = +2e-16 (x := 0 at t = 1 of x' = 1 - t)
   * falling back from there was a `falls` (n = 1 where exact is 0, status ok). `termBound`: its
   * rounding on the terms before the fold (Simulator.processInstant). `located`: where its
   * zero was located at the instant (by its value, LocatedResidues.located), what the location
   * leaves in it (its rate before the actions over the location's span); its rate after them,
   * at rest, covers none of that (2x' at the equilibrium x := 0 leaves: -2.7e-17 with a rate
   * of 1e-16, held by nothing and "crossed" by a delta's kick from there).
   */
  holdSetOnZero(
    w: number,
    at: number,
    dtZero: number,
    from: number,
    rateBand: number,
    nextSide: number,
    termBound: number,
    located = 0,
  ): void {
    const ws = this.ws,
      m = ws.model;
    if (this.held[w] || this.isBoolean[w]) return;
    ws.gBound[w] = Math.max(m.boundOne[w](at, ws.y, ws.p, ws.d, ws.sw), termBound);
    ws.rBound[w] = m.rateBoundOne[w](at, ws.y, ws.p, ws.d, ws.sw);
    const g = ws.gPrev[w],
      rate = ws.rPrev[w];
    const tie = this.tieOf(w, at);
    const span = dtZero + tie;
    if (!(rateBand > 0 && Math.abs(rate) <= 4 * ws.rBound[w] + rateBand)) return;
    const zero = 4 * ws.gBound[w] + Math.max(Math.abs(rate) * Math.max(dtZero, tie), located);
    if (!(Math.abs(g) <= zero)) return;
    this.startRest[w] = 0;
    this.crossedTo[w] = 0;
    this.restsInBand[w] = 1;
    this.held[w] = 1;
    this.holdScale[w] = Math.max(2 * (zero + Math.abs(g)), this.restBand(w, at, true), 2 * rateBand * span);
    this.holdRate[w] = 0;
    this.holdSide[w] = nextSide;
    this.sitting[w] = this.impact[w];
    this.sittingFrom[w] = from;
    this.unturned[w] = from !== 0 && nextSide === -from ? from : 0;
  }

  /**
   * Where the actions at `at` left function w at rest at its zero: its rate within its
   * rounding (ws.rBound) or its own band (`inBand`, rate-band.ts) and its value within what an error of atol in the states it reads
   * makes of it (ws.y and ws.gPrev there): twice that error, the band it is held in; else 0.
   * The steppers control a state near zero to atol, not to its size: x' := 0 at x = 1e-16 of
   * a damped spring leaves x at rest in exact arithmetic, and the solution of x from there is
   * the method's error, which grew to 4e-10 on dop853 (atol 1e-9), crossed zero and was
   * caught again (n = 3 for 1, status ok), or was read as the motion pushing x across (a false
   * "persisting contact"). A motion that pushes it across leaves that band (a ball at rest on
   * the floor under gravity: 1e-9 below it in 1.4e-5 s), and is a contact then. (A rate beyond
   * its rounding is motion the stepper follows, however slow: the flights of a ball whose
   * bounces accumulate, 1e-12 m/s at the 131st, are parabolas it integrates exactly.)
   */
  private restBand(w: number, at: number, inBand = false): number {
    const ws = this.ws,
      atol = this.tolerances.atol;
    if (!(at === at) || !(atol > 0) || !(inBand || Math.abs(ws.rPrev[w]) <= 4 * ws.rBound[w])) return 0;
    const y = this.yScratch;
    y.set(ws.y);
    const g = ws.gPrev[w];
    const dg = atolThrough(ws, w, at, y, g, atol);
    return Math.abs(g) <= dg ? 2 * dg : 0;
  }

  /**
   * Where the instant at `at` was located over a noisy step (noisyInstant): the band function w
   * is known to there (ws.y, ws.gPrev), rtol of its terms and atol through the states it reads,
   * what a state off the solution by its tolerance makes of it; else 0. It is held at its zero
   * until it has left that band (or its rate has surely carried it out): any later state the
   * steps land on (another event located on the solution, solution-refine.ts) is off by as
   * much, and may show it back on the side it came from. A crossing back and again within the
   * band is that noise, not a new event: x - (1 - 1e-6) rises, x following y' = -1e-8 (y - 1)
   * at L = 1e6 and climbing at 1e-14 per unit time, fired at 1381551062.68 on rodas at rtol
   * 1e-12; y's event, located on the solution 2.6 later, put x back 1e-13 below its zero, and
   * x "rose" again at 1381551065.50 (fired twice, status ok, where it crosses once).
   */
  private noiseBand(w: number, at: number): number {
    if (!this.noisyInstant || !(at === at)) return 0;
    const ws = this.ws,
      { rtol, atol } = this.tolerances;
    const y = this.yScratch;
    y.set(ws.y);
    const cancelling = functionTolerance(ws, w, at, y, rtol, 0);
    const band = 2 * (cancelling + (atol > 0 ? atolThrough(ws, w, at, y, ws.gPrev[w], atol) : 0));
    return band === band && band < Infinity ? band : 0;
  }

  /**
   * The rounding of t that function w sees at the instant `at` (ws.y there): the run's tie of t
   * there (time-tie.ts) where w reads t itself, its value moving when t alone moves by that
   * tie; else the tie of the stepper's own clock, which counts from the instant (the time
   * origin stands there exactly, in two doubles). A function of the states only is evaluated
   * on a state the stepper located on that clock, and the rounding of the absolute t does not
   * enter it: its rate times 4 ulps of t made the zero x2 - 0.5 was held at after `rises` 4.4
   * wide at t = 1e8 (a rate of 5e7), wider than its whole swing, so that a reset to -0.2 by a
   * tick 1e-6 later was "still at zero" and the crossing back up lost (n = 11 for 20, ok).
   */
  private tieOf(w: number, at: number): number {
    const tie = tieTolerance(at, this.tieFloor);
    if (!(at === at)) return tie;
    const ws = this.ws,
      m = ws.model;
    const g = m.watchOne[w](at, ws.y, ws.p, ws.d, ws.sw);
    const moved =
      m.watchOne[w](at + tie, ws.y, ws.p, ws.d, ws.sw) !== g || m.watchOne[w](at - tie, ws.y, ws.p, ws.d, ws.sw) !== g;
    return moved ? tie : tieTolerance(0, this.tieFloor);
  }

  /** Arms watched function w as it stands (an event placed before or after its crossing). */
  arm(w: number): void {
    this.noiseHold[w] = 0;
    this.startRest[w] = 0;
    this.restsInBand[w] = 0;
    this.held[w] = 0;
    this.unturned[w] = 0;
    this.sitting[w] = 0;
  }

  /**
   * The band function k is held in at the zero its event fired at, at an earlier instant (what
   * its location cannot tell from zero; 0 at an exact zero), or NaN when it is not held at a
   * zero of finite size.
   * Event iteration reads it (round-verdicts.ts, HeldZeros): within it the function is at its zero,
   * whatever the residue's sign.
   */
  band(k: number): number {
    // One with the same zeros held there holds it too (x' rises beside x' crosses, which fired
    // where x' fell to zero and x := 0 left it at rest): a delta kicking x' up from there leaves
    // zero, and `rises` fired on the residue's side, -3e-19 (x'(1) = -1 where exact is +1).
    for (let j = k; ;) {
      const scale = this.holdScale[j];
      if (this.held[j] && !this.isBoolean[j] && scale >= 0 && scale < Infinity) return scale;
      j = this.sameZero[j];
      if (j === k) return NaN;
    }
  }

  /**
   * Whether function k, not held itself, is held at its zero by one with the same zeros held
   * there (band's ring), g1 at the end of a step of length h: still within that one's hold, by
   * the test of `leaving` (no side effects). Its change of sign there is the residue the
   * location left, not a crossing: `x' rises` beside `x' crosses`, which fired where x' fell
   * to zero and x := 0 left x = x' = 0 at rest; radau5 at rtol 1e-12 located x' at -2e-16,
   * and the exact motion from that residue (a damped rotation of size 2e-16) brought x' back
   * up through zero at t = 0.917: e1 fired there (x := -0.5), status ok, where exact arithmetic
   * keeps x = x' = 0. Crossings.find skips such a function like a held one.
   */
  heldBySameZero(k: number, g1: number, h: number): boolean {
    if (this.held[k] || this.isBoolean[k]) return false;
    for (let j = this.sameZero[k]; j !== k; j = this.sameZero[j]) {
      const scale = this.holdScale[j];
      if (!this.held[j] || this.isBoolean[j] || !(scale >= 0 && scale < Infinity)) continue;
      return Math.abs(g1) <= scale && !(this.holdRate[j] * h > 4 * scale);
    }
    return false;
  }

  /** Function k, held at its zero, was moved off it by another event's action: armed as it stands. */
  leave(k: number): void {
    this.arm(k);
  }

  /**
   * Function k, held at its zero, was left there by another event's action that changed its
   * motion: it leaves the zero the way its rate now points (`rate`, beyond its rounding
   * `rateBound`; at rest, as it was). A sitting one stays sitting: pushed across, a contact.
   */
  turn(k: number, rate: number, rateBound: number): void {
    if (!(Math.abs(rate) > 4 * rateBound)) return;
    this.holdSide[k] = Math.sign(this.ws.dir * rate);
    this.holdRate[k] = Math.abs(rate);
    this.unturned[k] = 0;
  }

  /**
   * How far from zero function w was held after its last event (its rounding and its
   * location's residue, rearm), also once it has left that band (band(k): only while held).
   */
  lastHeldBand(w: number): number {
    return this.holdScale[w];
  }

  /** whether held function w, fired at its zero, leaves it towards the side it fired into */
  leavesAcross(w: number): boolean {
    return this.holdSide[w] !== 0 && this.holdSide[w] === -this.sittingFrom[w];
  }

  /** the side of zero held function w came from (see rearm) */
  fromSide(w: number): number {
    return this.sittingFrom[w];
  }

  /** HeldZeros.heldFrom: the side held function k came from; 0 when it is not held itself */
  heldFrom(k: number): number {
    return this.held[k] ? this.sittingFrom[k] : 0;
  }

  /**
   * At the start of a run (ws.gPrev, ws.rPrev there): a state event's function that starts at
   * its zero with zero rate, each within its rounding, and whose own actions turn its motion
   * (an impact), rests there like one left by a plastic impact (releaseContact), on the side
   * its direction comes from: a ball at rest on the floor
   * at t0 (h = 0, v = 0, `h falls`). The motion pushing it across is then a persisting contact
   * (held as a constraint with zeno = continue), as after an event; it fell through the floor
   * with status ok. A function that leaves its zero on that side, or with a rate, is let go
   * as before (`sin(pi t) crosses` fires from 1 on).
   */
  restingAtStart(t0: number): void {
    const ws = this.ws,
      m = ws.model;
    for (let w = 0; w < ws.nWatch; w++) {
      const dir = this.direction[w];
      const info = m.watchInfo[w];
      if (info.kind !== 'event' || this.isBoolean[w] || this.held[w] || dir === 'crosses') continue;
      // (an impact, whose actions turn its function's motion; not a detector: y = t^2/2 rises
      // from its zero at t0 and never crossed, which is no contact; nor a reset, whose actions
      // move its value: y := y + 1 at y - 0.5 rises leaves zero by the start's rule)
      if (!this.impact[w]) continue;
      const g = ws.gPrev[w],
        rate = ws.rPrev[w];
      const bound = m.boundOne[w](t0, ws.y, ws.p, ws.d, ws.sw);
      if (!(Math.abs(g) <= 4 * bound)) continue;
      if (!(Math.abs(rate) <= 4 * m.rateBoundOne[w](t0, ws.y, ws.p, ws.d, ws.sw))) continue;
      ws.gBound[w] = bound;
      // (rises and falls name sides in the order of t: a backward run meets them reversed)
      this.releaseContact(w, dir === 'rises' ? -ws.dir : ws.dir);
      this.startRest[w] = 1;
    }
  }

  /** Holds function w at zero for as long as a contact constraint keeps it there. */
  holdForContact(w: number): void {
    this.held[w] = 1;
    this.restsInBand[w] = 0;
    this.startRest[w] = 0;
    this.unturned[w] = 0;
    this.holdScale[w] = Infinity;
    this.holdRate[w] = 0;
    this.holdSide[w] = 0;
    this.sitting[w] = 0;
  }

  /**
   * Lets function w go at the end of a contact: at zero with zero rate, it waits to leave
   * zero like a function left there by a plastic impact (scale: its rounding at the state).
   */
  releaseContact(w: number, side: number): void {
    const ws = this.ws;
    this.held[w] = 1;
    this.restsInBand[w] = 0;
    this.unturned[w] = 0;
    this.startRest[w] = 0;
    this.holdScale[w] = 8 * ws.gBound[w];
    this.holdRate[w] = 0;
    this.holdSide[w] = 0;
    this.sitting[w] = 1;
    this.sittingFrom[w] = side;
  }

  /** whether watched function k is held at zero since it last fired */
  isHeld(k: number): boolean {
    return this.held[k] === 1;
  }
}
