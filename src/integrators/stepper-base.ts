import { initialStep, stepEnd } from './controller.js';
import type { MethodName, Rhs, StepperStats } from './stepper.js';

/**
 * What every stepper family shares: the state of the last accepted step, the counters, the
 * restart after a state change (the cached derivative is always recomputed, as in Hairer's
 * DOPRI5 after an event) and the preconditions of `step`. Subclasses own their stages,
 * their step-size policy and their dense output.
 */
export abstract class StepperBase {
  abstract readonly method: MethodName;
  readonly n: number;
  t = 0;
  tPrev = 0;
  hLast = 0;
  minStep = 0;
  firstStepGrowth = 1e4;
  /**
   * The smallest first proposal the method can take (firstTry raises a smaller one to it):
   * implicit methods divide by h (γ/h in their matrices, the error estimate's d/h), which
   * overflows for a subnormal h; see IMPLICIT_MIN_PROPOSAL.
   */
  protected readonly minProposal: number = 0;
  readonly y: Float64Array;
  readonly yPrev: Float64Array;
  readonly dydt: Float64Array;
  readonly stats: StepperStats = { steps: 0, rejected: 0, rhsEvaluations: 0 };

  protected readonly f: Rhs;
  /** f(tPrev, yPrev): the first stage of the accepted step, kept for the dense output */
  protected readonly fPrev: Float64Array;
  protected started = false;
  /** whether f(t, y) is finite: if not, every attempt would start from the same NaN */
  protected dydtFinite = false;

  /**
   * Compensated summation of the steps' increments (Kahan; Hairer, Lubich, Wanner, *Geometric
   * Numerical Integration*, VIII.5): `comp` is what rounding took from y in the accepted
   * steps, `compNew` the same after the current attempt (accept makes it current). y + dy
   * rounds in every step, with the same sign where the steps repeat: a fixed step takes a
   * thousand steps and more, and an adaptive one restarts at each event with the same first
   * steps. A clock x' = 1 drifted by hundreds of ulps (x = t - 3 was -2.2e-14 at a tick at 3
   * after rk4's 333 steps of 0.009; x - 1000 was 4e-10 off at t = 1000 on radau5 with ticks
   * every 0.1), so a crossing that coincides with a tick in exact arithmetic fired as an
   * instant of its own, status ok with its actions in the other order. Compensated, y stays
   * within the rounding of one addition of its exact sum of increments. (Every stepper adds
   * its increments so; the increment itself must not round on its own where the steps
   * repeat: dop853 sums its stages as differences from k1, rodas takes the k-form where that
   * rounds less, see their comments.)
   */
  private readonly comp: Float64Array;
  private readonly compNew: Float64Array;

  constructor(n: number, f: Rhs) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`state dimension must be a positive integer, got ${n}`);
    this.n = n;
    this.f = f;
    this.y = new Float64Array(n);
    this.yPrev = new Float64Array(n);
    this.dydt = new Float64Array(n);
    this.fPrev = new Float64Array(n);
    this.comp = new Float64Array(n);
    this.compNew = new Float64Array(n);
  }

  /**
   * out = y + dy with the rounding of the accepted steps carried (compensated summation, see
   * `comp`); the attempt's own residue goes to compNew. out may be dy. A component that does
   * not move (dy = 0) stays where it is, its residue kept: a state at rest stays bit for bit.
   */
  protected addIncrement(dy: Float64Array, out: Float64Array): void {
    const n = this.n,
      y = this.y,
      c = this.comp,
      cNew = this.compNew;
    for (let i = 0; i < n; i++) {
      const yi = y[i];
      if (dy[i] === 0) {
        cNew[i] = c[i];
        out[i] = yi;
        continue;
      }
      const d = dy[i] + c[i];
      const s = yi + d;
      // TwoSum (Knuth): the exact rounding error of yi + d, whatever their magnitudes
      const bp = s - yi;
      const e = yi - (s - bp) + (d - bp);
      cNew[i] = e - e === 0 ? e : 0; // (none once s is not finite: the attempt fails)
      out[i] = s;
    }
  }

  /** (Re)starts at (t, y): copies y, evaluates f there (counted); no allocation. */
  protected restart(t: number, y: ArrayLike<number>): void {
    const n = this.n;
    if (y.length !== n) throw new RangeError(`reset: state has length ${y.length}, expected ${n}`);
    if (!Number.isFinite(t)) throw new RangeError(`reset: t must be finite, got ${t}`);
    const yy = this.y,
      c = this.comp;
    // a component restarted with the bits it had keeps its compensation (an event whose
    // actions leave it alone: a tick that writes a counter); one set anew has none
    for (let i = 0; i < n; i++) if (!(this.started && Object.is(y[i], yy[i]))) c[i] = 0;
    for (let i = 0; i < n; i++) yy[i] = y[i];
    this.f(t, yy, this.dydt);
    this.stats.rhsEvaluations++;
    this.dydtFinite = allFinite(this.dydt, n);
    this.t = t;
    this.tPrev = t;
    this.hLast = 0;
    this.yPrev.set(yy);
    this.fPrev.set(this.dydt);
    this.started = true;
  }

  /** set by beginStep: the direction towards tLimit, the distance to it, and the smallest step */
  protected stepDir = 1;
  protected stepDist = 0;
  protected stepHMin = 0;

  /**
   * The start of every `step(tLimit)`: its preconditions, then stepDir, stepDist and stepHMin
   * (the resolution of t, about 16 ulps, or minStep). False when f at the start is not finite:
   * every attempt would start from the same NaN.
   */
  protected beginStep(tLimit: number): boolean {
    this.checkStep(tLimit);
    const t0 = this.t;
    this.stepDir = tLimit > t0 ? 1 : -1;
    this.stepDist = Math.abs(tLimit - t0);
    this.stepHMin = Math.max(minStepSize(t0), this.minStep);
    return this.dydtFinite;
  }

  /**
   * The first step magnitude to try in `step`: the proposal carried over from the last step,
   * or, when there is none (NaN: after a reset without hInit), Hairer's initial-step heuristic
   * for a method of the given order (one evaluation of f, counted; wa, wb are work space);
   * within hMax. Call after beginStep.
   */
  protected firstTry(
    proposal: number,
    order: number,
    hMax: number,
    atol: number,
    rtol: number,
    wa: Float64Array,
    wb: Float64Array,
  ): number {
    let absH = proposal;
    if (!(absH > 0)) {
      absH = initialStep(this.f, this.t, this.y, this.dydt, this.stepDir, order, hMax, atol, rtol, this.n, wa, wb);
      this.stats.rhsEvaluations++;
    }
    // a proposal below the resolution of t (firstStep 1e-320, a subnormal) is the smallest
    // step there is: raised to it, not given up on before a single attempt
    if (absH < this.stepHMin) absH = this.stepHMin;
    if (absH < this.minProposal) absH = this.minProposal;
    return absH > hMax ? hMax : absH;
  }

  /**
   * The end of the next attempt of magnitude absH towards tLimit (controller.ts, stepEnd: it
   * lands on tLimit itself, or splits what is left evenly), or NaN when a step of absH is below
   * the resolution of t and does not reach tLimit: the caller then gives up with
   * 'stepSizeUnderflow' (or 'nonFinite' when its cuts were for values that were not finite).
   */
  protected attemptEnd(tLimit: number, absH: number, hMax: number): number {
    const dist = this.stepDist;
    if (absH < this.stepHMin && absH < dist) return Number.NaN;
    const tNew = stepEnd(this.t, tLimit, dist, this.stepDir, absH, hMax);
    return tNew === this.t ? Number.NaN : tNew;
  }

  /** The preconditions of `step(tLimit)` (see the Stepper contract). */
  protected checkStep(tLimit: number): void {
    if (!this.started) throw new Error(`${this.method}: call reset() before step()`);
    if (!(tLimit !== this.t) || Number.isNaN(tLimit)) {
      throw new RangeError(`${this.method}: step(tLimit) needs tLimit different from t = ${this.t}, got ${tLimit}`);
    }
  }

  /**
   * Dense output at the ends of the step (or before any step): the stored states bit for bit,
   * not a polynomial evaluated there. True when it wrote `out`.
   */
  protected copyStepEnd(s: number, out: Float64Array): boolean {
    if (s === this.t || this.hLast === 0) {
      out.set(this.y);
      return true;
    }
    if (s === this.tPrev) {
      out.set(this.yPrev);
      return true;
    }
    return false;
  }

  /**
   * Makes the attempt from (t0, y) to tNew = t0 + h, with state yNew and f(tNew, yNew) = fNew,
   * the accepted step: [tPrev, t] is then [t0, tNew].
   */
  protected accept(t0: number, tNew: number, h: number, yNew: Float64Array, fNew: Float64Array): void {
    this.yPrev.set(this.y);
    this.fPrev.set(this.dydt);
    this.y.set(yNew);
    this.dydt.set(fNew);
    this.comp.set(this.compNew);
    this.tPrev = t0;
    this.t = tNew;
    this.hLast = h;
    this.stats.steps++;
  }

  abstract interpolate(s: number, out: Float64Array): void;

  /** All components unless a method does better (see Stepper.interpolateSome). */
  interpolateSome(s: number, _idx: Int32Array, out: Float64Array): void {
    this.interpolate(s, out);
  }

  resetStats(): void {
    this.stats.steps = 0;
    this.stats.rejected = 0;
    this.stats.rhsEvaluations = 0;
  }
}

/** The options every adaptive stepper checks: the tolerances, and hMax. Throws a RangeError. */
export function checkTolerances(rtol: number, atol: number, hMax: number): void {
  if (!(rtol >= 0) || !(atol >= 0) || !(rtol > 0 || atol > 0)) {
    throw new RangeError(`tolerances must be non-negative and not both zero (rtol=${rtol}, atol=${atol})`);
  }
  if (!(hMax > 0)) throw new RangeError(`hMax must be positive (Infinity for no limit), got ${hMax}`);
}

/** the resolution of t: steps below this are step-size underflow (about 16 ulp of |t|) */
/** the smallest first proposal of radau5 and rodas: 1/h times their coefficients stays far from overflow (1e-306 works) */
export const IMPLICIT_MIN_PROPOSAL = 1e-300;

export function minStepSize(t: number): number {
  return 16 * Number.EPSILON * Math.max(Math.abs(t), 1e-300);
}

/** true iff a[0..n) are all finite */
export function allFinite(a: Float64Array, n: number): boolean {
  let chk = 0;
  for (let i = 0; i < n; i++) chk += a[i] * 0; // NaN as soon as one entry is ±Infinity or NaN
  return chk === 0;
}
