/**
 * How far an event function affine in a linear block's states can go along its segment: a
 * bound on sup_{s >= 0} |g(s)|, g(s) = c·x(s) + c0 with x' = A x + b and the constants as they
 * are, or Infinity where none is known (a block that can grow, no equilibrium). Only the
 * states g depends on count, those c reads and those they read in turn: a spring's x beside
 * z' = x', which integrates it, has no equilibrium and takes no part in x's motion. On that
 * part, about its equilibrium x_eq (u = x - x_eq, g = g(x_eq) + c·exp(A s) u):
 *
 * - one state, a < 0: c·exp(a s) u = c u e^{as};
 * - two: exp(A s) = e^{μs} (C I + S B), B = A - μI, μ = tr A / 2. With complex eigenvalues
 *   μ ± iω, μ <= 0 (a spring, damped or not), C = cos ωs and S = sin(ωs)/ω, so
 *   |c·exp(A s) u| <= |(c·u, c·Bu/ω)|; with real ones l1 > l2, both below 0,
 *   exp(A s) = (e^{l1 s} (A - l2 I) - e^{l2 s} (A - l1 I)) / (l1 - l2); with a double one
 *   μ < 0, e^{μs} (I + s B) and s e^{μs} <= 1/(e |μ|);
 * - the whole block otherwise: ||exp(A s)||₂ <= e^{mu2 s} <= 1 in its balanced norm
 *   (propagator.ts).
 *
 * What it is for: a residue an action left at rest (x' := 0 at x = 0 of a damped spring, at
 * rest in exact arithmetic) moves within its own size, and this says so (predict.ts).
 */
import type { LinearPropagator } from './propagator.js';

const EPS = Number.EPSILON;

export class LinearReach {
  /** the states g depends on (`part`), and a marker per state */
  private readonly part: Int32Array;
  private readonly inPart: Uint8Array;

  constructor(private readonly block: LinearPropagator) {
    this.part = new Int32Array(block.n);
    this.inPart = new Uint8Array(block.n);
  }

  /** sup |g| along the segment from the states x (a bound), or Infinity where none is known */
  reach(c: Float64Array, c0: number, x: Float64Array): number {
    const bl = this.block,
      n = bl.n;
    const m = this.dependencies(c);
    if (m === 0) return Math.abs(c0);
    if (m === 1) return this.one(c, c0, x);
    if (m === 2) return this.two(c, c0, x);
    if (m < n || !bl.hasEquilibrium || !(bl.mu2 <= 0)) return Infinity;
    const eq = bl.equilibrium,
      D = bl.balance;
    let gEq = c0,
      scale = Math.abs(c0),
      c2 = 0,
      d2 = 0;
    for (let i = 0; i < n; i++) {
      gEq += c[i] * eq[i];
      scale += Math.abs(c[i]) * (Math.abs(eq[i]) + Math.abs(x[i]));
      c2 += (c[i] / D[i]) ** 2;
      d2 += (D[i] * (x[i] - eq[i])) ** 2;
    }
    return Math.abs(gEq) + Math.sqrt(c2 * d2) * (1 + 8 * n * EPS) + 32 * n * EPS * scale;
  }

  /** Marks the states c reads and those they read, in turn; returns how many (listed in `part`). */
  private dependencies(c: Float64Array): number {
    const { part, inPart } = this,
      A = this.block.A,
      n = this.block.n;
    inPart.fill(0);
    let m = 0;
    for (let i = 0; i < n; i++)
      if (c[i] !== 0) {
        inPart[i] = 1;
        part[m++] = i;
      }
    for (let q = 0; q < m; q++) {
      const i = part[q];
      for (let j = 0; j < n; j++)
        if (!inPart[j] && A[i * n + j] !== 0) {
          inPart[j] = 1;
          part[m++] = j;
        }
    }
    return m;
  }

  /** g on one state i, x_i' = a x_i + b_i */
  private one(c: Float64Array, c0: number, x: Float64Array): number {
    const bl = this.block,
      i = this.part[0],
      a = bl.A[i * bl.n + i],
      b = bl.b[i],
      ci = c[i];
    // (at rest: constant)
    if (a === 0 && b === 0) return Math.abs(c0 + ci * x[i]) * (1 + 2 * EPS);
    if (!(a < 0)) return Infinity;
    const eq = -b / a;
    const gEq = c0 + ci * eq;
    const scale = Math.abs(c0) + Math.abs(ci) * (Math.abs(eq) + Math.abs(x[i]));
    return Math.abs(gEq) + Math.abs(ci * (x[i] - eq)) * (1 + 4 * EPS) + 16 * EPS * scale;
  }

  /** g on two states i, j (the closed forms of the header) */
  private two(c: Float64Array, c0: number, x: Float64Array): number {
    const bl = this.block,
      n = bl.n,
      A = bl.A,
      i = this.part[0],
      j = this.part[1];
    const a = A[i * n + i],
      ab = A[i * n + j],
      ac = A[j * n + i],
      d = A[j * n + j],
      b0 = bl.b[i],
      b1 = bl.b[j];
    const det = a * d - ab * ac;
    if (!(det !== 0)) return Infinity;
    const mu = 0.5 * (a + d),
      delta = 0.5 * (a - d);
    const disc = delta * delta + ab * ac;
    const eq0 = -(d * b0 - ab * b1) / det,
      eq1 = -(-ac * b0 + a * b1) / det;
    // (the equilibrium's own rounding: a nearly singular block has a far one known to fewer digits)
    const detRel = (Math.abs(a * d) + Math.abs(ab * ac)) / Math.abs(det);
    const m0 = (Math.abs(d * b0) + Math.abs(ab * b1)) / Math.abs(det) + Math.abs(eq0) * (1 + detRel),
      m1 = (Math.abs(ac * b0) + Math.abs(a * b1)) / Math.abs(det) + Math.abs(eq1) * (1 + detRel);
    const ci = c[i],
      cj = c[j];
    const u0 = x[i] - eq0,
      u1 = x[j] - eq1;
    const um0 = Math.abs(x[i]) + m0,
      um1 = Math.abs(x[j]) + m1;
    const cu = ci * u0 + cj * u1,
      cau = ci * (a * u0 + ab * u1) + cj * (ac * u0 + d * u1);
    // (the magnitudes c·u and c·A u are added up from, for their rounding)
    const cum = Math.abs(ci) * um0 + Math.abs(cj) * um1,
      caum =
        Math.abs(ci) * (Math.abs(a) * um0 + Math.abs(ab) * um1) +
        Math.abs(cj) * (Math.abs(ac) * um0 + Math.abs(d) * um1);
    let amp: number, ampRound: number;
    if (disc < 0) {
      if (!(mu <= 0)) return Infinity;
      const w = Math.sqrt(-disc);
      amp = Math.hypot(cu, (cau - mu * cu) / w);
      ampRound = cum + (caum + Math.abs(mu) * cum) / w;
    } else if (disc > 0) {
      const r = Math.sqrt(disc);
      const l1 = mu + r,
        l2 = mu - r;
      if (!(l1 < 0)) return Infinity;
      amp = (Math.abs(cau - l2 * cu) + Math.abs(cau - l1 * cu)) / (2 * r);
      ampRound = (2 * caum + (Math.abs(l1) + Math.abs(l2)) * cum) / (2 * r);
    } else {
      if (!(mu < 0)) return Infinity;
      amp = Math.abs(cu) + Math.abs(cau - mu * cu) / (Math.E * -mu);
      ampRound = cum + (caum + Math.abs(mu) * cum) / (Math.E * -mu);
    }
    const gEq = c0 + ci * eq0 + cj * eq1;
    const scale = Math.abs(c0) + Math.abs(ci) * m0 + Math.abs(cj) * m1;
    return Math.abs(gEq) + amp + 16 * EPS * (scale + ampRound);
  }
}
