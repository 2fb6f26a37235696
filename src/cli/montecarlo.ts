/**
 * `deltastep montecarlo`: statistics of final values over random parameters (written by
 * montecarlo-writer.ts as the runs come).
 */
import { parseReport, parseSample, SampleStream } from '../batch/index.js';
import { CliError, parseNumber } from './options.js';
import {
  guard,
  outputFlags,
  prepareBatch,
  runJob,
  type BatchContext,
  type MonteCarloFlags,
  type Settings,
} from './batch-settings.js';
import { watchSignals } from './signals.js';
import { readFifoNow } from './model-text.js';
import { parseStatsOver } from './batch-status.js';
import { MonteCarloWriter } from './montecarlo-writer.js';

export async function runMonteCarlo(ctx: BatchContext, file: string, flags: MonteCarloFlags): Promise<number> {
  // (a FIFO first: it waits for its writer, and until the signals are watched Ctrl-C ends that wait)
  readFifoNow(file);
  const interrupt = watchSignals();
  const output = outputFlags(flags, 'text', file);
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
  const statsOver = parseStatsOver(flags.statsOver);
  const names = samples.map((s) => s.name);
  const again = names.findIndex((n, j) => names.indexOf(n) !== j);
  if (again >= 0) {
    const n = names[again];
    throw new CliError(
      `--sample gives ${n} twice (${flags.sample[names.indexOf(n)]} and ${flags.sample[again]}); give each parameter one distribution`,
    );
  }
  const b = await prepareBatch(ctx, file, flags, { flag: '--sample', names }, count);
  const settings: Settings = {
    command: 'montecarlo',
    ...b.common,
    samples,
    seed,
    statsOver,
  };
  const stream = new SampleStream(seed, b.first, samples);
  const writer = new MonteCarloWriter({ settings, first: b.first, count: b.count, shard: b.shard }, output);
  // (the pool asks for the samples in order: the generator runs on)
  const fill = (out: Float64Array, _k0: number, runs: number) => stream.next(out, runs);
  return runJob({ ...b.job, fill }, writer, b.workers, 'montecarlo', flags.quiet, interrupt);
}
