import { FixedStepper } from './fixed-step.js';
import type { Rhs, StepperOptions } from './stepper.js';

/** where Euler's stability region, |1 + z| <= 1, meets the negative real axis */
export const EULER_STABILITY_BORDER = 2;

/**
 * A difference of f below this many ulps of f's size is rounding, and a ratio of two such
 * differences says nothing (x' = 1: Df = 0, or some 1e-16 where f is summed)
 */
const ROUNDING_ULPS = 1024;

/** How far two consecutive estimates of h·|λ| may differ, relatively, and still be one mode's */
const STEADY = 0.25;

/** The relative residual of a fit of Df_n by Df_{n-1} and Df_{n-2} below which one mode (or a pair) made them */
const RECURRENCE = 0.1;

/**
 * h·|λ| of the mode that made r = Df_n from p = Df_{n-1} and q = Df_{n-2} (inner products):
 * one real mode makes r = μ p, a complex pair r = a p + b q with μ² = a μ + b, where μ = 1 + hλ
 * is Euler's factor; the largest |μ - 1| of the fit, or NaN where neither fits to RECURRENCE
 * (no one mode made them: a nilpotent chain's differences reach a new state at each step)
 */
function modeEstimate(
  pp: number,
  pq: number,
  qq: number,
  pr: number,
  qr: number,
  rr: number,
  pair: boolean,
  mode: Float64Array,
): number {
  // (mode: the factor μ itself as re, im, for countGrowth: a complex pair's, im > 0, where the
  // pair fits Df_n better than one real mode does; a slow rotation by 0.05 a step passes as
  // one real mode, sin^2 0.05 within RECURRENCE, and its |μ| > 1 was lost; else the real one)
  mode[0] = mode[1] = Number.NaN;
  if (!(rr > 0) || !(pp > 0)) return Number.NaN;
  const mu = pr / pp;
  const realResidual = Math.max(0, rr - mu * pr);
  const realFits = realResidual <= RECURRENCE * RECURRENCE * rr;
  if (realFits) {
    mode[0] = mu;
    mode[1] = 0;
  }
  if (!pair) return realFits ? Math.abs(mu - 1) : Number.NaN;
  const det = pp * qq - pq * pq;
  if (!(det > 1e-9 * pp * qq)) return realFits ? Math.abs(mu - 1) : Number.NaN;
  const a = (pr * qq - qr * pq) / det,
    b = (qr * pp - pr * pq) / det;
  const pairResidual = Math.max(0, rr - a * pr - b * qr);
  const pairFits = pairResidual <= RECURRENCE * RECURRENCE * rr;
  const disc = a * a + 4 * b;
  if (pairFits && disc < 0 && (!realFits || pairResidual < 0.5 * realResidual)) {
    mode[0] = a / 2;
    mode[1] = Math.sqrt(-disc) / 2;
  }
  if (realFits) return Math.abs(mu - 1);
  if (!pairFits) return Number.NaN;
  if (disc < 0) return Math.hypot(a / 2 - 1, Math.sqrt(-disc) / 2);
  const root = Math.sqrt(disc) / 2;
  return Math.max(Math.abs(a / 2 + root - 1), Math.abs(a / 2 - root - 1));
}

/**
 * The forward Euler method with a fixed step, y1 = y0 + h f(t0, y0): what HYBRSIM and many
 * hand-written simulators integrate with, here so that their numbers can be reproduced beside
 * a located solution. First order: halving the step halves the error. Step size, landing on
 * tLimit and the retry after a non-finite attempt: see {@link FixedStepper}.
 *
 * Cost: 1 evaluation per attempt (f at the new point, the next step's slope).
 *
 * Dense output: the straight line between (tPrev, yPrev) and (t, y), the method's own
 * solution between grid points; an event is located where that polyline crosses, as a
 * linear-interpolating event finder does.
 */
export class EulerStepper extends FixedStepper {
  readonly method = 'euler' as const;
  readonly order = 1;
  readonly stabilityBorder = EULER_STABILITY_BORDER;
  /**
   * Steps beyond the border of the stability region since resetStats, and the largest h·|λ|
   * among them (driver/fixed-step-stability.ts, as rk4's). Euler has no stage to compare its
   * end with, so h·|λ| is read from the differences of f over consecutive steps of one size,
   * with no extra evaluation: Df_n = f(t_{n+1}, y_{n+1}) - f(t_n, y_n) is h J f_n (plus h f_t),
   * so Df_n - Df_{n-1} = h J Df_{n-1} (plus h^2 f_tt), and ‖Df_n - Df_{n-1}‖/‖Df_{n-1}‖ is
   * exactly h·λ on y' = λy and 0 where f is affine in t. An unstable mode is multiplied by the
   * same 1 + hλ at every step; so a step counts only where that holds still: the estimate of the
   * step before beyond the border too and within STEADY of this one, and Df_n a combination of
   * Df_{n-1} and Df_{n-2} (one real mode, or a complex pair) to RECURRENCE. Estimates that do
   * not hold still are no instability: where f is quadratic in t it is 2h/(2t_{n-1} + h), 2
   * from t = 0 and falling; where f is t^5 it is 30, 5.8, 2.7 from t = 0; where the Jacobian is
   * nilpotent (x'''' = 24 from rest) it is h on two steps while the differences reach a new
   * state each step (a chain, no two-term recurrence), and below 2 after. Before: x' = -10x at
   * a step of 0.3 gave 1e30 with status ok and no word.
   */
  unstableSteps = 0;
  largestHLambda = 0;
  /** the last two accepted steps' Df, the step size and the last estimate (NaN: none since a restart) */
  private readonly dfPrev: Float64Array;
  private readonly dfPrev2: Float64Array;
  private readonly dfNew: Float64Array;
  private hPrev = Number.NaN;
  private hlPrev = Number.NaN;
  /** the mode's μ = 1 + hλ of this step's fit (modeEstimate), and the last step's excess growth (countGrowth) */
  private readonly mu = new Float64Array(2);
  private growthPrev = 0;
  /** how many of dfPrev, dfPrev2 hold differences of steps of size hPrev since a restart */
  private sameSteps = 0;

  constructor(n: number, f: Rhs, options: StepperOptions) {
    super(n, f, options, 'euler');
    this.dfPrev = new Float64Array(n);
    this.dfPrev2 = new Float64Array(n);
    this.dfNew = new Float64Array(n);
  }

  override reset(t: number, y: ArrayLike<number>, hInit?: number): void {
    super.reset(t, y, hInit);
    // (an instant's actions changed the state: differences across it are no flow's)
    this.hPrev = Number.NaN;
    this.hlPrev = Number.NaN;
    this.growthPrev = 0;
    this.sameSteps = 0;
  }

  /** |1 + z|: Euler's factor */
  amplification(zr: number, zi: number): number {
    return Math.hypot(1 + zr, zi);
  }

  override resetStats(): void {
    super.resetStats();
    this.unstableSteps = 0;
    this.largestHLambda = 0;
  }

  /** After an accepted step of size h from f0 to f1: the estimate of h·|λ| (see unstableSteps). */
  private noteStep(h: number, f0: Float64Array, f1: Float64Array): void {
    const n = this.n,
      df = this.dfNew,
      p = this.dfPrev,
      q = this.dfPrev2;
    // (the same step size: landing on a limit or a retry after overflow takes shorter ones)
    if (!(Math.abs(h - this.hPrev) <= 1e-8 * Math.abs(h))) this.sameSteps = 0;
    let size = 0;
    let pp = 0,
      pq = 0,
      qq = 0,
      pr = 0,
      qr = 0,
      rr = 0;
    for (let i = 0; i < n; i++) {
      const r = (df[i] = f1[i] - f0[i]);
      pp += p[i] * p[i];
      pq += p[i] * q[i];
      qq += q[i] * q[i];
      pr += p[i] * r;
      qr += q[i] * r;
      rr += r * r;
      size = Math.max(size, Math.abs(f0[i]), Math.abs(f1[i]));
    }
    // (a difference at the rounding of f says nothing: x' = 1, Df = 0 or 1e-16)
    let hl = Number.NaN;
    // (a pair needs Df_{n-2} of the same step size too)
    if (this.sameSteps >= 1 && Math.sqrt(pp) > ROUNDING_ULPS * Number.EPSILON * size * Math.sqrt(n))
      hl = modeEstimate(pp, pq, qq, pr, qr, rr, this.sameSteps >= 2, this.mu);
    if (
      hl > EULER_STABILITY_BORDER &&
      this.hlPrev > EULER_STABILITY_BORDER &&
      Math.abs(hl - this.hlPrev) <= STEADY * Math.max(hl, this.hlPrev)
    ) {
      const steady = Math.min(hl, this.hlPrev);
      this.unstableSteps++;
      if (steady > this.largestHLambda) this.largestHLambda = steady;
    }
    // Off the real axis the border is no distance: |1 + z| > 1 wherever |z|^2 > -2 Re z, so
    // a lightly damped oscillation grows at any h·|λ| above 2 |Re λ|/|λ|. Counted as the real
    // border's steps are: where the fit held still over two steps (growth within STEADY).
    let grown = 0;
    if (!Number.isNaN(this.mu[0])) {
      const g = Math.log(this.amplification(this.mu[0] - 1, this.mu[1])) - Math.max(0, this.mu[0] - 1);
      if (g > 0 && this.growthPrev > 0 && Math.abs(g - this.growthPrev) <= STEADY * Math.max(g, this.growthPrev))
        this.countGrowth(this.mu[0] - 1, this.mu[1]);
      grown = g;
    }
    this.growthPrev = grown;
    q.set(p);
    p.set(df);
    this.hPrev = h;
    this.hlPrev = hl;
    this.sameSteps = Math.min(this.sameSteps + 1, 2);
  }

  protected attempt(t0: number, h: number, tNew: number): number {
    const n = this.n,
      k1 = this.dydt,
      y1 = this.yNew;
    // the increment, then y + increment compensated (StepperBase.addIncrement)
    for (let i = 0; i < n; i++) y1[i] = h * k1[i];
    this.addIncrement(y1, y1);
    this.f(tNew, y1, this.fNew);
    return 1;
  }

  protected override accept(t0: number, tNew: number, h: number, yNew: Float64Array, fNew: Float64Array): void {
    // (dydt is still f(t0, y0) here: the step's Df before accept moves on)
    this.noteStep(h, this.dydt, fNew);
    super.accept(t0, tNew, h, yNew, fNew);
  }

  interpolate(s: number, out: Float64Array): void {
    if (this.copyStepEnd(s, out)) return;
    const n = this.n,
      y0 = this.yPrev,
      y1 = this.y;
    const theta = (s - this.tPrev) / this.hLast;
    for (let i = 0; i < n; i++) out[i] = y0[i] + theta * (y1[i] - y0[i]);
  }
}
