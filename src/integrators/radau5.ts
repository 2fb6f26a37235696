import { defectError } from './defect-error.js';
import { NON_FINITE_SHRINK } from './controller.js';
import {
  collocationAt,
  collocationFromStart,
  collocationCoefficients,
  collocationInside,
  startCoefficients,
  extrapolateStages,
  slopeMismatch,
} from './radau5-collocation.js';
import { RadauMatrices } from './radau5-matrices.js';
import type { Rhs, StepOutcome, Stepper, StepperOptions, StepperStats } from './stepper.js';
import { IMPLICIT_MIN_PROPOSAL, StepperBase, allFinite, checkTolerances } from './stepper-base.js';
import { RADAU5 } from './tableaus/radau5.js';

const C1 = RADAU5.c[0],
  C2 = RADAU5.c[1];
const GAMMA = RADAU5.gamma,
  ALPHA = RADAU5.alpha,
  BETA = RADAU5.beta;
const [[T11, T12, T13], [T21, T22, T23], [T31]] = RADAU5.T;
const [[TI11, TI12, TI13], [TI21, TI22, TI23], [TI31, TI32, TI33]] = RADAU5.TI;
const [DD1, DD2, DD3] = RADAU5.e;

// The parameters of radau5.f, with its defaults unless said otherwise.
const UROUND = 1e-16;
/** most Newton iterations per attempt (NIT) */
const NIT = 7;
/**
 * The Newton contraction below which the Jacobian is kept for the next step (THET, radau5.f's
 * default). A larger value (0.01, 0.1: fewer Jacobians, the advice for costly ones) measured
 * slower on the Test Set problems at rtol 1e-10: the exact Jacobian is cheap, and an older one
 * costs Newton iterations and rejected steps.
 */
const THET = 0.001;
/** h_new/h within [QUOT1, QUOT2] keeps h, and with it the factorisations (WORK(5), WORK(6)) */
const QUOT1 = 1;
const QUOT2 = 1.2;
const SAFE = 0.9;
/** h_new/h ≥ 1/FACL = 0.2 and ≤ 1/FACR = 8 */
const FACL = 5;
const FACR = 1 / 8;
const CFAC = SAFE * (1 + 2 * NIT);
/** the deepest cut of a rejected first step after a (re)start (radau5.f: always 10) */
const FIRST_CUT_MAX = 1e4;
/**
 * The error estimate is of order 3 (it compares with an embedded solution of order 3) and the
 * solution of order 5, so the estimate is measured against a looser tolerance than the one
 * asked for: radau5.f takes rtol' = 0.1·rtol^(2/3) (and atol' = rtol'·atol/rtol). That keeps
 * the error of each step in proportion to rtol; the error at the end, which is what a user
 * (and the Test Set) measures, then grows relative to rtol as rtol^(-1/6) with the number of
 * steps: on HIRES and POLLU it is 20 to 28 times rtol at rtol 1e-11..1e-12 (0.3 at 1e-6),
 * beyond the bar of tests/testset.test.ts. With the exponent 3/4 it grows as rtol^(-1/16):
 * at most 6 times rtol on the five problems from 1e-4 to 1e-12. (4/5 would make it
 * proportional, at 10 % more steps than 3/4 at rtol 1e-10.) The factor matches radau5.f's
 * rtol' at rtol 1e-6, the default, and makes it 2.2 times tighter at 1e-10.
 */
const TOL_EXPONENT = 3 / 4;
const TOL_FACTOR = 0.1 * Math.pow(1e-6, 2 / 3 - TOL_EXPONENT);
/**
 * The transformed tolerance keeps the error of the steps' ends in proportion to rtol, not that
 * of the dense output between them: the collocation polynomial is of order 3 and its error is
 * about a fifth of rtol' (measured: 0.15 to 0.17 of rtol' on y' = 2 − y from rtol 1e-8 to
 * 1e-12), 17 to 55 times rtol at rtol 1e-10 .. 1e-12, so event times located on it were off
 * by as much (rodas': 0.01 to 0.25 times rtol). When the caller reads the dense output
 * (StepperOptions.denseOutput: events and switches located on it, rows interpolated), rtol'
 * is held at DENSE_TOL_FACTOR·rtol as well: about twice the steps at rtol 1e-10, and event
 * times to a fraction of rtol.
 */
const DENSE_TOL_FACTOR = 1;
// outcomes of an attempt's phases
const CONVERGED = 0;
const CUT = 1;
const NON_FINITE = 2;
/** see rodas.ts: how far h·p'(t0) may be from h·f(t0, y0) after a (re)start, in units of the tolerance */
const DENSE_MISMATCH_MAX = 10;
/**
 * The largest error of the collocation polynomial inside a step, estimated from its defect at
 * a quarter and three quarters of the step (see innerError), in units of the tolerance, where the caller reads the dense
 * output (as rodas.ts). On a slow manifold (y' = −1e6 (y − sin t)) the stages sit on the
 * manifold for any h: the error estimate stayed small, the steps grew to 0.7, and the cubic
 * between the ends missed the peak of sin t by 2e-3 at rtol 1e-6, so that `y − 0.999 rises`
 * was never seen (status ok).
 */
const DENSE_MIDPOINT_MAX = 4;

/**
 * The tolerances radau5's error estimate is measured against for the rtol and atol asked for
 * (see TOL_EXPONENT, DENSE_TOL_FACTOR): rtol', and atol' = atol·rtol'/rtol as radau5.f has it
 * (it keeps their ratio), but never above atol itself. radau5.f's atol' is 10 times atol at
 * rtol 1e-6 and 300 times at 1e-12 (1000 with its exponent 2/3), and the argument for it (an
 * estimate of order 3 overstates an error of order 5) fails for the stiff components, whose
 * error is what the estimate says: those are often the small ones, held only by atol, and
 * their error was then 30 to 150 times atol on POLLU at rtol 1e-6 and 1e-8 (atol 1e-6 to
 * 1e-3), and Robertson's y2 (at most 3.6e-5) turned negative at atol 1e-5 (rtol 1e-6 to
 * 1e-12), where y1 runs off to −4e7 (radau5.f does the same). Held to atol, all of those are
 * right; at the Test Set's
 * settings (atol = 1e-4·rtol) it costs 0 to 35 % more steps (POLLU at rtol 1e-10 to 1e-12:
 * 50 to 65 %), and the error at the end falls (POLLU at 1e-12: 2.3 times the tolerance, from
 * 4.8). With the dense output read, rtol' ≤ rtol already kept atol' ≤ atol.
 */
function radau5Tolerances(rtol: number, atol: number, dense: boolean): { rtolI: number; atolI: number } {
  const loosen = (tol: number) =>
    Math.min(TOL_FACTOR * Math.pow(tol, TOL_EXPONENT), dense ? DENSE_TOL_FACTOR * tol : Infinity);
  if (rtol > 0) {
    const r = Math.max(rtol, 1e-15);
    const rtolI = loosen(r);
    return { rtolI, atolI: Math.min((rtolI * atol) / r, atol) };
  }
  return { rtolI: 0, atolI: loosen(atol) };
}

/**
 * Hairer and Wanner's RADAU5 (*Solving ODEs II*, Sect. IV.8; `radau5.f`): the 3-stage Radau
 * IIA collocation method, of order 5, stiffly accurate and L-stable, for stiff problems at
 * tight tolerances, where RODAS' order 4 needs too many steps.
 *
 * What the code does per attempt, as radau5.f does it:
 * - the stage equations by a simplified Newton iteration in the coordinates that diagonalise
 *   the method's matrix (tableaus/radau5.ts): one real n×n LU of (γ/h) I − J and one complex
 *   one of ((α + iβ)/h) I − J, dense or banded, no allocation;
 * - starting values from the previous step's collocation polynomial, extrapolated;
 * - convergence watched by the contraction θ: an iteration that will not converge within NIT
 *   iterations cuts the step at once (by the predicted factor), one that diverges halves it;
 * - the error estimate of ESTRAD, an embedded order-3 solution filtered by ((γ/h) I − J)⁻¹,
 *   against transformed tolerances (TOL_EXPONENT: radau5.f's transformation with the exponent
 *   3/4 for its 2/3, for the error at the end of a long run; atol' at most atol, see
 *   radau5Tolerances);
 * - Gustafsson's predictive step-size controller (radau5.f's default, IWORK(8) = 1), with
 *   h_new/h in [0.2, 8].
 *
 * Economy (what makes it fast): the Jacobian is kept from step to step while the Newton
 * iteration contracts by θ ≤ THET, and the factorisations with it while h_new/h stays within
 * [1, 1.2] (then h is kept); a step changes h only when it is worth two LUs. The dense LUs
 * skip the zeros of sparse iteration matrices (lu.ts, SparseAwareLu).
 *
 * Dense output: the collocation polynomial of the step (radau5.f, CONTR5), a cubic through
 * y₀, the two inner stages and y₁; stiffly accurate (no evaluation of f enters it), of order 3
 * (local error O(h⁴), at the scale of the transformed tolerance rtol'). As in rodas.ts, after a
 * (re)start a step whose polynomial's slope at its start disagrees with f there (it leapt over
 * a boundary layer an event set off) is cut to the transient's scale.
 *
 * `hNorm` and `nonStiffSteps` support `auto` as rodas.ts' do. `uncontrolled` (tests only)
 * takes steps of exactly hMax and ignores the error estimate, to measure the order.
 */
export class Radau5Stepper extends StepperBase implements Stepper {
  readonly method = 'radau5' as const;
  protected override readonly minProposal = IMPLICIT_MIN_PROPOSAL;
  readonly order = 5;
  readonly adaptive = true;
  override readonly stats: StepperStats = {
    steps: 0,
    rejected: 0,
    rhsEvaluations: 0,
    jacobians: 0,
    factorizations: 0,
    newtonIterations: 0,
  };
  private readonly rtol: number;
  private readonly atol: number;
  /** the transformed tolerances the error estimate and the Newton iteration are measured against */
  private readonly rtolI: number;
  private readonly atolI: number;
  /** Newton's stopping tolerance (FNEWT), in units of the transformed tolerance */
  private readonly fnewt: number;
  private readonly hMax: number;
  private readonly uncontrolled: boolean;
  /** J and the factorisations of the iteration matrices */
  private readonly mat: RadauMatrices;
  // stage increments Z (z1..z3), their transforms W = T⁻¹Z (w1..w3), work arrays
  private readonly z1: Float64Array;
  private readonly z2: Float64Array;
  private readonly z3: Float64Array;
  private readonly w1: Float64Array;
  private readonly w2: Float64Array;
  private readonly w3: Float64Array;
  private readonly zs: readonly [Float64Array, Float64Array, Float64Array];
  private readonly ws: readonly [Float64Array, Float64Array, Float64Array];
  private readonly scal: Float64Array;
  /** the error's scale: atol' + rtol'·max(|y₀|, |y₁|), as rodas.ts and dopri5 judge it (estimate) */
  private readonly scalErr: Float64Array;
  private readonly ys: Float64Array;
  private readonly fk: Float64Array;
  private readonly yNew: Float64Array;
  private readonly fNew: Float64Array;
  // the collocation polynomial of the last accepted step (radau5.f's CONT(N+1..4N))
  private readonly d1: Float64Array;
  private readonly d2: Float64Array;
  private readonly d3: Float64Array;
  // the same from the step's start, for its first half (radau5-collocation.ts, startCoefficients)
  private readonly e1: Float64Array;
  private readonly e2: Float64Array;
  private readonly e3: Float64Array;

  private hAbsNext = Number.NaN;
  // the attempt in progress: its end, its h, the magnitude proposed for it, whether an
  // attempt of this step was rejected, and the factor to cut h by after a failure
  private tTry = 0;
  private hTry = 0;
  private hProposed = 0;
  private rejected = false;
  private cut = 1;
  /** the attempt's scaled error, dense-output mismatch, and the controller's next |h| */
  private err = 0.5;
  private mismatch = 0.5;
  private hNext = 0.5;
  /** the h the factorisations are for (NaN: none valid) */
  private luH = Number.NaN;
  /** J is to be evaluated at the start of the next attempt */
  private needJac = true;
  /** J was evaluated at this step's start (radau5.f's CALJAC) */
  private jacFresh = false;
  /** Newton's contraction and its bookkeeping (THETA, FACCON, THQOLD, DYNOLD) */
  private theta = THET;
  private faccon = 1;
  private thqold = 0;
  private dynold = 0;
  /** Newton iterations of the last attempt */
  private newt = 0;
  /** accepted steps since the (re)start; Gustafsson's memory */
  private accepted = 0;
  private hAcc = 0;
  private errAcc = 1e-2;
  private denseCheck = true;
  /** the caller reads the dense output (events, switches, rows between steps): its midpoint is checked */
  private readonly denseRead: boolean;

  /** |h|·‖J‖∞ of the last accepted step (see rodas.ts) */
  hNorm = Number.NaN;
  /** accepted steps in a row with hNorm below nonStiffBelow (auto.ts switches back to dopri5 on a run of them) */
  nonStiffSteps = 0;
  /** see nonStiffSteps (1.5, as rodas.ts; auto.ts sets its own) */
  nonStiffBelow = 1.5;

  constructor(n: number, f: Rhs, options: StepperOptions) {
    super(n, f);
    const { rtol, atol, hMax } = options;
    checkTolerances(rtol, atol, hMax);
    this.uncontrolled = options.uncontrolled === true;
    if (this.uncontrolled && !(hMax < Infinity)) throw new RangeError('radau5: uncontrolled steps need a finite hMax');
    this.rtol = rtol;
    this.atol = atol;
    this.hMax = hMax;
    this.denseRead = options.denseOutput !== false;
    ({ rtolI: this.rtolI, atolI: this.atolI } = radau5Tolerances(rtol, atol, this.denseRead));
    const tolst = this.rtolI > 0 ? this.rtolI : this.atolI;
    this.fnewt = Math.max((10 * UROUND) / tolst, Math.min(0.03, Math.sqrt(tolst)));
    this.mat = new RadauMatrices(n, f, options.jacobian?.() ?? null);
    const v = () => new Float64Array(n);
    this.z1 = v();
    this.z2 = v();
    this.z3 = v();
    this.w1 = v();
    this.w2 = v();
    this.w3 = v();
    this.zs = [this.z1, this.z2, this.z3];
    this.ws = [this.w1, this.w2, this.w3];
    this.scal = v();
    this.scalErr = v();
    this.ys = v();
    this.fk = v();
    this.yNew = v();
    this.fNew = v();
    this.d1 = v();
    this.d2 = v();
    this.d3 = v();
    this.e1 = v();
    this.e2 = v();
    this.e3 = v();
  }

  reset(t: number, y: ArrayLike<number>, hInit?: number): void {
    this.restart(t, y);
    this.hAbsNext = hInit !== undefined && Number.isFinite(hInit) && hInit !== 0 ? Math.abs(hInit) : Number.NaN;
    // the state jumped: a Jacobian from before says little about the new one
    this.needJac = true;
    this.jacFresh = false;
    this.luH = Number.NaN;
    this.accepted = 0;
    this.errAcc = 1e-2;
    this.faccon = 1;
    this.theta = THET;
    this.denseCheck = true;
  }

  override resetStats(): void {
    super.resetStats();
    this.stats.jacobians = 0;
    this.stats.factorizations = 0;
    this.stats.newtonIterations = 0;
  }

  step(tLimit: number): StepOutcome {
    if (!this.beginStep(tLimit)) return 'nonFinite';
    const n = this.n,
      t0 = this.t,
      y = this.y,
      hMax = this.hMax;
    let absH = this.uncontrolled ? hMax : this.firstTry(this.hAbsNext, 5, hMax, this.atol, this.rtol, this.ys, this.fk);
    for (let i = 0; i < n; i++) this.scal[i] = this.atolI + this.rtolI * Math.abs(y[i]);
    this.rejected = false;
    let nonFinite = false;
    // (The attempt's numbers travel in fields, not as arguments: a double passed to or returned
    // from a call V8 does not inline is boxed, one allocation each, several per step.)
    for (;;) {
      const tNew = this.attemptEnd(tLimit, absH, hMax);
      if (tNew !== tNew) return nonFinite ? 'nonFinite' : 'stepSizeUnderflow';
      this.tTry = tNew;
      this.hTry = tNew - t0;
      this.hProposed = absH;
      const hAbs = Math.abs(this.hTry);
      let outcome = this.prepareMatrices() ? this.newton() : CUT;
      if (outcome === CONVERGED) outcome = this.judge();
      if (outcome === CONVERGED) return 'accepted';
      if (outcome === NON_FINITE) nonFinite = true;
      this.stats.rejected++;
      this.rejected = true;
      // radau5.f: after a failed attempt the Jacobian is made afresh ("IF (CALJAC) GOTO 20; GOTO 10")
      this.needJac = true;
      absH = hAbs * this.cut;
    }
  }

  /**
   * The Jacobian (when asked for and not yet made at this step's start) and the
   * factorisations for hTry (when those in hand are for another h). The factorisations are
   * reused for the h they were made for; t0 + h rounds, so "the same h" is the same to 1e-12
   * (a simplified Newton iteration converges to the same stages whatever the matrix, only the
   * rate depends on it). False, with cut = 0.5 (radau5.f), when a matrix is singular.
   */
  private prepareMatrices(): boolean {
    if (this.needJac && !this.jacFresh) {
      this.stats.rhsEvaluations += this.mat.evaluate(this.t, this.y, this.dydt, this.ys, this.fk);
      this.stats.jacobians!++;
      this.jacFresh = true;
      this.luH = Number.NaN;
    }
    const h = this.hTry;
    if (Math.abs(h - this.luH) <= 1e-12 * Math.abs(h)) return true;
    this.stats.factorizations!++;
    if (this.mat.factor(h)) {
      this.luH = h;
      return true;
    }
    this.luH = Number.NaN;
    this.cut = 0.5;
    return false;
  }

  /**
   * After the Newton iteration converged: the error test, and either the accepted step
   * (CONVERGED, with the next step's proposal) or the factor to cut h by (CUT, NON_FINITE).
   */
  private judge(): number {
    const hAbs = Math.abs(this.hTry);
    if (this.uncontrolled) this.err = 0;
    else this.estimate();
    let err = this.err;
    this.mismatch = 0;
    if (err < 1 && this.denseCheck && !this.uncontrolled) this.denseMismatch();
    const mismatch = this.mismatch;
    if (mismatch > DENSE_MISMATCH_MAX) {
      // the step's end is right, the way there is not: shorter, to the transient's scale
      this.cut = Math.max(1 / FIRST_CUT_MAX, Math.min(0.2, SAFE * (DENSE_MISMATCH_MAX / mismatch) ** 0.25));
      return CUT;
    }
    // The polynomial's error between the ends grows as h⁴, as the estimate's does: the larger
    // of the two sets h, so a step the midpoint limits is not proposed again only to be cut.
    if (err < 1 && this.denseRead && !this.uncontrolled)
      err = Math.max(err, this.innerError(-0.75) / DENSE_MIDPOINT_MAX, this.innerError(-0.25) / DENSE_MIDPOINT_MAX);
    // radau5.f: fewer Newton iterations, a bolder step
    const fac = Math.min(SAFE, CFAC / (this.newt + 2 * NIT));
    const raw = Math.pow(err, 0.25) / fac;
    let quot = Math.max(FACR, Math.min(FACL, raw));
    if (!(err < 1)) {
      // before the first accepted step of a (re)start h is a guess: cut as deep as the error asks
      this.cut = this.accepted === 0 ? 1 / Math.min(FIRST_CUT_MAX, Math.max(10, raw)) : 1 / quot;
      return CUT;
    }
    if (!this.finishAccepted()) {
      this.cut = NON_FINITE_SHRINK;
      return NON_FINITE;
    }
    this.denseCheck = mismatch > 0.5 * DENSE_MISMATCH_MAX;
    if (this.accepted > 0) {
      // Gustafsson: the error's trend over the last two steps predicts the next
      const gus = ((this.hAcc / hAbs) * Math.pow((err * err) / this.errAcc, 0.25)) / SAFE;
      quot = Math.max(quot, Math.max(FACR, Math.min(FACL, gus)));
    } else {
      // the first step of a (re)start was a guess: let it grow as far as the error allows
      quot = Math.max(1 / Math.max(this.firstStepGrowth, 1 / FACR), Math.min(FACL, raw));
    }
    this.hAcc = hAbs;
    this.errAcc = Math.max(1e-2, err);
    this.accepted++;
    this.hNext = hAbs / quot;
    this.proposeNext();
    return CONVERGED;
  }

  /**
   * After an accepted step: the next proposal from the controller's hNew, keeping h (and the
   * factorisations) where the change would be small and the Newton iteration converged well.
   */
  private proposeNext(): void {
    let hNew = this.hNext;
    const hAbs = Math.abs(this.hTry),
      absH = this.hProposed;
    if (this.uncontrolled) {
      this.hAbsNext = this.hMax;
      return;
    }
    if (hNew > this.hMax) hNew = this.hMax;
    if (this.rejected && hNew > hAbs) hNew = hAbs;
    // a step cut short by tLimit says nothing against the size that was proposed
    if (hAbs < absH && hNew >= hAbs && hNew < absH) hNew = absH;
    const goodJac = this.theta <= THET;
    const q = hNew / hAbs;
    if (goodJac && q >= QUOT1 && q <= QUOT2) hNew = hAbs;
    this.needJac = !goodJac;
    this.hAbsNext = hNew;
  }

  /**
   * The simplified Newton iteration for the stage increments of a step of hTry from (t, y),
   * with the factorisations in hand. CONVERGED (Z in z1..z3), NON_FINITE when f was not
   * finite, or CUT with the factor to cut h by in `cut` (0.5 when it diverged).
   */
  private newton(): number {
    const t0 = this.t,
      h = this.hTry;
    const n = this.n,
      f = this.f,
      y = this.y,
      scal = this.scal;
    const z1 = this.z1,
      z2 = this.z2,
      z3 = this.z3,
      w1 = this.w1,
      w2 = this.w2,
      w3 = this.w3,
      ys = this.ys;
    const fac1 = GAMMA / h,
      alphn = ALPHA / h,
      betan = BETA / h;
    // Newton's corrections on the scale of the step's larger end (Euler's guess y₀ + h·f₀ for
    // it): on y₀'s alone a velocity that starts at 0 beside a position of 1e300 is held to
    // atol, below the rounding of its own stages, and never converges
    const f0 = this.dydt;
    for (let i = 0; i < n; i++)
      scal[i] = this.atolI + this.rtolI * Math.max(Math.abs(y[i]), Math.abs(y[i] + h * f0[i]));
    if (this.accepted === 0) {
      z1.fill(0);
      z2.fill(0);
      z3.fill(0);
      w1.fill(0);
      w2.fill(0);
      w3.fill(0);
    } else {
      // the last step's collocation polynomial, extrapolated to this step's nodes
      extrapolateStages(this.d1, this.d2, this.d3, h / this.hLast, this.zs, this.ws, n);
    }
    // uncontrolled (order measurements): iterate to convergence at the step size given
    const nit = this.uncontrolled ? 50 : NIT;
    let newt = 0;
    let faccon = Math.pow(Math.max(this.faccon, UROUND), 0.8);
    this.theta = THET;
    this.cut = 0.5;
    for (;;) {
      if (newt >= nit) return CUT;
      for (let i = 0; i < n; i++) ys[i] = y[i] + z1[i];
      f(t0 + C1 * h, ys, z1);
      for (let i = 0; i < n; i++) ys[i] = y[i] + z2[i];
      f(t0 + C2 * h, ys, z2);
      for (let i = 0; i < n; i++) ys[i] = y[i] + z3[i];
      f(t0 + h, ys, z3);
      this.stats.rhsEvaluations += 3;
      if (!allFinite(z1, n) || !allFinite(z2, n) || !allFinite(z3, n)) {
        this.cut = NON_FINITE_SHRINK;
        return NON_FINITE;
      }
      for (let i = 0; i < n; i++) {
        const a1 = z1[i],
          a2 = z2[i],
          a3 = z3[i];
        const s2 = -w2[i],
          s3 = -w3[i];
        z1[i] = TI11 * a1 + TI12 * a2 + TI13 * a3 - w1[i] * fac1;
        z2[i] = TI21 * a1 + TI22 * a2 + TI23 * a3 + s2 * alphn - s3 * betan;
        z3[i] = TI31 * a1 + TI32 * a2 + TI33 * a3 + s3 * alphn + s2 * betan;
      }
      this.mat.solveReal(z1);
      this.mat.solveComplex(z2, z3);
      newt++;
      this.stats.newtonIterations!++;
      let dyno = 0;
      for (let i = 0; i < n; i++) {
        // (divided, not times 1/scal: a scale below 5.6e-309, atol 1e-320 at a state of 1e-304,
        // has no finite reciprocal, and 0·Infinity is NaN, "not finite", for a state of 1e-304)
        const sc = scal[i];
        const a = z1[i] / sc,
          b = z2[i] / sc,
          c = z3[i] / sc;
        dyno += a * a + b * b + c * c;
      }
      dyno = Math.sqrt(dyno / (3 * n));
      if (!(dyno === dyno)) {
        this.cut = NON_FINITE_SHRINK;
        return NON_FINITE;
      }
      if (newt > 1 && newt < nit) {
        const thq = dyno / this.dynold;
        const theta = newt === 2 ? thq : Math.sqrt(thq * this.thqold);
        this.theta = theta;
        this.thqold = thq;
        if (!(theta < 0.99)) return CUT;
        faccon = theta / (1 - theta);
        const dyth = (faccon * dyno * Math.pow(theta, NIT - 1 - newt)) / this.fnewt;
        if (dyth >= 1 && !this.uncontrolled) {
          // it would not converge within NIT iterations: cut h now by the predicted factor
          const qnewt = Math.max(1e-4, Math.min(20, dyth));
          this.faccon = faccon;
          this.cut = 0.8 * Math.pow(qnewt, -1 / (4 + NIT - 1 - newt));
          return CUT;
        }
      }
      this.dynold = Math.max(dyno, UROUND);
      for (let i = 0; i < n; i++) {
        const a1 = w1[i] + z1[i],
          a2 = w2[i] + z2[i],
          a3 = w3[i] + z3[i];
        w1[i] = a1;
        w2[i] = a2;
        w3[i] = a3;
        z1[i] = T11 * a1 + T12 * a2 + T13 * a3;
        z2[i] = T21 * a1 + T22 * a2 + T23 * a3;
        z3[i] = T31 * a1 + a2;
      }
      if (faccon * dyno <= this.fnewt) break;
    }
    this.faccon = faccon;
    this.newt = newt;
    return CONVERGED;
  }

  /**
   * radau5.f's ESTRAD: the scaled error of the attempt whose stages are in z1..z3. When it
   * fails on the first step of a (re)start or after a rejection, once more with f at
   * y₀ + the first estimate in place of f(t0, y0) (a better filter for very stiff components).
   * Overwrites w1, w2.
   */
  private estimate(): void {
    const t0 = this.t,
      h = this.hTry,
      retry = this.accepted === 0 || this.rejected;
    const n = this.n,
      z1 = this.z1,
      z2 = this.z2,
      z3 = this.z3,
      g = this.w2,
      e = this.ys,
      f0 = this.dydt;
    const hee1 = DD1 / h,
      hee2 = DD2 / h,
      hee3 = DD3 / h;
    // The error is judged on the scale of the step's larger end (y₁ = y₀ + Z₃), not of y₀ alone
    // (radau5.f's SCAL): a velocity that starts at 0 beside a position of 1e160 would otherwise
    // be held to atol, and its error of 1e160·h² cut h until 1/h overflowed.
    const y0 = this.y,
      se = this.scalErr;
    for (let i = 0; i < n; i++) se[i] = this.atolI + this.rtolI * Math.max(Math.abs(y0[i]), Math.abs(y0[i] + z3[i]));
    for (let i = 0; i < n; i++) {
      const gi = hee1 * z1[i] + hee2 * z2[i] + hee3 * z3[i];
      g[i] = gi;
      e[i] = gi + f0[i];
    }
    this.mat.solveReal(e);
    let err = this.scaledNorm(e);
    if (err >= 1 && retry) {
      const y = this.y,
        fe = this.w1;
      for (let i = 0; i < n; i++) e[i] += y[i];
      this.f(t0, e, fe);
      this.stats.rhsEvaluations++;
      for (let i = 0; i < n; i++) e[i] = fe[i] + g[i];
      this.mat.solveReal(e);
      err = this.scaledNorm(e);
    }
    this.err = err;
  }

  private scaledNorm(e: Float64Array): number {
    const n = this.n,
      scal = this.scalErr;
    let s = 0;
    for (let i = 0; i < n; i++) {
      const q = e[i] / scal[i];
      s += q * q;
    }
    const err = Math.sqrt(s / n);
    // NaN (a non-finite estimate) rejects like a huge error
    return err === err ? Math.max(err, 1e-10) : Infinity;
  }

  /**
   * The scaled RMS of h·(p'(t0) − f(t0, y0)) for the collocation polynomial p of the attempt
   * in z1..z3 (see rodas.ts' denseMismatch), in units of the transformed tolerance.
   */
  private denseMismatch(): void {
    this.mismatch = slopeMismatch(this.z1, this.z2, this.z3, this.dydt, this.scal, this.hTry, this.n);
  }

  /**
   * The error of the attempt's collocation polynomial p at s (in [−1, 0]) inside the step,
   * scaled RMS, estimated from its defect there, d = h·(p'(t) − f(t, p(t))), filtered as ESTRAD filters
   * its estimate: (I − (h/γ)J)⁻¹·d, which is d for a slow component and about the error for a
   * stiff one (where d is the error times hλ). Uses ys, fk and w3 (free after the iteration).
   */
  private innerError(s: number): number {
    const n = this.n,
      h = this.hTry,
      mid = this.ys,
      fMid = this.fk,
      d = this.w3;
    collocationInside(s, this.z1, this.z2, this.z3, this.y, mid, d, n);
    this.f(this.t + (1 + s) * h, mid, fMid);
    this.stats.rhsEvaluations++;
    for (let i = 0; i < n; i++) d[i] -= h * fMid[i];
    if (!allFinite(d, n)) return 0;
    // (mid, read by f above, keeps the defect; the real LU holds (γ/h) I − J, whose solve is
    // (h/γ)·(I − (h/γ)J)⁻¹: filtered as (I − h·(1/γ)·J)⁻¹, so defectError's γ is 1/γ)
    mid.set(d);
    this.mat.solveReal(d);
    const back = GAMMA / h;
    for (let i = 0; i < n; i++) d[i] = defectError(mid[i], back * d[i], 1 / GAMMA);
    const err = this.scaledNorm(d);
    return err === Infinity ? 0 : err;
  }

  /** y₁ = y₀ + Z₃ and f there; if finite, the step is accepted with its collocation polynomial */
  private finishAccepted(): boolean {
    const t0 = this.t,
      tNew = this.tTry,
      h = this.hTry;
    const n = this.n,
      z1 = this.z1,
      z2 = this.z2,
      z3 = this.z3,
      yNew = this.yNew;
    this.addIncrement(z3, yNew); // y + z3, compensated (StepperBase.addIncrement)
    this.f(tNew, yNew, this.fNew);
    this.stats.rhsEvaluations++;
    if (!allFinite(this.fNew, n)) return false;
    this.accept(t0, tNew, h, yNew, this.fNew);
    collocationCoefficients(z1, z2, z3, this.d1, this.d2, this.d3, n);
    startCoefficients(z1, z2, z3, this.e1, this.e2, this.e3, n);
    this.jacFresh = false;
    const hn = Math.abs(h) * this.mat.jacNorm;
    this.hNorm = hn;
    this.nonStiffSteps = hn < this.nonStiffBelow ? this.nonStiffSteps + 1 : 0;
    return true;
  }

  /**
   * Component i of the last step's polynomial at th ∈ [−1, 0] (s − t over the step): in the
   * first half, where the step starts a binade or more below its end (|y₀| < |y₁|/2), from the
   * start, whose rounding is then the finer there (radau5-collocation.ts, startCoefficients);
   * else from the end, as radau5.f (bodies of a row near x = 4.75 that meet at one instant keep
   * the one form, and their gaps its rounding).
   */
  private valueAt(th: number, i: number): number {
    const y0 = this.yPrev[i];
    if (th < -0.5 && Math.abs(y0) < 0.5 * Math.abs(this.y[i]))
      return collocationFromStart(this.yPrev, this.e1, this.e2, this.e3, 1 + th, i);
    return collocationAt(this.y, this.d1, this.d2, this.d3, th, i);
  }

  interpolate(s: number, out: Float64Array): void {
    if (this.copyStepEnd(s, out)) return;
    const th = (s - this.t) / this.hLast;
    for (let i = 0; i < this.n; i++) out[i] = this.valueAt(th, i);
  }

  override interpolateSome(s: number, idx: Int32Array, out: Float64Array): void {
    const y = this.y;
    if (s === this.t || this.hLast === 0) {
      for (let j = 0; j < idx.length; j++) out[idx[j]] = y[idx[j]];
      return;
    }
    if (s === this.tPrev) {
      for (let j = 0; j < idx.length; j++) out[idx[j]] = this.yPrev[idx[j]];
      return;
    }
    const th = (s - this.t) / this.hLast;
    for (let j = 0; j < idx.length; j++) out[idx[j]] = this.valueAt(th, idx[j]);
  }
}
