/**
 * `deltastep sweep`, `deltastep montecarlo` and `deltastep merge`: one run per parameter value
 * or sample, in this thread or on worker threads, optionally one shard of many.
 *
 * Run i of a batch is defined by its index alone (sweep: the i-th value of FROM:TO:COUNT;
 * Monte Carlo: the i-th draw of the seeded generator), so the numbers never depend on how
 * many workers or shards computed them, and `merge` of the shards of a batch gives exactly
 * the output of the unsharded command.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { readModelFile } from '../files/read-model-file.js';
import type { SimulateOptions } from '../driver/index.js';
import { Simulator } from '../analytic/index.js';
import {
  BatchInputError,
  MAX_RUNS_PER_PROCESS,
  checkReport,
  parseReport,
  parseSample,
  parseVary,
  sweepValues,
  runChunk,
  runNextChunk,
  sampleValues,
  sharedBatch,
  sharedResult,
  sliceRange,
  statistics,
  type ChunkResult,
  type Distribution,
  type ReportExpr,
  type Statistics,
} from '../batch/index.js';
import type { CompiledModel } from '../codegen/compile.js';
import {
  CliError,
  EXIT,
  formatFlag,
  initRuns,
  parseNumber,
  simulateOptions,
  workersFlag,
  type SharedFlags,
} from './options.js';
import { emit, formatValue, table, toCsv, toJson } from './output.js';
import { startProgress, type Progress } from './progress.js';
import { autoShard } from './shard.js';
import { importModule } from './import-module.js';
import { missingNameMessage } from '../language/arrays.js';
import type { ChunkReply, ChunkTask } from '../batch/sweep-worker.js';

export interface BatchContext {
  addSharedFlags: (cmd: Command) => Command;
  /** `set`: the --set values, so that a structural one (N) writes the model out for its value */
  loadModel: (file: string, set?: SimulateOptions['set']) => Promise<CompiledModel>;
  setExit: (code: number) => void;
}

interface PlotFlags {
  plot?: string;
  logX?: boolean;
  logY?: boolean;
}
interface BatchFlags extends SharedFlags, PlotFlags {
  report?: string;
  shard?: string;
}
export interface SweepFlags extends BatchFlags {
  vary?: string;
}
export interface MonteCarloFlags extends BatchFlags {
  sample?: string[];
  samples?: string;
  seed?: string;
}
export interface MergeFlags extends PlotFlags {
  format?: string;
  out?: string;
}

/** Output flags of a batch, after validation. */
interface OutputFlags extends PlotFlags {
  format: string;
  out?: string;
}

type SampleSpec = { name: string; distribution: Distribution };

/**
 * What identifies a batch. Shards merge only when these agree: same command, same model text
 * (by hash, so that shards may come from copies at different paths), same values or samples,
 * same report and same solver settings.
 */
interface Settings {
  command: 'sweep' | 'montecarlo';
  model: string;
  sha256: string;
  /** the varied or sampled parameters, in column order */
  names: string[];
  report: string[];
  /** the simulation flags (--from, --to, --set, --init, --method, --rtol, ...) */
  options: Record<string, unknown>;
  /** runs of the whole batch */
  total: number;
  vary?: { name: string; from: number; to: number; count: number };
  samples?: SampleSpec[];
  seed?: number;
}

/** The runs `first .. first+count-1` of a batch and what they gave. */
interface Batch {
  settings: Settings;
  first: number;
  count: number;
  /** run k's value of settings.names[j] at [k * names.length + j] */
  parameters: Float64Array;
  result: ChunkResult;
  shard?: { k: number; n: number };
}

/** Runs per thread at least: below that, a worker's start-up costs more than it saves. */
const MIN_RUNS_PER_THREAD = 64;
/** How long this thread runs alone before it judges whether workers would pay off. */
const WATCH_MS = 50;
/** What a worker costs before it is as fast as this thread: start-up, compilation, JIT warm-up. */
const WORKER_COST_MS = 300;
/** Chunks per thread: small enough that uneven runs (many collisions near e = 0.17) balance
 * and the bar moves, large enough that claiming one costs nothing next to its runs. */
const CHUNKS_PER_THREAD = 32;
const MIN_CHUNK = 4;
const MAX_CHUNK = 256;

function guard<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof BatchInputError) throw new CliError(err.message);
    throw err;
  }
}

// ---------------------------------------------------------------------------
// Flags

function parseShard(text: string | undefined, total: number, quiet?: boolean): { k: number; n: number } | undefined {
  if (text === undefined) return undefined;
  if (text.trim() === 'auto') {
    const auto = autoShard(process.env);
    if (!quiet) process.stderr.write(`deltastep: --shard auto: slice ${auto.k}/${auto.n} (${auto.source})\n`);
    text = `${auto.k}/${auto.n}`;
  }
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new CliError(`--shard '${text}': write K/N, the K-th of N slices (1-based), e.g. --shard 2/8`);
  const k = Number(m[1]),
    n = Number(m[2]);
  if (n < 1 || k < 1 || k > n)
    throw new CliError(
      `--shard ${text}: K must be from 1 to N, e.g. --shard 1/${Math.max(n, 1)} to --shard ${Math.max(n, 1)}/${Math.max(n, 1)}`,
    );
  if (n > total)
    throw new CliError(
      `--shard ${text}: ${n} slices of only ${total} run(s) would leave some empty; use at most ${total} slices`,
    );
  return { k, n };
}

/** A batch (or the slice of it this process runs) within what one process takes on. */
function checkSliceSize(runs: number, total: number): void {
  if (runs <= MAX_RUNS_PER_PROCESS) return;
  const slices = Math.ceil(total / MAX_RUNS_PER_PROCESS);
  throw new CliError(
    `${runs} runs in one process are more than its limit of ${MAX_RUNS_PER_PROCESS}; split the batch into at least ${slices} slices with --shard K/${slices} (one process or cluster task each, see docs/cluster.md) and combine them with merge`,
  );
}

/** The simulation flags of every run; one --init at most (it applies to every run). */
function batchOptions(flags: SharedFlags): SimulateOptions {
  const options = simulateOptions(flags);
  const inits = initRuns(flags);
  if (inits.length > 1)
    throw new CliError(
      `--init was given ${inits.length} times; a batch takes one (applied to every run): run one batch per --init`,
    );
  if (inits[0]) options.init = inits[0];
  return options;
}

/** JSON with sorted keys, Maps as objects: two equal settings give the same text. */
function canonical(value: unknown): unknown {
  if (value instanceof Map) return canonical(Object.fromEntries(value));
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    // no prototype: a parameter may be called __proto__
    const out = Object.create(null) as Record<string, unknown>;
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = canonical(v);
    }
    return out;
  }
  return value;
}

function outputFlags(flags: SharedFlags & PlotFlags, fallback: string): OutputFlags {
  return {
    format: formatFlag(flags, ['text', 'json', 'csv'], fallback),
    out: flags.out,
    plot: flags.plot,
    logX: flags.logX,
    logY: flags.logY,
  };
}

// ---------------------------------------------------------------------------
// Running: in this thread, or in chunks on a pool of worker threads

interface Job {
  file: string;
  source: string;
  model: CompiledModel;
  report: ReportExpr[];
  options: SimulateOptions;
  names: string[];
  parameters: Float64Array;
  count: number;
}

function workerFile(): URL {
  // Next to the command-line bundle in dist/; tsup builds it from src/batch/sweep-worker.ts.
  const url = new URL('./sweep-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(url)))
    throw new Error(`the worker file ${fileURLToPath(url)} is missing: run 'npm run build', or use --workers 1`);
  return url;
}

/**
 * Runs a job on at most `workers` threads: this one and up to workers - 1 pool threads.
 * This thread works too: it has the model compiled already and starts at once, while a
 * worker first loads the bundle and compiles (about 0.1 s), then warms up its JIT (the
 * first thousand C12 runs in a thread are several times slower than the rest). So without
 * --workers, workers start only once this thread's own progress says the batch will outlast
 * that cost, and a short batch never starts a pool; --workers N asks for N threads at once
 * (for batches of at least 64 runs a thread); --workers 1 never starts a pool.
 */
async function execute(
  job: Job,
  workers: { n: number; explicit: boolean },
  label: string,
  quiet: boolean | undefined,
): Promise<ChunkResult> {
  const progress = await startProgress(job.count, label, quiet);
  try {
    const threads = Math.min(workers.n, Math.ceil(job.count / MIN_RUNS_PER_THREAD));
    if (threads <= 1)
      return runChunk(new Simulator(job.model), job.report, job.options, job.names, job.parameters, (done) =>
        progress.update(done),
      );
    return await executeShared(job, threads, workers.explicit, progress);
  } finally {
    progress.stop();
  }
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Slot states of the workers, in a shared Int32Array. */
const CLAIMED = 2;

interface Workers {
  slots: Int32Array;
  replies: Promise<void>[];
  destroy(): Promise<void>;
}

async function executeShared(job: Job, threads: number, eager: boolean, progress: Progress): Promise<ChunkResult> {
  // (the pool loads with the first batch that needs threads, not with every command)
  const { Tinypool } = await importModule<typeof import('tinypool')>('tinypool');
  const chunkSize = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.ceil(job.count / (threads * CHUNKS_PER_THREAD))));
  const batch = sharedBatch(job.parameters, job.count, job.report.length, chunkSize);
  const messages = new Map<number, string>();
  const state: { failure: unknown; abandoned: boolean } = { failure: null, abandoned: false };
  const stopAll = () => Atomics.store(batch.counters, 0, 1 << 30);

  const startWorkers = (n: number): Workers => {
    const slots = new Int32Array(new SharedArrayBuffer(4 * n));
    const pool = new Tinypool({ filename: workerFile().href, minThreads: n, maxThreads: n });
    const replies = Array.from({ length: n }, (_, slot) => {
      const task: ChunkTask = {
        file: job.file,
        source: job.source,
        report: job.report.map((r) => r.label).join(', '),
        options: job.options,
        names: job.names,
        batch,
        slots,
        slot,
      };
      return (pool.run(task) as Promise<ChunkReply>).then(
        (reply) => {
          if (!reply.ok) {
            state.failure ??= new CliError(reply.message);
            stopAll();
          } else for (const [i, m] of reply.messages) messages.set(i, m);
        },
        (err: unknown) => {
          // A worker still starting when the batch is done is terminated: not a failure.
          if (!state.abandoned) {
            state.failure ??= err;
            stopAll();
          }
        },
      );
    });
    return { slots, replies, destroy: () => pool.destroy() };
  };

  let workers: Workers | null = null;
  try {
    if (eager) workers = startWorkers(threads - 1);
    const simulator = new Simulator(job.model);
    const t0 = performance.now();
    while (state.failure === null && runNextChunk(simulator, job.report, job.options, job.names, batch, messages) > 0) {
      const finished = Atomics.load(batch.counters, 1);
      progress.update(finished);
      if (workers === null) {
        const elapsed = performance.now() - t0;
        if (elapsed > WATCH_MS && (elapsed / finished) * (job.count - finished) > WORKER_COST_MS)
          workers = startWorkers(threads - 1);
      }
      // tinypool hands a worker its task from this thread's event loop: let it, until each has started.
      if (workers?.slots.some((s) => s === 0)) await yieldToEventLoop();
    }
    while (state.failure === null && Atomics.load(batch.counters, 1) < job.count) {
      await sleep(5);
      progress.update(Atomics.load(batch.counters, 1));
    }
    if (workers) {
      // The workers that ran chunks reply at once now (nothing is left to claim): their messages.
      const w = workers;
      await Promise.all(w.replies.filter((_, slot) => Atomics.load(w.slots, slot) === CLAIMED));
    }
    if (state.failure !== null) throw state.failure;
  } finally {
    state.abandoned = true;
    stopAll();
    await workers?.destroy();
  }
  return sharedResult(batch, messages);
}

/**
 * The model, with every name the command line varies checked to be one of its parameters,
 * and the report (by default every final value) checked against its final values.
 */
async function loadCheck(
  ctx: BatchContext,
  file: string,
  names: string[],
  reportText: string,
  set: SimulateOptions['set'],
): Promise<{ model: CompiledModel; source: string; report: ReportExpr[] }> {
  const model = await ctx.loadModel(file, set);
  for (const n of names) {
    if (!model.paramNames.includes(n))
      throw new CliError(
        missingNameMessage(n, model.paramNames, `a parameter or unknown of ${model.system.model}`, 'they are'),
      );
    if (model.system.structural?.includes(n))
      throw new CliError(
        `'${n}' sets the shape of ${model.system.model} (a range or an index uses it): each value would be another model, so it cannot be varied in one batch; run the batch once per value with --set ${n}=...`,
      );
  }
  const report = guard(() => parseReport(reportText || model.outputNames.join(', ')));
  guard(() => checkReport(report, model));
  // Workers compile the text; its hash tells the shards of one model from another's.
  return { model, source: readModelFile(file), report };
}

// ---------------------------------------------------------------------------
// Commands

export async function runSweep(ctx: BatchContext, file: string, flags: SweepFlags): Promise<number> {
  const output = outputFlags(flags, 'text');
  if (!flags.vary) throw new CliError('sweep needs --vary NAME=FROM:TO:COUNT, e.g. --vary e=1:0.18:200');
  const vary = guard(() => parseVary(flags.vary!));
  // Parsed here to report a bad --report before the model loads; empty means every final value.
  guard(() => parseReport(flags.report ?? ''));
  const total = vary.count;
  const shard = parseShard(flags.shard, total, flags.quiet);
  const workers = { n: workersFlag(flags, availableParallelism()), explicit: flags.workers !== undefined };
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
  const result = await execute(
    { file, source, model, report, options, names: [vary.name], parameters, count: end - first },
    workers,
    `sweep ${vary.name}`,
    flags.quiet,
  );
  return writeSweep({ settings, first, count: end - first, parameters, result, shard }, output);
}

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
  const workers = { n: workersFlag(flags, availableParallelism()), explicit: flags.workers !== undefined };
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
  const result = await execute(
    { file, source, model, report, options, names, parameters, count: end - first },
    workers,
    'montecarlo',
    flags.quiet,
  );
  return writeMonteCarlo({ settings, first, count: end - first, parameters, result, shard }, output);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// ---------------------------------------------------------------------------
// Output (shared by the commands and merge, so that a merge writes what the command would)

/** JSON numbers cannot be NaN: NaN (a run that has no value) is written as null. */
const cell = (v: number): number | null => (Number.isFinite(v) ? v : null);

function shardKeys(b: Batch): Record<string, unknown> {
  if (!b.shard) return {};
  return { shard: { k: b.shard.k, n: b.shard.n, indices: [b.first, b.first + b.count - 1] }, settings: b.settings };
}

function failures(b: Batch): { index: number; message: string | null }[] {
  const out: { index: number; message: string | null }[] = [];
  for (let k = 0; k < b.count; k++)
    if (b.result.status[k] === 'failed') out.push({ index: b.first + k, message: b.result.message[k] });
  return out;
}

/** Exit 3 when runs failed, with how many and the first of them on stderr. */
function failureExit(b: Batch): number {
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

async function writeSweep(b: Batch, output: OutputFlags): Promise<number> {
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

async function writeMonteCarlo(b: Batch, output: OutputFlags): Promise<number> {
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

// ---------------------------------------------------------------------------
// Plots (vega is ESM-only and slow to load: imported only when a plot is asked for)

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

async function savePlot(svg: string, path: string): Promise<void> {
  const { writePlot } = await import('./plot.js');
  try {
    await writePlot(svg, path);
  } catch (err) {
    throw new CliError(`--plot ${path}: ${(err as Error).message}`);
  }
}

// ---------------------------------------------------------------------------
// merge

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

// ---------------------------------------------------------------------------
