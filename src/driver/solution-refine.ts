/**
 * An event located on the solution itself, not on its interpolant. RADAU5's dense output is
 * its collocation polynomial, of order 3 where its steps are of order 5: at tight tolerances
 * on a nonlinear stiff model an event placed on it is off by far more than the tolerance (5e-9
 * at rtol 1e-12, where y1' = -1e8 (y1^3 - y2) crosses 0.8). So the crossing found on the
 * dense output is taken as a first guess, and the step is taken again from its start to land
 * on it exactly; Newton's correction on the function's value and rate there, and a step to
 * that time again, until the function is within its own rounding of zero (a few rounds).
 */
import type { Stepper } from '../integrators/stepper.js';
import { isStiffStep } from './stiff-step.js';
import type { Workspace } from './workspace.js';

/** rounds of the correction at most, and steps to land on one guess */
const ROUNDS = 4;
const MAX_STEPS = 64;

/** Whether the stepper's dense output is too coarse for events at tight tolerances (radau5, or auto running it). */
export function refinesOnSolution(stepper: Stepper): boolean {
  const method = stepper.method === 'auto' ? (stepper as Stepper & { current?: string }).current : stepper.method;
  if (method === 'radau5') return true;
  // RODAS over a stiff step: the ends are on the slow manifold, the interpolant between them
  // is off it by up to the tolerance times the stiffness in rate (y' = −1e6 (y − sin t): a
  // rate of ±0.1 where the motion's is 0.045), so the event's rates and the restart from
  // there are wrong (a false persisting contact, crossings counted twice)
  return method === 'rodas' && isStiffStep(stepper);
}

/**
 * Takes the last step again from its start, to land on the crossing of watched function k
 * near `guess` (the stepper's t), and returns the time it landed on (the stepper is there,
 * `stepper.y` the state), or NaN when a step fails (the caller keeps the interpolant).
 * `start` is work space of the state's size.
 */
export function refineOnSolution(
  ws: Workspace,
  stepper: Stepper,
  k: number,
  guess: number,
  start: Float64Array,
): number {
  const m = ws.model,
    a = stepper.tPrev,
    b = stepper.t;
  start.set(stepper.yPrev);
  let s = guess;
  for (let round = 0; round < ROUNDS; round++) {
    stepper.reset(a, start, s - a);
    for (let steps = 0; stepper.t !== s; steps++) if (steps >= MAX_STEPS || stepper.step(s) !== 'accepted') return NaN;
    const t = ws.origin.abs(s),
      y = stepper.y;
    const g = m.watchOne[k](t, y, ws.p, ws.d, ws.sw);
    if (!(Math.abs(g) > 4 * m.boundOne[k](t, y, ws.p, ws.d, ws.sw))) break;
    const next = s - g / m.rateOne[k](t, y, ws.p, ws.d, ws.sw);
    // (a correction that leaves the step, is not a number (a flat function: step(-h) - 1), or
    // is below the resolution of t, ends it)
    if (!(ws.dir * (next - a) > 0 && ws.dir * (b - next) >= 0)) break;
    if (Math.abs(next - s) <= 4 * Number.EPSILON * Math.max(1, Math.abs(s))) break;
    s = next;
  }
  return s;
}
