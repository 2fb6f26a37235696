/**
 * Which events are due at an instant of the analytic path: crossings predicted within the tie
 * tolerance of one another and time events from the stop queue, together when they interact
 * and one instant after the other when they commute (a time event and a crossing that commute
 * at the same time to the last bit are one instant, in file order, as on the stepper). Two
 * events commute when what one writes the other neither reads nor writes, counters aside
 * (plan.ts): two pairs of spheres far apart that collide at one time both collide and both
 * count, whatever rounding makes of their times; interacting events read the values before
 * their common instant, as the language says. An event that changes the motion of what
 * another's function reads (a velocity, or a discrete variable, counters included, that its
 * equations read) interacts with it: processed first on its own, it would turn that function
 * at its zero, and the other's crossing, which the values before the instant make, would be
 * lost.
 */
import type { StopQueue } from '../driver/stop-queue.js';
import { tieTolerance } from '../driver/time-tie.js';
import type { EventHeap } from './heap.js';
import type { EventPlan } from './plan.js';

export class DueEvents {
  /** time events due at the current time (or a few ulps after it) that commute with the crossings processed there: the next instant, at deferredHi + deferredLo */
  readonly deferred: number[] = [];
  deferredHi = 0;
  deferredLo = 0;
  /** the run's floor of the tie tolerance (tieFloor) */
  floor = 1;
  private readonly list: number[] = [];
  private readonly due: Int32Array;
  private readonly scheduledDue: number[] = [];

  constructor(
    private readonly heap: EventHeap,
    private readonly stopQueue: StopQueue,
    private readonly plans: readonly EventPlan[],
    /** per event: what its heap entry is (engine.ts, unresolved: 2 where a linear event's scan resumes, no crossing) */
    private readonly notCrossing: Uint8Array,
  ) {
    this.due = new Int32Array(Math.max(1, heap.size));
  }

  /**
   * The events due at the instant hi + lo, in file order. At a scheduled time: the time events
   * due there (within the tie tolerance of one another, as on the stepper) and the crossings
   * predicted within the tie tolerance of it. At a crossing: every crossing within the tie
   * tolerance, processed together, whether it commutes with the others or not (the language:
   * instants closer than that are one instant; two crossings that coincide in exact arithmetic
   * and that rounding puts a few ulps apart fired as two instants, the ledger out of file order
   * and four rows where the stepper writes two); and the time events there (a time event
   * within the tie after a crossing is normally met by moving the instant to its time,
   * AnalyticSimulator.next; here only where that was not done). A crossing fired a rounding
   * before its own root is re-armed as one fired at its root (EVENTS.md 2): its value is
   * within the rounding its location allows, its root divided out (engine.ts, predictOne).
   */
  take(hi: number, lo: number): number[] {
    const list = this.list,
      heap = this.heap;
    // (emptied by pop: setting length is a call into the runtime, most of this function's
    // time over the 6582 instants of a row of 1024 spheres)
    clear(list);
    if (this.deferred.length > 0 && hi === this.deferredHi && lo === this.deferredLo) {
      // time events left from the instant before, at the same time: an instant of their own
      for (const e of this.deferred) list.push(e);
      clear(this.deferred);
      return list;
    }
    const k = heap.top();
    if (k >= 0 && heap.hi[k] === hi && heap.lo[k] === lo) {
      const n = heap.within(hi, lo, tieTolerance(hi, this.floor), this.due);
      list.push(k);
      if (n > 1) this.withinTie(n, list);
      const q = this.stopQueue.peek();
      // (time events a few ulps after the crossing, its root rounded below their decimal
      // time, x = 0.3 - 0.1 t at 2.9999999999999996 and `at 3`, are at the same instant)
      // (time events already deferred to a time a crossing precedes keep it)
      if (this.deferred.length === 0 && q - (hi + lo) <= tieTolerance(hi, this.floor)) {
        // time events at this time: with the crossings if they interact, else next
        const scheduled = this.deferred;
        this.deferredHi = q;
        this.deferredLo = 0;
        this.takeScheduled(q, scheduled);
        // (against every crossing due here, not only those taken: a tick that interacts with
        // a second crossing at its time joins it, whatever the first crossing does)
        if (scheduled.some((e) => this.interactsWithDue(e, n))) {
          for (const e of scheduled) list.push(e);
          scheduled.length = 0;
          this.conflicting(n, list);
        } else if (hi + lo === q) {
          // commuting, at the same time to the last bit: one instant, in file order, as the
          // language says and the stepper does (two instants at one time wrote four rows
          // where the stepper writes two, and after a --from the ledger named the crossing
          // before a tick the file lists first). Commuting, they read the same values
          // together as one after the other; counters add up either way. A few ulps apart,
          // each keeps its own time.
          for (const e of scheduled) list.push(e);
          scheduled.length = 0;
        }
      }
    } else {
      this.takeScheduled(hi, list);
      // (and the crossings rounded within the tie of it, a few ulps before or after it,
      // interacting or not: one instant, as on the stepper, which moves an instant found within
      // the tie of a stop to the stop)
      // (none due there, at the start of a run: a crossing a few ulps after it keeps its time)
      const n = heap.within(hi, 0, tieTolerance(hi, this.floor), this.due);
      if (n > 0 && list.length > 0) this.withinTie(n, list);
    }
    if (list.length > 1) list.sort(ascending);
    return list;
  }

  /**
   * Every crossing due within the tie tolerance of hi + lo added to `list` (in file order): for
   * an instant whose actions event iteration can carry along functions resting at zero (Newton's
   * cradle hit from both ends at once), where a crossing that commutes with the events taken
   * may not commute with those the chain fires. Taken apart, the chain reached it at its own
   * zero and the run stopped on "precision ran out"; together they fire in one round, as on
   * the stepper.
   */
  withEveryCrossing(hi: number, lo: number, list: number[]): void {
    const n = this.heap.within(hi, lo, tieTolerance(hi, this.floor), this.due);
    for (let i = 0; i < n; i++) {
      const c = this.due[i];
      if (this.notCrossing[c] !== 2 && !list.includes(c)) list.push(c);
    }
    list.sort(ascending);
  }

  /**
   * The time events due at t (within 4 ulps, as on the stepper) into list; one listed twice at
   * that time (`at 2.6, 2.6`) twice, as the stop queue gives it: both occurrences act (an
   * increment counts twice, as on the stepper).
   */
  private takeScheduled(t: number, list: number[]): void {
    const due = this.scheduledDue;
    if (due.length > 0) due.length = 0;
    this.stopQueue.takeDue(t, due);
    for (const e of due) list.push(e);
  }

  /** Of the n crossings in this.due (within the tie tolerance), the earliest and those that do not commute with what is taken, into list. */
  private conflicting(n: number, list: number[]): void {
    const due = this.due;
    for (let grown = true; grown;) {
      grown = false;
      for (let i = 0; i < n; i++) {
        const c = due[i];
        // (an entry that is no crossing, where a linear event's scan resumes, is not due)
        if (this.notCrossing[c] === 2 || list.includes(c) || !list.some((k) => this.interact(k, c))) continue;
        list.push(c);
        grown = true;
      }
    }
  }

  /**
   * Every one of the n crossings in this.due (within the tie tolerance) into list: one instant,
   * in file order, as on the stepper, where they commute as where they do not (two balls
   * dropped alike onto two floors and a tick at the time they land: the analytic path wrote
   * floor1 and the tick as one instant and floor2 as the next, the ledger out of file order
   * and four rows where the stepper writes two). Commuting, they read the same values together
   * as one after the other; counters add up either way. Once, only those predicted at the same
   * time to the last bit joined: x1 = a t^2 and x2 = b t reaching their levels at t = 3.3 in
   * rationals, 2 ulps apart in doubles, were two instants (round18-fuzz2).
   */
  private withinTie(n: number, list: number[]): void {
    const due = this.due;
    for (let i = 0; i < n; i++) {
      const c = due[i];
      if (this.notCrossing[c] === 2 || list.includes(c)) continue;
      list.push(c);
    }
  }

  /**
   * Whether the instant at the crossing at hi + lo can move to the time event at q, a few ulps
   * after it (within the tie): every crossing due within the tie of it is a plain crossing (no
   * touch the arithmetic cannot resolve, no place where a scan resumes, which the instant at q
   * would leave behind it in time).
   */
  movable(hi: number, lo: number, q: number): boolean {
    const tol = tieTolerance(hi, this.floor);
    if (!(q - hi - lo <= tol)) return false;
    const n = this.heap.within(hi, lo, 2 * tol, this.due);
    for (let i = 0; i < n; i++) if (this.notCrossing[this.due[i]] !== 0) return false;
    return true;
  }

  /** Whether event e interacts with one of the n crossings in this.due. */
  private interactsWithDue(e: number, n: number): boolean {
    for (let i = 0; i < n; i++) if (this.notCrossing[this.due[i]] !== 2 && this.interact(e, this.due[i])) return true;
    return false;
  }

  /**
   * Whether events a and b do not commute: what one writes, the other reads or writes
   * (counters aside), or one changes the motion of a group the other's function reads; an
   * event that stops the run interacts with every other (one instant after it there is none).
   */
  private interact(a: number, b: number): boolean {
    const pa = this.plans[a],
      pb = this.plans[b];
    return (
      pa.stops ||
      pb.stops ||
      meets(pa.commuteWrites, pb.commuteReads) ||
      meets(pb.commuteWrites, pa.commuteReads) ||
      meets(pa.commuteWrites, pb.commuteWrites) ||
      shares(pa.changes, pb.reads) ||
      shares(pb.changes, pa.reads)
    );
  }
}

/** Whether two sorted lists of groups have one in common. */
function shares(a: Int32Array, b: Int32Array): boolean {
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) return true;
    if (a[i] < b[j]) i++;
    else j++;
  }
  return false;
}

function meets(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (b.has(x)) return true;
  return false;
}

function clear(list: number[]): void {
  while (list.length > 0) list.pop();
}

function ascending(a: number, b: number): number {
  return a - b;
}
