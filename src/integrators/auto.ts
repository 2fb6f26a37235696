import { Dopri5Stepper } from './dopri5.js';
import { RodasStepper } from './rodas.js';
import type { Rhs, StepOutcome, Stepper, StepperOptions, StepperStats } from './stepper.js';

/**
 * h·|λ| above which a DOPRI5 step counts as limited by stability. Lower than the 3.25 of
 * Hairer's dopri5.f: at tight tolerances the PI controller keeps h·|λ| just inside the
 * border (3.0 to 3.27 on Robertson at rtol 1e-8, median 3.2), where a test at 3.25 keeps
 * being cleared and DOPRI5 crawls on at the stability limit for thousands of steps.
 */
const STIFF_H_LAMBDA = 2.5;
/** positive stiffness tests that make auto switch to the implicit method (Hairer's dopri5.f: 15) */
const STIFF_TESTS = 15;
/** non-stiff tests in a row that clear the count (dopri5.f: 6) */
const NON_STIFF_TESTS = 6;
/** RODAS steps in a row that an explicit method could have taken before auto switches back */
const NON_STIFF_STEPS = 15;
/** an explicit phase shorter than this that ends stiff again was a false alarm: back off */
const SHORT_EXPLICIT_PHASE = 100;
const MAX_NON_STIFF_STEPS = 15 * 4 ** 5;

/**
 * `auto`: DOPRI5 while the problem is not stiff, RODAS while it is, switching both ways at the
 * end of an accepted step (as LSODA switches between Adams and BDF).
 *
 * - Explicit → implicit: Hairer's stiffness test of DOPRI5 (h·|λ| ≈ h‖k7 − k6‖/‖y1 − y6‖, an
 *   estimate of the dominant eigenvalue times the step, from stages it computes anyway) above
 *   3.25 on 15 accepted steps with no run of 6 clearly below it in between: the step size is
 *   held at the border of stability, not set by accuracy.
 * - Implicit → explicit: RODAS's own test (rodas.ts, nonStiffSteps): |h|·‖J‖∞ below 1.5, well
 *   inside DOPRI5's stability region, on 15 accepted steps in a row: DOPRI5 could take the
 *   same steps, at six evaluations of f and no Jacobian or LU. The fast transient after a
 *   restart (a dose into a stiff compartment model) looks like that, and DOPRI5 then finds the
 *   problem stiff again at once: each such short explicit phase multiplies the run RODAS must
 *   show by 4, so that auto does not thrash.
 *
 * The implicit stepper (and with it the model's Jacobian) is made at the first switch, so a
 * problem that never looks stiff costs what DOPRI5 costs. A switch restarts the other stepper
 * at the current state with the step in use (one evaluation of f). Events do not switch: a
 * reset restarts the method in use, since stiffness is a property of the model's time scales.
 *
 * The public state (y, t, ...) is the active stepper's, mirrored after every call; the arrays
 * change identity at a switch, so a caller reads them after each call (as the Simulator does).
 */
export class AutoStepper implements Stepper {
  readonly method = 'auto' as const;
  readonly n: number;
  readonly adaptive = true;
  readonly stats: StepperStats = { steps: 0, rejected: 0, rhsEvaluations: 0, method: 'dopri5', switches: 0 };
  private readonly explicit: Dopri5Stepper;
  private stiff: RodasStepper | null = null;
  private active: Dopri5Stepper | RodasStepper;
  private readonly f: Rhs;
  private readonly options: StepperOptions;
  private stiffCount = 0;
  private nonStiffCount = 0;
  /** RODAS's non-stiff run needed to switch back (grows after false alarms) */
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
  get current(): 'dopri5' | 'rodas' {
    return this.active.method;
  }

  reset(t: number, y: ArrayLike<number>, hInit?: number): void {
    this.active.reset(t, y, hInit);
    this.mirror();
    this.syncStats();
  }

  step(tLimit: number): StepOutcome {
    if (this.active === this.explicit) {
      if (this.stiffCount >= STIFF_TESTS) this.switchTo(this.stiffStepper());
    } else if (this.stiff !== null && this.stiff.nonStiffSteps >= this.backAfter) {
      this.switchTo(this.explicit);
    }
    const outcome = this.active.step(tLimit);
    if (outcome === 'accepted' && this.active === this.explicit) {
      this.explicitSteps++;
      const hl = this.explicit.hLambda;
      if (hl > STIFF_H_LAMBDA) {
        this.nonStiffCount = 0;
        this.stiffCount++;
      } else if (++this.nonStiffCount >= NON_STIFF_TESTS) {
        this.stiffCount = 0;
      }
    }
    this.mirror();
    this.syncStats();
    return outcome;
  }

  private stiffStepper(): RodasStepper {
    if (this.stiff === null) {
      this.stiff = new RodasStepper(this.n, this.f, this.options);
      this.stiff.minStep = this.minStepValue;
      this.stiff.firstStepGrowth = this.growth;
    }
    return this.stiff;
  }

  private switchTo(next: Dopri5Stepper | RodasStepper): void {
    const from = this.active;
    const h = from.hLast;
    next.reset(from.t, from.y, h !== 0 ? h : undefined);
    if (next instanceof RodasStepper) {
      next.nonStiffSteps = 0;
      if (this.stats.switches! > 0 && this.explicitSteps < SHORT_EXPLICIT_PHASE)
        this.backAfter = Math.min(4 * this.backAfter, MAX_NON_STIFF_STEPS);
    } else {
      this.explicitSteps = 0;
    }
    this.stiffCount = 0;
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
    this.active = this.explicit;
    this.stiffCount = 0;
    this.nonStiffCount = 0;
    this.backAfter = NON_STIFF_STEPS;
    this.explicitSteps = 0;
    this.stats.switches = 0;
    this.stats.method = this.active.method;
    this.mirror();
    this.syncStats();
  }
}
