/**
 * LU factorisation with partial pivoting, in place, for the implicit methods' iteration
 * matrix (I/(hγ) − J). In-house rather than ml-matrix: the matrix is refactored on every step
 * (a Rosenbrock method needs the current Jacobian), so the factorisation must write into
 * arrays allocated once, and for the small systems that dominate (n ≤ a few dozen) the
 * object and bounds overhead of a general library costs more than the arithmetic.
 *
 * Storage is row-major: a[i·n + j]. Rows are swapped in place (LINPACK's DGEFA does columns,
 * but row-major and row swaps keep every inner loop contiguous).
 */

/**
 * Factors a (n×n, row-major) in place into L (unit lower, below the diagonal) and U, with
 * the row interchanges in piv (piv[k]: the row swapped with row k at step k). Returns false
 * when a pivot is exactly zero (singular to working precision): the caller shrinks its step.
 */
export function luFactor(a: Float64Array, n: number, piv: Int32Array): boolean {
  for (let k = 0; k < n; k++) {
    const rk = k * n;
    let p = k;
    let best = Math.abs(a[rk + k]);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(a[i * n + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[k] = p;
    if (!(best > 0)) return false; // zero or NaN pivot
    if (p !== k) {
      const rp = p * n;
      for (let j = 0; j < n; j++) {
        const tmp = a[rk + j];
        a[rk + j] = a[rp + j];
        a[rp + j] = tmp;
      }
    }
    const inv = 1 / a[rk + k];
    for (let i = k + 1; i < n; i++) {
      const ri = i * n;
      const m = a[ri + k] * inv;
      a[ri + k] = m;
      if (m !== 0) for (let j = k + 1; j < n; j++) a[ri + j] -= m * a[rk + j];
    }
  }
  return true;
}

/** Solves (LU) x = b for the factors of {@link luFactor}; b is overwritten with x. */
export function luSolve(a: Float64Array, n: number, piv: Int32Array, b: Float64Array): void {
  for (let k = 0; k < n; k++) {
    const p = piv[k];
    if (p !== k) {
      const tmp = b[k];
      b[k] = b[p];
      b[p] = tmp;
    }
  }
  for (let i = 1; i < n; i++) {
    const ri = i * n;
    let s = b[i];
    for (let j = 0; j < i; j++) s -= a[ri + j] * b[j];
    b[i] = s;
  }
  for (let i = n - 1; i >= 0; i--) {
    const ri = i * n;
    let s = b[i];
    for (let j = i + 1; j < n; j++) s -= a[ri + j] * b[j];
    b[i] = s / a[ri + i];
  }
}

/**
 * Banded LU with partial pivoting for a matrix with `ml` sub- and `mu` super-diagonals
 * (LAPACK's DGBTRF layout, row interchanges fill in up to ml more super-diagonals). Storage:
 * row i keeps columns i − ml .. i + mu + ml at ab[i·w + (j − i + ml)], w = 2·ml + mu + 1.
 * A chain that couples neighbours only (ml = mu = 1) then costs O(n) per factorisation, not
 * O(n³).
 */
export class BandedLu {
  readonly n: number;
  readonly ml: number;
  readonly mu: number;
  /** row width of the band storage */
  readonly w: number;
  readonly ab: Float64Array;
  readonly piv: Int32Array;

  constructor(n: number, ml: number, mu: number) {
    this.n = n;
    this.ml = ml;
    this.mu = mu;
    this.w = 2 * ml + mu + 1;
    this.ab = new Float64Array(n * this.w);
    this.piv = new Int32Array(n);
  }

  /** index of (i, j) in ab; valid for i − ml ≤ j ≤ i + mu + ml */
  at(i: number, j: number): number {
    return i * this.w + (j - i + this.ml);
  }

  /** Factors ab in place; false when a pivot is zero. */
  factor(): boolean {
    const { n, ml, mu, w, ab, piv } = this;
    const upw = mu + ml; // super-diagonals after fill-in
    for (let k = 0; k < n; k++) {
      const iEnd = Math.min(n - 1, k + ml);
      let p = k;
      let best = Math.abs(ab[k * w + ml]);
      for (let i = k + 1; i <= iEnd; i++) {
        const v = Math.abs(ab[i * w + (k - i + ml)]);
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
          const tmp = ab[ik];
          ab[ik] = ab[ip];
          ab[ip] = tmp;
        }
      }
      const inv = 1 / ab[k * w + ml];
      for (let i = k + 1; i <= iEnd; i++) {
        const ik = i * w + (k - i + ml);
        const m = ab[ik] * inv;
        ab[ik] = m;
        if (m === 0) continue;
        const off = i * w - i + ml,
          offk = k * w - k + ml;
        for (let j = k + 1; j <= jEnd; j++) ab[off + j] -= m * ab[offk + j];
      }
    }
    return true;
  }

  /** Solves with the factors; b is overwritten with x. */
  solve(b: Float64Array): void {
    const { n, ml, mu, w, ab, piv } = this;
    const upw = mu + ml;
    for (let k = 0; k < n; k++) {
      const p = piv[k];
      if (p !== k) {
        const tmp = b[k];
        b[k] = b[p];
        b[p] = tmp;
      }
      const bk = b[k];
      if (bk === 0) continue;
      const iEnd = Math.min(n - 1, k + ml);
      for (let i = k + 1; i <= iEnd; i++) b[i] -= ab[i * w + (k - i + ml)] * bk;
    }
    for (let i = n - 1; i >= 0; i--) {
      const off = i * w - i + ml;
      const jEnd = Math.min(n - 1, i + upw);
      let s = b[i];
      for (let j = i + 1; j <= jEnd; j++) s -= ab[off + j] * b[j];
      b[i] = s / ab[off + i];
    }
  }
}
