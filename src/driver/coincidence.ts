/**
 * Which other state events join an instant just found: the earliest crossing of a step
 * (coincident) or a scheduled time the stepper landed on (coincidentAt).
 *
 * Why a file of its own: locating crossings (crossings.ts) places each function's zero to
 * the bit, but two zeros that are one in exact arithmetic come out a rounding apart, and the
 * later one would start the next step past its zero and never fire. Deciding which functions
 * sit at the instant as well as the arithmetic can tell is a judgement made after the scan,
 * on each function's own scale (EVENTS.md 2: coincident events fire at the same instant, in
 * file order), from what the scan left (Crossings' read-only getters); it changes nothing
 * there, and only appends to the instant's events.
 */
import type { Crossings } from './crossings.js';
import { isPole, poleAt } from './poles.js';
import { valueOnStep } from './step-samples.js';
import { tieTolerance } from './time-tie.js';
import { matches } from './round-verdicts.js';
import type { Workspace } from './workspace.js';

export class Coincidence {
  constructor(
    private readonly ws: Workspace,
    /** the scan of the last step: its candidates, holds, and each function's direction */
    private readonly crossings: Crossings,
  ) {}

  /**
   * Adds to `fired` the events whose functions sit, at the instant just found (absolute time
   * t, the stepper's tLocal, the state y), within their own rounding of zero and head across
   * in their direction, although located a little later: they are coincident with the
   * instant's events (EVENTS.md 2) and fire with them. Two pairs of spheres far apart that
   * collide at one time are located apart by the rounding of the farther pair's positions
   * (1e-12 near x = 3000); the second would otherwise start the next step past its zero and
   * never fire. Only events that commute with those fired join: for one that interacts, the
   * order cannot be told, and the first step after the instant says so
   * (Crossings.startsUnresolved).
   */
  coincident(
    t: number,
    tLocal: number,
    y: Float64Array,
    dtZero: number,
    fired: number[],
    refinedFrom: Float64Array | null = null,
  ): void {
    const ws = this.ws,
      m = ws.model,
      dir = ws.dir,
      cr = this.crossings,
      stepper = cr.scannedStepper;
    if (stepper === null) return;
    const a = cr.scannedStart,
      h = cr.scannedEnd - a;
    const slack = 4 * Number.EPSILON * Math.max(1, Math.abs(tLocal)) + 1e-9 * Math.abs(h);
    const n = fired.length;
    const candidates = cr.scannedCandidates,
      count = cr.scannedCandidateCount,
      earliest = cr.earliestFraction,
      { held, unturned } = cr.arming;
    for (let c = 0; c < count; c++) {
      const k = candidates[c];
      const w = m.watchInfo[k];
      // (nor one that its own event fired and the flow has not turned since: it is on its
      // way across from its own instant)
      if (w.kind !== 'event' || held[k] || unturned[k] || fired.includes(w.event)) continue;
      // (it cannot be near zero before the earliest time its rates allow)
      if (dir * (a + earliest[k] * h - tLocal) > slack) continue;
      const g = m.watchOne[k](t, y, ws.p, ws.d, ws.sw),
        rate = m.rateOne[k](t, y, ws.p, ws.d, ws.sw);
      // (within the noise band of its own last firing, located over a noisy step: no new
      // crossing of it can be told there, arming.ts, holdInNoise)
      if (cr.arming.withinNoise(k, g)) continue;
      const bound = 4 * m.boundOne[k](t, y, ws.p, ws.d, ws.sw);
      // An instant located again on the solution (solution-refine.ts) stands on a state off
      // the interpolant the candidates were located on by up to the tolerance. A function
      // that state already shows past its zero, on the side its direction leads to from where
      // the step started, crossed on the solution no later than the instant, however far past
      // its rounding: its own bracket, later on the interpolant, is within the tolerance's
      // uncertainty of the instant, and the next step, starting past its zero, would never see
      // it (y and x following it through 1 - 1e-6 near t = 1.4e9 at rtol 1e-10: one fired,
      // the other lost, status ok). It is at the instant as well as the run can tell.
      if (refinedFrom !== null && this.crossedOnSolution(k, w.event, g, fired, n, t, y, rate, refinedFrom)) {
        fired.push(w.event);
        continue;
      }
      // (an infinite value is a pole, never a zero, however large its bound: see coincidentAt)
      if (!(Math.abs(g) < Infinity) || !(Math.abs(g) <= bound + Math.abs(rate) * dtZero)) continue;
      // (near zero by its rate alone: a pole's value and rate look so too, poles.ts)
      if (!(Math.abs(g) <= bound) && poleAt(ws, stepper, k, tLocal, g, rate, dtZero, cr.scratchY)) continue;
      const heading = Math.sign(dir * rate);
      const g0 = ws.gPrev[k];
      if (heading === 0 || !matches(cr.direction[k], -dir * heading) || (g0 !== 0 && Math.sign(g0) !== -heading))
        continue;
      // (at zero at the step's start too, its own zero of an earlier instant: the middle of
      // the step says which side it came from; `C2 and not C1` of two `while` rules is below
      // zero between x = 0.5 and 1 and touches it at 1, where it is no crossing)
      if (g0 === 0 && !(Math.sign(cr.valueAt(k, cr.scannedMidpoint)) === -heading)) continue;
      if (cr.conflicts.conflictsWith(w.event, fired, n) && !this.sameCrossing(g, rate, t, y, fired, n)) continue;
      fired.push(w.event);
    }
    if (refinedFrom === null) return;
    // (on the solution, a function need not have been a candidate of the interpolant at all:
    // one whose sign there changed only after the step's end, or not at all, can be past its
    // zero on the solution: y and x through 1 - 1e-3 near t = 6.9e8 on radau5 at rtol 1e-8)
    for (let k = 0; k < ws.nWatch; k++) {
      const w = m.watchInfo[k];
      if (w.kind !== 'event' || held[k] || unturned[k] || fired.includes(w.event)) continue;
      const g = m.watchOne[k](t, y, ws.p, ws.d, ws.sw);
      if (cr.arming.withinNoise(k, g)) continue;
      if (this.crossedOnSolution(k, w.event, g, fired, n, t, y, m.rateOne[k](t, y, ws.p, ws.d, ws.sw), refinedFrom))
        fired.push(w.event);
    }
  }

  /**
   * Whether candidate k (of event e), of value g at the instant's state on the solution, is
   * past its zero on the side its direction leads to from its value at the step's start, and commutes with
   * the first n events of `fired` (or is their function to the bit): then it crossed in the
   * step no later than the instant and joins it. (An interacting one stays out: the order
   * cannot be told, and the next step says so, Crossings.startsUnresolved.)
   */
  private crossedOnSolution(
    k: number,
    e: number,
    g: number,
    fired: readonly number[],
    n: number,
    t: number,
    y: Float64Array,
    rate: number,
    refinedFrom: Float64Array,
  ): boolean {
    const ws = this.ws,
      cr = this.crossings,
      g0 = ws.gPrev[k];
    // One exactly at zero on the solution, from a start off it, reached its zero in the step no
    // later than the instant, unless its rate there surely heads it back (a touch): x following
    // y (x' = -L (x - y)) lands on y's double, so x - c = y - c = 0 with x' = 0 exactly where y's
    // event was located (radau5, rtol 1e-8, near t = 6.9e8); left to the next step, which
    // starts it at zero with no rate, it was taken as at rest there and never fired (status ok,
    // one crossing lost). Fired here, it is held in its noise band (arming.ts, noiseBand), so
    // the noise around that zero after the instant is neither a contact nor a new crossing.
    // So too one within its own rounding of zero there with its rate within its rounding (no
    // side the arithmetic can tell, and no motion that says it turns back): x following y at
    // L = 1e8 is y's double, x - c = y - c = -2.3e-15 with x' = 0, where y's event was located
    // (auto, rtol 1e-9, d = 1e-7, near t = 1.6e9); its own zero lies 1/L = 1e-8 later, below
    // the rounding of t there. Left out, the next instant's start read it at its zero, and
    // its crossing was lost (status ok).
    if (!(Math.abs(g) < Infinity) || g0 === 0) return false;
    if (Math.sign(g0) !== -Math.sign(g)) {
      const m = ws.model,
        unread = !(Math.abs(rate) > 4 * m.rateBoundOne[k](t, y, ws.p, ws.d, ws.sw));
      if (g !== 0 && !(unread && Math.abs(g) <= 4 * m.boundOne[k](t, y, ws.p, ws.d, ws.sw))) return false;
      if (!unread && Math.sign(ws.dir * rate) === Math.sign(g0)) return false;
    }
    // (the side it came from, in the run's direction of t: a backward run reads it reversed)
    if (!matches(cr.direction[k], ws.dir * Math.sign(g0))) return false;
    if (!this.zeroOnRefinedStep(k, g0, refinedFrom)) return false;
    return !cr.conflicts.conflictsWith(e, fired, n) || this.sameCrossing(g, rate, t, y, fired, n);
  }

  /**
   * Whether function k, g0 at the step's start (`start` the state there), reached its zero on
   * the way to the instant rather than changing its sign through a pole. crossedOnSolution
   * reads only the two ends, and a sign change through a pole is no crossing (poles.ts):
   * tan(t) - 1 from +1e3 before 13 pi/2 to -1e-16 at 29 pi/4, where its rise was located on
   * the solution (radau5), "fell" there (round11-poles). The landing on the instant
   * (solution-refine.ts takes the step again from its start, in one step or a few) leaves
   * the stepper's dense output of its last step, which ends on the instant's state: the sign
   * change, where that step holds it, is bracketed there to a few ulps and put to the pole
   * test of the candidates (isPole). Where it lies in an earlier step of the landing, no
   * dense output is left to tell: it stays out, as before the rule.
   *
   * Also no crossing: a start within the function's own rounding of zero, or closer to it
   * than its rate takes over the rounding of t, where its side is noise: its zero of the
   * instant the step began at (v^2 - 1e-12 crosses, fired at 1.0036997 on radau5, where
   * Newton's correction on the solution stopped at 4.7e-22, its rate 1e-6 over the rounding
   * of t; v = 0, located on the solution 2e-6 later, shows it at -1e-12, and it "crossed"
   * again there: a false persisting contact after, round4-peers).
   */
  private zeroOnRefinedStep(k: number, g0: number, start: Float64Array): boolean {
    const ws = this.ws,
      m = ws.model,
      cr = this.crossings,
      stepper = cr.scannedStepper;
    if (stepper === null) return false;
    const t0 = ws.origin.abs(cr.scannedStart),
      zero = 4 * m.boundOne[k](t0, start, ws.p, ws.d, ws.sw) + Math.abs(ws.rPrev[k]) * tieTolerance(t0);
    if (!(Math.abs(g0) > zero)) return false;
    const side = Math.sign(g0),
      a = stepper.tPrev,
      b = stepper.t,
      y = cr.scratchY;
    // (the dense output at the instant still on the start's side: the sign change is the
    // state's rounding at the end, no pole, whose values there would be huge on both)
    if (Math.sign(valueOnStep(ws, stepper, k, b, y)) === side) return true;
    if (Math.sign(valueOnStep(ws, stepper, k, a, y)) !== side) return false;
    let l = a,
      r = b;
    // (halving a bracket of doubles ends within about 1100 halvings, at two neighbours)
    for (let i = 0; i < 1100; i++) {
      const mid = l + (r - l) / 2;
      if (mid === l || mid === r) break;
      if (Math.sign(valueOnStep(ws, stepper, k, mid, y)) === side) l = mid;
      else r = mid;
    }
    return !isPole(ws, stepper, k, l, r, y);
  }

  /**
   * Whether a function of value g and rate `rate` at the instant (t, y) is, to the bit, the
   * function of one of the first n events of `fired`: then its zero is that event's, and no
   * order between the two can be told or matters to the arithmetic, so it fires with them
   * (in file order), whatever the two read and write. A `while` rule's situation written as
   * a min of mins is R - h where the hoop leaves (examples/hoop_rules.delta), as is the rule
   * that holds R - h itself; located a rounding apart on rodas, the second could not join.
   */
  private sameCrossing(
    g: number,
    rate: number,
    t: number,
    y: Float64Array,
    fired: readonly number[],
    n: number,
  ): boolean {
    const ws = this.ws,
      m = ws.model;
    for (let i = 0; i < n; i++) {
      const j = m.events[fired[i]].watchIndex;
      if (j < 0) continue;
      if (m.watchOne[j](t, y, ws.p, ws.d, ws.sw) === g && m.rateOne[j](t, y, ws.p, ws.d, ws.sw) === rate) return true;
    }
    return false;
  }

  /**
   * At the exact time t of a scheduled instant (state y, ws.gNew the functions there): every
   * state event whose function sits within its rounding of zero there, on the side it comes
   * from, heading across in its direction, and not held at a zero of its own, joins `fired`
   * (`atEnd`: t is the end of the range, where only a delta's crossing is an event;
   * `timeTie`: the rounding of t, within which two times are one)
   * (EVENTS.md 2: a coincident event fires at the same instant, in file order). x = 1.1 - 2.5 t
   * with `at 0.44 do k := 1` turning it back: in doubles the root is an ulp after 0.44, and
   * `x falls` never fired (status ok, exact 1).
   */
  coincidentAt(t: number, y: Float64Array, fired: number[], atEnd: boolean, timeTie: number): void {
    const ws = this.ws,
      m = ws.model,
      dir = ws.dir,
      cr = this.crossings;
    const { held, unturned } = cr.arming,
      lastSides = cr.lastSides;
    for (let k = 0; k < ws.nWatch; k++) {
      const w = m.watchInfo[k];
      if (w.kind !== 'event' || cr.isBoolean[k] || held[k] || unturned[k] || fired.includes(w.event)) continue;
      // (a crossing at the end of the range is no event of it, a delta's is: see
      // crossings-at-end.ts, dropAtEnd)
      if (atEnd && !cr.deltaArgument[k]) continue;
      const g = m.watchOne[k](t, y, ws.p, ws.d, ws.sw);
      const rate = m.rateOne[k](t, y, ws.p, ws.d, ws.sw);
      if (cr.arming.withinNoise(k, g)) continue;
      // (within its rounding, or closer to zero than its rate takes over the rounding of t:
      // near t = 1e6 a tick and a crossing 2e-11 apart are one double of t)
      const bound = 4 * m.boundOne[k](t, y, ws.p, ws.d, ws.sw);
      // (an infinite value is a pole, never a zero: its bound, the magnitudes it adds up, is
      // infinite too, and Infinity <= Infinity. x' = 1 from -1 lands on x = 0 exactly at a
      // tick at 1 (rk4, euler, radau5 with steps of 0.5): 1/x - 2 is +Infinity there with
      // the rate -Infinity, and `1/x - 2 falls` joined the tick as a zero heading down, n = 2
      // where exact is 1 (at 1.5), status ok)
      if (!(Math.abs(g) < Infinity) || !(Math.abs(g) <= Math.max(bound, Math.abs(rate) * timeTie))) continue;
      // (near zero by its rate alone: a pole's value and rate look so too, poles.ts)
      if (!(Math.abs(g) <= bound) && this.poleAtInstant(k, t, g, rate, timeTie)) continue;
      const heading = Math.sign(dir * rate);
      if (heading === 0 || !matches(cr.direction[k], -dir * heading)) continue;
      // The step that reached the instant says where the function came from where its last
      // side does not: ws.gPrev holds that step's start where a crossing's instant moved to
      // the tick (on a step that landed on the tick it is the instant's value, g itself), and
      // a crossing located in that step forgot its side. x1 = 1 - t reaches 0 at a tick at 1
      // while a wall at 9.999999999999998 stops x2 = 9 + t 1.8e-15 before it: the instant moved
      // to 1, where x1 sat at exactly 0 (sideless), or at -2e-22 (already across, within the
      // tie of t at its rate, with x in units of 1e-6), did not join, and x1 went through its
      // wall (x1(1.5) = -0.5 for 0.5, status ok, on dop853, dopri5 and rodas).
      const before = Math.sign(ws.gPrev[k]);
      // (already across: only from the other side at the start of the step that crossed)
      if (Math.sign(g) === heading && before !== -heading) continue;
      // (it must have come from the other side: one within its rounding of zero ever since the
      // start left it there, by the start's rule, not here. x - 1 = -t^3/6 is 1 - 1 in doubles
      // until t = 1e-5, and a tick at 1e-6 fired `x - 1 crosses` there, status ok)
      if (Math.sign(g) !== -heading && lastSides[k] !== -heading && before !== -heading) continue;
      fired.push(w.event);
    }
  }

  /** poleAt for function k at the instant t (absolute) that the last step landed on; false with no step yet. */
  private poleAtInstant(k: number, t: number, g: number, rate: number, tie: number): boolean {
    const stepper = this.crossings.scannedStepper;
    if (!(Math.abs(g) < Infinity)) return true;
    return (
      stepper !== null && poleAt(this.ws, stepper, k, this.ws.origin.local(t), g, rate, tie, this.crossings.scratchY)
    );
  }
}
