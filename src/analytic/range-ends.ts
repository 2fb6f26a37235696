/**
 * The ends of the range on the analytic path, as on the stepper (driver/crossings-at-end.ts): a
 * crossing the arithmetic cannot tell from the end is not an event of the range, as one at
 * the start is not, except a delta's; a delta at the start or at the end counts
 * (MODEL-LANGUAGE, "Ends of the range"; driver/delta-touch.ts, deltasDueAtEnd).
 */
import type { Workspace } from '../driver/workspace.js';
import type { Clocks } from './clocks.js';
import type { EventPlan } from './plan.js';

/** Below this time a predicted crossing is far enough from the end tEnd not to be looked at. */
export function endGuard(tEnd: number): number {
  return tEnd - 1e-9 * Math.max(1, Math.abs(tEnd));
}

/**
 * Whether a state event's crossing predicted at hi + lo, at or just before tEnd, cannot be
 * told from the end: its function is within its rounding of zero at tEnd, and the crossing
 * lies closer to tEnd than the function, at its rate there, takes to cross that rounding.
 * An object instead where the function was, where its blocks' clocks stood before, no
 * further from zero than twice that band either (u - exp(50 eps) with u' = u on [0, 100
 * eps]: -50 eps to 50 eps against 64 eps): no side of its segment tells where it crosses, and
 * dropping it as the end's (a rule for sin(pi t) at t = 6, away from zero before) would lose
 * what may be an event: precision ran out (EVENTS.md 1; driver/crossings-at-end.ts).
 */
export function crossingAtEnd(
  ws: Workspace,
  clocks: Clocks,
  plan: EventPlan,
  hi: number,
  lo: number,
  t0: number,
  tEnd: number,
) {
  const m = ws.model,
    k = plan.watch,
    { y, p, d, sw } = ws;
  // (the function where its blocks' clocks stand: an earlier point of its segment)
  const before = Math.abs(m.watchOne[k](tEnd, y, p, d, sw));
  clocks.lend(plan.reads, tEnd, 0, y, p, d);
  const band = 4 * m.boundOne[k](tEnd, y, p, d, sw);
  const g = m.watchOne[k](tEnd, y, p, d, sw);
  const rate = Math.abs(m.rateOne[k](tEnd, y, p, d, sw));
  clocks.giveBack(y);
  const gap = tEnd - hi - lo;
  // (within a few ulps of the range's times it is the end's instant whatever its value there:
  // an earlier instant at a time event's double, x := 0 at 1000002.7 rounded, moves it by
  // ulps; on the range's own scale, not on 1, so that a range of 1e-300 keeps its crossings)
  if (gap <= 4 * Number.EPSILON * Math.max(Math.abs(t0), Math.abs(tEnd))) return true;
  if (!(Math.abs(g) <= band)) return false;
  if (!(gap <= (rate > 0 ? band / rate : 0) + 4 * Number.EPSILON * Math.max(1, Math.abs(tEnd)))) return false;
  if (before <= 2 * band) return { band, peak: Math.max(before, Math.abs(g)) };
  return true;
}
