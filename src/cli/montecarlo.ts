/**
 * `deltastep montecarlo`: statistics of final values over random parameters (written by
 * montecarlo-writer.ts as the runs come).
 */
import { parseReport, parseSample, SampleStream, sliceRange } from '../batch/index.js';
import { CliError, parseNumber } from './options.js';
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
  type BatchContext,
  type MonteCarloFlags,
  type Settings,
} from './batch-settings.js';
import { watchSignals } from './signals.js';
import { parseStatsOver } from './batch-status.js';
import { MonteCarloWriter } from './montecarlo-writer.js';

export async function runMonteCarlo(ctx: BatchContext, file: string, flags: MonteCarloFlags): Promise<number> {
  const interrupt = watchSignals();
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
    statsOver: parseStatsOver(flags.statsOver),
  };
  const stream = new SampleStream(seed, first, samples);
  const writer = new MonteCarloWriter({ settings, first, count: end - first, shard }, output);
  return runJob(
    // (the pool asks for the samples in order: the generator runs on)
    {
      file,
      source,
      model,
      report,
      options,
      names,
      count: end - first,
      fill: (out, _k0, runs) => stream.next(out, runs),
    },
    writer,
    workers,
    'montecarlo',
    flags.quiet,
    interrupt,
  );
}
