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

/**
 * What a mode off the real axis must have been multiplied by, over the run, by steps outside
 * the region alone (FixedStepper.spuriousGrowth) for the warning: 2, the mode (and so the
 * solution's share in it) doubled where it does not grow. Euler on x'' = -x over [0, 10] at
 * a step of 0.1 grows it by e^0.5 = 1.65 (its own first-order error, which a smaller step
 * cuts), and the run is not called unstable; at 0.05 over [0, 2000], by e^50.
 */
const GROWTH = Math.LN2;

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
  if (count === 0 || (hl <= 2 * border && count < MANY_STEPS)) return growthWarning(stepper);
  const h = own.hFixed ?? NaN;
  const steps = count === 1 ? 'one step' : `${count} steps`;
  const smaller = h > 0 ? ` (below ${+((border * h) / hl).toPrecision(2)} here)` : '';
  return `${stepper.method}'s fixed step was beyond its stability region on ${steps}: h·|λ| up to ${+hl.toPrecision(3)}, where the region ends at ${border}, so the errors grew by up to |R(hλ)| a step and the numbers need not be near the solution. Take a smaller step${smaller}, or an adaptive method (auto, dopri5; rodas or radau5 if the problem is stiff)`;
}

/** The warning for a mode off the real axis outside the region (FixedStepper.growthSteps), or null. */
function growthWarning(stepper: Stepper): string | null {
  const own = stepper as Stepper & {
    growthSteps?: number;
    spuriousGrowth?: number;
    growthMode?: Float64Array;
    hFixed?: number;
    amplification?: (zr: number, zi: number) => number;
  };
  const growth = own.spuriousGrowth ?? 0;
  if (!(growth >= GROWTH) || own.growthMode === undefined || own.amplification === undefined) return null;
  const [zr, zi, r] = own.growthMode;
  const amplify = own.amplification.bind(stepper);
  const count = own.growthSteps ?? 0;
  const steps = count === 1 ? 'one step' : `${count} steps`;
  const factor =
    growth / Math.LN10 < 6 ? `${+Math.exp(growth).toPrecision(3)}` : `about 1e${Math.floor(growth / Math.LN10)}`;
  // The largest step that keeps this mode inside: the region along its ray from 0 (|R(s z)|
  // <= 1 for s up to the border), by bisection; none where the ray leaves it at once (a mode
  // on the imaginary axis, which euler never holds).
  const h = own.hFixed ?? NaN;
  const adaptive = 'an adaptive method (auto, dopri5; rodas or radau5 if the problem is stiff)';
  let advice = `Take ${adaptive}: no fixed step of ${stepper.method} holds this mode inside its region`;
  const inside = (s: number) => amplify(s * zr, s * zi) <= 1;
  if (zr < 0 && inside(1e-12)) {
    let lo = 1e-12,
      hi = 1;
    for (let i = 0; i < 80; i++) {
      const mid = Math.sqrt(lo * hi);
      if (inside(mid)) lo = mid;
      else hi = mid;
    }
    advice = `Take a smaller step${h > 0 ? ` (below ${+(lo * h).toPrecision(2)} here)` : ''}, or ${adaptive}`;
  }
  const z = zi > 0 ? `${+zr.toPrecision(3)} ± ${+zi.toPrecision(3)}i` : `${+zr.toPrecision(3)}`;
  return `${stepper.method}'s fixed step was beyond its stability region on ${steps}: a mode with h·λ = ${z}, where |R(hλ)| = ${+r.toPrecision(6)} > 1 though the mode itself does not grow that fast, so each step multiplied it and its errors by up to that, by ${factor} over the run, and the numbers need not be near the solution. ${advice}`;
}
