/**
 * `deltastep simulate`: run the model (once per --init) and write the trajectory as it is
 * produced (JSON, CSV) or the run's summary (text), and a plot of the first run.
 */
import type { SimulationResult } from '../driver/index.js';
import { Simulator } from '../analytic/index.js';
import type { Expr } from '../expression/ast.js';
import { ModelError } from '../expression/errors.js';
import { evaluate } from '../expression/evaluate.js';
import { references } from '../expression/expr.js';
import { parseExpression, splitExpressionList } from '../language/parser.js';
import { didYouMean } from '../expression/suggest.js';
import { CliError, EXIT, checkRunOptions, formatFlag, initRuns, simulateOptions, type SharedFlags } from './options.js';
import { CsvRunWriter, JsonRunWriter, StreamOut, csvLine, emit, simulationText } from './output.js';
import { OutputError } from './out-file.js';
import { startRunProgress } from './progress.js';
import { loadModel } from './commands.js';

function exitFor(r: SimulationResult): number {
  return r.status === 'failed' ? EXIT.numerics : r.status === 'zeno' ? EXIT.zeno : EXIT.ok;
}

export async function runSimulate(file: string, flags: SharedFlags & { plotVariables?: string }): Promise<number> {
  const format = formatFlag(flags, ['text', 'json', 'csv'], 'text');
  const base = simulateOptions(flags);
  const model = await loadModel(file, base.set);
  for (const init of initRuns(flags)) checkRunOptions(model, { ...base, init });
  // a bad --variables entry is an error before the run, not after its output
  if (flags.plot) plotSeries(flags.plotVariables, [model.system.independent, ...model.outputNames]);
  const simulator = new Simulator(model);
  const inits = initRuns(flags);
  // the first run's rows, for a plot (the output itself never keeps them)
  const plotRows: number[][] | null = flags.plot ? [] : null;
  const runs: SimulationResult[] = [];
  // a progress bar on a terminal for a run longer than a second
  const sys = model.system;
  const from =
    base.from ??
    (sys.range.from
      ? model.parametersExpr(sys.range.from, model.parameters(base.set as Map<string, number> | undefined))
      : 0);
  const to =
    base.to ??
    (sys.range.to
      ? model.parametersExpr(sys.range.to, model.parameters(base.set as Map<string, number> | undefined))
      : NaN);
  const bar = Number.isFinite(to) ? await startRunProgress(from, to, `simulate ${sys.model}`, flags.quiet) : null;
  if (bar) base.progress = (t) => bar.update(t);
  if (format === 'text') {
    // the text shows the ledger and the final values, not rows
    for (const init of inits)
      runs.push(simulator.run({ ...base, init, record: plotRows !== null && runs.length === 0 }));
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
          const writer = new JsonRunWriter(
            out,
            many ? ' ' : '',
            { model: model.system.model, independent: model.system.independent, columns },
            i === 0 ? plotRows : null,
          );
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
  bar?.stop();
  delete base.progress;
  const gridAsked = base.outputStep !== undefined || base.eventsOnly === true;
  if (flags.plot)
    await plotRuns(
      runs,
      flags.plot,
      flags.plotVariables,
      gridAsked
        ? undefined
        : (outputStep, to) => simulator.run({ ...base, init: inits[0], outputStep, to, record: true }),
    );
  for (const r of runs) {
    for (const w of r.warnings) process.stderr.write(`${file}: warning: ${w}\n`);
    if (r.status === 'failed' || r.status === 'zeno') process.stderr.write(`${file}: ${r.message}\n`);
  }
  return Math.max(...runs.map(exitFor));
}

/**
 * The plot of the first run. `dense` runs it again with rows every `outputStep` up to `to`
 * (the part of the range the plot shows), so that curves follow the dense output instead of
 * chords between solver steps; without it (the rows were asked for on a grid) the rows are
 * drawn as they are.
 */
export async function plotRuns(
  runs: SimulationResult[],
  path: string,
  variables: string | undefined,
  dense?: (outputStep: number, to: number) => SimulationResult,
): Promise<void> {
  const { renderTrajectoryHtml, renderTrajectoryPlot, timeWindow, writePlot } = await import('./plot.js');
  let r = runs[0];
  const plotted = plotSeries(variables, r.columns);
  const window = timeWindow(r.rows, r.events);
  if (dense && r.rows.length > 1) {
    const t0 = r.rows[0][0];
    if (window.end > t0) {
      const again = dense((window.end - t0) / 800, window.end);
      if (again.rows.length > 1) r = { ...r, rows: again.rows, events: again.events };
    }
  }
  const { columns, rows } = withDerivedColumns(r.columns, r.rows, plotted);
  const tLast = r.rows.length > 0 ? r.rows[r.rows.length - 1][0] : NaN;
  const notes =
    r.status === 'ok'
      ? []
      : [`stopped at ${r.independent} = ${Number(tLast.toPrecision(8))} (${r.status}): ${firstClause(r.message)}`];
  const input = {
    title: r.model,
    independent: r.independent,
    columns,
    rows,
    series: plotted.map((p) => p.label),
    events: r.events,
    window,
    notes,
  };
  const svg = path.toLowerCase().endsWith('.html')
    ? await renderTrajectoryHtml(input)
    : await renderTrajectoryPlot(input);
  try {
    await writePlot(svg, path);
  } catch (err) {
    if (err instanceof OutputError) throw err;
    throw new CliError((err as Error).message);
  }
}

/** The message up to its first colon or line end, short enough for a subtitle. */
function firstClause(message: string | null): string {
  const m = (message ?? '').split('\n')[0].split(': ')[0];
  return m.length > 80 ? `${m.slice(0, 77)}...` : m;
}

/** A plotted series: a column as it is, or an expression of the columns (`0.5*m*v^2`). */
interface PlotSeries {
  label: string;
  column: number;
  expr: Expr | null;
}

/**
 * Reads `--variables`: entries separated by commas outside parentheses; each one a column or
 * an expression whose names are all columns (`pi` aside). A name that is neither is a
 * CliError naming it, with a did-you-mean; so is bad syntax, with a caret in the flag's text.
 */
function plotSeries(variables: string | undefined, allColumns: readonly string[]): PlotSeries[] {
  const names = allColumns.slice(1);
  if (!variables) return names.map((label, k) => ({ label, column: k + 1, expr: null }));
  return splitTopLevel(variables).map((text) => {
    const column = allColumns.indexOf(text);
    if (column > 0) return { label: text, column, expr: null };
    let expr: Expr;
    try {
      expr = parseExpression(text, '--variables');
    } catch (err) {
      if (!(err instanceof ModelError)) throw err;
      throw new CliError(
        `--variables ${text}: ${err.what} at column ${err.column}\n  ${err.sourceLine}\n  ${' '.repeat(err.column - 1)}^\n${err.hint}`,
      );
    }
    for (const key of references(expr)) {
      if (key === 'pi' || allColumns.includes(key)) continue;
      throw new CliError(
        `--variables ${text}: '${key}' is not a column${didYouMean(key, names)}; the columns are ${names.join(', ')}`,
      );
    }
    return { label: text, column: -1, expr };
  });
}

function splitTopLevel(text: string): string[] {
  const out = splitExpressionList(text);
  if (out.some((p) => p === ''))
    throw new CliError(`--variables ${text}: an empty entry; write names or expressions separated by commas`);
  return out;
}

/** The rows with one more column per plotted expression, evaluated row by row after the run. */
function withDerivedColumns(
  columns: string[],
  rows: number[][],
  plotted: readonly PlotSeries[],
): { columns: string[]; rows: number[][] } {
  const derived = plotted.filter((p) => p.expr !== null);
  if (derived.length === 0) return { columns, rows };
  const index = new Map(columns.map((c, k) => [c, k]));
  let row: number[] = [];
  const lookup = (key: string) => {
    const k = index.get(key);
    return k === undefined ? undefined : row[k];
  };
  const out = rows.map((r) => {
    row = r;
    return [...r, ...derived.map((p) => evaluate(p.expr!, lookup))];
  });
  return { columns: [...columns, ...derived.map((p) => p.label)], rows: out };
}
