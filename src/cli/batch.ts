/**
 * `deltastep sweep` and `deltastep montecarlo`: one run per parameter value or sample.
 */
import type { Command } from 'commander';
import { BatchInputError, drawSamples, parseReport, parseSample, parseVary, runBatch, statistics } from '../numeric/sweep.js';
import type { CompiledModel } from '../transform/compile.js';
import { CliError, EXIT, formatFlag, parseNumber, simulateOptions, type SharedFlags } from './options.js';
import { emit, table, toCsv, toJson } from './output.js';

export interface BatchContext {
  addSharedFlags: (cmd: Command) => Command;
  loadModel: (file: string) => CompiledModel;
  setExit: (code: number) => void;
}

interface SweepFlags extends SharedFlags { vary?: string; report?: string }
interface MonteCarloFlags extends SharedFlags { sample?: string[]; samples?: string; seed?: string; report?: string }

const collect = (value: string, previous: string[] = []) => [...previous, value];

function guard<T>(f: () => T): T {
  try { return f(); } catch (err) {
    if (err instanceof BatchInputError) throw new CliError(err.message);
    throw err;
  }
}

function runSweep(file: string, flags: SweepFlags): number {
  const format = formatFlag(flags, ['text', 'json', 'csv'], 'text');
  if (!flags.vary) throw new CliError('sweep needs --vary NAME=FROM:TO:COUNT');
  const vary = guard(() => parseVary(flags.vary!));
  const report = guard(() => parseReport(flags.report ?? ''));
  const model = loadCheck(file, [vary.name]);
  const options = simulateOptions(flags);
  const rows = guard(() => runBatch(model, vary.values.map((v, index) => ({ index, values: new Map([[vary.name, v]]) })), report, options));
  const columns = [vary.name, ...report.map((r) => r.label)];
  const data = rows.map((r) => [r.parameters[vary.name], ...r.values]);
  if (format === 'json') emit(toJson({ parameter: vary.name, columns, rows: data, status: rows.map((r) => r.status) }), flags.out);
  else if (format === 'csv') emit(toCsv(columns, data), flags.out);
  else emit(table(columns, data), flags.out);
  return rows.some((r) => r.status === 'failed') ? EXIT.numerics : EXIT.ok;
}

function runMonteCarlo(file: string, flags: MonteCarloFlags): number {
  const format = formatFlag(flags, ['text', 'json', 'csv'], 'text');
  if (!flags.sample?.length) throw new CliError('montecarlo needs --sample "NAME~normal(MEAN,SD)" (or uniform(A,B))');
  const samples = guard(() => flags.sample!.map(parseSample));
  const count = flags.samples === undefined ? 1000 : parseNumber('--samples', flags.samples);
  if (!Number.isInteger(count) || count < 1) throw new CliError(`--samples must be a whole number of at least 1, got ${flags.samples}`);
  const seed = flags.seed === undefined ? 1 : parseNumber('--seed', flags.seed);
  if (!Number.isInteger(seed)) throw new CliError(`--seed must be a whole number, got ${flags.seed}`);
  const report = guard(() => parseReport(flags.report ?? ''));
  if (report.length === 0) throw new CliError('montecarlo needs --report EXPR (e.g. --report "x4\'")');
  const model = loadCheck(file, samples.map((s) => s.name));
  const draws = drawSamples(seed, count, samples);
  const rows = guard(() => runBatch(model, draws.map((values, index) => ({ index, values })), report, simulateOptions(flags)));
  const stats = Object.create(null) as Record<string, ReturnType<typeof statistics>>;
  report.forEach((r, j) => { stats[r.label] = statistics(rows.map((row) => row.values[j])); });
  const summary = { samples: count, seed, parameters: samples.map((s) => ({ name: s.name, ...s.distribution })), report: stats };
  if (format === 'json') emit(toJson(summary), undefined);
  else if (format === 'csv') emit(toCsv(['report', 'mean', 'sd', 'ci95_low', 'ci95_high', 'min', 'max'], report.map((r) => { const s = stats[r.label]; return [r.label, s.mean, s.sd, s.ci95[0], s.ci95[1], s.min, s.max]; })), undefined);
  else emit(table(['report', 'mean', 'sd', '95% CI of the mean', 'min', 'max'], report.map((r) => { const s = stats[r.label]; return [r.label, s.mean, s.sd, `[${s.ci95[0].toPrecision(6)}, ${s.ci95[1].toPrecision(6)}]`, s.min, s.max]; })), undefined);
  if (flags.out) {
    const columns = ['sample', ...samples.map((s) => s.name), ...report.map((r) => r.label), 'status'];
    const data = rows.map((r) => [r.index, ...samples.map((s) => r.parameters[s.name]), ...r.values, r.status]);
    emit(flags.out.endsWith('.json') ? toJson({ ...summary, columns, rows: data }) : toCsv(columns, data), flags.out);
  }
  return rows.some((r) => r.status === 'failed') ? EXIT.numerics : EXIT.ok;
}

let contextLoad: BatchContext['loadModel'] | null = null;

/** The model, with every name the command line varies checked to be one of its parameters. */
function loadCheck(file: string, names: string[]): CompiledModel {
  const model = contextLoad!(file);
  for (const n of names) {
    if (!model.paramNames.includes(n)) throw new CliError(`'${n}' is not a parameter or unknown of ${model.system.model}; they are: ${model.paramNames.join(', ') || '(none)'}`);
  }
  return model;
}

export function registerBatchCommands(program: Command, ctx: BatchContext): void {
  contextLoad = ctx.loadModel;
  ctx.addSharedFlags(program.command('sweep <file>').description('one run per parameter value; a table of reported final values'))
    .option('--vary <NAME=FROM:TO:COUNT>', 'the parameter and its values')
    .option('--report <EXPRS>', 'comma-separated expressions of final values')
    .option('--workers <N>', 'worker threads (default: the cores)')
    .action((file: string, flags: SweepFlags) => ctx.setExit(runSweep(file, flags)));
  ctx.addSharedFlags(program.command('montecarlo <file>').description('statistics of final values over random parameters'))
    .option('--sample <NAME~DIST>', 'NAME~normal(MEAN,SD) or NAME~uniform(A,B) (repeatable)', collect)
    .option('--samples <N>', 'number of samples (default 1000)')
    .option('--seed <S>', 'seed of the generator (default 1)')
    .option('--report <EXPRS>', 'comma-separated expressions of final values')
    .option('--workers <N>', 'worker threads (default: the cores)')
    .action((file: string, flags: MonteCarloFlags) => ctx.setExit(runMonteCarlo(file, flags)));
}
