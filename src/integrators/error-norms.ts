/**
 * Error norms of Hairer's DOPRI5 and DOP853 codes (Hairer, Nørsett, Wanner, *Solving ODEs I*,
 * Sect. II.4 "Automatic step size control"): how large a step's local error estimate is in
 * units of the tolerance.
 *
 * err = sqrt((1/n) Σ (err_i / sc_i)²), sc_i = atol + rtol·max(|y0_i|, |y1_i|); a step is
 * accepted iff err ≤ 1.
 */

/**
 * Hairer's scaled RMS norm of the local error estimate `err` (length ≥ n), with the scale
 * taken from the state at both ends of the step. Reads only; returns a number ≥ 0, NaN if
 * any input is NaN.
 */
export function scaledRmsNorm(
  err: Float64Array,
  y0: Float64Array,
  y1: Float64Array,
  atol: number,
  rtol: number,
  n: number,
): number {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const sc = atol + rtol * Math.max(Math.abs(y0[i]), Math.abs(y1[i]));
    const q = err[i] / sc;
    sum += q * q;
  }
  return Math.sqrt(sum / n);
}

/**
 * DOP853's combined error norm (Hairer's dop853.f): with the unscaled-by-h estimates
 * e5 = Σ er_i k_i and e3 = Σ (b_i − b̂_i) k_i (arrays of length ≥ n) and
 * E5 = Σ (e5_i/sc_i)², E3 = Σ (e3_i/sc_i)²,
 * err = |h| · E5 / sqrt(n · (E5 + 0.01 · E3)).
 * It behaves like an 8th-order estimate (h⁶·h⁶/h⁴ ~ h⁸) while the 3rd-order term keeps it
 * from being too optimistic when the 5th-order estimate happens to be small.
 */
export function dop853ErrorNorm(
  e5: Float64Array,
  e3: Float64Array,
  y0: Float64Array,
  y1: Float64Array,
  absH: number,
  atol: number,
  rtol: number,
  n: number,
): number {
  squaredSums(e5, e3, y0, y1, atol, rtol, n, 1);
  let s5 = SUMS[0],
    s3 = SUMS[1];
  // (e5 and e3 are not scaled by h: on a time scale of 1e-200 the rates, and so they, are
  // near 1e200, and their squares overflow where the norm itself is an ordinary number; the
  // run then failed saying the state overflowed. The sums are taken again with the terms
  // divided by the largest: err = |h| m^2 s5 / sqrt(n m^2 (s5 + 0.01 s3)).)
  let m = 1;
  if (s5 === Infinity || s3 === Infinity) {
    m = 0;
    for (let i = 0; i < n; i++) {
      const sc = atol + rtol * Math.max(Math.abs(y0[i]), Math.abs(y1[i]));
      m = Math.max(m, Math.abs(e5[i] / sc), Math.abs(e3[i] / sc));
    }
    // (an infinite term is an infinite error: the step is rejected as before)
    if (!(m < Infinity)) return m;
    squaredSums(e5, e3, y0, y1, atol, rtol, n, m);
    s5 = SUMS[0];
    s3 = SUMS[1];
  }
  let deno = s5 + 0.01 * s3;
  if (deno <= 0) deno = 1; // both estimates vanish: the step is exact to rounding
  return (absH * m * s5) / Math.sqrt(n * deno);
}

/** Σ (e5_i/sc_i/m)² and Σ (e3_i/sc_i/m)² into SUMS (divided twice: sc_i m may overflow). */
function squaredSums(
  e5: Float64Array,
  e3: Float64Array,
  y0: Float64Array,
  y1: Float64Array,
  atol: number,
  rtol: number,
  n: number,
  m: number,
): void {
  let s5 = 0;
  let s3 = 0;
  for (let i = 0; i < n; i++) {
    const sc = atol + rtol * Math.max(Math.abs(y0[i]), Math.abs(y1[i]));
    const q5 = e5[i] / sc / m;
    const q3 = e3[i] / sc / m;
    s5 += q5 * q5;
    s3 += q3 * q3;
  }
  SUMS[0] = s5;
  SUMS[1] = s3;
}

const SUMS = new Float64Array(2);
