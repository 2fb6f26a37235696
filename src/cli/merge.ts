/**
 * `deltastep merge`: the JSON outputs of the shards of one batch (--shard K/N) combined into
 * the output of the whole batch, exactly as the unsharded command writes it.
 */
import { readFileSync } from 'node:fs';
import type { ChunkResult } from '../batch/index.js';
import { CliError } from './options.js';
import { canonical, outputFlags, type Batch, type MergeFlags, type Settings } from './batch-settings.js';
import { writeMonteCarlo } from './montecarlo.js';
import { writeSweep } from './sweep.js';

interface ShardFile {
  file: string;
  settings: Settings;
  /** per row: its run index, parameter values, reported values, status */
  index: number[];
  parameters: number[][];
  values: number[][];
  status: string[];
  messages: Map<number, string | null>;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : NaN);

function readShard(file: string): ShardFile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new CliError(
      `merge ${file}: ${e.code === 'ENOENT' ? 'no such file' : e instanceof SyntaxError ? 'not JSON' : e.message}; give the files written by sweep or montecarlo with --shard K/N --format json --out FILE`,
    );
  }
  const o = json as Record<string, unknown>;
  const bad = (what: string) =>
    new CliError(
      `merge ${file}: ${what}; give the files written by sweep or montecarlo with --shard K/N --format json --out FILE`,
    );
  if (!o || typeof o !== 'object' || !o.shard || !o.settings)
    throw bad('not the output of a shard (it has no "shard" and "settings")');
  const settings = o.settings as Settings;
  const nn = settings.names?.length ?? 0,
    nr = settings.report?.length ?? 0;
  if (!Array.isArray(o.rows) || !Array.isArray(settings.names) || !Array.isArray(settings.report))
    throw bad('its rows or settings are missing');
  const rows = o.rows as unknown[][];
  const messages = new Map<number, string | null>();
  for (const f of (o.failures ?? []) as { index: number; message: string | null }[]) messages.set(f.index, f.message);
  if (settings.command === 'sweep') {
    const index = o.index as number[],
      status = o.status as string[];
    if (
      !Array.isArray(index) ||
      !Array.isArray(status) ||
      index.length !== rows.length ||
      status.length !== rows.length
    )
      throw bad('its "index" and "status" do not match its rows');
    return {
      file,
      settings,
      index,
      parameters: rows.map((r) => [num(r[0])]),
      values: rows.map((r) => r.slice(1, 1 + nr).map(num)),
      status,
      messages,
    };
  }
  if (settings.command === 'montecarlo') {
    if (rows.some((r) => !Array.isArray(r) || r.length !== 2 + nn + nr))
      throw bad('its rows are not samples (sample, parameters, reports, status); with --out give that file');
    return {
      file,
      settings,
      index: rows.map((r) => num(r[0])),
      parameters: rows.map((r) => r.slice(1, 1 + nn).map(num)),
      values: rows.map((r) => r.slice(1 + nn, 1 + nn + nr).map(num)),
      status: rows.map((r) => String(r[1 + nn + nr])),
      messages,
    };
  }
  throw bad(`its command is ${JSON.stringify(settings.command)}, not sweep or montecarlo`);
}

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

function ranges(xs: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < xs.length && parts.length < 5; i++) {
    let j = i;
    while (j + 1 < xs.length && xs[j + 1] === xs[j] + 1) j++;
    parts.push(i === j ? `${xs[i]}` : `${xs[i]}-${xs[j]}`);
    i = j;
  }
  return parts.join(', ') + (parts.length === 5 ? ', ...' : '');
}

export async function runMerge(files: string[], flags: MergeFlags): Promise<number> {
  const output = outputFlags(flags, 'json');
  const shards = files.map(readShard);
  const settings = shards[0].settings;
  for (const s of shards.slice(1)) {
    const diff = difference(settings, s.settings);
    if (diff)
      throw new CliError(
        `merge: ${shards[0].file} and ${s.file} are shards of different batches: they differ in ${diff}; merge only the shards of one command`,
      );
  }
  const total = settings.total,
    m = settings.names.length,
    nr = settings.report.length;
  if (!Number.isInteger(total) || total < 1)
    throw new CliError(`merge ${shards[0].file}: its settings have no run count`);
  const owner = new Array<string | undefined>(total);
  const parameters = new Float64Array(total * m);
  const result: ChunkResult = {
    values: new Float64Array(total * nr),
    status: new Array(total),
    message: new Array(total),
  };
  for (const s of shards) {
    s.index.forEach((i, r) => {
      if (!Number.isInteger(i) || i < 0 || i >= total)
        throw new CliError(`merge ${s.file}: run index ${i} is outside 0-${total - 1}`);
      if (owner[i] !== undefined)
        throw new CliError(`merge: run ${i} is in both ${owner[i]} and ${s.file}; give each shard once`);
      owner[i] = s.file;
      parameters.set(s.parameters[r], i * m);
      result.values.set(s.values[r], i * nr);
      result.status[i] = s.status[r] as ChunkResult['status'][number];
      result.message[i] = s.messages.get(i) ?? null;
    });
  }
  const missing: number[] = [];
  for (let i = 0; i < total; i++) if (owner[i] === undefined) missing.push(i);
  if (missing.length)
    throw new CliError(
      `merge: runs ${ranges(missing)} of 0-${total - 1} are in none of the files (${missing.length} missing); add the shards that ran them`,
    );
  const batch: Batch = { settings, first: 0, count: total, parameters, result };
  return settings.command === 'sweep' ? writeSweep(batch, output) : writeMonteCarlo(batch, output);
}
