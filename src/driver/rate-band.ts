/**
 * A watched function's rate near zero at an instant, on its own scale: where an action sets a
 * function onto its zero at a point where its rate is zero in exact arithmetic (x := 0 where
 * x' = v falls through 0; x := 0 at t = 1 with x' = v integrated from v' = -1), the rate the
 * stepper shows is the residue of the location or the integration (v = ±2e-16), far beyond the
 * rounding of evaluating the rate (the rounding of v at 2e-16 is 1e-31). Its sign is noise:
 * taken for motion, it sent x on across at once and back ("persisting contact", or e1 firing
 * twice on rodas), or made the set onto zero a touch (e1 lost on dop853), where the analytic
 * path, which has the exact rate 0, fires e1 once and lets x go the way its next order sends
 * it. The rate's own band is what its motion covers over the span of t the instant is known
 * to (the location's bracket and the rounding of t): |R'| times that span, R' the rate's rate
 * along the flow, exact from the compiler (the constraint's gradient, constraints.ts). Within
 * it the rate is zero, and the side the function leaves its zero for is R''s sign, where R'
 * lies beyond what the states' own residues (their motion over the span) make of it (at the
 * equilibrium x = x' = 0 of a damped spring reached by a reset, R' = -x - x' is the residue's
 * too: no side, at rest).
 */
import type { Workspace } from './workspace.js';

/** rounding bounds are 8 ulps of the magnitudes summed (emit-flow.ts) */
const ULPS = 8 * Number.EPSILON;

export class RateMotion {
  private readonly f: Float64Array;
  private readonly fBefore: Float64Array;
  private readonly shifted: Float64Array;
  private readonly grad: Float64Array;
  /**
   * per state, the size of the terms the stepper summed it from over the step that reached the
   * instant (the larger of its values at the step's ends; noteStep), and its value at the
   * instant before any action: a state no action wrote carries the rounding of that sum
   */
  private readonly stepScale: Float64Array;
  private readonly atInstant: Float64Array;

  constructor(private readonly ws: Workspace) {
    const n = ws.y.length;
    this.stepScale = new Float64Array(n);
    this.atInstant = new Float64Array(n);
    this.f = new Float64Array(n);
    this.fBefore = new Float64Array(n);
    this.shifted = new Float64Array(n);
    this.grad = new Float64Array(n);
  }

  /**
   * Notes the step that reached an instant, [yPrev, yEnd], and the state at the instant before
   * its actions, y (see stepScale).
   */
  noteStep(yPrev: ArrayLike<number>, yEnd: ArrayLike<number>, y: Float64Array): void {
    const sc = this.stepScale;
    for (let i = 0; i < sc.length; i++) sc[i] = Math.max(Math.abs(yPrev[i]), Math.abs(yEnd[i]));
    this.atInstant.set(y);
  }

  /**
   * What the stepper's rounding of the states no action wrote makes of watched function k's
   * rate at (t, y, d, sw), where it is `rate`: over those it reads, the smaller change of the
   * rate when each moves by an ulp of its step's terms (ULPS times stepScale). v = 1 - t summed
   * by rodas in one step from 0.97 is 9.1e-16 at t = 1 (4 ulps of its terms), beyond the band of
   * the rounding of t (8.9e-16): x := 0 there was sent up on it, came back across 1.8e-15 later,
   * and e1 fired twice (n = 2, status ok; exact 1).
   */
  private residueThrough(k: number, t: number, y: Float64Array, d: Float64Array, sw: Float64Array, rate: number) {
    const m = this.ws.model,
      p = this.ws.p,
      moved = this.shifted;
    moved.set(y);
    let sum = 0;
    for (const i of m.watchStates[k]) {
      if (y[i] !== this.atInstant[i]) continue;
      const r = ULPS * this.stepScale[i];
      if (!(r > 0)) continue;
      moved[i] = y[i] + r;
      const up = Math.abs(m.rateOne[k](t, moved, p, d, sw) - rate);
      moved[i] = y[i] - r;
      const down = Math.abs(m.rateOne[k](t, moved, p, d, sw) - rate);
      moved[i] = y[i];
      sum += Math.min(up, down);
    }
    return sum === sum ? sum : 0;
  }

  /** R', the rate of watched function k's rate along the flow at (t, y, d, sw) (f: the flow there, written); NaN where unknown */
  private rateOfRate(
    k: number,
    t: number,
    y: Float64Array,
    d: Float64Array,
    sw: Float64Array,
    f: Float64Array,
  ): number {
    const m = this.ws.model,
      p = this.ws.p;
    const c = m.constraintOf(k);
    if (c === null) return NaN;
    m.rhs(t, y, p, d, sw, f);
    c.grad(t, y, p, d, sw, this.grad);
    let s = c.dt(t, y, p, d, sw);
    for (let j = 0; j < c.idx.length; j++) s += this.grad[j] * f[c.idx[j]];
    return s;
  }

  /**
   * Watched function k's rate band at an instant known to `span` in t, from its state before
   * a round's actions (yB, dB, swB) and after them (yA, dA, swA): `band`, the rate's motion
   * over the span (|R'| times it, the larger of the two; 0 where R' is unknown), and `side`,
   * the sign of R' after the round where it lies beyond the motion of the states over the
   * span makes of it (0: no side the arithmetic can tell). `gBound`: the value's rounding after
   * the round where it is known beyond the function's own bound (action-residue.ts).
   * `carried`: where known, how far the rate after the round moves as the instant moves by the
   * span along the flow before it (the actions applied there: Firing.ownRateBand); the rate's
   * motion is then no more than that (an impact's v := -e*v carries e times the arrival's).
   */
  measure(
    k: number,
    t: number,
    yB: Float64Array,
    dB: Float64Array,
    swB: Float64Array,
    yA: Float64Array,
    dA: Float64Array,
    swA: Float64Array,
    span: number,
    out: { band: number; side: number },
    gBound = 0,
    carried = Infinity,
  ): void {
    out.band = 0;
    out.side = 0;
    const before = this.rateOfRate(k, t, yB, dB, swB, this.fBefore);
    const after = this.rateOfRate(k, t, yA, dA, swA, this.f);
    // (a rate of rate beyond double range, x'' = -x/s^2 on a time scale s = 1e-200, measures
    // nothing: an infinite band took every rate for zero and lost the next wall)
    if (!(Number.isFinite(before) && Number.isFinite(after))) return;
    const accel = Math.max(Math.abs(before), Math.abs(after));
    // (nor is a rate whose whole flight, rate^2 / (2 |R'|), stays within the value's own
    // rounding, gBound after the round: where its zero lies is not known that well, so neither
    // is the side such a flight is on. A delta left x = -4.4e-16 of terms ±0.5 with x' = 9e-16
    // (rodas, rtol 1e-4): sent up from zero, it was found back across at once, a false
    // "persisting contact"; in the stepper's own numbers it never reached zero.)
    const m = this.ws.model;
    const flight = Math.sqrt(2 * accel * 4 * Math.max(m.boundOne[k](t, yA, this.ws.p, dA, swA), gBound));
    const rate = m.rateOne[k](t, yA, this.ws.p, dA, swA);
    out.band = Math.max(Math.min(accel * span, carried), flight) + this.residueThrough(k, t, yA, dA, swA, rate);
    if (!(out.band === out.band)) {
      out.band = 0;
      return;
    }
    // (the states after the round moved as they moved before it, over the span, either way)
    const moved = this.shifted;
    let noise = 0;
    for (let sgn = 1; sgn >= -1; sgn -= 2) {
      for (let i = 0; i < yA.length; i++) moved[i] = yA[i] + sgn * this.fBefore[i] * span;
      const r = this.rateOfRate(k, t, moved, dA, swA, this.f);
      noise = Math.max(noise, Math.abs(r - after));
    }
    out.side = Math.abs(after) > 4 * noise ? Math.sign(after) : 0;
  }
}
