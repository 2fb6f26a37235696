import { DOPRI5_CONTROL } from './controller.js';
import { EmbeddedRkStepper } from './embedded-rk.js';
import { scaledRmsNorm } from './error-norms.js';
import { allFinite } from './stepper-base.js';
import type { Rhs, Stepper, StepperOptions } from './stepper.js';
import { DOPRI5 } from './tableaus/dopri5.js';

/*
 * The tableau as module constants, so the kernels read numbers, not nested arrays.
 * Textbook 1-based names: aij is row i, column j of Hairer's Table II.5.2.
 */
const A = DOPRI5.a;
const c2 = DOPRI5.c[1],
  c3 = DOPRI5.c[2],
  c4 = DOPRI5.c[3],
  c5 = DOPRI5.c[4];
const a21 = A[1][0];
const a31 = A[2][0],
  a32 = A[2][1];
const a41 = A[3][0],
  a42 = A[3][1],
  a43 = A[3][2];
const a51 = A[4][0],
  a52 = A[4][1],
  a53 = A[4][2],
  a54 = A[4][3];
const a61 = A[5][0],
  a62 = A[5][1],
  a63 = A[5][2],
  a64 = A[5][3],
  a65 = A[5][4];
const a71 = A[6][0],
  a73 = A[6][2],
  a74 = A[6][3],
  a75 = A[6][4],
  a76 = A[6][5];
const E = DOPRI5.e;
const e1 = E[0],
  e3 = E[2],
  e4 = E[3],
  e5 = E[4],
  e6 = E[5],
  e7 = E[6];
const D = DOPRI5.d;
const d1 = D[0],
  d3 = D[2],
  d4 = D[3],
  d5 = D[4],
  d6 = D[5],
  d7 = D[6];

/**
 * Adaptive Dormand–Prince 5(4) (Hairer's DOPRI5; Hairer, Nørsett, Wanner, *Solving ODEs I*,
 * Sect. II.5 and II.6), local extrapolation (the 5th-order solution is propagated), FSAL.
 *
 * Cost: 6 evaluations of f per attempt, accepted or rejected (the 7th stage f(t+h, y1)
 * enters the error estimate and becomes the next first stage). With `reset` counting 1 and
 * the initial-step heuristic 1 (only when no `hInit` was given):
 * rhsEvaluations = resets + hinits + 6·(steps + rejected).
 *
 * Dense output: Shampine's 4th-order continuous extension in Hairer's `CONTD5` form; its
 * four coefficient vectors are computed on the first `interpolate` after a step (no extra
 * evaluation of f).
 */
export class Dopri5Stepper extends EmbeddedRkStepper implements Stepper {
  readonly method = 'dopri5' as const;
  readonly order = 5;
  protected readonly hinitOrder = 5;
  private readonly k2: Float64Array;
  private readonly k3: Float64Array;
  private readonly k4: Float64Array;
  private readonly k5: Float64Array;
  private readonly k6: Float64Array;
  private readonly ytmp: Float64Array;
  private readonly err: Float64Array;
  // dense output: u(θ) = yPrev + θ(r1 + θ₁(r2 + θ(r3 + θ₁ r4)))
  private readonly r1: Float64Array;
  private readonly r2: Float64Array;
  private readonly r3: Float64Array;
  private readonly r4: Float64Array;
  protected readonly scratchA: Float64Array;
  protected readonly scratchB: Float64Array;

  constructor(n: number, f: Rhs, options: StepperOptions) {
    // (3.25: the border of DOPRI5's stability region on the negative real axis, dopri5.f)
    super(n, f, options.rtol, options.atol, options.hMax, DOPRI5_CONTROL, 3.25);
    this.k2 = new Float64Array(n);
    this.k3 = new Float64Array(n);
    this.k4 = new Float64Array(n);
    this.k5 = new Float64Array(n);
    this.k6 = new Float64Array(n);
    this.ytmp = new Float64Array(n);
    this.err = new Float64Array(n);
    this.r1 = new Float64Array(n);
    this.r2 = new Float64Array(n);
    this.r3 = new Float64Array(n);
    this.r4 = new Float64Array(n);
    this.preparedFor = new Int32Array(n).fill(-1);
    this.scratchA = this.k2;
    this.scratchB = this.k3;
  }

  protected attempt(t0: number, h: number, tNew: number): number {
    const n = this.n,
      f = this.f,
      y = this.y,
      k1 = this.dydt;
    const k2 = this.k2,
      k3 = this.k3,
      k4 = this.k4,
      k5 = this.k5,
      k6 = this.k6,
      k7 = this.fNew;
    const ys = this.ytmp,
      y1 = this.yNew,
      err = this.err;
    // The tableau as locals: module constants read inside the loops are context loads on
    // every element (a quarter of the step's time at n = 2048). The arithmetic is Hairer's,
    // h·(Σ aij kj): for uniform motion the stages and the error estimate stay exact (the
    // weights sum to 1 and the error weights to 0 in doubles), and so do the event times.
    const A21 = a21,
      A31 = a31,
      A32 = a32,
      A41 = a41,
      A42 = a42,
      A43 = a43;
    const A51 = a51,
      A52 = a52,
      A53 = a53,
      A54 = a54,
      A61 = a61,
      A62 = a62,
      A63 = a63,
      A64 = a64,
      A65 = a65;
    const A71 = a71,
      A73 = a73,
      A74 = a74,
      A75 = a75,
      A76 = a76;
    const E1 = e1,
      E3 = e3,
      E4 = e4,
      E5 = e5,
      E6 = e6,
      E7 = e7;
    for (let i = 0; i < n; i++) ys[i] = y[i] + h * (A21 * k1[i]);
    f(t0 + c2 * h, ys, k2);
    for (let i = 0; i < n; i++) ys[i] = y[i] + h * (A31 * k1[i] + A32 * k2[i]);
    f(t0 + c3 * h, ys, k3);
    for (let i = 0; i < n; i++) ys[i] = y[i] + h * (A41 * k1[i] + A42 * k2[i] + A43 * k3[i]);
    f(t0 + c4 * h, ys, k4);
    for (let i = 0; i < n; i++) ys[i] = y[i] + h * (A51 * k1[i] + A52 * k2[i] + A53 * k3[i] + A54 * k4[i]);
    f(t0 + c5 * h, ys, k5);
    for (let i = 0; i < n; i++)
      ys[i] = y[i] + h * (A61 * k1[i] + A62 * k2[i] + A63 * k3[i] + A64 * k4[i] + A65 * k5[i]);
    f(tNew, ys, k6); // c6 = 1
    // the increment, then y + increment compensated (StepperBase.addIncrement)
    for (let i = 0; i < n; i++) y1[i] = h * (A71 * k1[i] + A73 * k3[i] + A74 * k4[i] + A75 * k5[i] + A76 * k6[i]);
    this.addIncrement(y1, y1);
    f(tNew, y1, k7);
    this.stats.rhsEvaluations += 6;
    // The stiffness test's sums ride along in the error loop rather than a pass of their own
    // per accepted step: k6 and k7 sit at the same t, ys still holds the 6th stage's y.
    let dk2 = 0,
      dy2 = 0;
    for (let i = 0; i < n; i++) {
      err[i] = h * (E1 * k1[i] + E3 * k3[i] + E4 * k4[i] + E5 * k5[i] + E6 * k6[i] + E7 * k7[i]);
      const dk = k7[i] - k6[i],
        dy = y1[i] - ys[i];
      dk2 += dk * dk;
      dy2 += dy * dy;
    }
    this.stageDiff2 = dk2;
    this.stateDiff2 = dy2;
    // an infinite y1 would make its own scale infinite and hide from the norm
    if (!allFinite(y1, n)) return Number.NaN;
    return scaledRmsNorm(err, y, y1, this.atol, this.rtol, n);
  }

  /** ‖k7 − k6‖² and ‖y1 − y6‖² of the last attempted step, summed in its error loop */
  private stageDiff2 = 0;
  private stateDiff2 = 0;

  protected finish(tNew: number, err: number): boolean {
    // f(tNew, yNew) is the 7th stage, already checked through the error norm
    const lambda = this.stateDiff2 > 0 ? Math.sqrt(this.stageDiff2 / this.stateDiff2) : NaN;
    this.stiffness.observe(Math.abs(tNew - this.t), lambda, err);
    return true;
  }

  protected prepareDense(): void {
    const n = this.n,
      h = this.hLast;
    const y0 = this.yPrev,
      y1 = this.y,
      k1 = this.fPrev,
      k7 = this.dydt;
    const k3 = this.k3,
      k4 = this.k4,
      k5 = this.k5,
      k6 = this.k6;
    const r1 = this.r1,
      r2 = this.r2,
      r3 = this.r3,
      r4 = this.r4;
    const D1 = d1,
      D3 = d3,
      D4 = d4,
      D5 = d5,
      D6 = d6,
      D7 = d7;
    for (let i = 0; i < n; i++) {
      const dy = y1[i] - y0[i];
      const bspl = h * k1[i] - dy;
      r1[i] = dy;
      r2[i] = bspl;
      r3[i] = dy - h * k7[i] - bspl;
      r4[i] = h * (D1 * k1[i] + D3 * k3[i] + D4 * k4[i] + D5 * k5[i] + D6 * k6[i] + D7 * k7[i]);
    }
  }

  /** the step each component's dense coefficients were prepared for (see prepareDenseSome) */
  private readonly preparedFor: Int32Array;

  protected override prepareDenseSome(idx: Int32Array): boolean {
    const id = this.stepId,
      preparedFor = this.preparedFor;
    for (let j = 0; j < idx.length; j++) {
      const i = idx[j];
      if (preparedFor[i] !== id) {
        this.prepareComponent(i);
        preparedFor[i] = id;
      }
    }
    return true;
  }

  /** Hairer's continuous extension coefficients of component i for the last step. */
  private prepareComponent(i: number): void {
    const h = this.hLast;
    const y0 = this.yPrev,
      y1 = this.y,
      k1 = this.fPrev,
      k7 = this.dydt;
    const dy = y1[i] - y0[i];
    const bspl = h * k1[i] - dy;
    this.r1[i] = dy;
    this.r2[i] = bspl;
    this.r3[i] = dy - h * k7[i] - bspl;
    this.r4[i] = h * (d1 * k1[i] + d3 * this.k3[i] + d4 * this.k4[i] + d5 * this.k5[i] + d6 * this.k6[i] + d7 * k7[i]);
  }

  protected evalDense(theta: number, out: Float64Array): void {
    const n = this.n,
      y0 = this.yPrev;
    const r1 = this.r1,
      r2 = this.r2,
      r3 = this.r3,
      r4 = this.r4;
    const th1 = 1 - theta;
    for (let i = 0; i < n; i++) out[i] = y0[i] + theta * (r1[i] + th1 * (r2[i] + theta * (r3[i] + th1 * r4[i])));
  }

  protected evalDenseSome(theta: number, idx: Int32Array, out: Float64Array): void {
    const y0 = this.yPrev;
    const r1 = this.r1,
      r2 = this.r2,
      r3 = this.r3,
      r4 = this.r4;
    const th1 = 1 - theta;
    for (let j = 0; j < idx.length; j++) {
      const i = idx[j];
      out[i] = y0[i] + theta * (r1[i] + th1 * (r2[i] + theta * (r3[i] + th1 * r4[i])));
    }
  }
}

/** a DOPRI5 stepper for dimension n; see {@link Dopri5Stepper} */
export function createDopri5(n: number, f: Rhs, options: StepperOptions): Stepper {
  return new Dopri5Stepper(n, f, options);
}
