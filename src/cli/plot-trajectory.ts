/**
 * The plot of a trajectory: each series against the independent variable, jumps drawn as
 * jumps (the line breaks where its own series jumps), event instants marked, one panel per
 * scale, the time axis where things happen; as SVG (plot-render.ts) or a self-contained
 * interactive page. The rows come reduced (plot-reduce.ts): a run of millions of rows draws
 * from a few points per pixel column.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { axisTitle, baseConfig, colours, finite, loadVega, toSvg, type PlotLook } from './plot-render.js';
import { withUnit } from './plot-units.js';
import { PLOT_HEIGHT, PLOT_WIDTH, RUG_ABOVE, SeriesReducer, type ReducedPoint } from './plot-reduce.js';

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
   * (before and after the jump); rows are drawn in this order, never re-sorted. Reduced
   * here like a run's rows (plot-reduce.ts); give `reduced` instead for series a run has
   * reduced as it went.
   */
  rows?: number[][];
  /** the series already reduced, by name (TrajectoryCollector) */
  reduced?: { name: string; points: ReducedPoint[] }[];
  /** Column names to draw (unknown names are ignored). */
  series: string[];
  /** Event times (and names), marked with thin dashed vertical rules. */
  events: { t: number; name?: string }[];
  /** how many event instants there were, when `events` holds only some (one per pixel) */
  eventCount?: number;
  /** lines for the subtitle: how the run ended when it did not end ok, what was plotted */
  notes?: string[];
  /** the time window, when the rows were already cut to it (see timeWindow) */
  window?: { end: number; note: string | null };
  /** the user's title, axis titles and size */
  look?: PlotLook;
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
  return windowOf(t0, tEnd, last);
}

/** {@link timeWindow} from the first and last time of the rows and the last event's time. */
export function windowOf(t0: number, tEnd: number, last: number): { end: number; note: string | null } {
  // `end` is the upper end of the time axis, and what lies above it is not drawn: a run
  // backwards (from 5 down to 0) ends at its lowest time, so its axis is its whole range.
  if (tEnd < t0) return { end: t0, note: null };
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
  const title = (input.look?.title ?? input.title).replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!,
  );
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

/** The instants, at most one in each of 2·width equal slices of [from, to] (the first of each). */
function onePerPixel<T extends { t: number }>(
  instants: readonly T[],
  from: number,
  to: number,
  plotWidth: number,
): T[] {
  const slices = 2 * plotWidth,
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

/** A point as vega draws it: place in the order of its series, time, series, value, piece of line. */
interface Datum {
  i: number;
  t: number;
  series: string;
  value: number;
  segment: number;
}

/**
 * The points of each drawn series up to the window's end: the reduced ones given, or the rows
 * reduced here. A series' line breaks only where that series jumps (two rows share a time
 * and its value changes between them): a position that an impact leaves alone stays one line.
 */
function drawnSeries(input: TrajectoryPlotInput, end: number): { name: string; points: Datum[] }[] {
  const names: string[] = [];
  for (const name of input.series) if (!names.includes(name)) names.push(name);
  const given = new Map((input.reduced ?? []).map((s) => [s.name, s.points]));
  const rows = input.rows ?? [];
  const width = input.look?.width ?? PLOT_WIDTH;
  return names.flatMap((name) => {
    let points = given.get(name);
    if (points === undefined) {
      const col = input.columns.indexOf(name);
      if (col <= 0 || input.reduced) return [];
      const t0 = rows.length > 0 ? rows[0][0] : 0;
      const r = new SeriesReducer(
        t0,
        Math.max(t0, Math.min(end, rows.length > 0 ? rows[rows.length - 1][0] : t0)),
        2 * width,
      );
      for (const row of rows) if (finite(row[0]) && row[0] <= end) r.add(row[0], row[col]);
      points = r.points();
    }
    const data = points
      .filter((p) => p.x <= end)
      .map((p) => ({ i: p.i, t: p.x, series: name, value: p.y, segment: p.segment }));
    return [{ name, points: data }];
  });
}

/** The layers that mark event instants: rules with labels for a few, a rug of ticks for many. */
function eventLayers(
  eventTimes: { t: number; name: string }[],
  count: number,
  rug: { t: number; name: string }[],
  x: object,
  panelHeight: number,
): object[] {
  const layers: object[] = [
    // Full-height rules for a few events; beyond RUG_ABOVE they would merge into a gray
    // wall over the curves, so the instants become a rug of short ticks along the bottom.
    count <= RUG_ABOVE
      ? {
          data: { values: eventTimes },
          mark: { type: 'rule', stroke: '#9a9a9a', strokeWidth: 0.8, strokeDash: [4, 3], opacity: 0.7 },
          encoding: { x },
        }
      : {
          data: { values: rug },
          mark: { type: 'rule', stroke: '#555555', strokeWidth: 0.6, opacity: 0.5 },
          encoding: { x, y: { value: panelHeight }, y2: { value: panelHeight - 7 } },
        },
  ];
  if (count > 0 && count <= 12)
    layers.push({
      data: { values: eventTimes },
      mark: {
        type: 'text',
        angle: 270,
        align: 'right',
        baseline: 'bottom',
        dx: -2,
        fontSize: 9,
        color: '#777777',
        y: 2,
      },
      encoding: { x, text: { field: 'name', type: 'nominal' } },
    });
  return layers;
}

/** The layers of the curves of one panel (and, interactive, the points that show values on hover). */
function curveLayers(
  names: string[],
  values: Datum[],
  x: object,
  all: string[],
  dashed: Set<string>,
  yTitle: string,
  hover: { independent: string } | null,
): object[] {
  const mine = values.filter((v) => names.includes(v.series));
  const layers: object[] = [];
  if (hover)
    layers.push({
      data: { values: mine },
      params: [
        {
          name: `zoom${names.join('_').replace(/\W/g, '')}`,
          select: { type: 'interval', encodings: ['x'] },
          bind: 'scales',
        },
      ],
      mark: { type: 'point', opacity: 0, size: 60, tooltip: true },
      encoding: {
        x,
        y: { field: 'value', type: 'quantitative' },
        tooltip: [
          { field: 'series', type: 'nominal', title: 'series' },
          { field: 't', type: 'quantitative', title: hover.independent, format: '.6g' },
          { field: 'value', type: 'quantitative', title: 'value', format: '.6g' },
        ],
      },
    });
  layers.push({
    data: { values: mine },
    mark: { type: 'line', strokeWidth: 1.6, interpolate: 'linear' },
    encoding: {
      x,
      y: { field: 'value', type: 'quantitative', title: yTitle, scale: { zero: false } },
      // (each panel its own legend, each series the colour of its place among all of them)
      color: { field: 'series', type: 'nominal', title: null, scale: { domain: names, range: colours(names, all) } },
      // a series identical to an earlier one is dashed, so that both stay visible
      ...(names.some((n) => dashed.has(n))
        ? {
            strokeDash: {
              field: 'series',
              type: 'nominal',
              title: null,
              scale: { domain: names, range: names.map((n) => (dashed.has(n) ? [6, 4] : [1, 0])) },
            },
          }
        : {}),
      detail: { field: 'segment', type: 'quantitative' },
      order: { field: 'i', type: 'quantitative' },
    },
  });
  return layers;
}

function trajectorySpec(input: TrajectoryPlotInput, interactive: boolean): TopLevelSpec {
  const look = input.look;
  const window = input.window ?? timeWindow(input.rows ?? [], input.events);
  const bySeries = drawnSeries(input, window.end);
  const values = bySeries.flatMap((s) => s.points);
  let tFirst = Infinity,
    tLast = -Infinity;
  for (const v of values) {
    if (v.t < tFirst) tFirst = v.t;
    if (v.t > tLast) tLast = v.t;
  }
  const eventNames = new Map<number, string>();
  for (const e of input.events) if (finite(e.t) && e.t <= window.end) eventNames.set(e.t, e.name ?? '');
  const eventTimes = [...eventNames].map(([t, name]) => ({ t, name }));
  const count = input.eventCount ?? eventTimes.length;
  // A rug needs one tick per pixel column at most: 6582 impacts drawn one by one made an
  // 8 MB picture of the same gray band.
  const width = look?.width ?? PLOT_WIDTH;
  const rug =
    count > RUG_ABOVE ? onePerPixel(eventTimes, values.length > 0 ? tFirst : 0, window.end, width) : eventTimes;
  const groups = scaleGroups(bySeries.map((s) => ({ name: s.name, points: s.points })));
  const dashed = repeats(bySeries);
  const panelHeight = Math.max(140, Math.round((look?.height ?? PLOT_HEIGHT) / Math.max(1, groups.length)));
  const x = {
    field: 't',
    type: 'quantitative',
    title: look?.xLabel ?? withUnit(input.independent, look?.units),
    scale: { zero: false, nice: false, domain: values.length > 0 ? [tFirst, Math.min(window.end, tLast)] : undefined },
  };
  const all = bySeries.map((s) => s.name);
  // (a panel's series in the order they were asked for: its legend and axis title list them so)
  const panel = (group: string[], names = all.filter((n) => group.includes(n))) => ({
    width,
    height: panelHeight,
    layer: [
      ...eventLayers(eventTimes, count, rug, x, panelHeight),
      ...curveLayers(
        names,
        values,
        x,
        all,
        dashed,
        look?.yLabel ?? axisTitle(names, look?.units),
        interactive ? { independent: input.independent } : null,
      ),
    ],
  });
  const notes = [
    ...(input.notes ?? []),
    ...(window.note ? [window.note] : []),
    ...(count > RUG_ABOVE ? [`${count} event instants, marked by the ticks along the bottom`] : []),
  ];
  const text = look?.title ?? input.title;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: notes.length > 0 ? { text, subtitle: notes } : text,
    config: baseConfig,
    vconcat: (groups.length > 0 ? groups : [[]]).map((group) => panel(group)),
    resolve: { scale: { color: 'independent' as const, strokeDash: 'independent' as const } },
  } as unknown as TopLevelSpec;
}
