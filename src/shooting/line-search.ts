/**
 * The Newton step of shooting: its direction, J du = -R (LU with partial pivoting, on a copy
 * of J so that Broyden can go on updating J), and the backtracking line search along it
 * (lambda = 1, 1/2, 1/4, ...) until the largest residual drops by the Armijo fraction, each
 * trial projected onto the unknowns' bounds when there are any (bounds.ts).
 * Every array is allocated once per problem.
 */
import { project, type Bounds } from './bounds.js';
import { maxAbs, type ShootingResidual } from './residual.js';

/**
 * LU with partial pivoting of a (n×n, row-major) in place, in the order of operations of JAMA's
 * Crout-Doolittle loop (column by column, each entry less one dot product, multipliers by
 * division): the order of the library this replaced (ml-matrix), so that shooting's iterates
 * stay the same to the last bit. (integrators/lu.ts, right-looking with multiplication by the
 * reciprocal, rounds differently.) `perm[i]` is the original row of row i. False when a pivot
 * is exactly zero.
 */
export function factorCrout(a: Float64Array, n: number, perm: Int32Array): boolean {
  for (let i = 0; i < n; i++) perm[i] = i;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const kmax = Math.min(i, j);
      let s = 0;
      for (let k = 0; k < kmax; k++) s += a[i * n + k] * a[k * n + j];
      a[i * n + j] -= s;
    }
    let p = j;
    for (let i = j + 1; i < n; i++) if (Math.abs(a[i * n + j]) > Math.abs(a[p * n + j])) p = i;
    if (p !== j) {
      for (let k = 0; k < n; k++) {
        const t = a[p * n + k];
        a[p * n + k] = a[j * n + k];
        a[j * n + k] = t;
      }
      const t = perm[p];
      perm[p] = perm[j];
      perm[j] = t;
    }
    const pivot = a[j * n + j];
    if (pivot !== 0) for (let i = j + 1; i < n; i++) a[i * n + j] /= pivot;
  }
  for (let j = 0; j < n; j++) if (a[j * n + j] === 0) return false;
  return true;
}

/** Solves (LU) x = b for the factors of {@link factorCrout}: x into x, from b (not changed). */
export function solveCrout(a: Float64Array, n: number, perm: Int32Array, b: Float64Array, x: Float64Array): void {
  for (let i = 0; i < n; i++) x[i] = b[perm[i]];
  for (let k = 0; k < n; k++) for (let i = k + 1; i < n; i++) x[i] -= x[k] * a[i * n + k];
  for (let k = n - 1; k >= 0; k--) {
    x[k] /= a[k * n + k];
    for (let i = 0; i < k; i++) x[i] -= x[k] * a[i * n + k];
  }
}

/** Why a direction could not be had: J is singular, or the step it gives is not finite. */
export type DirectionOutcome = 'ok' | 'singular' | 'notFinite';

export class LineSearch {
  /** the direction of the last {@link direction} */
  readonly du: Float64Array;
  /** the last trial point and its residual (the accepted one after a successful search) */
  readonly trial: Float64Array;
  readonly Rtrial: Float64Array;
  /** the step fraction of the accepted trial, or, after a failed search, the one after the last trial */
  lambda = 1;
  private readonly lu: Float64Array;
  private readonly perm: Int32Array;
  /** -R, the right-hand side */
  private readonly rhs: Float64Array;

  constructor(
    private readonly residual: ShootingResidual,
    /** the unknowns' bounds: each trial point is projected onto them */
    private readonly bounds: Bounds | null = null,
  ) {
    const n = residual.n;
    this.du = new Float64Array(n);
    this.trial = new Float64Array(n);
    this.Rtrial = new Float64Array(n);
    this.lu = new Float64Array(n * n);
    this.perm = new Int32Array(n);
    this.rhs = new Float64Array(n);
  }

  /** The Newton direction du with J du = -R. */
  direction(J: Float64Array, R: Float64Array): DirectionOutcome {
    const n = this.residual.n;
    this.lu.set(J);
    if (!factorCrout(this.lu, n, this.perm)) return 'singular';
    for (let i = 0; i < n; i++) this.rhs[i] = -R[i];
    solveCrout(this.lu, n, this.perm, this.rhs, this.du);
    for (let i = 0; i < n; i++) if (!Number.isFinite(this.du[i])) return 'notFinite';
    return 'ok';
  }

  /**
   * Up to `trials` points u + lambda du, lambda halving from 1, until one reduces the largest
   * residual below (1 - 1e-4 lambda) of `norm`; true when one did (it is in trial, Rtrial).
   */
  search(u: Float64Array, norm: number, trials: number): boolean {
    const n = this.residual.n;
    this.lambda = 1;
    for (let t = 0; t < trials; t++) {
      for (let i = 0; i < n; i++) this.trial[i] = u[i] + this.lambda * this.du[i];
      project(this.bounds, this.trial);
      if (this.residual.evaluate(this.trial, this.Rtrial) && maxAbs(this.Rtrial) < (1 - 1e-4 * this.lambda) * norm)
        return true;
      this.lambda /= 2;
    }
    return false;
  }

  /** The size of the step lambda du. */
  stepSize(): number {
    return this.lambda * maxAbs(this.du);
  }
}
