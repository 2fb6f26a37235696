#!/usr/bin/env node
/**
 * The `deltastep` command line (documented in docs/cli.md).
 *
 * Exit codes: 0 success; 1 the model is wrong (FILE:LINE:COL with the line and a caret);
 * 2 the command line is wrong; 3 the numerics failed or did not converge (whatever was
 * computed is still written); 4 the run stopped on an accumulation of events (zeno).
 * No stack trace ever reaches the user.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { compileModel } from '../model.js';
import { readModelFile } from '../node.js';
import { Simulator, SimulationInputError, type SimulationResult } from '../numeric/simulate.js';
import { shoot, ShootInputError, type ShootResult } from '../shooting/newton.js';
import { ModelError } from '../symbolic/errors.js';
import type { CompiledModel } from '../transform/compile.js';
import { formatLatex, formatText, transformReport } from '../transform/print.js';
import { registerBatchCommands } from './batch.js';
import { CliError, EXIT, formatFlag, initRuns, simulateOptions, type SharedFlags } from './options.js';
import { CsvRunWriter, JsonRunWriter, StreamOut, csvLine, emit, simulationText, table, toJson } from './output.js';

const VERSION = '0.1.0';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Loads and compiles a model; model errors propagate as ModelError (exit 1). */
export function loadModel(file: string): CompiledModel {
  const model = compileModel(readModelFile(file), file);
  // Double roots of delta arguments and similar schedule problems are model errors: find them now.
  transformReport(model);
  return model;
}

/** The flags every running command shares (CLI.md). */
export function addSharedFlags(cmd: Command): Command {
  return cmd
    .option('--from <A>', 'start of the range (overrides the model)')
    .option('--to <B>', 'end of the range (overrides the model)')
    .option('--set <NAME=VALUE>', 'a parameter or unknown (repeatable)', collect)
    .option('--init <NAME=VALUE,...>', "initial values, y' for a derivative (repeatable: one run each)", collect)
    .option('--method <NAME>', 'rk4, dopri5 (default) or dop853')
    .option('--rtol <R>', 'relative tolerance')
    .option('--atol <A>', 'absolute tolerance')
    .option('--step <H>', 'fixed step for rk4, largest step otherwise')
    .option('--locate <MODE>', 'exact (default), before or after: where fixed-step runs apply an event')
    .option('--format <FORMAT>', 'output format')
    .option('--out <PATH>', 'write the output to a file')
    .option('--plot <PATH>', 'write a plot (.svg or .png)')
    .option('--output-step <DT>', 'one row per DT of the independent variable (plus every event\'s rows), instead of one per step')
    .option('--events-only', 'rows only at the ends and before/after each event')
    .option('--max-steps <N>', 'limit on integration steps (default 10000000)')
    .option('--max-events <N>', 'limit on events (default 100000, or option maxEvents)')
    .option('--zeno <MODE>', 'stop (default) or continue: hold accumulations and persisting contacts as constraints')
    .option('--quiet', 'no progress bar');
}

function exitFor(r: SimulationResult): number {
  return r.status === 'failed' ? EXIT.numerics : r.status === 'zeno' ? EXIT.zeno : EXIT.ok;
}

async function runSimulate(file: string, flags: SharedFlags & { plotVariables?: string }): Promise<number> {
  const format = formatFlag(flags, ['text', 'json', 'csv'], 'text');
  const model = loadModel(file);
  const base = simulateOptions(flags);
  const simulator = new Simulator(model);
  const inits = initRuns(flags);
  // the first run's rows, for a plot (the output itself never keeps them)
  const plotRows: number[][] | null = flags.plot ? [] : null;
  const runs: SimulationResult[] = [];
  if (format === 'text') {
    // the text shows the ledger and the final values, not rows
    for (const init of inits) runs.push(simulator.run({ ...base, init, record: plotRows !== null && runs.length === 0 }));
    emit(runs.map(simulationText).join('\n'), flags.out);
  } else {
    // Rows stream to the output as they are produced: memory does not grow with the run.
    const out = new StreamOut(flags.out);
    try {
      const columns = [model.system.independent, ...model.outputNames];
      const many = inits.length > 1;
      if (format === 'json') {
        if (many) out.write('{"runs": [\n');
        inits.forEach((init, i) => {
          const writer = new JsonRunWriter(out, many ? ' ' : '', { model: model.system.model, independent: model.system.independent, columns }, i === 0 ? plotRows : null);
          const r = simulator.run({ ...base, init, sink: writer });
          r.events = writer.finish(r);
          runs.push(r);
          out.write(many && i < inits.length - 1 ? ',\n' : '\n');
        });
        if (many) out.write(']}\n');
      } else {
        out.write(`${csvLine(many ? ['run', ...columns] : columns)}\n`);
        inits.forEach((init, i) => {
          const writer = new CsvRunWriter(out, many ? i + 1 : null, i === 0 ? plotRows : null);
          // (CSV has no ledger: its before/after records would only take memory)
          const r = simulator.run({ ...base, init, sink: writer, eventValues: plotRows !== null && i === 0 });
          r.events = writer.events;
          runs.push(r);
        });
      }
    } finally {
      out.close();
    }
    if (plotRows) runs[0].rows = plotRows;
  }
  if (flags.plot) await plotRuns(runs, flags.plot, flags.plotVariables);
  for (const r of runs) if (r.status === 'failed' || r.status === 'zeno') process.stderr.write(`${file}: ${r.message}\n`);
  return Math.max(...runs.map(exitFor));
}

async function plotRuns(runs: SimulationResult[], path: string, variables: string | undefined): Promise<void> {
  const { renderTrajectoryPlot, writePlot } = await import('./plot.js');
  const r = runs[0];
  const series = variables ? variables.split(',').map((s) => s.trim()) : r.columns.slice(1);
  for (const s of series) if (!r.columns.includes(s)) throw new CliError(`--variables ${s}: not a column; the columns are ${r.columns.slice(1).join(', ')}`);
  const svg = await renderTrajectoryPlot({ title: r.model, independent: r.independent, columns: r.columns, rows: r.rows, series, events: r.events });
  try { await writePlot(svg, path); } catch (err) { throw new CliError((err as Error).message); }
}

function shootText(r: ShootResult): string {
  const names = Object.keys(r.unknowns);
  const lines = [`shoot: ${r.converged ? 'converged' : 'did not converge'} (${r.status}) after ${r.iterations.length - 1} Newton iteration(s), ${r.residualEvaluations} shots${r.message ? `\n${r.message}` : ''}`, ''];
  lines.push(table(['k', ...names, 'max |residual|'], r.iterations.map((it) => [it.k, ...names.map((n) => it.unknowns[n]), it.residualNorm])));
  lines.push('', table(['unknown', 'value'], names.map((n) => [n, r.unknowns[n]])));
  lines.push('', table(['boundary condition', 'residual'], Object.entries(r.residuals).map(([k, v]) => [k, v])));
  if (r.solution) lines.push('', simulationText(r.solution));
  return lines.join('\n') + '\n';
}

async function runShoot(file: string, flags: SharedFlags & { jacobian?: string }): Promise<number> {
  const format = formatFlag(flags, ['text', 'json'], 'text');
  const jacobian = flags.jacobian ?? 'broyden';
  if (jacobian !== 'broyden' && jacobian !== 'central') throw new CliError(`--jacobian ${jacobian}: write broyden (the default: one difference Jacobian, then Broyden updates) or central (central differences at every iteration)`);
  const model = loadModel(file);
  checkShootable(model);
  const result = shoot(model, { ...simulateOptions(flags), jacobian });
  emit(format === 'json' ? toJson(result) : shootText(result), flags.out);
  if (flags.plot && result.solution) await plotRuns([result.solution], flags.plot, undefined);
  if (!result.converged) { process.stderr.write(`${file}: shooting did not converge: ${result.message ?? result.status}\n`); return EXIT.numerics; }
  return result.solution && result.solution.status === 'failed' ? EXIT.numerics : EXIT.ok;
}

/** As many boundary conditions as unknowns, or a model error at the place to change. */
function checkShootable(model: CompiledModel): void {
  const sys = model.system;
  const unknowns = sys.parameters.filter((q) => q.unknown);
  const bcs = sys.boundaryConditions;
  if (unknowns.length === bcs.length && unknowns.length > 0) return;
  const span = bcs.length > unknowns.length ? bcs[unknowns.length].span : unknowns[bcs.length]?.span ?? null;
  throw new ModelError(sys.file, sys.source, span,
    unknowns.length === 0 ? 'the model has no unknowns to shoot for' : `${unknowns.length} unknown(s) but ${bcs.length} boundary condition(s)`,
    unknowns.length === 0 ? "Declare what shooting should find with 'unknown NAME = GUESS'." : 'Shooting needs as many boundary conditions (y(A) = VALUE with A after the start) as unknowns.');
}

function runTransform(file: string, flags: { format?: string; out?: string }): number {
  const format = formatFlag(flags, ['text', 'latex', 'json', 'js'], 'text');
  const model = loadModel(file);
  const report = transformReport(model);
  const text = format === 'json' ? toJson(report)
    : format === 'latex' ? formatLatex(model.system, report)
      : format === 'js' ? `// ${report.model}: generated by deltastep (slots: y = [${model.stateNames.join(', ')}], d = [${model.discreteNames.join(', ')}], p = [${model.paramNames.join(', ')}])\n${model.source}\n`
        : formatText(report);
  emit(text, flags.out);
  return EXIT.ok;
}

export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('deltastep')
    .description('Simulate models with point abstractions: Dirac deltas become steps and exact events.')
    .version(`deltastep ${VERSION}`)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

  program.command('transform <file>')
    .description('print the transformed first-order system')
    .addOption(new Option('--format <FORMAT>', 'text, latex, json or js').default(undefined))
    .option('--out <PATH>', 'write to a file')
    .action((file: string, flags: { format?: string; out?: string }) => setExit(runTransform(file, flags)));

  addSharedFlags(program.command('simulate <file>').description('integrate the model; print or write the trajectory'))
    .option('--variables <LIST>', 'comma-separated columns to plot (default: all)')
    .action(async (file: string, flags: SharedFlags & { variables?: string }) => setExit(await runSimulate(file, { ...flags, plotVariables: flags.variables })));

  addSharedFlags(program.command('shoot <file>').description('find the unknowns so that the boundary conditions hold, then simulate'))
    .option('--jacobian <KIND>', 'broyden (default: fewest shots) or central (central differences at every iteration)')
    .action(async (file: string, flags: SharedFlags & { jacobian?: string }) => setExit(await runShoot(file, flags)));

  registerBatchCommands(program, { addSharedFlags, loadModel, setExit });
  return program;
}

export async function main(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram((c) => { code = c; });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    return reportError(err);
  }
}

export function reportError(err: unknown): number {
  if (err instanceof CommanderError) {
    // help and version are "errors" to commander; they exit 0
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
    return EXIT.usage;
  }
  if (err instanceof ModelError) { process.stderr.write(`${err.message}\n`); return EXIT.model; }
  if (err instanceof CliError || err instanceof SimulationInputError) { process.stderr.write(`deltastep: ${err.message}\n`); return EXIT.usage; }
  if (err instanceof ShootInputError) { process.stderr.write(`deltastep: ${err.message}\n`); return EXIT.model; }
  process.stderr.write(`deltastep: internal error: ${err instanceof Error ? err.message : String(err)}\nPlease report this with the model that caused it.\n`);
  return EXIT.numerics;
}

// Run only as the entry point, not when imported by tests.
function invokedDirectly(): boolean {
  // npx and npm's bin links reach this file through a symlink named `deltastep`
  try { return !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url)); } catch { return false; }
}
if (invokedDirectly()) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => { process.exitCode = reportError(err); });
}

