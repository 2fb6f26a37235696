/**
 * Whether the last step of an implicit method was stiff: |h|·‖J‖∞ (the stepper's hNorm) at
 * least STIFF_STEP. Over such a step the dense output is accurate as a curve, but a state on
 * it is off the slow manifold by up to the tolerance, and f there by the tolerance times the
 * stiffness (y' = −1e6 (y − sin t): a rate of ±1 where the motion's is 0.045). Rates read from
 * f at points of the interpolant are then noise; rates of the interpolant itself are not.
 */
import type { Stepper } from '../integrators/stepper.js';

/** |h|·‖J‖∞ of a step above which f at its interpolant is not taken for the solution's rate */
export const STIFF_STEP = 10;

export function isStiffStep(stepper: Stepper): boolean {
  return (stepper as Stepper & { hNorm?: number }).hNorm! >= STIFF_STEP;
}

/**
 * Whether the last step was held by stability, not accuracy, whatever the method: a stiff
 * step of an implicit method (isStiffStep), or an explicit one whose own stiffness test found
 * its h·|λ| near the border of its stability region with an error near the tolerance
 * (StiffnessTest.heldAtBorder: dopri5, dop853, and auto's steps before it switches). Over
 * either, a state is off the slow solution by up to its tolerance, near zero by up to atol
 * whatever its size: a crossing located within that is judged as noise (crossing-noise.ts).
 * (auto's dopri5 steps on y' = -1e6 (y - 1e-11 cos t) at atol 1e-9 held y at -4.7e-10 where
 * it is +1e-11, and its dense output swung across zero in each step: 14 falls, 4.1e-6 apart,
 * were counted with status ok where there is one, at pi/2. Their ends were trusted as a
 * non-stiff step's are.)
 */
export function isNoisyStep(stepper: Stepper): boolean {
  return isStiffStep(stepper) || (stepper as Stepper & { heldAtBorder?: boolean }).heldAtBorder === true;
}

/**
 * How many times a state's deviation from the slow solution the last step's dense output may
 * show inside it: over an explicit step held at its border, its interpolant's spread of the
 * stiff mode (EmbeddedRkStepper.denseSpread: 10 to 60 for dop853 there); 1 otherwise.
 */
export function denseSpread(stepper: Stepper): number {
  const s = stepper as Stepper & { heldAtBorder?: boolean; denseSpread?: () => number };
  return s.heldAtBorder === true && s.denseSpread !== undefined ? s.denseSpread() : 1;
}
