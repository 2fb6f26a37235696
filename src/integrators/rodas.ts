import { defectError } from './defect-error.js';
import { NON_FINITE_SHRINK } from './controller.js';
import { scaledRmsNorm } from './error-norms.js';
import { JacobianStore } from './jacobian-store.js';
import { BandedLu, luFactor, luSolve } from './lu.js';
import type { Rhs, StepOutcome, Stepper, StepperOptions, StepperStats } from './stepper.js';
import { IMPLICIT_MIN_PROPOSAL, StepperBase, allFinite, checkTolerances } from './stepper-base.js';
import { RODAS } from './tableaus/rodas.js';

/*
 * Where a Rosenbrock method (RODAS) serves better than Radau IIA of order 5 (radau5.ts), at
 * ordinary tolerances (auto.ts takes it above RADAU5_BELOW_RTOL, but for large systems whose
 * dense output is not read):
 * - it is linearly implicit: one LU of (I/(hγ) − J) and six solves per step, no Newton
 *   iteration whose convergence must be watched, no complex 2×2-block factorisation. For the
 *   small systems deltastep's models mostly are, that makes a step several times cheaper.
 * - its weakness, that it needs the exact Jacobian for its order (a W-method would not), is
 *   moot here: the symbolic stage writes the exact Jacobian (transform/jacobian.ts).
 * - it is stiffly accurate and L-stable, and comes with a continuous extension of order 3
 *   that interpolates both ends of the step, accurate to the tolerance: what exact event
 *   location needs.
 * - restarts are cheap: a one-step method has no history to rebuild after each event.
 * At tight tolerances its order 4 needs many more steps than radau5's 5 (rtol 1e-10, the Test
 * Set problems: 3 to 20 times as many).
 */
const GAMMA = RODAS.gamma;
const [, A2, A3, A4, A5] = RODAS.a;
const a21 = A2[0];
const a31 = A3[0],
  a32 = A3[1];
const a41 = A4[0],
  a42 = A4[1],
  a43 = A4[2];
const a51 = A5[0],
  a52 = A5[1],
  a53 = A5[2],
  a54 = A5[3];
const [, C2, C3, C4, C5, C6] = RODAS.C;
const c21 = C2[0];
const c31 = C3[0],
  c32 = C3[1];
const c41 = C4[0],
  c42 = C4[1],
  c43 = C4[2];
const c51 = C5[0],
  c52 = C5[1],
  c53 = C5[2],
  c54 = C5[3];
const c61 = C6[0],
  c62 = C6[1],
  c63 = C6[2],
  c64 = C6[3],
  c65 = C6[4];
const cc2 = RODAS.c[1],
  cc3 = RODAS.c[2],
  cc4 = RODAS.c[3];
const d1 = RODAS.d[0],
  d2 = RODAS.d[1],
  d3 = RODAS.d[2],
  d4 = RODAS.d[3];
const [h21, h22, h23, h24, h25] = RODAS.h2;

/**
 * The weights of the k-form, y1 = y + Σ b_j k_j with k_j = h F_j + h J u_j (F_j = f at stage j
 * plus h d_j ∂f/∂t; u = Γ k, y1 = y + Σ m_j u_j, m = (a51, a52, a53, a54, 1, 1)): b = m Γ,
 * from b Γ⁻¹ = m with Γ⁻¹ = diag(1/γ) − C, by back substitution. Σ b = 1 in exact arithmetic
 * (c5 = 1: the method is exact for a constant f); the sum is taken with differences from k1
 * (b1 = 1 − b2 − … − b6 implicitly), see `attempt`.
 */
const KB = ((): number[] => {
  const m = [a51, a52, a53, a54, 1, 1];
  const b = new Array<number>(6).fill(0);
  for (let j = 5; j >= 0; j--) {
    let s = m[j];
    for (let i = j + 1; i < 6; i++) s += b[i] * RODAS.C[i][j];
    b[j] = GAMMA * s;
  }
  return b;
})();
const kb2 = KB[1],
  kb3 = KB[2],
  kb4 = KB[3],
  kb5 = KB[4],
  kb6 = KB[5];
const [h31, h32, h33, h34, h35] = RODAS.h3;

/** Hairer's rodas.f step-size bounds (h_new/h in [0.2, 6]) and safety factor */
const FAC_MIN = 0.2;
const FAC_MAX = 6;
const SAFETY = 0.9;
/** the deepest cut of a rejected first step after a (re)start */
const FIRST_CUT_MAX = 1e4;
/**
 * How far the dense output's slope at the start of a step may be from f there, in units of
 * the tolerance (see `denseMismatch`), until a step after a (re)start meets it. An order-3
 * continuous extension of a step the error test accepts is off by a few units; one that
 * leaps over a boundary layer (a fast transient the event has set off) is off by 1e6 or more.
 */
const DENSE_MISMATCH_MAX = 10;
/**
 * The largest error of the dense output inside a step, estimated from its defect at θ = 1/4
 * and 3/4 (see innerError), in units of the tolerance, where the caller reads the dense output.
 */
const DENSE_MIDPOINT_MAX = 4;

/** acc[i] += d, accAbs[i] += |d| (the k-form's sum and its rounding scale, see `attempt`) */
function accumulate(acc: Float64Array, accAbs: Float64Array, i: number, d: number): void {
  acc[i] += d;
  accAbs[i] += Math.abs(d);
}

/** The dense output's coefficients of component i from the stages (see interpolate): one formula for every reader. */
function denseQ1(u1: Float64Array, u2: Float64Array, u3: Float64Array, u4: Float64Array, u5: Float64Array, i: number) {
  return h21 * u1[i] + h22 * u2[i] + h23 * u3[i] + h24 * u4[i] + h25 * u5[i];
}
function denseQ2(u1: Float64Array, u2: Float64Array, u3: Float64Array, u4: Float64Array, u5: Float64Array, i: number) {
  return h31 * u1[i] + h32 * u2[i] + h33 * u3[i] + h34 * u4[i] + h35 * u5[i];
}

/**
 * Hairer's RODAS (Hairer & Wanner, *Solving ODEs II*, Sect. VI.4; `rodas.f`): a stiffly
 * accurate, L-stable Rosenbrock method of order 4(3) for stiff problems, with its continuous
 * extension of order 3 for dense output, and Gustafsson's predictive step-size controller
 * (as rodas.f with its default PRED).
 *
 * Cost per attempt: one Jacobian (exact from `options.jacobian`, else finite differences:
 * n + 1 evaluations of f, or lower + upper + 1 for a banded one; kept across the rejected
 * attempts of one step: a Rosenbrock method needs the Jacobian at the step's start, and the
 * matrix holds h, so the LU is redone on every attempt rather than reused across steps), one LU
 * factorisation (banded when the Jacobian is: O(n·band²), else O(n³)), six evaluations of f
 * and six solves; an accepted step evaluates f once more at its end (the cached derivative).
 *
 * Uniform motion (f constant) is integrated to a few ulps, not bit for bit as by the explicit
 * pairs, whose weights sum to 1 in doubles: the transformed coefficients are large and of
 * both signs. An event placed within an ulp or two of where uniform motion reaches it can
 * then fall on the other side of the end of the range; `auto` keeps such motion on dopri5
 * (its stiffness estimate is zero there).
 *
 * `nonStiffSteps` supports `auto` (auto.ts): how many steps in a row were small enough that
 * an explicit method would have been stable with them (|h|·‖J‖∞ well below dopri5's border).
 */
export class RodasStepper extends StepperBase implements Stepper {
  readonly method = 'rodas' as const;
  protected override readonly minProposal = IMPLICIT_MIN_PROPOSAL;
  readonly order = 4;
  readonly adaptive = true;
  override readonly stats: StepperStats = { steps: 0, rejected: 0, rhsEvaluations: 0, jacobians: 0, factorizations: 0 };
  private readonly rtol: number;
  private readonly atol: number;
  private readonly hMax: number;
  /** ∂f/∂y and ∂f/∂t, evaluated at the start of every step (jacobian-store.ts) */
  private readonly jac: JacobianStore;
  /** J and ft belong to (t, y): kept through the rejected attempts of a step */
  private jacFresh = false;
  private readonly lu: Float64Array | null;
  private readonly piv: Int32Array;
  private readonly band: BandedLu | null;
  private readonly u1: Float64Array;
  private readonly u2: Float64Array;
  private readonly u3: Float64Array;
  private readonly u4: Float64Array;
  private readonly u5: Float64Array;
  private readonly u6: Float64Array;
  private readonly ys: Float64Array;
  private readonly fk: Float64Array;
  private readonly yNew: Float64Array;
  // the k-form increment (see KB and `attempt`): F1, Σ b_j (F_j − F1) with its scale, w = Σ b_j u_j, J w
  private readonly kF1: Float64Array;
  private readonly kAcc: Float64Array;
  private readonly kAccAbs: Float64Array;
  private readonly kW: Float64Array;
  private readonly kJw: Float64Array;
  private readonly kJwAbs: Float64Array;
  private readonly fNew: Float64Array;
  // dense output of the last step: k̂₁, k̂₂ (see tableaus/rodas.ts)
  private readonly q1: Float64Array;
  private readonly q2: Float64Array;
  private denseReady = false;
  private readonly preparedFor: Int32Array;
  private stepId = 0;

  private hAbsNext = Number.NaN;
  /** whether the dense output is still to be checked against f at the step's start (after a (re)start) */
  private denseCheck = true;
  /** Gustafsson's controller: the last accepted step and its error */
  private hAcc = 0;
  private errAcc = 1e-2;
  private accepted = 0;

  /** |h|·‖J‖∞ of the last accepted step: above about 3.3, dopri5 would be unstable with this h */
  hNorm = Number.NaN;
  /**
   * accepted steps in a row with hNorm below 1.5, well inside dopri5's stability region: an
   * explicit method could have taken them (auto.ts switches back on a run of them)
   */
  nonStiffSteps = 0;

  /** the caller reads the dense output (events, switches, rows between steps): its inside is checked */
  private readonly denseRead: boolean;
  private readonly mid: Float64Array;
  private readonly fMid: Float64Array;

  constructor(n: number, f: Rhs, options: StepperOptions) {
    super(n, f);
    const { rtol, atol, hMax } = options;
    this.denseRead = options.denseOutput !== false;
    this.mid = new Float64Array(n);
    this.fMid = new Float64Array(n);
    checkTolerances(rtol, atol, hMax);
    this.rtol = rtol;
    this.atol = atol;
    this.hMax = hMax;
    this.jac = new JacobianStore(n, f, options.jacobian?.() ?? null, true);
    this.band = this.jac.banded ? new BandedLu(n, this.jac.lower, this.jac.upper) : null;
    this.lu = this.band ? null : new Float64Array(n * n);
    this.piv = new Int32Array(n);
    this.u1 = new Float64Array(n);
    this.u2 = new Float64Array(n);
    this.u3 = new Float64Array(n);
    this.u4 = new Float64Array(n);
    this.u5 = new Float64Array(n);
    this.u6 = new Float64Array(n);
    this.ys = new Float64Array(n);
    this.fk = new Float64Array(n);
    this.yNew = new Float64Array(n);
    this.fNew = new Float64Array(n);
    this.kF1 = new Float64Array(n);
    this.kAcc = new Float64Array(n);
    this.kAccAbs = new Float64Array(n);
    this.kW = new Float64Array(n);
    this.kJw = new Float64Array(n);
    this.kJwAbs = new Float64Array(n);
    this.q1 = new Float64Array(n);
    this.q2 = new Float64Array(n);
    this.preparedFor = new Int32Array(n).fill(-1);
  }

  override resetStats(): void {
    super.resetStats();
    this.stats.jacobians = 0;
    this.stats.factorizations = 0;
  }

  reset(t: number, y: ArrayLike<number>, hInit?: number): void {
    this.restart(t, y);
    this.hAbsNext = hInit !== undefined && Number.isFinite(hInit) && hInit !== 0 ? Math.abs(hInit) : Number.NaN;
    this.jacFresh = false;
    this.denseReady = false;
    this.accepted = 0;
    this.errAcc = 1e-2;
    this.denseCheck = true;
  }

  /** LU of I/(hγ) − J; false if singular */
  private factor(h: number): boolean {
    const fac = 1 / (h * GAMMA);
    const band = this.band;
    if (band !== null) {
      this.jac.shiftedBand(fac, band.ab, band.w);
      return band.factor();
    }
    this.jac.shiftedDense(fac, this.lu!);
    return luFactor(this.lu!, this.n, this.piv);
  }

  private solve(b: Float64Array): void {
    if (this.band !== null) this.band.solve(b);
    else luSolve(this.lu!, this.n, this.piv, b);
  }

  /** one attempt from (t0, y) to tNew; the error norm, NaN if non-finite, Infinity if singular */
  private attempt(t0: number, h: number, tNew: number): number {
    const n = this.n,
      f = this.f,
      y = this.y,
      f0 = this.dydt,
      ft = this.jac.ft;
    const u1 = this.u1,
      u2 = this.u2,
      u3 = this.u3,
      u4 = this.u4,
      u5 = this.u5,
      u6 = this.u6;
    const ys = this.ys,
      fk = this.fk,
      y1 = this.yNew;
    if (!this.jacFresh) {
      this.stats.rhsEvaluations += this.jac.evaluate(t0, y, f0, ys, fk);
      this.stats.jacobians!++;
      this.jacFresh = true;
    }
    this.stats.factorizations!++;
    if (!this.factor(h)) return Number.POSITIVE_INFINITY;
    const A21 = a21,
      A31 = a31,
      A32 = a32,
      A41 = a41,
      A42 = a42,
      A43 = a43,
      A51 = a51,
      A52 = a52,
      A53 = a53,
      A54 = a54;
    const ih = 1 / h;
    const C21 = c21 * ih,
      C31 = c31 * ih,
      C32 = c32 * ih,
      C41 = c41 * ih,
      C42 = c42 * ih,
      C43 = c43 * ih;
    const C51 = c51 * ih,
      C52 = c52 * ih,
      C53 = c53 * ih,
      C54 = c54 * ih;
    const C61 = c61 * ih,
      C62 = c62 * ih,
      C63 = c63 * ih,
      C64 = c64 * ih,
      C65 = c65 * ih;
    // (read per attempt: ∂f/∂t is zero only while the exact Jacobian is in use, jacobian-store.ts)
    const auto = this.jac.autonomous;
    const HD1 = auto ? 0 : h * d1,
      HD2 = auto ? 0 : h * d2,
      HD3 = auto ? 0 : h * d3,
      HD4 = auto ? 0 : h * d4;
    const F1 = this.kF1,
      acc = this.kAcc,
      accAbs = this.kAccAbs;
    for (let i = 0; i < n; i++) {
      F1[i] = f0[i] + HD1 * ft[i];
      u1[i] = F1[i];
      acc[i] = 0;
      accAbs[i] = 0;
    }
    this.solve(u1);
    for (let i = 0; i < n; i++) ys[i] = y[i] + A21 * u1[i];
    f(t0 + cc2 * h, ys, fk);
    for (let i = 0; i < n; i++) {
      const F = fk[i] + HD2 * ft[i];
      u2[i] = F + C21 * u1[i];
      accumulate(acc, accAbs, i, kb2 * (F - F1[i]));
    }
    this.solve(u2);
    for (let i = 0; i < n; i++) ys[i] = y[i] + A31 * u1[i] + A32 * u2[i];
    f(t0 + cc3 * h, ys, fk);
    for (let i = 0; i < n; i++) {
      const F = fk[i] + HD3 * ft[i];
      u3[i] = F + (C31 * u1[i] + C32 * u2[i]);
      accumulate(acc, accAbs, i, kb3 * (F - F1[i]));
    }
    this.solve(u3);
    for (let i = 0; i < n; i++) ys[i] = y[i] + A41 * u1[i] + A42 * u2[i] + A43 * u3[i];
    f(t0 + cc4 * h, ys, fk);
    for (let i = 0; i < n; i++) {
      const F = fk[i] + HD4 * ft[i];
      u4[i] = F + (C41 * u1[i] + C42 * u2[i] + C43 * u3[i]);
      accumulate(acc, accAbs, i, kb4 * (F - F1[i]));
    }
    this.solve(u4);
    for (let i = 0; i < n; i++) ys[i] = y[i] + A51 * u1[i] + A52 * u2[i] + A53 * u3[i] + A54 * u4[i];
    f(tNew, ys, fk);
    for (let i = 0; i < n; i++) {
      u5[i] = fk[i] + (C51 * u1[i] + C52 * u2[i] + C53 * u3[i] + C54 * u4[i]);
      accumulate(acc, accAbs, i, kb5 * (fk[i] - F1[i]));
    }
    this.solve(u5);
    for (let i = 0; i < n; i++) ys[i] += u5[i];
    f(tNew, ys, fk);
    for (let i = 0; i < n; i++) {
      u6[i] = fk[i] + (C61 * u1[i] + C62 * u2[i] + C63 * u3[i] + C64 * u4[i] + C65 * u5[i]);
      accumulate(acc, accAbs, i, kb6 * (fk[i] - F1[i]));
    }
    this.solve(u6);
    this.stats.rhsEvaluations += 5;
    // The increment, in one of two forms equal in exact arithmetic, whichever rounds less:
    // - the u-form A51 u1 + … + A54 u4 + u5 + u6 (Hairer's rodas.f), whose coefficients near
    //   10 cancel: for x' = 1 it is h (1 − 8.3e-16) even in exact arithmetic on the 16-digit
    //   coefficients, plus roundings of a few ulps of h, the same in the same steps. A clock
    //   with ticks every 0.1 (a restart each, the same first steps after it) drifted 3.8e-10
    //   by t = 1000 and crossed 1000 as an instant of its own before its tick, status ok.
    // - the k-form Σ b_j k_j = h (F1 + Σ b_j (F_j − F1)) + h J Σ b_j u_j (see KB), which is h F1
    //   with one rounding when the stages' F agree and J w vanishes (a constant f), but whose
    //   h J w cancels against h F where the step is stiff (|h J| large): rounding of |h J| |w|.
    // Per component, the k-form where its rounding scale |F1| + Σ|b_j (F_j − F1)| + |J| |w|
    // (times |h|) is at most the u-form's Σ |m_j u_j|; then y + increment compensated
    // (StepperBase.addIncrement).
    const w = this.kW,
      jw = this.kJw,
      jwAbs = this.kJwAbs;
    for (let i = 0; i < n; i++) {
      w[i] = KB[0] * u1[i] + kb2 * u2[i] + kb3 * u3[i] + kb4 * u4[i] + kb5 * u5[i] + kb6 * u6[i];
    }
    this.jac.multiply(w, jw, jwAbs);
    const absH = Math.abs(h);
    for (let i = 0; i < n; i++) {
      const du = A51 * u1[i] + A52 * u2[i] + A53 * u3[i] + A54 * u4[i] + u5[i] + u6[i];
      const scaleU =
        Math.abs(A51 * u1[i]) +
        Math.abs(A52 * u2[i]) +
        Math.abs(A53 * u3[i]) +
        Math.abs(A54 * u4[i]) +
        Math.abs(u5[i]) +
        Math.abs(u6[i]);
      const scaleK = absH * (Math.abs(F1[i]) + accAbs[i] + jwAbs[i]);
      y1[i] = scaleK <= scaleU ? h * (F1[i] + (acc[i] + jw[i])) : du;
    }
    this.addIncrement(y1, y1);
    if (!allFinite(y1, n)) return Number.NaN;
    return scaledRmsNorm(u6, y, y1, this.atol, this.rtol, n);
  }

  step(tLimit: number): StepOutcome {
    if (!this.beginStep(tLimit)) return 'nonFinite';
    const t0 = this.t,
      hMax = this.hMax;
    let absH = this.firstTry(this.hAbsNext, this.order, hMax, this.atol, this.rtol, this.ys, this.fk);
    let rejectedOnce = false;
    let nonFinite = false;
    for (;;) {
      const tNew = this.attemptEnd(tLimit, absH, hMax);
      if (tNew !== tNew) return nonFinite ? 'nonFinite' : 'stepSizeUnderflow';
      const h = tNew - t0;
      const hAbs = Math.abs(h);
      const err = this.attempt(t0, h, tNew);
      const mismatch = err <= 1 && this.denseCheck ? this.denseMismatch(h) : 0;
      const midError =
        err <= 1 && this.denseRead && mismatch <= DENSE_MISMATCH_MAX
          ? Math.max(this.innerError(t0, h, 0.25), this.innerError(t0, h, 0.75))
          : 0;
      if (midError > DENSE_MIDPOINT_MAX) {
        // the ends are right, the interpolant between them is not: a step as long as it allows
        this.stats.rejected++;
        rejectedOnce = true;
        absH = hAbs * Math.max(1 / FIRST_CUT_MAX, Math.min(0.9, SAFETY * (DENSE_MIDPOINT_MAX / midError) ** 0.25));
        continue;
      }
      if (mismatch > DENSE_MISMATCH_MAX) {
        // the step's end is right, the way there is not: shorter, to the transient's scale
        this.stats.rejected++;
        rejectedOnce = true;
        absH = hAbs * Math.max(1 / FIRST_CUT_MAX, Math.min(FAC_MIN, SAFETY * (DENSE_MISMATCH_MAX / mismatch) ** 0.25));
        continue;
      }
      if (err <= 1) {
        this.denseCheck = mismatch > 0.5 * DENSE_MISMATCH_MAX;
        this.f(tNew, this.yNew, this.fNew);
        this.stats.rhsEvaluations++;
        if (allFinite(this.fNew, this.n)) {
          // the interpolant's error grows as h⁴, as the estimate's does: the larger sets h
          let fac = Math.pow(Math.max(err, midError / DENSE_MIDPOINT_MAX), 0.25) / SAFETY; // h_new = h / fac
          if (this.accepted > 0) {
            // Gustafsson: the error's trend over the last two steps predicts the next
            const gus = ((this.hAcc / hAbs) * Math.pow((err * err) / this.errAcc, 0.25)) / SAFETY;
            if (gus > fac) fac = gus;
          }
          const growth = this.accepted === 0 ? Math.max(this.firstStepGrowth, FAC_MAX) : FAC_MAX;
          if (fac < 1 / growth) fac = 1 / growth;
          else if (fac > 1 / FAC_MIN) fac = 1 / FAC_MIN;
          let next = hAbs / fac;
          if (rejectedOnce && next > hAbs) next = hAbs;
          // a step cut short by tLimit says nothing against the size that was proposed
          if (hAbs < absH && next >= hAbs && next < absH) next = absH;
          this.hAcc = hAbs;
          this.errAcc = Math.max(1e-2, err);
          this.accepted++;
          this.hAbsNext = next < hMax ? next : hMax;
          this.commit(t0, tNew, h);
          return 'accepted';
        }
      }
      this.stats.rejected++;
      rejectedOnce = true;
      // err ≤ 1 here: f is not finite at the new state; NaN: the stages were not finite
      nonFinite = err <= 1 || err !== err;
      if (nonFinite) absH = NON_FINITE_SHRINK * hAbs;
      else if (err === Infinity)
        absH = 0.5 * hAbs; // singular iteration matrix
      // Before the first accepted step of a (re)start the step is a guess (after an event: the
      // step in use before it, often far above the new transient's scale), and the error
      // says by how much: cut as deep as it asks, not by 5 per rejection.
      else absH = hAbs / Math.min(this.accepted === 0 ? FIRST_CUT_MAX : 1 / FAC_MIN, Math.pow(err, 0.25) / SAFETY);
    }
  }

  /**
   * The scaled RMS of h·(p'(t0) − f(t0, y0)), p the dense output of the attempt just made: its
   * slope at the start against the right-hand side there. An L-stable method steps over a
   * boundary layer (y1' = -1e8 (y1 - y2) just after an event moved y2) with an accurate end
   * and an interpolant that never shows the layer, and an event function that dips and comes
   * back inside such a step is not seen: after a (re)start, until one step meets this test,
   * steps are cut to the transient's scale. (p'(t0)·h = y1 − y0 + k̂₁: see interpolate.)
   */
  private denseMismatch(h: number): number {
    const n = this.n,
      y0 = this.y,
      y1 = this.yNew,
      f0 = this.dydt;
    const u1 = this.u1,
      u2 = this.u2,
      u3 = this.u3,
      u4 = this.u4,
      u5 = this.u5;
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const q1 = denseQ1(u1, u2, u3, u4, u5, i);
      const sc = this.atol + this.rtol * Math.max(Math.abs(y0[i]), Math.abs(y1[i]));
      const q = (y1[i] - y0[i] + q1 - h * f0[i]) / sc;
      sum += q * q;
    }
    return Math.sqrt(sum / n);
  }

  /**
   * The error of the attempt's dense output p at θ inside the step, scaled RMS, estimated from
   * its defect there, d = h·(p'(t) − f(t, p(t))), filtered as radau5 filters its error
   * estimate: (I − hγJ)⁻¹·d, which is d for a slow component and about the error over γ for a
   * stiff one (where d is the error times hλ). On a slow manifold (y' = −1e6 (y − sin t)) the
   * step's ends are right for any h, the steps grow to 0.5, and the cubic between them missed
   * the peak of sin by 3e-4 at rtol 1e-6: a threshold crossing near the peak was not seen. The
   * step checks θ = 1/4 and 3/4: the interpolant's error may change sign near the midpoint (at
   * rtol 1e-4 it was 2 tolerances there and 13 at θ = 0.8).
   */
  private innerError(t0: number, h: number, th: number): number {
    const n = this.n,
      y0 = this.y,
      y1 = this.yNew,
      mid = this.mid,
      fMid = this.fMid;
    const u1 = this.u1,
      u2 = this.u2,
      u3 = this.u3,
      u4 = this.u4,
      u5 = this.u5;
    const th1 = 1 - th;
    // p(θ) = y0 + θ·(y1 − y0 + (1 − θ)(q1 + θ q2)) (see interpolate), and h·p'(θ)
    for (let i = 0; i < n; i++) {
      const q1 = denseQ1(u1, u2, u3, u4, u5, i);
      const q2 = denseQ2(u1, u2, u3, u4, u5, i);
      const dy = y1[i] - y0[i];
      mid[i] = y0[i] + th * (dy + th1 * (q1 + th * q2));
      fMid[i] = dy + (th1 - th) * (q1 + th * q2) + th * th1 * q2;
    }
    const slope = this.fk;
    this.f(t0 + th * h, mid, slope);
    this.stats.rhsEvaluations++;
    for (let i = 0; i < n; i++) fMid[i] -= h * slope[i];
    if (!allFinite(fMid, n)) return 0;
    // (mid, read by f above, keeps the defect d; the LU holds I/(hγ) − J, whose solve is
    // hγ·(I − hγJ)⁻¹)
    mid.set(fMid);
    this.solve(fMid);
    const back = 1 / (h * GAMMA);
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const sc = this.atol + this.rtol * Math.max(Math.abs(y0[i]), Math.abs(y1[i]));
      const q = defectError(mid[i], back * fMid[i], GAMMA) / sc;
      sum += q * q;
    }
    return Math.sqrt(sum / n);
  }

  private commit(t0: number, tNew: number, h: number): void {
    this.accept(t0, tNew, h, this.yNew, this.fNew);
    this.denseReady = false;
    this.jacFresh = false;
    this.stepId++;
    // stiffness of the step just taken, from the Jacobian at its start
    const hn = Math.abs(h) * this.jac.infNorm();
    this.hNorm = hn;
    this.nonStiffSteps = hn < 1.5 ? this.nonStiffSteps + 1 : 0;
  }

  private prepareDense(): void {
    const n = this.n,
      q1 = this.q1,
      q2 = this.q2;
    const u1 = this.u1,
      u2 = this.u2,
      u3 = this.u3,
      u4 = this.u4,
      u5 = this.u5;
    for (let i = 0; i < n; i++) {
      q1[i] = denseQ1(u1, u2, u3, u4, u5, i);
      q2[i] = denseQ2(u1, u2, u3, u4, u5, i);
    }
  }

  interpolate(s: number, out: Float64Array): void {
    if (this.copyStepEnd(s, out)) return;
    if (!this.denseReady) {
      this.prepareDense();
      this.denseReady = true;
    }
    const n = this.n,
      y0 = this.yPrev,
      y1 = this.y,
      q1 = this.q1,
      q2 = this.q2;
    const th = (s - this.tPrev) / this.hLast,
      th1 = 1 - th;
    // (y0 + θ·(y1 − y0 + ...): a component that did not move stays exactly where it was; the
    // form (1 − θ)·y0 + θ·y1 rounds a velocity of −0.45 to −0.44999999999999996 between steps)
    for (let i = 0; i < n; i++) out[i] = y0[i] + th * (y1[i] - y0[i] + th1 * (q1[i] + th * q2[i]));
  }

  override interpolateSome(s: number, idx: Int32Array, out: Float64Array): void {
    const y0 = this.yPrev,
      y1 = this.y;
    if (s === this.t || this.hLast === 0) {
      for (let j = 0; j < idx.length; j++) out[idx[j]] = y1[idx[j]];
      return;
    }
    if (s === this.tPrev) {
      for (let j = 0; j < idx.length; j++) out[idx[j]] = y0[idx[j]];
      return;
    }
    const q1 = this.q1,
      q2 = this.q2;
    if (!this.denseReady) {
      const id = this.stepId,
        pf = this.preparedFor;
      const u1 = this.u1,
        u2 = this.u2,
        u3 = this.u3,
        u4 = this.u4,
        u5 = this.u5;
      for (let j = 0; j < idx.length; j++) {
        const i = idx[j];
        if (pf[i] === id) continue;
        q1[i] = denseQ1(u1, u2, u3, u4, u5, i);
        q2[i] = denseQ2(u1, u2, u3, u4, u5, i);
        pf[i] = id;
      }
    }
    const th = (s - this.tPrev) / this.hLast,
      th1 = 1 - th;
    for (let j = 0; j < idx.length; j++) {
      const i = idx[j];
      out[i] = y0[i] + th * (y1[i] - y0[i] + th1 * (q1[i] + th * q2[i]));
    }
  }
}
