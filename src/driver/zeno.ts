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
  /** per event, its last WINDOW times (hi and lo parts) as a ring, and how many were seen */
  private readonly hi: Float64Array;
  private readonly lo: Float64Array;
  private readonly seen: Int32Array;
  private static readonly WINDOW = 8;
  /** the intervals between the times in the window, oldest first */
  private readonly gaps = new Float64Array(ZenoWatch.WINDOW - 1);
  constructor(events: number) {
    this.hi = new Float64Array(events * ZenoWatch.WINDOW);
    this.lo = new Float64Array(events * ZenoWatch.WINDOW);
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

  /** Records an occurrence at hi + lo; returns the estimated accumulation point when the run should stop. */
  note(event: number, hi: number, lo: number): number | null {
    const W = ZenoWatch.WINDOW,
      base = event * W;
    this.crawl = NaN;
    const count = this.seen[event]++;
    this.hi[base + (count % W)] = hi;
    this.lo[base + (count % W)] = lo;
    const n = Math.min(count + 1, W);
    if (n < 3) return null;
    // times oldest first: slot (count + 1 - n + i) % W
    const first = count + 1 - n;
    const gaps = this.gaps;
    for (let i = 1; i < n; i++) {
      const a = base + ((first + i - 1) % W),
        b = base + ((first + i) % W);
      gaps[i - 1] = Math.abs(this.hi[b] - this.hi[a] + (this.lo[b] - this.lo[a]));
    }
    const t = hi + lo;
    const last = gaps[n - 2];
    const resolution = Number.EPSILON * Math.max(Math.abs(t), 1);
    // Events a few ulps of t apart: stop rather than crawl. Gaps that shrink are an
    // accumulation at the resolution of t; gaps that do not (a reset by less than the rounding
    // of its threshold, a cascade at a fixed pace) are no accumulation, and the run fails.
    if (last <= 64 * resolution && gaps[n - 3] <= 64 * resolution) {
      if (last < gaps[n - 3]) return t;
      if (n >= 4 && last >= gaps[n - 4]) {
        this.crawl = last;
        return null;
      }
    }
    if (n < 7) return null;
    let rMax = 0,
      rMin = Infinity;
    for (let i = n - 5; i < n - 1; i++) {
      const ratio = gaps[i] / gaps[i - 1];
      if (!(ratio <= rMax)) rMax = ratio;
      if (!(ratio >= rMin)) rMin = ratio;
    }
    if (!(rMax < 1 && rMin > 0 && rMax / rMin < 1.05)) return null;
    const r = gaps[n - 2] / gaps[n - 3];
    const remaining = (last * r) / (1 - r);
    // Stop once the rest of the sequence fits in about a thousand ulps of t: what is left
    // would not show in a column of t, and costs as many events again as came before.
    if (remaining > 1024 * resolution) return null;
    const a = base + ((count - 1) % W),
      b = base + (count % W);
    return hi + (lo + Math.sign(this.hi[b] - this.hi[a] + (this.lo[b] - this.lo[a])) * remaining);
  }
}
