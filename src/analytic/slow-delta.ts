/**
 * A delta on the state weighs 1/|du/dt| where its argument u crosses zero; at a root of u
 * of multiplicity 3 or more (x = (t - 1)^3) it crosses with zero rate, and the weight is no
 * number: the located root is off by (rounding)^(1/3), and 1/|u'| there is whatever that
 * error makes it (y = 9.8e9 with status ok). The steppers fail such a run (driver/
 * delta-touch.ts); on the analytic path the polynomial's Taylor coefficients at the instant
 * tell it at the predicted root.
 */

/**
 * Whether the polynomial with Taylor coefficients c (c[i] the coefficient of s^i, degree
 * `degree`), whose value is known to ±bound, crosses zero at s so slowly that its rate there
 * is not determined to 1e-6 of itself: over the root's location error, bound/|u'|, the rate
 * changes by |u''| bound/|u'|. (Any simple root of a moderate polynomial is far inside that:
 * x^2 - 1 at x = t = 1 has u' = 2, u'' = 2, bound 1e-16.)
 */
export function crossesTooSlowly(c: Float64Array, degree: number, s: number, bound: number): boolean {
  let rate = 0,
    curvature = 0;
  for (let i = degree; i >= 1; i--) rate = rate * s + i * c[i];
  for (let i = degree; i >= 2; i--) curvature = curvature * s + i * (i - 1) * c[i];
  return !(rate * rate > 1e6 * Math.abs(curvature) * bound);
}
