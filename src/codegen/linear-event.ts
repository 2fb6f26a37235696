/**
 * A state event's function g = c·x + c0 that is affine in the states of one linear block
 * x' = A x + b (issue 24), along the block's segment: a sum of exponentials times polynomials
 * and sines, entire in the time s from the current instant. Its Taylor coefficients about any
 * s0 come from the derivatives of x, x⁽¹⁾ = A x + b, x⁽ᵏ⁺¹⁾ = A x⁽ᵏ⁾:
 *
 *     g(s0 + u) = Σ_{k<=K} c·x⁽ᵏ⁾(s0) u^k / k! + R,   |R| <= ||c||₁ ||x⁽ᴷ⁺¹⁾||∞,max |u|^{K+1} / (K+1)!
 *
 * with ||x⁽ᴷ⁺¹⁾(σ)||∞ <= ||A||^K (||A|| X + ||b||) and, over a window of width w,
 * ||x(σ)||∞ <= X = e^{||A|| w} (||x(s0)||∞ + w ||b||∞) (||exp(A τ)||∞ <= e^{||A|| τ}). On a window
 * of width w = 1/(2||A||) the remainder is below 2^-17/17! of the scale: a polynomial of degree
 * K = 16 whose constant coefficient's rounding bound carries R is then a certified enclosure
 * of g, and its roots (analytic/roots.ts) those of g. Coefficients whose whole contribution on
 * the window lies below the constant's bound are folded into it, so a window asks for the
 * roots of a polynomial of the degree its accuracy needs, not 16.
 *
 * Each coefficient k carries a rounding bound of 8(k + 2) ulps of the magnitudes it adds up
 * (|c|·|A|^k|x|), the scale on which zero is judged (EVENTS.md 1).
 */
import type { LinearPropagator } from './propagator.js';
import { LinearReach } from './linear-reach.js';

/** The degree of the Taylor polynomial of a linear event's function on one window. */
export const LINEAR_ORDER = 16; // (the remainder below squares q four times: keep it 16)
const K = LINEAR_ORDER;
const ULPS = 8 * Number.EPSILON;
/** 1/k!, k = 0..K+1 */
const INV_FACTORIAL = Array.from({ length: K + 2 }, (_, k) => {
  let f = 1;
  for (let i = 2; i <= k; i++) f *= i;
  return 1 / f;
});

/** Fills the gradient c (length n) from p and d; returns the constant part c0. */
export type GradientFunction = (p: Float64Array, d: Float64Array, c: Float64Array) => number;

export class LinearEventFunction {
  /** the width of the window the last coefficients are valid on (Infinity: exact) */
  window = Infinity;
  private readonly c: Float64Array;
  private readonly cPrev: Float64Array;
  private c0 = 0;
  /** the block's states at the instant, and a copy moved to a window's start */
  private readonly x0: Float64Array;
  private readonly xs: Float64Array;
  /** per state of xs after valueAt: the size of the terms it was summed from (advance's mag) */
  private readonly xm: Float64Array;
  private readonly v: Float64Array;
  private readonly vm: Float64Array;
  private readonly w: Float64Array;
  private readonly wm: Float64Array;

  constructor(
    readonly block: LinearPropagator,
    private readonly gradient: GradientFunction,
  ) {
    const n = block.n;
    this.c = new Float64Array(n);
    this.cPrev = new Float64Array(n);
    this.x0 = new Float64Array(n);
    this.xs = new Float64Array(n);
    this.xm = new Float64Array(n);
    this.v = new Float64Array(n);
    this.vm = new Float64Array(n);
    this.w = new Float64Array(n);
    this.wm = new Float64Array(n);
    this.rows = new Float64Array((K + 1) * n);
    this.mags = new Float64Array((K + 1) * n);
  }

  /**
   * The Taylor coefficients about the current instant in out[0..K] (in s), their rounding
   * bounds in out[K+1..2K+1] (the constant's with the remainder on the first window), for the
   * block's states in y at the instant. Remembers them for `windowAt`.
   */
  coefficients(y: Float64Array, p: Float64Array, d: Float64Array, out: Float64Array): void {
    this.at(y, p, d);
    // (a pure rotation's and a relaxation's crossings come in closed form: the low orders are
    // enough for how the function leaves zero at the instant)
    this.taylor(this.x0, this.window, out, false, this.block.rotationFrequency() !== 0 || this.relaxes() ? 4 : K);
  }

  /**
   * The value and the rate about the current instant, with their rounding bounds, into out[0],
   * out[1], out[K+1] and out[K+2], as `coefficients` gives them (the other entries are left as
   * they were): what the engine reads of a function just before its event's actions, at a
   * fraction of the cost. Remembers the state as `coefficients` does.
   */
  valueAndRate(y: Float64Array, p: Float64Array, d: Float64Array, out: Float64Array): void {
    this.at(y, p, d);
    this.taylor(this.x0, this.window, out, false, 1, false);
  }

  /** The block's constants, the gradient and the block's states in y at the instant; the first window. */
  private at(y: Float64Array, p: Float64Array, d: Float64Array): void {
    const bl = this.block;
    bl.update(p, d);
    this.cPrev.set(this.c);
    this.c0 = this.gradient(p, d, this.c);
    for (let i = 0; i < this.c.length; i++) if (this.c[i] !== this.cPrev[i]) this.version = -1;
    const slots = bl.slots;
    for (let i = 0; i < slots.length; i++) this.x0[i] = y[slots[i]];
    const na = bl.normBalanced;
    this.window = na > 0 ? 0.5 / na : Infinity;
  }

  /**
   * The coefficients about the instant again, to the full order (a relaxation's, which
   * `coefficients` gave to low order only, when its closed form leaves the decision to the
   * window scan).
   */
  fullCoefficients(out: Float64Array): void {
    this.taylor(this.x0, this.window, out, false, K);
  }

  /**
   * The coefficients of g(s0 + u·w), u in [0, 1], about the window's start s0 (from the
   * instant), with their bounds and the remainder, into out as `coefficients` does.
   */
  windowAt(s0: number, w: number, out: Float64Array): void {
    const x = this.xs,
      mag = this.xm,
      c = this.c;
    this.advancedTo(s0);
    this.taylor(x, w, out, true);
    // The states at the window's start are sums the propagator formed from terms that may be
    // far larger than they are (two equal masses, x1 = x2: each is (a + b)/2 + (a - b)/2 of
    // the symmetric and antisymmetric modes), and each is known only to the rounding of those
    // terms. The constant coefficient is known no better: x2 - x1, zero in exact arithmetic,
    // came out as 1.6e-16 beside a bound of 1.1e-16 from |x1| + |x2|, was taken for a certain
    // sign, and the next window's -2e-16 for a crossing (n = 1 for 0, status ok).
    let terms = 0;
    for (let i = 0; i < c.length; i++) terms += Math.abs(c[i]) * mag[i];
    out[K + 1] += ULPS * 2 * terms;
  }

  /**
   * The coefficients at state x over a window of width w: scaled to u = s/w when `scaled`,
   * else in s; the tail that stays below the constant's bound on the window folded into it.
   * Those above `order` are zero (left as they were without `clear`).
   */
  private taylor(x: Float64Array, w: number, out: Float64Array, scaled: boolean, order = K, clear = true): void {
    const bl = this.block,
      n = bl.n,
      c = this.c;
    if (this.version !== bl.version || this.rowsFor !== this.c0 || this.rowsOrder < order) this.prepareRows(order);
    const { rows, mags, consts, constMags } = this;
    let cx = this.c0,
      cm = Math.abs(this.c0),
      xNorm = 0,
      cNorm = 0;
    const D = bl.balance;
    for (let i = 0; i < n; i++) {
      const xi = x[i];
      cx += c[i] * xi;
      cm += Math.abs(c[i] * xi);
      // (in the balanced units y = D x, where the remainder's norms are taken)
      xNorm = Math.max(xNorm, Math.abs(D[i] * xi));
      cNorm += Math.abs(c[i] / D[i]);
    }
    out[0] = cx;
    out[K + 1] = ULPS * 2 * cm;
    let wk = 1;
    if (clear && order < K) {
      out.fill(0, order + 1, K + 1);
      out.fill(0, K + 2 + order, 2 * K + 2);
    }
    for (let k = 1; k <= order; k++) {
      // c·x⁽ᵏ⁾/k! = rows[k]·x + consts[k], with its magnitudes
      let g = consts[k],
        gm = constMags[k];
      const o = k * n;
      for (let j = 0; j < n; j++) {
        g += rows[o + j] * x[j];
        gm += mags[o + j] * Math.abs(x[j]);
      }
      if (scaled) wk *= w;
      out[k] = g * wk;
      out[K + 1 + k] = ULPS * (k + 2) * gm * wk;
    }
    const na = bl.normBalanced,
      nb = bl.normBBalanced;
    if (w !== Infinity && na > 0) {
      // (e^{1/2} rounded up, on the usual window; (na w)^16 by squaring)
      const q = na * w;
      const X = (q <= 0.5 ? 1.6487212707001284 : Math.exp(q)) * (xNorm + w * nb);
      const q2 = q * q,
        q4 = q2 * q2,
        q8 = q4 * q4;
      const rem = 2.01 * cNorm * q8 * q8 * w * (na * X + nb) * INV_FACTORIAL[K + 1];
      out[K + 1] += rem;
    }
    this.span = scaled ? 1 : w;
  }

  /** per k: the rows c^T A^k / k!, their magnitudes |c|^T |A|^k / k!, and c^T A^(k-1) b / k! with its magnitude */
  private readonly rows: Float64Array;
  private readonly mags: Float64Array;
  private readonly consts = new Float64Array(K + 1);
  private readonly constMags = new Float64Array(K + 1);
  /** the block's constants and the constant part the rows were made for, and up to which order */
  private version = -1;
  private rowsFor = NaN;
  private rowsOrder = 0;

  /**
   * The rows up to `order`, once per value of the block's constants and of the gradient (a
   * relaxation's constants change at each arrival of a pulse, and it asks for the low orders
   * only).
   */
  private prepareRows(order: number): void {
    const bl = this.block,
      n = bl.n,
      A = bl.A,
      b = bl.b;
    const { rows, mags, consts, constMags, v, vm, w: nv, wm } = this;
    // row vectors r = c^T A^k and m = |c|^T |A|^k, built by r <- r A
    for (let j = 0; j < n; j++) {
      v[j] = this.c[j];
      vm[j] = Math.abs(this.c[j]);
    }
    for (let k = 1; k <= order; k++) {
      // c^T A^(k-1) b before r moves on
      let cb = 0,
        cbm = 0;
      for (let i = 0; i < n; i++) {
        cb += v[i] * b[i];
        cbm += vm[i] * Math.abs(b[i]);
      }
      for (let j = 0; j < n; j++) {
        let s = 0,
          m = 0;
        for (let i = 0; i < n; i++) {
          s += v[i] * A[i * n + j];
          m += vm[i] * Math.abs(A[i * n + j]);
        }
        nv[j] = s;
        wm[j] = m;
      }
      for (let j = 0; j < n; j++) {
        v[j] = nv[j];
        vm[j] = wm[j];
        rows[k * n + j] = nv[j] * INV_FACTORIAL[k];
        mags[k * n + j] = wm[j] * INV_FACTORIAL[k];
      }
      consts[k] = cb * INV_FACTORIAL[k];
      constMags[k] = cbm * INV_FACTORIAL[k];
    }
    this.version = bl.version;
    this.rowsFor = this.c0;
    this.rowsOrder = order;
  }

  /**
   * The time (from the instant) beyond which the function cannot cross, from the state at s0
   * left by `windowAt`: with ||exp(A τ)||₂ <= e^{mu2 τ} and mu2 <= 0, |g(σ) - g(x_eq)| <=
   * ||c||₂ ||x(s0) - x_eq||₂ e^{mu2 (σ - s0)}; where |g(x_eq)| exceeds that (and its rounding),
   * nothing crosses. s0 itself when it holds at once, Infinity when the bound gives nothing
   * (a block that can grow, no equilibrium, a threshold at the equilibrium).
   */
  horizon(s0: number): number {
    const bl = this.block,
      n = bl.n,
      c = this.c,
      eq = bl.equilibrium,
      x = this.xs;
    if (!bl.hasEquilibrium || !(bl.mu2 <= 0)) return Infinity;
    let gEq = this.c0,
      scale = Math.abs(this.c0),
      c2 = 0,
      d2 = 0;
    const D = bl.balance;
    for (let i = 0; i < n; i++) {
      gEq += c[i] * eq[i];
      scale += Math.abs(c[i]) * (Math.abs(eq[i]) + Math.abs(x[i]));
      c2 += (c[i] / D[i]) ** 2;
      d2 += (D[i] * (x[i] - eq[i])) ** 2;
    }
    const M = Math.sqrt(c2 * d2) * (1 + 8 * n * Number.EPSILON);
    const margin = Math.abs(gEq) - ULPS * 4 * scale;
    if (!(margin > 0)) return Infinity;
    if (margin > M) return s0;
    return bl.mu2 < 0 ? s0 + Math.log(M / margin) / -bl.mu2 : Infinity;
  }

  /**
   * A bound on |g| along the whole segment from the instant (the block's constants as they
   * are), or Infinity where none is known (linear-reach.ts).
   */
  reach(): number {
    return (this.reacher ??= new LinearReach(this.block)).reach(this.c, this.c0, this.x0);
  }

  private reacher: LinearReach | null = null;

  /**
   * On a pure rotation (propagator.ts, rotationFrequency), the function's value, rate and
   * second derivative at the instant and the frequency, g(0), g'(0), g''(0), ω, into
   * out[0..3], and the rounding of the first three into out[4..6]: along the segment
   * g(s) = g(0) - (g''(0)/ω²)(cos ωs - 1) + (g'(0)/ω) sin ωs (A² = -ω² I). Taken from the
   * state and the rate at the instant, not about the equilibrium, whose size has nothing to
   * do with g's: a slow rotation (x'' = -1e-8 x + 1, x_eq = 1e8) from x = 0 lost a threshold
   * of 1e-7 in g(x_eq) = 1e8 - 1e-7. False when the block is no pure rotation.
   */
  rotation(out: Float64Array): boolean {
    const bl = this.block;
    const w = bl.rotationFrequency();
    if (w === 0) return false;
    const A = bl.A,
      b = bl.b,
      c = this.c,
      x = this.x0;
    // the rate f = A x + b and A f, with their magnitudes
    const f0 = A[0] * x[0] + A[1] * x[1] + b[0],
      f1 = A[2] * x[0] + A[3] * x[1] + b[1];
    const m0 = Math.abs(A[0] * x[0]) + Math.abs(A[1] * x[1]) + Math.abs(b[0]),
      m1 = Math.abs(A[2] * x[0]) + Math.abs(A[3] * x[1]) + Math.abs(b[1]);
    const a0 = A[0] * f0 + A[1] * f1,
      a1 = A[2] * f0 + A[3] * f1;
    const am0 = Math.abs(A[0]) * m0 + Math.abs(A[1]) * m1,
      am1 = Math.abs(A[2]) * m0 + Math.abs(A[3]) * m1;
    const c0 = Math.abs(c[0]),
      c1 = Math.abs(c[1]);
    out[0] = this.c0 + c[0] * x[0] + c[1] * x[1];
    out[1] = c[0] * f0 + c[1] * f1;
    out[2] = c[0] * a0 + c[1] * a1;
    out[3] = w;
    out[4] = 2 * ULPS * (Math.abs(this.c0) + c0 * Math.abs(x[0]) + c1 * Math.abs(x[1]));
    out[5] = 3 * ULPS * (c0 * m0 + c1 * m1);
    out[6] = 4 * ULPS * (c0 * am0 + c1 * am1);
    return true;
  }

  /** A 1x1 block with a rate a != 0 and its equilibrium: x(s) = x_eq + (x0 - x_eq) e^{as}. */
  private relaxes(): boolean {
    const bl = this.block;
    return bl.n === 1 && bl.A[0] !== 0 && bl.hasEquilibrium;
  }

  /**
   * On a relaxation (a 1x1 block, relaxes), the function along the whole segment as
   * g(s) = γ + P e^{as} into out[0..2] = γ, P, a and out[3] a bound on the rounding of γ and P;
   * false when the block is no relaxation.
   */
  relaxation(out: Float64Array): boolean {
    if (!this.relaxes()) return false;
    const bl = this.block,
      eq = bl.equilibrium[0],
      c = this.c[0],
      x = this.x0[0];
    out[0] = this.c0 + c * eq;
    out[1] = c * (x - eq);
    out[2] = bl.A[0];
    out[3] = 2 * ULPS * (Math.abs(this.c0) + Math.abs(c) * (Math.abs(eq) + Math.abs(x)));
    return true;
  }

  /**
   * The block's state at s from the instant into xs, and into xm the magnitudes of the terms
   * its propagator summed for each state (at the instant nothing is summed: the state as it
   * stands, xm 0).
   */
  private advancedTo(s: number): void {
    this.xs.set(this.x0);
    this.xm.fill(0);
    if (s !== 0) this.block.advance(s, this.xs, this.xm);
  }

  /** set by `valueAt`: the rounding of the value it returned */
  valueBound = 0;

  /**
   * The function's value at s from the instant, on the segment itself (the block advanced by
   * its propagator, no Taylor window), its rounding into `valueBound`. Leaves the state moved
   * to s where `windowAt` does (call `windowAt` again before `horizon`).
   */
  valueAt(s: number): number {
    const x = this.xs,
      c = this.c,
      mag = this.xm;
    this.advancedTo(s);
    let v = this.c0,
      m = Math.abs(this.c0),
      terms = m;
    for (let i = 0; i < c.length; i++) {
      v += c[i] * x[i];
      m += Math.abs(c[i] * x[i]);
      terms += Math.abs(c[i]) * Math.max(Math.abs(x[i]), mag[i]);
    }
    this.valueBound = ULPS * 2 * m;
    this.termsBound = ULPS * 2 * terms;
    return v;
  }

  /**
   * set by `valueAt`: the rounding of its value on the scale of the terms the propagator
   * summed the states from, which may all be far larger than the value they cancel to (x =
   * -1e-6 + 0.0025 s - 0.5 s^2 + ... at its root is 2.4e-22, from terms of 1e-6). What may be
   * taken for a certain sign there where a crossing would be denied (linear-scan.ts, confirm).
   */
  termsBound = 0;

  /** Whether the function does not move along the block (its gradient is zero). */
  constant(): boolean {
    for (let i = 0; i < this.c.length; i++) if (this.c[i] !== 0) return false;
    return true;
  }

  /** the width in the variable of the last coefficients (1 when scaled to a window) */
  private span = 1;

  /**
   * Folds the tail of the last coefficients whose whole size on the window is below the
   * constant's bound into that bound: the certified isolation then works on the degree the
   * accuracy needs. (Kept apart: a crossing located on the whole polynomial is not moved by
   * what the folding gives up.)
   */
  truncate(out: Float64Array): void {
    const span = this.span;
    let tail = 0;
    for (let k = K; k >= 1; k--) {
      const size = (Math.abs(out[k]) + out[K + 1 + k]) * span ** k;
      if (!(tail + size <= 0.5 * out[K + 1])) break;
      tail += size;
      out[k] = 0;
      out[K + 1 + k] = 0;
    }
    out[K + 1] += tail;
  }
}
