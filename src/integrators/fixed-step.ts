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
   * Steps whose mode z = hλ lay outside the method's stability region off the real axis
   * (countGrowth): |R(z)| > 1 where the mode itself does not grow as fast (|R(z)| beyond
   * max(1, e^Re z)). A lightly damped oscillation (x'' = -x - 0.01 x', euler at a step of
   * 0.05: z = -0.00025 ± 0.05i, |1 + z| = 1.00122) or a damped one at 123° (rk4 at |z| = 2.7,
   * inside the real axis' border 2.78: |R| = 1.2) grew a step at a time, status ok and no
   * word, since only h·|λ| against the real border was judged. `spuriousGrowth`: the sum over
   * them of ln |R(z)| - max(0, Re z), the log of what the step alone multiplied the mode by;
   * `growthMode`: the z of the step that grew most, and its |R(z)|.
   */
  growthSteps = 0;
  spuriousGrowth = 0;
  readonly growthMode = new Float64Array(3);

  /** |R(z)| of one step on y' = λy, z = hλ = zr + i zi: the method's amplification factor */
  abstract amplification(zr: number, zi: number): number;

  override resetStats(): void {
    super.resetStats();
    this.growthSteps = 0;
    this.spuriousGrowth = 0;
    this.growthMode.fill(0);
  }

  /** A step whose mode was estimated as z = zr + i zi (see growthSteps); returns its excess growth (0: none). */
  protected countGrowth(zr: number, zi: number): number {
    if (!Number.isFinite(zr) || !Number.isFinite(zi)) return 0;
    const r = this.amplification(zr, zi);
    const g = Math.log(r) - Math.max(0, zr);
    if (!(r > 1 && g > 0)) return 0;
    this.growthSteps++;
    this.spuriousGrowth += g;
    if (r > this.growthMode[2]) {
      this.growthMode[0] = zr;
      this.growthMode[1] = Math.abs(zi);
      this.growthMode[2] = r;
    }
    return g;
  }

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
