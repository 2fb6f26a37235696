import { JacobianStore } from './jacobian-store.js';
import { BandedLu, SparseAwareLu } from './lu.js';
import { BandedComplexLu, SparseAwareComplexLu } from './lu-complex.js';
import { minimumDegreeOrder } from './ordering.js';
import type { JacobianFunctions, Rhs } from './stepper.js';
import { RADAU5 } from './tableaus/radau5.js';

const GAMMA = RADAU5.gamma,
  ALPHA = RADAU5.alpha,
  BETA = RADAU5.beta;
/**
 * The sizes for which the dense matrices are factored in a fill-reducing order (ordering.ts):
 * below, the factors are too small to gain; above, making the order (O(n³) once) would cost
 * more than it saves in a short run.
 */
const ORDER_MIN = 8;
const ORDER_MAX = 400;

/**
 * RADAU5's Jacobian and its two iteration matrices, (γ/h) I − J (real) and
 * ((α + iβ)/h) I − J (complex), factored for one h at a time: dense (sparse-aware, lu.ts) or
 * banded (lu.ts, lu-complex.ts), as the Jacobian is. A dense pair is factored with its rows and
 * columns in a fill-reducing order once the exact Jacobian's pattern is known (the same
 * permutation on both sides: the matrices stay shifted by a multiple of I, so partial pivoting
 * mostly keeps the diagonal, and the factors stay as sparse as the order makes them). All
 * arrays are allocated here, once.
 */
export class RadauMatrices {
  readonly jac: JacobianStore;
  private readonly n: number;
  private readonly e1: SparseAwareLu | null;
  private readonly e2: SparseAwareComplexLu | null;
  private readonly band1: BandedLu | null;
  private readonly band2: BandedComplexLu | null;
  /** ‖J‖∞ of the Jacobian in hand */
  jacNorm = 0.5;
  /** the fill-reducing order (row and column i of the factored matrices is perm[i]), or null */
  private perm: Int32Array | null = null;
  private readonly permBuffer: Int32Array | null;
  /**
   * −J in the fill-reducing order, made once per Jacobian: both iteration matrices (and every
   * refactorisation for a new h with the same J) are then a copy plus the diagonal, not a
   * permuted gather each (POLLU at rtol 1e-10: 167 factorisations of 124 Jacobians)
   */
  private readonly negJ: Float64Array;
  /**
   * With the order: J's structural nonzeros, as indices into J (nzSrc), into negJ (nzDst), and
   * their rows (nzRow), so that negJ and ‖J‖∞ cost O(nnz), not O(n²) (POLLU: 82 of 400)
   */
  private nzSrc: Int32Array | null = null;
  private nzDst: Int32Array | null = null;
  private nzRow: Int32Array | null = null;
  private readonly rowSum: Float64Array;
  /** the Jacobian in hand came from finite differences (see evaluate) */
  private differences = false;
  private readonly wr: Float64Array;
  private readonly wi: Float64Array;

  constructor(n: number, f: Rhs, fns: JacobianFunctions | null) {
    this.n = n;
    const ordered = n >= ORDER_MIN && n <= ORDER_MAX;
    this.jac = new JacobianStore(n, f, fns, false, ordered);
    const banded = this.jac.banded;
    this.band1 = banded ? new BandedLu(n, this.jac.lower, this.jac.upper) : null;
    this.band2 = banded ? new BandedComplexLu(n, this.jac.lower, this.jac.upper) : null;
    this.e1 = banded ? null : new SparseAwareLu(n);
    this.e2 = banded ? null : new SparseAwareComplexLu(n);
    this.permBuffer = ordered && !banded ? new Int32Array(n) : null;
    this.wr = new Float64Array(this.permBuffer ? n : 0);
    this.wi = new Float64Array(this.permBuffer ? n : 0);
    this.negJ = new Float64Array(this.permBuffer ? n * n : 0);
    this.rowSum = new Float64Array(this.permBuffer ? n : 0);
  }

  /**
   * J at (t, y) (f0 = f(t, y); ys, fk work space); the number of evaluations of f it took
   * (finite differences) or 0 (the exact Jacobian).
   */
  evaluate(t: number, y: Float64Array, f0: Float64Array, ys: Float64Array, fk: Float64Array): number {
    const evaluations = this.jac.evaluate(t, y, f0, ys, fk);
    if (this.perm === null && this.permBuffer !== null && this.jac.pattern !== null) this.order(this.jac.pattern);
    const src = this.nzSrc;
    if (src === null) {
      this.jacNorm = this.jac.infNorm();
      if (this.perm !== null) this.gatherNegJ();
      return evaluations;
    }
    // finite differences (the exact Jacobian declined) write every entry: the pattern does not
    // hold for this J, and the LUs must not refactor along it
    const differences = evaluations > 0;
    if (differences !== this.differences) {
      this.differences = differences;
      this.e1!.usePattern(!differences);
      this.e2!.usePattern(!differences);
      if (!differences) this.negJ.fill(0);
    }
    if (differences) {
      this.jacNorm = this.jac.infNorm();
      this.gatherNegJ();
      return evaluations;
    }
    const dst = this.nzDst!,
      row = this.nzRow!,
      J = this.jac.J,
      negJ = this.negJ,
      rowSum = this.rowSum;
    rowSum.fill(0);
    for (let t = 0; t < src.length; t++) {
      const v = J[src[t]];
      negJ[dst[t]] = -v;
      rowSum[row[t]] += Math.abs(v);
    }
    let norm = 0;
    for (let i = 0; i < this.n; i++) if (rowSum[i] > norm) norm = rowSum[i];
    this.jacNorm = norm;
    return evaluations;
  }

  /**
   * Once, at the first exact Jacobian: the fill-reducing order of its pattern, the lists of its
   * nonzeros, and the pattern of the iteration matrices in that order, which lets their LUs
   * refactor along a known pivot sequence (lu.ts, SparseFactorLists).
   */
  private order(pattern: Uint8Array): void {
    const n = this.n,
      perm = this.permBuffer!;
    minimumDegreeOrder(n, pattern, perm);
    this.perm = perm;
    let nnz = 0;
    for (let k = 0; k < n * n; k++) nnz += pattern[k];
    const src = new Int32Array(nnz),
      dst = new Int32Array(nnz),
      row = new Int32Array(nnz);
    const permuted = new Uint8Array(n * n);
    let t = 0;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const k = perm[i] * n + perm[j];
        if (pattern[k] === 0) continue;
        permuted[i * n + j] = 1;
        src[t] = k;
        dst[t] = i * n + j;
        row[t] = perm[i];
        t++;
      }
    this.nzSrc = src;
    this.nzDst = dst;
    this.nzRow = row;
    this.negJ.fill(0);
    this.e1!.setPattern(permuted);
    this.e2!.setPattern(permuted);
  }

  /** −J in the fill-reducing order, every entry (after finite differences) */
  private gatherNegJ(): void {
    const n = this.n,
      perm = this.perm!,
      J = this.jac.J,
      negJ = this.negJ;
    for (let i = 0; i < n; i++) {
      const ri = i * n,
        rp = perm[i] * n;
      for (let j = 0; j < n; j++) negJ[ri + j] = -J[rp + perm[j]];
    }
  }

  /** the LUs of (γ/h) I − J and ((α + iβ)/h) I − J; false if either is singular */
  factor(h: number): boolean {
    const n = this.n;
    const fac1 = GAMMA / h,
      alphn = ALPHA / h,
      betan = BETA / h;
    const b1 = this.band1,
      b2 = this.band2;
    if (b1 !== null && b2 !== null) {
      this.jac.shiftedBand(fac1, b1.ab, b1.w);
      if (!b1.factor()) return false;
      this.jac.shiftedBand(alphn, b2.ar, b2.w);
      const ai = b2.ai,
        w = b2.w,
        ml = b2.ml;
      ai.fill(0);
      for (let i = 0; i < n; i++) ai[i * w + ml] = betan;
      return b2.factor();
    }
    const e1 = this.e1!,
      e2 = this.e2!,
      e2i = e2.ai;
    this.shifted(fac1, e1.a);
    if (!e1.factor()) return false;
    this.shifted(alphn, e2.ar);
    e2i.fill(0);
    for (let i = 0; i < n; i++) e2i[i * n + i] = betan;
    return e2.factor();
  }

  /** c·I − J into a, in the fill-reducing order if there is one */
  private shifted(c: number, a: Float64Array): void {
    if (this.perm === null) {
      this.jac.shiftedDense(c, a);
      return;
    }
    const n = this.n;
    a.set(this.negJ);
    for (let i = 0; i < n; i++) a[i * n + i] += c;
  }

  /** b ← ((γ/h) I − J)⁻¹ b */
  solveReal(b: Float64Array): void {
    const perm = this.perm;
    if (this.band1 !== null) this.band1.solve(b);
    else if (perm === null) this.e1!.solve(b);
    else {
      const n = this.n,
        w = this.wr;
      for (let i = 0; i < n; i++) w[i] = b[perm[i]];
      this.e1!.solve(w);
      for (let i = 0; i < n; i++) b[perm[i]] = w[i];
    }
  }

  /** (re + i·im) ← (((α + iβ)/h) I − J)⁻¹ (re + i·im) */
  solveComplex(re: Float64Array, im: Float64Array): void {
    const perm = this.perm;
    if (this.band2 !== null) this.band2.solve(re, im);
    else if (perm === null) this.e2!.solve(re, im);
    else {
      const n = this.n,
        wr = this.wr,
        wi = this.wi;
      for (let i = 0; i < n; i++) {
        wr[i] = re[perm[i]];
        wi[i] = im[perm[i]];
      }
      this.e2!.solve(wr, wi);
      for (let i = 0; i < n; i++) {
        re[perm[i]] = wr[i];
        im[perm[i]] = wi[i];
      }
    }
  }
}
