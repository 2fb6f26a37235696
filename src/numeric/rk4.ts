import { NON_FINITE_SHRINK, allFinite, minStepSize, stepEnd } from './controller.js';
import { StepperBase } from './stepper-base.js';
import type { Rhs, StepOutcome, Stepper, StepperOptions } from './stepper.js';

/**
 * The classical 4th-order Runge–Kutta method with a fixed step (Hairer, Nørsett, Wanner,
 * *Solving ODEs I*, Sect. II.1, Table 1.2 right).
 *
 * Step size: |h| = min(hFixed, hMax) (either may be absent; at least one must be finite).
 * Towards tLimit the step is shortened to land exactly on it. No step exceeds |h| (beyond a
 * relative 1e-8 that absorbs rounding in t), so instead of leaving a sliver a remaining
 * distance between |h| and 2|h| is covered by two equal halves (`stepEnd`).
 * `hInit` of `reset` is ignored.
 *
 * If an attempt yields a non-finite state or derivative it is retried with a step 10 times
 * smaller (counted in `stats.rejected`), down to the underflow limit, where the result is
 * `'nonFinite'`; the next call starts again from the fixed step.
 *
 * Cost: 4 evaluations per attempt (stages 2, 3, 4 and f at the new point, which is the
 * FSAL first stage of the next step): rhsEvaluations = resets + 4·(steps + rejected).
 *
 * Dense output: the cubic Hermite interpolant through (tPrev, yPrev, f) and (t, y, f), no
 * extra evaluation; it is 3rd order locally, so the global error of the dense output is
 * O(h⁴) like that of the steps.
 */
export class Rk4Stepper extends StepperBase implements Stepper {
  readonly method = 'rk4' as const;
  readonly order = 4;
  readonly adaptive = false;
  /** the fixed step magnitude */
  readonly hFixed: number;

  private readonly k2: Float64Array;
  private readonly k3: Float64Array;
  private readonly k4: Float64Array;
  private readonly ytmp: Float64Array;
  private readonly yNew: Float64Array;
  private readonly fNew: Float64Array;

  constructor(n: number, f: Rhs, options: StepperOptions) {
    super(n, f);
    const h = Math.min(options.hFixed ?? Infinity, options.hMax);
    if (!(h > 0) || h === Infinity) {
      throw new RangeError(`rk4 needs a positive finite step: hFixed=${options.hFixed}, hMax=${options.hMax}`);
    }
    this.hFixed = h;
    const mk = (): Float64Array => new Float64Array(n);
    this.k2 = mk();
    this.k3 = mk();
    this.k4 = mk();
    this.ytmp = mk();
    this.yNew = mk();
    this.fNew = mk();
  }

  reset(t: number, y: ArrayLike<number>, _hInit?: number): void {
    this.restart(t, y);
  }

  step(tLimit: number): StepOutcome {
    this.checkStep(tLimit);
    const t0 = this.t;
    if (!this.dydtFinite) return 'nonFinite';
    const dir = tLimit > t0 ? 1 : -1;
    const dist = Math.abs(tLimit - t0);
    const hMin = Math.max(minStepSize(t0), this.minStep);
    const n = this.n, f = this.f, y = this.y, k1 = this.dydt;
    const k2 = this.k2, k3 = this.k3, k4 = this.k4, ys = this.ytmp, y1 = this.yNew, k5 = this.fNew;
    let absH = this.hFixed;
    for (;;) {
      if (absH < hMin && absH < dist) return 'nonFinite';
      const tNew = stepEnd(t0, tLimit, dist, dir, absH, this.hFixed);
      const h = tNew - t0;
      if (h === 0) return 'nonFinite';
      const hh = 0.5 * h;
      for (let i = 0; i < n; i++) ys[i] = y[i] + hh * k1[i];
      f(t0 + hh, ys, k2);
      for (let i = 0; i < n; i++) ys[i] = y[i] + hh * k2[i];
      f(t0 + hh, ys, k3);
      for (let i = 0; i < n; i++) ys[i] = y[i] + h * k3[i];
      f(tNew, ys, k4);
      const h6 = h / 6;
      for (let i = 0; i < n; i++) y1[i] = y[i] + h6 * (k1[i] + 2 * (k2[i] + k3[i]) + k4[i]);
      f(tNew, y1, k5);
      this.stats.rhsEvaluations += 4;
      if (allFinite(y1, n) && allFinite(k5, n)) {
        this.yPrev.set(y);
        this.fPrev.set(k1);
        y.set(y1);
        k1.set(k5);
        this.tPrev = t0;
        this.t = tNew;
        this.hLast = h;
        this.stats.steps++;
        return 'accepted';
      }
      this.stats.rejected++;
      absH = NON_FINITE_SHRINK * Math.abs(h);
    }
  }

  interpolate(s: number, out: Float64Array): void {
    if (this.copyStepEnd(s, out)) return;
    const n = this.n, h = this.hLast, y0 = this.yPrev, y1 = this.y, f0 = this.fPrev, f1 = this.dydt;
    const theta = (s - this.tPrev) / h;
    const th1 = 1 - theta;
    for (let i = 0; i < n; i++) {
      const dy = y1[i] - y0[i];
      const bspl = h * f0[i] - dy;
      out[i] = y0[i] + theta * (dy + th1 * (bspl + theta * (dy - h * f1[i] - bspl)));
    }
  }

}

/** an RK4 stepper for dimension n; see {@link Rk4Stepper} */
export function createRk4(n: number, f: Rhs, options: StepperOptions): Stepper {
  return new Rk4Stepper(n, f, options);
}
