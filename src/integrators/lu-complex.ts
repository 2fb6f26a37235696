import { listNonzeros, REFACTOR_MULTIPLIER_MAX, SparseFactorLists } from './lu.js';

/** the quotient of the last {@link divide} (a module's buffer: no allocation per division) */
const quot = new Float64Array(2);

/**
 * (xr + i·xi) / (dr + i·di) into quot, by Smith's algorithm: scaled by the larger part of the
 * divisor, so that neither |d|² nor x·d overflows (radau5's stages at 1e300 over a pivot of
 * γ/h) where the quotient itself is representable.
 */
function divide(xr: number, xi: number, dr: number, di: number): void {
  if (Math.abs(dr) >= Math.abs(di)) {
    const r = di / dr,
      den = dr + di * r;
    quot[0] = (xr + xi * r) / den;
    quot[1] = (xi - xr * r) / den;
  } else {
    const r = dr / di,
      den = dr * r + di;
    quot[0] = (xr * r + xi) / den;
    quot[1] = (xi * r - xr) / den;
  }
}
/**
 * Complex LU factorisation with partial pivoting, for RADAU5's complex iteration matrix
 * ((α + iβ)/h) I − J. Real and imaginary parts are kept in two Float64Arrays (as Hairer's
 * DECC/SOLC keep E2R and E2I): no complex objects, nothing allocated after construction, and
 * the same storage as the real LU of lu.ts, dense row-major or banded.
 *
 * Pivots are chosen by |re| + |im| (Hairer's DECC): as good as the modulus for stability and
 * without a square root.
 */

/**
 * Dense complex LU (row-major n×n, partial pivoting), factored once and solved with many
 * times, with the economy of lu.ts' SparseAwareLu: the elimination touches only the columns
 * where the pivot row is nonzero and the rows with a nonzero multiplier, and the solves run
 * over the lists of the nonzeros of L and U. With a pattern (setPattern) it refactors along the
 * last pivot sequence (lu.ts, SparseFactorLists), multipliers measured by |re| + |im|, and
 * keeps the factors apart from the matrix, in lr and li.
 */
export class SparseAwareComplexLu extends SparseFactorLists {
  /** real and imaginary parts of the matrix; factor() overwrites them with L and U unless a pattern was set */
  readonly ar: Float64Array;
  readonly ai: Float64Array;
  /** the factors: ar and ai themselves, or (with a pattern) arrays of their own */
  private lr: Float64Array;
  private li: Float64Array;

  constructor(n: number) {
    super(n);
    this.ar = new Float64Array(n * n);
    this.ai = new Float64Array(n * n);
    this.lr = this.ar;
    this.li = this.ai;
  }

  protected override allocateFactors(): void {
    if (this.lr === this.ar) {
      this.lr = new Float64Array(this.n * this.n);
      this.li = new Float64Array(this.n * this.n);
    }
  }

  protected override listNonzeros(): boolean {
    return listNonzeros(this.n, this.lr, this.li, this.lPtr, this.lIdx, this.uPtr, this.uIdx);
  }

  /**
   * (ar + i·ai) factored along the last pivot sequence over the structure of its factors (see
   * SparseAwareLu.refactor); false when a multiplier exceeds REFACTOR_MULTIPLIER_MAX (in
   * |re| + |im|) or a pivot is zero or not finite.
   */
  protected override refactor(): boolean {
    const n = this.n,
      lr = this.lr,
      li = this.li,
      lPtr = this.lPtr,
      lIdx = this.lIdx,
      uPtr = this.uPtr,
      uIdx = this.uIdx;
    for (let i = 0; i < n; i++) {
      const ri = i * n;
      this.gatherRow(i, this.ar, lr);
      this.gatherRow(i, this.ai, li);
      for (let t = lPtr[i], e = lPtr[i + 1]; t < e; t++) {
        const k = lIdx[t],
          rk = k * n;
        const pr = lr[rk + k],
          pi = li[rk + k];
        divide(lr[ri + k], li[ri + k], pr, pi);
        const mr = quot[0],
          mi = quot[1];
        if (!(Math.abs(mr) + Math.abs(mi) <= REFACTOR_MULTIPLIER_MAX)) return false;
        lr[ri + k] = mr;
        li[ri + k] = mi;
        if (mr === 0 && mi === 0) continue;
        for (let s = uPtr[k], e = uPtr[k + 1]; s < e; s++) {
          const j = uIdx[s];
          const ur = lr[rk + j],
            ui = li[rk + j];
          lr[ri + j] -= mr * ur - mi * ui;
          li[ri + j] -= mr * ui + mi * ur;
        }
      }
      const dr = lr[ri + i],
        di = li[ri + i];
      if (!((dr !== 0 || di !== 0) && dr - dr === 0 && di - di === 0)) return false;
    }
    return true;
  }

  /** partial pivoting (pivots by |re| + |im|), in lr and li */
  protected override factorPivoting(): boolean {
    if (this.lr !== this.ar) {
      this.lr.set(this.ar);
      this.li.set(this.ai);
    }
    const { n, lr: ar, li: ai, piv, cols } = this;
    for (let k = 0; k < n; k++) {
      const rk = k * n;
      let p = k;
      let best = Math.abs(ar[rk + k]) + Math.abs(ai[rk + k]);
      for (let i = k + 1; i < n; i++) {
        const v = Math.abs(ar[i * n + k]) + Math.abs(ai[i * n + k]);
        if (v > best) {
          best = v;
          p = i;
        }
      }
      piv[k] = p;
      if (!(best > 0)) return false;
      if (p !== k) {
        const rp = p * n;
        for (let j = 0; j < n; j++) {
          let tmp = ar[rk + j];
          ar[rk + j] = ar[rp + j];
          ar[rp + j] = tmp;
          tmp = ai[rk + j];
          ai[rk + j] = ai[rp + j];
          ai[rp + j] = tmp;
        }
      }
      let nc = 0;
      for (let j = k + 1; j < n; j++) if (ar[rk + j] !== 0 || ai[rk + j] !== 0) cols[nc++] = j;
      // 1 / pivot
      const pr = ar[rk + k],
        pi = ai[rk + k];
      divide(1, 0, pr, pi);
      const qr = quot[0],
        qi = quot[1];
      for (let i = k + 1; i < n; i++) {
        const ri = i * n;
        const xr = ar[ri + k],
          xi = ai[ri + k];
        if (xr === 0 && xi === 0) continue;
        const mr = xr * qr - xi * qi,
          mi = xr * qi + xi * qr;
        ar[ri + k] = mr;
        ai[ri + k] = mi;
        for (let c = 0; c < nc; c++) {
          const j = cols[c];
          const ur = ar[rk + j],
            ui = ai[rk + j];
          ar[ri + j] -= mr * ur - mi * ui;
          ai[ri + j] -= mr * ui + mi * ur;
        }
      }
    }
    return true;
  }

  /** Solves with the factors; (br + i·bi) is overwritten with x. */
  solve(br: Float64Array, bi: Float64Array): void {
    const { n, piv } = this;
    for (let k = 0; k < n; k++) {
      const p = piv[k];
      if (p !== k) {
        let tmp = br[k];
        br[k] = br[p];
        br[p] = tmp;
        tmp = bi[k];
        bi[k] = bi[p];
        bi[p] = tmp;
      }
    }
    // (over the lists whether sparse or not: for a dense matrix they hold every column, and
    // a complex entry costs four products, so the index costs little)
    const { lr: ar, li: ai, lPtr, lIdx, uPtr, uIdx } = this;
    for (let i = 1; i < n; i++) {
      const ri = i * n;
      let sr = br[i],
        si = bi[i];
      for (let t = lPtr[i], e = lPtr[i + 1]; t < e; t++) {
        const j = lIdx[t];
        const lr = ar[ri + j],
          li = ai[ri + j];
        sr -= lr * br[j] - li * bi[j];
        si -= lr * bi[j] + li * br[j];
      }
      br[i] = sr;
      bi[i] = si;
    }
    for (let i = n - 1; i >= 0; i--) {
      const ri = i * n;
      let sr = br[i],
        si = bi[i];
      for (let t = uPtr[i], e = uPtr[i + 1]; t < e; t++) {
        const j = uIdx[t];
        const ur = ar[ri + j],
          ui = ai[ri + j];
        sr -= ur * br[j] - ui * bi[j];
        si -= ur * bi[j] + ui * br[j];
      }
      const dr = ar[ri + i],
        di = ai[ri + i];
      divide(sr, si, dr, di);
      br[i] = quot[0];
      bi[i] = quot[1];
    }
  }
}

/**
 * Banded complex LU with partial pivoting, `ml` sub- and `mu` super-diagonals, in the layout
 * of lu.ts' BandedLu (row i keeps columns i − ml .. i + mu + ml at [i·w + (j − i + ml)],
 * w = 2·ml + mu + 1): O(n·band²) for a chain of cells, as the real factorisation.
 */
export class BandedComplexLu {
  readonly n: number;
  readonly ml: number;
  readonly mu: number;
  readonly w: number;
  readonly ar: Float64Array;
  readonly ai: Float64Array;
  readonly piv: Int32Array;

  constructor(n: number, ml: number, mu: number) {
    this.n = n;
    this.ml = ml;
    this.mu = mu;
    this.w = 2 * ml + mu + 1;
    this.ar = new Float64Array(n * this.w);
    this.ai = new Float64Array(n * this.w);
    this.piv = new Int32Array(n);
  }

  /** Factors (ar + i·ai) in place; false when a pivot is zero. */
  factor(): boolean {
    const { n, ml, mu, w, ar, ai, piv } = this;
    const upw = mu + ml;
    for (let k = 0; k < n; k++) {
      const iEnd = Math.min(n - 1, k + ml);
      let p = k;
      let best = Math.abs(ar[k * w + ml]) + Math.abs(ai[k * w + ml]);
      for (let i = k + 1; i <= iEnd; i++) {
        const at = i * w + (k - i + ml);
        const v = Math.abs(ar[at]) + Math.abs(ai[at]);
        if (v > best) {
          best = v;
          p = i;
        }
      }
      piv[k] = p;
      if (!(best > 0)) return false;
      const jEnd = Math.min(n - 1, k + upw);
      if (p !== k) {
        for (let j = k; j <= jEnd; j++) {
          const ik = k * w + (j - k + ml),
            ip = p * w + (j - p + ml);
          let tmp = ar[ik];
          ar[ik] = ar[ip];
          ar[ip] = tmp;
          tmp = ai[ik];
          ai[ik] = ai[ip];
          ai[ip] = tmp;
        }
      }
      const pr = ar[k * w + ml],
        pi = ai[k * w + ml];
      divide(1, 0, pr, pi);
      const qr = quot[0],
        qi = quot[1];
      const offk = k * w - k + ml;
      for (let i = k + 1; i <= iEnd; i++) {
        const ik = i * w + (k - i + ml);
        const xr = ar[ik],
          xi = ai[ik];
        if (xr === 0 && xi === 0) continue;
        const mr = xr * qr - xi * qi,
          mi = xr * qi + xi * qr;
        ar[ik] = mr;
        ai[ik] = mi;
        const off = i * w - i + ml;
        for (let j = k + 1; j <= jEnd; j++) {
          const ur = ar[offk + j],
            ui = ai[offk + j];
          ar[off + j] -= mr * ur - mi * ui;
          ai[off + j] -= mr * ui + mi * ur;
        }
      }
    }
    return true;
  }

  /** Solves with the factors; (br + i·bi) is overwritten with x. */
  solve(br: Float64Array, bi: Float64Array): void {
    const { n, ml, mu, w, ar, ai, piv } = this;
    const upw = mu + ml;
    for (let k = 0; k < n; k++) {
      const p = piv[k];
      if (p !== k) {
        let tmp = br[k];
        br[k] = br[p];
        br[p] = tmp;
        tmp = bi[k];
        bi[k] = bi[p];
        bi[p] = tmp;
      }
      const xr = br[k],
        xi = bi[k];
      if (xr === 0 && xi === 0) continue;
      const iEnd = Math.min(n - 1, k + ml);
      for (let i = k + 1; i <= iEnd; i++) {
        const at = i * w + (k - i + ml);
        const lr = ar[at],
          li = ai[at];
        br[i] -= lr * xr - li * xi;
        bi[i] -= lr * xi + li * xr;
      }
    }
    for (let i = n - 1; i >= 0; i--) {
      const off = i * w - i + ml;
      const jEnd = Math.min(n - 1, i + upw);
      let sr = br[i],
        si = bi[i];
      for (let j = i + 1; j <= jEnd; j++) {
        const ur = ar[off + j],
          ui = ai[off + j];
        sr -= ur * br[j] - ui * bi[j];
        si -= ur * bi[j] + ui * br[j];
      }
      const dr = ar[off + i],
        di = ai[off + i];
      divide(sr, si, dr, di);
      br[i] = quot[0];
      bi[i] = quot[1];
    }
  }
}
