/** `deltastep sweep`: one run per value of a parameter, a table of the reported final values. */
import { parseReport, parseVary, sliceRange, sweepValues } from '../batch/index.js';
import { CliError } from './options.js';
import { emit, table, toCsv, toJson } from './output.js';
import {
  batchOptions,
  canonical,
  checkSliceSize,
  guard,
  loadCheck,
  outputFlags,
  parseShard,
  runJob,
  sha256,
  workerThreads,
  type Batch,
  type BatchContext,
  type OutputFlags,
  type Settings,
  type SweepFlags,
} from './batch-settings.js';
import { cell, failureExit, failures, savePlot, shardKeys } from './batch-output.js';

export async function runSweep(ctx: BatchContext, file: string, flags: SweepFlags): Promise<number> {
  const output = outputFlags(flags, 'text');
  if (!flags.vary) throw new CliError('sweep needs --vary NAME=FROM:TO:COUNT, e.g. --vary e=1:0.18:200');
  const vary = guard(() => parseVary(flags.vary!));
  // Parsed here to report a bad --report before the model loads; empty means every final value.
  guard(() => parseReport(flags.report ?? ''));
  const total = vary.count;
  const shard = parseShard(flags.shard, total, flags.quiet);
  const workers = workerThreads(flags);
  const options = batchOptions(flags);
  const { model, source, report } = await loadCheck(ctx, file, [vary.name], flags.report ?? '', options.set);
  const { first, end } = shard ? sliceRange(total, shard.k, shard.n) : { first: 0, end: total };
  checkSliceSize(end - first, total);
  const settings: Settings = {
    command: 'sweep',
    model: model.system.model,
    sha256: sha256(source),
    names: [vary.name],
    report: report.map((r) => r.label),
    options: canonical(options) as Record<string, unknown>,
    total,
    vary: { name: vary.name, from: vary.from, to: total === 1 ? vary.from : vary.to, count: total },
  };
  const parameters = Float64Array.from(sweepValues(vary.from, vary.to, total, first, end));
  const result = await runJob(
    { file, source, model, report, options, names: [vary.name], parameters, count: end - first },
    workers,
    `sweep ${vary.name}`,
    flags.quiet,
  );
  return writeSweep({ settings, first, count: end - first, parameters, result, shard }, output);
}

export async function writeSweep(b: Batch, output: OutputFlags): Promise<number> {
  const s = b.settings,
    nr = s.report.length;
  const columns = [s.names[0], ...s.report];
  const rows = Array.from({ length: b.count }, (_, k) => [
    b.parameters[k],
    ...b.result.values.subarray(k * nr, (k + 1) * nr),
  ]);
  if (output.format === 'json') {
    const failed = failures(b);
    const index = b.shard ? { index: Array.from({ length: b.count }, (_, k) => b.first + k) } : {};
    emit(
      toJson({
        parameter: s.names[0],
        columns,
        rows: rows.map((r) => r.map(cell)),
        status: b.result.status,
        ...(failed.length ? { failures: failed } : {}),
        ...index,
        ...shardKeys(b),
      }),
      output.out,
    );
  } else if (output.format === 'csv') emit(toCsv(columns, rows), output.out);
  else emit(table(columns, rows), output.out);
  if (output.plot) await plotSweep(b, rows, output);
  return failureExit(b);
}

// vega is ESM-only and slow to load: imported only when a plot is asked for
async function plotSweep(b: Batch, rows: number[][], output: OutputFlags): Promise<void> {
  const s = b.settings;
  const series = s.report.map((name, j) => ({ name, points: rows.map((r): [number, number] => [r[0], r[j + 1]]) }));
  const logY = output.logY ?? spansDecades(series.map((x) => x.points.map((p) => p[1])));
  const { renderXYPlot } = await import('./plot.js');
  const svg = await renderXYPlot({
    title: `${s.model}: ${s.report.join(', ')} against ${s.names[0]}`,
    xLabel: s.names[0],
    series,
    logX: output.logX ?? false,
    logY,
  });
  await savePlot(svg, output.plot!);
}

/**
 * A log y axis helps when a reported value spans more than two decades (C12's collision
 * count near e = 0.17); only when every value is positive, because a log axis drops the rest.
 */
export function spansDecades(series: number[][]): boolean {
  let any = false;
  for (const ys of series) {
    const finite = ys.filter(Number.isFinite);
    if (finite.length === 0) continue;
    if (finite.some((y) => y <= 0)) return false;
    let lo = Infinity,
      hi = -Infinity;
    for (const y of finite) {
      if (y < lo) lo = y;
      if (y > hi) hi = y;
    }
    if (hi / lo > 100) any = true;
  }
  return any;
}
