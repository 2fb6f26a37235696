/**
 * The next crossing of a linear event's function beyond its first window (issue 24): the
 * windows on which its Taylor polynomial, with the remainder in the constant's bound, is a
 * certified enclosure (codegen/linear-event.ts), one after another until a crossing or the
 * end of the range. A window whose constant exceeds everything else the polynomial can add
 * on it is excluded at once; the others go to the certified polynomial roots (roots.ts), so a
 * grazing crossing is found, or reported as unresolved where the arithmetic cannot tell it
 * from none, never skipped.
 */
import { LINEAR_ORDER, type LinearEventFunction } from '../codegen/linear-event.js';
import type { PolynomialRoots } from './roots.js';

const K = LINEAR_ORDER;
/** Windows scanned per prediction before the rest is left to the calendar (a stiff spring over a long range is many windows, most often made moot by the next event). */
const BUDGET = 256;

export class LinearScan {
  /** set by `next`: a crossing that could not be resolved, and where (s from the instant) */
  unresolved = false;
  where = NaN;
  /** set by `next`: where it stopped at its budget of windows (Infinity: it did not) */
  resumeAt = Infinity;
  /**
   * set by `next` with resumeAt: the last certain sign it saw before stopping (0: none), for
   * the scan that resumes there (`next`'s carry): where it stopped inside the band a crossing
   * takes to pass through, the resumed scan's first certain sign is already across
   */
  resumeSign = 0;
  private readonly c = new Float64Array(2 * (K + 1));

  constructor(private readonly roots: PolynomialRoots) {}

  /**
   * The earliest crossing in (0, W] of the first window's polynomial c (in s, about the
   * instant; `atZero`: the root at the instant divided out), as PolynomialRoots.first: the
   * quick decisions on the polynomial scaled to the window first.
   */
  first(f: LinearEventFunction, c: Float64Array, atZero: boolean, dir: number, W: number): number {
    const q = this.c,
      roots = this.roots;
    this.unresolved = false;
    this.where = NaN;
    let d = UNDECIDED;
    if (W < Infinity) {
      const o = atZero ? 1 : 0;
      let wk = atZero ? W : 1;
      for (let k = 0; k <= K; k++) {
        const j = k + o;
        q[k] = j <= K ? c[j] * wk : 0;
        q[K + 1 + k] = j <= K ? c[K + 1 + j] * wk : 0;
        wk *= W;
      }
      if (atZero) q[K + 1] = 0;
      d = !atZero || Math.abs(q[0]) > c[K + 2] * W ? this.quick(q, dir, 1) : UNDECIDED;
    }
    // the sign at the instant (before truncate folds the tail into the constant's bound)
    const sign0 = !atZero && Math.abs(c[0]) > c[K + 1] ? Math.sign(c[0]) : 0;
    if (W < Infinity) {
      if (d === FOUND) return this.confirmed(f, this.u * W, sign0, W, dir);
      if (d === NONE) return Infinity;
    }
    f.truncate(c);
    const s = roots.first(c, 0, K, atZero, dir, W);
    if (roots.unresolved) {
      this.unresolved = true;
      this.where = roots.where;
    }
    if (s < Infinity && W < Infinity) return this.confirmed(f, s, sign0, W, dir);
    if (s === Infinity && !roots.unresolved && W < Infinity) return this.flip(f, sign0, 0, W, dir);
    return s;
  }

  /** `confirm` on the first window (0, W]: none there is none in it (Infinity). */
  private confirmed(f: LinearEventFunction, s: number, sign0: number, W: number, dir: number): number {
    const r = this.confirm(f, s, sign0, 0, W, dir);
    return r === r ? r : Infinity;
  }

  /**
   * A crossing between a certain sign `sign` at a and the value at b on the segment itself,
   * where that has the certain opposite sign in the event's direction: a window's polynomial
   * whose value at its end lies within what its coefficients' rounding allows certifies no
   * crossing there, and the next window starts past it (x' = t e^{-t} falling through 1e-15
   * beside x = 1 - 1.5e-15: the rate's rounding is that of x, and the crossing was lost).
   * Infinity when there is no such change of sign.
   */
  private flip(f: LinearEventFunction, sign: number, a: number, b: number, dir: number): number {
    if (sign === 0 || (dir !== 0 && -sign !== dir)) return Infinity;
    const vb = f.valueAt(b);
    // (the opposite sign must be certain on the scale of the terms the propagator summed the
    // states from, not only of the states: x2 - x1 of two equal masses, zero in exact
    // arithmetic, is -2e-16 there beside a bound of 1.7e-16 from |x1| + |x2|, and 1.1e-15
    // from the terms; on the states' own scale it was a crossing, n = 1 for 0, status ok)
    if (!(Math.abs(vb) > f.termsBound) || Math.sign(vb) === sign) return Infinity;
    return this.bisectValues(f, sign, a, b);
  }

  /**
   * A crossing s located on a window's polynomial, checked on the segment's own values: where
   * the value there exceeds its rounding, the polynomial's coefficients were less accurate
   * than the value (the same rate beside x = 1 - 1e-12 put a crossing of x' - 1e-12 1.9e-6
   * early, at a value of 1.8e-18, and the event fired again at its true crossing). With the
   * last certain sign `sign` at a: already across at s, the crossing is in (a, s]; not yet,
   * in (s, b] where b is across; else none up to b (NaN). s as it is without a certain sign
   * before it from which it crosses in the event's direction.
   */
  private confirm(f: LinearEventFunction, s: number, sign: number, a: number, b: number, dir: number): number {
    if (sign === 0 || (dir !== 0 && -sign !== dir)) return s;
    const v = f.valueAt(s);
    if (!(Math.abs(v) > f.valueBound)) return s;
    if (Math.sign(v) !== sign) return this.bisectValues(f, sign, a, s);
    // (denied only on a sign certain on the scale of the terms v was summed from: a pair of
    // crossings 2e-6 high from terms of 1e-6, the first root's value 2.4e-22 of them, was
    // denied on its own size and lost)
    const certain = Math.abs(v) > f.termsBound;
    const vb = f.valueAt(b);
    if (Math.abs(vb) > f.valueBound && Math.sign(vb) !== sign) return this.bisectValues(f, sign, s, b);
    return certain ? NaN : s;
  }

  /**
   * Bisection on the segment's values between a (sign `sign`) and b (the other sign) to
   * neighbouring doubles, or to a value within its rounding.
   */
  private bisectValues(f: LinearEventFunction, sign: number, a: number, b: number): number {
    for (let i = 0; i < 1100; i++) {
      const m = a + 0.5 * (b - a);
      if (!(m > a && m < b)) break;
      const v = f.valueAt(m);
      if (!(Math.abs(v) > f.valueBound)) return m;
      if (Math.sign(v) === sign) a = m;
      else b = m;
    }
    return b;
  }

  /**
   * The earliest crossing in (from, H] in direction dir of f (its coefficients taken at the
   * instant), or Infinity. `carry`: the last certain sign of a scan that stopped at its budget
   * at the instant (resumeSign), taken as the sign at `from`.
   */
  next(f: LinearEventFunction, from: number, H: number, dir: number, carry = 0): number {
    const c = this.c,
      roots = this.roots;
    this.unresolved = false;
    this.where = NaN;
    this.resumeAt = Infinity;
    this.resumeSign = 0;
    // (a function the motion does not move never crosses)
    if (f.constant()) return Infinity;
    let s0 = from;
    let w = f.window;
    let end = H;
    // the last certain sign of the function at a window's start, and where (flip; from the
    // first window's start: before it, `first` judged, and at the instant of its own event
    // the value is the location's residue, which has no sign)
    let sign = carry,
      at = from;
    for (let count = 0; s0 < end; count++) {
      if (count === BUDGET) {
        const s = this.flip(f, sign, at, s0, dir);
        if (s < Infinity) return s;
        // (the rest waits until the calendar reaches it: an event before then predicts again;
        // the sign seen goes with it: x - 1 = 1e-13 e^{-t/10} sin t beside the rounding of 1,
        // 7.1e-15, takes 0.5 of t through that band, the budget ran out in it, and the scan
        // resumed from there as at a start lost the crossing, n = 5 for 6, status ok)
        this.resumeAt = s0;
        this.resumeSign = sign;
        return Infinity;
      }
      w = Math.min(w, end - s0);
      f.windowAt(s0, w, c);
      if (sign !== 0 && Math.abs(c[0]) > c[K + 1] && Math.sign(c[0]) !== sign) {
        const s = this.flip(f, sign, at, s0, dir);
        if (s < Infinity) return s;
        f.windowAt(s0, w, c);
      }
      if (Math.abs(c[0]) > c[K + 1]) {
        sign = Math.sign(c[0]);
        at = s0;
      }
      // (now and then: whether the rest of the segment can cross at all)
      if ((count & 15) === 0) {
        end = Math.min(end, f.horizon(s0));
        if (!(s0 < end)) break;
      }
      // what the rest can add on u in [0, 1]
      let reach = c[K + 1];
      for (let k = 1; k <= K; k++) reach += Math.abs(c[k]) + c[K + 1 + k];
      if (!(Math.abs(c[0]) > reach)) {
        const q = this.quick(c, dir, 1);
        if (q === FOUND) {
          const s = this.confirm(f, s0 + this.u * w, sign, at, s0 + w, dir);
          if (s === s) return s;
        }
        if (q === UNDECIDED && w > f.window / 64) {
          // (near a touching: halve the window, so that what the quadratic part leaves shrinks)
          w *= 0.5;
          continue;
        }
        if (q === UNDECIDED) {
          // (a crossing exactly at the window's start belongs to the window before)
          f.truncate(c);
          const u = roots.first(c, 0, K, false, dir, 1);
          if (roots.unresolved) {
            this.unresolved = true;
            this.where = s0 + roots.where * w;
            return Infinity;
          }
          if (u < Infinity) {
            const s = this.confirm(f, s0 + u * w, sign, at, s0 + w, dir);
            if (s === s) return s;
          }
        }
      }
      s0 += w;
      w = Math.min(2 * w, f.window);
    }
    // (the last window's end: the end of the range, or where nothing can cross any more)
    return this.flip(f, sign, at, Math.min(s0, H), dir);
  }

  /** set by `quick` when it found the crossing: its place in u */
  u = NaN;

  /**
   * Decides a window [0, U] of the polynomial c (bounds after it) where that is cheap, before
   * the general isolation: NONE when the quadratic part's range on the window, widened by
   * all the rest can add, excludes zero, or the function is monotone (its derivative's
   * quadratic part likewise keeps one sign) with one sign at both ends; FOUND when it is
   * monotone with certain opposite signs at the ends in the event's direction (the root by
   * bisection to neighbouring doubles into `u`); UNDECIDED otherwise (a near-touching: the
   * certified isolation decides).
   */
  quick(c: Float64Array, dir: number, U: number): number {
    let rest = c[K + 1] + c[K + 2] * U + c[K + 3] * U * U;
    let drest = c[K + 2] + 2 * c[K + 3] * U + 3 * c[K + 4] * U * U;
    let uk = U * U;
    for (let k = 3; k <= K; k++) {
      uk *= U;
      rest += (Math.abs(c[k]) + c[K + 1 + k]) * uk;
      if (k >= 4) drest += k * (Math.abs(c[k]) + c[K + 1 + k]) * (uk / U);
    }
    // p ≈ c0 + c1 u + c2 u², p' ≈ c1 + 2 c2 u + 3 c3 u²
    if (!rangeMeets(c[0], c[1], c[2], U, rest)) return NONE;
    if (rangeMeets(c[1], 2 * c[2], 3 * c[3], U, drest)) return UNDECIDED;
    const slope = Math.sign(c[1] + c[2] * U);
    let p1 = c[K],
      e1 = c[2 * K + 1];
    for (let k = K - 1; k >= 0; k--) {
      p1 = p1 * U + c[k];
      e1 = e1 * U + c[K + 1 + k] + 2 * EPS * Math.abs(p1);
    }
    const p0 = c[0];
    if (!(Math.abs(p0) > c[K + 1]) || !(Math.abs(p1) > e1)) return UNDECIDED;
    if (Math.sign(p0) === Math.sign(p1) || (dir !== 0 && slope !== dir)) return NONE;
    let a = 0,
      b = U;
    const sa = Math.sign(p0);
    for (let i = 0; i < 1100; i++) {
      const m = a + 0.5 * (b - a);
      if (!(m > a && m < b)) break;
      let v = c[K];
      for (let k = K - 1; k >= 0; k--) v = v * m + c[k];
      if (Math.sign(v) === sa) a = m;
      else b = m;
    }
    this.u = b;
    return FOUND;
  }
}

const EPS = Number.EPSILON;
export const NONE = 1,
  FOUND = 2,
  UNDECIDED = 0;

/** Whether a0 + a1 u + a2 u², u in [0, U], widened by ±rest, can reach zero. */
function rangeMeets(a0: number, a1: number, a2: number, U: number, rest: number): boolean {
  const v1 = a0 + (a1 + a2 * U) * U;
  let lo = Math.min(a0, v1),
    hi = Math.max(a0, v1);
  if (a2 !== 0) {
    const uv = -a1 / (2 * a2);
    if (uv > 0 && uv < U) {
      const vv = a0 + (a1 + a2 * uv) * uv;
      lo = Math.min(lo, vv);
      hi = Math.max(hi, vv);
    }
  }
  // (the rounding of these few operations, on their own scale)
  const r = rest + 4 * EPS * (Math.abs(a0) + (Math.abs(a1) + Math.abs(a2) * U) * U);
  return lo - r <= 0 && hi + r >= 0;
}
