/**
 * `deltastep sweep`: one run per value of a parameter, a table of the reported final values
 * with each run's status (sweep-writer.ts writes it as the runs come).
 */
import { parseReport, parseVary, sweepValue } from '../batch/index.js';
import { CliError } from './options.js';
import {
  guard,
  outputFlags,
  prepareBatch,
  runJob,
  type BatchContext,
  type Settings,
  type SweepFlags,
} from './batch-settings.js';
import { watchSignals } from './signals.js';
import { readFifoNow } from './model-text.js';
import { SweepWriter } from './sweep-writer.js';

export async function runSweep(ctx: BatchContext, file: string, flags: SweepFlags): Promise<number> {
  // (a FIFO first: it waits for its writer, and until the signals are watched Ctrl-C ends that wait)
  readFifoNow(file);
  const interrupt = watchSignals();
  const output = outputFlags(flags, 'text', file);
  if (!flags.vary?.length) throw new CliError('sweep needs --vary NAME=FROM:TO:COUNT, e.g. --vary e=1:0.18:200');
  if (flags.vary.length > 1)
    throw new CliError(
      `--vary was given ${flags.vary.length} times (${flags.vary.map((v) => `--vary ${v}`).join(', ')}); a sweep varies one parameter: run one sweep per parameter, or vary several at random with montecarlo --sample "NAME~uniform(A,B)"`,
    );
  const vary = guard(() => parseVary(flags.vary![0]));
  // Parsed here to report a bad --report before the model loads; empty means every final value.
  guard(() => parseReport(flags.report ?? ''));
  const total = vary.count;
  const b = await prepareBatch(ctx, file, flags, { flag: '--vary', names: [vary.name] }, total);
  const settings: Settings = {
    command: 'sweep',
    ...b.common,
    vary: { name: vary.name, from: vary.from, to: total === 1 ? vary.from : vary.to, count: total },
  };
  const writer = new SweepWriter({ settings, first: b.first, count: b.count, shard: b.shard }, output);
  // run k of this slice is run first + k of the sweep
  const fill = (out: Float64Array, k0: number, runs: number) => {
    for (let k = 0; k < runs; k++) out[k] = sweepValue(vary.from, vary.to, total, b.first + k0 + k);
  };
  return runJob({ ...b.job, fill }, writer, b.workers, `sweep ${vary.name}`, flags.quiet, interrupt);
}
