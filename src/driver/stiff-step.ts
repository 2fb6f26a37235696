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
