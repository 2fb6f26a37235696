/**
 * Plots of batches: the reported values of a sweep against its parameter, and the histogram
 * of a Monte Carlo batch (plot-render.ts draws them).
 */
import type { TopLevelSpec } from 'vega-lite';
import { axisTitle, finite, frame, toSvg, type PlotLook } from './plot-render.js';
import { withUnit } from './plot-units.js';

/** Input of {@link renderXYPlot}. */
export interface XYPlotInput {
  title: string;
  /** a line under the title (what is not drawn, and why) */
  subtitle?: string;
  /** x axis title. The y axis title names the series. */
  xLabel: string;
  series: { name: string; points: [number, number][] }[];
  /** Logarithmic x axis; points with x <= 0 are then skipped. */
  logX?: boolean;
  /** Logarithmic y axis; points with y <= 0 are then skipped. */
  logY?: boolean;
  /** Default `'linepoint'`. */
  mark?: 'line' | 'point' | 'linepoint';
  /** the user's title, axis titles and size */
  look?: PlotLook;
}

/** Input of {@link renderHistogram}. */
export interface HistogramInput {
  title: string;
  /** a line under the title (a batch that a signal cut short) */
  subtitle?: string;
  /** x axis title. */
  xLabel: string;
  /** Samples; non-finite values are skipped. */
  values: number[];
  /** how many samples each value stands for (fine bins of many samples, see StreamHistogram); default 1 each */
  weights?: number[];
  /**
   * Maximum number of bins (default: Sturges' rule, at least 5). Bin boundaries are
   * rounded to "nice" numbers, so the actual count can be a little lower.
   */
  bins?: number;
  /** Vertical reference lines (e.g. the mean), shown with a legend. */
  markers?: { label: string; value: number }[];
  /** the user's title, axis titles and size */
  look?: PlotLook;
}
/**
 * Renders one or more (x, y) series as SVG text, e.g. a sweep result against a
 * parameter. Points are drawn in the order given. Non-finite points (and non-positive
 * ones on a log axis) are skipped.
 */
export async function renderXYPlot(input: XYPlotInput): Promise<string> {
  const values: { i: number; x: number; y: number; series: string }[] = [];
  for (const s of input.series) {
    s.points.forEach(([x, y], i) => {
      if (!finite(x) || !finite(y)) return;
      if ((input.logX && x <= 0) || (input.logY && y <= 0)) return;
      values.push({ i, x, y, series: s.name });
    });
  }
  const names = [...new Set(input.series.map((s) => s.name))];
  const kind = input.mark ?? 'linepoint';
  const mark =
    kind === 'point'
      ? { type: 'point' as const, filled: true, size: 40 }
      : { type: 'line' as const, strokeWidth: 1.6, point: kind === 'linepoint' ? { filled: true, size: 30 } : false };

  // Whole numbers (a count of collisions against e) are points: a line would draw slopes
  // between counts that jump. (A caller that asks for lines gets lines.)
  const integer = new Set(names.filter((n) => values.every((v) => v.series !== n || Number.isInteger(v.y))));
  const only = (list: string[]) => [{ filter: { field: 'series', oneOf: list } }];
  const lines = names.filter((n) => !integer.has(n));
  const layer =
    kind !== 'linepoint' || integer.size === 0
      ? [{ mark }]
      : [
          ...(lines.length > 0 ? [{ transform: only(lines), mark }] : []),
          { transform: only([...integer]), mark: { type: 'point' as const, filled: true, size: 30, opacity: 1 } },
        ];
  const spec: TopLevelSpec = {
    ...frame(input.title, input.subtitle, input.look),
    data: { values },
    layer,
    encoding: {
      x: {
        field: 'x',
        type: 'quantitative',
        title: input.look?.xLabel ?? withUnit(input.xLabel, input.look?.units),
        // (a nice log domain would widen to whole decades: 0.1716..0.18 would become 0.1..1)
        scale: input.logX ? { type: 'log', nice: false } : { zero: false },
      },
      y: {
        field: 'y',
        type: 'quantitative',
        title: input.look?.yLabel ?? axisTitle(names, input.look?.units),
        scale: input.logY ? { type: 'log', nice: false } : { zero: false },
      },
      color: {
        field: 'series',
        type: 'nominal',
        title: null,
        scale: { domain: names },
        // One series is already named by the y axis title.
        legend: names.length > 1 ? {} : null,
      },
      order: { field: 'i', type: 'quantitative' },
    },
  };
  return toSvg(spec);
}

/**
 * Renders a frequency histogram as SVG text. Bins are computed here (nice boundaries,
 * at most `bins` of them) so that constant or empty samples still give a sensible plot.
 */
export async function renderHistogram(input: HistogramInput): Promise<string> {
  const w = input.weights;
  const keep = input.values.map((x, k) => finite(x) && (w === undefined || w[k] > 0));
  const xs = input.values.filter((_, k) => keep[k]);
  const ws = w?.filter((_, k) => keep[k]);
  const total = ws ? ws.reduce((a, b) => a + b, 0) : xs.length;
  const markers = (input.markers ?? []).filter((m) => finite(m.value));
  const maxbins = Math.max(1, Math.floor(input.bins ?? Math.max(5, Math.ceil(Math.log2(Math.max(1, total)) + 1))));

  const bars: { x0: number; x1: number; count: number }[] = [];
  if (xs.length > 0) {
    let lo = Math.min(...xsChunks(xs, Math.min));
    let hi = Math.max(...xsChunks(xs, Math.max));
    // whole numbers over a short span: one bar for each (a bin from 0 to 10 would lump 3 to 9)
    const integers = hi - lo <= 100 && xs.every((x) => Number.isInteger(x));
    // A constant sample has a zero-width extent; widen it so there is one visible bin.
    if (lo === hi && !integers) {
      const pad = lo === 0 ? 0.5 : Math.abs(lo) * 0.05;
      lo -= pad;
      hi += pad;
    }
    const { start, step, n } = integers ? { start: lo - 0.5, step: 1, n: hi - lo + 1 } : niceBins(lo, hi, maxbins);
    const counts = new Array<number>(n).fill(0);
    xs.forEach((x, i) => {
      // The last bin is closed on the right so the maximum is counted.
      const k = Math.min(n - 1, Math.max(0, Math.floor((x - start) / step)));
      counts[k] += ws ? ws[i] : 1;
    });
    counts.forEach((count, k) => bars.push({ x0: start + k * step, x1: start + (k + 1) * step, count }));
  }

  const spec: TopLevelSpec = {
    ...frame(input.title, input.subtitle, input.look),
    layer: [
      {
        data: { values: bars },
        mark: { type: 'rect', color: '#4c78a8', stroke: 'white', strokeWidth: 0.5 },
        encoding: {
          x: {
            field: 'x0',
            type: 'quantitative',
            title: input.look?.xLabel ?? withUnit(input.xLabel, input.look?.units),
            scale: { zero: false },
          },
          x2: { field: 'x1' },
          y: { field: 'count', type: 'quantitative', title: input.look?.yLabel ?? 'frequency' },
          y2: { datum: 0 },
        },
      },
      {
        data: { values: markers.map((m) => ({ label: m.label, value: m.value })) },
        mark: { type: 'rule', strokeWidth: 2, strokeDash: [6, 3] },
        encoding: {
          x: { field: 'value', type: 'quantitative' },
          color: {
            field: 'label',
            type: 'nominal',
            title: null,
            scale: {
              domain: [...new Set(markers.map((m) => m.label))],
              range: ['#e45756', '#f58518', '#54a24b', '#b279a2', '#9d755d'],
            },
          },
        },
      },
    ],
  };
  return toSvg(spec);
}

/**
 * Equal-width bins covering [lo, hi] (lo < hi) with a step of 1, 2 or 5 times a power
 * of ten, the smallest such step giving at most `maxbins` bins (at least one bin).
 */
export function niceBins(lo: number, hi: number, maxbins: number): { start: number; step: number; n: number } {
  const raw = (hi - lo) / Math.max(1, maxbins);
  const mag = 10 ** Math.floor(Math.log10(raw));
  let start = lo;
  let step = raw;
  let n = 1;
  for (const m of [1, 2, 5, 10]) {
    step = m * mag;
    start = Math.floor(lo / step) * step;
    n = Math.max(1, Math.ceil((hi - start) / step - 1e-9));
    if (n <= maxbins) break;
  }
  return { start, step, n };
}

// Math.min(...xs) overflows the call stack for very large arrays; reduce in chunks.
function xsChunks(xs: number[], f: (...v: number[]) => number): number[] {
  const out: number[] = [];
  for (let k = 0; k < xs.length; k += 10_000) out.push(f(...xs.slice(k, k + 10_000)));
  return out;
}
