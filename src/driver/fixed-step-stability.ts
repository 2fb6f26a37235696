/**
 * A fixed step beyond the stability region of its method (rk4, integrators/rk4.ts; euler,
 * integrators/euler.ts, each with its own border and estimate of h·|λ|). The step is
 * the user's choice and is taken as given, but there the errors grow by |R(hλ)| at every step,
 * whatever the solution does: `--step 100` on x'' = -4x gave numbers of 1e7 with status ok.
 * The run's result says so.
 */
import type { Stepper } from '../integrators/stepper.js';
import { RK4_STABILITY_BORDER } from '../integrators/rk4.js';

/**
 * Steps above the border that make the warning: one step far beyond it (twice the border: an
 * error multiplied by more than 10 in that step), or many at all (Hairer's 15 for the explicit
 * methods' stiffness test).
 */
const MANY_STEPS = 15;

/** The run's warning, or null. */
export function fixedStepWarning(stepper: Stepper): string | null {
  const own = stepper as Stepper & {
    unstableSteps?: number;
    largestHLambda?: number;
    hFixed?: number;
    stabilityBorder?: number;
  };
  const count = own.unstableSteps ?? 0,
    hl = own.largestHLambda ?? 0,
    border = own.stabilityBorder ?? RK4_STABILITY_BORDER;
  if (count === 0 || (hl <= 2 * border && count < MANY_STEPS)) return null;
  const h = own.hFixed ?? NaN;
  const steps = count === 1 ? 'one step' : `${count} steps`;
  const smaller = h > 0 ? ` (below ${+((border * h) / hl).toPrecision(2)} here)` : '';
  return `${stepper.method}'s fixed step was beyond its stability region on ${steps}: h·|λ| up to ${+hl.toPrecision(3)}, where the region ends at ${border}, so the errors grew by up to |R(hλ)| a step and the numbers need not be near the solution. Take a smaller step${smaller}, or an adaptive method (auto, dopri5; rodas or radau5 if the problem is stiff)`;
}
