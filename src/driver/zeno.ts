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

  /** Records an occurrence at hi + lo; returns the estimated accumulation point when the run should stop. */
  note(event: number, hi: number, lo: number): number | null {
    const W = ZenoWatch.WINDOW,
      base = event * W;
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
    // Events a few ulps of t apart: stop rather than crawl, whatever the pattern.
    if (last <= 64 * resolution && gaps[n - 3] <= 64 * resolution) return t;
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
