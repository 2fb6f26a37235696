/**
 * Certified crossings of a polynomial event function (EVENTS.md 1 and 6; issue 23, part 3).
 *
 * The function is p(s) = c[0] + c[1] s + ... + c[D] s^D about the current time (s >= 0), each
 * coefficient with a bound on its own rounding. Wanted: the earliest s in (0, H] where p
 * crosses zero in the event's direction (falls: from > 0 to <= 0; rises: the reverse;
 * crosses: either), or Infinity.
 *
 * - Degree 1: s = -c0/c1, one rounding.
 * - Degree 2: the stable quadratic, q = -(b + sign(b) sqrt(b^2 - 4ac))/2, roots q/a and c/q,
 *   no cancellation; the discriminant with Dekker's TwoProduct (JavaScript has no fused
 *   multiply-add), so that its sign is certain wherever the coefficients' rounding allows.
 * - Higher degrees: isolation by Rolle's theorem (the roots of p' split (0, H] into pieces
 *   where p is monotone, found recursively), then bisection to neighbouring doubles in each
 *   piece whose ends have certain, opposite signs.
 *
 * A double root that the arithmetic cannot separate from two roots or none (a grazing whose
 * depth is within the coefficients' rounding) is never guessed: `unresolved` is set with
 * where it lies, and the caller reports it.
 *
 * At the instant an event fires its function is at zero: the caller sets c[0] = 0 and asks
 * for the roots of p(s)/s (`atZero`), which removes that root and gives re-arming by
 * construction; `departure` says to which side the function leaves zero.
 */

/** the highest degree handled (structure.ts MAX_DEGREE) */
const MAX = 16;
const EPS = Number.EPSILON;
/** how many times its rounding a value must exceed where a prediction resumes (settle) */
const SETTLE_MARGIN = 16;

/** Dekker's split constant 2^27 + 1 */
const SPLIT = 134217729;

/** The rounding error of a*b: a*b = fl(a*b) + twoProductError(a, b) exactly (Dekker 1971, TwoProduct). */
export function twoProductError(a: number, b: number, p: number): number {
  let t = SPLIT * a;
  const ah = t - (t - a),
    al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b),
    bl = b - bh;
  return al * bl - (p - ah * bh - al * bh - ah * bl);
}

export class PolynomialRoots {
  /** set by `first` when a root could not be resolved; `where` is its place (s) */
  unresolved = false;
  where = NaN;
  /**
   * Set by `first` (degree 3 and more) where the crossing is certain but not its place: the
   * last s before the returned root where the polynomial's sign is certain, when that lies
   * more than 2^-44 of the root's absolute time before it (else NaN; settleScale: the
   * absolute time at s = 0). A root of higher multiplicity, x^3
   * from x = -1, is only known to the cube root of the coefficients' rounding, 2e-5; about
   * that s, closer to the root, the coefficients of the same motion are small and
   * certain, and the root is known to the rounding of x (predict.ts: resume there).
   */
  settle = NaN;
  settleScale = 0;
  /** per recursion level: coefficients, their bounds, the roots found */
  private readonly w = new Float64Array((MAX + 2) * (MAX + 1));
  private readonly wb = new Float64Array((MAX + 2) * (MAX + 1));
  private readonly r = new Float64Array((MAX + 2) * (MAX + 2) * 2);
  private readonly rn = new Int32Array(MAX + 2);

  /**
   * The earliest crossing in (0, H] in direction `dir` (+1 rises, -1 falls, 0 either) of the
   * polynomial with coefficients c[off..off+D] and rounding bounds c[off+D+1..off+2D+1]; with
   * `atZero`, of p(s)/s (c[off] taken as 0). Infinity when there is none; check `unresolved`.
   */
  first(c: Float64Array, off: number, D: number, atZero: boolean, dir: number, H: number): number {
    this.unresolved = false;
    this.where = NaN;
    this.settle = NaN;
    const w = this.w,
      wb = this.wb;
    // at zero: the root there divided out, and again while the next coefficient is within its
    // rounding (a function that leaves zero at second order has a double root there)
    let shift = atZero ? 1 : 0;
    while (atZero && shift < D && !(Math.abs(c[off + shift]) > c[off + D + 1 + shift])) shift++;
    let n = D - shift;
    for (let k = 0; k <= n; k++) {
      w[k] = c[off + k + shift];
      wb[k] = c[off + D + 1 + k + shift];
    }
    // leading coefficients within their rounding are no part of the polynomial
    while (n > 0 && !(Math.abs(w[n]) > wb[n])) n--;
    if (n === 0 || !(H > 0)) return Infinity;
    this.normalise(n);
    if (n === 1) {
      const s = -w[0] / w[1];
      return s > 0 && s <= H && (dir === 0 || Math.sign(w[1]) === dir) ? s : Infinity;
    }
    if (n === 2) return this.quadratic(dir, H);
    return this.general(n, dir, H);
  }

  /** set by `departure`: the order of the coefficient that decides it (0: none does) */
  order = 0;

  /**
   * The side to which the function leaves zero: the sign of the first coefficient c[k],
   * k >= 1, that is larger than its rounding (its k into `order`); 0 when none is.
   */
  departure(c: Float64Array, off: number, D: number): number {
    for (let k = 1; k <= D; k++) {
      const v = c[off + k];
      if (Math.abs(v) > c[off + D + 1 + k]) {
        this.order = k;
        return Math.sign(v);
      }
    }
    this.order = 0;
    return 0;
  }

  /**
   * Scales the coefficients (and their bounds) by a power of two so that the largest is near
   * one, exactly: the roots do not change, and the products of the discriminant neither
   * underflow nor overflow (a ball of size 1e-200 has b^2 - 4ac = 1e-399).
   */
  private normalise(n: number): void {
    const w = this.w,
      wb = this.wb;
    let big = 0;
    for (let k = 0; k <= n; k++) big = Math.max(big, Math.abs(w[k]));
    if (big > 1e-100 && big < 1e100) return;
    const e = -Math.round(Math.log2(big));
    // (in two factors: 2^e alone can overflow where the coefficients are subnormal)
    const f1 = 2 ** Math.trunc(e / 2),
      f2 = 2 ** (e - Math.trunc(e / 2));
    for (let k = 0; k <= n; k++) {
      w[k] = w[k] * f1 * f2;
      wb[k] = wb[k] * f1 * f2;
    }
  }

  /** w[0] + w[1] s + w[2] s^2 */
  private quadratic(dir: number, H: number): number {
    const w = this.w,
      wb = this.wb;
    const a = w[2],
      b = w[1],
      c = w[0];
    const bb = b * b,
      ac4 = 4 * a * c;
    const disc = bb - ac4 + (twoProductError(b, b, bb) - twoProductError(4 * a, c, ac4));
    // how far the coefficients' rounding can move the discriminant
    const slack =
      2 * Math.abs(b) * wb[1] + 4 * (Math.abs(c) * wb[2] + Math.abs(a) * wb[0]) + 4 * EPS * EPS * (bb + Math.abs(ac4));
    const vertex = -b / (2 * a);
    if (!(Math.abs(disc) > slack)) {
      // a double root within rounding: a grazing the arithmetic cannot tell from two crossings or none
      if (vertex > 0 && vertex <= H) {
        this.unresolved = true;
        this.where = vertex;
      }
      return Infinity;
    }
    if (disc < 0) return Infinity;
    const q = -0.5 * (b + (b >= 0 ? Math.sqrt(disc) : -Math.sqrt(disc)));
    let r1 = q / a,
      r2 = c / q;
    if (r1 > r2) {
      const x = r1;
      r1 = r2;
      r2 = x;
    }
    // at the smaller root p' has the sign of -a, at the larger the sign of a
    const sa = Math.sign(a);
    if (r1 > 0 && r1 <= H && (dir === 0 || -sa === dir)) return r1;
    if (r2 > 0 && r2 <= H && (dir === 0 || sa === dir)) return r2;
    return Infinity;
  }

  /** degree n >= 3: Rolle isolation, then bisection in each monotone piece */
  private general(n: number, dir: number, H: number): number {
    this.rootsAt(0, n, H, true);
    const count = this.rn[0];
    for (let i = 0; i < count; i++) {
      const s = this.r[2 * i],
        sign = this.r[2 * i + 1];
      if (sign === 0) {
        // a root at an extremum within rounding
        this.unresolved = true;
        this.where = s;
        return Infinity;
      }
      if (dir === 0 || sign === dir) return s;
    }
    return Infinity;
  }

  /**
   * The roots in (0, H] of the polynomial of level L (coefficients w[L(MAX+1)..], degree n),
   * in increasing order, into r[L(MAX+2)..] as pairs (root, sign of the crossing: +1 rising,
   * -1 falling, 0 a touching within rounding) and their count into rn[L]. `certify`: check
   * the extrema (only the event function itself needs it; a derivative's roots only split
   * the range).
   */
  private rootsAt(L: number, n: number, H: number, certify: boolean): void {
    const w = this.w,
      wb = this.wb,
      o = L * (MAX + 1),
      ro = L * (MAX + 2) * 2;
    let count = 0;
    // the derivative at the next level, and its roots: the ends of the monotone pieces
    let crit = 0;
    const on = (L + 1) * (MAX + 1);
    if (n >= 2) {
      for (let k = 1; k <= n; k++) {
        w[on + k - 1] = k * w[o + k];
        wb[on + k - 1] = k * wb[o + k];
      }
      let m = n - 1;
      while (m > 0 && !(Math.abs(w[on + m]) > wb[on + m])) m--;
      if (m >= 2) this.rootsAt(L + 1, m, H, false);
      else if (m === 1) {
        const s = -w[on] / w[on + 1];
        this.rn[L + 1] = 0;
        if (s > 0 && s < H) {
          this.r[(L + 1) * (MAX + 2) * 2] = s;
          this.rn[L + 1] = 1;
        }
      } else this.rn[L + 1] = 0;
      crit = this.rn[L + 1];
    }
    const co = (L + 1) * (MAX + 2) * 2;
    let a = 0;
    let pa = this.valueSign(o, n, 0);
    // (the last point where the sign was certain: a, or before it)
    let certain = pa !== 0 ? 0 : NaN;
    for (let i = 0; i <= crit; i++) {
      const b = i < crit ? this.r[co + 2 * i] : H;
      const pb = this.valueSign(o, n, b);
      if (pa !== 0 && pb !== 0 && pa !== pb) {
        const root = this.bisect(o, n, a, b, pa);
        if (certify && count === 0 && certain === certain) this.settleBefore(o, n, certain, root, pa);
        this.r[ro + 2 * count] = root;
        this.r[ro + 2 * count + 1] = pb;
        count++;
      } else if (certify && pb === 0 && i < crit && b > 0) {
        // an extremum within rounding of zero: a touching or two close crossings
        this.r[ro + 2 * count] = b;
        this.r[ro + 2 * count + 1] = 0;
        count++;
      }
      a = b;
      if (pb !== 0) {
        pa = pb;
        certain = b;
      }
    }
    this.rn[L] = count;
  }

  /**
   * settle (see there) for the root at r, the sign certainly sa at s0 < r: the boundary of
   * the certain sign, bisected between s0 and r, with a margin of SETTLE_MARGIN over the
   * rounding: predicted again from there, the function is clearly off zero (within its
   * rounding, it would be a function at zero at a start, whose crossing does not count).
   */
  private settleBefore(o: number, n: number, s0: number, r: number, sa: number): void {
    let lo = s0,
      hi = r;
    for (let i = 0; i < 80 && hi - lo > 2 ** -48 * (this.settleScale + r); i++) {
      const m = lo + 0.5 * (hi - lo);
      if (this.valueSign(o, n, m, SETTLE_MARGIN) === sa) lo = m;
      else hi = m;
    }
    // (only half the way to the root or more: a simple root whose value is known no better
    // anywhere, x - y with both near 1000, has its margin reached at once, and resuming a few
    // ulps on, where the states do not move, never got nearer: more than 20000 instants)
    if (lo > s0 && r - lo > 2 ** -44 * (this.settleScale + r) && lo - s0 >= 0.5 * (r - s0)) this.settle = lo;
  }

  /** the sign of the polynomial at s where it is certain (`margin` times its rounding bound exceeded), else 0 */
  private valueSign(o: number, n: number, s: number, margin = 1): number {
    const w = this.w,
      wb = this.wb;
    let v = w[o + n],
      e = wb[o + n] + EPS * Math.abs(w[o + n]);
    const as = Math.abs(s);
    for (let k = n - 1; k >= 0; k--) {
      v = v * s + w[o + k];
      e = e * as + wb[o + k] + 2 * EPS * Math.abs(v);
    }
    return Math.abs(v) > margin * e ? Math.sign(v) : 0;
  }

  /** bisection to neighbouring doubles in [a, b], where the sign at a is sa and at b the opposite */
  private bisect(o: number, n: number, a: number, b: number, sa: number): number {
    const w = this.w;
    for (let i = 0; i < 1100; i++) {
      const m = a + 0.5 * (b - a);
      if (!(m > a && m < b)) break;
      let v = w[o + n];
      for (let k = n - 1; k >= 0; k--) v = v * m + w[o + k];
      if (Math.sign(v) === sa) a = m;
      else b = m;
    }
    return b;
  }
}
