/**
 * What the page keeps of a run: the rows as the worker's chunks (typed arrays, never copied
 * into arrays of arrays), the impulse ledger, and the summary once the run ends. The plot,
 * the tables and the downloads read from here.
 */
import type { EventRecord } from '../src/index.js';
import type { RunSummary, ShootSummary } from './protocol.js';

/** How a run ended: the library's statuses, and `interrupted` when the user stopped it. */
export type RunState = 'running' | 'ok' | 'stopped' | 'zeno' | 'failed' | 'interrupted';

export class RunData {
  readonly width: number;
  private chunks: Float64Array[] = [];
  /** index of each chunk's first row */
  private starts: number[] = [];
  rowCount = 0;
  readonly events: EventRecord[] = [];
  /** the independent variable reached so far */
  t: number;
  state: RunState = 'running';
  summary: RunSummary | null = null;
  shoot: ShootSummary | null = null;
  rowsDropped = 0;
  /** why the run ended when the library did not say (stopped by the user) */
  note: string | null = null;

  constructor(
    readonly columns: string[],
    readonly independent: string,
    readonly from: number,
    readonly to: number | null,
    readonly shooting: boolean,
  ) {
    this.width = columns.length;
    this.t = from;
  }

  add(data: Float64Array, count: number, events: EventRecord[], t: number): void {
    if (count > 0) {
      this.starts.push(this.rowCount);
      this.chunks.push(data);
      this.rowCount += count;
    }
    for (const e of events) this.events.push(e);
    if (Number.isFinite(t)) this.t = t;
  }

  /** value of column j in row i */
  get(i: number, j: number): number {
    const c = this.chunkOf(i);
    return this.chunks[c][(i - this.starts[c]) * this.width + j];
  }

  /** calls f(chunk, rows in it, index of its first row) for every chunk in order */
  forEachChunk(f: (data: Float64Array, count: number, first: number) => void): void {
    for (let c = 0; c < this.chunks.length; c++) {
      const next = c + 1 < this.starts.length ? this.starts[c + 1] : this.rowCount;
      f(this.chunks[c], next - this.starts[c], this.starts[c]);
    }
  }

  /** the independent variable of the last row kept (NaN: none) */
  lastKept(): number {
    return this.rowCount ? this.get(this.rowCount - 1, 0) : NaN;
  }

  /** 0 to 1: how far the run has come through its range (NaN when the range has no end) */
  progress(): number {
    if (this.to === null || this.to === this.from) return NaN;
    return Math.min(1, Math.max(0, (this.t - this.from) / (this.to - this.from)));
  }

  private chunkOf(i: number): number {
    let lo = 0,
      hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
