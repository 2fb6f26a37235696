/**
 * The run as files, in the command line's formats (docs/cli.md): CSV (a header of the columns,
 * one line per row) and the JSON of `simulate --format json` (or of `shoot`, with the solution
 * inside). A run the user stopped is a complete document with status `interrupted`, as the
 * command line writes one on SIGINT. And the share link: the model and the plot's look in the
 * address.
 */
import { figureHash, type FigureText } from './figure.js';
import type { RunData } from './run-data.js';

export type ValueRecordLike = Record<string, number>;

function csvCell(s: string): string {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(d: RunData): string {
  const lines = [d.columns.map(csvCell).join(',')];
  d.forEachChunk((chunk, count) => {
    for (let r = 0; r < count; r++) {
      const cells: string[] = [];
      for (let j = 0; j < d.width; j++) cells.push(String(chunk[r * d.width + j]));
      lines.push(cells.join(','));
    }
  });
  return lines.join('\n') + '\n';
}

function rowsOf(d: RunData): number[][] {
  const rows: number[][] = [];
  d.forEachChunk((chunk, count) => {
    for (let r = 0; r < count; r++) rows.push(Array.from(chunk.subarray(r * d.width, (r + 1) * d.width)));
  });
  return rows;
}

/** The simulate document; for a stopped run, its final values are its last row. */
function simulateDocument(d: RunData): Record<string, unknown> {
  const rows = rowsOf(d);
  const s = d.summary;
  const last = rows.at(-1) ?? [];
  const final = s?.final ?? Object.fromEntries(d.columns.map((c, j) => [c, last[j]]));
  const doc: Record<string, unknown> = {
    model: s?.model ?? null,
    independent: d.independent,
    status: d.state === 'running' ? 'interrupted' : d.state,
    message: s ? s.message : d.note,
  };
  if (s?.accumulationPoint !== undefined) doc.accumulationPoint = s.accumulationPoint;
  Object.assign(doc, { columns: d.columns, rows, events: d.events, final });
  if (s) Object.assign(doc, { stats: s.stats, warnings: s.warnings });
  if (s?.contacts) doc.contacts = s.contacts;
  if (d.rowsDropped > 0) doc.rowsDropped = d.rowsDropped;
  return doc;
}

export function toJson(d: RunData): string {
  const doc = d.shoot ? { ...d.shoot, solution: d.summary ? simulateDocument(d) : null } : simulateDocument(d);
  return JSON.stringify(doc, null, 1) + '\n';
}

export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The page's address with the model in its fragment (`#model=` and the URL-encoded text), and
 * the plot's look after it (`&title=...`, the fields that are set: figure.ts).
 */
export function shareUrl(text: string, figure: FigureText = {}): string {
  return `${location.href.replace(/#.*$/, '')}#model=${encodeURIComponent(text)}${figureHash(figure)}`;
}

/** The model of an address's fragment, or null when it has none. */
export function modelFromHash(hash: string): string | null {
  const m = /^#?(?:.*&)?model=([^&]*)/.exec(hash);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}
