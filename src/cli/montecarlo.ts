/** `deltastep montecarlo`: statistics of final values over random parameters. */
import {
  parseReport,
  parseSample,
  sampleValues,
  sliceRange,
  statistics,
  type Distribution,
  type Statistics,
} from '../batch/index.js';
import { CliError, parseNumber } from './options.js';
import { emit, formatValue, table, toCsv, toJson } from './output.js';
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
  type MonteCarloFlags,
  type OutputFlags,
  type Settings,
} from './batch-settings.js';
import { cell, failureExit, failures, savePlot, shardKeys } from './batch-output.js';

export async function runMonteCarlo(ctx: BatchContext, file: string, flags: MonteCarloFlags): Promise<number> {
  const output = outputFlags(flags, 'text');
  if (!flags.sample?.length) throw new CliError('montecarlo needs --sample "NAME~normal(MEAN,SD)" (or uniform(A,B))');
  const samples = guard(() => flags.sample!.map(parseSample));
  const count = flags.samples === undefined ? 1000 : parseNumber('--samples', flags.samples);
  if (!Number.isInteger(count) || count < 1)
    throw new CliError(`--samples must be a whole number of at least 1, got ${flags.samples}`);
  if (count > 1e12) throw new CliError(`--samples ${flags.samples}: more than a batch can have (1e12)`);
  const seed = flags.seed === undefined ? 1 : parseNumber('--seed', flags.seed);
  // The generator takes 32 bits: a larger or negative seed would silently repeat another's stream.
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new CliError(`--seed must be a whole number from 0 to 4294967295, got ${flags.seed}`);
  const report = guard(() => parseReport(flags.report ?? ''));
  if (report.length === 0) throw new CliError('montecarlo needs --report EXPR (e.g. --report "x4\'")');
  const shard = parseShard(flags.shard, count, flags.quiet);
  const workers = workerThreads(flags);
  const options = batchOptions(flags);
  const names = samples.map((s) => s.name);
  if (new Set(names).size !== names.length)
    throw new CliError(`--sample names a parameter twice (${names.join(', ')}): give each parameter one distribution`);
  const { model, source } = await loadCheck(ctx, file, names, flags.report ?? '', options.set);
  const { first, end } = shard ? sliceRange(count, shard.k, shard.n) : { first: 0, end: count };
  checkSliceSize(end - first, count);
  const settings: Settings = {
    command: 'montecarlo',
    model: model.system.model,
    sha256: sha256(source),
    names,
    report: report.map((r) => r.label),
    options: canonical(options) as Record<string, unknown>,
    total: count,
    samples,
    seed,
  };
  const parameters = sampleValues(seed, first, end - first, samples);
  const result = await runJob(
    { file, source, model, report, options, names, parameters, count: end - first },
    workers,
    'montecarlo',
    flags.quiet,
  );
  return writeMonteCarlo({ settings, first, count: end - first, parameters, result, shard }, output);
}

function monteCarloStatistics(b: Batch): Record<string, Statistics> {
  const s = b.settings,
    nr = s.report.length;
  const stats = Object.create(null) as Record<string, Statistics>;
  s.report.forEach((label, j) => {
    // A failed run's value is wherever it stopped, not a sample of the final value.
    const xs: number[] = [];
    for (let k = 0; k < b.count; k++) if (b.result.status[k] !== 'failed') xs.push(b.result.values[k * nr + j]);
    stats[label] = statistics(xs);
  });
  return stats;
}

export async function writeMonteCarlo(b: Batch, output: OutputFlags): Promise<number> {
  const s = b.settings,
    m = s.names.length,
    nr = s.report.length;
  const stats = monteCarloStatistics(b);
  const failed = failures(b);
  const summary = {
    samples: b.count,
    seed: s.seed,
    parameters: (s.samples ?? []).map((p) => ({ name: p.name, ...p.distribution })),
    report: stats,
    ...(failed.length ? { failures: failed } : {}),
    ...shardKeys(b),
  };
  const columns = ['sample', ...s.names, ...s.report, 'status'];
  const sampleRows = (json: boolean) =>
    Array.from({ length: b.count }, (_, k) => [
      b.first + k,
      ...Array.from(b.parameters.subarray(k * m, (k + 1) * m), json ? cell : (v) => v),
      ...Array.from(b.result.values.subarray(k * nr, (k + 1) * nr), json ? cell : (v) => v),
      b.result.status[k],
    ]);
  // The summary goes to stdout, the samples to --out. A shard's JSON always carries its
  // samples (in --out, or on stdout without it): merge recomputes the statistics from them.
  if (output.format === 'json')
    emit(toJson(b.shard && !output.out ? { ...summary, columns, rows: sampleRows(true) } : summary), undefined);
  else if (output.format === 'csv')
    emit(
      toCsv(
        ['report', 'mean', 'sd', 'ci95_low', 'ci95_high', 'min', 'max', 'n'],
        s.report.map((r) => {
          const t = stats[r];
          return [r, t.mean, t.sd, t.ci95[0], t.ci95[1], t.min, t.max, t.n];
        }),
      ),
      undefined,
    );
  else
    emit(
      table(
        ['report', 'mean', 'sd', '95% CI of the mean', 'min', 'max', 'n'],
        s.report.map((r) => {
          const t = stats[r];
          return [r, t.mean, t.sd, `[${formatValue(t.ci95[0])}, ${formatValue(t.ci95[1])}]`, t.min, t.max, t.n];
        }),
      ),
      undefined,
    );
  if (output.out) {
    emit(
      output.out.toLowerCase().endsWith('.json')
        ? toJson({ ...summary, columns, rows: sampleRows(true) })
        : toCsv(columns, sampleRows(false)),
      output.out,
    );
  }
  if (output.plot) await plotHistogram(b, stats, output.plot);
  return failureExit(b);
}

async function plotHistogram(b: Batch, stats: Record<string, Statistics>, path: string): Promise<void> {
  const s = b.settings,
    nr = s.report.length,
    label = s.report[0];
  const values: number[] = [];
  for (let k = 0; k < b.count; k++) if (b.result.status[k] !== 'failed') values.push(b.result.values[k * nr]);
  const mean = stats[label].mean;
  const { renderHistogram } = await import('./plot.js');
  const svg = await renderHistogram({
    title: `${s.model}: ${label} over ${values.length} samples (${(s.samples ?? []).map((p) => `${p.name} ~ ${describe(p.distribution)}`).join(', ')})`,
    // about sqrt(n) bins: Sturges' log2(n) + 1 hides the shape of a thousand samples
    xLabel: label,
    values,
    bins: Math.min(60, Math.max(10, Math.round(Math.sqrt(values.length)))),
    markers: Number.isFinite(mean) ? [{ label: `mean ${Number(mean.toPrecision(6))}`, value: mean }] : [],
  });
  await savePlot(svg, path);
}

function describe(d: Distribution): string {
  return d.kind === 'normal' ? `normal(${d.mean}, ${d.sd})` : `uniform(${d.a}, ${d.b})`;
}
