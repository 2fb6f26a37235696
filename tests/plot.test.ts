import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  niceBins,
  renderHistogram,
  renderTrajectoryHtml,
  renderTrajectoryPlot,
  renderXYPlot,
  writePlot,
  type TrajectoryPlotInput,
  scaleGroups,
  timeWindow,
} from '../src/cli/plot.js';

/** Points of every `d` attribute of the paths inside line-mark groups. */
function linePaths(svg: string): [number, number][][] {
  const out: [number, number][][] = [];
  for (const g of svg.matchAll(/<g class="mark-line[^"]*"[^>]*>(.*?)<\/g>/gs)) {
    for (const d of g[1].matchAll(/<path[^>]*\sd="([^"]*)"/g)) {
      const pts: [number, number][] = [];
      for (const m of d[1].matchAll(/[ML]\s*(-?[\d.e+-]+)[ ,](-?[\d.e+-]+)/g)) pts.push([Number(m[1]), Number(m[2])]);
      out.push(pts);
    }
  }
  return out;
}

/** XML-escaped form of a text as vega writes it into the SVG. */
const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// A ball dropped from h = 1 bouncing once at t = 0.5 (v: -1 -> +0.8), logged before/after.
const bounce: TrajectoryPlotInput = {
  title: 'Tiny bounce',
  independent: 't',
  columns: ['t', 'h', "h'"],
  rows: [
    [0, 1, 0],
    [0.25, 0.75, -0.5],
    [0.5, 0, -1],
    [0.5, 0, 0.8],
    [0.75, 0.2, 0.3],
    [1, 0.3, -0.2],
  ],
  series: ['h', "h'"],
  events: [{ t: 0.5 }],
};

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'deltastep-plot-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('renderTrajectoryPlot', () => {
  it('produces an SVG with the title, series names and axis titles', async () => {
    const svg = await renderTrajectoryPlot(bounce);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    // (the y axis is named after what it draws, not "value")
    for (const text of ['Tiny bounce', '>h<', ">h'<", '>t<', `>h, ${esc("h'")}<`]) expect(svg).toContain(text);
  });

  it('draws a jump as a jump: a line breaks where its series jumps, no segment through the discontinuity', async () => {
    const svg = await renderTrajectoryPlot(bounce);
    const paths = linePaths(svg);
    // h' in two pieces, before and after the bounce; h, continuous there (0 before and after), in one
    expect(paths).toHaveLength(3);
    expect(paths.map((p) => p.length).sort((a, b) => a - b)).toEqual([3, 3, 6]);
    const vertical = (pts: [number, number][]): number[] =>
      pts.flatMap((p, k) => (k > 0 && p[0] === pts[k - 1][0] && p[1] !== pts[k - 1][1] ? [k] : []));
    for (const p of paths) {
      // row order is kept: x never decreases, and no piece has a vertical segment
      for (let k = 1; k < p.length; k++) expect(p[k][0]).toBeGreaterThanOrEqual(p[k - 1][0]);
      expect(vertical(p)).toEqual([]);
    }
    // the pieces of h' meet the event time from both sides at different values: the jump
    const ends = paths.map((p) => [p[0][0], p[p.length - 1][0]]);
    expect(
      ends.filter(([, b]) => b === ends[0][1]).length + ends.filter(([a]) => a === ends[0][1]).length,
    ).toBeGreaterThanOrEqual(2);
  });

  it('keeps row order even when the after-row would sort first', async () => {
    // After the jump the value is lower: a sort by (t, value) would swap the two rows.
    const svg = await renderTrajectoryPlot({
      ...bounce,
      series: ['x'],
      columns: ['t', 'x'],
      rows: [
        [0, 0],
        [1, 5],
        [1, -5],
        [2, -4],
      ],
    });
    const [before, after] = linePaths(svg);
    expect(before).toHaveLength(2);
    expect(after).toHaveLength(2);
    expect(before[1][0]).toBe(after[0][0]);
    // SVG y grows downwards: before the jump (5) is above after (-5).
    expect(before[1][1]).toBeLessThan(after[0][1]);
  });

  it('beyond 100 events marks the instants by a rug of short ticks, not rules across the panel, and says so', async () => {
    // 150 bounces of a sawtooth: x falls from 1 to 0 and is reset to 1
    const rows: number[][] = [];
    const events: { t: number; name: string }[] = [];
    for (let k = 0; k < 150; k++) {
      rows.push([k, 1], [k + 1, 0]);
      events.push({ t: k + 1, name: 'reset' });
    }
    const svg = await renderTrajectoryPlot({
      title: 'Sawtooth',
      independent: 't',
      columns: ['t', 'x'],
      rows,
      series: ['x'],
      events,
    });
    const rules = [...svg.matchAll(/<g class="mark-rule role-mark[^>]*>(.*?)<\/g>/gs)][0][1];
    const lines = [...rules.matchAll(/<line[^>]*>/g)].map((m) => m[0]);
    expect(lines).toHaveLength(150);
    expect(lines.every((l) => !l.includes('stroke-dasharray'))).toBe(true);
    // each tick 7 px long, against a panel several hundred px high
    for (const l of lines) {
      const y2 = Number(/y2="(-?[\d.]+)"/.exec(l)![1]),
        y1 = Number(/y1="(-?[\d.]+)"/.exec(l)?.[1] ?? '0');
      expect(Math.abs(y2 - y1)).toBeCloseTo(7, 6);
    }
    expect(svg).toContain('150 event instants, marked by the ticks along the bottom');
  });

  it('a rug of thousands of instants has at most a tick per pixel column, and still says how many there were', async () => {
    const rows: number[][] = [];
    const events: { t: number; name: string }[] = [];
    for (let k = 0; k < 5000; k++) {
      const t = k / 100;
      rows.push([t, k], [t, k + 1]);
      events.push({ t, name: 'hit' });
    }
    const svg = await renderTrajectoryPlot({
      title: 'Many',
      independent: 't',
      columns: ['t', 'n'],
      rows,
      series: ['n'],
      events,
    });
    const rules = [...svg.matchAll(/<g class="mark-rule role-mark[^>]*>(.*?)<\/g>/gs)][0][1];
    const ticks = [...rules.matchAll(/<line[^>]*>/g)].length;
    expect(ticks).toBeGreaterThan(500);
    expect(ticks).toBeLessThanOrEqual(2 * 720); // two slices per pixel of the 720-pixel panel
    expect(svg).toContain('5000 event instants, marked by the ticks along the bottom');
  });

  it('puts the notes it is given (how a run ended) in the subtitle', async () => {
    const svg = await renderTrajectoryPlot({ ...bounce, notes: ['stopped at t = 4.06 (zeno): events accumulate'] });
    expect(svg).toContain('stopped at t = 4.06 (zeno): events accumulate');
  });

  it('marks events with dashed rules', async () => {
    const svg = await renderTrajectoryPlot(bounce);
    expect(svg).toMatch(/<g class="mark-rule role-mark[^>]*><line[^>]*stroke-dasharray/);
  });

  it('handles names that are special to vega or JavaScript', async () => {
    const svg = await renderTrajectoryPlot({
      title: 'odd <names> & "quotes"',
      independent: 'time.s',
      columns: ['time.s', "x1'", '__proto__', 'a.b', 'c[0]', 'constructor'],
      rows: [
        [0, 1, 2, 3, 4, 5],
        [1, 2, 3, 4, 5, 6],
      ],
      series: ["x1'", '__proto__', 'a.b', 'c[0]', 'constructor'],
      events: [],
    });
    expect(svg).toContain(esc('odd <names> & "quotes"'));
    for (const name of ["x1'", '__proto__', 'a.b', 'c[0]', 'constructor', 'time.s']) {
      expect(svg).toContain(`>${esc(name)}<`);
    }
    expect(linePaths(svg)).toHaveLength(5);
  });

  it('draws an empty plot for empty or non-finite data', async () => {
    const empty = await renderTrajectoryPlot({ ...bounce, title: 'Nothing', rows: [], events: [] });
    expect(empty.startsWith('<svg')).toBe(true);
    expect(empty).toContain('Nothing');

    const nan = await renderTrajectoryPlot({
      ...bounce,
      title: 'Gaps',
      rows: [
        [0, NaN, 1],
        [NaN, 1, 1],
        [1, Infinity, 2],
        [2, 3, NaN],
      ],
      events: [{ t: NaN }],
    });
    expect(nan).toContain('Gaps');
    expect(nan).not.toMatch(/NaN|Infinity/);

    const noSeries = await renderTrajectoryPlot({ ...bounce, series: [] });
    expect(noSeries).toContain('Tiny bounce');
  });

  it('keeps stderr and the console quiet', async () => {
    const spies = (['warn', 'error', 'log', 'info'] as const).map((m) => vi.spyOn(console, m));
    const write = vi.spyOn(process.stderr, 'write');
    try {
      await renderTrajectoryPlot({ ...bounce, rows: [] });
      await renderXYPlot({
        title: 'q',
        xLabel: 'x',
        series: [{ name: 's', points: [[0, 0]] }],
        logX: true,
        logY: true,
      });
      await renderHistogram({ title: 'q', xLabel: 'x', values: [] });
      for (const s of spies) expect(s).not.toHaveBeenCalled();
      expect(write).not.toHaveBeenCalled();
    } finally {
      for (const s of spies) s.mockRestore();
      write.mockRestore();
    }
  });
});

describe('renderXYPlot', () => {
  it('draws series with a log x axis and skips points a log axis cannot show', async () => {
    const svg = await renderXYPlot({
      title: 'Collisions vs restitution',
      xLabel: 'e',
      series: [
        {
          name: 'collisions',
          points: [
            [0, 1],
            [0.1, 3],
            [0.5, 8],
            [0.9, 40],
            [NaN, 3],
          ],
        },
        {
          name: "n'",
          points: [
            [0.1, 2],
            [0.5, 4],
          ],
        },
      ],
      logX: true,
      mark: 'line',
    });
    expect(svg.startsWith('<svg')).toBe(true);
    for (const text of [
      'Collisions vs restitution',
      '>e<',
      `>collisions, ${esc("n'")}<`,
      '>collisions<',
      `>${esc("n'")}<`,
    ]) {
      expect(svg).toContain(text);
    }
    const paths = linePaths(svg);
    expect(paths.map((p) => p.length).sort()).toEqual([2, 3]);
  });

  it('a log axis spans the data, not the decades around it', async () => {
    // 0.2..0.9 on a "nice" log axis would become 0.1..1 and leave both ends empty
    const svg = await renderXYPlot({
      title: 'log',
      xLabel: 'e',
      series: [
        {
          name: 'n',
          points: [
            [0.2, 5],
            [0.5, 3],
            [0.9, 2],
          ],
        },
      ],
      logX: true,
      logY: true,
      mark: 'line',
    });
    const [path] = linePaths(svg);
    const xs = path.map((p) => p[0]),
      ys = path.map((p) => p[1]);
    expect(Math.min(...xs)).toBeCloseTo(0, 6);
    expect(Math.min(...ys)).toBeCloseTo(0, 6);
    // the middle point sits where log scaling puts it: log(0.5/0.2)/log(0.9/0.2) of the width
    const frac = (xs[1] - xs[0]) / (xs[2] - xs[0]);
    expect(frac).toBeCloseTo(Math.log(2.5) / Math.log(4.5), 6);
  });

  it('names the y axis after a single series and supports every mark', async () => {
    for (const mark of ['line', 'point', 'linepoint'] as const) {
      const svg = await renderXYPlot({
        title: 'one',
        xLabel: 'k',
        series: [
          {
            name: 'hits',
            points: [
              [1, 2],
              [2, 3],
            ],
          },
        ],
        mark,
      });
      expect(svg).toContain('>hits<');
    }
    const empty = await renderXYPlot({ title: 'empty xy', xLabel: 'k', series: [], logY: true });
    expect(empty).toContain('empty xy');
  });
});

describe('renderHistogram', () => {
  it('draws bars and labelled markers', async () => {
    const values = Array.from({ length: 200 }, (_, k) => Math.sin(k) * 3 + 5);
    const svg = await renderHistogram({
      title: 'Impact times',
      xLabel: 't_hit',
      values: [...values, NaN, Infinity],
      bins: 10,
      markers: [
        { label: 'mean', value: 5 },
        { label: 'bad', value: NaN },
      ],
    });
    for (const text of ['Impact times', '>t_hit<', '>frequency<', '>mean<']) expect(svg).toContain(text);
    expect(svg).not.toContain('>bad<');
    const bars = svg.match(/<g class="mark-rect role-mark[^>]*>(.*?)<\/g>/s)?.[1] ?? '';
    const n = (bars.match(/<path/g) ?? []).length;
    expect(n).toBeGreaterThanOrEqual(5);
    expect(n).toBeLessThanOrEqual(10);
  });

  it('handles empty and constant samples', async () => {
    expect(await renderHistogram({ title: 'none', xLabel: 'x', values: [] })).toContain('none');
    const one = await renderHistogram({ title: 'const', xLabel: 'x', values: [2, 2, 2] });
    expect(one).toContain('const');
  });

  it('bins with nice boundaries covering the range', () => {
    for (const [lo, hi, max] of [
      [0, 1, 10],
      [0.3, 5.7, 12],
      [-3, 7, 4],
      [1e-9, 3e-9, 20],
      [100, 100.5, 1],
    ] as const) {
      const { start, step, n } = niceBins(lo, hi, max);
      expect(n).toBeLessThanOrEqual(max);
      expect(start).toBeLessThanOrEqual(lo);
      expect(start + n * step).toBeGreaterThanOrEqual(hi * (1 - 1e-12));
    }
  });
});

describe('writePlot', () => {
  it('writes SVG as is and PNG with the PNG signature', async () => {
    const svg = await renderTrajectoryPlot(bounce);
    const svgPath = join(dir, 'a.svg');
    await writePlot(svg, svgPath);
    expect(await readFile(svgPath, 'utf8')).toBe(svg);

    const pngPath = join(dir, 'a.PNG');
    await writePlot(svg, pngPath);
    const png = await readFile(pngPath);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.length).toBeGreaterThan(5_000);
    expect(png.length).toBeLessThan(5_000_000);
    // IHDR width/height: 2x zoom of a ~760x450 SVG.
    expect(png.readUInt32BE(16)).toBeGreaterThan(1200);
    expect(png.readUInt32BE(20)).toBeGreaterThan(700);
  });

  it('rejects unsupported extensions, naming the supported ones', async () => {
    await expect(writePlot('<svg/>', join(dir, 'a.pdf'))).rejects.toThrow(/\.svg.*\.png/);
    await expect(writePlot('<svg/>', join(dir, 'noext'))).rejects.toThrow(/\.svg.*\.png/);
  });

  it('does not create missing directories', async () => {
    const missing = join(dir, 'missing', 'a.svg');
    await expect(writePlot('<svg/>', missing)).rejects.toThrow(/does not exist/);
    await expect(stat(join(dir, 'missing'))).rejects.toThrow();
  });
});

describe('plots people read', () => {
  it('the time axis stops after the last event when a long run goes on unchanged, and says so', () => {
    const rows = [
      [0, 1],
      [1, 1],
      [1, 2],
      [17.8, 2],
      [17.8, 3],
      [1e6, 3],
    ];
    const w = timeWindow(rows, [{ t: 1 }, { t: 17.8 }]);
    expect(w.end).toBeCloseTo(17.8 + 0.25 * 17.8, 12);
    expect(w.note).toBe('time axis to 22.25: the last event is at 17.8, the run goes on to 1000000');
    // events over the whole range: the whole range
    expect(
      timeWindow(
        [
          [0, 1],
          [5, 1],
          [10, 2],
        ],
        [{ t: 5 }],
      ),
    ).toEqual({ end: 10, note: null });
  });

  it('one panel per scale: a counter apart, quantities two decades apart apart', () => {
    const pts = (vals: number[], ts: number[]) => vals.map((value, i) => ({ t: ts[i], value }));
    const ts = [0, 1, 1, 2, 2, 3];
    const groups = scaleGroups([
      { name: 'x', points: pts([10, 9, 9, 8, 8, 7], ts) },
      { name: 'v', points: pts([1.5, 1.5, -1.5, -1.5, 1.5, 1.5], ts) },
      { name: 'gap', points: pts([1e-4, 2e-4, 2e-4, 1e-4, 1e-4, 3e-4], ts) },
      { name: 'n', points: pts([0, 0, 1, 1, 2, 2], ts) },
    ]);
    expect(groups).toEqual([['x', 'v'], ['gap'], ['n']]);
  });

  it('a series identical to another is drawn dashed, so that both show', async () => {
    const svg = await renderTrajectoryPlot({
      title: 'twins',
      independent: 't',
      columns: ['t', 'a', 'b'],
      rows: [
        [0, 1, 1],
        [1, 2, 2],
      ],
      series: ['a', 'b'],
      events: [],
    });
    expect(svg).toMatch(/stroke-dasharray="6,4"/);
  });
});

describe('--plot FILE.html: a self-contained interactive page', () => {
  it('inlines the vega runtime and a specification with zoom and hover that renders', async () => {
    const html = await renderTrajectoryHtml(bounce);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script[^>]+src=/); // nothing fetched from a network
    const specText = /vega\.parse\((\{.*\})\), \{ renderer/s.exec(html)![1];
    const spec = JSON.parse(specText);
    // the pan/zoom interval bound to the scales, and tooltips on the hover points
    expect(JSON.stringify(spec)).toMatch(/"name":"zoom/);
    expect(JSON.stringify(spec)).toMatch(/tooltip/);
    const vega = await import('vega');
    const view = new vega.View(vega.parse(spec), { renderer: 'none' });
    expect(await view.toSVG()).toMatch(/^<svg/);
    view.finalize();
  });
});
