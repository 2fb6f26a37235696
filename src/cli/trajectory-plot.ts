/**
 * `--plot` of simulate and shoot: the first run drawn from what a TrajectoryCollector kept.
 * The time axis covers where things happen (timeWindow). Unless the rows were asked for on a
 * grid, the run may be done again over that window (into a collector too: no row is kept):
 * with rows on a grid of two per pixel column when its steps are fewer than that, so that
 * curves follow the dense output instead of chords between solver steps; with a row per step
 * when the window is a small part of the range and the steps are many (a grid that coarse
 * would alias a fast oscillation, which every step resolves).
 */
import type { SimulationResult } from '../driver/index.js';
import { CliError } from './options.js';
import { OutputError } from './out-file.js';
import type { PlotLook } from './plot-render.js';
import { TrajectoryCollector, plotSeries, type PlotSeries } from './trajectory-data.js';

/** The message up to its first colon or line end, short enough for a subtitle. */
function firstClause(message: string | null): string {
  const m = (message ?? '').split('\n')[0].split(': ')[0];
  return m.length > 80 ? `${m.slice(0, 77)}...` : m;
}

/** What the plot says of the run besides its data. */
export interface PlottedRun {
  model: string;
  independent: string;
  status: string;
  message: string | null;
  /** a line for the subtitle besides how the run ended (which of several runs is drawn) */
  note?: string;
}

/**
 * Draws a collector's data. `again` runs the model once more over [t0, end] into a new
 * collector (none: the rows were asked for on a grid, and are drawn as they are).
 */
export async function drawTrajectory(
  first: TrajectoryCollector,
  run: PlottedRun,
  path: string,
  look: PlotLook,
  again?: (outputStep: number, end: number) => TrajectoryCollector,
): Promise<void> {
  const { renderTrajectoryHtml, renderTrajectoryPlot, windowOf } = await import('./plot-trajectory.js');
  let c = first;
  const window = windowOf(first.rows > 0 ? first.t0 : 0, first.rows > 0 ? first.tEnd : 0, first.marks.last);
  if (again && first.rows > 1 && window.end > first.t0) {
    const sparse = first.rowsUpTo(window.end) < first.columns;
    if (sparse || window.end < first.tEnd) {
      const dense = again(sparse ? (window.end - first.t0) / first.columns : 0, window.end);
      if (dense.rows > 1) c = dense;
    }
  }
  const notes =
    run.status === 'ok'
      ? []
      : [
          `stopped at ${run.independent} = ${Number(first.tEnd.toPrecision(8))} (${run.status}): ${firstClause(run.message)}`,
        ];
  if (run.note) notes.push(run.note);
  if (c.omitted > 0)
    notes.push(
      `the first ${c.series.length} of ${c.series.length + c.omitted} columns; choose others with --variables`,
    );
  const input = {
    title: run.model,
    independent: run.independent,
    columns: [],
    reduced: c.reduced(),
    series: c.series.map((s) => s.label),
    events: c.marks.instants(),
    eventCount: c.marks.count,
    window,
    notes,
    look,
  };
  const svg = path.toLowerCase().endsWith('.html')
    ? await renderTrajectoryHtml(input)
    : await renderTrajectoryPlot(input);
  const { writePlot } = await import('./plot-render.js');
  try {
    await writePlot(svg, path);
  } catch (err) {
    if (err instanceof OutputError) throw err;
    throw new CliError((err as Error).message);
  }
}

/** The plot of a run that kept its rows (shoot's solution). */
export async function plotRuns(
  runs: SimulationResult[],
  path: string,
  variables: string | undefined,
  look: PlotLook = {},
): Promise<void> {
  const r = runs[0];
  const plotted: PlotSeries[] = plotSeries(variables, r.columns);
  const t0 = r.rows.length > 0 ? r.rows[0][0] : 0,
    tEnd = r.rows.length > 0 ? r.rows[r.rows.length - 1][0] : 0;
  const c = new TrajectoryCollector(r.columns, plotted, t0, tEnd, look.width);
  for (const row of r.rows) c.row(row);
  for (const e of r.events) c.event(e);
  await drawTrajectory(c, r, path, look);
}
