/**
 * Zeno detection: a geometric accumulation of one event's times (a ball coming to rest)
 * ends the run at the estimated accumulation point.
 */

/**
 * Detects a geometric accumulation of one event's times. The times come in two doubles
 * (hi + lo, see the Simulator's time origin), so intervals far below one ulp of t are
 * still measured.
 */
export class ZenoWatch {
  /**
   * per event, its last WINDOW times (hi and lo parts) as a ring, the interval that ended at
   * each (in the same slot), and how many were seen
   */
  private readonly hi: Float64Array;
  private readonly lo: Float64Array;
  private readonly gap: Float64Array;
  private readonly seen: Int32Array;
  private static readonly WINDOW = 8;
  constructor(events: number) {
    this.hi = new Float64Array(events * ZenoWatch.WINDOW);
    this.lo = new Float64Array(events * ZenoWatch.WINDOW);
    this.gap = new Float64Array(events * ZenoWatch.WINDOW);
    this.seen = new Int32Array(events);
  }
  reset(): void {
    this.seen.fill(0);
  }
  /** Forgets an event's occurrences (its accumulation was taken over by a held contact). */
  forget(event: number): void {
    this.seen[event] = 0;
  }

  /** The time from the event's last recorded occurrence to hi + lo; 0 if it has none. */
  sinceLast(event: number, hi: number, lo: number): number {
    const count = this.seen[event];
    if (count === 0) return 0;
    const i = event * ZenoWatch.WINDOW + ((count - 1) % ZenoWatch.WINDOW);
    return Math.abs(hi - this.hi[i] + (lo - this.lo[i]));
  }

  /**
   * Set by `note` (else NaN): the gap between the event's last occurrences when they come a
   * few ulps of t apart without shrinking, which t cannot resolve (see crawlMessage).
   */
  crawl = NaN;

  /** The message for a crawl of event `name` at t (see `crawl`). */
  crawlMessage(name: string, independent: string, t: number): string {
    return `events of ${name} come ${this.crawl} apart at ${independent} = ${t}, within 64 ulps of ${independent}, and their pace does not shrink (no accumulation): the arithmetic of ${independent} cannot separate them; an action that resets its function by less than the function's rounding, or a cascade at the resolution of ${independent}, does this`;
  }

  /**
   * Records an occurrence at hi + lo; returns the estimated accumulation point when the run
   * should stop. Only the newest interval is measured: the others are kept from the calls
   * before (this runs at every event).
   */
  note(event: number, hi: number, lo: number): number | null {
    const W = ZenoWatch.WINDOW,
      base = event * W;
    this.crawl = NaN;
    const count = this.seen[event]++;
    const slot = base + (count % W);
    // the interval from the occurrence before (still in the ring) to this one
    let step = 0;
    if (count > 0) {
      const a = base + ((count - 1) % W);
      step = hi - this.hi[a] + (lo - this.lo[a]);
    }
    this.hi[slot] = hi;
    this.lo[slot] = lo;
    this.gap[slot] = Math.abs(step);
    const n = Math.min(count + 1, W);
    if (n < 3) return null;
    // gap[base + ((count - j) % W)]: the interval that ended j occurrences ago
    const gap = this.gap;
    const t = hi + lo;
    const last = gap[slot],
      before = gap[base + ((count - 1) % W)];
    // the resolution of t on the problem's own scale: one ulp of t itself, not of 1 (a ball
    // dropped from 1e-300 bounces 1e-150 apart: EVENTS.md, 1); times are two doubles (hi + lo),
    // so gaps down to that are measured (at t = 0 exactly, the smallest double)
    const resolution = Number.EPSILON * Math.abs(t) || Number.MIN_VALUE;
    // Events a few ulps of t apart: stop rather than crawl. Gaps that shrink are an
    // accumulation at the resolution of t; gaps that do not (a reset by less than the rounding
    // of its threshold, a cascade at a fixed pace) are no accumulation, and the run fails.
    if (last <= 64 * resolution && before <= 64 * resolution) {
      if (last < before) return t;
      if (n >= 4 && last >= gap[base + ((count - 2) % W)]) {
        this.crawl = last;
        return null;
      }
    }
    if (n < 7) return null;
    // the ratios of the last four intervals to the ones before them, oldest first
    let rMax = 0,
      rMin = Infinity;
    for (let j = 3; j >= 0; j--) {
      const ratio = gap[base + ((count - j) % W)] / gap[base + ((count - j - 1) % W)];
      if (!(ratio <= rMax)) rMax = ratio;
      if (!(ratio >= rMin)) rMin = ratio;
    }
    if (!(rMax < 1 && rMin > 0 && rMax / rMin < 1.05)) return null;
    const r = last / before;
    const remaining = (last * r) / (1 - r);
    // Stop once the rest of the sequence fits in about a thousand ulps of t: what is left
    // would not show in a column of t, and costs as many events again as came before.
    if (remaining > 1024 * resolution) return null;
    return hi + (lo + Math.sign(step) * remaining);
  }
}
