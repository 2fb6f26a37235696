/**
 * How a run ends, as the driver's parts report it: each step and each instant returns null
 * while the run goes on, or one of these, and `Simulator.run` ends the run in one place.
 */

/** The reason a run is over before its range ends. */
export type RunEnd =
  /** a failure: the message, and the time and state recorded as the run's last */
  | { readonly kind: 'failed'; readonly message: string; readonly t: number; readonly y: Float64Array }
  /** events accumulate at `accumulationPoint` (Zeno); the run stops at the last instant */
  | { readonly kind: 'zeno'; readonly message: string; readonly accumulationPoint: number }
  /** an event's `stop` action */
  | { readonly kind: 'stopped'; readonly message: string };

/** A failure at (t, y): y is read when the run ends, so it may be a live work array. */
export function failed(message: string, t: number, y: Float64Array): RunEnd {
  return { kind: 'failed', message, t, y };
}
