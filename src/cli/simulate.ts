/**
 * `deltastep simulate`: run the model (once per --init) and write the trajectory as it is
 * produced (JSON, CSV) or the run's summary (text), and a plot of the first run.
 */
import { Interrupted } from '../batch/index.js';
import type { SimulateOptions, SimulationResult } from '../driver/index.js';
import { Simulator } from '../analytic/index.js';
import { EXIT, checkRunOptions, formatFlag, initRuns, simulateOptions, type SharedFlags } from './options.js';
import { csvLine, emit, simulationText } from './output.js';
import { OutputError, StreamOut } from './out-file.js';
import { CsvRunWriter, JsonRunWriter, RunTap, TextLedger, type RunEnd } from './run-writers.js';
import { interruptedText, signalExit, signalsReady, watchSignals } from './signals.js';
import { readFifoNow } from './model-text.js';
import { plotLook, plotSeries, TrajectoryCollector, type PlotLookFlags } from './trajectory-data.js';
import { drawTrajectory } from './trajectory-plot.js';
import { startRunProgress } from './progress.js';
import { loadModel } from './commands.js';
import { escapeText } from '../expression/terminal-text.js';

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

export async function runSimulate(
  file: string,
  flags: SharedFlags & PlotLookFlags & { plotVariables?: string },
): Promise<number> {
  // (a FIFO first: it waits for its writer, and until the signals are watched Ctrl-C ends that wait)
  readFifoNow(file);
  const interrupt = watchSignals();
  const format = formatFlag(flags, ['text', 'json', 'csv'], 'text');
  const base = simulateOptions(flags);
  const model = await loadModel(file, base.set);
  for (const init of initRuns(flags)) checkRunOptions(model, { ...base, init });
  const simulator = new Simulator(model);
  const inits = initRuns(flags);
  const sys = model.system;
  const columns = [sys.independent, ...model.outputNames];
  const params = model.parameters(base.set as Map<string, number> | undefined);
  const from = base.from ?? (sys.range.from ? model.parametersExpr(sys.range.from, params) : 0);
  const to = base.to ?? (sys.range.to ? model.parametersExpr(sys.range.to, params) : NaN);
  // a bad --variables entry is an error before the run, not after its output; what the plot
  // keeps of the first run is bounded, whatever its length (trajectory-data.ts)
  const look = plotLook(flags, file);
  const plotted = flags.plot ? plotSeries(flags.plotVariables, columns) : null;
  const plot = plotted
    ? new TrajectoryCollector(columns, plotted, from, Number.isFinite(to) ? to : from, look.width)
    : null;
  // a progress bar on a terminal for a run longer than a second
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
      const first = i === 0 && plot !== null;
      const ledger = format === 'text' ? new TextLedger() : null;
      json =
        format === 'json'
          ? new JsonRunWriter(out!, many ? ' ' : '', { model: sys.model, independent: sys.independent, columns })
          : null;
      const writer = ledger ?? json ?? new CsvRunWriter(out!, many ? i + 1 : null);
      // the text has no rows (unless for a plot); CSV no ledger values
      const record = format !== 'text' || first;
      const tap = new RunTap(first ? [writer, plot!] : [writer], interrupt, columns, record);
      const r = runOne(simulator, {
        ...base,
        init: inits[i],
        sink: tap,
        record,
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
    bar?.stop();
    // an output that failed: the plot of what was computed is still drawn where it can be
    if (err instanceof OutputError && plot && plot.rows > 0)
      await drawTrajectory(
        plot,
        { model: sys.model, independent: sys.independent, status: 'stopped', message: err.message },
        flags.plot!,
        look,
      ).catch(() => undefined);
    throw err;
  }
  bar?.stop();
  // (a signal the run could not see, during its start-up: the document is whole, the code says it)
  signal ||= Atomics.load(interrupt, 0);
  if (signal) {
    const where = Number.isFinite(at) ? ` at ${sys.independent} = ${at}` : '';
    process.stderr.write(
      `deltastep: ${interruptedText(signal)}${where}; ${flags.out === undefined ? 'the output' : escapeText(flags.out)} holds what was computed (status interrupted)\n`,
    );
    // the plot of what the first run computed (not run again: the signal asked to stop)
    if (plot && plot.rows > 0) {
      const run = runs[0] ?? {
        model: sys.model,
        independent: sys.independent,
        status: 'interrupted',
        message: `${interruptedText(signal)}${where}`,
      };
      await drawTrajectory(plot, run, flags.plot!, look).catch((err: unknown) => {
        process.stderr.write(`deltastep: ${escapeText(err instanceof Error ? err.message : String(err))}\n`);
      });
    }
    return signalExit(signal);
  }
  const gridAsked = base.outputStep !== undefined || base.eventsOnly === true || base.outputTimes !== undefined;
  if (plot && plotted) {
    // the first run again over the plot's window, rows on a fine grid, into a new collector
    const again = (outputStep: number, end: number) => {
      // (outputStep 0: a row per step)
      const dense = new TrajectoryCollector(columns, plotted, plot.t0, end, look.width);
      const tap = new RunTap([dense], interrupt, columns);
      const grid = outputStep > 0 ? { outputStep } : {};
      // (a signal now: the plot is drawn from the rows kept, the document being whole already)
      if (runOne(simulator, { ...base, ...grid, init: inits[0], to: end, record: true, eventValues: false, sink: tap }))
        return dense;
      return new TrajectoryCollector(columns, plotted, plot.t0, end, look.width);
    };
    // (several --init: the first run is drawn, and the subtitle says so rather than pass it off as all of them)
    const drawn = many
      ? { ...runs[0], note: `run 1 of ${inits.length} (the first --init); the others are not drawn` }
      : runs[0];
    await drawTrajectory(plot, drawn, flags.plot!, look, gridAsked ? undefined : again);
  }
  for (const r of runs) {
    for (const w of r.warnings) process.stderr.write(`${escapeText(file)}: warning: ${w}\n`);
    if (r.status === 'failed' || r.status === 'zeno') process.stderr.write(`${escapeText(file)}: ${r.message}\n`);
  }
  // (a failure outranks an accumulation, as in a batch: the larger code, 4, said "zeno, the
  // rows are good" for a set of runs one of which failed)
  const codes = runs.map(exitFor);
  return codes.includes(EXIT.numerics) ? EXIT.numerics : Math.max(...codes);
}
