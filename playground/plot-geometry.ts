/**
 * The arithmetic of the plot, apart from the drawing: round tick values, their labels, and
 * the reduction of a long trajectory to what a pixel column can show (first, lowest, highest
 * and last point of each column, in their order: the drawn line is the same as with every
 * point, jumps at events included).
 */
import type { RunData } from './run-data.js';

/** Tick values at 1, 2 or 5 times a power of ten, about `count` of them over [lo, hi]. */
export function niceTicks(lo: number, hi: number, count: number): { ticks: number[]; step: number } {
  if (!(hi > lo)) return { ticks: [lo], step: 1 };
  const raw = (hi - lo) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  // (k * step rounded to 12 digits: 0.6, not 0.6000000000000001; and 0, not -0)
  for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k++)
    ticks.push(Number((k * step).toPrecision(12)) + 0);
  return { ticks, step };
}

/** A tick label with the decimals its step needs (exponent notation for very large or small). */
export function tickLabel(v: number, step: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e6 || a < 1e-4)
    return v.toExponential(Math.max(0, Math.min(6, -Math.floor(Math.log10(step)) + Math.floor(Math.log10(a)))));
  const decimals = Math.max(0, Math.min(12, -Math.floor(Math.log10(step) + 1e-9)));
  return v.toFixed(decimals);
}

/** A value for a person: 10 significant digits, exponent notation outside 1e-4 .. 1e7. */
export function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (v !== 0 && (Math.abs(v) < 1e-4 || Math.abs(v) >= 1e7)) return v.toExponential(9).replace(/\.?0+e/, 'e');
  return String(Number(v.toPrecision(10)));
}

/** A range with room around it; a constant gets a unit (or 10 %) either side. */
export function padded(lo: number, hi: number, fraction: number): [number, number] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (hi === lo) {
    const d = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    return [lo - d, hi + d];
  }
  const d = (hi - lo) * fraction;
  return [lo - d, hi + d];
}

export interface Extent {
  x: [number, number];
  /** by column */
  y: Map<number, [number, number]>;
}

/** The extent of column `xi` (within `domain` if given) and of each column of `ys` over those rows. */
export function extentOf(data: RunData, xi: number, ys: number[], domain: [number, number] | null): Extent {
  let x0 = Infinity,
    x1 = -Infinity;
  const lo = ys.map(() => Infinity),
    hi = ys.map(() => -Infinity);
  const w = data.width;
  data.forEachChunk((chunk, count) => {
    for (let r = 0; r < count; r++) {
      const x = chunk[r * w + xi];
      if (!Number.isFinite(x) || (domain && (x < domain[0] || x > domain[1]))) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      for (let k = 0; k < ys.length; k++) {
        const y = chunk[r * w + ys[k]];
        if (y < lo[k]) lo[k] = y;
        if (y > hi[k]) hi[k] = y;
      }
    }
  });
  return { x: domain ?? [x0, x1], y: new Map(ys.map((j, k) => [j, [lo[k], hi[k]]])) };
}

/**
 * Series in panels of their own scale, as the command line's plots: counters (whole numbers
 * that change only at events, where two rows share the time) together in a panel apart; the
 * others together unless their largest magnitudes differ by more than two decades (a gap of
 * 1e-3 beside a position of 10 would be a flat line).
 */
export function scaleGroups(data: RunData, ys: number[], ext: Extent): { columns: number[]; counter: boolean }[] {
  const counters = ys.filter((j) => isCounter(data, j));
  const scaled = ys
    .filter((j) => !counters.includes(j))
    .map((j) => {
      const [lo, hi] = ext.y.get(j) ?? [0, 0];
      const mag = Math.max(Math.abs(lo), Math.abs(hi));
      return { j, mag: mag > 0 && Number.isFinite(mag) ? Math.log10(mag) : -Infinity };
    })
    .sort((a, b) => b.mag - a.mag);
  const groups: { columns: number[]; counter: boolean; top: number }[] = [];
  for (const s of scaled) {
    const g = groups.find((q) => q.top - s.mag <= 2 || (s.mag === -Infinity && q.top === -Infinity));
    if (g) g.columns.push(s.j);
    else groups.push({ columns: [s.j], counter: false, top: s.mag });
  }
  // (the panels keep the order of the columns, not of their magnitudes)
  groups.forEach((g) => g.columns.sort((a, b) => a - b));
  groups.sort((a, b) => a.columns[0] - b.columns[0]);
  const out = groups.map(({ columns }) => ({ columns, counter: false }));
  if (counters.length) out.push({ columns: counters, counter: true });
  return out;
}

function isCounter(data: RunData, j: number): boolean {
  let changed = false,
    counter = true,
    first = true,
    prevT = 0,
    prevV = 0;
  const w = data.width;
  data.forEachChunk((chunk, count) => {
    for (let r = 0; r < count && counter; r++) {
      const t = chunk[r * w],
        v = chunk[r * w + j];
      if (!Number.isInteger(v)) counter = false;
      else if (!first && v !== prevV) {
        // (a counter changes only between an event's two rows, which share the time)
        if (t !== prevT) counter = false;
        changed = true;
      }
      first = false;
      prevT = t;
      prevV = v;
    }
  });
  return counter && changed && data.rowCount > 2;
}

export interface Frame {
  /** plot area in pixels */
  left: number;
  top: number;
  width: number;
  height: number;
  x: [number, number];
  y: [number, number];
}

export const px = (f: Frame, x: number) => f.left + ((x - f.x[0]) / (f.x[1] - f.x[0])) * f.width;
export const py = (f: Frame, y: number) => f.top + f.height - ((y - f.y[0]) / (f.y[1] - f.y[0])) * f.height;

/**
 * The SVG path of column `yi` against column `xi`, at most four points per pixel column (M4
 * reduction) when x only grows or only falls, and only the rows in view with one either side;
 * a break where a value is not finite. Points are clamped far outside the area so that a huge
 * value cannot overflow the SVG's numbers.
 */
export function pathOf(data: RunData, xi: number, yi: number, f: Frame, monotone: boolean): string {
  const out: string[] = [];
  const w = data.width;
  const m4 = new PixelColumns((x, y, move) => {
    const clamp = (v: number) => Math.max(-1e7, Math.min(1e7, v)).toFixed(1);
    out.push(`${move ? 'M' : 'L'}${clamp(x)},${clamp(y)}`);
  });
  const lo = f.left - 1,
    hi = f.left + f.width + 1;
  let outside = false,
    prevX = NaN,
    prevY = NaN;
  data.forEachChunk((chunk, count) => {
    for (let r = 0; r < count; r++) {
      const x = px(f, chunk[r * w + xi]);
      const y = py(f, chunk[r * w + yi]);
      if (!Number.isFinite(x) || !Number.isFinite(y)) {
        m4.breakLine();
        continue;
      }
      if (!monotone) {
        // (a phase plot: every point, less those on the pixel of the one before)
        if (Math.abs(x - prevX) >= 0.5 || Math.abs(y - prevY) >= 0.5) m4.point(x, y);
        prevX = x;
        prevY = y;
        continue;
      }
      if (x < lo || x > hi) {
        // out of view: the last point before the view and the first after it are drawn
        if (!outside) m4.point(x, y);
        outside = true;
        prevX = x;
        prevY = y;
        continue;
      }
      if (outside && Number.isFinite(prevX)) m4.point(prevX, prevY);
      outside = false;
      m4.point(x, y);
    }
  });
  m4.flush();
  return out.join('');
}

/** Points reduced to first, lowest, highest and last of each pixel column, in their order. */
class PixelColumns {
  private column = NaN;
  private n = 0;
  private firstX = 0;
  private firstY = 0;
  private lastX = 0;
  private lastY = 0;
  private minY = 0;
  private maxY = 0;
  private minAt = 0;
  private maxAt = 0;
  private move = true;

  constructor(private readonly out: (x: number, y: number, move: boolean) => void) {}

  point(x: number, y: number): void {
    const col = Math.floor(x);
    if (col !== this.column || this.n === 0) {
      this.flush();
      this.column = col;
      this.firstX = this.lastX = x;
      this.firstY = this.lastY = this.minY = this.maxY = y;
      this.minAt = this.maxAt = 0;
      this.n = 1;
      return;
    }
    this.lastX = x;
    this.lastY = y;
    if (y < this.minY) {
      this.minY = y;
      this.minAt = this.n;
    }
    if (y > this.maxY) {
      this.maxY = y;
      this.maxAt = this.n;
    }
    this.n++;
  }

  breakLine(): void {
    this.flush();
    this.move = true;
  }

  flush(): void {
    if (this.n === 0) return;
    this.emit(this.firstX, this.firstY);
    if (this.n > 1) {
      const [a, b] = this.minAt <= this.maxAt ? [this.minY, this.maxY] : [this.maxY, this.minY];
      if (a !== this.firstY) this.emit(this.firstX, a);
      if (b !== this.lastY) this.emit(this.lastX, b);
      this.emit(this.lastX, this.lastY);
    }
    this.n = 0;
  }

  private emit(x: number, y: number): void {
    this.out(x, y, this.move);
    this.move = false;
  }
}

/** Whether column xi never decreases, or never increases, along the rows. */
export function isMonotone(data: RunData, xi: number): boolean {
  let up = true,
    down = true,
    prev = NaN;
  const w = data.width;
  data.forEachChunk((chunk, count) => {
    for (let r = 0; r < count && (up || down); r++) {
      const x = chunk[r * w + xi];
      if (x > prev) down = false;
      if (x < prev) up = false;
      prev = x;
    }
  });
  return up || down;
}

/** The row whose column xi is nearest to x (rows ordered by that column, either way). */
export function nearestRow(data: RunData, xi: number, x: number): number {
  const n = data.rowCount;
  if (n === 0) return -1;
  const rising = data.get(n - 1, xi) >= data.get(0, xi);
  let lo = 0,
    hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const v = data.get(mid, xi);
    if (rising ? v <= x : v >= x) lo = mid;
    else hi = mid;
  }
  return Math.abs(data.get(lo, xi) - x) <= Math.abs(data.get(hi, xi) - x) ? lo : hi;
}
