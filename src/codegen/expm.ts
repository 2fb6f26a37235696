/**
 * The exponential of a small dense matrix: scaling and squaring with the [13/13] Padé
 * approximant (Higham, "The scaling and squaring method for the matrix exponential
 * revisited", SIAM J. Matrix Anal. Appl. 26 (2005) 1179, Algorithm 2.3 with m = 13 only).
 * Backward stable: for ||A/2^s||_1 <= θ13 the approximant is exp of a matrix within a relative
 * 2^-53 of A/2^s. Used for linear blocks that have no closed form here (n >= 3, or a singular
 * 2x2 with an inhomogeneous part, through the augmented matrix [[A, b], [0, 0]]).
 * The squaring phase runs twice, on r and on r - I (`expm`): a stiff block keeps both its
 * slow modes (which squaring r loses, 2^s ulps) and its decayed ones (which r - I loses).
 *
 * Row-major n x n arrays; the workspace is allocated once per size, never in `expm`.
 */

/** the coefficients b_0..b_13 of the [13/13] Padé approximant (Higham 2005, Table 2.3 ff.) */
const B13 = [
  64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800, 129060195264000, 10559470521600,
  670442572800, 33522128640, 1323241920, 40840800, 960960, 16380, 182, 1,
];
/** θ13: the largest 1-norm for which [13/13] is accurate to unit roundoff */
const THETA13 = 5.371920351148152;

export class MatrixExponential {
  private readonly a2: Float64Array;
  private readonly a4: Float64Array;
  private readonly a6: Float64Array;
  private readonly u: Float64Array;
  private readonly v: Float64Array;
  private readonly t: Float64Array;
  private readonly piv: Int32Array;
  private readonly r: Float64Array;
  private readonly m2: Float64Array;

  constructor(readonly n: number) {
    const nn = n * n;
    this.a2 = new Float64Array(nn);
    this.a4 = new Float64Array(nn);
    this.a6 = new Float64Array(nn);
    this.u = new Float64Array(nn);
    this.v = new Float64Array(nn);
    this.t = new Float64Array(nn);
    this.piv = new Int32Array(n);
    this.r = new Float64Array(nn);
    this.m2 = new Float64Array(nn);
  }

  /** out = exp(a); a is overwritten (scaled) */
  expm(a: Float64Array, out: Float64Array): void {
    const n = this.n;
    let norm = 0;
    for (let j = 0; j < n; j++) {
      let col = 0;
      for (let i = 0; i < n; i++) col += Math.abs(a[i * n + j]);
      if (col > norm) norm = col;
    }
    const s = norm > THETA13 ? Math.ceil(Math.log2(norm / THETA13)) : 0;
    if (s > 0) {
      const f = 2 ** -s;
      for (let i = 0; i < n * n; i++) a[i] *= f;
    }
    const { a2, a4, a6, u, v, t } = this;
    matmul(n, a, a, a2);
    matmul(n, a2, a2, a4);
    matmul(n, a4, a2, a6);
    const b = B13;
    // U = A [A6 (b13 A6 + b11 A4 + b9 A2) + b7 A6 + b5 A4 + b3 A2 + b1 I]
    for (let i = 0; i < n * n; i++) t[i] = b[13] * a6[i] + b[11] * a4[i] + b[9] * a2[i];
    matmul(n, a6, t, u);
    for (let i = 0; i < n * n; i++) u[i] += b[7] * a6[i] + b[5] * a4[i] + b[3] * a2[i];
    for (let i = 0; i < n; i++) u[i * n + i] += b[1];
    matmul(n, a, u, t);
    u.set(t);
    // V = A6 (b12 A6 + b10 A4 + b8 A2) + b6 A6 + b4 A4 + b2 A2 + b0 I
    for (let i = 0; i < n * n; i++) t[i] = b[12] * a6[i] + b[10] * a4[i] + b[8] * a2[i];
    matmul(n, a6, t, v);
    for (let i = 0; i < n * n; i++) v[i] += b[6] * a6[i] + b[4] * a4[i] + b[2] * a2[i];
    for (let i = 0; i < n; i++) v[i * n + i] += b[0];
    // Two squarings, each accurate where the other is not (a stiff block has both kinds of
    // entries). On R = r(A) = (V - U)⁻¹ (V + U) a slow mode z of A/2^s (z of 2^-40 for
    // eigenvalues -1e10 and -1 over 100) is held as 1 + z, z to 2^-13 of itself, and the s
    // squarings multiply that error by 2^s: exp(100 A) was off by 1e-5 relative. On
    // F = R - I = (V - U)⁻¹ 2U, squared as (I + F)² = I + (2F + F²), z is held itself, and
    // each entry of I + F is right to its rounding (below); but a decayed mode is
    // -1 + e^{λh} there, lost below that (y' = -1e6 y over 1e-4: e^{-100} became 0 and y's
    // event was lost; t² e^{-t}/2 at t = 37 lost 7 digits). Each entry is R's where the two
    // agree within F's rounding (R keeps a decayed mode to its own relative accuracy), else
    // I + F's (R's slow modes are off).
    const r = this.r,
      m2 = this.m2;
    for (let i = 0; i < n * n; i++) {
      const q = v[i] - u[i];
      t[i] = q;
      m2[i] = q;
      out[i] = 2 * u[i];
      r[i] = v[i] + u[i];
    }
    this.solve(t, out);
    this.solve(m2, r);
    // F's rounding per entry is, after the last squaring, a few s ulps of (2|F| + |F| |F|)_ij
    // with F before it (2F and F² cancel where a mode has decayed: I + F is small there)
    for (let i = 0; i < n * n; i++) a2[i] = Math.abs(out[i]);
    for (let k = 0; k < s; k++) {
      matmul(n, out, out, t);
      if (k === s - 1) for (let i = 0; i < n * n; i++) a2[i] = Math.abs(out[i]);
      for (let i = 0; i < n * n; i++) out[i] = 2 * out[i] + t[i];
      matmul(n, r, r, t);
      r.set(t);
    }
    matmul(n, a2, a2, a4);
    const ulps = 16 * (s + 2) * Number.EPSILON;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const ij = i * n + j;
        const f = i === j ? out[ij] + 1 : out[ij];
        out[ij] = Math.abs(r[ij] - f) <= ulps * (2 * a2[ij] + a4[ij]) ? r[ij] : f;
      }
  }

  /** Solves m X = rhs in place (rhs becomes X), by LU with partial pivoting; m is overwritten. */
  private solve(m: Float64Array, rhs: Float64Array): void {
    const n = this.n,
      piv = this.piv;
    for (let k = 0; k < n; k++) {
      let p = k,
        big = Math.abs(m[k * n + k]);
      for (let i = k + 1; i < n; i++)
        if (Math.abs(m[i * n + k]) > big) {
          big = Math.abs(m[i * n + k]);
          p = i;
        }
      piv[k] = p;
      if (p !== k)
        for (let j = 0; j < n; j++) {
          let x = m[k * n + j];
          m[k * n + j] = m[p * n + j];
          m[p * n + j] = x;
          x = rhs[k * n + j];
          rhs[k * n + j] = rhs[p * n + j];
          rhs[p * n + j] = x;
        }
      const d = m[k * n + k];
      for (let i = k + 1; i < n; i++) {
        const f = m[i * n + k] / d;
        if (f === 0) continue;
        for (let j = k + 1; j < n; j++) m[i * n + j] -= f * m[k * n + j];
        for (let j = 0; j < n; j++) rhs[i * n + j] -= f * rhs[k * n + j];
      }
    }
    for (let k = n - 1; k >= 0; k--) {
      const d = m[k * n + k];
      for (let j = 0; j < n; j++) {
        let x = rhs[k * n + j];
        for (let i = k + 1; i < n; i++) x -= m[k * n + i] * rhs[i * n + j];
        rhs[k * n + j] = x / d;
      }
    }
  }
}

/** c = a b, n x n row-major (c distinct from a and b) */
function matmul(n: number, a: Float64Array, b: Float64Array, c: Float64Array): void {
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let x = 0;
      for (let k = 0; k < n; k++) x += a[i * n + k] * b[k * n + j];
      c[i * n + j] = x;
    }
}
