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
  /**
   * Compensated summation of the steps' increments (Kahan; Hairer, Lubich, Wanner, *Geometric
   * Numerical Integration*, VIII.5): `comp` is what rounding took from y in the accepted
   * steps, `compNew` the same after the attempt. A fixed step takes a thousand steps and more
   * (the default is a thousandth of the range), and y + h f rounds in each: with the same h
   * the residue has the same sign each time, so a clock x' = 1 drifted by hundreds of ulps
   * (x = t - 3 was -2.2e-14 at the tick at t = 3 after 333 steps of 0.009) and a crossing
   * that coincides with a tick in exact arithmetic was found as a separate instant after it,
   * status ok with the other order of their actions. Compensated, y stays within the
   * rounding of one addition of its exact sum of increments.
   */
  private readonly comp: Float64Array;
  private readonly compNew: Float64Array;

  constructor(n: number, f: Rhs, options: StepperOptions, name: string) {
    super(n, f);
    const h = Math.min(options.hFixed ?? Infinity, options.hMax);
    if (!(h > 0) || h === Infinity) {
      throw new RangeError(`${name} needs a positive finite step: hFixed=${options.hFixed}, hMax=${options.hMax}`);
    }
    this.hFixed = h;
    this.yNew = new Float64Array(n);
    this.fNew = new Float64Array(n);
    this.comp = new Float64Array(n);
    this.compNew = new Float64Array(n);
  }

  /**
   * yNew = y + dy, with the rounding of earlier steps carried (compensated summation); the
   * attempt's own compensation goes to compNew, which an accepted step makes current. dy
   * may be yNew itself.
   */
  protected addIncrement(dy: Float64Array): void {
    const n = this.n,
      y = this.y,
      c = this.comp,
      cNew = this.compNew,
      y1 = this.yNew;
    for (let i = 0; i < n; i++) {
      const d = dy[i] + c[i];
      const s = y[i] + d;
      // exact when |d| is at most |y| (the usual case); otherwise s - y[i] is, and the
      // residue below is the rounding of d, as small
      cNew[i] = Number.isFinite(s) ? d - (s - y[i]) : 0;
      y1[i] = s;
    }
  }

  abstract readonly order: number;

  /**
   * One attempt from (t0, y, f(t0, y) = dydt) to tNew = t0 + h: writes the new state into
   * yNew and f(tNew, yNew) into fNew; returns the number of f evaluations it made.
   */
  protected abstract attempt(t0: number, h: number, tNew: number): number;

  reset(t: number, y: ArrayLike<number>, _hInit?: number): void {
    // a component restarted with the bits it had keeps its compensation (an event whose
    // actions leave it alone: a tick that writes a counter); one set anew has none
    const n = this.n,
      c = this.comp,
      yy = this.y;
    const keep = this.started && y.length === n;
    for (let i = 0; i < n; i++) if (!(keep && Object.is(y[i], yy[i]))) c[i] = 0;
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
        this.comp.set(this.compNew);
        return 'accepted';
      }
      this.stats.rejected++;
      absH = NON_FINITE_SHRINK * Math.abs(h);
    }
  }
}
