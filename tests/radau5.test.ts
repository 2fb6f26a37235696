/**
 * RADAU5 (issue 25): its coefficients against the order conditions and the transformation
 * radau5.f uses, its measured order and that of its dense output, the complex and the
 * sparse-aware LUs it factors its iteration matrices with, and its economy with Jacobians and
 * factorisations. References are closed forms; nothing is compared with this program's
 * earlier output. No assertion on time.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, simulate } from '../src/index.js';
import { RADAU5 } from '../src/integrators/tableaus/radau5.js';
import { createStepper } from '../src/integrators/steppers.js';
import { luFactor, luSolve, SparseAwareLu } from '../src/integrators/lu.js';
import { BandedComplexLu, SparseAwareComplexLu } from '../src/integrators/lu-complex.js';
import { JacobianStore } from '../src/integrators/jacobian-store.js';
import { minimumDegreeOrder } from '../src/integrators/ordering.js';
import type { JacobianFunctions, Rhs } from '../src/integrators/stepper.js';
import { smooth } from './smooth-problem.js';

const { A, c, T, TI, e: E, gamma, alpha, beta } = RADAU5;
const b = A[2];
const range = [0, 1, 2];
const sum = (f: (i: number) => number) => range.reduce((acc, i) => acc + f(i), 0);
const matmul = (X: readonly (readonly number[])[], Y: readonly (readonly number[])[]) =>
  range.map((i) => range.map((j) => sum((k) => X[i][k] * Y[k][j])));

describe('RADAU5 coefficients (tableaus/radau5.ts)', () => {
  it("satisfy B(5), C(3) and D(2): order 5 by Butcher's simplifying assumptions (5 ≤ 3 + 2 + 1, 5 ≤ 2·3 + 2)", () => {
    for (let k = 1; k <= 5; k++) expect(sum((i) => b[i] * c[i] ** (k - 1))).toBeCloseTo(1 / k, 14);
    for (let k = 1; k <= 3; k++)
      for (const i of range) expect(sum((j) => A[i][j] * c[j] ** (k - 1))).toBeCloseTo(c[i] ** k / k, 14);
    for (let k = 1; k <= 2; k++)
      for (const j of range)
        expect(sum((i) => b[i] * c[i] ** (k - 1) * A[i][j])).toBeCloseTo((b[j] * (1 - c[j] ** k)) / k, 14);
  });

  it('B(6) fails: the order is 5, not more', () => {
    expect(Math.abs(sum((i) => b[i] * c[i] ** 5) - 1 / 6)).toBeGreaterThan(1e-4);
  });

  it('are stiffly accurate: b is the last row of A, c₃ = 1', () => {
    expect(c[2]).toBe(1);
    for (const j of range) expect(A[2][j]).toBe(b[j]);
  });

  it('T and T⁻¹ (20 digits in radau5.f) are inverse, and T⁻¹A⁻¹T = [[γ, 0, 0], [0, α, −β], [0, β, α]]', () => {
    const I = matmul(T, TI);
    for (const i of range) for (const j of range) expect(I[i][j]).toBeCloseTo(i === j ? 1 : 0, 14);
    // A⁻¹ by Cramer's rule
    const det =
      A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
      A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
      A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    const cof = (i: number, j: number) => {
      const r = range.filter((x) => x !== i),
        q = range.filter((x) => x !== j);
      return (-1) ** (i + j) * (A[r[0]][q[0]] * A[r[1]][q[1]] - A[r[0]][q[1]] * A[r[1]][q[0]]);
    };
    const Ainv = range.map((i) => range.map((j) => cof(j, i) / det));
    const L = matmul(matmul(TI, Ainv), T);
    const expected = [
      [gamma, 0, 0],
      [0, alpha, -beta],
      [0, beta, alpha],
    ];
    for (const i of range) for (const j of range) expect(L[i][j]).toBeCloseTo(expected[i][j], 12);
  });

  it('the error estimate is of order 3: f₀ + Σ eᵢ Zᵢ/h vanishes on solutions that are polynomials of degree 3', () => {
    // For y' = g(t), Z_i = h Σ_j a_ij g(c_j h) and f₀ = g(0): the estimate is
    // g(0) + Σ_j w_j g(c_j h), w = eᵀA, which must vanish for g = 1, t, t² (but not t³)
    const w = range.map((j) => sum((i) => E[i] * A[i][j]));
    expect(1 + sum((j) => w[j])).toBeCloseTo(0, 14);
    expect(sum((j) => w[j] * c[j])).toBeCloseTo(0, 14);
    expect(sum((j) => w[j] * c[j] ** 2)).toBeCloseTo(0, 14);
    expect(Math.abs(sum((j) => w[j] * c[j] ** 3))).toBeGreaterThan(1e-3);
  });
});

/**
 * Steps of exactly h (the `uncontrolled` mode: Newton iterated to convergence, the error
 * estimate ignored): the error at t = 1 and the largest error of the dense output at 37 % of
 * each step.
 */
function fixedStepErrors(h: number, withJacobian: boolean): { end: number; dense: number } {
  const s = createStepper('radau5', 1, smooth.f, {
    rtol: 1e-13,
    atol: 1e-13,
    hMax: h,
    uncontrolled: true,
    jacobian: withJacobian ? () => smooth.jac : undefined,
  });
  s.reset(0, [smooth.exact(0)]);
  const out = new Float64Array(1);
  let dense = 0;
  while (s.t !== 1) {
    expect(s.step(1)).toBe('accepted');
    const mid = s.tPrev + 0.37 * s.hLast;
    s.interpolate(mid, out);
    dense = Math.max(dense, Math.abs(out[0] - smooth.exact(mid)));
  }
  expect(s.stats.steps).toBe(Math.round(1 / h));
  return { end: Math.abs(s.y[0] - smooth.exact(1)), dense };
}

const slopes = (xs: number[]) => xs.slice(1).map((x, i) => Math.log2(xs[i] / x));

describe('radau5: measured order on a smooth non-autonomous problem with a closed form', () => {
  it('order 5 at the step ends: log2 of the error ratios within 0.2 of 5 (h = 0.2 .. 0.00625)', () => {
    const e = [0.2, 0.1, 0.05, 0.025, 0.0125, 0.00625].map((h) => fixedStepErrors(h, true).end);
    for (const p of slopes(e)) expect(Math.abs(p - 5)).toBeLessThan(0.2);
  });

  it('the dense output is a continuous extension of order 3: its local error is O(h⁴), log2 ratios within 0.2 of 4', () => {
    // (the collocation polynomial: order s = 3; the error of the step ends, O(h⁵), is smaller)
    const e = [0.025, 0.0125, 0.00625, 0.003125].map((h) => fixedStepErrors(h, true).dense);
    for (const p of slopes(e)) expect(Math.abs(p - 4)).toBeLessThan(0.2);
  });

  it('with finite differences for the Jacobian the order is the same: the simplified Newton iteration converges to the same stages', () => {
    const e = [0.05, 0.025].map((h) => fixedStepErrors(h, false).end);
    expect(Math.abs(Math.log2(e[0] / e[1]) - 5)).toBeLessThan(0.2);
  });

  it('the dense output takes y₀ and y₁ exactly at the ends of the step', () => {
    const s = createStepper('radau5', 1, smooth.f, { rtol: 1e-8, atol: 1e-10, hMax: Infinity });
    s.reset(0, [smooth.exact(0)]);
    const out = new Float64Array(1);
    for (let k = 0; k < 5; k++) {
      expect(s.step(1)).toBe('accepted');
      s.interpolate(s.tPrev, out);
      expect(out[0]).toBe(s.yPrev[0]);
      s.interpolate(s.t, out);
      expect(out[0]).toBe(s.y[0]);
    }
  });
});

describe('the linear algebra of radau5 (lu.ts, lu-complex.ts)', () => {
  /** a complex tridiagonal system with small pivots (partial pivoting must swap) and its solution */
  const n = 25;
  const Ar = new Float64Array(n * n),
    Ai = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    Ar[i * n + i] = i % 3 === 0 ? 1e-3 : 2;
    Ai[i * n + i] = i % 4 === 0 ? 0 : 0.7;
    if (i > 0) Ar[i * n + i - 1] = 1 + i / n;
    if (i < n - 1) {
      Ar[i * n + i + 1] = -1;
      Ai[i * n + i + 1] = 0.3;
    }
  }
  const xr = Float64Array.from({ length: n }, (_, i) => Math.sin(i + 1)),
    xi = Float64Array.from({ length: n }, (_, i) => Math.cos(2 * i));
  const br = new Float64Array(n),
    bi = new Float64Array(n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      br[i] += Ar[i * n + j] * xr[j] - Ai[i * n + j] * xi[j];
      bi[i] += Ar[i * n + j] * xi[j] + Ai[i * n + j] * xr[j];
    }

  it('the dense and the banded complex LU solve it', () => {
    const dense = new SparseAwareComplexLu(n);
    dense.ar.set(Ar);
    dense.ai.set(Ai);
    expect(dense.factor()).toBe(true);
    const band = new BandedComplexLu(n, 1, 1);
    for (let i = 0; i < n; i++)
      for (let j = Math.max(0, i - 1); j <= Math.min(n - 1, i + 1); j++) {
        const at = i * band.w + (j - i + band.ml);
        band.ar[at] = Ar[i * n + j];
        band.ai[at] = Ai[i * n + j];
      }
    expect(band.factor()).toBe(true);
    for (const lu of [dense, band]) {
      const yr = Float64Array.from(br),
        yi = Float64Array.from(bi);
      lu.solve(yr, yi);
      for (let i = 0; i < n; i++) {
        expect(yr[i]).toBeCloseTo(xr[i], 12);
        expect(yi[i]).toBeCloseTo(xi[i], 12);
      }
    }
  });

  it('a singular complex matrix is reported', () => {
    const lu = new SparseAwareComplexLu(2);
    lu.ar.set([1, 2, 2, 4]);
    lu.ai.set([1, 2, 2, 4]);
    expect(lu.factor()).toBe(false);
  });

  it("the sparse-aware real LU gives the dense LU's numbers bit for bit, sparse or not", () => {
    for (const density of [0.15, 1]) {
      const m = 30,
        a = new Float64Array(m * m);
      let seed = 7;
      const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
      for (let i = 0; i < m; i++)
        for (let j = 0; j < m; j++) if (i === j || rnd() < 2 * density - 1) a[i * m + j] = rnd();
      const ref = Float64Array.from(a),
        piv = new Int32Array(m);
      expect(luFactor(ref, m, piv)).toBe(true);
      const lu = new SparseAwareLu(m);
      lu.a.set(a);
      expect(lu.factor()).toBe(true);
      expect(Array.from(lu.a)).toEqual(Array.from(ref));
      const x1 = Float64Array.from({ length: m }, (_, i) => i - 3),
        x2 = Float64Array.from(x1);
      luSolve(ref, m, piv, x1);
      lu.solve(x2);
      expect(Array.from(x2)).toEqual(Array.from(x1));
    }
  });
});

describe('refactorisation along the last pivot sequence (lu.ts, lu-complex.ts: setPattern)', () => {
  // a sparse pattern with a full diagonal; values drawn afresh on it for each matrix
  const m = 25;
  let seed = 11;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  const pattern = new Uint8Array(m * m);
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (i === j || rnd() > 0.8) pattern[i * m + j] = 1;
  const onPattern = (diag: number) =>
    Float64Array.from(pattern, (p, k) => (p ? rnd() + (k % (m + 1) === 0 ? diag : 0) : 0));
  /** the solution of a x = b by the plain dense LU, the reference */
  const reference = (a: Float64Array, b: Float64Array) => {
    const lu = Float64Array.from(a),
      piv = new Int32Array(m),
      x = Float64Array.from(b);
    expect(luFactor(lu, m, piv)).toBe(true);
    luSolve(lu, m, piv, x);
    return x;
  };
  const b0 = Float64Array.from({ length: m }, (_, i) => Math.cos(i));

  it('real: the second matrix on the pattern is refactored, and solves as partial pivoting does', () => {
    const lu = new SparseAwareLu(m);
    lu.setPattern(pattern);
    for (const diag of [3, 0.5, 2]) {
      const a = onPattern(diag);
      lu.a.set(a);
      expect(lu.factor()).toBe(true);
      const x = Float64Array.from(b0);
      lu.solve(x);
      const ref = reference(a, b0);
      for (let i = 0; i < m; i++) expect(x[i]).toBeCloseTo(ref[i], 10);
      expect(Array.from(lu.a)).toEqual(Array.from(a)); // the matrix is kept apart from its factors
    }
    // (the diagonal of the second is no longer dominant; its multipliers stay within 10)
    expect([lu.fullFactorizations, lu.refactorizations]).toEqual([1, 2]);
  });

  it('real: a multiplier beyond 10 along the old sequence sends it back to partial pivoting', () => {
    const lu = new SparseAwareLu(2);
    lu.setPattern(new Uint8Array([1, 1, 1, 1]));
    lu.a.set([1, 1, 0.5, 1]); // no interchange
    expect(lu.factor()).toBe(true);
    lu.a.set([1e-3, 1, 1, 1]); // along the old sequence the multiplier would be 1000
    expect(lu.factor()).toBe(true);
    expect([lu.fullFactorizations, lu.refactorizations]).toEqual([2, 0]);
    const x = new Float64Array([1, 2]);
    lu.solve(x);
    // [1e-3 1; 1 1] x = [1, 2]: x1 = 1/(1 − 1e-3), x2 = 2 − x1
    expect(x[0]).toBeCloseTo(1 / 0.999, 14);
    expect(x[1]).toBeCloseTo(2 - 1 / 0.999, 14);
  });

  it('complex: refactored on the pattern, it solves as the complex LU with partial pivoting does', () => {
    const ref = new SparseAwareComplexLu(m),
      lu = new SparseAwareComplexLu(m);
    lu.setPattern(pattern);
    for (const diag of [3, 0.5, 2]) {
      const ar = onPattern(diag),
        ai = Float64Array.from(pattern, (p, k) => (k % (m + 1) === 0 ? 0.7 : p ? 0.3 * rnd() : 0));
      for (const x of [ref, lu]) {
        x.ar.set(ar);
        x.ai.set(ai);
        expect(x.factor()).toBe(true);
      }
      const xr = Float64Array.from(b0),
        xi = Float64Array.from(b0, (v) => -v),
        yr = Float64Array.from(xr),
        yi = Float64Array.from(xi);
      ref.solve(xr, xi);
      lu.solve(yr, yi);
      for (let i = 0; i < m; i++) {
        expect(yr[i]).toBeCloseTo(xr[i], 10);
        expect(yi[i]).toBeCloseTo(xi[i], 10);
      }
    }
    expect(lu.refactorizations).toBeGreaterThan(0);
  });

  it('usePattern(false): a matrix off the pattern (a Jacobian by differences) is factored with partial pivoting', () => {
    const lu = new SparseAwareLu(m);
    lu.setPattern(pattern);
    lu.a.set(onPattern(3));
    expect(lu.factor()).toBe(true);
    lu.usePattern(false);
    const full = Float64Array.from({ length: m * m }, (_, k) => 0.1 * rnd() + (k % (m + 1) === 0 ? 3 : 0));
    lu.a.set(full);
    expect(lu.factor()).toBe(true);
    expect(lu.fullFactorizations).toBe(2);
    const x = Float64Array.from(b0);
    lu.solve(x);
    const r = reference(full, b0);
    for (let i = 0; i < m; i++) expect(x[i]).toBeCloseTo(r[i], 10);
  });
});

describe('the fill-reducing order of the dense iteration matrices (ordering.ts, jacobian-store.ts)', () => {
  it('minimum degree leaves the hub of an arrow matrix to the end: no fill, where the natural order fills it all', () => {
    // row and column 0 full, and the diagonal: in the natural order L and U fill completely
    const n = 12,
      pattern = new Uint8Array(n * n);
    for (let i = 0; i < n; i++) pattern[i * n + i] = pattern[i] = pattern[i * n] = 1;
    const order = new Int32Array(n);
    minimumDegreeOrder(n, pattern, order);
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    // the fill of Gaussian elimination in this order (symbolically): none
    const filled = (ord: Int32Array) => {
      const a = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => pattern[ord[i] * n + ord[j]]));
      let fill = 0;
      for (let k = 0; k < n; k++)
        for (let i = k + 1; i < n; i++)
          for (let j = k + 1; j < n; j++)
            if (a[i][k] && a[k][j] && !a[i][j]) {
              a[i][j] = 1;
              fill++;
            }
      return fill;
    };
    expect(filled(order)).toBe(0);
    expect(filled(Int32Array.from({ length: n }, (_, i) => i))).toBe((n - 1) * (n - 2));
  });

  it('the pattern is what dfdy writes, zeros and sentinel-like values included', () => {
    const n = 3;
    const fns: JacobianFunctions = {
      dfdy: (_t, _y, out) => {
        out[0] = 0; // (0, 0), structurally there, zero here
        out[5] = 1.2345678e-300; // (1, 2), equal to one of the sentinels
        out[7] = 2; // (2, 1)
        return true;
      },
      dfdt: null,
      lower: 2,
      upper: 2,
    };
    const store = new JacobianStore(n, () => {}, fns, false, true);
    const v = () => new Float64Array(n);
    expect(store.evaluate(0, v(), v(), v(), v())).toBe(0);
    expect(Array.from(store.pattern!)).toEqual([1, 0, 0, 0, 0, 1, 0, 1, 0]);
    expect(Array.from(store.J)).toEqual([0, 0, 0, 0, 0, 1.2345678e-300, 0, 2, 0]);
  });
});

describe('radau5: Jacobian and factorisation economy', () => {
  // Van der Pol with mu = 1000 (the Test Set's scaled form), the exact Jacobian
  const eps = 1e-6;
  const f: Rhs = (_t, y, d) => {
    d[0] = y[1];
    d[1] = ((1 - y[0] * y[0]) * y[1] - y[0]) / eps;
  };
  const jac: JacobianFunctions = {
    dfdy: (_t, y, J) => {
      J[0] = 0;
      J[1] = 1;
      J[2] = (-2 * y[0] * y[1] - 1) / eps;
      J[3] = (1 - y[0] * y[0]) / eps;
      return true;
    },
    dfdt: null,
    lower: 1,
    upper: 1,
  };

  it('keeps the Jacobian while Newton converges well, and the LUs while h stays put', () => {
    const s = createStepper('radau5', 2, f, { rtol: 1e-8, atol: 1e-12, hMax: Infinity, jacobian: () => jac });
    s.reset(0, [2, 0]);
    while (s.t !== 2) expect(s.step(2)).toBe('accepted');
    const { steps, rejected, jacobians, factorizations } = s.stats;
    // a Jacobian at most every 2nd attempt, a pair of LUs for fewer attempts than there are
    expect(jacobians! / (steps + rejected)).toBeLessThan(0.5);
    expect(factorizations!).toBeLessThan(steps + rejected);
    expect(jacobians!).toBeGreaterThan(0);
    // at least one Newton iteration per attempt, at most NIT = 7
    expect(s.stats.newtonIterations!).toBeGreaterThanOrEqual(steps + rejected);
    expect(s.stats.newtonIterations!).toBeLessThanOrEqual(7 * (steps + rejected));
  });

  it("a run's stats carry the implicit methods' counters: radau5's, rodas', and auto's once it used one", () => {
    const model = compileModel(`independent t from 0 to 2
x' = v
v' = ((1 - x^2)*v - x)/1e-6
x(0) = 2; v(0) = 0`);
    const counters = (method: 'radau5' | 'rodas' | 'auto' | 'dopri5', to = 2) => {
      const { jacobians, factorizations, newtonIterations } = simulate(model, {
        method,
        to,
        rtol: 1e-8,
        atol: 1e-12,
        eventsOnly: true,
      }).stats;
      return { jacobians, factorizations, newtonIterations };
    };
    const radau5 = counters('radau5');
    expect(radau5.jacobians).toBeGreaterThan(0);
    expect(radau5.factorizations).toBeGreaterThanOrEqual(radau5.jacobians!);
    expect(radau5.newtonIterations).toBeGreaterThan(radau5.factorizations!);
    // rodas: a Jacobian per step, an LU per attempt, no Newton iteration
    const rodas = counters('rodas');
    expect(rodas.factorizations).toBeGreaterThanOrEqual(rodas.jacobians!);
    expect(rodas.newtonIterations).toBeUndefined();
    // auto at rtol 1e-8: dopri5, then radau5 where Van der Pol is stiff
    expect(counters('auto').newtonIterations).toBeGreaterThan(0);
    expect(counters('dopri5')).toEqual({
      jacobians: undefined,
      factorizations: undefined,
      newtonIterations: undefined,
    });
  });

  it('a stiff chain of 300 cells is solved with the banded real and complex LUs, to its closed form', () => {
    const N = 300,
      k = 1000;
    const lines = [`independent t from 0 to 0.05`, `parameter k = ${k}`];
    for (let i = 1; i <= N; i++) {
      const left = i > 1 ? `u${i - 1}` : '0',
        right = i < N ? `u${i + 1}` : '0';
      lines.push(`u${i}' = k*(${left} - 2*u${i} + ${right})`, `u${i}(0) = sin(pi*${i}/${N + 1})`);
    }
    const r = simulate(compileModel(lines.join('\n')), { method: 'radau5', rtol: 1e-9, atol: 1e-12, eventsOnly: true });
    expect(r.status).toBe('ok');
    const lambda = k * (2 * Math.cos(Math.PI / (N + 1)) - 2);
    for (const i of [1, 100, 150, 300]) {
      const exact = Math.exp(lambda * 0.05) * Math.sin((Math.PI * i) / (N + 1));
      expect(Math.abs(r.final[`u${i}`] - exact) / exact).toBeLessThan(1e-7);
    }
  });
});
