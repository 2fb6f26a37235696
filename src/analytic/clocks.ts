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

  constructor(private readonly advance: readonly (AdvanceFunction | null)[]) {
    this.hi = new Float64Array(advance.length);
    this.lo = new Float64Array(advance.length);
  }

  /** Every group at time t0. */
  reset(t0: number): void {
    this.hi.fill(t0);
    this.lo.fill(0);
  }

  /** Moves group g's states in y to the time hi + lo. */
  to(g: number, hi: number, lo: number, y: Float64Array, p: Float64Array, d: Float64Array): void {
    const gh = this.hi[g],
      gl = this.lo[g];
    if (gh === hi && gl === lo) return;
    const h = hi - gh + (lo - gl);
    if (h !== 0) this.advance[g]!(gh + gl, h, y, p, d);
    this.hi[g] = hi;
    this.lo[g] = lo;
  }

  /** Moves the groups listed to the time hi + lo. */
  allTo(groups: Int32Array, hi: number, lo: number, y: Float64Array, p: Float64Array, d: Float64Array): void {
    for (let i = 0; i < groups.length; i++) this.to(groups[i], hi, lo, y, p, d);
  }

  /** Moves every group to the time hi + lo (the end of a run, a probe). */
  everyTo(hi: number, lo: number, y: Float64Array, p: Float64Array, d: Float64Array): void {
    for (let g = 0; g < this.hi.length; g++) this.to(g, hi, lo, y, p, d);
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
