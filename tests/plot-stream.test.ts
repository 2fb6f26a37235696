/**
 * Plots stream (issue 21, item 9): what a plot keeps of a run is a bounded reduction that
 * draws the same picture (each pixel column's first, lowest, highest and last point, every
 * jump kept), whatever the number of rows; and the plot flags of CLI.md (--title, --xlabel,
 * --ylabel, --width, --height).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventMarks, JUMPS_PER_COLUMN, RUG_ABOVE, SeriesReducer, StreamHistogram } from '../src/cli/plot-reduce.js';
import { TrajectoryCollector, plotSeries } from '../src/cli/trajectory-data.js';
import { ensureCliBuilt, runCli } from './helpers.js';

let dir = '';
beforeAll(() => {
  ensureCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ds-plotstream-'));
}, 200_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SeriesReducer', () => {
  it('a million points of a fast signal: at most four per column, and each column keeps its extremes', () => {
    const n = 1_000_000,
      cols = 1440;
    const r = new SeriesReducer(0, 1, cols);
    const lo = new Float64Array(cols).fill(Infinity),
      hi = new Float64Array(cols).fill(-Infinity);
    for (let k = 0; k < n; k++) {
      const x = k / (n - 1);
      const y = Math.sin(2 * Math.PI * 3000 * x) + 0.1 * Math.sin(7 * x);
      const c = Math.min(cols - 1, Math.floor(x * cols));
      lo[c] = Math.min(lo[c], y);
      hi[c] = Math.max(hi[c], y);
      r.add(x, y);
    }
    const points = r.points();
    expect(points.length).toBeLessThanOrEqual(4 * cols);
    const klo = new Float64Array(cols).fill(Infinity),
      khi = new Float64Array(cols).fill(-Infinity);
    for (const p of points) {
      const c = Math.min(cols - 1, Math.floor(p.x * cols));
      klo[c] = Math.min(klo[c], p.y);
      khi[c] = Math.max(khi[c], p.y);
    }
    expect(Array.from(klo)).toEqual(Array.from(lo));
    expect(Array.from(khi)).toEqual(Array.from(hi));
    // in the order they came
    for (let k = 1; k < points.length; k++) expect(points[k].i).toBeGreaterThan(points[k - 1].i);
  });

  it('keeps every jump exactly (before and after, a new line), up to JUMPS_PER_COLUMN in a column', () => {
    // a sawtooth of 10 teeth over 1440 columns: each reset is a jump at its own column
    const r = new SeriesReducer(0, 10, 1440);
    for (let k = 0; k <= 100_000; k++) {
      const t = k / 10_000;
      if (k > 0 && k % 10_000 === 0) r.add(t, 1);
      r.add(t, k % 10_000 === 0 ? 0 : (k % 10_000) / 10_000);
    }
    const points = r.points();
    for (let j = 1; j < 10; j++) {
      const at = points.filter((p) => p.x === j);
      expect(at.map((p) => p.y)).toEqual([1, 0]);
      expect(at[1].segment).toBe(at[0].segment + 1);
    }
    // 1000 jumps inside one column: the column is drawn as its extent, memory stays bounded
    const many = new SeriesReducer(0, 1, 10);
    for (let k = 0; k < 1000; k++) {
      many.add(0.5 + k * 1e-6, 0);
      many.add(0.5 + k * 1e-6, 1);
    }
    const kept = many.points();
    expect(kept.length).toBeLessThanOrEqual((JUMPS_PER_COLUMN + 1) * 4);
    expect(Math.min(...kept.map((p) => p.y))).toBe(0);
    expect(Math.max(...kept.map((p) => p.y))).toBe(1);
  });
});

describe('what else a plot keeps', () => {
  it('event marks: all of a few, one per slice of many', () => {
    const few = new EventMarks(0, 10, 1440);
    for (let k = 1; k <= 5; k++) few.add(k, 'e');
    few.add(5, 'e');
    expect(few.count).toBe(5);
    expect(few.instants().map((e) => e.t)).toEqual([1, 2, 3, 4, 5]);
    const many = new EventMarks(0, 1, 100);
    for (let k = 0; k < 100_000; k++) many.add(k / 100_000, 'tick');
    expect(many.count).toBe(100_000);
    expect(many.count).toBeGreaterThan(RUG_ABOVE);
    expect(many.instants()).toHaveLength(100);
    expect(many.last).toBe(99_999 / 100_000);
  });

  it('a histogram of a million values: its fine bins count every one, and the mass stays in range', () => {
    const h = new StreamHistogram();
    let s = 1;
    const xs: number[] = [];
    for (let k = 0; k < 1_000_000; k++) {
      s = (s * 16807) % 2147483647;
      const x = (s / 2147483647) * 10 - 5 + (k > 900_000 ? 20 : 0);
      xs.push(x);
      h.add(x);
    }
    const { values, weights } = h.weighted();
    expect(weights).toBeDefined();
    expect(weights!.reduce((a, b) => a + b, 0)).toBe(1_000_000);
    expect(values.length).toBeLessThanOrEqual(4096);
    // the last 99999 values moved by +20: their mass is where they are, within a fine bin
    const above = values.reduce((m, v, k) => m + (v > 10 ? weights![k] : 0), 0);
    expect(above).toBe(99_999);
  });

  it('the collector evaluates plotted expressions row by row', () => {
    const columns = ['t', 'x', 'v'];
    const c = new TrajectoryCollector(columns, plotSeries('x, 0.5*v^2', columns), 0, 1);
    c.row([0, 1, 2]);
    c.row([1, 3, 4]);
    const [x, e] = c.reduced();
    expect(x.points.map((p) => p.y)).toEqual([1, 3]);
    expect(e.name).toBe('0.5*v^2');
    expect(e.points.map((p) => p.y)).toEqual([2, 8]);
  });
});

describe('the command line', () => {
  const spring = () => {
    const file = join(dir, 'spring.delta');
    writeFileSync(file, "x' = v\nv' = -x\nx(0) = 1; v(0) = 0\n");
    return file;
  };

  it('a run of a million rows draws a picture of bounded size', () => {
    const svg = join(dir, 'long.svg');
    const r = runCli([
      'simulate',
      spring(),
      '--to',
      '1e4',
      '--output-step',
      '0.01',
      '--format',
      'csv',
      '--out',
      join(dir, 'long.csv'),
      '--plot',
      svg,
    ]);
    expect(r.status).toBe(0);
    const text = readFileSync(svg, 'utf8');
    // the rows were 1e6; the two paths hold at most four points per column of 1440 each
    const points = (text.match(/[ML]-?[\d.]+,-?[\d.]+/g) ?? []).length;
    expect(points).toBeGreaterThan(1000);
    expect(points).toBeLessThanOrEqual(2 * 4 * 1440 + 10);
  });

  it('--title, --xlabel, --ylabel, --width and --height', () => {
    const svg = join(dir, 'look.svg');
    const r = runCli([
      'simulate',
      spring(),
      '--to',
      '3',
      '--plot',
      svg,
      '--title',
      'A spring',
      '--xlabel',
      'time (s)',
      '--ylabel',
      'state',
      '--width',
      '300',
      '--height',
      '200',
    ]);
    expect(r.status).toBe(0);
    const text = readFileSync(svg, 'utf8');
    expect(text).toContain('A spring');
    expect(text).toContain('time (s)');
    expect(text).toContain('state');
    const width = Number(/<svg[^>]*width="(\d+(\.\d+)?)"/.exec(text)![1]);
    expect(width).toBeGreaterThan(300);
    expect(width).toBeLessThan(450);
    const bad = runCli(['simulate', spring(), '--to', '3', '--plot', svg, '--width', '20']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--width must be a whole number of pixels from 100 to 8000, got 20/);
  });

  it.runIf(existsSync('/dev/full'))('an output that fails still leaves the plot of what was computed', () => {
    const svg = join(dir, 'kept.svg');
    const r = runCli([
      'simulate',
      spring(),
      '--to',
      '100',
      '--output-step',
      '0.001',
      '--format',
      'csv',
      '--out',
      '/dev/full',
      '--plot',
      svg,
    ]);
    expect(r.status).toBe(5);
    expect(existsSync(svg)).toBe(true);
  });

  it('sweep and montecarlo plots take the look flags', () => {
    const file = join(dir, 'decay.delta');
    writeFileSync(file, "parameter k = 1\nindependent t from 0 to 1\nx' = -k*x\nx(0) = 1\n");
    const sweep = join(dir, 'sweep.svg'),
      hist = join(dir, 'hist.svg');
    expect(
      runCli([
        'sweep',
        file,
        '--vary',
        'k=0:2:50',
        '--report',
        'x',
        '--plot',
        sweep,
        '--title',
        'Decay',
        '--ylabel',
        'x(1)',
      ]).status,
    ).toBe(0);
    expect(readFileSync(sweep, 'utf8')).toContain('Decay');
    expect(readFileSync(sweep, 'utf8')).toContain('x(1)');
    expect(
      runCli([
        'montecarlo',
        file,
        '--sample',
        'k~normal(1,0.1)',
        '--report',
        'x',
        '--plot',
        hist,
        '--xlabel',
        'x at t = 1',
      ]).status,
    ).toBe(0);
    expect(readFileSync(hist, 'utf8')).toContain('x at t = 1');
  });
});
