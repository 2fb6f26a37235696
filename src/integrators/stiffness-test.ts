/**
 * Hairer's stiffness test for explicit Runge–Kutta methods (Hairer & Wanner, *Solving ODEs
 * II*, IV.2; `dopri5.f`, `dop853.f`): h·|λ| ≈ h·‖f(t, y₁) − f(t, yₛ)‖/‖y₁ − yₛ‖ from the
 * last stage and the step's end, which sit at the same t. Above the border of the method's
 * stability region (3.25 for DOPRI5, 6.1 for DOP853) on 15 accepted steps with no run of 6
 * below it in between, the problem looks stiff; it stays so until 6 steps in a row are
 * clearly inside the region. Only steps whose error is near the tolerance count as above the
 * border: there the controller holds h where the stiff components' error stops growing. A step
 * with an error far inside it was not held by anything (a parabola, which every stage
 * integrates exactly: an elastic ball's steps of a whole flight, h·|λ| far above the border
 * on a nilpotent Jacobian, were taken for stiffness, and 3485 bounces came with a false
 * warning); it counts as inside the region. Read by the driver's diagnosis (a collapsing
 * step) and its warning about events fired while the method ran at its stability limit.
 */
/**
 * The error norm from which an accepted step counts as held by the controller. At the border
 * a step's error grows with its size as the stiff components' do, and the controller proposes
 * sizes near err = 1; one below 1e-3 would have been proposed some 4 times longer (order 5:
 * 1e-3^(-1/5)), which the stiff components do not allow.
 */
const HELD_ERROR = 1e-3;

/**
 * |λ| ≈ ‖f(t, y₁) − f(t, yₛ)‖/‖y₁ − yₛ‖ from two states at one t and their derivatives (a
 * stage and the step's end); NaN where the states agree.
 */
export function lambdaEstimate(
  f1: Float64Array,
  fs: Float64Array,
  y1: Float64Array,
  ys: Float64Array,
  n: number,
): number {
  let num = 0,
    den = 0;
  for (let i = 0; i < n; i++) {
    const dk = f1[i] - fs[i],
      dy = y1[i] - ys[i];
    num += dk * dk;
    den += dy * dy;
  }
  return den > 0 ? Math.sqrt(num / den) : NaN;
}

/**
 * The fraction of the border above which a single held step counts as limited by stability
 * (heldAtBorder): auto's 2.5 of DOPRI5's 3.25. The controller holds h·|λ| around the border,
 * not at it (3.08 to 3.48 for DOPRI5 and 6.2 to 6.8 for DOP853 on y' = -1e6 (y - 1e-11 cos t)).
 */
const HELD_FRACTION = 2.5 / 3.25;

export class StiffnessTest {
  looksStiff = false;
  /** the last estimate of h·|λ| (NaN before the first accepted step) */
  hLambda = Number.NaN;
  /**
   * The last accepted step was held by stability: h·|λ| near or beyond the border (above
   * HELD_FRACTION of it) with an error near the tolerance (HELD_ERROR). Over such a step the
   * stiff components are not damped as the solution is: the states are off the slow solution
   * by up to their tolerance, and one near zero by up to atol whatever its size, in a pattern
   * that changes from step to step (y' = -1e6 (y - 1e-11 cos t) at atol 1e-9: DOPRI5 holds y at
   * -4.7e-10 where it is +1e-11, and its dense output swings across zero inside each step). The
   * driver judges a crossing over such a step as over a stiff one (crossing-noise.ts). One step
   * suffices, unlike looksStiff: the question is what this step's states are worth, not
   * whether to change the method.
   */
  heldAtBorder = false;
  private stiffCount = 0;
  private nonStiffCount = 0;

  constructor(private readonly border: number) {}

  reset(): void {
    this.looksStiff = false;
    this.hLambda = Number.NaN;
    this.heldAtBorder = false;
    this.stiffCount = 0;
    this.nonStiffCount = 0;
  }

  /**
   * An accepted step of |h| with the estimate |λ| from its last stage and its end
   * (lambdaEstimate; NaN: none), and error norm err (≤ 1).
   */
  observe(hAbs: number, lambda: number, err: number): void {
    // (no estimate: the step's states agreed at its last stage and end, no sign of a stiff mode)
    this.heldAtBorder = false;
    if (!(lambda === lambda)) return;
    const hl = hAbs * lambda;
    this.hLambda = hl;
    // (an estimate that overflowed measures nothing: rates near 1e200 on a time scale of
    // 1e-200 square to Infinity in lambdaEstimate, and dop853's steps there were held "at the
    // border" with a band of Infinity, a false failure: round11-scales)
    this.heldAtBorder = Number.isFinite(hl) && hl > HELD_FRACTION * this.border && err >= HELD_ERROR;
    if (hl > this.border && err >= HELD_ERROR) {
      this.nonStiffCount = 0;
      if (++this.stiffCount >= 15) this.looksStiff = true;
    } else if (++this.nonStiffCount >= 6) {
      this.stiffCount = 0;
      this.looksStiff = false;
    }
  }
}
