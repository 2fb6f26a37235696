/**
 * What sweep, montecarlo and merge share before any run: their flags, the settings that
 * identify a batch (so that only the shards of one batch merge), the slice this process runs,
 * the model with every varied name checked, and the pool's settings.
 *
 * Run i of a batch is defined by its index alone (sweep: the i-th value of FROM:TO:COUNT;
 * Monte Carlo: the i-th draw of the seeded generator), so the numbers never depend on how
 * many workers or shards computed them, and `merge` of the shards of a batch gives exactly
 * the output of the unsharded command.
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import type { SimulateOptions } from '../driver/index.js';
import { resolveSettings } from '../driver/settings.js';
import { resolveRange } from '../driver/range.js';
import type { Expr } from '../expression/ast.js';
import { namesReached } from '../analysis/parameter-reach.js';
import {
  BatchInputError,
  MAX_RUNS_PER_PROCESS,
  checkReport,
  parseReport,
  sliceRange,
  type Distribution,
  type InterruptFlag,
  type ReportExpr,
} from '../batch/index.js';
import { execute, type ChunkConsumer, type Job, type PoolClass, type PoolSettings } from '../batch/pool.js';
import type { BatchOptions } from '../batch/run.js';
import type { CompiledModel } from '../codegen/compile.js';
import { Simulator } from '../analytic/index.js';
import { CliError, formatFlag, initRuns, simulateOptions, workersFlag, type SharedFlags } from './options.js';
import { startProgress, type Progress } from './progress.js';
import { autoShard } from './shard.js';
import type { PlotLook } from './plot-render.js';
import { plotLook, type PlotLookFlags } from './trajectory-data.js';
import { interruptedText, signalExit, signalsReady } from './signals.js';
import { importModule } from './import-module.js';
import { missingNameMessage } from '../language/element-names.js';
import { escapeText } from '../expression/terminal-text.js';

export interface BatchContext {
  addSharedFlags: (cmd: Command) => Command;
  /** `set`: the --set values, so that a structural one (N) writes the model out for its value */
  loadModel: (file: string, set?: SimulateOptions['set']) => Promise<CompiledModel>;
  setExit: (code: number) => void;
}

export interface PlotFlags extends PlotLookFlags {
  plot?: string;
  logX?: boolean;
  logY?: boolean;
}
export interface BatchFlags extends SharedFlags, PlotFlags {
  report?: string;
  shard?: string;
  shoot?: boolean;
}
export interface SweepFlags extends BatchFlags {
  vary?: string[];
}
export interface MonteCarloFlags extends BatchFlags {
  sample?: string[];
  samples?: string;
  seed?: string;
  statsOver?: string;
}
export interface MergeFlags extends PlotFlags {
  format?: string;
  out?: string;
}

/** Output flags of a batch, after validation. */
export interface OutputFlags {
  format: string;
  out?: string;
  plot?: string;
  logX?: boolean;
  logY?: boolean;
  look: PlotLook;
}

export type SampleSpec = { name: string; distribution: Distribution };

/**
 * What identifies a batch. Shards merge only when these agree: same command, same model text
 * (by hash, so that shards may come from copies at different paths), same values or samples,
 * same report and same solver settings.
 */
export interface Settings {
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
  /** montecarlo: the statuses whose runs enter the statistics (--stats-over) */
  statsOver?: string[];
}

/** The document of the runs `first .. first+count-1` of a batch (all of it, or one shard). */
export interface BatchDoc {
  settings: Settings;
  first: number;
  count: number;
  shard?: { k: number; n: number };
}

/** Runs `f`, turning a problem with the batch's flags (BatchInputError) into a usage error. */
export function guard<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof BatchInputError) throw new CliError(err.message);
    throw err;
  }
}

export function parseShard(
  text: string | undefined,
  total: number,
  quiet?: boolean,
): { k: number; n: number } | undefined {
  if (text === undefined) return undefined;
  if (text.trim() === 'auto') {
    const auto = autoShard(process.env);
    if (!quiet)
      process.stderr.write(`deltastep: --shard auto: slice ${auto.k}/${auto.n} (${escapeText(auto.source)})\n`);
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
export function checkSliceSize(runs: number, total: number): void {
  if (runs <= MAX_RUNS_PER_PROCESS) return;
  const slices = Math.ceil(total / MAX_RUNS_PER_PROCESS);
  throw new CliError(
    `${runs} runs in one process are more than its limit of ${MAX_RUNS_PER_PROCESS}; split the batch into at least ${slices} slices with --shard K/${slices} (one process or cluster task each, see docs/cluster.md) and combine them with merge`,
  );
}

/** The simulation flags of every run; one --init at most (it applies to every run). */
export function batchOptions(flags: SharedFlags): SimulateOptions {
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
export function canonical(value: unknown): unknown {
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

export function outputFlags(flags: SharedFlags & PlotFlags, fallback: string, file?: string): OutputFlags {
  return {
    format: formatFlag(flags, ['text', 'json', 'csv'], fallback),
    out: flags.out,
    plot: flags.plot,
    logX: flags.logX,
    logY: flags.logY,
    look: plotLook(flags, file),
  };
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The model, with every name the command line varies checked to be one of its parameters,
 * and the report (by default every final value) checked against its final values.
 */
export async function loadCheck(
  ctx: BatchContext,
  file: string,
  names: string[],
  reportText: string,
  set: SimulateOptions['set'],
  shoots = false,
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
  // (a shooting batch reports the unknowns it found too, first, by default)
  const unknowns = shoots ? model.system.parameters.filter((q) => q.unknown).map((q) => q.name) : [];
  const report = guard(() => parseReport(reportText || [...unknowns, ...model.outputNames].join(', ')));
  guard(() => checkReport(report, model));
  // Workers compile the text; its hash tells the shards of one model from another's. (The text
  // compiled here, not the file read again: a pipe gives it once.)
  return { model, source: model.system.source, report };
}

/**
 * What sweep and montecarlo do alike before their runs, `total` runs of the varied `names`:
 * the slice this process runs (--shard), the threads, the run options, the model and report
 * checked, and the settings that every batch has (the command adds its own).
 */
export async function prepareBatch(
  ctx: BatchContext,
  file: string,
  flags: BatchFlags,
  varied: { flag: '--vary' | '--sample'; names: string[] },
  total: number,
) {
  const names = varied.names;
  const shard = parseShard(flags.shard, total, flags.quiet);
  const workers = workerThreads(flags);
  const options: BatchOptions = batchOptions(flags);
  checkNotSet(varied.flag, names, options.set);
  const { model, source, report } = await loadCheck(ctx, file, names, flags.report ?? '', options.set, flags.shoot);
  // the run options checked once, before the runs: a flag that no run can take (--locate
  // before with an adaptive method) is a usage error, not a failure of every run; so is a
  // range that no run can take (no end, --from without every initial value, backwards through
  // an assignment), unless a varied parameter moves the range
  const settings = resolveSettings(model, options, 'flags');
  const rangeMoves = rangeMovesWith(model, names);
  if (!rangeMoves) resolveRange(model, model.parameters(settings.set), options, 'flags');
  // so is method analytic on a model (or with --zeno continue) that no run can take that way
  new Simulator(model).checkPath(options);
  // and, with --shoot, a model whose unknowns and conditions shooting cannot take (as shoot's)
  if (flags.shoot) {
    const { checkShootable, checkShootConditions } = await import('../shooting/newton.js');
    checkShootable(model);
    // (where the conditions lie may move with the varied values: then each run checks its own)
    const places = model.system.boundaryConditions.map((bc) => bc.at);
    if (!rangeMoves && !movesWith(model, places, names)) checkShootConditions(model, options, 'flags');
    options.shoot = true;
  }
  const { first, end } = shard ? sliceRange(total, shard.k, shard.n) : { first: 0, end: total };
  checkSliceSize(end - first, total);
  const common = {
    model: model.system.model,
    sha256: sha256(source),
    names,
    report: report.map((r) => r.label),
    options: canonical(options) as Record<string, unknown>,
    total,
  };
  const job = { file, source, model, report, options, names, count: end - first };
  return { shard, workers, first, count: end - first, common, job };
}

/** Whether the model's range (its ends, through the parameters they use) depends on `names`. */
function rangeMovesWith(model: CompiledModel, names: readonly string[]): boolean {
  const { from, to } = model.system.range;
  return movesWith(
    model,
    [from, to].filter((end): end is Expr => end !== null),
    names,
  );
}

/** Whether any of `exprs` depends on `names`, directly or through the parameters it uses. */
function movesWith(model: CompiledModel, exprs: readonly Expr[], names: readonly string[]): boolean {
  const used = namesReached(model.system.parameters, exprs);
  return names.some((n) => used.has(n));
}

/**
 * A name that --vary or --sample varies and --set also gives: the run would take one of the
 * two values silently; a usage error that says which flag to drop it from.
 */
export function checkNotSet(flag: '--vary' | '--sample', names: readonly string[], set: SimulateOptions['set']): void {
  if (!(set instanceof Map)) return;
  for (const n of names)
    if (set.has(n))
      throw new CliError(
        `${n} is given by both ${flag} and --set (${n}=${set.get(n)}); ${flag} sets it for each run: drop ${n} from --set, or drop ${flag} to run with ${n}=${set.get(n)}`,
      );
}

/** The thread count (--workers, default the cores) and whether it was asked for. */
export function workerThreads(flags: SharedFlags): { n: number; explicit: boolean } {
  return { n: workersFlag(flags, availableParallelism()), explicit: flags.workers !== undefined };
}

/** What writes a batch's document as its runs come, then ends it. */
export interface BatchWriter extends ChunkConsumer {
  /** ends the document (`signal`: the signal that interrupted the batch, or 0); the exit code */
  finish(signal: number): Promise<number>;
  /** after an error: nothing half-written of ours, no temporary file */
  abandon(): void;
}

/**
 * Runs a batch's job on the pool with a progress bar (on a terminal), handing its results in
 * order to `writer`, then ends the document; a worker's input problem is a usage error.
 */
export async function runJob(
  job: Job,
  writer: BatchWriter,
  workers: { n: number; explicit: boolean },
  label: string,
  quiet: boolean | undefined,
  interrupt?: InterruptFlag,
): Promise<number> {
  const progress: Progress = await startProgress(job.count, label, quiet);
  const settings: PoolSettings = {
    threads: workers.n,
    eager: workers.explicit,
    progress,
    // (the pool loads with the first batch that needs threads, not with every command)
    loadPool: async () => (await importModule<typeof import('tinypool')>('tinypool')).Tinypool as PoolClass,
    interrupt,
  };
  try {
    await signalsReady();
    await execute(job, writer, settings);
    progress.stop();
    const signal = interrupt ? Atomics.load(interrupt, 0) : 0;
    const code = await writer.finish(signal);
    if (!signal) return code;
    process.stderr.write(
      `deltastep: ${interruptedText(signal)}; the output holds the runs done (marked interrupted)\n`,
    );
    return signalExit(signal);
  } catch (err) {
    writer.abandon();
    if (err instanceof BatchInputError) throw new CliError(err.message);
    throw err;
  } finally {
    progress.stop();
  }
}
