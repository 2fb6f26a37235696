/**
 * `deltastep simulate`: run the model (once per --init) and write the trajectory as it is
 * produced (JSON, CSV) or the run's summary (text), and a plot of the first run.
 */
import { Interrupted } from '../batch/index.js';
import type { EventRecord, SimulateOptions, SimulationResult, SimulationSink } from '../driver/index.js';
import { Simulator } from '../analytic/index.js';
import type { Expr } from '../expression/ast.js';
import { ModelError } from '../expression/errors.js';
import { evaluate } from '../expression/evaluate.js';
import { references } from '../expression/expr.js';
import { parseExpression, splitExpressionList } from '../language/parser.js';
import { didYouMean } from '../expression/suggest.js';
import { CliError, EXIT, checkRunOptions, formatFlag, initRuns, simulateOptions, type SharedFlags } from './options.js';
import { csvLine, emit, simulationText } from './output.js';
import { OutputError, StreamOut } from './out-file.js';
import { CsvRunWriter, JsonRunWriter, RunTap, TextLedger, type RunEnd } from './run-writers.js';
import { interruptedText, signalExit, signalsReady, watchSignals } from './signals.js';
import { startRunProgress } from './progress.js';
import { loadModel } from './commands.js';

function exitFor(r: SimulationResult): number {
  return r.status === 'failed' ? EXIT.numerics : r.status === 'zeno' ? EXIT.zeno : EXIT.ok;
}

/** One run through its tap: the result, or null when a signal stopped it (the tap knows where). */
function runOne(simulator: Simulator, options: SimulateOptions): SimulationResult | null {
  try {
    return simulator.run(options);
  } catch (err) {
    if (err instanceof Interrupted) return null;
    throw err;
  }
}

/** What an interrupted run can still say: where it was, its last row, how many events. */
function interruptedEnd(tap: RunTap, signal: number, independent: string): RunEnd {
  return {
    status: 'interrupted',
    message: `${interruptedText(signal)} ${Number.isFinite(tap.t) ? `at ${independent} = ${tap.t}` : 'before its first step'}`,
    warnings: [],
    final: tap.final(),
    stats: { steps: null, rejected: null, rhsEvaluations: null, events: tap.events },
  };
}

export async function runSimulate(file: string, flags: SharedFlags & { plotVariables?: string }): Promise<number> {
  const interrupt = watchSignals();
  const format = formatFlag(flags, ['text', 'json', 'csv'], 'text');
  const base = simulateOptions(flags);
  const model = await loadModel(file, base.set);
  for (const init of initRuns(flags)) checkRunOptions(model, { ...base, init });
  // a bad --variables entry is an error before the run, not after its output
  if (flags.plot) plotSeries(flags.plotVariables, [model.system.independent, ...model.outputNames]);
  const simulator = new Simulator(model);
  const inits = initRuns(flags);
  const sys = model.system;
  const columns = [sys.independent, ...model.outputNames];
  // the first run's rows, for a plot (the output itself never keeps them)
  const plotRows: number[][] | null = flags.plot ? [] : null;
  const plotSink: SimulationSink | null = plotRows ? { row: (r) => plotRows.push(Array.from(r)) } : null;
  const plotEvents: EventRecord[] = [];
  // a progress bar on a terminal for a run longer than a second
  const params = model.parameters(base.set as Map<string, number> | undefined);
  const from = base.from ?? (sys.range.from ? model.parametersExpr(sys.range.from, params) : 0);
  const to = base.to ?? (sys.range.to ? model.parametersExpr(sys.range.to, params) : NaN);
  const bar = Number.isFinite(to) ? await startRunProgress(from, to, `simulate ${sys.model}`, flags.quiet) : null;

  await signalsReady();
  const runs: SimulationResult[] = [];
  const texts: string[] = [];
  const many = inits.length > 1;
  // Rows stream to the output as they are produced: memory does not grow with the run.
  const out = format === 'text' ? null : new StreamOut(flags.out);
  let json: JsonRunWriter | null = null;
  let signal = 0,
    at = NaN;
  try {
    if (format === 'json' && many) out!.write('{"runs": [\n');
    if (format === 'csv') out!.write(`${csvLine(many ? ['run', ...columns] : columns)}\n`);
    for (let i = 0; i < inits.length && signal === 0; i++) {
      const first = i === 0 && plotSink !== null;
      const ledger = format === 'text' ? new TextLedger() : null;
      json =
        format === 'json'
          ? new JsonRunWriter(out!, many ? ' ' : '', { model: sys.model, independent: sys.independent, columns })
          : null;
      const writer = ledger ?? json ?? new CsvRunWriter(out!, many ? i + 1 : null);
      const events: SimulationSink = { row: () => undefined, event: (e) => plotEvents.push(e) };
      const tap = new RunTap([writer, ...(first ? [plotSink!, events] : [])], interrupt, columns);
      const r = runOne(simulator, {
        ...base,
        init: inits[i],
        sink: tap,
        // the text has no rows (unless for a plot); CSV no ledger values
        record: format !== 'text' || first,
        eventValues: format !== 'csv' || first,
        progress: (t) => {
          bar?.update(t);
          tap.progress(t);
        },
      });
      signal = r === null ? Atomics.load(interrupt, 0) : 0;
      at = tap.t;
      const end: RunEnd = r ?? interruptedEnd(tap, signal, sys.independent);
      if (r) runs.push(r);
      if (json) {
        json.finish(end);
        json = null;
        out!.write(many && i < inits.length - 1 && signal === 0 ? ',\n' : '\n');
      } else if (ledger) {
        const shown = { ...(r ?? ({ model: sys.model, independent: sys.independent } as SimulationResult)), ...end };
        texts.push(simulationText({ ...shown, events: ledger.shown() } as SimulationResult, ledger.count));
      } else if (signal) out!.write(`# ${end.message}\n`);
    }
    if (format === 'json' && many) out!.write(']}\n');
    if (out) out.close();
    else emit(texts.join('\n'), flags.out);
  } catch (err) {
    json?.discard();
    out?.abandon();
    throw err;
  } finally {
    bar?.stop();
  }
  // (a signal the run could not see, during its start-up: the document is whole, the code says it)
  signal ||= Atomics.load(interrupt, 0);
  if (signal) {
    const where = Number.isFinite(at) ? ` at ${sys.independent} = ${at}` : '';
    process.stderr.write(
      `deltastep: ${interruptedText(signal)}${where}; ${flags.out ?? 'the output'} holds what was computed (status interrupted)\n`,
    );
    return signalExit(signal);
  }
  const gridAsked = base.outputStep !== undefined || base.eventsOnly === true;
  if (flags.plot) {
    const shown = { ...runs[0], rows: plotRows!, events: plotEvents };
    await plotRuns(
      [shown],
      flags.plot,
      flags.plotVariables,
      gridAsked
        ? undefined
        : (outputStep, to) => simulator.run({ ...base, init: inits[0], outputStep, to, record: true }),
    );
  }
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
