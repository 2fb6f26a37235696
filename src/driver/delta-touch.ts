/**
 * A delta on the state weighs 1/|du/dt| where its argument u crosses zero. Where u only
 * touches zero (a root of even multiplicity: delta(x^2), or delta(x) with x turning at zero)
 * that weight is infinite, and where u crosses so slowly that the run's tolerances cannot tell
 * the crossing from a touch it is a number the arithmetic made up (it gave y = 6e24 with status
 * ok). These are the tests; the driver fails the run with Diagnosis.touchMessage.
 */
import type { CompiledEvent } from '../codegen/compile.js';
import type { Workspace } from './workspace.js';

/** Whether an event is a delta on the state: its function is the delta's argument. */
export function isDeltaArgument(ev: CompiledEvent): boolean {
  return ev.kind === 'state' && ev.fromDelta;
}

/**
 * The run's tolerance on watched function k at (t, y): atol plus rtol times the size of its
 * terms. A function that reads no state (of t, parameters and discrete values alone) carries
 * no error of the states: 0. (tan(t/1e7) - 1 beside a stiff pair at rtol 1e-8 was "known only
 * to ±1.6e-6" by the size of its terms, and the run failed as "crossing not resolved" where
 * each of its 96 rises lies at an exact time, crossing-noise.ts)
 */
export function functionTolerance(
  ws: Workspace,
  k: number,
  t: number,
  y: Float64Array,
  rtol: number,
  atol: number,
): number {
  if (ws.model.watchStates[k].length === 0) return 0;
  const size = ws.model.sizeOne[k](t, y, ws.p, ws.d, ws.sw);
  return atol + rtol * size;
}

/**
 * Whether an argument at a zero where its rate is `rate`, and its rate changes at
 * `curvature`, cannot be told from one that touches zero: the parabola through the zero turns
 * back within a height of `tolerance` (rate^2 / 2|curvature|).
 */
export function touches(rate: number, curvature: number, tolerance: number): boolean {
  return !(rate * rate > 2 * Math.abs(curvature) * tolerance);
}

/**
 * Of the events fired at an instant (absolute t, the stepper's tLocal, state y), the watched
 * function of the first that is a delta's argument crossing so slowly that the run cannot tell
 * it from a touch, or -1. Its rate's change over the step from stepStart (the stepper's t;
 * ws.rPrev there) is the curvature.
 */
export function touchingDelta(
  ws: Workspace,
  stepStart: number,
  fired: readonly number[],
  t: number,
  tLocal: number,
  y: Float64Array,
  rtol: number,
  atol: number,
): number {
  const m = ws.model;
  for (const e of fired) {
    const k = m.events[e].watchIndex;
    if (k < 0 || !isDeltaArgument(m.events[e])) continue;
    const rate = m.rateOne[k](t, y, ws.p, ws.d, ws.sw);
    const dt = tLocal - stepStart;
    const curvature = dt !== 0 ? (rate - ws.rPrev[k]) / dt : 0;
    if (touches(rate, curvature, functionTolerance(ws, k, t, y, rtol, atol))) return k;
  }
  return -1;
}

/**
 * The deltas on the state due at an end of the range t, added to `out`: a delta at the start
 * or at the end counts (MODEL-LANGUAGE, "Ends of the range"), on both paths alike. Its
 * argument is within its rounding of zero at (t, y, d) and moving; at the end, towards its
 * zero (one that crossed before the end fired there: `fired` says so).
 */
export function deltasDueAtEnd(
  ws: Workspace,
  t: number,
  y: Float64Array,
  d: Float64Array,
  atStart: boolean,
  fired: (k: number) => boolean,
  out: number[],
): number[] {
  const m = ws.model,
    p = ws.p,
    sw = ws.sw;
  for (let k = 0; k < ws.nWatch; k++) {
    const w = m.watchInfo[k];
    if (w.kind !== 'event' || !isDeltaArgument(m.events[w.event]) || fired(k)) continue;
    const g = m.watchOne[k](t, y, p, d, sw),
      rate = m.rateOne[k](t, y, p, d, sw);
    if (!(Math.abs(g) <= 4 * m.boundOne[k](t, y, p, d, sw))) continue;
    if (!(Math.abs(rate) > 4 * m.rateBoundOne[k](t, y, p, d, sw))) continue;
    if (atStart || g === 0 || Math.sign(g) * Math.sign(rate) * ws.dir < 0) out.push(w.event);
  }
  return out;
}
