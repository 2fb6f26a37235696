import { lambdaEstimate } from './stiffness-test.js';
import { FixedStepper } from './fixed-step.js';
import type { Rhs, Stepper, StepperOptions } from './stepper.js';

/** where RK4's stability region meets the negative real axis (|R(z)| = 1 at z = -2.785) */
export const RK4_STABILITY_BORDER = 2.78;

/**
 * The classical 4th-order Runge–Kutta method with a fixed step (Hairer, Nørsett, Wanner,
 * *Solving ODEs I*, Sect. II.1, Table 1.2 right). Step size, landing on tLimit and the retry
 * after a non-finite attempt: see {@link FixedStepper}.
 *
 * Cost: 4 evaluations per attempt (stages 2, 3, 4 and f at the new point, which is the
 * FSAL first stage of the next step): rhsEvaluations = resets + 4·(steps + rejected).
 *
 * Dense output: the cubic Hermite interpolant through (tPrev, yPrev, f) and (t, y, f), no
 * extra evaluation; it is 3rd order locally, so the global error of the dense output is
 * O(h⁴) like that of the steps.
 */
export class Rk4Stepper extends FixedStepper {
  readonly method = 'rk4' as const;
  readonly order = 4;
  readonly stabilityBorder = RK4_STABILITY_BORDER;
  /**
   * Steps beyond the border of the stability region since resetStats, and the largest h·|λ|
   * among them (driver/fixed-step-stability.ts): Hairer's estimate h‖Δf‖/‖Δy‖ from the
   * fourth stage (y + h k3) and the step's end, which share t. A fixed step is the user's
   * choice and is taken whatever it is; beyond the border the errors grow by |R(hλ)| a step.
   */
  unstableSteps = 0;
  largestHLambda = 0;

  private readonly k2: Float64Array;
  private readonly k3: Float64Array;
  private readonly k4: Float64Array;
  private readonly ytmp: Float64Array;

  constructor(n: number, f: Rhs, options: StepperOptions) {
    super(n, f, options, 'rk4');
    this.k2 = new Float64Array(n);
    this.k3 = new Float64Array(n);
    this.k4 = new Float64Array(n);
    this.ytmp = new Float64Array(n);
  }

  protected attempt(t0: number, h: number, tNew: number): number {
    const n = this.n,
      f = this.f,
      y = this.y,
      k1 = this.dydt;
    const k2 = this.k2,
      k3 = this.k3,
      k4 = this.k4,
      ys = this.ytmp,
      y1 = this.yNew;
    const hh = 0.5 * h;
    for (let i = 0; i < n; i++) ys[i] = y[i] + hh * k1[i];
    f(t0 + hh, ys, k2);
    for (let i = 0; i < n; i++) ys[i] = y[i] + hh * k2[i];
    f(t0 + hh, ys, k3);
    for (let i = 0; i < n; i++) ys[i] = y[i] + h * k3[i];
    f(tNew, ys, k4);
    // the increment, then y + increment compensated (StepperBase.addIncrement)
    const h6 = h / 6;
    for (let i = 0; i < n; i++) y1[i] = h6 * (k1[i] + 2 * (k2[i] + k3[i]) + k4[i]);
    this.addIncrement(y1, y1);
    const f1 = this.fNew;
    f(tNew, y1, f1);
    // (the fourth stage's state, y + h k3, and the end share t: Hairer's estimate of h·|λ|)
    const hl = Math.abs(h) * lambdaEstimate(f1, k4, y1, ys, n);
    // Off the real axis the region ends nearer: at |z| = 2.62 at 122° (|R| up to 1.23 inside
    // |z| = 2.78). The mode's z = hλ from the same pair: Re λ the Rayleigh quotient of Δf on
    // Δy (exact for a normal block, damping plus rotation), |λ| as above (countGrowth).
    let dot = 0,
      den = 0;
    for (let i = 0; i < n; i++) {
      const dy = y1[i] - ys[i];
      dot += dy * (f1[i] - k4[i]);
      den += dy * dy;
    }
    if (den > 0) {
      const zr = Math.max(-hl, Math.min(hl, (h * dot) / den));
      this.countGrowth(zr, Math.sqrt(Math.max(0, hl * hl - zr * zr)));
    }
    if (hl > RK4_STABILITY_BORDER) {
      this.unstableSteps++;
      if (hl > this.largestHLambda) this.largestHLambda = hl;
    }
    return 4;
  }

  /** |R(z)|, R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24 (Horner, complex) */
  amplification(zr: number, zi: number): number {
    let re = 1,
      im = 0;
    for (let k = 4; k >= 1; k--) {
      // (re + i im := 1 + (z/k) (re + i im))
      const r = (zr * re - zi * im) / k;
      im = (zr * im + zi * re) / k;
      re = 1 + r;
    }
    return Math.hypot(re, im);
  }

  override resetStats(): void {
    super.resetStats();
    this.unstableSteps = 0;
    this.largestHLambda = 0;
  }

  interpolate(s: number, out: Float64Array): void {
    if (this.copyStepEnd(s, out)) return;
    const n = this.n,
      h = this.hLast,
      y0 = this.yPrev,
      y1 = this.y,
      f0 = this.fPrev,
      f1 = this.dydt;
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
