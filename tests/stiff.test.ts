/**
 * Stiff problems (issue #16): the implicit method (rodas), the exact Jacobian the symbolic
 * stage writes, and `auto`, the default. References are closed forms, exact matrix
 * exponentials or published high-accuracy values (bench/stiff/references.json), never this
 * program's earlier output. No assertion on time.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileModel, simulate, type MethodName } from '../src/index.js';
import { RODAS } from '../src/integrators/tableaus/rodas.js';
import { createStepper } from '../src/integrators/steppers.js';
import { BandedLu, luFactor, luSolve } from '../src/integrators/lu.js';
import type { JacobianFunctions, Rhs } from '../src/integrators/stepper.js';
import { getPath, optionsFromArgs, REFERENCE_DIR, referenceCases, type CaseCheck } from './helpers.js';
import { smooth } from './smooth-problem.js';

const STIFF = new URL('../bench/stiff/', import.meta.url);
const stiffModel = (name: string) => readFileSync(new URL(`${name}.delta`, STIFF), 'utf8');
const REFS = JSON.parse(readFileSync(new URL('references.json', STIFF), 'utf8')) as {
  robertson_t1e5: number[];
  vdp1000_t3000: Record<string, number[]>;
  drug: { t240_before_dose: number[]; t240_after_dose: number[]; t6: number[] };
};
const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

describe('the workloads of bench/stiff at rtol 1e-8 with the default method (auto)', () => {
  // (auto's implicit method at rtol 1e-8 is radau5 since issue 25: below RADAU5_BELOW_RTOL)
  it('Robertson on [0, 1e5]: y1, y2, y3 to 1e-6 relative; auto ends with radau5', () => {
    const r = simulate(stiffModel('robertson'), { rtol: 1e-8, eventsOnly: true });
    expect(r.status).toBe('ok');
    const [y1, y2, y3] = REFS.robertson_t1e5;
    expect(rel(r.final.y1, y1)).toBeLessThan(1e-6);
    expect(rel(r.final.y2, y2)).toBeLessThan(1e-6);
    expect(rel(r.final.y3, y3)).toBeLessThan(1e-6);
    expect(r.stats.method).toBe('radau5');
    expect(r.stats.switches).toBeGreaterThanOrEqual(1);
  });

  it('Van der Pol, mu = 1000, on [0, 3000] from (2, 0)', () => {
    const r = simulate(stiffModel('vdp1000'), { rtol: 1e-8, eventsOnly: true });
    expect(r.status).toBe('ok');
    const [x, v] = REFS.vdp1000_t3000['1e-12'];
    expect(rel(r.final.x, x)).toBeLessThan(1e-6);
    expect(rel(r.final.v, v)).toBeLessThan(1e-6);
  });

  it('two-compartment drug model with a bolus every 12 h: t = 6, and t = 240 before and after the dose', () => {
    const r = simulate(stiffModel('drug'), { rtol: 1e-8, eventsOnly: true, probes: [6] });
    expect(r.status).toBe('ok');
    const last = r.events[r.events.length - 1];
    expect(last.t).toBe(240);
    expect(r.events.length).toBe(21);
    const D = REFS.drug;
    expect(rel(last.pre.c1, D.t240_before_dose[0])).toBeLessThan(1e-6);
    expect(rel(last.pre.c2, D.t240_before_dose[1])).toBeLessThan(1e-6);
    expect(rel(r.final.c1, D.t240_after_dose[0])).toBeLessThan(1e-6);
    expect(rel(r.final.c2, D.t240_after_dose[1])).toBeLessThan(1e-6);
    const at6 = r.probes![0];
    expect(rel(at6.y[0], D.t6[0])).toBeLessThan(1e-6);
    expect(rel(at6.y[1], D.t6[1])).toBeLessThan(1e-6);
  });

  it("y' = -1e12*y on [0, 1] finishes with |y(1)| < 1e-9, under auto and rodas", () => {
    const model = compileModel("model Fast\nindependent t from 0 to 1\ny' = -1e12*y\ny(0) = 1", 'fast.delta');
    for (const method of ['auto', 'rodas'] as MethodName[]) {
      const r = simulate(model, { method, eventsOnly: true });
      expect(r.status, method).toBe('ok');
      expect(Math.abs(r.final.y), method).toBeLessThan(1e-9);
      expect(r.stats.steps, method).toBeLessThan(1000);
    }
  });
});

describe('the exact Jacobian (transform/jacobian.ts)', () => {
  it('matches finite differences of the compiled rhs, through named values, with dfdt', () => {
    const m = compileModel(
      "model J\nindependent t from 0 to 1\nparameter k = 2\na = k*x^2 + sin(t)\nb = a*y\nx' = -b + t*exp(y)\ny' = a - x/(1 + y^2)\nz' = max(x, y) - abs(z)\nx(0) = 1; y(0) = 0.5; z(0) = -0.3",
      'j.delta',
    );
    const J = m.jacobian();
    const n = m.nStates;
    const p = m.parameters(),
      d = new Float64Array(m.nDiscrete),
      sw = new Float64Array(m.nSwitch);
    const y = new Float64Array([0.7, -0.4, 0.3]),
      t = 0.6;
    const out = new Float64Array(n * n);
    J.jac(t, y, p, d, sw, out);
    const f0 = new Float64Array(n),
      f1 = new Float64Array(n),
      f2 = new Float64Array(n);
    m.rhs(t, y, p, d, sw, f0);
    for (let j = 0; j < n; j++) {
      const h = 1e-6;
      const yp = Float64Array.from(y),
        ym = Float64Array.from(y);
      yp[j] += h;
      ym[j] -= h;
      m.rhs(t, yp, p, d, sw, f1);
      m.rhs(t, ym, p, d, sw, f2);
      for (let i = 0; i < n; i++) expect(out[i * n + j]).toBeCloseTo((f1[i] - f2[i]) / (2 * h), 6);
    }
    const dt = new Float64Array(n);
    J.dfdt(t, y, p, d, sw, dt);
    m.rhs(t + 1e-6, y, p, d, sw, f1);
    m.rhs(t - 1e-6, y, p, d, sw, f2);
    for (let i = 0; i < n; i++) expect(dt[i]).toBeCloseTo((f1[i] - f2[i]) / 2e-6, 6);
    expect(J.timeDependent).toBe(true);
    expect(m.source).toContain('function jac(t, y, p, d, sw, out)');
  });

  /** the discrete heat equation u_i' = k (u_{i−1} − 2 u_i + u_{i+1}), u_0 = u_{N+1} = 0: stiff, tridiagonal */
  const chain = (N: number, k: number, tEnd: number) => `model Chain
independent t from 0 to ${tEnd}
parameter N = ${N}, k = ${k}
u[1]' = k*(-2*u[1] + u[2])
for i in 2:N-1
  u[i]' = k*(u[i-1] - 2*u[i] + u[i+1])
end
u[N]' = k*(u[N-1] - 2*u[N])
for i in 1:N
  u[i](0) = sin(pi*i/(N + 1))
end
`;

  it('a chain that couples neighbours only is tridiagonal (bandwidths 1 and 1)', () => {
    const J = compileModel(chain(40, 1, 1), 'chain.delta').jacobian();
    expect(J.lower).toBe(1);
    expect(J.upper).toBe(1);
    expect(J.rows.length).toBe(3 * 40 - 2);
  });

  it('a stiff chain of 400 (banded LU) follows its closed form u_i = e^{λt} sin(πi/(N+1))', () => {
    const N = 400,
      k = 1000,
      T = 20;
    const r = simulate(chain(N, k, T), { rtol: 1e-8, eventsOnly: true });
    expect(r.status).toBe('ok');
    // at rtol 1e-8 auto's implicit method is radau5 (issue 25): its banded real and complex LUs
    expect(r.stats.method).toBe('radau5');
    const lambda = k * (-2 + 2 * Math.cos(Math.PI / (N + 1)));
    for (const i of [1, 100, 200, 400]) {
      const exact = Math.exp(lambda * T) * Math.sin((Math.PI * i) / (N + 1));
      expect(rel(r.final[`u[${i}]`], exact), `u[${i}]`).toBeLessThan(1e-6);
    }
  });
});

describe('rodas on a banded system through createStepper', () => {
  // the heat chain of N cells with k = 1: u_i = e^{λt} sin(πi/(N+1)), λ = 2 cos(π/(N+1)) − 2
  const N = 200,
    k = 500;
  const f: Rhs = (_t, u, d) => {
    for (let i = 0; i < N; i++) d[i] = k * ((i > 0 ? u[i - 1] : 0) - 2 * u[i] + (i < N - 1 ? u[i + 1] : 0));
  };
  const exactBand = (_t: number, _u: Float64Array, out: Float64Array) => {
    for (let i = 0; i < N; i++) {
      out[i * 3] = i > 0 ? k : 0;
      out[i * 3 + 1] = -2 * k;
      out[i * 3 + 2] = i < N - 1 ? k : 0;
    }
    return true;
  };
  const run = (jac: JacobianFunctions) => {
    // (only the step ends are read: no dense output, as the driver asks for a run without events or rows)
    const s = createStepper('rodas', N, f, {
      rtol: 1e-8,
      atol: 1e-12,
      hMax: Infinity,
      jacobian: () => jac,
      denseOutput: false,
    });
    s.reset(
      0,
      Float64Array.from({ length: N }, (_, i) => Math.sin((Math.PI * (i + 1)) / (N + 1))),
    );
    while (s.t !== 1) expect(s.step(1)).toBe('accepted');
    const lambda = k * (2 * Math.cos(Math.PI / (N + 1)) - 2);
    let worst = 0;
    for (let i = 0; i < N; i++)
      worst = Math.max(worst, rel(s.y[i], Math.exp(lambda) * Math.sin((Math.PI * (i + 1)) / (N + 1))));
    return { worst, stats: s.stats };
  };
  it('with the Jacobian in band storage', () => {
    const r = run({
      dfdy: () => {
        throw new Error('the band form must be used');
      },
      dfdyBand: exactBand,
      dfdt: null,
      lower: 1,
      upper: 1,
    });
    expect(r.worst).toBeLessThan(1e-7);
  });
  it('with grouped finite differences when the band form declines: 3 evaluations per Jacobian, not N', () => {
    const fd = run({ dfdy: () => false, dfdyBand: () => false, dfdt: null, lower: 1, upper: 1 });
    expect(fd.worst).toBeLessThan(1e-7);
    // reset and initial step 2, five stages per attempt, f at the end of each accepted step,
    // and one Jacobian per step (kept through its rejected attempts): 3 grouped columns, and
    // one evaluation for ∂f/∂t (a declined dfdy means a force the symbolic form does not
    // know, which may read t: jacobian-store.ts)
    const { steps, rejected, rhsEvaluations } = fd.stats;
    expect((rhsEvaluations - 2 - 5 * (steps + rejected) - steps) / steps).toBe(3 + 1);
  });
});

describe('linear algebra (lu.ts)', () => {
  it('dense and banded LU with pivoting solve a tridiagonal system that needs row swaps', () => {
    const n = 30;
    const A = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      A[i * n + i] = i % 3 === 0 ? 1e-3 : 2; // small pivots: partial pivoting must swap
      if (i > 0) A[i * n + i - 1] = 1 + i / n;
      if (i < n - 1) A[i * n + i + 1] = -1;
    }
    const x = Float64Array.from({ length: n }, (_, i) => Math.sin(i + 1));
    const b = new Float64Array(n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) b[i] += A[i * n + j] * x[j];
    const lu = Float64Array.from(A),
      piv = new Int32Array(n),
      xd = Float64Array.from(b);
    expect(luFactor(lu, n, piv)).toBe(true);
    luSolve(lu, n, piv, xd);
    const band = new BandedLu(n, 1, 1);
    for (let i = 0; i < n; i++)
      for (let j = Math.max(0, i - 1); j <= Math.min(n - 1, i + 1); j++) band.ab[band.at(i, j)] = A[i * n + j];
    expect(band.factor()).toBe(true);
    const xb = Float64Array.from(b);
    band.solve(xb);
    for (let i = 0; i < n; i++) {
      expect(xd[i]).toBeCloseTo(x[i], 12);
      expect(xb[i]).toBeCloseTo(x[i], 12);
    }
  });

  it('a singular matrix is reported, not divided by zero', () => {
    const a = new Float64Array([1, 2, 2, 4]);
    expect(luFactor(a, 2, new Int32Array(2))).toBe(false);
  });
});

/**
 * Rosenbrock order conditions up to order 4 (Hairer & Wanner, Solving ODEs II, Table IV.7.1)
 * in the untransformed coefficients α_ij, γ_ij (β_ij = α_ij + γ_ij), recovered from the
 * transformed ones: Γ = (diag(1/γ) − C)⁻¹, α = AΓ, b = mΓ, m the weights of y₁ in u.
 */
describe('RODAS coefficients', () => {
  const s = 6,
    g = RODAS.gamma;
  const A = Array.from({ length: s }, (_, i) =>
    Array.from({ length: s }, (_, j) =>
      i === 5 ? (j < 4 ? RODAS.a[4][j] : j === 4 ? 1 : 0) : j < i ? (RODAS.a[i]?.[j] ?? 0) : 0,
    ),
  );
  const C = Array.from({ length: s }, (_, i) => Array.from({ length: s }, (_, j) => (j < i ? RODAS.C[i][j] : 0)));
  // Γ⁻¹ = diag(1/γ) − C, lower triangular: invert by forward substitution
  const Ginv = C.map((row, i) => row.map((v, j) => (i === j ? 1 / g : -v)));
  const G = Array.from({ length: s }, () => new Array<number>(s).fill(0));
  for (let j = 0; j < s; j++) {
    for (let i = j; i < s; i++) {
      let acc = i === j ? 1 : 0;
      for (let k = j; k < i; k++) acc -= Ginv[i][k] * G[k][j];
      G[i][j] = acc / Ginv[i][i];
    }
  }
  const mul = (X: number[][], Y: number[][]) =>
    X.map((row) => Y[0].map((_, j) => row.reduce((a, v, k) => a + v * Y[k][j], 0)));
  const alpha = mul(A, G);
  const mvec = [...RODAS.a[4].slice(0, 4), 1, 1];
  const b = G[0].map((_, j) => mvec.reduce((acc, mi, i) => acc + mi * G[i][j], 0));
  const beta = alpha.map((row, i) => row.map((v, j) => v + G[i][j]));
  const ai = alpha.map((row) => row.reduce((x, y) => x + y, 0));
  const bp = beta.map((row, i) => row.reduce((x, y, j) => x + (j < i ? y : 0), 0)); // β'_i
  const sum = (f: (i: number) => number) => Array.from({ length: s }, (_, i) => f(i)).reduce((x, y) => x + y, 0);
  const strictly = (M: number[][], i: number, k: number) => (k < i ? M[i][k] : 0);

  it('satisfy the conditions of order 4', () => {
    expect(sum((i) => b[i])).toBeCloseTo(1, 12);
    expect(sum((i) => b[i] * bp[i])).toBeCloseTo(0.5 - g, 12);
    expect(sum((i) => b[i] * ai[i] ** 2)).toBeCloseTo(1 / 3, 12);
    expect(sum((i) => b[i] * sum((k) => strictly(beta, i, k) * bp[k]))).toBeCloseTo(1 / 6 - g + g * g, 12);
    expect(sum((i) => b[i] * ai[i] ** 3)).toBeCloseTo(1 / 4, 11);
    expect(sum((i) => b[i] * ai[i] * sum((k) => strictly(alpha, i, k) * bp[k]))).toBeCloseTo(1 / 8 - g / 3, 11);
    expect(sum((i) => b[i] * sum((k) => strictly(beta, i, k) * ai[k] ** 2))).toBeCloseTo(1 / 12 - g / 3, 11);
    expect(sum((i) => b[i] * sum((k) => strictly(beta, i, k) * sum((l) => strictly(beta, k, l) * bp[l])))).toBeCloseTo(
      1 / 24 - g / 2 + 1.5 * g * g - g ** 3,
      11,
    );
  });

  it('have nodes c_i = Σ_j α_ij', () => {
    for (let i = 0; i < 4; i++) expect(ai[i]).toBeCloseTo(RODAS.c[i], 12);
  });
});

/** errors at t = 1 and at the midpoints of the steps, with steps of exactly h */
function fixedStepErrors(h: number, withJacobian: boolean): { end: number; dense: number } {
  const s = createStepper('rodas', 1, smooth.f, {
    rtol: 1e10,
    atol: 1e10,
    hMax: h,
    jacobian: withJacobian ? () => smooth.jac : undefined,
  });
  s.reset(0, [smooth.exact(0)], h);
  const out = new Float64Array(1);
  let dense = 0;
  while (s.t !== 1) {
    expect(s.step(1)).toBe('accepted');
    const mid = s.tPrev + 0.37 * s.hLast;
    s.interpolate(mid, out);
    dense = Math.max(dense, Math.abs(out[0] - smooth.exact(mid)));
  }
  return { end: Math.abs(s.y[0] - smooth.exact(1)), dense };
}

describe('rodas: measured order on a smooth non-autonomous problem with a closed form', () => {
  it('order 4 at the step ends and at least 3 for the dense output (exact Jacobian)', () => {
    const hs = [0.1, 0.05, 0.025, 0.0125];
    const e = hs.map((h) => fixedStepErrors(h, true));
    const slope = (a: number, b: number) => Math.log2(a / b);
    const endOrders = e.slice(1).map((x, i) => slope(e[i].end, x.end));
    const denseOrders = e.slice(1).map((x, i) => slope(e[i].dense, x.dense));
    for (const p of endOrders) expect(p).toBeGreaterThan(3.7);
    for (const p of endOrders) expect(p).toBeLessThan(4.6);
    for (const p of denseOrders) expect(p).toBeGreaterThan(3.5); // local error of a 3rd-order interpolant: h^4
  });

  it('with finite differences instead of the exact Jacobian it still converges at order 4 at these steps', () => {
    const e1 = fixedStepErrors(0.05, false).end,
      e2 = fixedStepErrors(0.025, false).end;
    expect(Math.log2(e1 / e2)).toBeGreaterThan(3.5);
  });
});

describe('events, deltas and switching functions under the implicit method', () => {
  const ball = readFileSync(new URL('../examples/bouncing_ball.delta', import.meta.url), 'utf8');
  // t_n = t1 + (2 v1/g) e (1 − e^(n−1))/(1 − e), t1 = sqrt(2 h0/g)
  const g = 9.81,
    e = 0.8,
    t1 = Math.sqrt(2 / g),
    v1 = g * t1;
  const bounce = (n: number) => t1 + (((2 * v1) / g) * e * (1 - e ** (n - 1))) / (1 - e);

  it.each(['rodas', 'auto'] as MethodName[])('%s: the bouncing ball bounces at the closed-form times', (method) => {
    const r = simulate(ball, { method, to: 3.5, eventsOnly: true });
    expect(r.status).toBe('ok');
    const times = r.events.filter((ev) => ev.name === 'bounce').map((ev) => ev.t);
    expect(times.length).toBeGreaterThanOrEqual(6);
    times.forEach((t, i) => expect(Math.abs(t - bounce(i + 1)), `bounce ${i + 1}`).toBeLessThan(1e-9));
  });

  it('a switching function (if) in a stiff right-hand side: located, and the solution exact', () => {
    // y' = -1e6 (y - u(t)), u = 1 while t < 1 then 0: y follows u to O(1e-6) (exact: y = u + transient)
    const m = compileModel(
      "model Switch\nindependent t from 0 to 2\ny' = -1e6*(y - (if t < 1 then 1 else 0))\ny(0) = 1",
      'sw.delta',
    );
    const r = simulate(m, { method: 'rodas', rtol: 1e-8, probes: [1.5] });
    expect(r.status).toBe('ok');
    expect(Math.abs(r.final.y)).toBeLessThan(1e-9);
    // at t = 1.5: e^{-1e6·0.5} of the jump is gone
    expect(Math.abs(r.probes![0].y[0])).toBeLessThan(1e-9);
  });

  it('an infinite derivative where f is finite (sqrt(y + 1) at y = -1) does not stall rodas: it fails where f does, naming it', () => {
    const r = simulate("independent t from 0 to 1\ny' = -1\nz' = sqrt(y + 1)\ny(0) = -1; z(0) = 0", {
      method: 'rodas',
    });
    expect(r.status).toBe('failed');
    expect(r.message).toContain("the right-hand side of z' (sqrt(y + 1)) is NaN");
  });

  /** the reference cases (closed forms) again, with the implicit method where they leave the method open */
  const cases = referenceCases().filter(
    (c) =>
      c.command === 'simulate' &&
      !c.args.includes('--method') &&
      !c.checks.some((k) => k.stderr !== undefined || k.exit !== undefined),
  );
  const applyCheck = (id: string, check: CaseCheck, result: unknown) => {
    const path = check.path!;
    const actual = getPath(result, path);
    if (path.startsWith('stats.') || path === 'rows.length') return; // the step counts are the method's own
    if ('equals' in check) {
      expect(actual, `${id}: ${path}`).toEqual(check.equals);
      return;
    }
    if (check.atLeast !== undefined) {
      expect(actual as number, `${id}: ${path}`).toBeGreaterThanOrEqual(check.atLeast);
      return;
    }
    expect(
      Math.abs((actual as number) - check.value!),
      `${id}: ${path} = ${String(actual)}, expected ${check.value}`,
    ).toBeLessThanOrEqual(check.tol!);
  };
  it.each(cases.map((c) => [c.id, c] as const))('reference case %s with rodas', (_id, c) => {
    const model = compileModel(readFileSync(`${REFERENCE_DIR}${c.model}`, 'utf8'), c.model);
    const result = simulate(model, { ...optionsFromArgs(c.args), method: 'rodas' });
    for (const check of c.checks) applyCheck(c.id, check, result);
  });
});
