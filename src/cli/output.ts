/**
 * Writing results: stdout or --out, JSON, CSV and small aligned tables for a person.
 * A failed run's partial results are written like any other.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { EventRecord, SimulationResult, SimulationSink } from '../driver/index.js';
import { StreamOut } from './out-file.js';
import { removeTemporary, temporaryDir } from './temporary.js';

export { emit, StreamOut } from './out-file.js';

export function toJson(value: unknown): string {
  return JSON.stringify(value, null, 1);
}

function csvCell(v: unknown): string {
  const s = typeof v === 'number' ? String(v) : String(v ?? '');
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV line of cells (quoted where a cell needs it). */
export function csvLine(cells: readonly unknown[]): string {
  return cells.map(csvCell).join(',');
}

export function toCsv(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [columns.map(csvCell).join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\n') + '\n';
}

/** A plain aligned table. */
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? formatValue(c) : c)))];
  const widths = header.map((_, j) => Math.max(...cells.map((r) => String(r[j] ?? '').length)));
  return cells
    .map((r) =>
      r
        .map((c, j) => String(c ?? '').padEnd(widths[j]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * An aligned table written as its rows come: the widths are those of the first rows (up to
 * WIDTH_ROWS, held until then), later rows are padded to them (a wider value only shifts its
 * own line). A table of up to WIDTH_ROWS rows is exactly {@link table}'s.
 */
export class StreamTable {
  static readonly WIDTH_ROWS = 1000;
  private held: string[][] | null = [];
  private widths: number[] = [];

  constructor(
    private readonly out: StreamOut,
    private readonly header: string[],
  ) {}

  row(cells: (string | number)[]): void {
    const text = cells.map((c) => (typeof c === 'number' ? formatValue(c) : c));
    if (this.held) {
      this.held.push(text);
      if (this.held.length >= StreamTable.WIDTH_ROWS) this.release();
    } else this.write(text);
  }

  private release(): void {
    const held = this.held ?? [];
    this.held = null;
    this.widths = this.header.map((h, j) => held.reduce((w, r) => Math.max(w, (r[j] ?? '').length), h.length));
    this.write(this.header);
    for (const r of held) this.write(r);
  }

  private write(cells: string[]): void {
    this.out.write(
      `${cells
        .map((c, j) => c.padEnd(this.widths[j] ?? 0))
        .join('  ')
        .trimEnd()}\n`,
    );
  }

  /** Writes what is still held (the whole table when it had fewer than WIDTH_ROWS rows). */
  end(): void {
    if (this.held) this.release();
  }
}

export const jsonNumber = (v: number): string => (Number.isFinite(v) ? String(v) : 'null');

export function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (v !== 0 && (Math.abs(v) < 1e-4 || Math.abs(v) >= 1e7)) return v.toExponential(10);
  return String(Number(v.toPrecision(12)));
}

/** What a person sees of a run: status, the impulse ledger and the final values. */
export function simulationText(r: SimulationResult): string {
  const lines: string[] = [];
  lines.push(`${r.model}: ${r.status}${r.message ? ` - ${r.message}` : ''}`);
  if (r.accumulationPoint !== undefined)
    lines.push(`accumulation point: ${r.independent} = ${formatValue(r.accumulationPoint)}`);
  const method = r.stats.switches
    ? `, method auto: ${r.stats.switches} switch(es) between dopri5 and an implicit method (rodas, radau5), ${r.stats.method} at the end`
    : '';
  lines.push(
    r.stats.method === 'analytic'
      ? `analytic: every part in closed form, ${r.stats.events} events at the roots of their functions, no steps`
      : `${r.stats.steps} steps (${r.stats.rejected} rejected), ${r.stats.rhsEvaluations} right-hand-side evaluations, ${r.stats.events} events${method}`,
  );
  if (r.events.length) {
    lines.push('', 'events');
    const shown = r.events.length > 40 ? [...r.events.slice(0, 20), null, ...r.events.slice(-20)] : r.events;
    lines.push(
      table(
        [r.independent, 'event', 'jumps'],
        shown.map((e) =>
          e === null
            ? ['...', `(${r.events.length - 40} more)`, '']
            : [
                e.t,
                e.name,
                Object.entries(e.jumps)
                  .map(([k, v]) => `${k} ${v >= 0 ? '+' : ''}${formatValue(v)}`)
                  .join(', '),
              ],
        ),
      ),
    );
  }
  lines.push('', 'final values');
  lines.push(
    table(
      ['variable', 'value'],
      Object.entries(r.final).map(([k, v]) => [k, v]),
    ),
  );
  return lines.join('\n') + '\n';
}

/** A record of numbers as JSON.stringify writes it (keys in its order: for-in's on an own, plain record). */
function valuesJson(v: Readonly<Record<string, number>>): string {
  let s = '{';
  for (const k in v) s += `${s.length > 1 ? ',' : ''}${JSON.stringify(k)}:${jsonNumber(v[k])}`;
  return `${s}}`;
}

/**
 * A ledger line, the text JSON.stringify gives (its fields, in order): written by hand, since
 * stringify's generic walk of every record was the largest part of writing a run of 6582
 * impacts.
 */
function eventJson(r: EventRecord): string {
  return `{"t":${jsonNumber(r.t)},"name":${JSON.stringify(r.name)},"kind":${JSON.stringify(r.kind)},"source":${JSON.stringify(r.source)},"pre":${valuesJson(r.pre)},"post":${valuesJson(r.post)},"jumps":${valuesJson(r.jumps)}}`;
}

/**
 * The JSON of simulate (CLI.md) written as the run goes: the header keys first, each row as
 * it is produced, then status, ledger, final values and counters. The ledger goes to a
 * temporary file while the rows stream (its records carry every output twice) and is copied
 * in at the end; nothing of the run is kept in memory unless `keep` asks for it (a plot).
 */
export class JsonRunWriter implements SimulationSink {
  private firstRow = true;
  private readonly events: EventRecord[] = [];
  private readonly ledgerDir: string;
  private readonly ledgerPath: string;
  private readonly ledger: StreamOut;
  private ledgerCount = 0;

  constructor(
    private readonly out: StreamOut,
    private readonly indent: string,
    head: { model: string; independent: string; columns: readonly string[] },
    private readonly keep: number[][] | null,
  ) {
    out.write(
      `{\n${indent} "model": ${JSON.stringify(head.model)},\n${indent} "independent": ${JSON.stringify(head.independent)},\n${indent} "columns": ${JSON.stringify(head.columns)},\n${indent} "rows": [`,
    );
    this.ledgerDir = temporaryDir('ledger');
    this.ledgerPath = join(this.ledgerDir, 'events.json');
    this.ledger = new StreamOut(this.ledgerPath, "the ledger's temporary file");
  }

  row(row: ArrayLike<number>): void {
    let line = this.firstRow ? '\n' : ',\n';
    this.firstRow = false;
    line += `${this.indent}  [`;
    for (let i = 0; i < row.length; i++) line += (i > 0 ? ', ' : '') + jsonNumber(row[i]);
    this.out.write(`${line}]`);
    if (this.keep) this.keep.push(Array.from(row));
  }

  event(record: EventRecord): void {
    this.ledger.write(`${this.ledgerCount++ > 0 ? ',\n' : '\n'}${this.indent}  ${eventJson(record)}`);
    if (this.keep) this.events.push(record);
  }

  /** The rest of the object, once the run is over; returns the ledger kept for a plot. */
  finish(r: SimulationResult): EventRecord[] {
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
    this.ledger.close();
    // the ledger, copied in pieces
    const fd = openSync(this.ledgerPath, 'r');
    const chunk = Buffer.alloc(1 << 16);
    const decoder = new TextDecoder('utf-8');
    try {
      // (streaming decode: a character may straddle two chunks)
      for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0;)
        this.out.write(decoder.decode(chunk.subarray(0, n), { stream: true }));
      this.out.write(decoder.decode());
    } finally {
      closeSync(fd);
      removeTemporary(this.ledgerDir);
    }
    this.out.write(`${this.ledgerCount > 0 ? `\n${i} ` : ''}],\n${lines(tail)}\n${i}}`);
    return this.events;
  }
}

/** CSV rows as they come (with a run number first when there are several runs). */
export class CsvRunWriter implements SimulationSink {
  readonly events: EventRecord[] = [];
  constructor(
    private readonly out: StreamOut,
    private readonly run: number | null,
    private readonly keep: number[][] | null,
  ) {}

  row(row: ArrayLike<number>): void {
    let line = this.run === null ? '' : `${this.run},`;
    for (let i = 0; i < row.length; i++) line += (i > 0 ? ',' : '') + String(row[i]);
    this.out.write(`${line}\n`);
    if (this.keep) this.keep.push(Array.from(row));
  }

  event(record: EventRecord): void {
    this.events.push(record);
  }
}
