/**
 * The stop queue: the scheduled times of every time event (`at`, `every`, delta roots) in the
 * order of integration, merged from one stream per event (codegen/event-times.ts) through a
 * binary heap that holds one time per event. Memory is bounded by the number of events, not
 * by the number of instants: a tick every 1 to 1e7 keeps one pending time, not an array of
 * ten million.
 *
 * Ties are taken in file order (the event index), as the instants' events fire.
 *
 * A delayed delta (`delta(t - E - D)`) has no times before the run: the driver tells the
 * queue which events fired at each instant (`fired`), and each occurrence of E adds t + D to
 * that delta's stream.
 */
import type { CompiledEvent } from '../codegen/compile.js';
import { DelayStream, RootStream, ScheduleError, scheduleStream, type TimeStream } from '../codegen/event-times.js';
import { tieFloor, tieTolerance } from './time-tie.js';

export class StopQueue {
  private readonly streams: (TimeStream | null)[] = [];
  /** the heap: the pending time of each event with one, by time in the order of integration, then index */
  private readonly heapT: Float64Array;
  private readonly heapE: Int32Array;
  private size = 0;
  private dir: 1 | -1 = 1;
  /** per event, whether the heap holds a time of it */
  private readonly queued: Uint8Array;
  /** per event, the delayed deltas that follow it (empty for most); the number of delayed deltas */
  private readonly delayedOf: number[][];
  private delays = 0;
  /** the end of the range: an impulse delayed past it is not an event of the run */
  private hi = 0;
  /** the run's floor of the tie tolerance (time-tie.ts) */
  private floor = 1;
  /** the start of the range (its lower end) */
  private lo = 0;
  /** a schedule found faulty while the run went on (a delta argument's scan reached a NaN) */
  failure: ScheduleError | null = null;
  /** per event, whether its times are a delta argument's roots */
  private readonly isRoot: Uint8Array;
  /** where takeDue writes the roots' own times and the instants they were taken for (Workspace.rootTime, rootAt) */
  rootTime: Float64Array | null = null;
  rootAt: Float64Array | null = null;
  /** where takeDue writes a root's residual, the exact root minus its time (Workspace.rootShift) */
  rootShift: Float64Array | null = null;
  /** per event, the residual of its time in the heap (a delta root's; 0 for other times) */
  private readonly heapShift: Float64Array;
  /** the run's rtol: a delta root whose weight is known less well than this fails the run (RootStream) */
  rtol = Number.POSITIVE_INFINITY;

  constructor(nEvents: number) {
    this.isRoot = new Uint8Array(nEvents);
    this.heapT = new Float64Array(nEvents);
    this.heapShift = new Float64Array(nEvents);
    this.heapE = new Int32Array(nEvents);
    this.queued = new Uint8Array(nEvents);
    this.delayedOf = Array.from({ length: nEvents }, () => []);
  }

  /**
   * Starts the queue for a run over [lo, hi] in direction dir, for a model that states its
   * initial values at `origin` (the phase of a periodic event without `from`). Throws a
   * ScheduleError for a schedule that cannot be kept.
   */
  reset(events: readonly CompiledEvent[], p: Float64Array, lo: number, hi: number, dir: 1 | -1, origin: number): void {
    this.dir = dir;
    this.size = 0;
    this.failure = null;
    this.streams.length = 0;
    this.queued.fill(0);
    this.hi = hi;
    this.lo = lo;
    this.floor = tieFloor(lo, hi);
    // A time within the tie of t past an end of the range is at that end, one instant with it
    // (time-tie.ts), as an impulse delayed there is (fired): `every P from 0` with P = 0.1*3
    // on [0, 3] ticks at 3.0000000000000004 the 11th time, 3 in exact arithmetic, and was lost.
    const below = lo - tieTolerance(lo, this.floor),
      above = hi + tieTolerance(hi, this.floor);
    if (this.delays > 0) for (const list of this.delayedOf) list.length = 0;
    this.delays = 0;
    if (this.rootAt !== null) this.rootAt.fill(NaN);
    for (const ev of events) {
      this.isRoot[ev.index] = ev.schedule?.kind === 'roots' ? 1 : 0;
      // (not a delta argument's scanned roots: it may be undefined past the range, log(t)
      // below 0; a linear one's exact root, as `at` and `every` times, is only compared)
      const s = ev.schedule;
      const scanned = s !== null && s !== undefined && s.kind === 'roots' && !s.exactRoot;
      const stream = scanned
        ? scheduleStream(ev, p, lo, hi, dir, origin, this.rtol)
        : scheduleStream(ev, p, below, above, dir, origin);
      this.streams.push(stream);
      if (stream instanceof DelayStream) {
        this.delayedOf[stream.after].push(ev.index);
        this.delays++;
      }
      if (stream) this.refill(ev.index);
    }
  }

  /**
   * The events `fired` at the instant hi + lo (the time in two doubles, as the time origin
   * keeps it): each delayed delta that follows one of them is due its delay later, to the
   * rounding of one addition, unless that is past the end of the range. Forward runs only
   * (DelayStream refuses the others). `slack`: how far the instant itself may be from its
   * exact value (a crossing's location); an impulse due within it past the end is due at
   * the end, where a delta counts (MODEL-LANGUAGE, ends of the range): a cause at 2.5 with a
   * delay of 0.5 on [0, 3] acts, wherever rounding located the cause.
   */
  fired(fired: readonly number[], hi: number, lo: number, slack = 4 * Number.EPSILON * Math.abs(hi)): void {
    if (this.delays === 0) return;
    for (let i = 0; i < fired.length; i++) {
      const list = this.delayedOf[fired[i]];
      for (let j = 0; j < list.length; j++) {
        const k = list[j];
        const stream = this.streams[k] as DelayStream | null;
        if (!stream) continue;
        // hi + lo + D with the rounding of the sum hi + D kept (Knuth's TwoSum)
        const d = stream.delay,
          sum = hi + d,
          b = sum - hi;
        let t = sum + (hi - (sum - b) + (d - b) + lo);
        if (t > this.hi) {
          if (t - this.hi > slack + 4 * Number.EPSILON * Math.abs(t)) continue;
          t = this.hi;
        }
        stream.push(t);
        if (this.queued[k] === 0) this.refill(k);
      }
    }
  }

  /** The next scheduled time, or NaN when none is left. */
  peek(): number {
    return this.size > 0 ? this.heapT[0] : NaN;
  }

  /**
   * Takes the events due at `at` (within the run's tie of t, time-tie.ts) off the queue into
   * `due`, in file order; an event scheduled twice there is taken twice. Within the tie they
   * are one instant, whose events fire in file order: taken in time order, `at 0.1 + 0.2`
   * written before `at 0.3` (0.30000000000000004 and 0.3, one time in exact arithmetic) fired
   * after it, on the steppers only (the analytic path sorts its instants). The run's tie, not
   * 4 ulps of 1: on a range of 1e-6, `at 1e-7` and `at 1.000000001e-7` are a relative 1e-9
   * apart, two instants as two crossings there are, and were taken as one.
   */
  takeDue(at: number, due: number[]): void {
    const tol = tieTolerance(at, this.floor);
    const first = due.length;
    while (this.size > 0 && Math.abs(this.heapT[0] - at) <= tol) {
      const e = this.heapE[0];
      // (a delta root's own time, for its weight: Workspace.actionTime)
      if (this.rootAt !== null && this.isRoot[e] === 1) {
        this.rootAt[e] = at;
        this.rootTime![e] = this.heapT[0];
        if (this.rootShift !== null) this.rootShift[e] = this.heapShift[e];
      }
      // (insertion into the part taken here, by index: a few events at most)
      let i = due.length;
      due.push(e);
      while (i > first && due[i - 1] > e) {
        due[i] = due[i - 1];
        i--;
      }
      due[i] = e;
      this.pop();
      this.queued[e] = 0;
      this.refill(e);
    }
  }

  /** Puts event e's next time into the heap, if it has one. */
  private refill(e: number): void {
    const stream = this.streams[e];
    if (!stream) return;
    let t: number;
    try {
      t = stream.next();
    } catch (err) {
      if (!(err instanceof ScheduleError)) throw err;
      // (the run fails at the next step, with what it computed up to here)
      this.failure ??= err;
      this.streams[e] = null;
      return;
    }
    if (t !== t) return;
    const at = t > this.hi ? this.hi : t < this.lo ? this.lo : t;
    // (a root's residual from the time it is queued at: exact differences of near doubles)
    this.heapShift[e] = stream instanceof RootStream ? stream.shift + (t - at) : 0;
    this.push(at, e);
  }

  /** whether heap entry a comes before b */
  private before(a: number, b: number): boolean {
    const d = this.dir * (this.heapT[a] - this.heapT[b]);
    return d < 0 || (d === 0 && this.heapE[a] < this.heapE[b]);
  }

  private swap(a: number, b: number): void {
    const t = this.heapT[a],
      e = this.heapE[a];
    this.heapT[a] = this.heapT[b];
    this.heapE[a] = this.heapE[b];
    this.heapT[b] = t;
    this.heapE[b] = e;
  }

  private push(t: number, e: number): void {
    this.queued[e] = 1;
    let i = this.size++;
    this.heapT[i] = t;
    this.heapE[i] = e;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private pop(): void {
    const n = --this.size;
    if (n === 0) return;
    this.heapT[0] = this.heapT[n];
    this.heapE[0] = this.heapE[n];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1,
        r = l + 1;
      let m = i;
      if (l < n && this.before(l, m)) m = l;
      if (r < n && this.before(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}
