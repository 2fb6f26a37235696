/**
 * What `sweep` (and `merge` of sweep shards) writes, as the runs come in order: JSON, CSV or
 * an aligned table, each run with its status, then the count of runs by status; a plot of the
 * reported values against the parameter. Memory does not grow with the runs: the JSON's lists
 * that follow its rows (statuses, failures, run indices) wait in temporary files, a plot keeps
 * a bounded reduction of each series.
 */
import { RUN_STATUSES, signalName, type BatchStatus } from '../batch/index.js';
import type { ChunkConsumer, ChunkView } from '../batch/pool.js';
import type { BatchDoc, OutputFlags } from './batch-settings.js';
import { COMPLETED, StatusTally } from './batch-status.js';
import { csvLine, jsonNumber, StreamTable } from './output.js';
import { OutputError, StreamOut } from './out-file.js';
import { PLOT_WIDTH, SeriesReducer } from './plot-reduce.js';
import { Spool } from './spool.js';

/** The keys that make a shard's document mergeable: which slice, and the settings of the batch. */
export function shardJson(doc: BatchDoc, indent: string): string {
  if (!doc.shard) return '';
  const shard = { k: doc.shard.k, n: doc.shard.n, indices: [doc.first, doc.first + doc.count - 1] };
  return `,\n${indent}"shard": ${JSON.stringify(shard)},\n${indent}"settings": ${JSON.stringify(doc.settings)}`;
}

/** How a batch document ends when a signal stopped it: JSON key, CSV comment, text line. */
export function interruptedNote(signal: number, done: number, total: number): string {
  return `interrupted by ${signalName(signal)} after ${done} of ${total} runs`;
}

export class SweepWriter implements ChunkConsumer {
  private readonly out: StreamOut;
  private readonly tally: StatusTally;
  /** JSON: the lists written after the rows */
  private readonly status: Spool | null;
  private readonly index: Spool | null;
  private readonly failures: Spool | null;
  private readonly table: StreamTable | null;
  private readonly plot: SeriesReducer[] | null;
  private rows = 0;
  /** runs that reached the end (drawn) and those that did not (said in the plot) */
  private notDrawn = 0;
  /** points of completed runs that the plot cannot draw: not finite, or at or below 0 on a log axis */
  private notFinite = 0;
  private offLog = 0;
  /** the output failed (a full disk): the batch goes on for the plot, then this is thrown */
  private outError: OutputError | null = null;

  constructor(
    private readonly doc: BatchDoc,
    private readonly output: OutputFlags,
  ) {
    const s = doc.settings;
    this.tally = new StatusTally(s.names);
    this.out = new StreamOut(output.out);
    const columns = [s.names[0], ...s.report];
    const json = output.format === 'json';
    this.status = json ? new Spool('statuses') : null;
    this.index = json && doc.shard ? new Spool('indices') : null;
    this.failures = json ? new Spool('failures') : null;
    this.table = output.format === 'text' ? new StreamTable(this.out, [...columns, 'status']) : null;
    if (output.format === 'json')
      this.out.write(
        `{\n "parameter": ${JSON.stringify(s.names[0])},\n "columns": ${JSON.stringify(columns)},\n "rows": [`,
      );
    else if (output.format === 'csv') this.out.write(`${csvLine([...columns, 'status'])}\n`);
    if (output.plot) {
      const v = s.vary!;
      const lo = Math.min(v.from, v.to),
        hi = Math.max(v.from, v.to);
      this.plot = s.report.map(() => new SeriesReducer(lo, hi, 2 * (output.look.width ?? PLOT_WIDTH)));
    } else this.plot = null;
  }

  chunk(view: ChunkView): void {
    const nr = this.doc.settings.report.length;
    for (let k = 0; k < view.runs; k++) {
      const code = view.status[k];
      if (code === 0) continue;
      const status = RUN_STATUSES[code - 1];
      const index = this.doc.first + view.first + k;
      const x = view.parameters[k];
      const values = view.values.subarray(k * nr, (k + 1) * nr);
      // (an ok run's message is its warnings, if any)
      const message = view.message(k);
      this.tally.add(index, view.parameters.subarray(k, k + 1), status, message);
      if (!this.outError) this.keepOutput(() => this.row(index, x, values, status, message));
      if (this.plot) {
        const drawn = COMPLETED.includes(status);
        if (!drawn) this.notDrawn++;
        this.plot.forEach((series, j) => series.add(x, drawn ? values[j] : NaN));
        // (a value the plot leaves out is counted, so that its subtitle can say so)
        if (drawn)
          for (const y of values)
            if (!Number.isFinite(y)) this.notFinite++;
            else if ((this.output.logX && x <= 0) || (this.output.logY && y <= 0)) this.offLog++;
      }
    }
  }

  /**
   * Writes to the output; if that fails and a plot was asked for, the runs go on for the plot,
   * as montecarlo's go on for its summary (the error is thrown at the end, after the plot).
   */
  private keepOutput(write: () => void): void {
    try {
      write();
    } catch (err) {
      if (!(err instanceof OutputError) || !this.plot) throw err;
      this.outError = err;
      this.out.abandon();
      for (const spool of [this.status, this.index, this.failures]) spool?.discard();
    }
  }

  private row(index: number, x: number, values: Float64Array, status: BatchStatus, message: string | null): void {
    if (this.status) {
      let line = `${this.rows > 0 ? ',' : ''}\n  [${jsonNumber(x)}`;
      for (let j = 0; j < values.length; j++) line += `, ${jsonNumber(values[j])}`;
      this.out.write(`${line}]`);
      this.status.write(`${this.rows > 0 ? ',' : ''}${JSON.stringify(status)}`);
      this.index?.write(`${this.rows > 0 ? ',' : ''}${index}`);
      if (status === 'failed')
        this.failures!.write(
          `${this.failures!.count > 0 ? ',' : ''}\n  {"index": ${index}, "message": ${JSON.stringify(message)}}`,
        );
    } else if (this.table) this.table.row([x, ...values, status]);
    else this.out.write(`${csvLine([x, ...values, status])}\n`);
    this.rows++;
  }

  /** Ends the document (`signal`: the signal that interrupted the batch, or 0) and gives the exit code. */
  async finish(signal: number): Promise<number> {
    const note = signal ? interruptedNote(signal, this.tally.runs, this.doc.count) : '';
    if (!this.outError) this.keepOutput(() => this.end(signal, note));
    // (the plot of what was computed, whether the output or a signal cut the batch short)
    if (this.plot && this.output.plot) await this.drawPlot(note);
    const code = this.tally.exit();
    if (this.outError) throw this.outError;
    return code;
  }

  /** The end of the document. */
  private end(signal: number, note: string): void {
    const doc = this.doc;
    if (this.status) {
      this.out.write(`${this.rows > 0 ? '\n ' : ''}],\n "status": [`);
      this.status.copyInto(this.out);
      this.out.write(`],\n "runs": ${JSON.stringify(this.tally.json())}`);
      if (this.failures!.count > 0) {
        this.out.write(',\n "failures": [');
        this.failures!.copyInto(this.out);
        this.out.write('\n ]');
      } else this.failures!.discard();
      if (this.index) {
        // (the run of each row: an interrupted shard may leave some out)
        this.out.write(',\n "index": [');
        this.index.copyInto(this.out);
        this.out.write(']');
      }
      this.out.write(shardJson(doc, ' '));
      if (signal) this.out.write(`,\n "interrupted": ${JSON.stringify(note)}`);
      this.out.write('\n}\n');
    } else {
      // (the text ends with the count of runs by status; CSV stays plain rows, with a comment
      // line only to mark a document that a signal cut short)
      if (this.table) {
        this.table.end();
        this.out.write(`\n${this.tally.summary()}\n`);
        if (signal) this.out.write(`${note}\n`);
      } else if (signal) this.out.write(`# ${note}\n`);
    }
    this.out.close();
  }

  /** After an error: no file of ours left half-written, no temporary file left. */
  abandon(): void {
    this.out.abandon();
    for (const spool of [this.status, this.index, this.failures]) spool?.discard();
  }

  /** `note`: how a signal cut the batch short, or '' */
  private async drawPlot(note: string): Promise<void> {
    const s = this.doc.settings;
    const series = s.report.map((name, j) => ({
      name,
      points: this.plot![j].points().map((p): [number, number] => [p.x, p.y]),
    }));
    const logY = this.output.logY ?? spansDecades(series.map((x) => x.points.map((p) => p[1])));
    const { renderXYPlot } = await import('./plot.js');
    const { savePlot } = await import('./batch-output.js');
    const notes = [
      note,
      this.notDrawn > 0
        ? `${this.notDrawn} of ${this.tally.runs} runs did not reach the end (${this.tally.summary()}): not drawn`
        : '',
      this.notFinite > 0 ? `${this.notFinite} reported value(s) not finite: not drawn` : '',
      this.offLog > 0 ? `${this.offLog} point(s) at or below 0 on a log axis: not drawn` : '',
    ].filter((n) => n !== '');
    const svg = await renderXYPlot({
      title: `${s.model}: ${s.report.join(', ')} against ${s.names[0]}`,
      subtitle: notes.length > 0 ? notes.join('; ') : undefined,
      xLabel: s.names[0],
      series,
      logX: this.output.logX ?? false,
      logY,
      look: this.output.look,
    });
    await savePlot(svg, this.output.plot!);
  }
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
