import { Dopri5Stepper } from './dopri5.js';
import { Radau5Stepper } from './radau5.js';
import { RodasStepper } from './rodas.js';
import type { Rhs, StepOutcome, Stepper, StepperOptions, StepperStats } from './stepper.js';

/**
 * h·|λ| above which a DOPRI5 step counts as limited by stability. Lower than the 3.25 of
 * Hairer's dopri5.f: at tight tolerances the PI controller keeps h·|λ| just inside the
 * border (3.0 to 3.27 on Robertson at rtol 1e-8, median 3.2), where a test at 3.25 keeps
 * being cleared and DOPRI5 crawls on at the stability limit for thousands of steps.
 */
const STIFF_H_LAMBDA = 2.5;
/**
 * The same where radau5 takes over (tight tolerances), and radau5's |h|·‖J‖∞ below which its
 * steps count as non-stiff. At rtol 1e-10 DOPRI5 lingers with h·|λ| between 1 and 2.5 for
 * thousands of steps where radau5 takes tens (ROBER: 5218 steps in all with 2.5, 973 with
 * 0.5; OREGO 9426 and 3126), because radau5's steps there are set by accuracy and are much
 * longer. The way back uses the same bound, below which DOPRI5's own estimate would not call
 * the problem stiff (‖J‖∞ ≥ |λ|), so the two tests do not hand the problem to and fro.
 * Accuracy-limited non-stiff problems show h·|λ| of a few hundredths at these tolerances
 * (an oscillator: h ≈ 0.02 at rtol 1e-10), far below it.
 */
const STIFF_H_LAMBDA_TIGHT = 0.5;
/** positive stiffness tests that make auto switch to the implicit method (Hairer's dopri5.f: 15) */
const STIFF_TESTS = 15;
/**
 * h·|λ| beyond which an accepted DOPRI5 step lies outside the method's stability region
 * (which reaches |z| = 3.40 at most in the left half-plane, 3.31 on the negative real axis):
 * such a step multiplies the error of the dominant mode by |R(z)| (3.3 at z = −4, 44 at −6).
 * The error test accepts it only while that mode's error is below the tolerance, as when atol
 * exceeds the component itself (Robertson's y2, at most 3.6e-5, under atol 1e-4): the error
 * then grows unchecked until it is the size of atol, and the state leaves the region where
 * the problem is well posed (y2 < −3.7e-5: y2' = −3e7·y2² blows up within 1e-3 of t).
 */
const UNSTABLE_H_LAMBDA = 4;
/**
 * Accepted steps outside the stability region (h·|λ| > UNSTABLE_H_LAMBDA) whose next attempt
 * failed the error test, with no run of NON_STIFF_TESTS clearly inside the region in between,
 * that make auto switch at once. The failure confirms the estimate: the mode the step
 * amplified has grown into sight of the error test. (The estimate alone can be far off: on
 * an oscillator z'' = −1e4·z, not stiff at h·|λ| = 0.17, J is so far from normal in (z, z')
 * that single steps show 4 to 16, followed by accepted steps.) On Robertson at atol 1e-4 the
 * step size controller, held at the border, goes round a step at h·|λ| ≈ 6, a rejection and
 * two short steps: the 15 tests of dopri5.f came after the solution had already blown up
 * (t = 0.026 at rtol 1e-6, 0.012 at 1e-5); two of these switch at t = 0.013 (0.0078).
 * Looser still (atol 2e-4 to 0.1), DOPRI5 can blow up within its first five steps, on a step
 * whose own estimate says h·|λ| < 2: no test of its steps comes in time there.
 */
const UNSTABLE_TESTS = 2;
/** non-stiff tests in a row that clear the count (dopri5.f: 6) */
const NON_STIFF_TESTS = 6;
/** RODAS steps in a row that an explicit method could have taken before auto switches back */
const NON_STIFF_STEPS = 15;
/** an explicit phase shorter than this that ends stiff again was a false alarm: back off */
const SHORT_EXPLICIT_PHASE = 100;
const MAX_NON_STIFF_STEPS = 15 * 4 ** 5;
/**
 * rtol below which the implicit method is radau5 (order 5) rather than rodas (order 4).
 * Measured on the Test Set problems (bench/stiff/testset.mjs, bench/README.md): at rtol 1e-7
 * and tighter radau5 is faster on all five (1.2 to 3x at 1e-7, 3 to 15x at 1e-10); at 1e-6
 * (the default) the two are within each other's noise, rodas ahead on ROBER, radau5 on VDPOL;
 * at 1e-5 and looser rodas is faster (cheaper steps, and a restart after an event costs it no
 * Newton iteration from scratch). So the default tolerance keeps rodas.
 *
 * atol must be below it too: a component of size 1 is held to atol + rtol, so an atol above
 * 5e-7 asks for a loose tolerance however tight rtol is, and there radau5 is also the less
 * reliable of the two. On Robertson at atol 1e-4 (y2 is at most 3.6e-5) and rtol 1e-7 or
 * 1e-8 it lets y2 turn negative, and y1 follows y1' = −4.8e-4·y1² to −4e7 by t = 1e11;
 * rodas is right at every rtol from 1e-7 to 1e-12 with atol from 1e-4 to 1e-6, in 58 to 139
 * steps where radau5 takes 79 to 221.
 */
export const RADAU5_BELOW_RTOL = 5e-7;
/**
 * With this many states or more, and where the caller does not read the dense output, radau5
 * also below RADAU5_LARGE_BELOW_RTOL (the default rtol, 1e-6, included). Rodas factors its
 * iteration matrix at every step; radau5 keeps its Jacobian and factorisations across steps
 * while its Newton iteration contracts well (HIRES at rtol 1e-6: 54 pairs of LUs in 208 steps,
 * rodas 204 LUs in 522), and the sparse refactorisation of lu.ts makes each pair cheap. That
 * pays the more the larger the matrix. Measured at rtol 1e-6 (bench/stiff, CPU time of auto
 * with each): HIRES (8 states) 25 % faster with radau5, POLLU (20) 15 %, the chain of 1000
 * 7 %. For 2 or 3 states it is a toss-up: OREGO and VDPOL on the Test Set's ranges 25 %
 * faster, ROBER 14 % slower, and Robertson on [0, 1e5] and Van der Pol (mu = 1000) on
 * [0, 3000] 70 to 80 % slower, so small systems keep rodas. With the dense output read
 * (events to locate, rows on a grid) radau5 holds its estimate at rtol itself
 * (radau5.ts, DENSE_TOL_FACTOR), several times the steps, and restarts after events cost it a
 * Newton iteration from scratch: rodas there.
 */
export const RADAU5_LARGE_STATES = 8;
export const RADAU5_LARGE_BELOW_RTOL = 2e-6;

type Implicit = RodasStepper | Radau5Stepper;

const REASON_START = 'not stiff (so far): dopri5, the explicit method auto starts with';

/**
 * `auto`: DOPRI5 while the problem is not stiff, an implicit method while it is, switching
 * both ways at the end of an accepted step (as LSODA switches between Adams and BDF). The
 * implicit method is chosen by the tolerance: radau5 (order 5) where rtol and atol are below
 * RADAU5_BELOW_RTOL, rodas (order 4) at looser ones (where its cheaper steps win); and by the
 * size: radau5 up to RADAU5_LARGE_BELOW_RTOL for RADAU5_LARGE_STATES states or more when the
 * dense output is not read (it reuses its factorisations).
 *
 * - Explicit → implicit: Hairer's stiffness test of DOPRI5 (h·|λ| ≈ h‖k7 − k6‖/‖y1 − y6‖, an
 *   estimate of the dominant eigenvalue times the step, from stages it computes anyway) above
 *   2.5 on 15 accepted steps with no run of 6 clearly below it in between: the step size is
 *   held at the border of stability, not set by accuracy. (At tight tolerances, below
 *   RADAU5_BELOW_RTOL, above 0.5: see STIFF_H_LAMBDA_TIGHT.) Or sooner, on 2 accepted steps beyond
 *   the border (h·|λ| above 4, see UNSTABLE_H_LAMBDA), each followed by a rejection: DOPRI5 is
 *   then unstable, held in check only by an error test that a loose atol can make blind to
 *   the component that grows.
 * - Implicit → explicit: the implicit method's own test (rodas.ts, radau5.ts: nonStiffSteps):
 *   |h|·‖J‖∞ below 1.5 (tight tolerances: 0.5, see STIFF_H_LAMBDA_TIGHT), well inside DOPRI5's
 *   stability region, on 15 accepted steps in a row:
 *   DOPRI5 could take the same steps, at six evaluations of f and no Jacobian or LU. The fast
 *   transient after a restart (a dose into a stiff compartment model) looks like that, and
 *   DOPRI5 then finds the problem stiff again at once: each such short explicit phase
 *   multiplies the run the implicit method must show by 4, so that auto does not thrash.
 *
 * The implicit stepper (and with it the model's Jacobian) is made at the first switch, so a
 * problem that never looks stiff costs what DOPRI5 costs. A switch restarts the other stepper
 * at the current state with the step in use (one evaluation of f). Events do not switch: a
 * reset restarts the method in use, since stiffness is a property of the model's time scales.
 *
 * `stats.method` is the method in use, `stats.methodReason` why (one of a few fixed strings,
 * made once: no allocation per switch), `stats.switches` how often it changed.
 *
 * The public state (y, t, ...) is the active stepper's, mirrored after every call; the arrays
 * change identity at a switch, so a caller reads them after each call (as the Simulator does).
 */
export class AutoStepper implements Stepper {
  readonly method = 'auto' as const;
  readonly n: number;
  readonly adaptive = true;
  readonly stats: StepperStats = {
    steps: 0,
    rejected: 0,
    rhsEvaluations: 0,
    method: 'dopri5',
    switches: 0,
    methodReason: REASON_START,
  };
  private readonly explicit: Dopri5Stepper;
  private stiff: Implicit | null = null;
  private active: Dopri5Stepper | Implicit;
  private readonly f: Rhs;
  private readonly options: StepperOptions;
  /** the implicit method for this tolerance, and why (see RADAU5_BELOW_RTOL) */
  private readonly implicitMethod: 'rodas' | 'radau5';
  private readonly reasonStiff: string;
  private readonly reasonUnstable: string;
  private readonly reasonBack: string;
  private readonly stiffHLambda: number;
  /** the tolerance is tight (below RADAU5_BELOW_RTOL): the stiffness tests of STIFF_H_LAMBDA_TIGHT */
  private readonly tight: boolean;
  private stiffCount = 0;
  /** accepted explicit steps outside DOPRI5's stability region, confirmed (see UNSTABLE_TESTS) */
  private unstableCount = 0;
  /** the last accepted explicit step was outside the stability region, not yet confirmed */
  private unstablePending = false;
  private nonStiffCount = 0;
  /** the implicit method's non-stiff run needed to switch back (grows after false alarms) */
  private backAfter = NON_STIFF_STEPS;
  /** accepted explicit steps since the last switch to DOPRI5 */
  private explicitSteps = 0;
  private minStepValue = 0;
  private growth = 1e4;

  constructor(n: number, f: Rhs, options: StepperOptions) {
    this.n = n;
    this.f = f;
    this.options = options;
    this.explicit = new Dopri5Stepper(n, f, options);
    const tol = options.rtol > 0 ? options.rtol : options.atol;
    const large = n >= RADAU5_LARGE_STATES && options.denseOutput === false && tol < RADAU5_LARGE_BELOW_RTOL;
    this.implicitMethod = (tol < RADAU5_BELOW_RTOL || large) && options.atol < RADAU5_BELOW_RTOL ? 'radau5' : 'rodas';
    // (the stiffness tests follow the tolerance, not the method: see STIFF_H_LAMBDA_TIGHT)
    this.tight = tol < RADAU5_BELOW_RTOL && options.atol < RADAU5_BELOW_RTOL;
    this.stiffHLambda = this.tight ? STIFF_H_LAMBDA_TIGHT : STIFF_H_LAMBDA;
    const which =
      this.implicitMethod === 'radau5'
        ? tol < RADAU5_BELOW_RTOL
          ? `rtol ${tol} < ${RADAU5_BELOW_RTOL}: radau5, order 5`
          : `rtol ${tol} < ${RADAU5_LARGE_BELOW_RTOL}, ${n} states and no dense output read: radau5, order 5, which keeps its LUs across steps`
        : tol < RADAU5_BELOW_RTOL || large
          ? `atol ${options.atol} ≥ ${RADAU5_BELOW_RTOL}: rodas, order 4`
          : `rtol ${tol} ≥ ${RADAU5_BELOW_RTOL}: rodas, order 4`;
    this.reasonStiff = `stiff: h·|λ| of dopri5's steps above ${this.stiffHLambda} on ${STIFF_TESTS} steps; ${which}`;
    this.reasonUnstable = `stiff: ${UNSTABLE_TESTS} of dopri5's steps accepted outside its stability region (h·|λ| above ${UNSTABLE_H_LAMBDA}), each followed by a rejected step; ${which}`;
    const backBelow = this.tight ? STIFF_H_LAMBDA_TIGHT : 1.5;
    this.reasonBack = `not stiff: ${this.implicitMethod}'s last ${NON_STIFF_STEPS} or more steps were well inside dopri5's stability region (|h|·‖J‖∞ < ${backBelow}): back to dopri5`;
    this.active = this.explicit;
    this.y = this.explicit.y;
    this.yPrev = this.explicit.yPrev;
    this.dydt = this.explicit.dydt;
  }

  /** the public state is the active stepper's */
  private mirror(): void {
    const a = this.active;
    this.t = a.t;
    this.tPrev = a.tPrev;
    this.hLast = a.hLast;
    this.y = a.y;
    this.yPrev = a.yPrev;
    this.dydt = a.dydt;
  }

  get order(): number {
    return this.active.order;
  }
  // Plain fields, copied from the active stepper after every call, rather than getters: the
  // event driver reads them several times per step, and a data property is what its inline
  // caches handle best; `auto` must not make the explicit workloads slower than dopri5 alone.
  // Writing them does not reach the stepper: change the state with reset().
  t = 0;
  tPrev = 0;
  hLast = 0;
  y: Float64Array;
  yPrev: Float64Array;
  dydt: Float64Array;
  get minStep(): number {
    return this.minStepValue;
  }
  set minStep(v: number) {
    this.minStepValue = v;
    this.explicit.minStep = v;
    if (this.stiff) this.stiff.minStep = v;
  }
  get firstStepGrowth(): number {
    return this.growth;
  }
  set firstStepGrowth(v: number) {
    this.growth = v;
    this.explicit.firstStepGrowth = v;
    if (this.stiff) this.stiff.firstStepGrowth = v;
  }
  /** the method taking the steps now */
  get current(): 'dopri5' | 'rodas' | 'radau5' {
    return this.active.method;
  }
  /**
   * dopri5's last step was held by stability (StiffnessTest.heldAtBorder): the steps before
   * the switch to the implicit method, whose states are off the slow solution by up to the
   * tolerance as an implicit method's stiff steps are (driver: stiff-step.ts). False under
   * the implicit method, whose steps say so by hNorm.
   */
  get heldAtBorder(): boolean {
    return this.active === this.explicit && this.explicit.heldAtBorder;
  }
  /** dopri5's dense output's spread of the stiff mode (EmbeddedRkStepper.denseSpread); 1 under the implicit method */
  denseSpread(): number {
    return this.active === this.explicit ? this.explicit.denseSpread() : 1;
  }
  /** |h|·‖J‖∞ of the implicit method's last step, NaN under dopri5 (see Rodas.hNorm) */
  get hNorm(): number {
    return (this.active as Stepper & { hNorm?: number }).hNorm ?? Number.NaN;
  }

  reset(t: number, y: ArrayLike<number>, hInit?: number): void {
    // (a restart's first attempt may fail for reasons of its own: it confirms nothing)
    this.unstablePending = false;
    this.active.reset(t, y, hInit);
    this.mirror();
    this.syncStats();
  }

  step(tLimit: number): StepOutcome {
    if (this.active === this.explicit) {
      if (this.stiffCount >= STIFF_TESTS || this.unstableCount >= UNSTABLE_TESTS) this.switchTo(this.stiffStepper());
    } else if (this.stiff !== null && this.stiff.nonStiffSteps >= this.backAfter) {
      this.switchTo(this.explicit);
    }
    const rejectedBefore = this.active.stats.rejected;
    const outcome = this.active.step(tLimit);
    if (outcome === 'accepted' && this.active === this.explicit) {
      this.explicitSteps++;
      if (this.unstablePending && this.explicit.stats.rejected > rejectedBefore) this.unstableCount++;
      const hl = this.explicit.hLambda;
      this.unstablePending = hl > UNSTABLE_H_LAMBDA;
      if (hl > this.stiffHLambda) {
        this.nonStiffCount = 0;
        this.stiffCount++;
      } else if (++this.nonStiffCount >= NON_STIFF_TESTS) {
        this.stiffCount = 0;
        this.unstableCount = 0;
      }
    }
    this.mirror();
    this.syncStats();
    return outcome;
  }

  /** whether the implicit method took part in the current run (since resetStats) */
  private stiffUsed = false;

  private stiffStepper(): Implicit {
    if (this.stiff === null) {
      this.stiff =
        this.implicitMethod === 'radau5'
          ? new Radau5Stepper(this.n, this.f, this.options)
          : new RodasStepper(this.n, this.f, this.options);
      if (this.stiff instanceof Radau5Stepper && this.tight) this.stiff.nonStiffBelow = STIFF_H_LAMBDA_TIGHT;
      this.stiff.minStep = this.minStepValue;
      this.stiff.firstStepGrowth = this.growth;
    }
    return this.stiff;
  }

  private switchTo(next: Dopri5Stepper | Implicit): void {
    const from = this.active;
    const h = from.hLast;
    next.reset(from.t, from.y, h !== 0 ? h : undefined);
    if (!(next instanceof Dopri5Stepper)) {
      this.stiffUsed = true;
      next.nonStiffSteps = 0;
      if (this.stats.switches! > 0 && this.explicitSteps < SHORT_EXPLICIT_PHASE)
        this.backAfter = Math.min(4 * this.backAfter, MAX_NON_STIFF_STEPS);
      this.stats.methodReason = this.unstableCount >= UNSTABLE_TESTS ? this.reasonUnstable : this.reasonStiff;
    } else {
      this.explicitSteps = 0;
      this.stats.methodReason = this.reasonBack;
    }
    this.stiffCount = 0;
    this.unstableCount = 0;
    this.unstablePending = false;
    this.nonStiffCount = 0;
    this.active = next;
    this.stats.switches!++;
    this.stats.method = next.method;
  }

  private syncStats(): void {
    const a = this.explicit.stats,
      b = this.stiff?.stats;
    const st = this.stats;
    st.steps = a.steps + (b ? b.steps : 0);
    st.rejected = a.rejected + (b ? b.rejected : 0);
    st.rhsEvaluations = a.rhsEvaluations + (b ? b.rhsEvaluations : 0);
    // (the implicit method's counts only for a run that used it: the stepper outlives the run
    // that made it, and a later run on dopri5 alone reported jacobians: 0, factorizations: 0
    // where a fresh Simulator's run reports none)
    if (b && this.stiffUsed) {
      st.jacobians = b.jacobians;
      st.factorizations = b.factorizations;
      if (b.newtonIterations !== undefined) st.newtonIterations = b.newtonIterations;
    }
  }

  interpolate(s: number, out: Float64Array): void {
    this.active.interpolate(s, out);
  }

  interpolateSome(s: number, idx: Int32Array, out: Float64Array): void {
    this.active.interpolateSome(s, idx, out);
  }

  /**
   * Also starts over with DOPRI5 (the Simulator calls it at the start of every run, before
   * `reset`): a run must not depend on which method an earlier run of the same stepper ended
   * with.
   */
  resetStats(): void {
    this.explicit.resetStats();
    this.stiff?.resetStats();
    this.stiffUsed = false;
    const st = this.stats;
    if (st.jacobians !== undefined) delete st.jacobians;
    if (st.factorizations !== undefined) delete st.factorizations;
    if (st.newtonIterations !== undefined) delete st.newtonIterations;
    this.active = this.explicit;
    this.stiffCount = 0;
    this.unstableCount = 0;
    this.unstablePending = false;
    this.nonStiffCount = 0;
    this.backAfter = NON_STIFF_STEPS;
    this.explicitSteps = 0;
    this.stats.switches = 0;
    this.stats.method = this.active.method;
    this.stats.methodReason = REASON_START;
    this.mirror();
    this.syncStats();
  }
}
