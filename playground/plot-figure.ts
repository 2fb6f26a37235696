/**
 * What makes the page's plot a figure that stands on its own: its style inside the SVG (so
 * that the downloaded file looks as the page does, fonts included), its texts (a title, the
 * axes' titles from the series' names and units, as the command line's plots name them), a
 * legend in each panel, in its emptiest corner, and the SVG as a file.
 */
import { namesWithUnits } from '../src/cli/plot-units.js';
import { px, py, type Frame } from './plot-geometry.js';
import type { RunData } from './run-data.js';

const SVG = 'http://www.w3.org/2000/svg';
const SANS =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', 'Liberation Sans', 'DejaVu Sans', sans-serif";
const MONO = "ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', 'DejaVu Sans Mono', monospace";

/** The plot's style: inside the SVG, so that the page and the downloaded file draw alike. */
export const PLOT_STYLE = `
.plot-svg { font-family: ${SANS}; }
.plot-background { fill: #fff; }
.plot-grid { stroke: #eef0f3; }
.plot-zero { stroke: #c7cbd1; }
.plot-frame { fill: none; stroke: #d1d5db; }
.plot-tick { font-size: 11.5px; fill: #4b5563; font-variant-numeric: tabular-nums; }
.plot-title { font-size: 12.5px; fill: #374151; font-family: ${MONO}; }
.plot-heading { font-size: 15px; font-weight: 600; fill: #111827; }
.plot-empty { fill: #9ca3af; font-size: 14px; }
.plot-event, .plot-key-event { stroke-width: 1; stroke-dasharray: 3 3; opacity: 0.55; }
.plot-event.dense { stroke-dasharray: none; opacity: 0.18; }
.plot-key rect { fill: #fff; fill-opacity: 0.88; stroke: #e5e7eb; }
.plot-key text { font-size: 12px; fill: #1f2937; font-family: ${MONO}; }
.plot-crosshair { stroke: #9ca3af; stroke-dasharray: 2 2; }
.plot-zoom { fill: rgba(37, 99, 235, 0.1); stroke: rgba(37, 99, 235, 0.5); }
`;

export function el<K extends keyof SVGElementTagNameMap>(
  name: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** About how wide a text of the plot is (no measuring: the plot may be drawn while hidden). */
export const textWidth = (text: string, fontSize: number, mono = false) =>
  text.length * fontSize * (mono ? 0.61 : 0.58);

/**
 * A y axis's title from the names it draws, with their units (`x1', x2' (m/s)`), shortened
 * to what fits in `room` pixels of height (`x1', x2', ...`).
 */
export function axisTitle(names: readonly string[], units: ReadonlyMap<string, string>, room: number): string {
  const named = namesWithUnits(names, units);
  const fits = (s: string) => textWidth(s, 12.5, true) <= room;
  if (fits(named.join(', '))) return named.join(', ');
  let shown = named[0] ?? '';
  for (const n of named.slice(1)) {
    if (!fits(`${shown}, ${n}, …`)) break;
    shown = `${shown}, ${n}`;
  }
  return `${shown}, …`;
}

/** The left margin: room for the widest tick label and the y axis's title beside it. */
export function leftMargin(tickLabels: readonly string[]): number {
  const widest = Math.max(0, ...tickLabels.map((t) => textWidth(t, 11.5)));
  return Math.max(54, Math.ceil(widest) + 8 + 30);
}

/** An entry of a panel's legend: a series (a line) or an event (a marker and a dashed rule). */
export interface KeyEntry {
  name: string;
  colour: string;
  event: boolean;
}

const KEY_ROW = 17,
  KEY_PAD = 6;

/**
 * A panel's legend in the corner of its frame where the least of its data is drawn (rows of
 * `columns` against `xi`); in columns when it is taller than the frame.
 */
export function drawKey(
  svg: SVGSVGElement,
  f: Frame,
  entries: readonly KeyEntry[],
  d: RunData,
  xi: number,
  columns: readonly number[],
): void {
  if (entries.length === 0) return;
  const perColumn = Math.max(1, Math.floor((f.height - 2 * KEY_PAD - 8) / KEY_ROW));
  const cols = Math.ceil(entries.length / perColumn);
  const colWidth = 26 + Math.max(...entries.map((e) => textWidth(e.name, 12, true))) + 10;
  const w = cols * colWidth + 2 * KEY_PAD - 10,
    h = Math.min(entries.length, perColumn) * KEY_ROW + 2 * KEY_PAD - 4;
  const m = 8;
  const corners = [
    { x: f.left + f.width - w - m, y: f.top + m },
    { x: f.left + m, y: f.top + m },
    { x: f.left + f.width - w - m, y: f.top + f.height - h - m },
    { x: f.left + m, y: f.top + f.height - h - m },
  ];
  const crowd = corners.map((c) => pointsIn(d, xi, columns, f, c.x, c.y, w, h));
  const at = corners[crowd.indexOf(Math.min(...crowd))];
  const g = el('g', { class: 'plot-key', transform: `translate(${at.x.toFixed(1)},${at.y.toFixed(1)})` });
  g.append(el('rect', { x: 0, y: 0, width: w, height: h, rx: 4 }));
  entries.forEach((e, i) => {
    const x = KEY_PAD + Math.floor(i / perColumn) * colWidth,
      y = KEY_PAD + (i % perColumn) * KEY_ROW + KEY_ROW / 2 - 2;
    if (e.event) {
      g.append(el('line', { x1: x + 9, x2: x + 9, y1: y - 6, y2: y + 7, stroke: e.colour, class: 'plot-key-event' }));
      g.append(el('path', { d: `M${x + 5},${y - 6}L${x + 13},${y - 6}L${x + 9},${y}Z`, fill: e.colour }));
    } else g.append(el('line', { x1: x, x2: x + 18, y1: y, y2: y, stroke: e.colour, 'stroke-width': 2.2 }));
    g.append(el('text', { x: x + 24, y: y + 4 }, e.name));
  });
  svg.append(g);
}

/** How many drawn rows (at most about 4000 looked at) fall in a rectangle of the frame. */
function pointsIn(
  d: RunData,
  xi: number,
  columns: readonly number[],
  f: Frame,
  x: number,
  y: number,
  w: number,
  h: number,
): number {
  const every = Math.max(1, Math.floor(d.rowCount / 4000));
  let n = 0;
  d.forEachChunk((chunk, count, first) => {
    for (let r = (every - (first % every)) % every; r < count; r += every) {
      const X = px(f, chunk[r * d.width + xi]);
      if (X < x || X > x + w) continue;
      for (const j of columns) {
        const Y = py(f, chunk[r * d.width + j]);
        if (Y >= y && Y <= y + h) n++;
      }
    }
  });
  return n;
}

/**
 * The plot as an SVG file: what the page draws, without the pointer's crosshair and the zoom
 * band, with its style and size inside, so that it opens in a browser as the page showed it.
 */
export function svgDocument(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  for (const e of copy.querySelectorAll('.plot-cursor, .plot-zoom')) e.remove();
  copy.setAttribute('xmlns', SVG);
  copy.removeAttribute('style');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}
