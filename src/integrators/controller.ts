/**
 * The step-size controller of Hairer's DOPRI5 and DOP853 codes (Hairer, Nørsett, Wanner,
 * *Solving ODEs I*, Sect. II.4 "Automatic step size control" and the PI/Lund stabilisation of
 * Sect. IV.2 as used in the codes): the ratio h_new/h from the error norm (error-norms.ts), the
 * starting step, and where the next attempt ends (landing on tLimit without slivers).
 */
import type { Rhs } from './stepper.js';

export interface ControllerParameters {
  /** safety factor (Hairer's `safe`), 0.9 */
  readonly safety: number;
  /** smallest factor h_new/h (Hairer's `fac1`) */
  readonly facMin: number;
  /** largest factor h_new/h (Hairer's `fac2`) */
  readonly facMax: number;
  /** PI (Lund) stabilisation exponent; 0 disables it */
  readonly beta: number;
  /** q with err ~ C·h^q: 5 for DOPRI5's 4th-order estimate, 8 for DOP853's */
  readonly errorOrder: number;
}

export const DOPRI5_CONTROL: ControllerParameters = Object.freeze({
  safety: 0.9,
  facMin: 0.2,
  facMax: 10,
  beta: 0.04,
  errorOrder: 5,
});

export const DOP853_CONTROL: ControllerParameters = Object.freeze({
  safety: 0.9,
  facMin: 0.333,
  facMax: 6,
  beta: 0,
  errorOrder: 8,
});

/**
 * The default growth limit after the first accepted step of a (re)start, as CVODE's
 * ETAMX1 = 1e4: the first step is a guess (Hairer's heuristic, or the step in use before an
 * event), often far too small, and the error formula says by how much. It only binds where
 * the error is tiny: a motion the method integrates exactly (uniform or ballistic motion
 * between collisions), whose steps would otherwise grow tenfold per step, from a restart at
 * every collision to the end of a long range (W3: 35 % of its steps). Later steps keep
 * facMax. (The Simulator lowers it to facMax when it watches a function that could hide a
 * crossing inside one long step: see Stepper.firstStepGrowth.)
 */
export const FIRST_STEP_FAC_MAX = 1e4;

/**
 * Hairer's step-size controller with memory of the last accepted error (PI control with
 * exponents α = 1/q − 0.75β (DOPRI5) or 1/q − 0.2β (DOP853), β as given):
 * fac = err^α / errOld^β, clamped to [facMin, facMax] after the safety factor.
 * No allocation; one `Math.pow` (two with β ≠ 0) per call.
 */
export class StepSizeController {
  readonly safety: number;
  readonly facMin: number;
  readonly facMax: number;
  readonly beta: number;
  private readonly expo1: number;
  private errOld = 1e-4;
  /** no step accepted since the last reset (see FIRST_STEP_FAC_MAX) */
  private firstStep = true;

  constructor(p: ControllerParameters) {
    this.safety = p.safety;
    this.facMin = p.facMin;
    this.facMax = p.facMax;
    this.beta = p.beta;
    // Hairer: expo1 = 0.2 − 0.75β in DOPRI5 (q = 5), 1/8 − 0.2β in DOP853 (q = 8)
    this.expo1 = 1 / p.errorOrder - (p.errorOrder === 5 ? 0.75 : 0.2) * p.beta;
  }

  /** forget the error history (after a reset of the state) */
  reset(): void {
    this.errOld = 1e-4;
    this.firstStep = true;
  }

  /**
   * The ratio h_new/h after an accepted step with error norm `err` ≤ 1. When the previous
   * attempt of the same step was rejected the ratio is capped at 1 (Hairer), so the
   * controller does not oscillate. Updates the error memory.
   */
  accepted(err: number, afterRejection: boolean, firstStepFacMax = FIRST_STEP_FAC_MAX): number {
    let fac = Math.pow(err, this.expo1);
    if (this.beta !== 0) fac /= Math.pow(this.errOld, this.beta);
    let ratio = this.safety / fac; // fac = 0 (err = 0) gives Infinity, clamped below
    const facMax = this.firstStep ? Math.max(firstStepFacMax, this.facMax) : this.facMax;
    this.firstStep = false;
    if (ratio > facMax) ratio = facMax;
    else if (ratio < this.facMin) ratio = this.facMin;
    this.errOld = Math.max(err, 1e-4);
    if (afterRejection && ratio > 1) ratio = 1;
    return ratio;
  }

  /** the ratio h_new/h (< 1) after a rejected step with error norm `err` > 1 */
  rejected(err: number): number {
    const ratio = this.safety / Math.pow(err, this.expo1);
    return ratio < this.facMin ? this.facMin : ratio;
  }
}

/**
 * Initial step magnitude by Hairer's `HINIT` (Solving ODEs I, Sect. II.4, "Starting step
 * size"), with RMS norms: h₀ = 0.01·‖y₀‖/‖f₀‖ (1e-6 if either is tiny), one explicit Euler
 * step to estimate ‖y''‖, then h₁ = (0.01/max(‖f₀‖, ‖y''‖))^(1/order) and
 * h = min(100·h₀, h₁, hMax).
 *
 * Calls f exactly once (the caller counts it). `y0`, `f0` are read (length n); `ytmp` and
 * `f1` (length ≥ n) are overwritten as work space. `direction` is ±1. Returns |h| > 0.
 */
export function initialStep(
  f: Rhs,
  t0: number,
  y0: Float64Array,
  f0: Float64Array,
  direction: number,
  order: number,
  hMax: number,
  atol: number,
  rtol: number,
  n: number,
  ytmp: Float64Array,
  f1: Float64Array,
): number {
  let dnf = 0;
  let dny = 0;
  for (let i = 0; i < n; i++) {
    const sc = atol + rtol * Math.abs(y0[i]);
    const a = f0[i] / sc;
    const b = y0[i] / sc;
    dnf += a * a;
    dny += b * b;
  }
  dnf /= n;
  dny /= n;
  let h = dnf <= 1e-10 || dny <= 1e-10 ? 1e-6 : Math.sqrt(dny / dnf) * 0.01;
  if (!(h > 0) || h === Infinity) h = 1e-6; // NaN or overflow in the norms
  if (h > hMax) h = hMax;
  const hs = direction * h;
  for (let i = 0; i < n; i++) ytmp[i] = y0[i] + hs * f0[i];
  f(t0 + hs, ytmp, f1);
  let der2 = 0;
  for (let i = 0; i < n; i++) {
    const sc = atol + rtol * Math.abs(y0[i]);
    const q = (f1[i] - f0[i]) / sc;
    der2 += q * q;
  }
  der2 = Math.sqrt(der2 / n) / h;
  const der12 = Math.max(Math.abs(der2), Math.sqrt(dnf));
  let h1 = der12 <= 1e-15 ? Math.max(1e-6, h * 1e-3) : Math.pow(0.01 / der12, 1 / order);
  if (!(h1 > 0)) h1 = h * 1e-3; // f1 non-finite: be cautious, the step will shrink further
  let hNew = Math.min(100 * h, h1);
  if (hNew > hMax) hNew = hMax;
  return hNew;
}

/** when the remaining distance is at most this multiple of the step, stretch the step to land */
export const STRETCH = 1.01;

/**
 * Relative slack by which a landing step may exceed the hard bound on |h| (hMax, or rk4's
 * fixed step): rounding in t accumulated over many steps must not turn the last step into a
 * split pair.
 */
export const BOUND_SLACK = 1e-8;

/**
 * The end of the next attempt from t0 towards tLimit (dist = |tLimit − t0| > 0, dir its
 * sign) for a step magnitude `absH`, avoiding slivers: if dist ≤ STRETCH·absH and
 * dist ≤ hBound·(1 + BOUND_SLACK) the step lands on tLimit itself (the returned value is
 * tLimit, not a sum); else if dist < 2·absH it is split evenly (two steps of half the
 * distance instead of a full step and a sliver); otherwise t0 ± absH.
 */
export function stepEnd(t0: number, tLimit: number, dist: number, dir: number, absH: number, hBound: number): number {
  if (dist <= STRETCH * absH && dist <= hBound * (1 + BOUND_SLACK)) return tLimit;
  if (dist < 2 * absH) return t0 + dir * (0.5 * dist);
  return t0 + dir * absH;
}

/** factor applied to h after an attempt produced NaN or infinity */
export const NON_FINITE_SHRINK = 0.1;
