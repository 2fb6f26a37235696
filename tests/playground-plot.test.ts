/**
 * The playground's plot arithmetic (playground/plot-geometry.ts), without a browser: round
 * ticks, the reduction of a long trajectory to four points per pixel column that draws the
 * same line, panels by scale, and the row under the pointer.
 */
import { describe, expect, it } from 'vitest';
import {
  extentOf,
  isMonotone,
  nearestRow,
  niceTicks,
  pathOf,
  scaleGroups,
  type Frame,
} from '../playground/plot-geometry.js';
import { RunData } from '../playground/run-data.js';

/** A run of `rows` as the worker sends them: chunks of a flat Float64Array. */
function runOf(columns: string[], rows: number[][], chunk = 1000): RunData {
  const d = new RunData(columns, columns[0], rows[0][0], rows[rows.length - 1][0], false);
  for (let i = 0; i < rows.length; i += chunk) {
    const part = rows.slice(i, i + chunk);
    d.add(Float64Array.from(part.flat()), part.length, [], part[part.length - 1][0]);
  }
  return d;
}

function points(path: string): [number, number][] {
  return [...path.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
}

describe('the plot arithmetic', () => {
  it('puts ticks at 1, 2 or 5 times a power of ten', () => {
    expect(niceTicks(0, 1, 5)).toEqual({ ticks: [0, 0.2, 0.4, 0.6, 0.8, 1], step: 0.2 });
    expect(Object.is(niceTicks(-1, 1, 2).ticks[1], 0)).toBe(true);
    expect(niceTicks(-4.4, 3.6, 8).step).toBe(1);
    expect(niceTicks(0, 1e6, 4).ticks).toEqual([0, 500000, 1000000]);
  });

  it('draws 10^5 rows as at most four points per pixel column, with every extreme kept', () => {
    const n = 100_000;
    const rows = Array.from({ length: n }, (_, i) => {
      const t = (i / (n - 1)) * 20;
      return [t, Math.sin(7 * t) + (i === 54_321 ? 3 : 0)]; // a spike one row wide
    });
    const d = runOf(['t', 'y'], rows, 4096);
    const ext = extentOf(d, 0, [1], null);
    const f: Frame = { left: 0, top: 0, width: 500, height: 300, x: ext.x, y: ext.y.get(1) ?? [0, 1] };
    const drawn = points(pathOf(d, 0, 1, f, isMonotone(d, 0)));
    expect(drawn.length).toBeLessThanOrEqual(4 * 501);
    // each pixel column's highest and lowest point is drawn (to the 0.1 px the path keeps)
    const byColumn = new Map<number, number[]>();
    for (const [t, y] of rows) {
      const col = Math.floor((t / 20) * 500);
      const py = 300 - ((y - f.y[0]) / (f.y[1] - f.y[0])) * 300;
      const [lo, hi] = byColumn.get(col) ?? [Infinity, -Infinity];
      byColumn.set(col, [Math.min(lo, py), Math.max(hi, py)]);
    }
    for (const [col, [lo, hi]] of byColumn) {
      // (the path rounds x to 0.1 px: a point of this column is drawn within [col - 0.05, col + 1.05])
      const ys = drawn.filter(([x]) => x >= col - 0.05 && x <= col + 1.05).map(([, y]) => y);
      expect(
        ys.some((y) => Math.abs(y - lo) <= 0.051),
        `column ${col}: its highest point`,
      ).toBe(true);
      expect(
        ys.some((y) => Math.abs(y - hi) <= 0.051),
        `column ${col}: its lowest point`,
      ).toBe(true);
    }
    // the spike reaches the top of the frame
    expect(Math.min(...drawn.map(([, y]) => y))).toBeCloseTo(0, 1);
  });

  it('puts counters and series two decades apart in panels of their own', () => {
    // t, a position of size 10, a velocity of size 1, a gap of size 1e-4, a counter n
    const rows: number[][] = [];
    for (let i = 0; i <= 100; i++) {
      const t = i / 10;
      const n = Math.floor(t / 3);
      rows.push([t, 10 * Math.cos(t), Math.sin(t), 1e-4 * t, n]);
      // an event every 3: two rows at the same time, n counting up between them
      if (i > 0 && i % 30 === 0) rows.splice(rows.length - 1, 0, [t, 10 * Math.cos(t), Math.sin(t), 1e-4 * t, n - 1]);
    }
    const d = runOf(['t', 'x', "x'", 'gap', 'n'], rows);
    const ext = extentOf(d, 0, [1, 2, 3, 4], null);
    expect(scaleGroups(d, [1, 2, 3, 4], ext)).toEqual([
      { columns: [1, 2], counter: false },
      { columns: [3], counter: false },
      { columns: [4], counter: true },
    ]);
  });

  it('finds the row under the pointer in rising and in falling time', () => {
    const rising = runOf(
      ['t', 'y'],
      [
        [0, 0],
        [1, 1],
        [2, 4],
        [3, 9],
      ],
    );
    expect(nearestRow(rising, 0, 1.4)).toBe(1);
    expect(nearestRow(rising, 0, 1.6)).toBe(2);
    const falling = runOf(
      ['t', 'y'],
      [
        [3, 9],
        [2, 4],
        [1, 1],
        [0, 0],
      ],
    );
    expect(nearestRow(falling, 0, 2.9)).toBe(0);
    expect(nearestRow(falling, 0, 0.2)).toBe(3);
  });
});
