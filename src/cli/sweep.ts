/**
 * `deltastep sweep`: one run per value of a parameter, a table of the reported final values
 * with each run's status (sweep-writer.ts writes it as the runs come).
 */
import { parseReport, parseVary, sliceRange, sweepValue } from '../batch/index.js';
import { CliError } from './options.js';
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
  type Settings,
  type SweepFlags,
} from './batch-settings.js';
import { watchSignals } from './signals.js';
import { SweepWriter } from './sweep-writer.js';

export async function runSweep(ctx: BatchContext, file: string, flags: SweepFlags): Promise<number> {
  const interrupt = watchSignals();
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
  const writer = new SweepWriter({ settings, first, count: end - first, shard }, output);
  return runJob(
    {
      file,
      source,
      model,
      report,
      options,
      names: [vary.name],
      count: end - first,
      // run k of this slice is run first + k of the sweep
      fill: (out, k0, runs) => {
        for (let k = 0; k < runs; k++) out[k] = sweepValue(vary.from, vary.to, total, first + k0 + k);
      },
    },
    writer,
    workers,
    `sweep ${vary.name}`,
    flags.quiet,
    interrupt,
  );
}
