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
 * With `cols` (work space of length n) the elimination updates only the columns where the pivot
 * row is nonzero: the same numbers, less work on a sparse matrix.
 */
export function luFactor(a: Float64Array, n: number, piv: Int32Array, cols?: Int32Array): boolean {
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
    if (cols === undefined) {
      for (let i = k + 1; i < n; i++) {
        const ri = i * n;
        const m = a[ri + k] * inv;
        a[ri + k] = m;
        if (m !== 0) for (let j = k + 1; j < n; j++) a[ri + j] -= m * a[rk + j];
      }
      continue;
    }
    // only the columns where the pivot row is nonzero (see SparseAwareLu)
    let nc = 0;
    for (let j = k + 1; j < n; j++) if (a[rk + j] !== 0) cols[nc++] = j;
    for (let i = k + 1; i < n; i++) {
      const ri = i * n;
      const m = a[ri + k] * inv;
      a[ri + k] = m;
      if (m === 0) continue;
      for (let c = 0; c < nc; c++) {
        const j = cols[c];
        a[ri + j] -= m * a[rk + j];
      }
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

/**
 * How large a multiplier |l_ik| a refactorisation along the previous pivot sequence accepts
 * (threshold pivoting with τ = 0.1, the default of UMFPACK and MA48): partial pivoting keeps
 * |l_ik| ≤ 1, and a bound of 10 keeps the growth of the factors in check. Beyond it the matrix
 * is factored afresh, with partial pivoting. In the implicit methods the factors only serve a
 * simplified Newton iteration, whose residual uses f itself, and the filter of an error
 * estimate: what a less accurate factorisation costs is a slower contraction, never a wrong
 * stage.
 */
export const REFACTOR_MULTIPLIER_MAX = 10;

/**
 * What the sparse-aware dense LUs (real here, complex in lu-complex.ts) share: the pivots, the
 * work array of the elimination, and the lists of the nonzeros of L and U, row by row.
 *
 * With the pattern of the matrix (`setPattern`: which entries can be nonzero, as the exact
 * Jacobian's structure gives it) they also refactor, as KLU does: after a factorisation with
 * partial pivoting they work out the structure of L and U for its pivot sequence (symbolic
 * elimination on the pattern), and the next matrix with the same pattern is factored along
 * that sequence without searching for pivots, touching only that structure, row by row
 * ("up-looking": each row eliminated by the rows of U above it). A multiplier beyond
 * REFACTOR_MULTIPLIER_MAX sends it back to partial pivoting. For RADAU5 on POLLU (20 species,
 * 82 of 400 entries) that makes a factorisation 4 to 5 times cheaper: the searches and scans of
 * partial pivoting are O(n²) per factorisation whatever the sparsity.
 */
export abstract class SparseFactorLists {
  readonly n: number;
  readonly piv: Int32Array;
  protected readonly cols: Int32Array;
  protected readonly lPtr: Int32Array;
  protected readonly lIdx: Int32Array;
  protected readonly uPtr: Int32Array;
  protected readonly uIdx: Int32Array;
  /** whether the factors are sparse enough for the lists to pay (set by factor()) */
  protected sparse = false;
  /** the structural nonzeros of the matrix (n×n, row-major, 1 = may be nonzero), or null */
  protected pattern: Uint8Array | null = null;
  private patternSet: Uint8Array | null = null;
  /** the structure of the factors for the last pivot sequence (n×n), with the pattern only */
  private structure: Uint8Array | null = null;
  /** row i of the factored matrix is row order[i] of the matrix (the pivot sequence applied) */
  protected readonly order: Int32Array;
  /** the lists hold the structure of the factors of a pivot sequence that refactor() can follow */
  protected canRefactor = false;
  /** (counters, for tests and benchmarks) factorisations with partial pivoting, and refactorisations */
  fullFactorizations = 0;
  refactorizations = 0;

  constructor(n: number) {
    this.n = n;
    this.piv = new Int32Array(n);
    this.cols = new Int32Array(n);
    this.lPtr = new Int32Array(n + 1);
    this.uPtr = new Int32Array(n + 1);
    this.lIdx = new Int32Array((n * (n - 1)) / 2);
    this.uIdx = new Int32Array((n * (n - 1)) / 2);
    this.order = new Int32Array(n);
  }

  /**
   * The structural nonzeros of every matrix to be factored from now on (n×n, row-major, 1 where
   * an entry may be nonzero; the diagonal is taken as structural anyway). Copied. Enables
   * refactorisation (see the class comment).
   */
  setPattern(pattern: Uint8Array): void {
    const n = this.n;
    if (pattern.length !== n * n) throw new RangeError(`setPattern: expected ${n * n} entries, got ${pattern.length}`);
    this.pattern = this.patternSet = Uint8Array.from(pattern);
    for (let i = 0; i < n; i++) this.pattern[i * n + i] = 1;
    this.structure = new Uint8Array(n * n);
    this.canRefactor = false;
    this.allocateFactors();
  }

  /**
   * Whether the matrices to come keep to the pattern set (false: one that may not, as a
   * Jacobian by finite differences; factored with partial pivoting until it is true again).
   */
  usePattern(on: boolean): void {
    this.pattern = on ? this.patternSet : null;
    this.canRefactor = false;
  }

  /**
   * Factors the matrix: along the last pivot sequence where it can (see the class comment),
   * else with partial pivoting. False when a pivot is zero (or NaN).
   */
  factor(): boolean {
    if (this.canRefactor && this.refactor()) {
      this.refactorizations++;
      return true;
    }
    this.fullFactorizations++;
    if (!this.factorPivoting()) {
      this.canRefactor = false;
      return false;
    }
    if (this.pattern !== null) this.listStructure();
    else {
      this.canRefactor = false;
      this.sparse = this.listNonzeros();
    }
    return true;
  }

  /** (the LUs keep their factors apart from the matrix once they can refactor) */
  protected abstract allocateFactors(): void;
  /** the matrix factored with partial pivoting into the factors' arrays (piv); false when singular */
  protected abstract factorPivoting(): boolean;
  /** the matrix factored along the pivot sequence in hand (see the class comment); false when it cannot */
  protected abstract refactor(): boolean;
  /** after factorPivoting: lists the nonzeros of the factors (listNonzeros); whether they are sparse */
  protected abstract listNonzeros(): boolean;

  /**
   * After a factorisation with partial pivoting (piv), with the pattern: the structure of L
   * and U for its pivot sequence, by symbolic elimination of the pattern's rows in that order,
   * into the lists (a superset of the nonzeros, in increasing column order), and `order`.
   */
  protected listStructure(): void {
    const n = this.n,
      pattern = this.pattern!,
      st = this.structure!,
      order = this.order,
      piv = this.piv,
      cols = this.cols;
    for (let i = 0; i < n; i++) order[i] = i;
    for (let k = 0; k < n; k++) {
      const p = piv[k],
        tmp = order[k];
      order[k] = order[p];
      order[p] = tmp;
    }
    for (let i = 0; i < n; i++) st.set(pattern.subarray(order[i] * n, order[i] * n + n), i * n);
    for (let k = 0; k < n; k++) {
      const rk = k * n;
      let nc = 0;
      for (let j = k + 1; j < n; j++) if (st[rk + j] !== 0) cols[nc++] = j;
      for (let i = k + 1; i < n; i++) {
        const ri = i * n;
        if (st[ri + k] === 0) continue;
        for (let c = 0; c < nc; c++) st[ri + cols[c]] = 1;
      }
    }
    let nl = 0,
      nu = 0;
    const lPtr = this.lPtr,
      lIdx = this.lIdx,
      uPtr = this.uPtr,
      uIdx = this.uIdx;
    for (let i = 0; i < n; i++) {
      const ri = i * n;
      lPtr[i] = nl;
      uPtr[i] = nu;
      for (let j = 0; j < i; j++) if (st[ri + j] !== 0) lIdx[nl++] = j;
      for (let j = i + 1; j < n; j++) if (st[ri + j] !== 0) uIdx[nu++] = j;
    }
    lPtr[n] = nl;
    uPtr[n] = nu;
    this.sparse = true;
    this.canRefactor = true;
  }

  /** refactor(): row order[i] of `from`, where the structure of row i of the factors is, into row i of `to` */
  protected gatherRow(i: number, from: Float64Array, to: Float64Array): void {
    const n = this.n,
      ri = i * n,
      src = this.order[i] * n,
      lIdx = this.lIdx,
      uIdx = this.uIdx;
    for (let t = this.lPtr[i], e = this.lPtr[i + 1]; t < e; t++) to[ri + lIdx[t]] = from[src + lIdx[t]];
    to[ri + i] = from[src + i];
    for (let t = this.uPtr[i], e = this.uPtr[i + 1]; t < e; t++) to[ri + uIdx[t]] = from[src + uIdx[t]];
  }
}

/**
 * The dense LU of lu.ts for a matrix that is factored once and solved with many times (radau5
 * reuses its factorisations across Newton iterations and steps), made cheap for the sparse
 * iteration matrices of chemical kinetics (POLLU: 20 species, a fifth of the entries nonzero):
 * the elimination updates only the columns where the pivot row is nonzero (luFactor with
 * `cols`), and when the nonzeros of L and U are under half of the matrix the solves run over
 * lists of them, O(nnz) instead of O(n²). Each entry gets the same operations in the same order
 * as in luFactor/luSolve: only terms that are exactly zero are skipped. With a pattern
 * (setPattern) it refactors along the last pivot sequence (see SparseFactorLists), and the
 * factors are then kept apart from the matrix, in `lu`.
 */
export class SparseAwareLu extends SparseFactorLists {
  /** the matrix, row-major n×n; factor() overwrites it with L and U unless a pattern was set */
  readonly a: Float64Array;
  /** the factors: `a` itself, or (with a pattern) an array of their own */
  private lu: Float64Array;

  constructor(n: number) {
    super(n);
    this.a = new Float64Array(n * n);
    this.lu = this.a;
  }

  protected override allocateFactors(): void {
    if (this.lu === this.a) this.lu = new Float64Array(this.n * this.n);
  }

  protected override factorPivoting(): boolean {
    const lu = this.lu;
    if (lu !== this.a) lu.set(this.a);
    return luFactor(lu, this.n, this.piv, this.cols);
  }

  protected override listNonzeros(): boolean {
    return listNonzeros(this.n, this.lu, null, this.lPtr, this.lIdx, this.uPtr, this.uIdx);
  }

  /**
   * a factored along the pivot sequence of the last factorisation with partial pivoting, over
   * the structure of its factors, row by row (see SparseFactorLists); false (and nothing to
   * use) when a multiplier exceeds REFACTOR_MULTIPLIER_MAX or a pivot is zero or not finite.
   */
  protected override refactor(): boolean {
    const n = this.n,
      lu = this.lu,
      lPtr = this.lPtr,
      lIdx = this.lIdx,
      uPtr = this.uPtr,
      uIdx = this.uIdx;
    for (let i = 0; i < n; i++) {
      const ri = i * n;
      this.gatherRow(i, this.a, lu);
      for (let t = lPtr[i], e = lPtr[i + 1]; t < e; t++) {
        const k = lIdx[t],
          rk = k * n;
        const m = lu[ri + k] / lu[rk + k];
        if (!(Math.abs(m) <= REFACTOR_MULTIPLIER_MAX)) return false;
        lu[ri + k] = m;
        if (m === 0) continue;
        for (let s = uPtr[k], e = uPtr[k + 1]; s < e; s++) {
          const j = uIdx[s];
          lu[ri + j] -= m * lu[rk + j];
        }
      }
      const d = lu[ri + i];
      if (!(d !== 0 && d - d === 0)) return false;
    }
    return true;
  }

  /** Solves with the factors; b is overwritten with x. */
  solve(b: Float64Array): void {
    const { n, lu: a, piv } = this;
    if (!this.sparse) {
      luSolve(a, n, piv, b);
      return;
    }
    for (let k = 0; k < n; k++) {
      const p = piv[k];
      if (p !== k) {
        const tmp = b[k];
        b[k] = b[p];
        b[p] = tmp;
      }
    }
    const lPtr = this.lPtr,
      lIdx = this.lIdx,
      uPtr = this.uPtr,
      uIdx = this.uIdx;
    for (let i = 1; i < n; i++) {
      const ri = i * n;
      let s = b[i];
      for (let t = lPtr[i], e = lPtr[i + 1]; t < e; t++) {
        const j = lIdx[t];
        s -= a[ri + j] * b[j];
      }
      b[i] = s;
    }
    for (let i = n - 1; i >= 0; i--) {
      const ri = i * n;
      let s = b[i];
      for (let t = uPtr[i], e = uPtr[i + 1]; t < e; t++) {
        const j = uIdx[t];
        s -= a[ri + j] * b[j];
      }
      b[i] = s / a[ri + i];
    }
  }
}

/**
 * Lists, row by row, the columns of the nonzeros of the factors in a (and ai, the imaginary
 * parts, when given): strictly below the diagonal into lIdx, strictly above into uIdx (in
 * increasing column order, as the dense solves sum them). True when they are under half of
 * the matrix, so that solving over the lists pays.
 */
export function listNonzeros(
  n: number,
  a: Float64Array,
  ai: Float64Array | null,
  lPtr: Int32Array,
  lIdx: Int32Array,
  uPtr: Int32Array,
  uIdx: Int32Array,
): boolean {
  let nl = 0,
    nu = 0;
  for (let i = 0; i < n; i++) {
    const ri = i * n;
    lPtr[i] = nl;
    uPtr[i] = nu;
    for (let j = 0; j < i; j++) if (a[ri + j] !== 0 || (ai !== null && ai[ri + j] !== 0)) lIdx[nl++] = j;
    for (let j = i + 1; j < n; j++) if (a[ri + j] !== 0 || (ai !== null && ai[ri + j] !== 0)) uIdx[nu++] = j;
  }
  lPtr[n] = nl;
  uPtr[n] = nu;
  return 2 * (nl + nu + n) < n * n;
}
