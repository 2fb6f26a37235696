/**
 * A delta on the state weighs 1/|du/dt| where its argument u crosses zero; at a root of u
 * of multiplicity 3 or more (x = (t - 1)^3) it crosses with zero rate, and the weight is no
 * number: the located root is off by (rounding)^(1/3), and 1/|u'| there is whatever that
 * error makes it (y = 9.8e9 with status ok). The steppers fail such a run (driver/
 * delta-touch.ts); on the analytic path the polynomial's Taylor coefficients at the instant
 * tell it at the predicted root.
 */

/**
 * How well the value of the polynomial with Taylor coefficients c (c[i] the coefficient of
 * s^i, degree `degree`) is known at s, its value now known to ±bound: that bound plus the
 * rounding of Horner's rule there, gamma_2n sum |c_i| |s|^i with gamma_2n ~ 2n u = n eps
 * (Higham, Accuracy and Stability, 5.1). (c about an earlier time carries the cancellation
 * that a value taken near the root no longer shows: the engine keeps the largest along the
 * predictions of one crossing.)
 */
export function valueKnownAt(c: Float64Array, degree: number, s: number, bound: number): number {
  let size = 0;
  for (let i = degree; i >= 0; i--) size = size * Math.abs(s) + Math.abs(c[i]);
  return bound + degree * Number.EPSILON * size;
}

/**
 * The relative uncertainty of the weight 1/|u'| of a delta whose argument, the polynomial with
 * Taylor coefficients c (as above), crosses zero at s where its value is known to ±known;
 * Infinity at a zero rate. With a_i the Taylor coefficients about the root, the root lies
 * within about δ of the located one, where a_1 δ + a_2 δ^2 + ... reaches `known`: taken as
 * min_i (known/|a_i|)^(1/i), where one term alone reaches it (an estimate within a factor of
 * the degree while the terms do not cancel); over δ the rate changes by at most 2|a_2| δ + 3|a_3| δ^2 + ..., and
 * the weight by that over |a_1| of itself. At a simple root this is |u''| known/u'^2 (x^2 - 1
 * at x = t = 1: u' = 2, u'' = 2, known 1e-16: 5e-17); at a nearly triple root the cube root of
 * `known` sets δ (x = (t - 1)^3 from x = -1, located 6e-6 off with rate 1e-10: 24, where the
 * curvature over known/|u'| alone said 0.35). The run refuses a weight less certain than rtol.
 */
export function weightUncertainty(c: Float64Array, degree: number, s: number, known: number): number {
  const a = shifted(c, degree, s);
  const rate = Math.abs(a[1]);
  if (!(rate > 0)) return Infinity;
  let delta = Infinity;
  for (let i = 1; i <= degree; i++) if (a[i] !== 0) delta = Math.min(delta, (known / Math.abs(a[i])) ** (1 / i));
  let change = 0;
  for (let i = degree; i >= 2; i--) change = change * delta + i * Math.abs(a[i]);
  change *= delta;
  const uncertainty = change / rate;
  return uncertainty === uncertainty ? uncertainty : Infinity;
}

let scratch = new Float64Array(8);

/** The Taylor coefficients about s of the polynomial with coefficients c about 0 (a scratch array, read before the next call). */
function shifted(c: Float64Array, degree: number, s: number): Float64Array {
  if (scratch.length < degree + 2) scratch = new Float64Array(2 * degree + 2);
  const a = scratch;
  a.fill(0);
  for (let i = 0; i <= degree; i++) a[i] = c[i];
  // (repeated synthetic division by (x - s): the i-th pass leaves a_i at position i)
  for (let i = 0; i < degree; i++) for (let j = degree - 1; j >= i; j--) a[j] += s * a[j + 1];
  return a;
}
