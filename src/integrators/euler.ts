import { FixedStepper } from './fixed-step.js';
import type { Rhs, StepperOptions } from './stepper.js';

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

  constructor(n: number, f: Rhs, options: StepperOptions) {
    super(n, f, options, 'euler');
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

  interpolate(s: number, out: Float64Array): void {
    if (this.copyStepEnd(s, out)) return;
    const n = this.n,
      y0 = this.yPrev,
      y1 = this.y;
    const theta = (s - this.tPrev) / this.hLast;
    for (let i = 0; i < n; i++) out[i] = y0[i] + theta * (y1[i] - y0[i]);
  }
}
