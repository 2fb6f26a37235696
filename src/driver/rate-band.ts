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

export class RateMotion {
  private readonly f: Float64Array;
  private readonly fBefore: Float64Array;
  private readonly shifted: Float64Array;
  private readonly grad: Float64Array;

  constructor(private readonly ws: Workspace) {
    const n = ws.y.length;
    this.f = new Float64Array(n);
    this.fBefore = new Float64Array(n);
    this.shifted = new Float64Array(n);
    this.grad = new Float64Array(n);
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
   * span makes of it (0: no side the arithmetic can tell).
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
  ): void {
    out.band = 0;
    out.side = 0;
    const before = this.rateOfRate(k, t, yB, dB, swB, this.fBefore);
    const after = this.rateOfRate(k, t, yA, dA, swA, this.f);
    if (!(before === before && after === after)) return;
    out.band = Math.max(Math.abs(before), Math.abs(after)) * span;
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
