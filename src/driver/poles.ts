/**
 * A sign change through a pole is no crossing (docs/language.md, "Events, precisely"): 1/x - 2
 * goes from -Infinity to +Infinity where x passes 0, and `when 1/x - 2 rises` does not fire
 * there; tan(t) - 1 jumps from +Infinity to -Infinity at pi/2, and `falls` does not fire there.
 * Located to a few ulps, a pole and a steep zero both show a sign change between neighbouring
 * doubles; they differ just outside the bracket: moving away from a zero |g| grows, moving
 * away from a pole it shrinks (as 1/distance or faster), and there it stays far above its own
 * rounding (a pole's value is its largest term, not a cancellation).
 *
 * A function that is continuous but turns from -M to +M over a width the dense output does not
 * resolve (x/(x^2 + 1e-40)) cannot be told from a pole in doubles, and is taken for one
 * (docs/language.md). A relation's or a jump's stand-in (`1/x > 2` is located on 1/x - 2) does
 * change its truth at a pole: crossings.ts keeps those, and exempts them from the noise test.
 */
import type { Stepper } from '../integrators/stepper.js';
import { valueOnStep } from './step-samples.js';
import type { Workspace } from './workspace.js';

/** the far point lies SPREAD times as far out as the near one; |g| must shrink by SHRINK between them */
const SPREAD = 16;
const SHRINK = 4;
/** ulps of a state (or of t) that its change over the near distance must exceed */
const RESOLVED = 1024;

/**
 * Whether watched function k's sign change, bracketed in [left, right] (the stepper's local
 * times, collapsed by the root finder), is a pole rather than a zero: at a distance d outside
 * the bracket on both sides, and at SPREAD d, |g| shrinks outwards by SHRINK, and stays far
 * above its rounding bound. d is 16 widths of the bracket, or more where the dense output
 * does not resolve the states that close (resolvedDistance): radau5's, evaluated 1e-16 after
 * a step's start, gives x to ±5e-17 only, and 1/x looked like a jump there. One distance
 * only: x/(x^2 + 1e-20), a steep zero that turns back 1e-10 away, shrinks farther out. The
 * points outside may lie a little past the step's ends (the dense output's polynomial
 * continues smoothly there), never farther than twice the step's length.
 */
export function isPole(
  ws: Workspace,
  stepper: Stepper,
  k: number,
  left: number,
  right: number,
  y: Float64Array,
): boolean {
  const width = Math.abs(right - left),
    toward = Math.sign(right - left),
    span = Math.abs(stepper.t - stepper.tPrev);
  if (!(width > 0)) return false;
  const d = Math.max(16 * width, resolvedDistance(ws, stepper, k, right));
  if (!(SPREAD * d <= 2 * span)) return false;
  for (const side of [-1, 1]) {
    const end = side < 0 ? left : right;
    const near = Math.abs(valueOnStep(ws, stepper, k, end + side * toward * d, y));
    const farT = end + side * toward * SPREAD * d;
    const far = Math.abs(valueOnStep(ws, stepper, k, farT, y));
    if (!(near > SHRINK * far)) return false;
    // (y holds the state at farT: the rounding bound there)
    if (!(far > 64 * ws.model.boundOne[k](ws.origin.abs(farT), y, ws.p, ws.d, ws.sw))) return false;
  }
  return true;
}

/**
 * The shortest distance in local time at which the inputs of function k change by RESOLVED
 * of their ulps over the last step, at its average pace: t itself (the function reads the
 * absolute time as one double), and each state it reads, between its values at the step's
 * ends (a state that does not change is no input that moves).
 */
function resolvedDistance(ws: Workspace, stepper: Stepper, k: number, s: number): number {
  const span = Math.abs(stepper.t - stepper.tPrev);
  let d = RESOLVED * Number.EPSILON * Math.abs(ws.origin.abs(s));
  for (const i of ws.model.watchStates[k]) {
    const a = stepper.yPrev[i],
      b = stepper.y[i];
    const change = Math.abs(b - a);
    if (change > 0) d = Math.max(d, (RESOLVED * Number.EPSILON * Math.max(Math.abs(a), Math.abs(b)) * span) / change);
  }
  return d;
}

/**
 * Whether function k, at local time s of the stepper's last step where it is g with rate
 * `rate`, stands at a pole rather than next to a zero: the two look alike to a test of g
 * against its rate times a rounding of t (g = 1/d is its rate 1/d^2 times d). At an
 * instant on the pole of 1/x - 2 (a tick at t = 1 where x = t - 1), g = 1e16 with rate 1e32
 * passed for a crossing within the rounding of t, and `falls` fired at the tick, not at 1.5.
 * Infinite or undefined values are no zero either. `tie`: the rounding of t at s.
 */
export function poleAt(
  ws: Workspace,
  stepper: Stepper,
  k: number,
  s: number,
  g: number,
  rate: number,
  tie: number,
  y: Float64Array,
): boolean {
  if (!(Math.abs(g) < Infinity)) return true;
  // (a pole, if there is one, lies within |g/rate| of s: g = 1/d has rate -1/d^2)
  const d = Math.max(Math.abs(g / rate), tie);
  return isPole(ws, stepper, k, s - 2 * d, s + 2 * d, y);
}
