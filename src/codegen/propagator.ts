/**
 * The propagator of a linear block x' = A x + b (issue 24): x(h) = exp(A h) x0 + ∫_0^h exp(A s) b ds,
 * with A and b constant between events (the compiler's `fill` evaluates them from the
 * parameters and the step and discrete variables).
 *
 * - 1x1 (decay, growth): x0 e^{ah} + b h φ1(ah), φ1(z) = expm1(z)/z: no cancellation for small
 *   ah, none for a decay to tiny values either.
 * - 2x2: with μ = tr A / 2 and B = A - μ I, B² = δ I (δ = ((a - d)/2)² + b c, exactly the
 *   discriminant), so exp(A h) = e^{μh} (C I + S B) with C, S = cos ωh, sin(ωh)/ω (rotation,
 *   damped rotation: δ = -ω²), cosh κh, sinh(κh)/κ (real distinct eigenvalues: δ = κ²; written
 *   with the eigenvalues themselves so that a stiff pair neither overflows nor cancels), or
 *   1, h (repeated). With b, about the equilibrium -A⁻¹ b when A is well conditioned.
 * - Otherwise (n >= 3, or a singular 2x2 with b): exp of the augmented matrix [[A h, b h], [0, 0]]
 *   by Padé scaling and squaring (expm.ts); the last h is cached (periodic doses repeat it).
 *
 * Cached per block and per value of A and b: the quantities above are recomputed only when an
 * event changed a constant the block reads. No allocation after construction.
 */
import { MatrixExponential } from './expm.js';

/** Fills A (n x n, row-major) and b (n) from the parameters p and the step and discrete variables d. */
export type MatrixFunction = (p: Float64Array, d: Float64Array, A: Float64Array, b: Float64Array) => void;

export class LinearPropagator {
  readonly n: number;
  readonly A: Float64Array;
  readonly b: Float64Array;
  /** ||A||∞ and ||b||∞ of the current constants */
  normA = 0;
  normB = 0;
  /** counts the changes of A and b (what is derived from them is cached by it) */
  version = 0;
  /**
   * A bound on the logarithmic 2-norm of A (Gershgorin on (A + Aᵀ)/2): ||exp(A τ)||₂ <= e^{mu2 τ};
   * and an equilibrium x_eq (A x_eq + b = 0) when there is a well-conditioned one
   */
  mu2 = Infinity;
  /**
   * A diagonal scaling D (powers of two) that balances A (Parlett and Reinsch 1969): the
   * states in units where ||D A D⁻¹||∞ is near the block's time scale, not the ratio of its
   * units (a spring of stiffness 1e8 has ||A||∞ = 2e8 in metres and metres per second, and
   * ||D A D⁻¹||∞ = 2e4, its frequency). With it the norms of the scaled block and input.
   */
  readonly balance: Float64Array;
  normBalanced = 0;
  normBBalanced = 0;
  hasEquilibrium = false;
  readonly equilibrium: Float64Array;
  private readonly keyA: Float64Array;
  private readonly keyB: Float64Array;
  private valid = false;
  private hasB = false;
  // 2x2: the mean eigenvalue, the discriminant, its root, the eigenvalues, the equilibrium
  private mu = 0;
  private disc = 0;
  private root = 0;
  private l1 = 0;
  private l2 = 0;
  private useEquilibrium = false;
  private eq0 = 0;
  private eq1 = 0;
  /** the magnitudes the equilibrium's rounding scales with (its error is about 2^-53 of each) */
  private eqMag0 = 0;
  private eqMag1 = 0;
  // general: the augmented exponential of the last h
  private readonly expm: MatrixExponential | null;
  private readonly m: Float64Array;
  private readonly e: Float64Array;
  private lastH = NaN;
  /**
   * general: the zero pattern of the augmented matrix [[A, b], [0, 0]] (`pattern`) and, per
   * entry of its exponential, whether it can be nonzero (`reaches`: row i reads column j, in
   * turn). Where it cannot, exp has an exact zero (every term of its series is one), which
   * the Padé solve's pivoting fills with rounding: x'' = -x + 1 beside z' = x - z (one block)
   * moved x by 2^-53 of z, 3.6e-11 for z = 1e6, and x' crossed twice.
   */
  private readonly pattern: Uint8Array;
  private readonly reaches: Uint8Array;
  private readonly stack: Int32Array;
  private readonly x: Float64Array;
  private readonly tmp: Float64Array;

  constructor(
    /** the block's state slots */
    readonly slots: Int32Array,
    private readonly fill: MatrixFunction,
  ) {
    const n = slots.length;
    this.n = n;
    this.A = new Float64Array(n * n);
    this.b = new Float64Array(n);
    this.keyA = new Float64Array(n * n).fill(NaN);
    this.keyB = new Float64Array(n).fill(NaN);
    const general = n >= 2;
    const N = n + 1;
    this.expm = general ? new MatrixExponential(N) : null;
    this.m = new Float64Array(general ? N * N : 0);
    this.e = new Float64Array(general ? N * N : 0);
    this.pattern = new Uint8Array(general ? N * N : 0).fill(2);
    this.reaches = new Uint8Array(general ? N * N : 0);
    this.stack = new Int32Array(general ? N : 0);
    this.x = new Float64Array(n);
    this.tmp = new Float64Array(n);
    this.equilibrium = new Float64Array(n);
    this.balance = new Float64Array(n).fill(1);
    this.lu = new Float64Array(n * (n + 1));
  }

  private readonly lu: Float64Array;

  /** `reaches` for the current A and b, recomputed only when their zero pattern changed */
  private prepareReaches(): void {
    const { A, b, n, pattern, reaches } = this,
      N = n + 1;
    let same = true;
    for (let i = 0; i < n; i++)
      for (let j = 0; j <= n; j++) {
        const nz = (j < n ? A[i * n + j] : b[i]) !== 0 ? 1 : 0;
        if (pattern[i * N + j] !== nz) {
          pattern[i * N + j] = nz;
          same = false;
        }
      }
    if (same) return;
    // (the constant row reads nothing: only its diagonal)
    reaches.fill(0);
    for (let i = 0; i < N; i++) {
      reaches[i * N + i] = 1;
      if (i === n) continue;
      // depth-first from i along the entries it reads
      const stack = this.stack;
      let top = 0;
      stack[top++] = i;
      while (top > 0) {
        const k = stack[--top];
        if (k === n) continue;
        for (let j = 0; j < N; j++)
          if (pattern[k * N + j] && !reaches[i * N + j]) {
            reaches[i * N + j] = 1;
            stack[top++] = j;
          }
      }
    }
  }

  /** D, and the norms of D A D⁻¹ and D b */
  private prepareBalance(): void {
    const { A, b, n } = this;
    const D = this.balance;
    D.fill(1);
    for (let sweep = 0; sweep < 16; sweep++) {
      let changed = false;
      for (let i = 0; i < n; i++) {
        let r = 0,
          c = 0;
        for (let j = 0; j < n; j++) {
          if (j === i) continue;
          r += Math.abs((D[i] * A[i * n + j]) / D[j]);
          c += Math.abs((D[j] * A[j * n + i]) / D[i]);
        }
        if (r === 0 && c === 0) continue;
        // scaling D_i by f multiplies row i by f and column i by 1/f; a state nothing reads
        // (c = 0: IC' = k*d) or that reads nothing (r = 0) is scaled until its row or column
        // is no larger than one
        const f =
          c === 0
            ? Math.min(1, 2 ** Math.floor(Math.log2(1 / r)))
            : r === 0
              ? Math.max(1, 2 ** Math.ceil(Math.log2(c)))
              : 2 ** Math.round(0.5 * Math.log2(c / r));
        if (f !== 1 && (r === 0 || c === 0 || r * f + c / f < 0.95 * (r + c))) {
          D[i] *= f;
          changed = true;
        }
      }
      if (!changed) break;
    }
    let na = 0,
      nb = 0;
    for (let i = 0; i < n; i++) {
      let row = 0;
      for (let j = 0; j < n; j++) row += Math.abs((D[i] * A[i * n + j]) / D[j]);
      na = Math.max(na, row);
      nb = Math.max(nb, Math.abs(D[i] * b[i]));
    }
    this.normBalanced = na;
    this.normBBalanced = nb;
  }

  /** mu2 and the equilibrium, for the bounds of a whole tail of the segment (linear-event.ts) */
  private prepareTail(): void {
    const { A, b, n } = this;
    // (of D A D⁻¹: ||exp(A τ)|| in the norm ||D x||₂)
    const D = this.balance;
    let mu = -Infinity;
    for (let i = 0; i < n; i++) {
      let r = A[i * n + i];
      for (let j = 0; j < n; j++)
        if (j !== i) r += 0.5 * Math.abs((D[i] * A[i * n + j]) / D[j] + (D[j] * A[j * n + i]) / D[i]);
      mu = Math.max(mu, r);
    }
    this.mu2 = mu;
    const eq = this.equilibrium;
    if (!this.hasB) {
      eq.fill(0);
      this.hasEquilibrium = true;
      return;
    }
    // A x = -b by elimination with partial pivoting; refused where a pivot is within rounding
    const m = this.lu,
      N = n + 1;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) m[i * N + j] = A[i * n + j];
      m[i * N + n] = -b[i];
    }
    this.hasEquilibrium = false;
    for (let k = 0; k < n; k++) {
      let p = k;
      for (let i = k + 1; i < n; i++) if (Math.abs(m[i * N + k]) > Math.abs(m[p * N + k])) p = i;
      if (!(Math.abs(m[p * N + k]) > 1e-10 * this.normA)) return;
      if (p !== k)
        for (let j = 0; j < N; j++) {
          const x = m[k * N + j];
          m[k * N + j] = m[p * N + j];
          m[p * N + j] = x;
        }
      for (let i = k + 1; i < n; i++) {
        const f = m[i * N + k] / m[k * N + k];
        for (let j = k; j < N; j++) m[i * N + j] -= f * m[k * N + j];
      }
    }
    for (let k = n - 1; k >= 0; k--) {
      let x = m[k * N + n];
      for (let j = k + 1; j < n; j++) x -= m[k * N + j] * eq[j];
      eq[k] = x / m[k * N + k];
    }
    this.hasEquilibrium = true;
  }

  /** Reads A and b for the constants p, d; recomputes what depends on them only when they changed. */
  update(p: Float64Array, d: Float64Array): void {
    const { A, b, keyA, keyB, n } = this;
    this.fill(p, d, A, b);
    if (this.valid) {
      let same = true;
      for (let i = 0; i < n * n && same; i++) same = A[i] === keyA[i];
      for (let i = 0; i < n && same; i++) same = b[i] === keyB[i];
      if (same) return;
    }
    keyA.set(A);
    keyB.set(b);
    this.valid = true;
    this.version++;
    this.lastH = NaN;
    let na = 0,
      nb = 0,
      hasB = false;
    for (let i = 0; i < n; i++) {
      let row = 0;
      for (let j = 0; j < n; j++) row += Math.abs(A[i * n + j]);
      na = Math.max(na, row);
      nb = Math.max(nb, Math.abs(b[i]));
      if (b[i] !== 0) hasB = true;
    }
    this.normA = na;
    this.normB = nb;
    this.hasB = hasB;
    if (n === 2) this.prepare2();
    if (n >= 2) this.prepareReaches();
    this.prepareBalance();
    this.prepareTail();
  }

  /**
   * A pure rotation (2x2, trace exactly 0, complex eigenvalues ±iω, an equilibrium): its
   * frequency ω, else 0. x(s) - x_eq = cos(ωs) u + sin(ωs)/ω B u with u = x0 - x_eq, B = A.
   */
  rotationFrequency(): number {
    return this.n === 2 && this.A[0] + this.A[3] === 0 && this.disc < 0 && this.hasEquilibrium ? this.root : 0;
  }

  /** 2x2: the discriminant, eigenvalues and equilibrium */
  private prepare2(): void {
    const [a, b12, c21, d] = this.A;
    const mu = 0.5 * (a + d),
      delta = 0.5 * (a - d);
    const disc = delta * delta + b12 * c21;
    this.mu = mu;
    this.disc = disc;
    this.root = Math.sqrt(Math.abs(disc));
    const det = a * d - b12 * c21;
    if (disc > 0) {
      // the larger eigenvalue in magnitude without cancellation, the other from the determinant
      const big = mu < 0 ? mu - this.root : mu + this.root;
      const other = big !== 0 ? det / big : 0;
      this.l1 = Math.max(big, other);
      this.l2 = Math.min(big, other);
    }
    const scale = Math.max(Math.abs(a) + Math.abs(b12), Math.abs(c21) + Math.abs(d));
    this.useEquilibrium = !this.hasB || Math.abs(det) > 1e-8 * scale * scale;
    if (this.hasB && this.useEquilibrium) {
      const [b0, b1] = this.b;
      // x_eq = -A⁻¹ b
      this.eq0 = -(d * b0 - b12 * b1) / det;
      this.eq1 = -(-c21 * b0 + a * b1) / det;
      // (the numerators' and the determinant's terms, relative to the determinant: a nearly
      // singular block has a far equilibrium known to fewer digits)
      const detRel = (Math.abs(a * d) + Math.abs(b12 * c21)) / Math.abs(det);
      this.eqMag0 = (Math.abs(d * b0) + Math.abs(b12 * b1)) / Math.abs(det) + Math.abs(this.eq0) * (1 + detRel);
      this.eqMag1 = (Math.abs(c21 * b0) + Math.abs(a * b1)) / Math.abs(det) + Math.abs(this.eq1) * (1 + detRel);
    } else {
      this.eq0 = this.eq1 = 0;
      this.eqMag0 = this.eqMag1 = 0;
    }
  }

  /**
   * Advances x (length n) by h in place. `update` must have been called for the current
   * constants. With `mag`, writes there per state the size of the terms its new value was
   * summed from, on whose scale it is rounded: a value they cancel to (a function at its root)
   * is known to a few ulps of that, not of itself.
   */
  advance(h: number, x: Float64Array, mag: Float64Array | null = null): void {
    const n = this.n;
    if (n === 1) {
      const a = this.A[0],
        z = a * h;
      const free = x[0] * Math.exp(z),
        forced = this.hasB ? this.b[0] * h * (z === 0 ? 1 : Math.expm1(z) / z) : 0;
      x[0] = free + forced;
      if (mag !== null) mag[0] = Math.abs(free) + Math.abs(forced);
      return;
    }
    if (n === 2 && this.useEquilibrium && this.advance2(h, x, mag)) return;
    this.advanceGeneral(h, x, mag);
  }

  /** Advances the block's states in y by h in place. */
  advanceSlots(h: number, y: Float64Array): void {
    const s = this.slots,
      x = this.x;
    for (let i = 0; i < s.length; i++) x[i] = y[s[i]];
    this.advance(h, x);
    for (let i = 0; i < s.length; i++) y[s[i]] = x[i];
  }

  /**
   * The closed form about the equilibrium: x(h) = x_eq + (C I + S B)(x0 - x_eq). False (x left
   * as it was) where that would cancel: x_eq far from the states (a nearly singular block, or
   * a step short beside the block's time scale, from states that are small beside x_eq: y' =
   * x - 3y from 0 over 1e-9 is 5e-19, and x_eq + (y0 - x_eq) gave 0) rounds each state to
   * 2^-53 of x_eq, not of itself; the general path (the augmented exponential, no x_eq) then
   * advances it.
   */
  private advance2(h: number, x: Float64Array, mag: Float64Array | null): boolean {
    const A = this.A,
      mu = this.mu,
      w = this.root;
    let eC: number, eS: number;
    if (this.disc < 0) {
      const f = Math.exp(mu * h);
      eC = f * Math.cos(w * h);
      eS = (f * Math.sin(w * h)) / w;
    } else if (this.disc > 0) {
      if (w * h > 0.5) return this.advanceSplit(h, x, mag);
      const f = Math.exp(mu * h);
      eC = f * Math.cosh(w * h);
      eS = (f * Math.sinh(w * h)) / w;
    } else {
      eC = Math.exp(mu * h);
      eS = h * eC;
    }
    const delta = 0.5 * (A[0] - A[3]);
    const x0 = x[0] - this.eq0,
      x1 = x[1] - this.eq1;
    // (C I + S B) with B = [[δ, A01], [A10, -δ]]
    const r0 = eC * x0 + eS * (delta * x0 + A[1] * x1);
    const r1 = eC * x1 + eS * (A[2] * x0 - delta * x1);
    return this.settle(
      r0 + this.eq0,
      r1 + this.eq1,
      Math.abs(eC) + Math.abs(eS * delta),
      Math.abs(eS * A[1]),
      Math.abs(eS * A[2]),
      Math.abs(eC) + Math.abs(eS * delta),
      x,
      mag,
    );
  }

  /**
   * Writes x0, x1 (advanced about the equilibrium, with the magnitudes of the propagator's
   * entries e00..e11) into x when the equilibrium's part of their rounding, about 2^-53 of
   * |E|·|x_eq| + |x_eq|, stays within 32 times the rounding the states' own motion has
   * (|E|·|x| and |x(h)|); false otherwise.
   */
  private settle(
    x0: number,
    x1: number,
    e00: number,
    e01: number,
    e10: number,
    e11: number,
    x: Float64Array,
    mag: Float64Array | null,
  ): boolean {
    const m0 = this.eqMag0,
      m1 = this.eqMag1,
      a0 = Math.abs(x[0]),
      a1 = Math.abs(x[1]);
    const eqPart0 = e00 * m0 + e01 * m1 + m0,
      eqPart1 = e10 * m0 + e11 * m1 + m1;
    if (!(eqPart0 <= 32 * (e00 * a0 + e01 * a1 + Math.abs(x0)))) return false;
    if (!(eqPart1 <= 32 * (e10 * a0 + e11 * a1 + Math.abs(x1)))) return false;
    if (mag !== null) {
      // (the terms summed: the propagator's on x - x_eq, then x_eq; that difference and the
      // last sum round on their results' scale)
      const u0 = Math.abs(x[0] - this.eq0),
        u1 = Math.abs(x[1] - this.eq1);
      mag[0] = e00 * u0 + e01 * u1 + Math.abs(this.eq0);
      mag[1] = e10 * u0 + e11 * u1 + Math.abs(this.eq1);
    }
    x[0] = x0;
    x[1] = x1;
    return true;
  }

  /**
   * Real distinct eigenvalues l1 > l2 with w h > 1/2: exp(A h) = (e1 (A - l2 I) - e2 (A - l1 I)) / (2w),
   * e_k = e^{l_k h}, with A - l_{1,2} I = B ∓ w I. Written as C I + S B, a diagonal entry is
   * e^{l2 h} - (what the e1 terms cancel to) when A is (nearly) triangular: a stiff pair -1 and
   * -1e6 lost the fast state's own decay below e^{-1}·2^-53 of the slow one (y = 1e20 e^{-1e6 t}
   * gave 8192 at t = 1e-4 and missed y's event). Here the diagonal factors δ ± w are
   * formed without cancellation: the one where δ and ±w agree in sign directly, the other from
   * (δ + w)(δ - w) = δ² - disc = -A01 A10.
   */
  private advanceSplit(h: number, x: Float64Array, mag: Float64Array | null): boolean {
    const A = this.A,
      w = this.root;
    const e1 = Math.exp(this.l1 * h),
      e2 = Math.exp(this.l2 * h);
    const delta = 0.5 * (A[0] - A[3]);
    const bc = A[1] * A[2];
    let dp: number, dm: number;
    if (delta >= 0) {
      dp = delta + w;
      dm = -bc / dp;
    } else {
      dm = delta - w;
      dp = -bc / dm;
    }
    const inv = 0.5 / w;
    // (B + wI)₀₀ = δ + w, (B - wI)₀₀ = δ - w, (B + wI)₁₁ = -(δ - w), (B - wI)₁₁ = -(δ + w)
    const m00 = (e1 * dp - e2 * dm) * inv,
      m11 = (e2 * dp - e1 * dm) * inv,
      s = (e1 - e2) * inv;
    const x0 = x[0] - this.eq0,
      x1 = x[1] - this.eq1;
    const e01 = s * A[1],
      e10 = s * A[2];
    return this.settle(
      m00 * x0 + e01 * x1 + this.eq0,
      e10 * x0 + m11 * x1 + this.eq1,
      Math.abs(m00),
      Math.abs(e01),
      Math.abs(e10),
      Math.abs(m11),
      x,
      mag,
    );
  }

  private advanceGeneral(h: number, x: Float64Array, mag: Float64Array | null): void {
    const n = this.n,
      N = n + 1,
      e = this.e;
    // balanced (exactly: D holds powers of two), exp(A h) = D⁻¹ exp(D A D⁻¹ h) D: the
    // scaling and squaring sees the block's time scale, not the ratio of its units
    const D = this.balance;
    if (h !== this.lastH) {
      const m = this.m;
      m.fill(0);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) m[i * N + j] = ((D[i] * this.A[i * n + j]) / D[j]) * h;
        m[i * N + n] = D[i] * this.b[i] * h;
      }
      this.expm!.expm(m, e);
      // (exact zeros where no state reads the other, in turn: `reaches`)
      const reaches = this.reaches;
      for (let i = 0; i < N * N; i++) if (!reaches[i]) e[i] = 0;
      this.lastH = h;
    }
    const y = this.tmp;
    if (mag !== null)
      for (let i = 0; i < n; i++) {
        let m = Math.abs(e[i * N + n]);
        for (let j = 0; j < n; j++) m += Math.abs(e[i * N + j] * (D[j] * x[j]));
        mag[i] = m / D[i];
      }
    for (let i = 0; i < n; i++) {
      let v = e[i * N + n];
      for (let j = 0; j < n; j++) v += e[i * N + j] * (D[j] * x[j]);
      y[i] = v;
    }
    for (let i = 0; i < n; i++) x[i] = y[i] / D[i];
  }
}
