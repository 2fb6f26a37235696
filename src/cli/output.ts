/**
 * Writing results: stdout or --out, JSON, CSV and small aligned tables for a person.
 * A failed run's partial results are written like any other.
 */
import type { SimulationResult } from '../driver/index.js';
import type { StreamOut } from './out-file.js';
import { maxOf } from '../expression/extremes.js';

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
  const widths = header.map((_, j) => maxOf(cells.map((r) => String(r[j] ?? '').length)));
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
export function simulationText(r: SimulationResult, events = r.events.length): string {
  const lines: string[] = [];
  lines.push(`${r.model}: ${r.status}${r.message ? ` - ${r.message}` : ''}`);
  if (r.accumulationPoint !== undefined)
    lines.push(`accumulation point: ${r.independent} = ${formatValue(r.accumulationPoint)}`);
  const method = r.stats.switches
    ? `, method auto: ${r.stats.switches} switch(es) between dopri5 and an implicit method (rodas, radau5), ${r.stats.method} at the end`
    : '';
  // (an interrupted run has no counters: the stepper's were not read)
  lines.push(
    (r.status as string) === 'interrupted'
      ? `${events} events before the interruption`
      : r.stats.method === 'analytic'
        ? `analytic: every part in closed form, ${r.stats.events} events at the roots of their functions, no steps`
        : `${r.stats.steps} steps (${r.stats.rejected} rejected), ${r.stats.rhsEvaluations} right-hand-side evaluations, ${r.stats.events} events${method}`,
  );
  if (r.events.length) {
    // the first 20 and the last 20 (r.events may hold only those: TextLedger)
    lines.push('', 'events');
    const shown = events > 40 ? [...r.events.slice(0, 20), null, ...r.events.slice(-20)] : r.events;
    lines.push(
      table(
        [r.independent, 'event', 'jumps'],
        shown.map((e) =>
          e === null
            ? ['...', `(${events - 40} more)`, '']
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
  if (Object.keys(r.final).length === 0) lines.push('(none: the run was interrupted before its end)');
  else
    lines.push(
      table(
        ['variable', 'value'],
        Object.entries(r.final).map(([k, v]) => [k, v]),
      ),
    );
  return lines.join('\n') + '\n';
}
