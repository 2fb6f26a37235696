/**
 * Crossings of an event function along a pure rotation (a 2x2 linear block with eigenvalues
 * ±iω: an undamped spring, an LC circuit, W2's oscillator), in closed form (issue 24):
 *
 *     g(s) = γ + P cos ωs + Q sin ωs = γ + R cos(ωs - φ),   R = hypot(P, Q), φ = atan2(Q, P).
 *
 * With κ = -γ/R, g falls through zero at ωs = φ + acos κ and rises at ωs = φ - acos κ, modulo
 * 2π. Where |γ| and R agree within the rounding of g (a grazing the arithmetic cannot tell
 * from two crossings or none), the crossing is unresolved, at the touching point, as for a
 * polynomial (roots.ts). At the instant of its own event (`atZero`) the root nearest the
 * instant is the event itself and is skipped. The root is polished by Newton's method on
 * the closed form.
 */
const TWO_PI = 2 * Math.PI;

export class RotationRoots {
  /** set by `first`: a crossing that could not be resolved, and where (s) */
  unresolved = false;
  where = NaN;

  /**
   * The earliest crossing in (0, H] in direction dir (+1 rises, -1 falls, 0 either) of
   * g(s) = r[0] + r[1] cos(r[3] s) + r[2] sin(r[3] s), r[4] the rounding of g; Infinity when none.
   */
  first(r: Float64Array, atZero: boolean, dir: number, H: number): number {
    const gamma = r[0],
      P = r[1],
      Q = r[2],
      w = r[3],
      bound = r[4];
    this.unresolved = false;
    this.where = NaN;
    const R = Math.hypot(P, Q);
    // (nothing moves it: it keeps its value)
    if (!(R > bound)) return Infinity;
    const phi = Math.atan2(Q, P);
    const gap = R - Math.abs(gamma);
    if (!(Math.abs(gap) > bound)) {
      // the extremum touches zero within rounding: at ωs = φ (a maximum, γ < 0) or φ + π
      let th = normalise(gamma < 0 ? phi : phi + Math.PI);
      if (atZero && Math.abs(th) * R * R < 4 * bound * R) th += TWO_PI;
      else if (th <= 0) th += TWO_PI;
      if (th / w <= H) {
        this.unresolved = true;
        this.where = th / w;
      }
      return Infinity;
    }
    if (gap < 0) return Infinity;
    const alpha = Math.acos(Math.max(-1, Math.min(1, -gamma / R)));
    // the two families of roots, each at its representative in (-π, π]
    const fall = normalise(phi + alpha),
      rise = normalise(phi - alpha);
    // at the instant of its own event: the root nearest it is that event
    const skipFall = atZero && Math.abs(fall) <= Math.abs(rise),
      skipRise = atZero && !skipFall;
    let best = Infinity;
    if (dir <= 0) best = Math.min(best, next(fall, skipFall));
    if (dir >= 0) best = Math.min(best, next(rise, skipRise));
    let s = best / w;
    if (!(s <= H)) return Infinity;
    // Newton on the closed form (a root of a well-separated crossing moves by ulps)
    for (let i = 0; i < 2; i++) {
      const th = w * s;
      const g = gamma + P * Math.cos(th) + Q * Math.sin(th),
        dg = w * (Q * Math.cos(th) - P * Math.sin(th));
      const step = g / dg;
      if (!(Math.abs(step) < 1e-6 * (1 + s))) break;
      s -= step;
    }
    return s > 0 && s <= H ? s : Infinity;
  }
}

/** θ modulo 2π into (-π, π] */
function normalise(th: number): number {
  const k = Math.round(th / TWO_PI);
  return th - k * TWO_PI;
}

/** the first root of a family after 0 (after its representative when that is the instant's own) */
function next(th: number, skip: boolean): number {
  if (skip) return th + TWO_PI;
  return th > 0 ? th : th + TWO_PI;
}
