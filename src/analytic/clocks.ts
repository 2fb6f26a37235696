/**
 * Local clocks (Lubachevsky 1991): each clock group's states are stored at its own time, kept
 * in two doubles (hi + lo) like the stepper's time origin, and advanced by its closed form
 * only when an event reads it or an output asks for it. A row of 16384 spheres advances the
 * two spheres of a collision, not all of them.
 */
import type { AdvanceFunction } from '../codegen/closed-form.js';

export class Clocks {
  readonly hi: Float64Array;
  readonly lo: Float64Array;
  /**
   * Groups advanced only to be looked at (outputs at an instant, a grid row, a probe) and
   * put back afterwards, so that what is recorded never changes the rounding of the motion:
   * a run gives the same numbers with and without rows. Per group: lent (1) or not; the
   * lent groups, their clocks and states before.
   */
  private readonly lent: Uint8Array;
  private readonly lentList: Int32Array;
  private lentCount = 0;
  private savedEnd = 0;
  private readonly savedHi: Float64Array;
  private readonly savedLo: Float64Array;
  private readonly saved: Float64Array;
  /** every group, and one (the lists `allTo` takes) */
  private readonly every: Int32Array;
  private readonly single = new Int32Array(1);

  constructor(
    private readonly advance: readonly (AdvanceFunction | null)[],
    /** per group, its state slots */
    private readonly states: readonly Int32Array[],
  ) {
    const n = advance.length;
    this.hi = new Float64Array(n);
    this.lo = new Float64Array(n);
    this.lent = new Uint8Array(n);
    this.lentList = new Int32Array(n);
    this.savedHi = new Float64Array(n);
    this.savedLo = new Float64Array(n);
    let total = 0;
    for (const s of states) total += s.length;
    this.saved = new Float64Array(total);
    this.every = new Int32Array(n);
    for (let g = 0; g < n; g++) this.every[g] = g;
  }

  /** Every group at time t0, none lent. */
  reset(t0: number): void {
    this.hi.fill(t0);
    this.lo.fill(0);
    this.lent.fill(0);
    this.lentCount = 0;
    this.savedEnd = 0;
  }

  /**
   * Moves the states in y of the groups listed to the time hi + lo (a lent group brought
   * there stays: it is no longer lent). One loop, no call per group: it runs at every event.
   */
  allTo(groups: Int32Array, hi: number, lo: number, y: Float64Array, p: Float64Array, d: Float64Array): void {
    const his = this.hi,
      los = this.lo,
      lent = this.lent;
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i];
      const gh = his[g],
        gl = los[g];
      if (lent[g] === 1) lent[g] = 0;
      if (gh === hi && gl === lo) continue;
      const h = hi - gh + (lo - gl);
      if (h !== 0) this.advance[g]!(gh + gl, h, y, p, d);
      his[g] = hi;
      los[g] = lo;
    }
  }

  /** Moves every group to the time hi + lo (the end of a run). */
  everyTo(hi: number, lo: number, y: Float64Array, p: Float64Array, d: Float64Array): void {
    this.allTo(this.every, hi, lo, y, p, d);
  }

  /** Advances the groups listed (all when null) to hi + lo to be looked at; `giveBack` puts them back. */
  lend(groups: Int32Array | null, hi: number, lo: number, y: Float64Array, p: Float64Array, d: Float64Array): void {
    const n = groups ? groups.length : this.hi.length;
    for (let i = 0; i < n; i++) {
      const g = groups ? groups[i] : i;
      if (this.lent[g] === 1 || (this.hi[g] === hi && this.lo[g] === lo)) continue;
      const slots = this.states[g];
      // (the saved states of the lent groups, packed in the order they were lent)
      const o = this.savedEnd;
      for (let j = 0; j < slots.length; j++) this.saved[o + j] = y[slots[j]];
      this.savedEnd += slots.length;
      this.savedHi[g] = this.hi[g];
      this.savedLo[g] = this.lo[g];
      this.lentList[this.lentCount++] = g;
      this.single[0] = g;
      this.allTo(this.single, hi, lo, y, p, d);
      this.lent[g] = 1;
    }
  }

  /** Puts back the groups still lent: their states and clocks as before `lend`. */
  giveBack(y: Float64Array): void {
    let o = 0;
    for (let j = 0; j < this.lentCount; j++) {
      const g = this.lentList[j],
        slots = this.states[g];
      if (this.lent[g] === 1) {
        for (let i = 0; i < slots.length; i++) y[slots[i]] = this.saved[o + i];
        this.hi[g] = this.savedHi[g];
        this.lo[g] = this.savedLo[g];
        this.lent[g] = 0;
      }
      o += slots.length;
    }
    this.lentCount = 0;
    this.savedEnd = 0;
  }
}

/** hi + lo + s as two doubles (Knuth's TwoSum), into out[0], out[1]. */
export function addTime(hi: number, lo: number, s: number, out: Float64Array): void {
  const sum = hi + s;
  const back = sum - hi;
  const err = hi - (sum - back) + (s - back);
  const l = lo + err;
  out[0] = sum + l;
  out[1] = l - (out[0] - sum);
}
