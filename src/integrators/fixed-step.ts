import { NON_FINITE_SHRINK, stepEnd } from './controller.js';
import { allFinite } from './stepper-base.js';
import { StepperBase } from './stepper-base.js';
import type { Rhs, StepOutcome, Stepper, StepperOptions } from './stepper.js';

/**
 * What the fixed-step methods (rk4, euler) share: the step size, landing on tLimit, and the
 * retry with a smaller step when an attempt gives a non-finite state.
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
 */
export abstract class FixedStepper extends StepperBase implements Stepper {
  readonly adaptive = false;
  /** the fixed step magnitude */
  readonly hFixed: number;
  /** the state and derivative at the end of an attempt */
  protected readonly yNew: Float64Array;
  protected readonly fNew: Float64Array;

  constructor(n: number, f: Rhs, options: StepperOptions, name: string) {
    super(n, f);
    const h = Math.min(options.hFixed ?? Infinity, options.hMax);
    if (!(h > 0) || h === Infinity) {
      throw new RangeError(`${name} needs a positive finite step: hFixed=${options.hFixed}, hMax=${options.hMax}`);
    }
    this.hFixed = h;
    this.yNew = new Float64Array(n);
    this.fNew = new Float64Array(n);
  }

  abstract readonly order: number;

  /**
   * One attempt from (t0, y, f(t0, y) = dydt) to tNew = t0 + h: writes the new state into
   * yNew and f(tNew, yNew) into fNew; returns the number of f evaluations it made.
   */
  protected abstract attempt(t0: number, h: number, tNew: number): number;

  reset(t: number, y: ArrayLike<number>, _hInit?: number): void {
    this.restart(t, y);
  }

  step(tLimit: number): StepOutcome {
    if (!this.beginStep(tLimit)) return 'nonFinite';
    const t0 = this.t,
      dir = this.stepDir,
      dist = this.stepDist,
      hMin = this.stepHMin;
    const n = this.n;
    let absH = this.hFixed;
    for (;;) {
      // (below the resolution of t: the fixed step itself, or after attempts that overflowed)
      const tooSmall = absH === this.hFixed ? 'stepSizeUnderflow' : 'nonFinite';
      if (absH < hMin && absH < dist) return tooSmall;
      const tNew = stepEnd(t0, tLimit, dist, dir, absH, this.hFixed);
      const h = tNew - t0;
      if (h === 0) return tooSmall;
      this.stats.rhsEvaluations += this.attempt(t0, h, tNew);
      if (allFinite(this.yNew, n) && allFinite(this.fNew, n)) {
        this.accept(t0, tNew, h, this.yNew, this.fNew);
        return 'accepted';
      }
      this.stats.rejected++;
      absH = NON_FINITE_SHRINK * Math.abs(h);
    }
  }
}
