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
  /**
   * per event, the limit its geometric test estimated (hi and lo parts), and at which of its
   * occurrences (its count then; -1: none)
   */
  private readonly limitHi: Float64Array;
  private readonly limitLo: Float64Array;
  private readonly limitAt: Int32Array;
  private static readonly WINDOW = 8;
  /** Gaps under this many ulps of t are one instant's (time-tie.ts): a crawl or an accumulation. */
  private static readonly CRAWL_ULPS = 4;
  /** The least relative shrink of a gap that is one (its rounding is some 1e-15 of it). */
  private static readonly SHRINK = 1e-9;
  /** Gaps under this many ulps of t end a geometric accumulation wherever its limit is. */
  private static readonly NEAR_ULPS = 64;
  /** How far, in its last gap, the estimated limit may move from one occurrence to the next. */
  private static readonly STEADY = 0.25;
  constructor(events: number) {
    this.hi = new Float64Array(events * ZenoWatch.WINDOW);
    this.lo = new Float64Array(events * ZenoWatch.WINDOW);
    this.gap = new Float64Array(events * ZenoWatch.WINDOW);
    this.seen = new Int32Array(events);
    this.limitHi = new Float64Array(events);
    this.limitLo = new Float64Array(events);
    this.limitAt = new Int32Array(events).fill(-1);
  }
  /**
   * The run's floor of the tie tolerance (time-tie.ts, tieFloor): the scale below which t is
   * resolved no finer near t = 0, as instants are.
   */
  floor = 1;
  reset(): void {
    this.seen.fill(0);
    this.limitAt.fill(-1);
  }
  /** Forgets an event's occurrences (its accumulation was taken over by a held contact). */
  forget(event: number): void {
    this.seen[event] = 0;
    this.limitAt[event] = -1;
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
   * few ulps of t apart (one instant, to its resolution) without shrinking (see crawlMessage).
   */
  crawl = NaN;

  /** The message for a crawl of event `name` at t (see `crawl`). */
  crawlMessage(name: string, independent: string, t: number): string {
    return `events of ${name} come ${this.crawl} apart at ${independent} = ${t}, within ${ZenoWatch.CRAWL_ULPS} ulps of ${independent} (one instant, to its resolution), and their pace does not shrink (no accumulation): the arithmetic of ${independent} cannot separate them; an action that resets its function by less than the function's rounding, or a cascade at the resolution of ${independent}, does this`;
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
    // the resolution of t, as instants have it (time-tie.ts): one ulp of t, and near t = 0 of
    // the run's floor (1, or the range's span where that is shorter: a ball dropped from
    // 1e-300 on a range of 1e-149 bounces 1e-150 apart, EVENTS.md, 1); times are two doubles
    // (hi + lo), so gaps down to that are measured. One ulp of t alone, near t = 0 on [0, 1]
    // (a ball dropped from 1e-12 comes to rest at 1.3e-5), waited for gaps of 1e-19, far
    // below the 8.9e-16 that make one instant there: the flights became one instant first,
    // a "persisting contact" on the analytic path, and on the steppers a ball whose bounce
    // resets x := 0 fell through the floor with status ok.
    const resolution = Number.EPSILON * Math.max(this.floor, Math.abs(t)) || Number.MIN_VALUE;
    // Events closer than 4 ulps of t, the instants' own resolution (time-tie.ts, and the docs:
    // two such are one instant): stop rather than crawl. Gaps that shrink are an accumulation
    // at the resolution of t; gaps that do not (a cascade at a fixed pace) are no
    // accumulation, and the run fails. A shrink counts only beyond the gaps' own rounding (the
    // location of each instant: some 1e-15 of the gap), which alone made a fixed pace
    // "accumulate"; SHRINK is far above that and far below a bounce's shrink. Events farther
    // apart are instants t tells apart, counted at their pace: a sawtooth of period 2e-6 at
    // t = 1e9 (9 ulps) was refused as a crawl "t cannot separate" below 64 ulps, or stopped
    // as Zeno on its gaps' rounding.
    const crawlAt = ZenoWatch.CRAWL_ULPS * resolution;
    if (last <= crawlAt && before <= crawlAt) {
      if (last < before * (1 - ZenoWatch.SHRINK)) return t;
      if (n >= 4 && last >= gap[base + ((count - 2) % W)] * (1 - ZenoWatch.SHRINK)) {
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
    if (!(rMax < 1 - ZenoWatch.SHRINK && rMin > 0 && rMax / rMin < 1.05)) return null;
    const r = last / before;
    const remaining = (last * r) / (1 - r);
    // A limit only where the estimate holds still: a geometric sequence's stays where it is
    // (to its gaps' rounding), a diverging one's moves on with t (gaps 0.1/k, the harmonic
    // series: ratios k/(k+1), steady to 1.05, put it 0.1 after each event, one gap further
    // each time; at 64 ulps of t = 1e9 that was a Zeno stop, where 91379 events fire).
    const limitLo = lo + Math.sign(step) * remaining;
    const steady =
      this.limitAt[event] === count - 1 &&
      Math.abs(hi - this.limitHi[event] + (limitLo - this.limitLo[event])) <= ZenoWatch.STEADY * last;
    this.limitHi[event] = hi;
    this.limitLo[event] = limitLo;
    this.limitAt[event] = count;
    if (!steady) return null;
    // Stop once the rest of the sequence fits in about a thousand ulps of t: what is left
    // would not show in a column of t, and costs as many events again as came before. Stop
    // too once the gaps come within 64 ulps of t, whatever is left: a slow accumulation (a
    // ball at e = 0.999 on t = 1e9) soon has flights that the instants' resolution cannot
    // tell from a contact, and its limit is the geometric one, not t (it said t, 0.014 early).
    if (remaining > 1024 * resolution && last > ZenoWatch.NEAR_ULPS * resolution) return null;
    return hi + limitLo;
  }
}
