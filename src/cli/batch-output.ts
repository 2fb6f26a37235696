/**
 * What sweep, montecarlo and merge write alike: failures and their exit code, the keys of a
 * shard, and plots saved with a message that names --plot.
 */
import { EXIT, CliError } from './options.js';
import { formatValue } from './output.js';
import { OutputError } from './out-file.js';
import type { Batch } from './batch-settings.js';

/** JSON numbers cannot be NaN: NaN (a run that has no value) is written as null. */
export const cell = (v: number): number | null => (Number.isFinite(v) ? v : null);

export function shardKeys(b: Batch): Record<string, unknown> {
  if (!b.shard) return {};
  return { shard: { k: b.shard.k, n: b.shard.n, indices: [b.first, b.first + b.count - 1] }, settings: b.settings };
}

export function failures(b: Batch): { index: number; message: string | null }[] {
  const out: { index: number; message: string | null }[] = [];
  for (let k = 0; k < b.count; k++)
    if (b.result.status[k] === 'failed') out.push({ index: b.first + k, message: b.result.message[k] });
  return out;
}

/** Exit 3 when runs failed, with how many and the first of them on stderr. */
export function failureExit(b: Batch): number {
  const failed = failures(b);
  if (failed.length === 0) return EXIT.ok;
  const k = failed[0].index - b.first,
    names = b.settings.names;
  const at = names.map((n, j) => `${n} = ${formatValue(b.parameters[k * names.length + j])}`).join(', ');
  process.stderr.write(
    `deltastep: ${failed.length} of ${b.count} runs failed; the first, run ${failed[0].index} (${at}): ${failed[0].message ?? 'failed'}\n`,
  );
  return EXIT.numerics;
}

export async function savePlot(svg: string, path: string): Promise<void> {
  const { writePlot } = await import('./plot.js');
  try {
    await writePlot(svg, path);
  } catch (err) {
    if (err instanceof OutputError) throw err;
    throw new CliError(`--plot ${path}: ${(err as Error).message}`);
  }
}
