/**
 * A shard file of `merge`, read and checked whole before anything is merged: its settings
 * (each field of the right kind and within what a batch can be), its slice (the indices that
 * slice K of N of the batch has), and every row against the settings (a sweep row's parameter
 * is the value of its run, a sample's parameters are the draws of its index, a status is one
 * that a run can have, the failures are exactly the failed rows, the statistics are those of
 * the rows). Every problem is a usage error naming the file and the field. The file is read a
 * value at a time (json-reader.ts): a shard of millions of runs is never held whole.
 */
import { statSync } from 'node:fs';
import {
  MAX_BATCH_RUNS,
  MAX_RUNS_PER_PROCESS,
  RUN_STATUSES,
  SampleStream,
  sliceRange,
  StatisticsAccumulator,
  sweepValue,
  type BatchStatus,
} from '../batch/index.js';
import type { ChunkView } from '../batch/pool.js';
import type { Settings } from './batch-settings.js';
import { parseStatsOver } from './batch-status.js';
import { JsonReader, JsonSyntaxError } from './json-reader.js';
import { CliError } from './options.js';
import { describeFileError } from './out-file.js';

/** A checked shard: its settings and the runs `first .. first+count-1` it holds. */
export interface Shard {
  file: string;
  settings: Settings;
  k: number;
  n: number;
  first: number;
  count: number;
}

/** The keys whose values grow with the runs: read one element at a time. */
const LISTS = new Set(['rows', 'status', 'index', 'failures']);

const HINT = 'give the files written by sweep or montecarlo with --shard K/N --format json --out FILE';

export class ShardError extends CliError {}

function problem(file: string, what: string): never {
  throw new ShardError(`merge ${file}: ${what}; ${HINT}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const whole = (v: unknown, lo: number, hi: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const show = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

/** Opens a shard file and walks its top-level keys, reading the small ones whole. */
function walk(file: string, onList: (key: string, r: JsonReader) => void): Record<string, unknown> {
  let r: JsonReader;
  // (a directory opens for reading on Linux; its first read fails)
  if (isDirectory(file)) problem(file, 'this is a directory, not a shard file');
  try {
    r = new JsonReader(file);
  } catch (err) {
    return problem(file, unreadable(err, file));
  }
  const head: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  try {
    if (r.atArray() || !tryObject(r)) problem(file, 'not the output of a shard (it is not a JSON object)');
    for (let key; (key = r.nextKey()) !== null;) {
      if (LISTS.has(key)) {
        head[key] = true;
        onList(key, r);
      } else head[key] = r.value();
    }
    r.end();
  } catch (err) {
    if (err instanceof JsonSyntaxError) problem(file, err.message);
    // a read that failed (EISDIR, EIO) is the file's problem, said as such
    if (typeof (err as NodeJS.ErrnoException).code === 'string' && (err as NodeJS.ErrnoException).syscall)
      problem(file, unreadable(err, file));
    throw err;
  } finally {
    r.close();
  }
  return head;
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** Why a shard file cannot be read, in words. */
function unreadable(err: unknown, file: string): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'this is a directory, not a shard file';
    case 'EACCES':
    case 'EPERM':
      return `permission denied: you may not read ${file}`;
    default:
      return `cannot be read: ${describeFileError(err, file)}`;
  }
}

function tryObject(r: JsonReader): boolean {
  try {
    r.beginObject();
    return true;
  } catch (err) {
    if (err instanceof JsonSyntaxError) return false;
    throw err;
  }
}

/** A list of the shard, element by element: `each(value, k)`; the count read. */
function list(r: JsonReader, file: string, key: string, each: (v: unknown, k: number) => void): number {
  if (!r.atArray()) problem(file, `"${key}" must be a list`);
  r.beginArray();
  let k = 0;
  while (r.hasNext()) each(r.value(), k++);
  return k;
}

/** The settings of a shard, every field checked. */
export function checkSettings(file: string, v: unknown): Settings {
  const bad = (field: string, want: string, got: unknown) =>
    problem(file, `settings.${field} must be ${want}, got ${show(got)}`);
  if (!isObject(v)) return bad('', 'an object', v);
  const s = v;
  if (s.command !== 'sweep' && s.command !== 'montecarlo') bad('command', '"sweep" or "montecarlo"', s.command);
  if (typeof s.model !== 'string') bad('model', 'the model name', s.model);
  if (typeof s.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(s.sha256)) bad('sha256', 'a SHA-256 in hex', s.sha256);
  const names = s.names,
    report = s.report;
  if (!Array.isArray(names) || names.length === 0 || !names.every((x) => typeof x === 'string'))
    bad('names', 'a list of parameter names', names);
  if (!Array.isArray(report) || report.length === 0 || !report.every((x) => typeof x === 'string'))
    bad('report', 'a list of report expressions', report);
  if (!isObject(s.options)) bad('options', 'an object', s.options);
  if (!whole(s.total, 1, MAX_BATCH_RUNS)) bad('total', `a whole number of runs from 1 to ${MAX_BATCH_RUNS}`, s.total);
  const total = s.total as number,
    ns = names as string[];
  if (s.command === 'sweep') {
    const vary = s.vary;
    if (ns.length !== 1) bad('names', 'one parameter for a sweep', names);
    if (!isObject(vary) || vary.name !== ns[0] || !finite(vary.from) || !finite(vary.to) || vary.count !== total)
      bad('vary', `{"name": ${JSON.stringify(ns[0])}, "from", "to", "count": ${total}}`, vary);
  } else {
    const samples = s.samples;
    if (!Array.isArray(samples) || samples.length !== ns.length) bad('samples', 'one distribution per name', samples);
    (samples as unknown[]).forEach((p, j) => {
      const d = isObject(p) ? p.distribution : undefined;
      const ok =
        isObject(p) &&
        p.name === ns[j] &&
        isObject(d) &&
        ((d.kind === 'normal' && finite(d.mean) && finite(d.sd) && d.sd >= 0) ||
          (d.kind === 'uniform' && finite(d.a) && finite(d.b) && d.a <= d.b));
      if (!ok) bad(`samples[${j}]`, `{"name": ${JSON.stringify(ns[j])}, "distribution": normal or uniform}`, p);
    });
    if (!whole(s.seed, 0, 0xffffffff)) bad('seed', 'a whole number from 0 to 4294967295', s.seed);
    if (s.statsOver !== undefined) {
      const over = s.statsOver;
      if (!Array.isArray(over) || !over.every((x) => typeof x === 'string'))
        bad('statsOver', 'a list of statuses', over);
      try {
        parseStatsOver((over as string[]).join(','));
      } catch {
        bad('statsOver', 'a list of statuses', over);
      }
    }
  }
  return s as unknown as Settings;
}

/** Reads and checks a shard file whole; what it holds, for the merge. */
export function checkShard(file: string): Shard {
  const head = walk(file, (_key, r) => r.skip());
  if (!head.shard || !head.settings) problem(file, 'not the output of a shard (it has no "shard" and "settings")');
  if (head.interrupted !== undefined) problem(file, `the shard was ${String(head.interrupted)}; run that slice again`);
  const settings = checkSettings(file, head.settings);
  const sh = head.shard;
  if (!isObject(sh) || !whole(sh.n, 1, settings.total) || !whole(sh.k, 1, sh.n as number))
    problem(file, `"shard" must be {"k", "n", "indices"} with 1 <= k <= n <= ${settings.total}, got ${show(sh)}`);
  const k = sh.k as number,
    n = sh.n as number;
  const { first, end } = sliceRange(settings.total, k, n);
  const indices = sh.indices;
  if (!Array.isArray(indices) || indices[0] !== first || indices[1] !== end - 1 || indices.length !== 2)
    problem(
      file,
      `shard.indices must be [${first}, ${end - 1}] for slice ${k}/${n} of ${settings.total} runs, got ${show(indices)}`,
    );
  if (end - first > MAX_RUNS_PER_PROCESS)
    problem(
      file,
      `slice ${k}/${n} of ${settings.total} runs has ${end - first}, more than one process runs (${MAX_RUNS_PER_PROCESS})`,
    );
  const shard: Shard = { file, settings, k, n, first, count: end - first };
  if (settings.command === 'sweep') checkSweepShard(shard, head);
  else checkMonteCarloShard(shard, head);
  return shard;
}

/** The statuses a shard's run can have (interrupted is not one: an interrupted shard is refused). */
function status(file: string, where: string, v: unknown): BatchStatus {
  if (typeof v !== 'string' || v === 'interrupted' || !(RUN_STATUSES as readonly string[]).includes(v))
    problem(file, `${where} must be one of ${RUN_STATUSES.slice(0, 4).join(', ')}, got ${show(v)}`);
  return v as BatchStatus;
}

/** Checks that "failures" lists exactly the failed runs (`failed`: their bits), in order. */
function checkFailures(shard: Shard, r: JsonReader, failed: Uint8Array, count: number): void {
  let last = -1,
    seen = 0;
  list(r, shard.file, 'failures', (f, j) => {
    const where = `failures[${j}]`;
    const i = isObject(f) ? f.index : undefined;
    if (
      !isObject(f) ||
      !whole(i, shard.first, shard.first + shard.count - 1) ||
      (f.message !== null && typeof f.message !== 'string')
    )
      problem(shard.file, `${where} must be {"index": a run of this shard, "message"}, got ${show(f)}`);
    const k = (i as number) - shard.first;
    if ((i as number) <= last || !(failed[k >> 3] & (1 << (k & 7))))
      problem(shard.file, `${where} names run ${i as number}, whose status is not failed (or is named twice)`);
    last = i as number;
    seen++;
  });
  if (seen !== count)
    problem(shard.file, `"failures" lists ${seen} run${seen === 1 ? '' : 's'} but ${count} rows have status failed`);
}

function checkRuns(shard: Shard, head: Record<string, unknown>, counts: Map<string, number>): void {
  const want: Record<string, number> = {};
  for (const s of RUN_STATUSES) if (counts.get(s)) want[s] = counts.get(s)!;
  if (head.runs !== undefined && JSON.stringify(head.runs) !== JSON.stringify(want))
    problem(shard.file, `"runs" is ${show(head.runs)} but its rows count ${JSON.stringify(want)}`);
}

function checkSweepShard(shard: Shard, head: Record<string, unknown>): void {
  const s = shard.settings,
    v = s.vary!,
    nr = s.report.length,
    file = shard.file;
  if (head.parameter !== s.names[0])
    problem(file, `"parameter" must be ${JSON.stringify(s.names[0])}, got ${show(head.parameter)}`);
  const columns = [s.names[0], ...s.report];
  if (JSON.stringify(head.columns) !== JSON.stringify(columns))
    problem(file, `"columns" must be ${JSON.stringify(columns)}, got ${show(head.columns)}`);
  for (const key of ['rows', 'status', 'index']) if (!head[key]) problem(file, `it has no "${key}"`);
  const failed = new Uint8Array((shard.count >> 3) + 1);
  const counts = new Map<string, number>();
  walk(file, (key, r) => {
    if (key === 'rows') {
      const rows = list(r, file, 'rows', (row, k) => {
        if (k >= shard.count)
          problem(file, `"rows" has more than the ${shard.count} runs of slice ${shard.k}/${shard.n}`);
        if (!Array.isArray(row) || row.length !== 1 + nr)
          problem(file, `rows[${k}] must be [${columns.join(', ')}], got ${show(row)}`);
        const x = sweepValue(v.from, v.to, v.count, shard.first + k);
        if (row[0] !== x)
          problem(
            file,
            `rows[${k}][0] is ${show(row[0])} but run ${shard.first + k} of the sweep has ${v.name} = ${x}: the row does not belong to these settings`,
          );
        for (let j = 1; j <= nr; j++)
          if (row[j] !== null && typeof row[j] !== 'number')
            problem(file, `rows[${k}][${j}] must be a number or null, got ${show(row[j])}`);
      });
      if (rows !== shard.count)
        problem(file, `"rows" has ${rows} rows, slice ${shard.k}/${shard.n} has ${shard.count} runs`);
    } else if (key === 'status') {
      const n = list(r, file, 'status', (x, k) => {
        const st = status(file, `status[${k}]`, x);
        counts.set(st, (counts.get(st) ?? 0) + 1);
        if (st === 'failed' && k < shard.count) failed[k >> 3] |= 1 << (k & 7);
      });
      if (n !== shard.count) problem(file, `"status" has ${n} entries for ${shard.count} rows`);
    } else if (key === 'index') {
      const n = list(r, file, 'index', (i, k) => {
        if (i !== shard.first + k) problem(file, `index[${k}] must be ${shard.first + k}, got ${show(i)}`);
      });
      if (n !== shard.count) problem(file, `"index" has ${n} entries for ${shard.count} rows`);
    } else r.skip();
  });
  walk(file, (key, r) => (key === 'failures' ? checkFailures(shard, r, failed, counts.get('failed') ?? 0) : r.skip()));
  if (!head.failures && counts.get('failed'))
    problem(file, `${counts.get('failed')} rows have status failed but it has no "failures"`);
  checkRuns(shard, head, counts);
}

function checkMonteCarloShard(shard: Shard, head: Record<string, unknown>): void {
  const s = shard.settings,
    m = s.names.length,
    nr = s.report.length,
    file = shard.file;
  const columns = ['sample', ...s.names, ...s.report, 'status'];
  if (JSON.stringify(head.columns) !== JSON.stringify(columns))
    problem(
      file,
      `"columns" must be ${JSON.stringify(columns)} (a shard's samples: with --out, give that file), got ${show(head.columns)}`,
    );
  if (!head.rows) problem(file, 'it has no "rows" (a shard\'s samples: with --out, give that file)');
  if (head.samples !== shard.count)
    problem(
      file,
      `"samples" must be ${shard.count}, the runs of slice ${shard.k}/${shard.n}, got ${show(head.samples)}`,
    );
  if (head.seed !== s.seed) problem(file, `"seed" is ${show(head.seed)} but settings.seed is ${s.seed}`);
  const over = (s.statsOver ?? parseStatsOver(undefined)) as BatchStatus[];
  const stats = s.report.map(() => new StatisticsAccumulator());
  const draws = new SampleStream(s.seed!, shard.first, s.samples!);
  const drawn = new Float64Array(m);
  const failed = new Uint8Array((shard.count >> 3) + 1);
  const counts = new Map<string, number>();
  walk(file, (key, r) => {
    if (key !== 'rows') return r.skip();
    const rows = list(r, file, 'rows', (row, k) => {
      if (k >= shard.count)
        problem(file, `"rows" has more than the ${shard.count} samples of slice ${shard.k}/${shard.n}`);
      if (!Array.isArray(row) || row.length !== 2 + m + nr)
        problem(file, `rows[${k}] must be [${columns.join(', ')}], got ${show(row)}`);
      if (row[0] !== shard.first + k)
        problem(file, `rows[${k}][0] must be the sample's index ${shard.first + k}, got ${show(row[0])}`);
      draws.next(drawn, 1);
      for (let j = 0; j < m; j++)
        if (row[1 + j] !== drawn[j])
          problem(
            file,
            `rows[${k}][${1 + j}] is ${show(row[1 + j])} but sample ${shard.first + k} of seed ${s.seed} draws ${s.names[j]} = ${drawn[j]}: the row does not belong to these settings`,
          );
      for (let j = 0; j < nr; j++) {
        const x = row[1 + m + j];
        if (x !== null && typeof x !== 'number')
          problem(file, `rows[${k}][${1 + m + j}] must be a number or null, got ${show(x)}`);
      }
      const st = status(file, `rows[${k}][${1 + m + nr}]`, row[1 + m + nr]);
      counts.set(st, (counts.get(st) ?? 0) + 1);
      if (st === 'failed') failed[k >> 3] |= 1 << (k & 7);
      if (over.includes(st)) for (let j = 0; j < nr; j++) stats[j].add((row[1 + m + j] as number | null) ?? NaN);
    });
    if (rows !== shard.count)
      problem(file, `"rows" has ${rows} samples, slice ${shard.k}/${shard.n} has ${shard.count}`);
  });
  walk(file, (key, r) => (key === 'failures' ? checkFailures(shard, r, failed, counts.get('failed') ?? 0) : r.skip()));
  if (!head.failures && counts.get('failed'))
    problem(file, `${counts.get('failed')} samples failed but it has no "failures"`);
  const report: Record<string, unknown> = {};
  s.report.forEach((label, j) => (report[label] = stats[j].result()));
  if (JSON.stringify(head.report) !== JSON.stringify(report))
    problem(file, `"report" is not the statistics of its rows (${show(head.report)})`);
  checkRuns(shard, head, counts);
}

/**
 * Hands a checked shard's runs to `consume` in chunks of up to 4096, as the pool would: the
 * rows from one reader, the messages of failed runs from a second one on the same file.
 */
export function feedShard(shard: Shard, consume: (view: ChunkView) => void): void {
  const s = shard.settings,
    m = s.names.length,
    nr = s.report.length,
    size = 4096;
  const sweep = s.command === 'sweep';
  const parameters = new Float64Array(size * m),
    values = new Float64Array(size * nr),
    codes = new Uint8Array(size);
  const messages = new Map<number, string | null>();
  // the failures, pulled in step with the rows (both in the order of the runs)
  const failures = new Pending(shard.file, 'failures');
  const statuses = sweep ? new Pending(shard.file, 'status') : null;
  let first = 0,
    k = 0;
  const flush = () => {
    if (k === 0) return;
    consume({
      first,
      runs: k,
      parameters: parameters.subarray(0, k * m),
      values: values.subarray(0, k * nr),
      status: codes.subarray(0, k),
      message: (j) => messages.get(j) ?? null,
    });
    first += k;
    k = 0;
    messages.clear();
  };
  try {
    walk(shard.file, (key, r) => {
      if (key !== 'rows') return r.skip();
      list(r, shard.file, 'rows', (v) => {
        const row = v as (number | string | null)[];
        const st = (sweep ? statuses!.next() : row[1 + m + nr]) as BatchStatus;
        for (let j = 0; j < m; j++) parameters[k * m + j] = row[sweep ? 0 : 1 + j] as number;
        for (let j = 0; j < nr; j++) values[k * nr + j] = (row[(sweep ? 1 : 1 + m) + j] as number | null) ?? NaN;
        codes[k] = 1 + RUN_STATUSES.indexOf(st);
        if (st === 'failed') messages.set(k, (failures.next() as { message: string | null }).message);
        if (++k === size) flush();
      });
      flush();
    });
  } finally {
    failures.close();
    statuses?.close();
  }
}

/** A list of a file read one element at a time, on demand. */
class Pending {
  private readonly r: JsonReader;
  private open = false;

  constructor(
    file: string,
    private readonly key: string,
  ) {
    this.r = new JsonReader(file);
  }

  next(): unknown {
    if (!this.open) {
      this.r.beginObject();
      for (let key; (key = this.r.nextKey()) !== null;) {
        if (key === this.key) break;
        this.r.skip();
      }
      this.r.beginArray();
      this.open = true;
    }
    if (!this.r.hasNext()) throw new ShardError(`merge ${this.key}: fewer entries than rows`);
    return this.r.value();
  }

  close(): void {
    this.r.close();
  }
}
