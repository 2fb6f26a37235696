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
      const d = !atZero || Math.abs(q[0]) > c[K + 2] * W ? this.quick(q, dir, 1) : UNDECIDED;
      if (d === FOUND) return this.u * W;
      if (d === NONE) return Infinity;
    }
    f.truncate(c);
    const s = roots.first(c, 0, K, atZero, dir, W);
    if (roots.unresolved) {
      this.unresolved = true;
      this.where = roots.where;
    }
    return s;
  }

  /** The earliest crossing in (from, H] in direction dir of f (its coefficients taken at the instant), or Infinity. */
  next(f: LinearEventFunction, from: number, H: number, dir: number): number {
    const c = this.c,
      roots = this.roots;
    this.unresolved = false;
    this.where = NaN;
    this.resumeAt = Infinity;
    // (a function the motion does not move never crosses)
    if (f.constant()) return Infinity;
    let s0 = from;
    let w = f.window;
    let end = H;
    for (let count = 0; s0 < end; count++) {
      if (count === BUDGET) {
        // (the rest waits until the calendar reaches it: an event before then predicts again)
        this.resumeAt = s0;
        return Infinity;
      }
      w = Math.min(w, end - s0);
      f.windowAt(s0, w, c);
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
        if (q === FOUND) return s0 + this.u * w;
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
          if (u < Infinity) return s0 + u * w;
        }
      }
      s0 += w;
      w = Math.min(2 * w, f.window);
    }
    return Infinity;
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
