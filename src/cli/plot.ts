/**
 * Plots for the command line: trajectories (with impulses drawn as vertical jumps),
 * XY plots for parameter sweeps and histograms, rendered to SVG with vega-lite + vega
 * (no browser, no canvas) and optionally rasterised to PNG with resvg.
 *
 * All data is passed to vega in long form with fixed, safe field names
 * (`i`, `t`, `series`, `value`, ...): user names such as `h'`, `a.b` or `__proto__`
 * only ever appear as *values*, never as field names, because vega-lite interprets
 * `.`, `[` and `\` in field names as nested access.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import type { TopLevelSpec } from 'vega-lite';
import { importModule } from './import-module.js';
import { PLOT_EXTENSIONS, writeWhole } from './out-file.js';

/**
 * vega and vega-lite, loaded when a plot is drawn: they are ES modules with top-level await,
 * which the command line's CommonJS bundle must import() (see import-module.ts), not require().
 */
type VegaLibraries = { vega: typeof import('vega'); compile: (typeof import('vega-lite'))['compile'] };
let vegaLibraries: Promise<VegaLibraries> | null = null;
function loadVega(): Promise<VegaLibraries> {
  vegaLibraries ??= Promise.all([
    importModule<typeof import('vega')>('vega'),
    importModule<typeof import('vega-lite')>('vega-lite'),
  ]).then(([vega, vl]) => ({ vega, compile: vl.compile }));
  return vegaLibraries;
}

/** Input of {@link renderTrajectoryPlot}. */
export interface TrajectoryPlotInput {
  /** Plot title. */
  title: string;
  /** Name of the independent variable (x axis title); also `columns[0]`. */
  independent: string;
  /** Column names; `columns[0]` is the independent variable. */
  columns: string[];
  /**
   * `rows[i][0]` is the independent variable, `rows[i][j]` the value of `columns[j]`.
   * At an event the rows hold two consecutive rows with the same independent value
   * (before and after the jump); rows are drawn in this order, never re-sorted.
   */
  rows: number[][];
  /** Column names to draw (unknown names are ignored). */
  series: string[];
  /** Event times (and names), marked with thin dashed vertical rules. */
  events: { t: number; name?: string }[];
  /** lines for the subtitle: how the run ended when it did not end ok, what was plotted */
  notes?: string[];
  /** the time window, when the rows were already cut to it (see timeWindow) */
  window?: { end: number; note: string | null };
}

/** Input of {@link renderXYPlot}. */
export interface XYPlotInput {
  title: string;
  /** a line under the title (what is not drawn, and why) */
  subtitle?: string;
  /** x axis title. The y axis title is the series name if there is one series, else "value". */
  xLabel: string;
  series: { name: string; points: [number, number][] }[];
  /** Logarithmic x axis; points with x <= 0 are then skipped. */
  logX?: boolean;
  /** Logarithmic y axis; points with y <= 0 are then skipped. */
  logY?: boolean;
  /** Default `'linepoint'`. */
  mark?: 'line' | 'point' | 'linepoint';
}

/** Input of {@link renderHistogram}. */
export interface HistogramInput {
  title: string;
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
}

const WIDTH = 720;
const HEIGHT = 400;

// Fonts in order of preference: vega only writes the family list into the SVG, and
// resvg picks the first one installed (it does not map the generic 'sans-serif' to
// whatever is installed, falling back to the first system font, often a serif).
// Names are unquoted on purpose: resvg does not match quoted names (as written by
// vega, `&quot;DejaVu Sans&quot;`), while unquoted multi-word names are valid CSS.
const FONT = 'Helvetica, Arial, Liberation Sans, DejaVu Sans, Noto Sans, sans-serif';

const baseConfig = {
  padding: 12,
  font: FONT,
  title: { fontSize: 15, anchor: 'start' as const, offset: 10 },
  axis: { labelFontSize: 11, titleFontSize: 12, titlePadding: 8, gridColor: '#e6e6e6' },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 240, symbolStrokeWidth: 2 },
  view: { stroke: '#bbbbbb' },
};

/** What every plot shares: the schema, the title, the size and the style. */
function frame(title: string, subtitle?: string) {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: subtitle ? { text: title, subtitle } : title,
    width: WIDTH,
    height: HEIGHT,
    config: baseConfig,
  } as const;
}

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/**
 * Compiles a vega-lite spec and renders it headless to SVG text.
 * Warnings from vega-lite and vega are silenced: they are about spec details the user
 * cannot act on, and the CLI's stderr is for the user.
 */
async function toSvg(spec: TopLevelSpec): Promise<string> {
  const { vega, compile } = await loadVega();
  const { spec: vgSpec } = compile(spec, { logger: vega.logger(vega.None) });
  const view = new vega.View(vega.parse(vgSpec), { renderer: 'none', logLevel: vega.None });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * Where a trajectory plot's time axis should end: the whole range, or (when every event
 * happens in the first tenth of a long run that then goes on unchanged, as C12's collisions
 * before t = 20 of a run to 1e6) the last event plus a margin, said in the subtitle.
 */
export function timeWindow(
  rows: readonly number[][],
  events: readonly { t: number }[],
): { end: number; note: string | null } {
  const t0 = rows.length > 0 ? rows[0][0] : 0,
    tEnd = rows.length > 0 ? rows[rows.length - 1][0] : 0;
  const last = events.reduce((m, e) => (finite(e.t) && e.t > m ? e.t : m), -Infinity);
  if (!finite(last) || !(tEnd > t0) || last - t0 > 0.1 * (tEnd - t0)) return { end: tEnd, note: null };
  const end = last + Math.max(0.25 * (last - t0), (tEnd - t0) * 1e-6);
  return {
    end,
    note: `time axis to ${Number(end.toPrecision(4))}: the last event is at ${Number(last.toPrecision(6))}, the run goes on to ${Number(tEnd.toPrecision(6))}`,
  };
}

/**
 * Series grouped by scale for panels of their own: a discrete counter (whole numbers that only
 * change at events, where two rows share a time) apart, and the others together unless their
 * largest magnitudes differ by more than two decades (a gap of 1e-3 beside a position of 10
 * would be a flat line).
 */
export function scaleGroups(
  series: readonly { name: string; points: readonly { t: number; value: number }[] }[],
): string[][] {
  const counters: string[] = [];
  const scaled: { name: string; mag: number }[] = [];
  for (const s of series) {
    const p = s.points;
    const stepsOnly =
      p.length > 2 &&
      p.every((q) => Number.isInteger(q.value)) &&
      p.some((q, i) => i > 0 && q.value !== p[i - 1].value) &&
      p.every((q, i) => i === 0 || q.t === p[i - 1].t || q.value === p[i - 1].value);
    if (stepsOnly) {
      counters.push(s.name);
      continue;
    }
    const mag = p.reduce((m, q) => Math.max(m, Math.abs(q.value)), 0);
    scaled.push({ name: s.name, mag: mag > 0 ? Math.log10(mag) : -Infinity });
  }
  scaled.sort((a, b) => b.mag - a.mag);
  const groups: string[][] = [];
  let top = Infinity;
  for (const s of scaled) {
    if (groups.length === 0 || !(top - s.mag <= 2)) {
      groups.push([]);
      top = s.mag;
    }
    groups[groups.length - 1].push(s.name);
  }
  if (counters.length > 0) groups.push(counters);
  return groups;
}

/** The series that repeat an earlier one exactly (drawn dashed, so that both stay visible). */
function repeats(series: readonly { name: string; points: readonly { value: number }[] }[]): Set<string> {
  const out = new Set<string>();
  series.forEach((s, k) => {
    if (
      series
        .slice(0, k)
        .some((o) => o.points.length === s.points.length && o.points.every((q, i) => q.value === s.points[i].value))
    )
      out.add(s.name);
  });
  return out;
}

/**
 * Renders trajectories against the independent variable as SVG text.
 *
 * - Jumps are drawn as jumps: the line breaks at every event (the before and after rows share
 *   a time), and the instants are marked by dashed rules, labelled with the event's name when
 *   there are few.
 * - One panel per group of series of similar scale, discrete counters on their own.
 * - The time axis covers where things happen (see timeWindow); the subtitle says when it is
 *   cut short.
 * Non-finite values are skipped; empty input yields an empty plot with title and axes.
 */
export async function renderTrajectoryPlot(input: TrajectoryPlotInput): Promise<string> {
  return toSvg(trajectorySpec(input, false));
}

/**
 * The same plot as a self-contained interactive page (`--plot FILE.html`): drag to pan and
 * scroll to zoom the time axis, hover a curve for its values. The vega runtime is inlined (no
 * network needed); the specification is compiled here, so the page carries data, not code of
 * the model.
 */
export async function renderTrajectoryHtml(input: TrajectoryPlotInput): Promise<string> {
  const { vega, compile } = await loadVega();
  const { spec: vgSpec } = compile(trajectorySpec(input, true), { logger: vega.logger(vega.None) });
  // (the browser build beside the module entry: the package does not export its path)
  const runtime = readFileSync(join(dirname(createRequire(import.meta.url).resolve('vega')), 'vega.min.js'), 'utf8');
  const json = JSON.stringify(vgSpec).replace(/</g, '\\u003c');
  const title = input.title.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title></head>
<body style="font-family: Helvetica, Arial, sans-serif">
<div id="plot"></div>
<p style="color:#666;font-size:12px">Drag to pan, scroll to zoom the time axis, double-click to reset; hover a curve for its values.</p>
<script>${runtime.replace(/<\/script/gi, '<\\/script')}</script>
<script>new vega.View(vega.parse(${json}), { renderer: 'svg', container: '#plot', hover: true }).runAsync();</script>
</body></html>
`;
}

/** More event instants than this are drawn as a rug, not as rules across the panel. */
const RUG_ABOVE = 100;

/** The instants, at most one in each of 2·WIDTH equal slices of [from, to] (the first of each). */
function onePerPixel<T extends { t: number }>(instants: readonly T[], from: number, to: number): T[] {
  const slices = 2 * WIDTH,
    width = (to - from) / slices;
  if (!(width > 0)) return instants.slice(0, 1);
  const seen = new Set<number>();
  return instants.filter((e) => {
    const k = Math.min(slices - 1, Math.floor((e.t - from) / width));
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function trajectorySpec(input: TrajectoryPlotInput, interactive: boolean): TopLevelSpec {
  const drawn: { name: string; col: number }[] = [];
  for (const name of input.series) {
    const col = input.columns.indexOf(name);
    if (col > 0 && !drawn.some((d) => d.name === name)) drawn.push({ name, col });
  }
  const window = input.window ?? timeWindow(input.rows, input.events);
  // A series' line breaks only where that series jumps (two rows share a time and its value
  // changes between them): a position that an impact leaves alone stays one line.
  const values: { i: number; t: number; series: string; value: number; segment: number }[] = [];
  const segments = new Int32Array(drawn.length);
  input.rows.forEach((row, i) => {
    const t = row[0];
    if (!finite(t) || t > window.end) return;
    const instant = i > 0 && input.rows[i - 1][0] === t;
    drawn.forEach(({ name, col }, k) => {
      const v = row[col];
      if (instant && input.rows[i - 1][col] !== v) segments[k]++;
      if (finite(v)) values.push({ i, t, series: name, value: v, segment: segments[k] });
    });
  });
  const eventNames = new Map<number, string>();
  for (const e of input.events)
    if (finite(e.t) && e.t <= window.end) eventNames.set(e.t, (e as { name?: string }).name ?? '');
  const eventTimes = [...eventNames].map(([t, name]) => ({ t, name }));
  // A rug needs one tick per pixel column at most: 6582 impacts drawn one by one made an
  // 8 MB picture of the same gray band.
  const rug =
    eventTimes.length > RUG_ABOVE
      ? onePerPixel(eventTimes, values.length > 0 ? values[0].t : 0, window.end)
      : eventTimes;
  const bySeries = drawn.map((d) => ({ name: d.name, points: values.filter((v) => v.series === d.name) }));
  const groups = scaleGroups(bySeries);
  const dashed = repeats(bySeries);
  const panelHeight = Math.max(140, Math.round(HEIGHT / Math.max(1, groups.length)));
  const x = {
    field: 't',
    type: 'quantitative' as const,
    title: input.independent,
    scale: {
      zero: false,
      nice: false,
      domain: values.length > 0 ? [values[0].t, Math.min(window.end, values[values.length - 1].t)] : undefined,
    },
  };
  const panel = (names: string[]) => ({
    width: WIDTH,
    height: panelHeight,
    layer: [
      // Full-height rules for a few events; beyond RUG_ABOVE they would merge into a gray
      // wall over the curves, so the instants become a rug of short ticks along the bottom.
      eventTimes.length <= RUG_ABOVE
        ? {
            data: { values: eventTimes },
            mark: { type: 'rule' as const, stroke: '#9a9a9a', strokeWidth: 0.8, strokeDash: [4, 3], opacity: 0.7 },
            encoding: { x },
          }
        : {
            data: { values: rug },
            mark: { type: 'rule' as const, stroke: '#555555', strokeWidth: 0.6, opacity: 0.5 },
            encoding: { x, y: { value: panelHeight }, y2: { value: panelHeight - 7 } },
          },
      ...(eventTimes.length > 0 && eventTimes.length <= 12
        ? [
            {
              data: { values: eventTimes },
              mark: {
                type: 'text' as const,
                angle: 270,
                align: 'right' as const,
                baseline: 'bottom' as const,
                dx: -2,
                fontSize: 9,
                color: '#777777',
                y: 2,
              },
              encoding: { x, text: { field: 'name', type: 'nominal' as const } },
            },
          ]
        : []),
      ...(interactive
        ? [
            {
              data: { values: values.filter((v) => names.includes(v.series)) },
              params: [
                {
                  name: `zoom${names.join('_').replace(/\W/g, '')}`,
                  select: { type: 'interval' as const, encodings: ['x' as const] },
                  bind: 'scales' as const,
                },
              ],
              mark: { type: 'point' as const, opacity: 0, size: 60, tooltip: true },
              encoding: {
                x,
                y: { field: 'value', type: 'quantitative' as const },
                tooltip: [
                  { field: 'series', type: 'nominal' as const, title: 'series' },
                  { field: 't', type: 'quantitative' as const, title: input.independent, format: '.6g' },
                  { field: 'value', type: 'quantitative' as const, title: 'value', format: '.6g' },
                ],
              },
            },
          ]
        : []),
      {
        data: { values: values.filter((v) => names.includes(v.series)) },
        mark: { type: 'line' as const, strokeWidth: 1.6, interpolate: 'linear' as const },
        encoding: {
          x,
          y: {
            field: 'value',
            type: 'quantitative' as const,
            title: names.length === 1 ? names[0] : 'value',
            scale: { zero: false },
          },
          color: {
            field: 'series',
            type: 'nominal' as const,
            title: null,
            scale: { domain: drawn.map((d) => d.name) },
          },
          // a series identical to an earlier one is dashed, so that both stay visible
          ...(names.some((n) => dashed.has(n))
            ? {
                strokeDash: {
                  field: 'series',
                  type: 'nominal' as const,
                  title: null,
                  scale: { domain: names, range: names.map((n) => (dashed.has(n) ? [6, 4] : [1, 0])) },
                },
              }
            : {}),
          detail: { field: 'segment', type: 'quantitative' as const },
          order: { field: 'i', type: 'quantitative' as const },
        },
      },
    ],
  });
  const notes = [
    ...(input.notes ?? []),
    ...(window.note ? [window.note] : []),
    ...(eventTimes.length > RUG_ABOVE
      ? [`${eventTimes.length} event instants, marked by the ticks along the bottom`]
      : []),
  ];
  const title = notes.length > 0 ? { text: input.title, subtitle: notes } : input.title;
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    config: baseConfig,
    vconcat: (groups.length > 0 ? groups : [[]]).map(panel),
    resolve: { scale: { color: 'shared' as const } },
  } as unknown as TopLevelSpec;
  return spec;
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

  const spec: TopLevelSpec = {
    ...frame(input.title, input.subtitle),
    data: { values },
    mark,
    encoding: {
      x: {
        field: 'x',
        type: 'quantitative',
        title: input.xLabel,
        // (a nice log domain would widen to whole decades: 0.1716..0.18 would become 0.1..1)
        scale: input.logX ? { type: 'log', nice: false } : { zero: false },
      },
      y: {
        field: 'y',
        type: 'quantitative',
        title: names.length === 1 ? names[0] : 'value',
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
    // A constant sample has a zero-width extent; widen it so there is one visible bin.
    if (lo === hi) {
      const pad = lo === 0 ? 0.5 : Math.abs(lo) * 0.05;
      lo -= pad;
      hi += pad;
    }
    const { start, step, n } = niceBins(lo, hi, maxbins);
    const counts = new Array<number>(n).fill(0);
    xs.forEach((x, i) => {
      // The last bin is closed on the right so the maximum is counted.
      const k = Math.min(n - 1, Math.max(0, Math.floor((x - start) / step)));
      counts[k] += ws ? ws[i] : 1;
    });
    counts.forEach((count, k) => bars.push({ x0: start + k * step, x1: start + (k + 1) * step, count }));
  }

  const spec: TopLevelSpec = {
    ...frame(input.title),
    layer: [
      {
        data: { values: bars },
        mark: { type: 'rect', color: '#4c78a8', stroke: 'white', strokeWidth: 0.5 },
        encoding: {
          x: { field: 'x0', type: 'quantitative', title: input.xLabel, scale: { zero: false } },
          x2: { field: 'x1' },
          y: { field: 'count', type: 'quantitative', title: 'frequency' },
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

export { PLOT_EXTENSIONS } from './out-file.js';

/**
 * Writes an SVG document to `path`: `.svg` as is, `.png` rasterised at 2x on white.
 * Throws an `Error` for any other extension (naming the supported ones), and an OutputError
 * that says why when the file cannot be written (a directory that does not exist, a full disk).
 */
export async function writePlot(svg: string, path: string): Promise<void> {
  const ext = extname(path).toLowerCase();
  if (ext !== '.svg' && ext !== '.png' && ext !== '.html') {
    throw new Error(
      `cannot write plot '${path}': unsupported extension '${ext || '(none)'}'; use ${PLOT_EXTENSIONS.join(' or ')}`,
    );
  }
  if (ext === '.svg' || ext === '.html') {
    writeWhole(path, svg, '--plot');
    return;
  }
  const png = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: 2 },
    background: 'white',
    font: { loadSystemFonts: true },
  })
    .render()
    .asPng();
  writeWhole(path, png, '--plot');
}
