/**
 * What receives a simulate run's rows and ledger entries as they are produced (SimulationSink):
 * the JSON and CSV writers, the bounded ledger of the text output, and the tap in front of them
 * that sees a signal and remembers where the run is. Memory does not grow with the run: rows
 * go out as they come, the JSON ledger waits in a temporary file (spool.ts), the text keeps
 * the first and last 20 events.
 */
import { checkInterrupt, type InterruptFlag } from '../batch/index.js';
import type { EventRecord, SimulationResult, SimulationSink, ValueRecord } from '../driver/index.js';
import { jsonNumber } from './output.js';
import type { StreamOut } from './out-file.js';
import { Spool } from './spool.js';

/**
 * Each output name, event name, kind and source as a JSON string, written once: a run's
 * records repeat the same few (a row of 1024 spheres: 1025 events, 6582 ledger entries).
 */
const QUOTED = new Map<string, string>();

function quoted(k: string): string {
  let s = QUOTED.get(k);
  if (s === undefined) {
    s = JSON.stringify(k);
    if (QUOTED.size < 1 << 16) QUOTED.set(k, s);
  }
  return s;
}

/** A record of numbers as JSON.stringify writes it (keys in its order: for-in's on an own, plain record). */
function valuesJson(v: Readonly<Record<string, number>>): string {
  let s = '{';
  for (const k in v) s += `${s.length > 1 ? ',' : ''}${quoted(k)}:${jsonNumber(v[k])}`;
  return `${s}}`;
}

/**
 * A ledger line, the text JSON.stringify gives (its fields, in order): written by hand, since
 * stringify's generic walk of every record was the largest part of writing a run of 6582
 * impacts.
 */
function eventJson(r: EventRecord): string {
  return `{"t":${jsonNumber(r.t)},"name":${quoted(r.name)},"kind":${quoted(r.kind)},"source":${quoted(r.source)},"pre":${valuesJson(r.pre)},"post":${valuesJson(r.post)},"jumps":${valuesJson(r.jumps)}}`;
}

/** How a run ended, as the writers put it: a run's result, or what an interrupted run knows. */
export type RunEnd = Pick<SimulationResult, 'final' | 'message' | 'accumulationPoint' | 'contacts'> & {
  status: SimulationResult['status'] | 'interrupted';
  warnings: string[];
  stats: SimulationResult['stats'] | { events: number; steps: null; rejected: null; rhsEvaluations: null };
};

/**
 * The JSON of simulate (CLI.md) written as the run goes: the header keys first, each row as
 * it is produced, then status, ledger, final values and counters. The ledger waits in a
 * temporary file while the rows stream (its records carry every output twice) and is copied
 * in at the end.
 */
export class JsonRunWriter implements SimulationSink {
  private firstRow = true;
  private readonly ledger = new Spool('ledger');

  constructor(
    private readonly out: StreamOut,
    private readonly indent: string,
    head: { model: string; independent: string; columns: readonly string[] },
  ) {
    out.write(
      `{\n${indent} "model": ${JSON.stringify(head.model)},\n${indent} "independent": ${JSON.stringify(head.independent)},\n${indent} "columns": ${JSON.stringify(head.columns)},\n${indent} "rows": [`,
    );
  }

  row(row: ArrayLike<number>): void {
    let line = this.firstRow ? '\n' : ',\n';
    this.firstRow = false;
    line += `${this.indent}  [`;
    for (let i = 0; i < row.length; i++) line += (i > 0 ? ', ' : '') + jsonNumber(row[i]);
    this.out.write(`${line}]`);
  }

  event(record: EventRecord): void {
    this.ledger.write(`${this.ledger.count > 0 ? ',\n' : '\n'}${this.indent}  ${eventJson(record)}`);
  }

  /** The rest of the object, once the run is over (or interrupted). */
  finish(r: RunEnd): void {
    const i = this.indent;
    const head: Record<string, unknown> = { status: r.status, message: r.message, warnings: r.warnings };
    if (r.accumulationPoint !== undefined) head.accumulationPoint = r.accumulationPoint;
    const tail: Record<string, unknown> = { final: r.final, stats: r.stats };
    if (r.contacts) tail.contacts = r.contacts;
    const lines = (o: Record<string, unknown>) =>
      Object.entries(o)
        .map(([k, v]) => `${i} ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
        .join(',\n');
    this.out.write(`${this.firstRow ? '' : `\n${i} `}],\n${lines(head)},\n${i} "events": [`);
    const entries = this.ledger.count;
    this.ledger.copyInto(this.out);
    this.out.write(`${entries > 0 ? `\n${i} ` : ''}],\n${lines(tail)}\n${i}}`);
  }

  discard(): void {
    this.ledger.discard();
  }
}

/** CSV rows as they come (with a run number first when there are several runs); no ledger. */
export class CsvRunWriter implements SimulationSink {
  constructor(
    private readonly out: StreamOut,
    private readonly run: number | null,
  ) {}

  row(row: ArrayLike<number>): void {
    let line = this.run === null ? '' : `${this.run},`;
    for (let i = 0; i < row.length; i++) line += (i > 0 ? ',' : '') + String(row[i]);
    this.out.write(`${line}\n`);
  }
}

/** The events the text shows: the first 20 and the last 20, and how many there were. */
export class TextLedger implements SimulationSink {
  readonly first: EventRecord[] = [];
  private readonly last: EventRecord[] = [];
  private next = 0;
  count = 0;

  row(): void {
    /* the text has no rows */
  }

  event(record: EventRecord): void {
    this.count++;
    if (this.first.length < 20) {
      this.first.push(record);
      return;
    }
    // a ring of the last 20
    if (this.last.length < 20) this.last.push(record);
    else this.last[this.next] = record;
    this.next = (this.next + 1) % 20;
  }

  /** The kept events in order: all of them when there were at most 40. */
  shown(): EventRecord[] {
    const last = this.last.length < 20 ? this.last : [...this.last.slice(this.next), ...this.last.slice(0, this.next)];
    return [...this.first, ...last];
  }
}

/**
 * In front of a run's sinks: passes rows and ledger entries on to each, reads the interrupt
 * flag at each (a signal throws Interrupted out of the run), and remembers the last row and
 * the latest time, which is what an interrupted run can still say.
 */
export class RunTap implements SimulationSink {
  private lastRow: Float64Array | null = null;
  /**
   * A ledger entry went out and the row after its event has not: a signal waits for that row,
   * so that an interrupted document ends with the state its ledger's last entry left, and its
   * `final` (the last row) agrees with its `events`.
   */
  private afterEvent = false;
  /** the latest time the run reached that the tap has seen */
  t = NaN;
  events = 0;

  /** `rows`: whether the run writes rows (the text output without a plot writes none) */
  constructor(
    private readonly sinks: SimulationSink[],
    private readonly interrupt: InterruptFlag | undefined,
    private readonly columns: readonly string[],
    private readonly rows = true,
  ) {}

  row(row: ArrayLike<number>): void {
    if (this.afterEvent) this.afterEvent = false;
    else checkInterrupt(this.interrupt);
    this.lastRow ??= new Float64Array(row.length);
    this.lastRow.set(row as ArrayLike<number>);
    this.t = row[0];
    for (const s of this.sinks) s.row(row);
  }

  event(record: EventRecord): void {
    // (events at one instant go out together, before their row)
    if (!this.afterEvent) checkInterrupt(this.interrupt);
    this.events++;
    this.t = record.t;
    for (const s of this.sinks) s.event?.(record);
    this.afterEvent = this.rows;
  }

  /** For the run's progress callback: the time, and a look at the flag (not between an event and its row). */
  progress(t: number): void {
    this.t = t;
    if (!this.afterEvent) checkInterrupt(this.interrupt);
  }

  /** The last row as final values (empty when the run wrote none). */
  final(): ValueRecord {
    const out: ValueRecord = {};
    if (this.lastRow)
      this.columns.forEach((c, k) =>
        Object.defineProperty(out, c, { value: this.lastRow![k], enumerable: true, writable: true }),
      );
    return out;
  }
}
