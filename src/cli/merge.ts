/**
 * `deltastep merge`: the JSON outputs of the shards of one batch (--shard K/N) combined into
 * the output of the whole batch, exactly as the unsharded command writes it. Every file is
 * checked whole first (merge-shard.ts), then the shards must be of one batch and cover its
 * runs once; only then are their runs handed, in order, to the writer of the command.
 */
import {
  canonical,
  outputFlags,
  type BatchDoc,
  type BatchWriter,
  type MergeFlags,
  type Settings,
} from './batch-settings.js';
import { checkInterrupt, Interrupted } from '../batch/index.js';
import { CliError } from './options.js';
import { interruptedText, signalExit, watchSignals } from './signals.js';
import { checkShard, feedShard, type Shard } from './merge-shard.js';
import { MonteCarloWriter } from './montecarlo-writer.js';
import { SweepWriter } from './sweep-writer.js';

/** The first setting in which two shards differ, as `key (a vs b)`, or null. */
function difference(a: Settings, b: Settings): string | null {
  const ca = canonical(a) as Record<string, unknown>,
    cb = canonical(b) as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ca), ...Object.keys(cb)])) {
    const ta = JSON.stringify(ca[k]),
      tb = JSON.stringify(cb[k]);
    if (ta !== tb)
      return `${k === 'sha256' ? 'model text' : k} (${k === 'sha256' ? `${String(ca[k]).slice(0, 12)}... vs ${String(cb[k]).slice(0, 12)}...` : `${ta} vs ${tb}`})`;
  }
  return null;
}

/** `a-b, c, ...` of at most five ranges. */
function ranges(gaps: [number, number][]): string {
  const parts = gaps.slice(0, 5).map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`));
  return parts.join(', ') + (gaps.length > 5 ? ', ...' : '');
}

/** The shards in the order of their runs, each run in exactly one. */
function cover(shards: Shard[]): Shard[] {
  const total = shards[0].settings.total;
  const sorted = [...shards].sort((a, b) => a.first - b.first);
  const gaps: [number, number][] = [];
  let next = 0;
  for (let i = 0; i < sorted.length; i++) {
    const s = sorted[i];
    if (s.first < next) {
      const other = sorted.slice(0, i).find((o) => o.first + o.count > s.first)!;
      throw new CliError(`merge: run ${s.first} is in both ${other.file} and ${s.file}; give each shard once`);
    }
    if (s.first > next) gaps.push([next, s.first - 1]);
    next = s.first + s.count;
  }
  if (next < total) gaps.push([next, total - 1]);
  if (gaps.length) {
    const missing = gaps.reduce((n, [a, b]) => n + b - a + 1, 0);
    throw new CliError(
      `merge: runs ${ranges(gaps)} of 0-${total - 1} are in none of the files (${missing} missing); add the shards that ran them`,
    );
  }
  return sorted;
}

export async function runMerge(files: string[], flags: MergeFlags): Promise<number> {
  const output = outputFlags(flags, 'json');
  const shards = files.map(checkShard);
  const settings = shards[0].settings;
  for (const s of shards.slice(1)) {
    const diff = difference(settings, s.settings);
    if (diff)
      throw new CliError(
        `merge: ${shards[0].file} and ${s.file} are shards of different batches: they differ in ${diff}; merge only the shards of one command`,
      );
  }
  const ordered = cover(shards);
  const doc: BatchDoc = { settings, first: 0, count: settings.total };
  const writer: BatchWriter =
    settings.command === 'sweep' ? new SweepWriter(doc, output) : new MonteCarloWriter(doc, output);
  // a signal ends the merge between chunks, the document marked as a batch's would be
  const interrupt = watchSignals();
  try {
    for (const s of ordered)
      feedShard(s, (view) => {
        checkInterrupt(interrupt);
        writer.chunk({ ...view, first: s.first + view.first });
      });
  } catch (err) {
    if (!(err instanceof Interrupted)) {
      writer.abandon();
      throw err;
    }
    await writer.finish(err.signal);
    process.stderr.write(
      `deltastep: merge ${interruptedText(err.signal)}; the output holds the runs merged (marked interrupted)\n`,
    );
    return signalExit(err.signal);
  }
  return writer.finish(0);
}
