/**
 * What a plot keeps of a series that may have millions of points: a bounded reduction that
 * draws the same picture. The x range is cut into columns (two per pixel of the plot's width,
 * for a PNG drawn at twice the size); in each column a series keeps its first, lowest, highest
 * and last points, in the order they came (the M4 reduction of Jugel et al., which draws the
 * same pixels as all the points would), so a spike or a dip never disappears. A jump (two
 * points at the same x with different values: the before and after rows of an event) breaks
 * the line there and keeps both points exactly, the first JUMPS_PER_COLUMN jumps of a column;
 * more jumps inside one column are drawn as the column's vertical extent, which is all a
 * pixel can show of them. Memory: at most (JUMPS_PER_COLUMN + 1) * 4 points per column and
 * series, whatever the number of points.
 */

/** One kept point: x, y, its place in the order of arrival, and the piece of line it belongs to. */
export interface ReducedPoint {
  x: number;
  y: number;
  i: number;
  segment: number;
}

export const JUMPS_PER_COLUMN = 2;

/** The plotting area's size by default, in pixels (a PNG has twice as many: two columns per pixel). */
export const PLOT_WIDTH = 720;
export const PLOT_HEIGHT = 400;
/** More event instants than this are drawn as a rug, not as rules across the panel. */
export const RUG_ABOVE = 100;

/** The M4 reduction of one series over [lo, hi], points arriving in the order of x (rising or falling). */
export class SeriesReducer {
  private readonly out: ReducedPoint[] = [];
  private readonly width: number;
  /** the open column: its index, and its first, lowest, highest and last points */
  private col = NaN;
  private pts: (ReducedPoint | null)[] = [null, null, null, null];
  private jumps = 0;
  private segment = 0;
  private lastX = NaN;
  private lastY = NaN;
  private arrivals = 0;

  constructor(
    private readonly lo: number,
    hi: number,
    readonly columns: number,
  ) {
    this.width = hi > lo ? (hi - lo) / columns : 0;
  }

  private column(x: number): number {
    if (!(this.width > 0)) return 0;
    return Math.min(this.columns - 1, Math.max(0, Math.floor((x - this.lo) / this.width)));
  }

  /** Adds a point; a point with a value that is not finite breaks the line there. */
  add(x: number, y: number): void {
    const i = this.arrivals++;
    if (!Number.isFinite(x)) return;
    if (!Number.isFinite(y)) {
      if (this.pts[0]) this.flush();
      this.segment++;
      this.lastX = NaN;
      return;
    }
    const c = this.column(x);
    const jump = x === this.lastX && y !== this.lastY;
    if (c !== this.col) {
      this.flush();
      this.col = c;
      this.jumps = 0;
    }
    if (jump && this.jumps < JUMPS_PER_COLUMN) {
      // the line ends before the jump and goes on after it, both points exact
      this.jumps++;
      this.flush();
      this.segment++;
    }
    this.lastX = x;
    this.lastY = y;
    const p: ReducedPoint = { x, y, i, segment: this.segment };
    const [first, low, high] = this.pts;
    if (!first) this.pts = [p, p, p, p];
    else {
      if (y < low!.y) this.pts[1] = p;
      if (y > high!.y) this.pts[2] = p;
      this.pts[3] = p;
    }
  }

  private flush(): void {
    const kept = this.pts.filter((p): p is ReducedPoint => p !== null);
    kept.sort((a, b) => a.i - b.i);
    for (let k = 0; k < kept.length; k++) if (k === 0 || kept[k] !== kept[k - 1]) this.out.push(kept[k]);
    this.pts = [null, null, null, null];
  }

  /** The kept points, in the order they came. */
  points(): ReducedPoint[] {
    this.flush();
    return this.out;
  }
}

/** Values kept exactly up to this many; beyond, {@link StreamHistogram} keeps fine bins. */
const EXACT_VALUES = 65_536;
const FINE_BINS = 4096;
/** Whole numbers are counted one by one up to this many distinct ones. */
const MAX_INTEGERS = 1024;

/**
 * The values of a histogram, as they come: every value up to EXACT_VALUES of them, then
 * FINE_BINS equal bins over the range seen, doubled (two bins merged into one) whenever a value
 * falls outside, so that the edges stay aligned and no count moves to a wrong bin. A histogram
 * drawn with at most 60 bars from 4096 fine bins places each fine bin by its centre: a bar's
 * count is off by at most the fine bins that straddle its edges.
 */
export class StreamHistogram {
  private exact: number[] | null = [];
  /** the count of each whole number, while every value is one and they are few */
  private integers: Map<number, number> | null = new Map();
  private counts: Float64Array | null = null;
  private lo = 0;
  private width = 1;
  n = 0;

  add(x: number): void {
    if (!Number.isFinite(x)) return;
    this.n++;
    if (this.integers && Number.isInteger(x)) this.integers.set(x, (this.integers.get(x) ?? 0) + 1);
    if (this.integers && (!Number.isInteger(x) || this.integers.size > MAX_INTEGERS)) this.integers = null;
    if (this.exact) {
      this.exact.push(x);
      if (this.exact.length > EXACT_VALUES) this.toBins();
      return;
    }
    this.count(x, 1);
  }

  private toBins(): void {
    const xs = this.exact!;
    this.exact = null;
    let lo = Infinity,
      hi = -Infinity;
    for (const x of xs) {
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    this.lo = lo;
    this.width = hi > lo ? ((hi - lo) / FINE_BINS) * (1 + 1e-9) : Math.max(Math.abs(lo) * 1e-9, 1e-300);
    this.counts = new Float64Array(FINE_BINS);
    for (const x of xs) this.count(x, 1);
  }

  private count(x: number, weight: number): void {
    while (x < this.lo || x >= this.lo + FINE_BINS * this.width) this.widen(x < this.lo);
    const k = Math.min(FINE_BINS - 1, Math.floor((x - this.lo) / this.width));
    this.counts![k] += weight;
  }

  /** Doubles the bins' width, extending the range to the left (`left`) or to the right. */
  private widen(left: boolean): void {
    const old = this.counts!,
      oldLo = this.lo;
    this.lo = left ? oldLo - FINE_BINS * this.width : oldLo;
    this.width *= 2;
    this.counts = new Float64Array(FINE_BINS);
    const offset = left ? FINE_BINS / 2 : 0;
    for (let k = 0; k < FINE_BINS; k++) this.counts[offset + (k >> 1)] += old[k];
  }

  /** The values, or the fine bins' centres, with their weights. */
  weighted(): { values: number[]; weights: number[] | undefined } {
    if (this.exact) return { values: this.exact, weights: undefined };
    // (whole numbers stay whole: a histogram draws one bar for each)
    if (this.integers) return { values: [...this.integers.keys()], weights: [...this.integers.values()] };
    const values: number[] = [],
      weights: number[] = [];
    this.counts!.forEach((c, k) => {
      if (c > 0) {
        values.push(this.lo + (k + 0.5) * this.width);
        weights.push(c);
      }
    });
    return { values, weights };
  }
}

/**
 * The event instants a plot marks, as they come: how many distinct instants, the last one,
 * the first RUG_ABOVE + 1 with their names (rules and labels when there are few), and the
 * first in each of `slices` equal slices of [lo, hi] (the rug when there are many).
 */
export class EventMarks {
  count = 0;
  last = -Infinity;
  private readonly first: { t: number; name: string }[] = [];
  private readonly bySlice = new Map<number, { t: number; name: string }>();
  private readonly width: number;

  constructor(
    private readonly lo: number,
    hi: number,
    private readonly slices: number,
  ) {
    this.width = hi > lo ? (hi - lo) / slices : 0;
  }

  add(t: number, name: string): void {
    if (!Number.isFinite(t) || t === this.last) return;
    this.count++;
    this.last = t;
    const mark = { t, name };
    if (this.first.length <= RUG_ABOVE) this.first.push(mark);
    const k = this.width > 0 ? Math.min(this.slices - 1, Math.max(0, Math.floor((t - this.lo) / this.width))) : 0;
    if (!this.bySlice.has(k)) this.bySlice.set(k, mark);
  }

  /** All instants when there are few, one per slice when there are many. */
  instants(): { t: number; name: string }[] {
    if (this.count <= RUG_ABOVE) return this.first;
    return [...this.bySlice.values()].sort((a, b) => a.t - b.t);
  }
}
