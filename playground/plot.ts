/**
 * The trajectory plot, drawn as SVG by hand: lines reduced to what each pixel column shows
 * (plot-geometry.ts), so that a million rows draw as fast as a thousand; every event marked
 * on the time axis; a legend that hides and shows series; the values under the pointer; drag
 * to zoom, double-click to zoom out. (vega-lite would add about 760 KB to the page and
 * re-render a streamed run from scratch; this is a few hundred lines.) The SVG is a figure
 * on its own (plot-figure.ts): a title, axis titles and a size the user may choose
 * (figure.ts), a legend in each panel, its style inside; `svgDocument` writes it as a file.
 */
import { withUnit } from '../src/cli/plot-units.js';
import type { FigureDefaults, FigureLook } from './figure.js';
import { axisTitle, drawKey, el, leftMargin, PLOT_STYLE, svgDocument, type KeyEntry } from './plot-figure.js';
import {
  extentOf,
  formatValue,
  isMonotone,
  nearestRow,
  niceTicks,
  padded,
  pathOf,
  px,
  py,
  scaleGroups,
  tickLabel,
  type Frame,
} from './plot-geometry.js';
import type { RunData } from './run-data.js';

export const SERIES_COLOURS = [
  '#2563eb',
  '#ea580c',
  '#16a34a',
  '#dc2626',
  '#7c3aed',
  '#0891b2',
  '#ca8a04',
  '#db2777',
  '#4b5563',
  '#65a30d',
];
const EVENT_COLOURS = ['#9333ea', '#0f766e', '#b45309', '#be185d', '#1e40af', '#4d7c0f'];
/** What the page needs of the plot besides its box: where the window note goes, and the defaults drawn. */
export interface PlotHooks {
  /** the note under the plot (the time window chosen for the run, see eventWindow) */
  note: HTMLElement;
  /** after every drawing: the titles and size the plot chose where the figure sets none */
  drawn?: (defaults: FigureDefaults) => void;
}

export class Plot {
  private data: RunData | null = null;
  private xi = 0;
  private hidden = new Set<string>();
  private domain: [number, number] | null = null;
  /** one frame per panel, top to bottom; they share the x axis */
  private frames: Frame[] = [];
  /** the columns drawn in each frame */
  private panels: number[][] = [];
  /** a time window chosen for the run (see eventWindow), cleared by zooming */
  private window: [number, number] | null = null;
  /** double-clicked: the whole run, even where a window was chosen */
  private showAll = false;
  private monotone = true;
  private pending = false;
  private lastDraw = 0;
  /** how long the last drawing took (ms) */
  private drawCost = 0;
  private drag: { x0: number; rect: SVGRectElement } | null = null;
  private readonly svg: SVGSVGElement;
  private readonly tip: HTMLDivElement;
  private readonly style = el('style', {}, PLOT_STYLE);
  /** the title, axis titles and size the user chose */
  private look: FigureLook = {};
  /** the run's units, by name, from its model's `# units:` comments */
  private units: ReadonlyMap<string, string> = new Map();
  /** the box's size when last seen (a hidden tab's box has none; the plot draws at this one) */
  private boxSize = { width: 800, height: 500 };
  /** how the plot is shown: 1, or smaller when a chosen size is larger than the box */
  private scale = 1;

  constructor(
    private readonly box: HTMLElement,
    private readonly legend: HTMLElement,
    private readonly xSelect: HTMLSelectElement,
    private readonly hooks: PlotHooks,
  ) {
    this.svg = el('svg', { class: 'plot-svg', role: 'img' });
    this.tip = document.createElement('div');
    this.tip.className = 'plot-tip';
    box.append(this.svg, this.tip);
    new ResizeObserver(() => {
      if (box.clientWidth > 0 && box.clientHeight > 0)
        this.boxSize = { width: box.clientWidth, height: box.clientHeight };
      this.update();
    }).observe(box);
    this.svg.addEventListener('mousemove', (e) => this.hover(e));
    this.svg.addEventListener('mouseleave', () => this.hover(null));
    this.svg.addEventListener('mousedown', (e) => this.startDrag(e));
    window.addEventListener('mouseup', (e) => this.endDrag(e));
    this.svg.addEventListener('dblclick', () => {
      this.showAll = true;
      this.zoom(null);
    });
    xSelect.addEventListener('change', () => {
      // (a phase plot leaves the independent variable out: the legend brings it back)
      const independent = this.data?.columns[0];
      if (independent !== undefined && Number(xSelect.value) !== 0) this.hidden.add(independent);
      this.xi = Number(xSelect.value);
      this.domain = null;
      this.update(true);
    });
  }

  /** The title, axis titles and size to draw with (absent fields: the plot's own). */
  setLook(look: FigureLook): void {
    this.look = look;
    this.update();
  }

  /**
   * A new run (its columns may differ: the x axis and hidden series start anew where they do),
   * with the units its model states.
   */
  show(data: RunData | null, units: ReadonlyMap<string, string> = new Map()): void {
    this.units = units;
    const same = this.data && data && this.data.columns.join('\u0000') === data.columns.join('\u0000');
    if (!same) {
      this.xi = 0;
      this.hidden.clear();
      this.domain = null;
      if (data) {
        this.xSelect.replaceChildren(...data.columns.map((c, i) => new Option(c, String(i))));
        // (many series: the first six shown, the others a click away in the legend)
        data.columns.slice(7).forEach((c) => this.hidden.add(c));
      }
    }
    this.data = data;
    this.showAll = false;
    this.update(true);
  }

  /**
   * Draws again at most every 150 ms while a run streams (now, if `now`), and no more than a
   * quarter of the time when drawing gets slow (a million rows), so that the page stays usable.
   */
  update(now = false): void {
    if (this.pending) return;
    const every = Math.max(150, 3 * this.drawCost);
    const wait = now ? 0 : Math.max(0, every - (performance.now() - this.lastDraw));
    this.pending = true;
    setTimeout(
      () =>
        requestAnimationFrame(() => {
          this.pending = false;
          const start = performance.now();
          this.draw();
          this.lastDraw = performance.now();
          this.drawCost = this.lastDraw - start;
        }),
      wait,
    );
  }

  zoom(domain: [number, number] | null): void {
    this.domain = domain;
    this.update(true);
  }

  private visible(): number[] {
    const d = this.data;
    if (!d) return [];
    return d.columns.map((_, j) => j).filter((j) => j !== this.xi && !this.hidden.has(d.columns[j]));
  }

  /** The plot as an SVG file, as drawn now with the figure's look (drawn again first). */
  svgDocument(): string {
    this.draw();
    return svgDocument(this.svg);
  }

  private draw(): void {
    const d = this.data,
      look = this.look;
    const box = {
      width: this.box.clientWidth || this.boxSize.width,
      height: this.box.clientHeight || this.boxSize.height,
    };
    const width = look.width ?? box.width,
      height = look.height ?? box.height;
    this.svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    this.svg.setAttribute('width', String(width));
    this.svg.setAttribute('height', String(height));
    this.svg.setAttribute('aria-label', look.title ?? 'the trajectory plot');
    // (a chosen size larger than the box is shown whole, smaller, as a figure scaled on a page)
    this.scale = Math.min(1, box.width / width, box.height / height);
    this.svg.style.width = `${width * this.scale}px`;
    this.svg.style.height = `${height * this.scale}px`;
    this.svg.replaceChildren(this.style, el('rect', { class: 'plot-background', width, height }));
    this.tip.style.display = 'none';
    this.hooks.note.textContent = '';
    this.drawLegend();
    this.frames = [];
    this.panels = [];
    let top = 18;
    if (look.title) {
      this.svg.append(el('text', { x: 14, y: 24, class: 'plot-heading' }, look.title));
      top += 26;
    }
    const xName = d ? withUnit(d.columns[this.xi], this.units) : '';
    if (!d || d.rowCount === 0 || width < 50 || height < 50) {
      const note = el('text', { x: width / 2, y: height / 2, class: 'plot-empty', 'text-anchor': 'middle' });
      note.textContent = d ? 'no rows yet' : 'Run the model to plot its trajectory';
      this.svg.append(note);
      this.hooks.drawn?.({ xLabel: xName, yLabels: [], width, height });
      return;
    }
    const ys = this.visible();
    this.monotone = isMonotone(d, this.xi);
    const auto = this.xi === 0 && !this.showAll && d.state !== 'running';
    const domain = this.domain ?? (auto ? eventWindow(d) : null);
    this.window = this.domain ? null : domain;
    const ext = extentOf(d, this.xi, ys, domain);
    const x = domain ?? (this.monotone ? padded(ext.x[0], ext.x[1], 0) : padded(ext.x[0], ext.x[1], 0.04));
    const groups = ys.length ? scaleGroups(d, ys, ext) : [{ columns: [], counter: false }];
    // (counters get half a panel's height; panels below 70 px merge into one)
    const gap = 16,
      bottom = 42;
    const weights = groups.map((g) => (g.counter ? 0.5 : 1));
    const unit = (height - top - bottom - gap * (groups.length - 1)) / weights.reduce((a, b) => a + b, 0);
    const panels = unit * 0.5 >= 70 || groups.length === 1 ? groups : [{ columns: ys, counter: false }];
    let at = top;
    for (const g of panels) {
      const h = panels.length === 1 ? height - top - bottom : unit * (g.counter ? 0.5 : 1);
      let lo = Infinity,
        hi = -Infinity;
      for (const j of g.columns) {
        const [a, b] = ext.y.get(j) ?? [0, 0];
        lo = Math.min(lo, a);
        hi = Math.max(hi, b);
      }
      const f: Frame = { left: 0, top: at, width: 0, height: h, x, y: padded(lo, hi, 0.06) };
      if (f.x[1] === f.x[0]) f.x = padded(f.x[0], f.x[1], 0.05);
      this.frames.push(f);
      this.panels.push(g.columns);
      at += h + gap;
    }
    // (the y ticks depend on the panels' heights only: the left margin is made to hold their labels)
    const yTicks = this.frames.map((f) => niceTicks(f.y[0], f.y[1], Math.max(2, Math.floor(f.height / 50))));
    const left = leftMargin(yTicks.flatMap((t, k) => t.ticks.map((v) => this.yLabelAt(k, v, t.step))));
    for (const f of this.frames) Object.assign(f, { left, width: width - left - 18 });
    const yTitles = this.frames.map((f, k) =>
      axisTitle(
        this.panels[k].map((j) => d.columns[j]),
        this.units,
        f.height,
      ),
    );
    this.frames.forEach((f, k) => {
      const last = k === this.frames.length - 1;
      const yLabel = look.yLabels?.length === 1 ? look.yLabels[0] : look.yLabels?.[k];
      this.drawAxes(f, yTicks[k], last ? (look.xLabel ?? xName) : null, yLabel || yTitles[k]);
      this.drawPanel(d, f, this.panels[k]);
    });
    this.frames.forEach((f, k) => drawKey(this.svg, f, this.keyOf(d, k), d, this.xi, this.panels[k]));
    const notes: string[] = [];
    if (this.window)
      notes.push(
        `Shown to ${d.columns[0]} = ${formatValue(this.window[1])}: the events are over; double-click shows the whole run.`,
      );
    if (this.scale < 1)
      notes.push(
        `Shown at ${Math.floor(this.scale * 100)}% of its ${width} × ${height} px; Download SVG writes it whole.`,
      );
    this.hooks.note.textContent = notes.join(' ');
    this.hooks.drawn?.({ xLabel: xName, yLabels: yTitles, width, height });
  }

  /** A y tick's label in panel k. */
  private yLabelAt(k: number, v: number, step: number): string {
    const f = this.frames[k];
    const y = py(f, v);
    return y < f.top - 0.5 || y > f.top + f.height + 0.5 ? '' : tickLabel(v, step);
  }

  /** The legend of panel k: its series when it draws two or more, and the events' names in the first. */
  private keyOf(d: RunData, k: number): KeyEntry[] {
    const columns = this.panels[k];
    const entries: KeyEntry[] =
      columns.length > 1 ? columns.map((j) => ({ name: d.columns[j], colour: colourOf(j), event: false })) : [];
    if (k === 0 && this.xi === 0) {
      const names = [...new Set(d.events.map((e) => e.name))];
      const f = this.frames[0];
      const seen = names.filter((n) => d.events.some((e) => e.name === n && e.t >= f.x[0] && e.t <= f.x[1]));
      for (const n of seen)
        entries.push({ name: n, colour: EVENT_COLOURS[names.indexOf(n) % EVENT_COLOURS.length], event: true });
    }
    return entries;
  }

  private drawPanel(d: RunData, f: Frame, columns: number[]): void {
    const id = `plot-clip-${Math.round(f.top)}`;
    const clip = el('clipPath', { id });
    clip.append(el('rect', { x: f.left, y: f.top, width: f.width, height: f.height }));
    this.svg.append(clip);
    const lines = el('g', { 'clip-path': `url(#${id})` });
    if (this.xi === 0) this.drawEvents(lines, f, d);
    for (const j of columns) {
      lines.append(
        el('path', {
          d: pathOf(d, this.xi, j, f, this.monotone),
          stroke: colourOf(j),
          'stroke-width': 1.7,
          fill: 'none',
          'stroke-linejoin': 'round',
          class: 'plot-line',
          'data-series': d.columns[j],
        }),
      );
    }
    this.svg.append(lines);
  }

  /**
   * Grid, tick labels, frame and y title of one panel; the x tick labels and title under the
   * last (xTitle).
   */
  private drawAxes(f: Frame, yt: { ticks: number[]; step: number }, xTitle: string | null, yTitle: string): void {
    const g = el('g', { class: 'plot-axes' });
    const xt = niceTicks(f.x[0], f.x[1], Math.max(2, Math.floor(f.width / 90)));
    for (const v of yt.ticks) {
      const y = py(f, v);
      if (y < f.top - 0.5 || y > f.top + f.height + 0.5) continue;
      g.append(
        el('line', { x1: f.left, x2: f.left + f.width, y1: y, y2: y, class: v === 0 ? 'plot-zero' : 'plot-grid' }),
      );
      const label = el('text', { x: f.left - 8, y: y + 4, 'text-anchor': 'end', class: 'plot-tick' });
      label.textContent = tickLabel(v, yt.step);
      g.append(label);
    }
    for (const v of xt.ticks) {
      const x = px(f, v);
      if (x < f.left - 0.5 || x > f.left + f.width + 0.5) continue;
      g.append(el('line', { x1: x, x2: x, y1: f.top, y2: f.top + f.height, class: 'plot-grid' }));
      if (xTitle === null) continue;
      const label = el('text', { x, y: f.top + f.height + 17, 'text-anchor': 'middle', class: 'plot-tick' });
      label.textContent = tickLabel(v, xt.step);
      g.append(label);
    }
    g.append(el('rect', { x: f.left, y: f.top, width: f.width, height: f.height, class: 'plot-frame' }));
    const cy = f.top + f.height / 2;
    g.append(
      el(
        'text',
        {
          x: 0,
          y: 0,
          transform: `translate(16,${cy}) rotate(-90)`,
          'text-anchor': 'middle',
          class: 'plot-title plot-ytitle',
        },
        yTitle,
      ),
    );
    if (xTitle !== null)
      g.append(
        el(
          'text',
          {
            x: f.left + f.width / 2,
            y: f.top + f.height + 36,
            'text-anchor': 'middle',
            class: 'plot-title plot-xtitle',
          },
          xTitle,
        ),
      );
    this.svg.append(g);
  }

  /** A dashed rule and a marker at the top for each event in view (one per pixel column and name). */
  private drawEvents(g: SVGGElement, f: Frame, d: RunData): void {
    const names = [...new Set(d.events.map((e) => e.name))];
    const seen = new Set<string>();
    const inView = d.events.filter((e) => e.t >= f.x[0] && e.t <= f.x[1]).length;
    const many = inView > f.width / 12;
    for (const e of d.events) {
      const x = px(f, e.t);
      if (x < f.left - 1 || x > f.left + f.width + 1) continue;
      const key = `${Math.round(x)}:${e.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const colour = EVENT_COLOURS[names.indexOf(e.name) % EVENT_COLOURS.length];
      if (seen.size > 4 * f.width) break;
      g.append(
        el('line', {
          x1: x,
          x2: x,
          y1: f.top,
          y2: f.top + f.height,
          stroke: colour,
          class: many ? 'plot-event dense' : 'plot-event',
        }),
      );
      g.append(
        el('path', {
          d: `M${x - 4},${f.top}L${x + 4},${f.top}L${x},${f.top + 6}Z`,
          fill: colour,
          class: 'plot-event-mark',
        }),
      );
    }
  }

  private drawLegend(): void {
    const d = this.data;
    this.legend.replaceChildren();
    if (!d) return;
    d.columns.forEach((c, j) => {
      if (j === this.xi) return;
      const b = document.createElement('button');
      b.className = `legend-item${this.hidden.has(c) ? ' off' : ''}`;
      b.title = this.hidden.has(c) ? `show ${c}` : `hide ${c}`;
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = colourOf(j);
      b.append(swatch, c);
      b.addEventListener('click', () => {
        if (this.hidden.has(c)) this.hidden.delete(c);
        else this.hidden.add(c);
        this.update(true);
      });
      this.legend.append(b);
    });
    const counts = new Map<string, number>();
    for (const e of d.events) counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
    [...counts].forEach(([name, n], i) => {
      const s = document.createElement('span');
      s.className = 'legend-event';
      const mark = document.createElement('span');
      mark.className = 'event-mark';
      mark.style.borderTopColor = EVENT_COLOURS[i % EVENT_COLOURS.length];
      s.append(mark, `${name} (${n})`);
      if (this.xi !== 0) s.title = 'events are marked when the x axis is the independent variable';
      this.legend.append(s);
    });
  }

  /** The pointer in the plot's own pixels (a plot of a chosen size may be shown smaller). */
  private pointer(e: MouseEvent): { x: number; y: number } {
    const r = this.svg.getBoundingClientRect();
    return { x: (e.clientX - r.left) / this.scale, y: (e.clientY - r.top) / this.scale };
  }

  private hover(e: MouseEvent | null): void {
    this.svg.querySelector('.plot-cursor')?.remove();
    const frames = this.frames,
      d = this.data;
    const f = frames[0],
      last = frames[frames.length - 1];
    if (!e || !f || !d || !this.monotone || this.drag) {
      this.tip.style.display = 'none';
      return;
    }
    const p = this.pointer(e);
    if (p.x < f.left || p.x > f.left + f.width || p.y < f.top || p.y > last.top + last.height) {
      this.tip.style.display = 'none';
      return;
    }
    const xv = f.x[0] + ((p.x - f.left) / f.width) * (f.x[1] - f.x[0]);
    const i = nearestRow(d, this.xi, xv);
    const g = el('g', { class: 'plot-cursor' });
    const x = px(f, d.get(i, this.xi));
    g.append(el('line', { x1: x, x2: x, y1: f.top, y2: last.top + last.height, class: 'plot-crosshair' }));
    const lines = [`<b>${escapeHtml(d.columns[this.xi])} = ${formatValue(d.get(i, this.xi))}</b>`];
    frames.forEach((fr, k) => {
      for (const j of this.panels[k]) {
        const v = d.get(i, j);
        if (Number.isFinite(v) && v >= fr.y[0] && v <= fr.y[1])
          g.append(
            el('circle', { cx: x, cy: py(fr, v), r: 3.5, fill: colourOf(j), stroke: '#fff', 'stroke-width': 1.5 }),
          );
        lines.push(
          `<span class="swatch" style="background:${colourOf(j)}"></span>${escapeHtml(d.columns[j])} = ${formatValue(v)}`,
        );
      }
    });
    if (this.xi === 0) {
      const near = d.events.filter((ev) => Math.abs(px(f, ev.t) - p.x) < 4).slice(0, 3);
      for (const ev of near) lines.push(`event <b>${escapeHtml(ev.name)}</b> at ${formatValue(ev.t)}`);
    }
    this.svg.append(g);
    this.tip.innerHTML = lines.join('<br>');
    this.tip.style.display = 'block';
    // (in the box's pixels: the plot may be shown smaller than its own size)
    const at = { x: p.x * this.scale, y: p.y * this.scale };
    const width = this.box.clientWidth,
      height = this.box.clientHeight;
    const left = at.x + 16 + this.tip.offsetWidth > width ? at.x - 16 - this.tip.offsetWidth : at.x + 16;
    this.tip.style.left = `${left}px`;
    this.tip.style.top = `${Math.max(4, Math.min(at.y - 10, height - this.tip.offsetHeight - 4))}px`;
  }

  private startDrag(e: MouseEvent): void {
    const f = this.frames[0],
      last = this.frames[this.frames.length - 1];
    if (!f || e.button !== 0) return;
    const p = this.pointer(e);
    if (p.x < f.left || p.x > f.left + f.width) return;
    const height = last.top + last.height - f.top;
    const rect = el('rect', { x: p.x, y: f.top, width: 0, height, class: 'plot-zoom' });
    this.svg.append(rect);
    this.drag = { x0: p.x, rect };
    const move = (ev: MouseEvent) => {
      if (!this.drag) return window.removeEventListener('mousemove', move);
      const q = Math.max(f.left, Math.min(f.left + f.width, this.pointer(ev).x));
      rect.setAttribute('x', String(Math.min(q, this.drag.x0)));
      rect.setAttribute('width', String(Math.abs(q - this.drag.x0)));
    };
    window.addEventListener('mousemove', move);
    e.preventDefault();
  }

  private endDrag(e: MouseEvent): void {
    const f = this.frames[0],
      drag = this.drag;
    if (!drag) return;
    this.drag = null;
    drag.rect.remove();
    if (!f) return;
    const x1 = Math.max(f.left, Math.min(f.left + f.width, this.pointer(e).x));
    if (Math.abs(x1 - drag.x0) < 6) return;
    const at = (x: number) => f.x[0] + ((x - f.left) / f.width) * (f.x[1] - f.x[0]);
    this.zoom([at(Math.min(x1, drag.x0)), at(Math.max(x1, drag.x0))]);
  }
}

function colourOf(column: number): string {
  return SERIES_COLOURS[(column + SERIES_COLOURS.length - 1) % SERIES_COLOURS.length];
}

/**
 * The time window of a run whose events all happen in its first tenth and which then goes on
 * unchanged (C12's collisions before t = 20 of a run to 1e6): up to the last event and a
 * quarter more, as the command line's plots do. Null: the whole run.
 */
function eventWindow(d: RunData): [number, number] | null {
  if (d.rowCount < 2 || d.events.length === 0) return null;
  const t0 = d.get(0, 0),
    tEnd = d.get(d.rowCount - 1, 0);
  const last = d.events.reduce((m, e) => (Number.isFinite(e.t) && e.t > m ? e.t : m), -Infinity);
  if (!(tEnd > t0) || !Number.isFinite(last) || last - t0 > 0.1 * (tEnd - t0)) return null;
  return [t0, last + Math.max(0.25 * (last - t0), (tEnd - t0) * 1e-6)];
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
