/**
 * What `montecarlo` (and `merge` of its shards) writes, as the samples come in order: the
 * samples (parameters, reported values and status of each run) to --out, CSV or JSON by its
 * extension (or, for a shard without --out, in its JSON on stdout), and at the end the
 * statistics on stdout. Statistics are streaming accumulators (statistics.ts) over the runs
 * whose status --stats-over names (by default the runs that reached their end: ok, stopped);
 * the histogram is a bounded reduction (StreamHistogram). Memory does not grow with the runs.
 */
import {
  RUN_STATUSES,
  StatisticsAccumulator,
  type BatchStatus,
  type Distribution,
  type Statistics,
} from '../batch/index.js';
import type { ChunkConsumer, ChunkView } from '../batch/pool.js';
import type { BatchDoc, OutputFlags } from './batch-settings.js';
import { StatusTally } from './batch-status.js';
import { csvLine, formatValue, jsonNumber, StreamTable } from './output.js';
import { OutputError, StreamOut } from './out-file.js';
import { StreamHistogram } from './plot-reduce.js';
import { Spool } from './spool.js';
import { interruptedNote, shardJson } from './sweep-writer.js';

export class MonteCarloWriter implements ChunkConsumer {
  private readonly tally: StatusTally;
  private readonly stats: StatisticsAccumulator[];
  private readonly statsOver: readonly BatchStatus[];
  /** where the samples go: a CSV or JSON file, stdout (a shard's JSON without --out), or nowhere */
  private samples: StreamOut | null;
  /** the samples' file failed (a full disk): the batch goes on for the summary, then this is thrown */
  private samplesError: OutputError | null = null;
  private readonly samplesJson: boolean;
  /** a shard's JSON without --out: the samples and the summary in one document on stdout */
  private readonly samplesOnStdout: boolean;
  private readonly failures: Spool | null;
  private readonly histogram: StreamHistogram | null;
  private rows = 0;

  constructor(
    private readonly doc: BatchDoc,
    private readonly output: OutputFlags,
  ) {
    const s = doc.settings;
    this.tally = new StatusTally(s.names);
    this.stats = s.report.map(() => new StatisticsAccumulator());
    this.statsOver = (s.statsOver ?? ['ok', 'stopped']) as BatchStatus[];
    const onStdout = output.format === 'json' && doc.shard !== undefined && !output.out;
    this.samplesOnStdout = onStdout;
    this.samplesJson = onStdout || (output.out?.toLowerCase().endsWith('.json') ?? false);
    this.samples = output.out ? new StreamOut(output.out) : onStdout ? new StreamOut(undefined) : null;
    this.failures = output.format === 'json' || this.samplesJson ? new Spool('failures') : null;
    this.histogram = output.plot ? new StreamHistogram() : null;
    const columns = ['sample', ...s.names, ...s.report, 'status'];
    if (this.samples)
      this.samples.write(
        this.samplesJson ? `{\n "columns": ${JSON.stringify(columns)},\n "rows": [` : `${csvLine(columns)}\n`,
      );
  }

  chunk(view: ChunkView): void {
    const m = this.doc.settings.names.length,
      nr = this.doc.settings.report.length;
    for (let k = 0; k < view.runs; k++) {
      const code = view.status[k];
      if (code === 0) continue;
      const status = RUN_STATUSES[code - 1];
      const index = this.doc.first + view.first + k;
      const parameters = view.parameters.subarray(k * m, (k + 1) * m);
      const values = view.values.subarray(k * nr, (k + 1) * nr);
      // (an ok run's message is its warnings, if any)
      const message = view.message(k);
      this.tally.add(index, parameters, status, message);
      if (this.statsOver.includes(status)) {
        for (let j = 0; j < nr; j++) this.stats[j].add(values[j]);
        this.histogram?.add(values[0]);
      }
      if (status === 'failed' && this.failures)
        this.failures.write(
          `${this.failures.count > 0 ? ',' : ''}\n  {"index": ${index}, "message": ${JSON.stringify(message)}}`,
        );
      if (this.samples) this.keepSamples(() => this.sample(index, parameters, values, status));
    }
  }

  /** Writes to the samples' file; if that fails, the summary is still computed and printed. */
  private keepSamples(write: () => void): void {
    try {
      write();
    } catch (err) {
      if (!(err instanceof OutputError) || !this.output.out) throw err;
      this.samplesError = err;
      this.samples!.abandon();
      this.samples = null;
    }
  }

  private sample(index: number, parameters: Float64Array, values: Float64Array, status: BatchStatus): void {
    if (!this.samplesJson) {
      this.samples!.write(`${csvLine([index, ...parameters, ...values, status])}\n`);
      return;
    }
    let line = `${this.rows++ > 0 ? ',' : ''}\n  [${index}`;
    for (let j = 0; j < parameters.length; j++) line += `, ${jsonNumber(parameters[j])}`;
    for (let j = 0; j < values.length; j++) line += `, ${jsonNumber(values[j])}`;
    this.samples!.write(`${line}, ${JSON.stringify(status)}]`);
  }

  /** The summary's keys as JSON lines (at one level of indent), failures included. */
  private summaryJson(
    out: StreamOut,
    statistics: Record<string, Statistics>,
    note: string,
    keepFailures: boolean,
  ): void {
    const s = this.doc.settings;
    const keys: [string, unknown][] = [
      ['samples', this.tally.runs],
      ['seed', s.seed],
      ['parameters', (s.samples ?? []).map((p) => ({ name: p.name, ...p.distribution }))],
      ['report', statistics],
      ['runs', this.tally.json()],
      ['statsOver', this.statsOver],
    ];
    out.write(keys.map(([k, v]) => ` ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n'));
    if (this.failures && this.failures.count > 0) {
      out.write(',\n "failures": [');
      this.failures.copyInto(out, keepFailures);
      out.write('\n ]');
    }
    out.write(shardJson(this.doc, ' '));
    if (note) out.write(`,\n "interrupted": ${JSON.stringify(note)}`);
  }

  /** Ends the documents (`signal`: the signal that interrupted the batch, or 0) and gives the exit code. */
  async finish(signal: number): Promise<number> {
    const s = this.doc.settings;
    const note = signal ? interruptedNote(signal, this.tally.runs, this.doc.count) : '';
    const statistics = Object.create(null) as Record<string, Statistics>;
    s.report.forEach((label, j) => (statistics[label] = this.stats[j].result()));
    const summaryToStdout = !this.samplesOnStdout;
    const samples = this.samples;
    if (samples)
      this.keepSamples(() => {
        if (this.samplesJson) {
          samples.write(`${this.rows > 0 ? '\n ' : ''}],\n`);
          this.summaryJson(samples, statistics, note, summaryToStdout);
          samples.write('\n}\n');
        } else if (note) samples.write(`# ${note}\n`);
        samples.close();
      });
    // (a summary that cannot be written, stdout full, still leaves the histogram drawn)
    let summaryError: unknown = null;
    if (summaryToStdout) {
      const out = new StreamOut(undefined);
      try {
        if (this.output.format === 'json') {
          out.write('{\n');
          this.summaryJson(out, statistics, note, false);
          out.write('\n}\n');
        } else this.summaryTable(out, statistics, note);
        out.close();
      } catch (err) {
        if (!(err instanceof OutputError)) throw err;
        summaryError = err;
      }
    }
    this.failures?.discard();
    // (the histogram of the runs done, marked, when a signal cut the batch short)
    if (this.histogram && this.output.plot) await this.drawHistogram(statistics, note);
    const code = this.tally.exit();
    if (summaryError) throw summaryError;
    if (this.samplesError) throw this.samplesError;
    return code;
  }

  private summaryTable(out: StreamOut, statistics: Record<string, Statistics>, note: string): void {
    const s = this.doc.settings;
    if (this.output.format === 'csv') {
      out.write(`${csvLine(['report', 'mean', 'sd', 'ci95_low', 'ci95_high', 'min', 'max', 'n'])}\n`);
      for (const r of s.report) {
        const t = statistics[r];
        out.write(`${csvLine([r, t.mean, t.sd, t.ci95[0], t.ci95[1], t.min, t.max, t.n])}\n`);
      }
      if (note) out.write(`# ${note}\n`);
      return;
    }
    const table = new StreamTable(out, ['report', 'mean', 'sd', '95% CI of the mean', 'min', 'max', 'n']);
    for (const r of s.report) {
      const t = statistics[r];
      table.row([r, t.mean, t.sd, `[${formatValue(t.ci95[0])}, ${formatValue(t.ci95[1])}]`, t.min, t.max, t.n]);
    }
    table.end();
    const over = this.statsOver.join(', ');
    out.write(`\n${this.tally.summary()}; the statistics are over the runs with status ${over} (--stats-over)\n`);
    if (note) out.write(`${note}\n`);
  }

  abandon(): void {
    this.samples?.abandon();
    this.failures?.discard();
  }

  /** `note`: how a signal cut the batch short, or '' */
  private async drawHistogram(statistics: Record<string, Statistics>, note: string): Promise<void> {
    const s = this.doc.settings,
      label = s.report[0];
    const { values, weights } = this.histogram!.weighted();
    const n = this.histogram!.n;
    const mean = statistics[label].mean;
    const { renderHistogram } = await import('./plot.js');
    const { savePlot } = await import('./batch-output.js');
    const svg = await renderHistogram({
      title: `${s.model}: ${label} over ${n} samples (${(s.samples ?? []).map((p) => `${p.name} ~ ${describe(p.distribution)}`).join(', ')})`,
      subtitle: note || undefined,
      xLabel: label,
      values,
      weights,
      // about sqrt(n) bins: Sturges' log2(n) + 1 hides the shape of a thousand samples
      bins: Math.min(60, Math.max(10, Math.round(Math.sqrt(n)))),
      markers: Number.isFinite(mean) ? [{ label: `mean ${Number(mean.toPrecision(6))}`, value: mean }] : [],
      look: this.output.look,
    });
    await savePlot(svg, this.output.plot!);
  }
}

function describe(d: Distribution): string {
  return d.kind === 'normal' ? `normal(${d.mean}, ${d.sd})` : `uniform(${d.a}, ${d.b})`;
}
