import { JacobianStore } from './jacobian-store.js';
import { BandedLu, SparseAwareLu } from './lu.js';
import { BandedComplexLu, SparseAwareComplexLu } from './lu-complex.js';
import type { JacobianFunctions, Rhs } from './stepper.js';
import { RADAU5 } from './tableaus/radau5.js';

const GAMMA = RADAU5.gamma,
  ALPHA = RADAU5.alpha,
  BETA = RADAU5.beta;

/**
 * RADAU5's Jacobian and its two iteration matrices, (γ/h) I − J (real) and
 * ((α + iβ)/h) I − J (complex), factored for one h at a time: dense (sparse-aware, lu.ts) or
 * banded (lu.ts, lu-complex.ts), as the Jacobian is. All arrays are allocated here, once.
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

  constructor(n: number, f: Rhs, fns: JacobianFunctions | null) {
    this.n = n;
    this.jac = new JacobianStore(n, f, fns, false);
    const banded = this.jac.banded;
    this.band1 = banded ? new BandedLu(n, this.jac.lower, this.jac.upper) : null;
    this.band2 = banded ? new BandedComplexLu(n, this.jac.lower, this.jac.upper) : null;
    this.e1 = banded ? null : new SparseAwareLu(n);
    this.e2 = banded ? null : new SparseAwareComplexLu(n);
  }

  /**
   * J at (t, y) (f0 = f(t, y); ys, fk work space); the number of evaluations of f it took
   * (finite differences) or 0 (the exact Jacobian).
   */
  evaluate(t: number, y: Float64Array, f0: Float64Array, ys: Float64Array, fk: Float64Array): number {
    const evaluations = this.jac.evaluate(t, y, f0, ys, fk);
    this.jacNorm = this.jac.infNorm();
    return evaluations;
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
    this.jac.shiftedDense(fac1, e1.a);
    if (!e1.factor()) return false;
    this.jac.shiftedDense(alphn, e2.ar);
    e2i.fill(0);
    for (let i = 0; i < n; i++) e2i[i * n + i] = betan;
    return e2.factor();
  }

  /** b ← ((γ/h) I − J)⁻¹ b */
  solveReal(b: Float64Array): void {
    if (this.band1 !== null) this.band1.solve(b);
    else this.e1!.solve(b);
  }

  /** (re + i·im) ← (((α + iβ)/h) I − J)⁻¹ (re + i·im) */
  solveComplex(re: Float64Array, im: Float64Array): void {
    if (this.band2 !== null) this.band2.solve(re, im);
    else this.e2!.solve(re, im);
  }
}
