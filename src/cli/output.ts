/**
 * Writing results: stdout or --out, JSON, CSV and small aligned tables for a person.
 * A failed run's partial results are written like any other.
 */
import { writeFileSync } from 'node:fs';
import type { SimulationResult } from '../numeric/simulate.js';
import { CliError } from './options.js';

export function emit(text: string, out: string | undefined): void {
  if (!out) { process.stdout.write(text.endsWith('\n') ? text : `${text}\n`); return; }
  try {
    writeFileSync(out, text.endsWith('\n') ? text : `${text}\n`);
  } catch (err) {
    throw new CliError(`cannot write --out ${out}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'the directory does not exist' : (err as Error).message}`);
  }
}

export function toJson(value: unknown): string {
  return JSON.stringify(value, null, 1);
}

function csvCell(v: unknown): string {
  const s = typeof v === 'number' ? String(v) : String(v ?? '');
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [columns.map(csvCell).join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\n') + '\n';
}

/** A plain aligned table. */
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? formatValue(c) : c)))];
  const widths = header.map((_, j) => Math.max(...cells.map((r) => String(r[j] ?? '').length)));
  return cells.map((r) => r.map((c, j) => String(c ?? '').padEnd(widths[j])).join('  ').trimEnd()).join('\n');
}

export function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (v !== 0 && (Math.abs(v) < 1e-4 || Math.abs(v) >= 1e7)) return v.toExponential(10);
  return String(Number(v.toPrecision(12)));
}

/** What a person sees of a run: status, the impulse ledger and the final values. */
export function simulationText(r: SimulationResult): string {
  const lines: string[] = [];
  lines.push(`${r.model}: ${r.status}${r.message ? ` - ${r.message}` : ''}`);
  if (r.accumulationPoint !== undefined) lines.push(`accumulation point: ${r.independent} = ${formatValue(r.accumulationPoint)}`);
  lines.push(`${r.stats.steps} steps (${r.stats.rejected} rejected), ${r.stats.rhsEvaluations} right-hand-side evaluations, ${r.stats.events} events`);
  if (r.events.length) {
    lines.push('', 'events');
    const shown = r.events.length > 40 ? [...r.events.slice(0, 20), null, ...r.events.slice(-20)] : r.events;
    lines.push(table([r.independent, 'event', 'jumps'], shown.map((e) => e === null
      ? ['...', `(${r.events.length - 40} more)`, '']
      : [e.t, e.name, Object.entries(e.jumps).map(([k, v]) => `${k} ${v >= 0 ? '+' : ''}${formatValue(v)}`).join(', ')])));
  }
  lines.push('', 'final values');
  lines.push(table(['variable', 'value'], Object.entries(r.final).map(([k, v]) => [k, v])));
  return lines.join('\n') + '\n';
}
