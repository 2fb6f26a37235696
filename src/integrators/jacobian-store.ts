import { bandPays } from '../codegen/jacobian.js';
import type { JacobianFunctions, Rhs } from './stepper.js';
import { allFinite } from './stepper-base.js';

/**
 * ∂f/∂y (and ∂f/∂t for a Rosenbrock method) of the implicit steppers, rodas and radau5: where
 * it is kept, how it is evaluated (the exact Jacobian the symbolic stage writes, else finite
 * differences, grouped by columns for a banded one), and how it enters an iteration matrix
 * c·I − J. One place, so that both methods read the same numbers from the same model.
 *
 * Storage: row-major n×n, or in band storage when the Jacobian is banded enough to pay
 * (codegen/jacobian.ts, bandPays) and offered so: entry (i, j) at i·wJ + j − i + lower. A chain
 * of 10^4 cells must not need an n×n array. Entries outside the pattern are written once as
 * zeros.
 */
export class JacobianStore {
  readonly n: number;
  /** bandwidths of J (n − 1 when dense or unknown) */
  readonly lower: number;
  readonly upper: number;
  /** whether the iteration matrices are to be factored as banded */
  readonly banded: boolean;
  /** the row width of J in band storage, 0 when J is n×n */
  readonly wJ: number;
  readonly J: Float64Array;
  /** ∂f/∂t (only with `withTime`) */
  readonly ft: Float64Array;
  /**
   * ∂f/∂t = 0 as last evaluated: f does not read t (known from the exact Jacobian) and the
   * exact Jacobian was the one used. When dfdy declines (a contact held as a constraint,
   * driver/model-jacobian.ts), f carries a force the symbolic stage does not know, which may
   * read t (a ball held on a vibrating table): ∂f/∂t is then taken by differences.
   */
  autonomous: boolean;
  /** f's own symbolic form does not read t */
  private readonly timeFree: boolean;
  private readonly fns: JacobianFunctions | null;
  private readonly f: Rhs;
  private readonly withTime: boolean;
  /** J was last written by finite differences (all entries): zero it before the exact one */
  private dense = false;
  /**
   * With `findPattern`, dense storage and the exact Jacobian: the entries dfdy writes (the
   * structural nonzeros, 1) once found at the first evaluation; null until then.
   */
  pattern: Uint8Array | null = null;
  private readonly patternBuffer: Uint8Array | null;

  constructor(n: number, f: Rhs, fns: JacobianFunctions | null, withTime: boolean, findPattern = false) {
    this.n = n;
    this.f = f;
    this.fns = fns;
    this.withTime = withTime;
    this.timeFree = fns !== null && fns.dfdt === null;
    this.autonomous = this.timeFree;
    this.lower = fns?.lower ?? n - 1;
    this.upper = fns?.upper ?? n - 1;
    this.banded = bandPays(n, this.lower, this.upper);
    this.wJ = this.banded && fns?.dfdyBand ? this.lower + this.upper + 1 : 0;
    this.J = new Float64Array(this.wJ > 0 ? n * this.wJ : n * n);
    this.ft = new Float64Array(withTime ? n : 0);
    this.patternBuffer = findPattern && fns !== null && this.wJ === 0 ? new Uint8Array(n * n) : null;
  }

  /**
   * The structural nonzeros: dfdy writes exactly those (StepperOptions.jacobian), so what it
   * overwrites in an array filled with a sentinel is the pattern. Twice, with two sentinels,
   * so that a value equal to one of them cannot hide an entry. False if dfdy declined.
   */
  private findPattern(t: number, y: Float64Array): boolean {
    const J = this.J,
      pat = this.patternBuffer!,
      jf = this.fns!;
    pat.fill(0);
    for (const sentinel of [1.2345678e-300, -8.7654321e-301]) {
      J.fill(sentinel);
      if (!jf.dfdy(t, y, J)) {
        J.fill(0);
        return false;
      }
      for (let k = 0; k < J.length; k++) if (J[k] !== sentinel) pat[k] = 1;
    }
    for (let k = 0; k < J.length; k++) if (pat[k] === 0) J[k] = 0;
    this.pattern = pat;
    return true;
  }

  /**
   * ∂f/∂y (and ∂f/∂t) at (t, y), f0 = f(t, y); ys and fk (length n) are work space. Returns the
   * number of evaluations of f it made (0 with the exact Jacobian).
   */
  evaluate(t: number, y: Float64Array, f0: Float64Array, ys: Float64Array, fk: Float64Array): number {
    const n = this.n,
      J = this.J,
      wJ = this.wJ;
    const jf = this.fns;
    if (jf !== null) {
      if (this.dense) {
        J.fill(0);
        this.dense = false;
      }
      const written =
        this.patternBuffer !== null && this.pattern === null
          ? this.findPattern(t, y)
          : wJ > 0
            ? jf.dfdyBand!(t, y, J)
            : jf.dfdy(t, y, J);
      if (written) {
        this.autonomous = this.timeFree;
        if (this.withTime && jf.dfdt !== null) jf.dfdt(t, y, this.ft);
        // A derivative can be infinite where f is finite (sqrt(y) at y = 0): differences then
        // give the large finite slope the step actually sees, and the run goes on to where f
        // itself fails, as under an explicit method.
        if (allFinite(J, J.length) && allFinite(this.ft, this.ft.length)) return 0;
      }
    }
    // finite differences (Hairer's rodas.f, radau5.f: δ = sqrt(uround·max(1e-5, |y_j|)))
    let evaluations: number;
    ys.set(y);
    if (wJ > 0) {
      // Curtis, Powell & Reid: columns wJ apart touch disjoint rows of a band, so one
      // evaluation of f serves all of them: wJ evaluations instead of n
      const lower = this.lower,
        upper = this.upper;
      for (let g = 0; g < wJ && g < n; g++) {
        for (let j = g; j < n; j += wJ) ys[j] = y[j] + Math.sqrt(1e-16 * Math.max(1e-5, Math.abs(y[j])));
        this.f(t, ys, fk);
        for (let j = g; j < n; j += wJ) {
          const dj = ys[j] - y[j];
          const iLo = Math.max(0, j - upper),
            iHi = Math.min(n - 1, j + lower);
          for (let i = iLo; i <= iHi; i++) J[i * wJ + (j - i + lower)] = (fk[i] - f0[i]) / dj;
          ys[j] = y[j];
        }
      }
      evaluations = Math.min(wJ, n);
    } else {
      for (let j = 0; j < n; j++) {
        const yj = y[j];
        ys[j] = yj + Math.sqrt(1e-16 * Math.max(1e-5, Math.abs(yj)));
        const dj = ys[j] - yj; // the increment actually represented
        this.f(t, ys, fk);
        for (let i = 0; i < n; i++) J[i * n + j] = (fk[i] - f0[i]) / dj;
        ys[j] = yj;
      }
      evaluations = n;
    }
    this.dense = true;
    // (differences also when f's symbolic form does not read t: a declined dfdy means a force
    // it does not know, and an autonomous f costs one evaluation here for a zero ft)
    this.autonomous = false;
    if (this.withTime) {
      const del = Math.sqrt(1e-16 * Math.max(1e-5, Math.abs(t)));
      const t1 = t + del;
      this.f(t1, y, fk);
      evaluations++;
      const dt = t1 - t;
      for (let i = 0; i < n; i++) this.ft[i] = (fk[i] - f0[i]) / dt;
    }
    return evaluations;
  }

  /** ‖J‖∞, the largest row sum of |J_ij| */
  infNorm(): number {
    const n = this.n,
      J = this.J,
      lower = this.lower,
      upper = this.upper,
      wJ = this.wJ;
    let norm = 0;
    for (let i = 0; i < n; i++) {
      let s = 0;
      const r = wJ > 0 ? i * wJ - i + lower : i * n,
        jHi = Math.min(n - 1, i + upper);
      for (let j = Math.max(0, i - lower); j <= jHi; j++) s += Math.abs(J[r + j]);
      if (s > norm) norm = s;
    }
    return norm;
  }

  /**
   * out = J x, and outAbs = |J| |x| (the scale of the rounding in out) when given; the band
   * only where J is banded (entries outside it are zero).
   */
  multiply(x: Float64Array, out: Float64Array, outAbs: Float64Array | null): void {
    const n = this.n,
      J = this.J,
      lower = this.lower,
      upper = this.upper,
      wJ = this.wJ;
    for (let i = 0; i < n; i++) {
      let s = 0,
        a = 0;
      const r = wJ > 0 ? i * wJ - i + lower : i * n,
        jHi = Math.min(n - 1, i + upper);
      for (let j = Math.max(0, i - lower); j <= jHi; j++) {
        const p = J[r + j] * x[j];
        s += p;
        a += Math.abs(p);
      }
      out[i] = s;
      if (outAbs !== null) outAbs[i] = a;
    }
  }

  /** c·I − J into a (row-major n×n) */
  shiftedDense(c: number, a: Float64Array): void {
    const n = this.n,
      J = this.J,
      nn = n * n;
    for (let k = 0; k < nn; k++) a[k] = -J[k];
    for (let i = 0; i < n; i++) a[i * n + i] += c;
  }

  /**
   * c·I − J into ab, in the band storage of lu.ts (row width w, entry (i, j) at
   * i·w + j − i + ml, ml = lower); the fill-in columns are zeroed.
   */
  shiftedBand(c: number, ab: Float64Array, w: number): void {
    const n = this.n,
      J = this.J,
      ml = this.lower,
      mu = this.upper,
      wJ = this.wJ;
    ab.fill(0);
    for (let i = 0; i < n; i++) {
      const jLo = Math.max(0, i - ml),
        jHi = Math.min(n - 1, i + mu);
      const off = i * w - i + ml;
      // J's row i: band storage shares the offset j − i + ml, with its own stride
      const offJ = wJ > 0 ? i * wJ - i + ml : i * n;
      for (let j = jLo; j <= jHi; j++) ab[off + j] = -J[offJ + j];
      ab[off + i] += c;
    }
  }
}
