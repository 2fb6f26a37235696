import { StepperBase, allFinite } from './stepper-base.js';

export { allFinite };
import type { Rhs, StepOutcome } from './stepper.js';

/**
 * Step-size control of Hairer's DOPRI5 and DOP853 codes (Hairer, Nørsett, Wanner, *Solving
 * ODEs I*, Sect. II.4 "Automatic step size control" and the PI/Lund stabilisation of
 * Sect. IV.2 as used in the codes).
 *
 * Error norm: err = sqrt((1/n) Σ (err_i / sc_i)²), sc_i = atol + rtol·max(|y0_i|, |y1_i|);
 * a step is accepted iff err ≤ 1.
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
  let s5 = 0;
  let s3 = 0;
  for (let i = 0; i < n; i++) {
    const sc = atol + rtol * Math.max(Math.abs(y0[i]), Math.abs(y1[i]));
    const q5 = e5[i] / sc;
    const q3 = e3[i] / sc;
    s5 += q5 * q5;
    s3 += q3 * q3;
  }
  let deno = s5 + 0.01 * s3;
  if (deno <= 0) deno = 1; // both estimates vanish: the step is exact to rounding
  return (absH * s5) / Math.sqrt(n * deno);
}

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

export { minStepSize } from './stepper-base.js';

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

/**
 * Common driver of the embedded Runge–Kutta pairs (DOPRI5, DOP853): the accept/reject loop,
 * landing on tLimit, underflow and non-finite handling, FSAL bookkeeping and lazy dense
 * output. A subclass allocates its stage arrays in its constructor and implements one
 * attempt, the post-acceptance work and the dense output.
 *
 * Bookkeeping of one accepted step: `yPrev ← y`, `fPrev ← dydt`, `y ← yNew`, `dydt ← fNew`
 * (copies: the public arrays keep their identity for the whole life of the stepper).
 *
 * Behaviour the event driver relies on (shared by rk4):
 * - `step(tLimit)` throws a RangeError if tLimit === t or is NaN, and an Error before the
 *   first `reset`. It returns `'nonFinite'` at once when f(t, y) itself is not finite.
 * - The proposal for the next step survives a step that was cut short by tLimit (an event
 *   time does not shrink the step size); `reset` forgets it unless `hInit` is given.
 * - After `reset`, hLast = 0 and `interpolate` returns y for any s.
 * - `interpolate(s)` copies `yPrev`/`y` bit-for-bit at s = tPrev / s = t; outside
 *   [tPrev, t] it extrapolates the polynomial (no check, no error).
 * - The dense-output coefficients are computed on the first `interpolate` strictly inside
 *   the step (DOP853 then calls f three times, with the same f as the step), never after.
 */
export abstract class EmbeddedRkStepper extends StepperBase {
  abstract override readonly method: 'dopri5' | 'dop853';
  abstract readonly order: number;
  readonly adaptive = true;

  protected readonly rtol: number;
  protected readonly atol: number;
  protected readonly hMax: number;
  protected readonly ctrl: StepSizeController;
  /** candidate state at the end of the attempt */
  protected readonly yNew: Float64Array;
  /** f(tNew, yNew) once known */
  protected readonly fNew: Float64Array;
  /** order used by the initial-step heuristic */
  protected abstract readonly hinitOrder: number;
  /** work arrays the initial-step heuristic may overwrite (stage arrays) */
  protected abstract readonly scratchA: Float64Array;
  protected abstract readonly scratchB: Float64Array;

  /** next step magnitude to try; NaN: compute with `initialStep` on the next step */
  private hAbsNext = Number.NaN;
  private denseReady = false;

  constructor(n: number, f: Rhs, rtol: number, atol: number, hMax: number, control: ControllerParameters) {
    super(n, f);
    if (!(rtol >= 0) || !(atol >= 0) || !(rtol > 0 || atol > 0)) {
      throw new RangeError(`tolerances must be non-negative and not both zero (rtol=${rtol}, atol=${atol})`);
    }
    if (!(hMax > 0)) throw new RangeError(`hMax must be positive (Infinity for no limit), got ${hMax}`);
    this.rtol = rtol;
    this.atol = atol;
    this.hMax = hMax;
    this.ctrl = new StepSizeController(control);
    this.yNew = new Float64Array(n);
    this.fNew = new Float64Array(n);
  }

  /**
   * One attempt of size h = tNew − t0 from (t, y, dydt): fills `yNew` (and `fNew` if the
   * method needs it for its estimate), counts its evaluations, and returns the error norm
   * (≤ 1: acceptable), or NaN when the attempt produced a non-finite value.
   */
  protected abstract attempt(t0: number, h: number, tNew: number): number;
  /** after an acceptable attempt: make `fNew` = f(tNew, yNew); false if it is not finite */
  protected abstract finish(tNew: number): boolean;
  /** compute the dense-output coefficients of the last accepted step (once per step) */
  protected abstract prepareDense(): void;
  /** write the dense output at θ = (s − tPrev)/hLast */
  protected abstract evalDense(theta: number, out: Float64Array): void;

  reset(t: number, y: ArrayLike<number>, hInit?: number): void {
    this.restart(t, y);
    this.hAbsNext = hInit !== undefined && Number.isFinite(hInit) && hInit !== 0 ? Math.abs(hInit) : Number.NaN;
    this.ctrl.reset();
    this.denseReady = false;
  }

  step(tLimit: number): StepOutcome {
    if (!this.beginStep(tLimit)) return 'nonFinite';
    const t0 = this.t,
      dir = this.stepDir,
      dist = this.stepDist,
      hMin = this.stepHMin;
    const hMax = this.hMax;
    let absH = this.hAbsNext;
    if (!(absH > 0)) {
      absH = initialStep(
        this.f,
        t0,
        this.y,
        this.dydt,
        dir,
        this.hinitOrder,
        hMax,
        this.atol,
        this.rtol,
        this.n,
        this.scratchA,
        this.scratchB,
      );
      this.stats.rhsEvaluations++;
    }
    if (absH > hMax) absH = hMax;
    let afterRejection = false;
    let nonFinite = false;
    for (;;) {
      if (absH < hMin && absH < dist) return nonFinite ? 'nonFinite' : 'stepSizeUnderflow';
      const tNew = stepEnd(t0, tLimit, dist, dir, absH, hMax);
      const h = tNew - t0; // the step actually taken, so that tPrev + hLast is t
      if (h === 0) return nonFinite ? 'nonFinite' : 'stepSizeUnderflow';
      const hAbs = Math.abs(h);
      const err = this.attempt(t0, h, tNew);
      let bad = !(err < Infinity);
      if (err <= 1) {
        if (this.finish(tNew)) {
          const ratio = this.ctrl.accepted(err, afterRejection, this.firstStepGrowth);
          let next = hAbs * ratio;
          // a step cut short by tLimit says nothing against the size that was proposed
          if (hAbs < absH && ratio >= 1 && next < absH) next = absH;
          this.hAbsNext = next < hMax ? next : hMax;
          this.commit(t0, tNew, h);
          return 'accepted';
        }
        bad = true;
      }
      this.stats.rejected++;
      afterRejection = true;
      nonFinite = bad;
      absH = bad ? NON_FINITE_SHRINK * hAbs : hAbs * this.ctrl.rejected(err);
    }
  }

  private commit(t0: number, tNew: number, h: number): void {
    this.accept(t0, tNew, h, this.yNew, this.fNew);
    this.denseReady = false;
    this.stepId++;
  }

  /** counts accepted steps, so that coefficients prepared per component know their step */
  protected stepId = 0;

  /**
   * Prepares the dense output of the components in idx only, if the method can (true), as
   * DOPRI5 can from the stages it kept; DOP853 needs three more stages of the whole state.
   */
  protected prepareDenseSome(_idx: Int32Array): boolean {
    return false;
  }

  interpolate(s: number, out: Float64Array): void {
    if (this.copyStepEnd(s, out)) return;
    if (!this.denseReady) {
      this.prepareDense();
      this.denseReady = true;
    }
    this.evalDense((s - this.tPrev) / this.hLast, out);
  }

  override interpolateSome(s: number, idx: Int32Array, out: Float64Array): void {
    if (s === this.t || this.hLast === 0) {
      for (let j = 0; j < idx.length; j++) out[idx[j]] = this.y[idx[j]];
      return;
    }
    if (s === this.tPrev) {
      for (let j = 0; j < idx.length; j++) out[idx[j]] = this.yPrev[idx[j]];
      return;
    }
    if (!this.denseReady && !this.prepareDenseSome(idx)) {
      this.prepareDense();
      this.denseReady = true;
    }
    this.evalDenseSome((s - this.tPrev) / this.hLast, idx, out);
  }

  /** evalDense for the components in idx only */
  protected abstract evalDenseSome(theta: number, idx: Int32Array, out: Float64Array): void;
}
