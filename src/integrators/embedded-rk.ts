import { StiffnessTest } from './stiffness-test.js';
import { NON_FINITE_SHRINK, StepSizeController, type ControllerParameters } from './controller.js';
import { StepperBase, checkTolerances } from './stepper-base.js';
import type { Rhs, StepOutcome, StepperOptions } from './stepper.js';

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
  /** Hairer's stiffness test (stiffness-test.ts), at the border of the method's stability region */
  protected readonly stiffness: StiffnessTest;

  constructor(
    n: number,
    f: Rhs,
    rtol: number,
    atol: number,
    hMax: number,
    control: ControllerParameters,
    stabilityBorder: number,
  ) {
    super(n, f);
    this.stiffness = new StiffnessTest(stabilityBorder);
    checkTolerances(rtol, atol, hMax);
    this.rtol = rtol;
    this.atol = atol;
    this.hMax = hMax;
    this.ctrl = new StepSizeController(control);
    this.yNew = new Float64Array(n);
    this.fNew = new Float64Array(n);
  }

  /** the problem looks stiff (see StiffnessTest) */
  get looksStiff(): boolean {
    return this.stiffness.looksStiff;
  }
  /** the last estimate of h·|λ| (NaN before the first accepted step) */
  get hLambda(): number {
    return this.stiffness.hLambda;
  }
  /** the last accepted step was held by stability, not accuracy (StiffnessTest.heldAtBorder) */
  get heldAtBorder(): boolean {
    return this.stiffness.heldAtBorder;
  }

  /** a one-state copy of this method on y' = -y (denseSpread), made on first use */
  private probe: EmbeddedRkStepper | null = null;
  private readonly probeOut = new Float64Array(1);

  /**
   * How far this method's dense output carries a deviation of the stiff mode inside a step
   * of the last step's h·|λ|: the largest |u(θ)| over the step of u' = -u, u(0) = 1, with
   * h = h·|λ| (at least 1: the deviation itself at the step's start). Inside the stability
   * region the interpolant stays within the deviation; held at the border it does not: 1.07
   * for DOPRI5 at 3.3, but 10 for DOP853 at 6.0 and 32 at 6.5, where the controller holds it
   * (6.2 to 6.8). Over such a step a state off the slow solution by atol swings by that many
   * times atol inside (y' = -1e6 (y - x), x' = -1e-4, x(0) = y(0) = 1e-8: DOP853's dense output
   * dipped 4e-9 below zero where y is 6e-9 and its ends within 1e-9 of that, and 11 falls were
   * counted where there is one). Computed, not tabulated: one step of a one-state copy.
   */
  denseSpread(): number {
    const z = this.stiffness.hLambda;
    if (!(z > 1)) return 1;
    if (this.probe === null) {
      const make = this.constructor as new (n: number, f: Rhs, o: StepperOptions) => EmbeddedRkStepper;
      this.probe = new make(
        1,
        (_t, y, d) => {
          d[0] = -y[0];
        },
        // (tolerances that accept any finite step: the step is the one asked for)
        { rtol: 1e300, atol: 1e300, hMax: Infinity },
      );
    }
    const p = this.probe,
      out = this.probeOut;
    p.reset(0, [1], z);
    if (p.step(z) !== 'accepted' || p.t !== z) return Number.POSITIVE_INFINITY;
    let spread = 1;
    for (let i = 1; i < 64; i++) {
      p.interpolate((i / 64) * z, out);
      spread = Math.max(spread, Math.abs(out[0]));
    }
    return Math.max(spread, Math.abs(p.y[0]));
  }

  override resetStats(): void {
    super.resetStats();
    this.stiffness.reset();
  }

  /**
   * One attempt of size h = tNew − t0 from (t, y, dydt): fills `yNew` (and `fNew` if the
   * method needs it for its estimate), counts its evaluations, and returns the error norm
   * (≤ 1: acceptable), or NaN when the attempt produced a non-finite value.
   */
  protected abstract attempt(t0: number, h: number, tNew: number): number;
  /** after an acceptable attempt (error norm err): make `fNew` = f(tNew, yNew); false if it is not finite */
  protected abstract finish(tNew: number, err: number): boolean;
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
      hMax = this.hMax;
    let absH = this.firstTry(this.hAbsNext, this.hinitOrder, hMax, this.atol, this.rtol, this.scratchA, this.scratchB);
    let afterRejection = false;
    let nonFinite = false;
    for (;;) {
      const tNew = this.attemptEnd(tLimit, absH, hMax);
      if (tNew !== tNew) return nonFinite ? 'nonFinite' : 'stepSizeUnderflow';
      const h = tNew - t0; // the step actually taken, so that tPrev + hLast is t
      const hAbs = Math.abs(h);
      const err = this.attempt(t0, h, tNew);
      let bad = !(err < Infinity);
      if (err <= 1) {
        if (this.finish(tNew, err)) {
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
