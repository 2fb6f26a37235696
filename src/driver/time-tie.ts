/**
 * The tolerance within which two times are one instant, on the stepper and on the analytic
 * path alike: 4 ulps of t, and near t = 0 of `floor`, the run's time scale (1, or its span
 * where that is shorter: on a range of 4e-9, two crossings 5e-16 apart are a relative 1e-7
 * apart, not one instant).
 */
export function tieTolerance(t: number, floor = 1): number {
  return 4 * Number.EPSILON * Math.max(floor, Math.abs(t));
}

/** The floor of tieTolerance for a run over [t0, tEnd]: 1, or the span where it is shorter. */
export function tieFloor(t0: number, tEnd: number): number {
  return Math.min(1, Math.abs(tEnd - t0));
}
