/**
 * Storage for a dense solution (`dense: true`): fixed-width records of doubles in
 * Float64Array chunks, every byte counted against one budget per run (the option
 * `maxDenseBytes`). Appending never copies what is stored, except while the first chunk of a
 * store is still growing to its full size (a store that keeps a handful of records, one per
 * body of a 16384-sphere row, stays a handful of records).
 */

/** doubles in a full chunk (512 KiB): large enough that chunks are few, small enough to waste little */
const CHUNK_DOUBLES = 1 << 16;

/** The default of `maxDenseBytes`: 256 MiB. */
export const DEFAULT_MAX_DENSE_BYTES = 256 * 1024 * 1024;

/** The bytes a run's dense solution may hold, and what it holds. */
export class DenseBudget {
  bytes = 0;
  /** a store was refused memory: nothing more is recorded, and the run ends there */
  full = false;
  /** where the first record that did not fit would have stood */
  fullAt = Number.NaN;

  constructor(readonly limit: number) {}

  /** Takes `more` bytes; false (and full from then on) when they exceed the limit. */
  take(more: number): boolean {
    if (this.full) return false;
    if (this.bytes + more > this.limit) {
      this.full = true;
      return false;
    }
    this.bytes += more;
    return true;
  }

  /** Marks the budget full at time t (the first record that did not fit). */
  refuse(t: number): void {
    this.full = true;
    if (this.fullAt !== this.fullAt) this.fullAt = t;
  }
}

const EMPTY = new Float64Array(0);

/**
 * Records of `width` doubles, appended in order and read by index. After `push()` or `at(i)`,
 * the record is `buf[off .. off + width)`: no allocation per record, no view objects.
 */
export class RecordStore {
  readonly width: number;
  /** records in a full chunk */
  private readonly perChunk: number;
  private readonly chunks: Float64Array[] = [];
  /** records stored */
  count = 0;
  /** the chunk holding the record of the last push() or at(), and its offset in it */
  buf: Float64Array = EMPTY;
  off = 0;

  constructor(
    width: number,
    private readonly budget: DenseBudget,
    /** records in the first allocation of the first chunk (it doubles up to a full chunk) */
    private readonly firstCapacity = 16,
  ) {
    this.width = width;
    this.perChunk = Math.max(1, Math.floor(CHUNK_DOUBLES / width));
  }

  /** Appends a record (its contents left to the caller); false when the budget cannot hold it. */
  push(): boolean {
    const i = this.count,
      w = this.width,
      c = Math.floor(i / this.perChunk),
      k = i - c * this.perChunk;
    if (c === this.chunks.length) {
      const cap = c === 0 ? Math.min(this.firstCapacity, this.perChunk) : this.perChunk;
      if (!this.budget.take(cap * w * 8)) return false;
      this.chunks.push(new Float64Array(cap * w));
    } else if ((k + 1) * w > this.chunks[c].length) {
      // (only the first chunk grows: by doubling, up to a full chunk)
      const old = this.chunks[c];
      const cap = Math.min(2 * (old.length / w), this.perChunk);
      if (!this.budget.take((cap * w - old.length) * 8)) return false;
      const grown = new Float64Array(cap * w);
      grown.set(old);
      this.chunks[c] = grown;
    }
    this.count = i + 1;
    this.buf = this.chunks[c];
    this.off = k * w;
    return true;
  }

  /** Points buf and off at record i (0 ≤ i < count). */
  at(i: number): void {
    const c = Math.floor(i / this.perChunk);
    this.buf = this.chunks[c];
    this.off = (i - c * this.perChunk) * this.width;
  }

  /** Field j of record i. */
  field(i: number, j: number): number {
    const c = Math.floor(i / this.perChunk);
    return this.chunks[c][(i - c * this.perChunk) * this.width + j];
  }
}
