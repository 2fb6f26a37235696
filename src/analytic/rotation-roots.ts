/**
 * Crossings of an event function along a pure rotation (a 2x2 linear block with eigenvalues
 * ±iω: an undamped spring, an LC circuit, W2's oscillator), in closed form (issue 24). From
 * the function's value, rate and second derivative at the instant (g'' + ω² g is constant):
 *
 *     g(θ) = g0 + P (cos θ - 1) + Q sin θ,   θ = ωs,   P = -g0''/ω²,   Q = g0'/ω.
 *
 * With τ = tan(θ/2), cos θ - 1 = -2τ²/(1 + τ²) and sin θ = 2τ/(1 + τ²), so its zeros are those
 * of the quadratic (g0 - 2P) τ² + 2Q τ + g0, solved without cancellation (ANALYTIC.md, Roots):
 * a crossing near the instant (τ = g0/q) keeps the digits of g0, whatever the size of the
 * orbit's centre g0 - P (a slow rotation about a far equilibrium, x_eq = 1e8, from x = 0 to a
 * threshold of 1e-7). The quadratic's discriminant Q² - g0 (g0 - 2P) = R² - (g0 - P)² tells
 * two crossings per turn from none; where it is within its rounding (a grazing the
 * arithmetic cannot tell from two crossings or none) the crossing is unresolved, at the
 * touching point, as for a polynomial (roots.ts). At the instant of its own event (`atZero`)
 * the root nearest the instant is the event itself and is skipped. The root is polished by
 * Newton's method on the same form.
 */
const TWO_PI = 2 * Math.PI;
const EPS = Number.EPSILON;

export class RotationRoots {
  /** set by `first`: a crossing that could not be resolved, and where (s) */
  unresolved = false;
  where = NaN;

  /**
   * The earliest crossing in (0, H] in direction dir (+1 rises, -1 falls, 0 either) of the
   * function with g(0), g'(0), g''(0), ω in r[0..3] and the rounding of the first three in
   * r[4..6] (linear-event.ts, rotation); Infinity when none.
   */
  first(r: Float64Array, atZero: boolean, dir: number, H: number): number {
    const g0 = r[0],
      w = r[3],
      b0 = r[4];
    this.unresolved = false;
    this.where = NaN;
    const P = -r[2] / (w * w),
      Q = r[1] / w;
    const bP = r[6] / (w * w) + 4 * EPS * Math.abs(P),
      bQ = r[5] / w + 2 * EPS * Math.abs(Q);
    // (nothing moves it: it keeps its value)
    if (!(Math.abs(P) > bP) && !(Math.abs(Q) > bQ)) return Infinity;
    // the quadratic a2 τ² + 2 a1 τ + a0 and its discriminant, with their rounding
    const a0 = g0,
      a1 = Q,
      a2 = g0 - 2 * P;
    const b2 = b0 + 2 * bP + EPS * Math.abs(a2);
    const disc = a1 * a1 - a0 * a2;
    const bDisc =
      2 * Math.abs(a1) * bQ + Math.abs(a0) * b2 + Math.abs(a2) * b0 + 4 * EPS * (a1 * a1 + Math.abs(a0 * a2));
    if (!(Math.abs(disc) > bDisc)) {
      // the extremum touches zero within rounding: at the double root τ = -a1/a2
      let th = 2 * Math.atan(-a1 / a2);
      if (th !== th) th = Math.PI;
      if (atZero && Math.abs(th) < 0.5 * Math.PI) th += TWO_PI;
      else if (th <= 0) th += TWO_PI;
      if (th / w <= H) {
        this.unresolved = true;
        this.where = th / w;
      }
      return Infinity;
    }
    if (disc < 0) return Infinity;
    // q = -(a1 + sign(a1) √disc): the root a0/q crosses in the direction of sign(a1), q/a2 in the other
    const sg = a1 >= 0 ? 1 : -1;
    const q = -(a1 + sg * Math.sqrt(disc));
    const near = 2 * Math.atan(a0 / q),
      far = 2 * Math.atan(q / a2);
    const rise = sg > 0 ? near : far,
      fall = sg > 0 ? far : near;
    // at the instant of its own event: the root nearest it is that event
    const skipFall = atZero && Math.abs(fall) <= Math.abs(rise),
      skipRise = atZero && !skipFall;
    let best = Infinity;
    if (dir <= 0) best = Math.min(best, next(fall, skipFall));
    if (dir >= 0) best = Math.min(best, next(rise, skipRise));
    let s = best / w;
    if (!(s <= H)) return Infinity;
    // Newton on the same form (a root of a well-separated crossing moves by ulps)
    for (let i = 0; i < 2; i++) {
      const th = w * s,
        half = Math.sin(0.5 * th);
      const g = g0 - 2 * P * half * half + Q * Math.sin(th),
        dg = w * (Q * Math.cos(th) - P * Math.sin(th));
      const step = g / dg;
      if (!(Math.abs(step) < 1e-6 * (1 + s))) break;
      s -= step;
    }
    return s > 0 && s <= H ? s : Infinity;
  }
}

/** the first root of a family after 0 (after its representative when that is the instant's own) */
function next(th: number, skip: boolean): number {
  if (skip) return th + TWO_PI;
  return th > 0 ? th : th + TWO_PI;
}
