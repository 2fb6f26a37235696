/**
 * What a trajectory plot keeps of a run, as the run goes (a SimulationSink): a bounded
 * reduction of each plotted series (plot-reduce.ts), plotted expressions evaluated row by
 * row, and the event instants to mark. Also the flags that choose what is plotted
 * (--variables) and how it looks (--title, --xlabel, --ylabel, --width, --height).
 */
import type { EventRecord, SimulationSink } from '../driver/index.js';
import type { Expr } from '../expression/ast.js';
import { ModelError } from '../expression/errors.js';
import { evaluate } from '../expression/evaluate.js';
import { references } from '../expression/expr.js';
import { didYouMean } from '../expression/suggest.js';
import { parseExpression, splitExpressionList } from '../language/parser.js';
import { CliError, parseNumber } from './options.js';
import { escapeText } from '../expression/terminal-text.js';
import type { PlotLook } from './plot-render.js';
import { EventMarks, PLOT_WIDTH, SeriesReducer } from './plot-reduce.js';
import { unitsOf } from './plot-units.js';
import { modelText } from './model-text.js';

/** A plotted series: a column as it is, or an expression of the columns (`0.5*m*v^2`). */
export interface PlotSeries {
  label: string;
  column: number;
  expr: Expr | null;
}

/** At most this many series are drawn; the subtitle says which were left out. */
export const MAX_SERIES = 32;

/**
 * Reads `--variables`: entries separated by commas outside parentheses; each one a column or
 * an expression whose names are all columns (`pi` aside). A name that is neither is a
 * CliError naming it, with a did-you-mean; so is bad syntax, with a caret in the flag's text.
 */
export function plotSeries(variables: string | undefined, allColumns: readonly string[]): PlotSeries[] {
  const names = allColumns.slice(1);
  if (!variables) return names.map((label, k) => ({ label, column: k + 1, expr: null }));
  const parts = splitExpressionList(variables);
  if (parts.some((p) => p === ''))
    throw new CliError(`--variables ${variables}: an empty entry; write names or expressions separated by commas`);
  return parts.map((text) => {
    const column = allColumns.indexOf(text);
    if (column > 0) return { label: text, column, expr: null };
    let expr: Expr;
    try {
      expr = parseExpression(text, '--variables');
    } catch (err) {
      if (!(err instanceof ModelError)) throw err;
      // (several lines, like a model error's: the source line as the model error shows it)
      throw new CliError(
        `--variables ${escapeText(text)}: ${escapeText(err.what)} at column ${err.column}\n  ${escapeText(err.sourceLine)}\n  ${' '.repeat(err.column - 1)}^\n${escapeText(err.hint)}`,
        true,
      );
    }
    for (const key of references(expr)) {
      if (key === 'pi' || allColumns.includes(key)) continue;
      throw new CliError(
        `--variables ${text}: '${key}' is not a column${didYouMean(key, names)}; the columns are ${names.join(', ')}`,
      );
    }
    return { label: text, column: -1, expr };
  });
}

/** The flags of a plot's look, as given. */
export interface PlotLookFlags {
  plot?: string;
  title?: string;
  xlabel?: string;
  ylabel?: string;
  width?: string;
  height?: string;
}

/** A plot's size has a limit: a larger one would be a picture of tens of megabytes. */
const MAX_SIZE = 8000;

export function plotLook(flags: PlotLookFlags, file?: string): PlotLook {
  const size = (flag: string, text: string | undefined) => {
    if (text === undefined) return undefined;
    const v = parseNumber(flag, text);
    if (!Number.isInteger(v) || v < 100 || v > MAX_SIZE)
      throw new CliError(`${flag} must be a whole number of pixels from 100 to ${MAX_SIZE}, got ${text}`);
    return v;
  };
  const look: PlotLook = {};
  if (flags.title !== undefined) look.title = flags.title;
  if (flags.xlabel !== undefined) look.xLabel = flags.xlabel;
  if (flags.ylabel !== undefined) look.yLabel = flags.ylabel;
  const width = size('--width', flags.width),
    height = size('--height', flags.height);
  if (width !== undefined) look.width = width;
  if (height !== undefined) look.height = height;
  // (the model's `# units:` comments, read again from its file: the language skips comments)
  if (file !== undefined && flags.plot !== undefined) {
    const units = unitsOf(modelText(file));
    if (units.size > 0) look.units = units;
  }
  return look;
}

/**
 * The plot's data of one run over [lo, hi], taken as its rows and ledger entries come:
 * memory bounded by the plot's width and the number of series, whatever the run's length.
 */
export class TrajectoryCollector implements SimulationSink {
  readonly series: PlotSeries[];
  /** series left out (more than MAX_SERIES) */
  readonly omitted: number;
  private readonly reducers: SeriesReducer[];
  readonly marks: EventMarks;
  t0 = NaN;
  tEnd = NaN;
  rows = 0;
  private row_: ArrayLike<number> = [];
  private readonly index: Map<string, number>;
  /** rows per column of the plot's width, to tell how densely a part of the range is covered */
  private readonly perColumn: Int32Array;
  private readonly lo: number;
  private readonly columnWidth: number;

  constructor(columns: readonly string[], plotted: PlotSeries[], lo: number, hi: number, width = PLOT_WIDTH) {
    this.series = plotted.slice(0, MAX_SERIES);
    this.omitted = plotted.length - this.series.length;
    const a = Math.min(lo, hi),
      b = Math.max(lo, hi);
    this.reducers = this.series.map(() => new SeriesReducer(a, b, 2 * width));
    this.marks = new EventMarks(a, b, 2 * width);
    this.index = new Map(columns.map((c, k) => [c, k]));
    this.perColumn = new Int32Array(2 * width);
    this.lo = a;
    this.columnWidth = b > a ? (b - a) / (2 * width) : 0;
  }

  private columnOf(t: number): number {
    if (!(this.columnWidth > 0)) return 0;
    return Math.min(this.perColumn.length - 1, Math.max(0, Math.floor((t - this.lo) / this.columnWidth)));
  }

  /** The rows up to t (counted by column: exact to a column). */
  rowsUpTo(t: number): number {
    let n = 0;
    for (let k = 0; k <= this.columnOf(t); k++) n += this.perColumn[k];
    return n;
  }

  /** Columns of the plot's width (two per pixel). */
  get columns(): number {
    return this.perColumn.length;
  }

  private readonly lookup = (key: string): number | undefined => {
    const k = this.index.get(key);
    return k === undefined ? undefined : this.row_[k];
  };

  row(row: ArrayLike<number>): void {
    const t = row[0];
    if (this.rows++ === 0) this.t0 = t;
    this.tEnd = t;
    this.row_ = row;
    if (Number.isFinite(t)) this.perColumn[this.columnOf(t)]++;
    for (let k = 0; k < this.series.length; k++) {
      const s = this.series[k];
      this.reducers[k].add(t, s.expr ? evaluate(s.expr, this.lookup) : row[s.column]);
    }
  }

  event(record: EventRecord): void {
    this.marks.add(record.t, record.name);
  }

  /** The reduced series, by label. */
  reduced(): { name: string; points: ReturnType<SeriesReducer['points']> }[] {
    return this.series.map((s, k) => ({ name: s.label, points: this.reducers[k].points() }));
  }
}
