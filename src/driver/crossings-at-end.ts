/**
 * Which located crossings count at the end of the range, and at a scheduled time the step
 * landed on.
 *
 * Why a file of its own: crossings.ts finds every crossing of a step the same way, wherever
 * the step ends; what the end of the range makes of them is a rule of the language, not of
 * the scan (MODEL-LANGUAGE, "Ends of the range"): a crossing the arithmetic cannot tell from
 * the end is no event of the range, as one at the start is not, except a delta's, which
 * counts, and the deltas due exactly at an end fire there (delta-touch.ts, deltasDueAtEnd).
 * The same judgement, a crossing within its own rounding of a time, says when a crossing is
 * at the scheduled time the step landed on (withinRoundingOf). The analytic path applies the
 * same rules on its own clocks (analytic/range-ends.ts).
 */
import type { Crossings } from './crossings.js';
import { deltasDueAtEnd } from './delta-touch.js';
import type { Workspace } from './workspace.js';

export class CrossingsAtEnd {
  /**
   * A function whose crossing dropAtEnd found within its rounding of the end, but which never
   * went further from zero over the range than twice that rounding (Crossings.peak), or -1:
   * its crossing could not be told from the end, nor from anywhere else (EVENTS.md 1: u -
   * exp(50 eps) with u' = u on [0, 100 eps], -50 eps to 50 eps against a band of 64 eps).
   * The end's rule is for a function clearly away from zero before its zero at the end (sin(pi
   * t) at t = 6); here it would drop silently what may be an event: precision ran out.
   */
  unresolvedAtEnd = -1;
  /** the band (4 bounds) of unresolvedAtEnd's function at the end */
  unresolvedBand = 0;

  constructor(
    private readonly ws: Workspace,
    /** the scan of the last step: its located crossings (dropAtEnd keeps those that count) */
    private readonly crossings: Crossings,
  ) {}

  /** Takes the state events that are not a delta's out of `fired` (crossings at the end of the range). */
  dropCrossingsAtEnd(fired: number[]): void {
    const m = this.ws.model,
      deltaArgument = this.crossings.deltaArgument;
    let n = 0;
    for (const e of fired) {
      const k = m.events[e].watchIndex;
      if (k < 0 || deltaArgument[k]) fired[n++] = e;
    }
    fired.length = n;
  }

  /**
   * Whether the crossings of `fired` located at t are all within the time their functions,
   * at their rates, take to cross their own rounding at ts (state y at t), or ts is within
   * the rounding of t.
   */
  withinRoundingOf(fired: readonly number[], t: number, ts: number, y: Float64Array, timeTie: number): boolean {
    const ws = this.ws,
      m = ws.model;
    if (Math.abs(ts - t) <= timeTie) return true;
    for (const e of fired) {
      const k = m.events[e].watchIndex;
      if (k < 0) continue;
      const rate = Math.abs(m.rateOne[k](t, y, ws.p, ws.d, ws.sw));
      if (!(Math.abs(ts - t) * rate <= 4 * m.boundOne[k](t, y, ws.p, ws.d, ws.sw))) return false;
    }
    return true;
  }

  /**
   * Whether watched function k's crossing located in the last step, which ends at absolute
   * time t, cannot be told from t itself: the function is within its own rounding of zero
   * there, and the crossing lies closer to t than the function, at its rate there, takes to
   * cross that rounding (a function that reached zero earlier and sits there is not at t).
   */
  private zeroAtEnd(k: number, t: number, timeTie: number, landed: boolean): boolean {
    const ws = this.ws,
      m = ws.model;
    const gap = Math.abs(t - ws.origin.abs(this.crossings.candidateRight[k]));
    // (within the rounding of t itself: near t = 1e6 + 3 a crossing 5e-11 before the end is
    // the end's double)
    if (gap <= timeTie) return true;
    // (the function's values at the step's end are not those at t: only the tie tells)
    if (!landed) return false;
    const band = 4 * m.boundOne[k](t, this.crossings.scannedStepper!.y, ws.p, ws.d, ws.sw);
    if (!(Math.abs(ws.gNew[k]) <= band)) return false;
    const rate = Math.abs(ws.rNew[k]);
    const atEnd = gap <= (rate > 0 ? band / rate : 0) + 4 * Number.EPSILON * Math.max(1, Math.abs(t));
    // (never more than twice its band from zero: no side of the range tells where it crosses)
    if (atEnd && this.crossings.peak[k] <= 2 * band && this.unresolvedAtEnd < 0) {
      this.unresolvedAtEnd = k;
      this.unresolvedBand = band;
    }
    return atEnd;
  }

  /**
   * At the end of the range t, in a step towards it (that landed there, or short of it if
   * `landed` is false): the located crossings that are events of the range, kept in
   * Crossings.located, and the earliest of them (or -1). One the arithmetic cannot tell from
   * the end (zeroAtEnd) is not, as one at the start is not, except a delta's: a delta at the
   * end counts (MODEL-LANGUAGE, "Ends of the range").
   */
  dropAtEnd(t: number, timeTie: number, landed = true): number {
    const cr = this.crossings,
      dir = this.ws.dir,
      right = cr.candidateRight,
      located = cr.located;
    let kept = 0,
      earliest = -1;
    this.unresolvedAtEnd = -1;
    for (let j = 0; j < cr.locatedCount; j++) {
      const k = located[j];
      if (cr.deltaArgument[k] === 0 && this.zeroAtEnd(k, t, timeTie, landed)) continue;
      located[kept++] = k;
      if (earliest < 0 || dir * (right[k] - right[earliest]) < 0) earliest = k;
    }
    cr.locatedCount = kept;
    return earliest;
  }

  /** The deltas on the state due at an end of the range t (deltasDueAtEnd), added to `out`; held ones fired already. */
  deltasAtEnd(t: number, y: Float64Array, d: Float64Array, atStart: boolean, out: number[]): number[] {
    const held = this.crossings.arming.held;
    return deltasDueAtEnd(this.ws, t, y, d, atStart, (k) => held[k] === 1, out);
  }
}
