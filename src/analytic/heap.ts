/**
 * The event calendar's priority queue (Rapaport 1980; Lubachevsky 1991): an indexed binary
 * heap of predicted times, one entry per state event, so that changing one prediction costs
 * O(log n) and the earliest is at the top. Times are kept in two doubles (hi + lo), as the
 * time origin of the stepper, so that events closer than one ulp of t (a ball's last bounces)
 * stay in order. Equal times go in file order (the event's index): ties are deterministic.
 * Entries with no crossing ahead hold +Infinity. Nothing allocates after construction.
 */
export class EventHeap {
  readonly hi: Float64Array;
  readonly lo: Float64Array;
  /** order[i]: the event at heap position i (order[0] the earliest); pos[k]: the position of event k */
  readonly order: Int32Array;
  private readonly pos: Int32Array;
  readonly size: number;
  /** the walk of `within` */
  private readonly stack: Int32Array;

  constructor(size: number) {
    this.size = size;
    this.stack = new Int32Array(size + 1);
    this.hi = new Float64Array(size).fill(Infinity);
    this.lo = new Float64Array(size);
    this.order = Int32Array.from({ length: size }, (_, i) => i);
    this.pos = Int32Array.from({ length: size }, (_, i) => i);
  }

  /** Every entry back to +Infinity, in index order. */
  clear(): void {
    this.hi.fill(Infinity);
    this.lo.fill(0);
    for (let i = 0; i < this.size; i++) {
      this.order[i] = i;
      this.pos[i] = i;
    }
  }

  /** the event with the earliest time (-1 when empty) */
  top(): number {
    return this.size > 0 ? this.order[0] : -1;
  }

  /** Sets event k's predicted time to hi + lo. */
  set(k: number, hi: number, lo: number): void {
    const before = this.hi[k],
      beforeLo = this.lo[k];
    this.hi[k] = hi;
    this.lo[k] = lo;
    if (hi < before || (hi === before && lo < beforeLo)) this.up(this.pos[k]);
    else this.down(this.pos[k]);
  }

  private less(a: number, b: number): boolean {
    const ha = this.hi[a],
      hb = this.hi[b];
    if (ha !== hb) return ha < hb;
    const la = this.lo[a],
      lb = this.lo[b];
    return la !== lb ? la < lb : a < b;
  }

  private up(i: number): void {
    const heap = this.order,
      k = heap[i];
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const q = heap[parent];
      if (!this.less(k, q)) break;
      heap[i] = q;
      this.pos[q] = i;
      i = parent;
    }
    heap[i] = k;
    this.pos[k] = i;
  }

  private down(i: number): void {
    const heap = this.order,
      n = this.size,
      k = heap[i];
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.less(heap[child + 1], heap[child])) child++;
      const q = heap[child];
      if (!this.less(q, k)) break;
      heap[i] = q;
      this.pos[q] = i;
      i = child;
    }
    heap[i] = k;
    this.pos[k] = i;
  }

  /** Whether an event other than the top lies within `tolerance` of the top's time (its children are the next earliest). */
  nextWithin(tolerance: number): boolean {
    const n = this.size;
    if (n < 2) return false;
    const k = this.order[0],
      hi = this.hi[k],
      lo = this.lo[k];
    const a = this.order[1];
    if (this.hi[a] - hi + (this.lo[a] - lo) <= tolerance) return true;
    if (n < 3) return false;
    const b = this.order[2];
    return this.hi[b] - hi + (this.lo[b] - lo) <= tolerance;
  }

  /**
   * The events whose time lies within `tolerance` of hi + lo, into `out` (returns their
   * count, in no particular order): a walk of the heap that stops below entries beyond it.
   */
  within(hi: number, lo: number, tolerance: number, out: Int32Array): number {
    if (this.size === 0) return 0;
    const stack = this.stack;
    let count = 0,
      top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const i = stack[--top];
      const k = this.order[i];
      if (!(this.hi[k] - hi + (this.lo[k] - lo) <= tolerance)) continue;
      out[count++] = k;
      const c = 2 * i + 1;
      if (c < this.size) stack[top++] = c;
      if (c + 1 < this.size) stack[top++] = c + 1;
    }
    return count;
  }
}
