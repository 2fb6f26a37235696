import { describe, it, expect } from 'vitest';
import { createStepper, METHODS } from '../../src/integrators/steppers.js';
import type { MethodName, Rhs, Stepper, StepperOptions } from '../../src/integrators/stepper.js';
import { Dopri5Stepper } from '../../src/integrators/dopri5.js';

/** a test problem with its exact solution */
interface Problem {
  name: string;
  n: number;
  f: Rhs;
  exact: (t: number, out: Float64Array) => void;
}

const rotation: Problem = {
  name: "rotation x' = y, y' = -x",
  n: 2,
  f: (_t, y, d) => {
    d[0] = y[1];
    d[1] = -y[0];
  },
  exact: (t, out) => {
    out[0] = Math.cos(t);
    out[1] = -Math.sin(t);
  },
};

const riccati: Problem = {
  name: "y' = y², y(0) = 1",
  n: 1,
  f: (_t, y, d) => {
    d[0] = y[0] * y[0];
  },
  exact: (t, out) => {
    out[0] = 1 / (1 - t);
  },
};

const logistic: Problem = {
  name: "logistic y' = y(1 - y), y(0) = 1/2",
  n: 1,
  f: (_t, y, d) => {
    d[0] = y[0] * (1 - y[0]);
  },
  exact: (t, out) => {
    out[0] = 1 / (1 + Math.exp(-t));
  },
};

const forced: Problem = {
  name: "y' = -y + sin t, y(0) = 0",
  n: 1,
  f: (t, y, d) => {
    d[0] = -y[0] + Math.sin(t);
  },
  exact: (t, out) => {
    out[0] = 0.5 * (Math.sin(t) - Math.cos(t) + Math.exp(-t));
  },
};

/** errors measured for an order must stay above this (≈ 20 ulp of solutions of size 1) */
const ROUNDING_FLOOR = 2e-15;

const HUGE_TOL = 1e10; // every step accepted: the adaptive methods run with a fixed step

function fixedStepper(method: MethodName, p: Problem, h: number): Stepper {
  return createStepper(method, p.n, p.f, { rtol: HUGE_TOL, atol: HUGE_TOL, hMax: h, hFixed: h });
}

function maxDiff(a: Float64Array, b: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/**
 * Integrate p from t0 to t1 with the fixed step h (h divides the interval); return the error
 * at t1 and the largest dense-output error at θ = 0.1, 0.3, 0.5, 0.8 of every step.
 */
function fixedRun(
  method: MethodName,
  p: Problem,
  t0: number,
  t1: number,
  h: number,
): { end: number; dense: number; steps: number } {
  const s = fixedStepper(method, p, h);
  const y0 = new Float64Array(p.n);
  p.exact(t0, y0);
  s.reset(t0, y0, h);
  const ex = new Float64Array(p.n);
  const u = new Float64Array(p.n);
  let dense = 0;
  while (s.t !== t1) {
    expect(s.step(t1)).toBe('accepted');
    for (const th of [0.1, 0.3, 0.5, 0.8]) {
      const tt = s.tPrev + th * s.hLast;
      s.interpolate(tt, u);
      p.exact(tt, ex);
      dense = Math.max(dense, maxDiff(u, ex));
    }
  }
  p.exact(t1, ex);
  return { end: maxDiff(s.y, ex), dense, steps: s.stats.steps };
}

/** log2 of successive error ratios for h, h/2, h/4, … */
function observedOrders(errors: number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < errors.length; i++) out.push(Math.log2(errors[i - 1] / errors[i]));
  return out;
}

interface OrderCase {
  method: MethodName;
  problem: Problem;
  t0: number;
  t1: number;
  /** step sizes h, h/2, h/4 for the error at t1 */
  hs: number[];
  order?: number;
  denseOrder?: number;
  /** measure only the error at t1, or only the dense output */
  only?: 'end' | 'dense';
}

/*
 * Step sizes are chosen so that the errors stay above rounding (ROUNDING_FLOOR) and in the
 * asymptotic range (y' = y² is used for rk4 only: near its pole the high derivatives make
 * DOP853 pre-asymptotic, and for DOPRI5 the h⁵ error coefficient of y(0.5) nearly cancels,
 * so the measured ratios wander between 3 and 7).
 *
 * Expected dense-output orders (max error over 4 points in every step of the run): the dense
 * error is the propagated error O(h^p) plus the local error of a continuous extension of
 * order p*, O(h^(p*+1)), so min(p, p*+1): rk4 Hermite (p* = 3): 4; DOPRI5 (p* = 4): 5;
 * DOP853 (p* = 7): 8.
 */
const ORDER_CASES: OrderCase[] = [
  { method: 'rk4', problem: rotation, t0: 0, t1: 4, hs: [0.2, 0.1, 0.05], order: 4, denseOrder: 4 },
  { method: 'rk4', problem: riccati, t0: 0, t1: 0.5, hs: [0.05, 0.025, 0.0125], order: 4, denseOrder: 4 },
  { method: 'rk4', problem: forced, t0: 0, t1: 4, hs: [0.2, 0.1, 0.05], order: 4, denseOrder: 4 },
  { method: 'dopri5', problem: rotation, t0: 0, t1: 4, hs: [0.2, 0.1, 0.05], order: 5, denseOrder: 5 },
  { method: 'dopri5', problem: logistic, t0: 0, t1: 8, hs: [0.4, 0.2, 0.1], order: 5, denseOrder: 5 },
  { method: 'dopri5', problem: forced, t0: 0, t1: 4, hs: [0.2, 0.1, 0.05], order: 5, denseOrder: 5 },
  { method: 'dop853', problem: rotation, t0: 0, t1: 8, hs: [1, 0.5, 0.25], order: 8, denseOrder: 8 },
  // near the pole of 1/(1 − t) DOP853's dense output is still pre-asymptotic at these h,
  // and the logistic solution is so smooth that its end error reaches rounding: one each
  { method: 'dop853', problem: riccati, t0: 0, t1: 0.5, hs: [0.125, 0.0625, 0.03125], order: 8, only: 'end' },
  { method: 'dop853', problem: logistic, t0: 0, t1: 8, hs: [0.5, 0.25, 0.125], denseOrder: 8, only: 'dense' },
  { method: 'dop853', problem: forced, t0: 0, t1: 4, hs: [1, 0.5, 0.25], order: 8, denseOrder: 8 },
  // backwards in time
  { method: 'rk4', problem: forced, t0: 2, t1: 0, hs: [0.2, 0.1, 0.05], order: 4, denseOrder: 4 },
  { method: 'dopri5', problem: rotation, t0: 2, t1: 0, hs: [0.2, 0.1, 0.05], order: 5, denseOrder: 5 },
  { method: 'dop853', problem: rotation, t0: 8, t1: 0, hs: [1, 0.5, 0.25], order: 8, denseOrder: 8 },
];

describe.each(ORDER_CASES)('$method on $problem.name over [$t0, $t1]', (c) => {
  const order = c.order ?? 0;
  const denseOrder = c.denseOrder ?? 0;
  const runs = c.hs.map((h) => fixedRun(c.method, c.problem, c.t0, c.t1, h));
  it('takes the fixed steps it was given', () => {
    runs.forEach((r, i) => expect(r.steps).toBe(Math.round(Math.abs(c.t1 - c.t0) / c.hs[i])));
  });
  it.skipIf(c.only === 'dense')(`converges with order ${order} (measured, within 0.2)`, () => {
    const errs = runs.map((r) => r.end);
    for (const e of errs) expect(e).toBeGreaterThan(ROUNDING_FLOOR);
    for (const q of observedOrders(errs)) expect(q).toBeGreaterThan(order - 0.2);
  });
  it.skipIf(c.only === 'end')(`dense output converges with order ${denseOrder}`, () => {
    const errs = runs.map((r) => r.dense);
    for (const e of errs) expect(e).toBeGreaterThan(ROUNDING_FLOOR);
    for (const q of observedOrders(errs)) expect(q).toBeGreaterThan(denseOrder - 0.2);
  });
});

function start(
  method: MethodName,
  p: Problem,
  t0: number,
  opts: Partial<StepperOptions> = {},
  hInit?: number,
): Stepper {
  const s = createStepper(method, p.n, p.f, { rtol: 1e-6, atol: 1e-9, hMax: Infinity, hFixed: 0.01, ...opts });
  const y0 = new Float64Array(p.n);
  p.exact(t0, y0);
  s.reset(t0, y0, hInit);
  return s;
}

/** step until t === tLimit; returns the number of calls, fails on any other outcome */
function runTo(s: Stepper, tLimit: number, maxCalls = 100000): number {
  let calls = 0;
  while (s.t !== tLimit) {
    expect(s.step(tLimit)).toBe('accepted');
    if (++calls > maxCalls) throw new Error('too many steps');
  }
  return calls;
}

describe('createStepper', () => {
  it('knows the methods and their properties', () => {
    expect([...METHODS]).toEqual(expect.arrayContaining(['rk4', 'dopri5', 'dop853', 'rodas', 'radau5', 'auto']));
    const orders: Record<string, number> = { euler: 1, rk4: 4, dopri5: 5, dop853: 8, rodas: 4, radau5: 5, auto: 5 };
    for (const m of METHODS) {
      const s = createStepper(m, 2, rotation.f, { rtol: 1e-6, atol: 1e-9, hMax: 0.1 });
      expect(s.method).toBe(m);
      expect(s.n).toBe(2);
      // auto: the order of the method in use, dopri5 at the start
      expect(s.order).toBe(orders[m]);
      expect(s.adaptive).toBe(!['rk4', 'euler'].includes(m));
    }
  });
  it('rejects an unknown method with a clear Error', () => {
    expect(() => createStepper('trapezoid' as MethodName, 1, forced.f, { rtol: 1, atol: 1, hMax: 1 })).toThrow(
      /unknown integration method 'trapezoid'/,
    );
  });
  it('rejects rk4 without a finite step, and invalid tolerances', () => {
    expect(() => createStepper('rk4', 1, forced.f, { rtol: 1e-6, atol: 1e-6, hMax: Infinity })).toThrow(RangeError);
    expect(() => createStepper('dopri5', 1, forced.f, { rtol: -1, atol: 1e-6, hMax: Infinity })).toThrow(RangeError);
    expect(() => createStepper('dop853', 1, forced.f, { rtol: 0, atol: 0, hMax: Infinity })).toThrow(RangeError);
  });
  it('rk4 uses min(hFixed, hMax)', () => {
    const s = start('rk4', forced, 0, { hFixed: 0.1, hMax: 0.05 });
    s.step(1);
    expect(s.hLast).toBe(0.05);
  });
});

describe.each(['rk4', 'dopri5', 'dop853', 'rodas', 'auto'] as MethodName[])('%s: contract', (method) => {
  it('reset copies y, evaluates f once and starts a degenerate step', () => {
    const y0 = new Float64Array([1, 0]);
    const s = createStepper(method, 2, rotation.f, { rtol: 1e-6, atol: 1e-9, hMax: Infinity, hFixed: 0.1 });
    s.reset(0.5, y0);
    y0[0] = 42;
    expect([...s.y]).toEqual([1, 0]);
    expect([...s.yPrev]).toEqual([1, 0]);
    expect([...s.dydt]).toEqual([0, -1]);
    expect(s.t).toBe(0.5);
    expect(s.tPrev).toBe(0.5);
    expect(s.hLast).toBe(0);
    expect(s.stats).toMatchObject({ steps: 0, rejected: 0, rhsEvaluations: 1 });
    const out = new Float64Array(2);
    s.interpolate(0.5, out);
    expect([...out]).toEqual([1, 0]);
  });

  it('step(t) with tLimit === t throws', () => {
    const s = start(method, rotation, 0);
    expect(() => s.step(0)).toThrow(RangeError);
  });

  it('after a step: tPrev/yPrev the start, t/y/dydt the end, hLast the step', () => {
    const s = start(method, rotation, 0, { hFixed: 0.1 });
    const y0 = Float64Array.from(s.y);
    expect(s.step(1)).toBe('accepted');
    expect(s.tPrev).toBe(0);
    expect([...s.yPrev]).toEqual([...y0]);
    expect(s.t).toBe(s.tPrev + s.hLast);
    const d = new Float64Array(2);
    rotation.f(s.t, s.y, d);
    expect([...s.dydt]).toEqual([...d]);
  });

  it('interpolate is exact at both ends and continuous inside', () => {
    const s = start(method, rotation, 0, { hFixed: 0.1 });
    runTo(s, 0.35);
    s.step(2);
    const out = new Float64Array(2);
    s.interpolate(s.tPrev, out);
    expect([...out]).toEqual([...s.yPrev]);
    s.interpolate(s.t, out);
    expect([...out]).toEqual([...s.y]);
    const eps = 1e-9 * Math.abs(s.hLast);
    s.interpolate(s.t - Math.sign(s.hLast) * eps, out);
    expect(maxDiff(out, s.y)).toBeLessThan(1e-8);
    s.interpolate(s.tPrev + Math.sign(s.hLast) * eps, out);
    expect(maxDiff(out, s.yPrev)).toBeLessThan(1e-8);
  });

  it('lands exactly on tLimit (strict equality), forwards and backwards', () => {
    for (const tLimit of [0.1 * 3, 1 / 3, 0.7, 2.000000000000001]) {
      const s = start(method, rotation, 0, { hFixed: 0.1 });
      runTo(s, tLimit);
      expect(s.t).toBe(tLimit);
      runTo(s, -tLimit);
      expect(s.t).toBe(-tLimit);
    }
  });

  it('steps through a dense sequence of targets (as an event driver would)', () => {
    const s = start(method, forced, 0, { hFixed: 0.05, rtol: 1e-9, atol: 1e-12 });
    const ex = new Float64Array(1);
    for (let k = 1; k <= 40; k++) {
      const tk = k * 0.0371;
      runTo(s, tk);
      expect(s.t).toBe(tk);
    }
    forced.exact(s.t, ex);
    expect(Math.abs(s.y[0] - ex[0])).toBeLessThan(method === 'rk4' ? 1e-7 : 1e-8);
  });

  it('avoids slivers: no step below a third of the regular step when landing', () => {
    const s = start(method, rotation, 0, { hFixed: 0.1, hMax: 0.1, rtol: 1e10, atol: 1e10 }, 0.1);
    const sizes: number[] = [];
    for (const tLimit of [0.3000001, 0.45, 0.5999999]) {
      while (s.t !== tLimit) {
        expect(s.step(tLimit)).toBe('accepted');
        sizes.push(Math.abs(s.hLast));
      }
    }
    for (const h of sizes) expect(h).toBeGreaterThan(0.1 / 3);
    for (const h of sizes) expect(h).toBeLessThanOrEqual(0.1 * (1 + 1e-8));
  });

  it("returns 'nonFinite' at once when f is NaN at the start", () => {
    const s = createStepper(method, 1, (_t, _y, d) => (d[0] = Number.NaN), {
      rtol: 1e-6,
      atol: 1e-6,
      hMax: 1,
      hFixed: 0.1,
    });
    s.reset(0, [1]);
    expect(s.step(1)).toBe('nonFinite');
    expect(s.t).toBe(0);
    expect(s.stats.rhsEvaluations).toBe(1);
  });

  it("returns 'nonFinite' (in bounded work) when f becomes NaN past t = 0.5, state unchanged", () => {
    const f: Rhs = (t, y, d) => {
      d[0] = t > 0.5 ? Number.NaN : -y[0];
    };
    const s = createStepper(method, 1, f, { rtol: 1e-6, atol: 1e-9, hMax: Infinity, hFixed: 0.1 });
    s.reset(0, [1]);
    let outcome = s.step(1);
    let calls = 1;
    while (outcome === 'accepted' && calls < 10000) {
      outcome = s.step(1);
      calls++;
    }
    expect(outcome).toBe('nonFinite');
    expect(s.t).toBeLessThanOrEqual(0.5);
    expect(s.t).toBeGreaterThan(0.5 - 1e-6);
    expect(s.stats.rhsEvaluations).toBeLessThan(50000);
    const t = s.t;
    const y = s.y[0];
    expect(s.step(1)).toBe('nonFinite');
    expect(s.t).toBe(t);
    expect(s.y[0]).toBe(y);
  });

  it('resetStats zeroes the counters, which otherwise accumulate across resets', () => {
    const s = start(method, forced, 0, { hFixed: 0.1 });
    runTo(s, 1);
    const before = s.stats.rhsEvaluations;
    s.reset(1, [0.25]);
    expect(s.stats.rhsEvaluations).toBe(before + 1);
    s.resetStats();
    expect(s.stats).toMatchObject({ steps: 0, rejected: 0, rhsEvaluations: 0 });
  });
});

describe('rhsEvaluations', () => {
  it('rk4: resets + 4·steps', () => {
    const s = start('rk4', rotation, 0, { hFixed: 0.1 });
    runTo(s, 3);
    expect(s.stats.rejected).toBe(0);
    expect(s.stats.rhsEvaluations).toBe(1 + 4 * s.stats.steps);
  });
  it('dopri5: resets + hinit + 6·(steps + rejected); interpolation is free', () => {
    const s = start('dopri5', rotation, 0, { rtol: 1e-10, atol: 1e-12 });
    const out = new Float64Array(2);
    while (s.t !== 20) {
      s.step(20);
      s.interpolate(s.tPrev + 0.5 * s.hLast, out);
    }
    const { steps, rejected, rhsEvaluations } = s.stats;
    expect(rhsEvaluations).toBe(2 + 6 * (steps + rejected));
    // with hInit the heuristic is skipped
    const s2 = start('dopri5', rotation, 0, { rtol: 1e-6, atol: 1e-9 }, 1e-3);
    s2.step(1);
    expect(s2.hLast).toBe(1e-3);
    expect(s2.stats.rhsEvaluations).toBe(1 + 6);
  });
  it('dop853: resets + hinit + 12·steps + 11·rejected (+3 per interpolated step)', () => {
    const s = start('dop853', riccati, 0, { rtol: 1e-10, atol: 1e-12 });
    runTo(s, 0.9);
    const { steps, rejected, rhsEvaluations } = s.stats;
    expect(rejected).toBeGreaterThan(0); // the relation is checked with rejections in it
    expect(rhsEvaluations).toBe(2 + 12 * steps + 11 * rejected);
  });
  it('dop853 dense output is lazy: +3 on the first interpolate of a step, +0 after', () => {
    const s = start('dop853', rotation, 0, { rtol: 1e-8, atol: 1e-10 });
    const out = new Float64Array(2);
    const ex = new Float64Array(2);
    s.step(10);
    const n0 = s.stats.rhsEvaluations;
    s.interpolate(s.t, out); // the ends need no coefficients
    s.interpolate(s.tPrev, out);
    expect(s.stats.rhsEvaluations).toBe(n0);
    s.interpolate(s.tPrev + 0.3 * s.hLast, out);
    expect(s.stats.rhsEvaluations).toBe(n0 + 3);
    rotation.exact(s.tPrev + 0.3 * s.hLast, ex);
    expect(maxDiff(out, ex)).toBeLessThan(1e-7);
    s.interpolate(s.tPrev + 0.7 * s.hLast, out);
    expect(s.stats.rhsEvaluations).toBe(n0 + 3);
    s.step(10);
    expect(s.stats.rhsEvaluations).toBe(n0 + 3 + 12 * (s.stats.steps - 1) + 11 * s.stats.rejected);
    const n1 = s.stats.rhsEvaluations;
    s.interpolate(s.tPrev + 0.5 * s.hLast, out);
    s.interpolate(s.tPrev + 0.6 * s.hLast, out);
    expect(s.stats.rhsEvaluations).toBe(n1 + 3);
  });
});

describe.each(['dopri5', 'dop853'] as MethodName[])('%s: adaptive', (method) => {
  it('rotation over [0, 20] with rtol 1e-10, atol 1e-12: error below 1e-8', () => {
    // The controller keeps each local error near tol ≈ 1e-10 (relative to |y| ≤ 1); on the
    // rotation errors neither grow nor decay, so they add up over the ~10²-10³ steps (but
    // partly cancel): 1e-8 is 100 local tolerances.
    const s = start(method, rotation, 0, { rtol: 1e-10, atol: 1e-12 });
    runTo(s, 20);
    const ex = new Float64Array(2);
    rotation.exact(20, ex);
    expect(maxDiff(s.y, ex)).toBeLessThan(1e-8);
  });
  it('backwards from t = 2 to 0 matches the exact solution, and the dense output too', () => {
    const s = start(method, forced, 2, { rtol: 1e-10, atol: 1e-12 });
    const out = new Float64Array(1);
    const ex = new Float64Array(1);
    let dense = 0;
    while (s.t !== 0) {
      expect(s.step(0)).toBe('accepted');
      expect(s.hLast).toBeLessThan(0);
      const tm = s.tPrev + 0.5 * s.hLast;
      s.interpolate(tm, out);
      forced.exact(tm, ex);
      dense = Math.max(dense, Math.abs(out[0] - ex[0]));
    }
    forced.exact(0, ex);
    expect(Math.abs(s.y[0] - ex[0])).toBeLessThan(1e-9);
    expect(dense).toBeLessThan(1e-8);
  });
  it('step growth: up to 1e4 after the first step of a (re)start where the error is nil, tenfold after that', () => {
    // uniform motion x' = v, v' = 0: every method is exact, the error estimate is rounding
    const uniform: Rhs = (_t, y, d) => {
      d[0] = y[1];
      d[1] = 0;
    };
    const s = createStepper(method, 2, uniform, { rtol: 1e-10, atol: 1e-12, hMax: Infinity, hFixed: NaN });
    for (const restart of [0, 1]) {
      s.reset(restart, [1, 1], 1e-3);
      const sizes: number[] = [];
      for (let i = 0; i < 4; i++) {
        expect(s.step(1e9)).toBe('accepted');
        sizes.push(s.hLast);
      }
      expect(sizes[0]).toBeCloseTo(1e-3, 15);
      // the first accepted step may grow by more than facMax (as CVODE's ETAMX1)...
      expect(sizes[1] / sizes[0]).toBeGreaterThan(10);
      expect(sizes[1] / sizes[0]).toBeLessThanOrEqual(1e4);
      // ...later ones by facMax at most (DOPRI5: 10, DOP853: 6)
      for (let i = 2; i < 4; i++) expect(sizes[i] / sizes[i - 1]).toBeLessThanOrEqual(10 * (1 + 1e-12));
      // and the motion stays exact
      expect(Math.abs(s.y[0] - (1 + (s.t - restart)))).toBeLessThanOrEqual(1e-12 * s.t);
    }
  });
  it('step growth on a curved solution stays as the error allows (no jump after a restart)', () => {
    const s = start(method, rotation, 0, { rtol: 1e-10, atol: 1e-12 });
    for (let i = 0; i < 3; i++) s.step(20);
    const h = Math.abs(s.hLast);
    s.reset(s.t, Float64Array.from(s.y), h);
    s.step(20);
    s.step(20);
    // the rotation's error estimate is far from nil: no thousandfold growth
    expect(Math.abs(s.hLast) / h).toBeLessThan(10);
  });
  it('respects hMax', () => {
    const s = start(method, forced, 0, { rtol: 1e-3, atol: 1e-3, hMax: 0.125 });
    while (s.t !== 3) {
      s.step(3);
      expect(Math.abs(s.hLast)).toBeLessThanOrEqual(0.125 * (1 + 1e-8));
    }
  });
  it("y' = y², y(0) = 1 past the pole at t = 1: underflow or non-finite in bounded work", () => {
    const s = start(method, riccati, 0, { rtol: 1e-8, atol: 1e-8 });
    let outcome = s.step(2);
    let calls = 1;
    while (outcome === 'accepted' && calls < 100000) {
      outcome = s.step(2);
      calls++;
    }
    expect(['stepSizeUnderflow', 'nonFinite']).toContain(outcome);
    // it stops at the pole, to within what the tolerance can resolve (|y| ~ 1/(1 − t))
    expect(Math.abs(s.t - 1)).toBeLessThan(1e-6);
    expect(s.stats.rhsEvaluations).toBeLessThan(100000);
  });
});

describe("dopri5 stiffness indicator (Hairer's test)", () => {
  // y' = -λ(y - cos t): once the transient has decayed, accuracy allows large steps and
  // stability caps them at h·λ ≈ 3.3, so the estimate of h·|λ| sits near the border.
  const run = (lambda: number, steps: number) => {
    const f: Rhs = (t, y, d) => {
      d[0] = -lambda * (y[0] - Math.cos(t));
    };
    const s = new Dopri5Stepper(1, f, { rtol: 1e-6, atol: 1e-9, hMax: Infinity });
    s.reset(0, [0]);
    for (let k = 0; k < steps && s.t < 1e3; k++) s.step(1e3);
    return s;
  };
  it("flags y' = -1e4 (y - cos t) after a few hundred steps, with h·|λ| near the stability border", () => {
    const s = run(1e4, 400);
    expect(s.looksStiff).toBe(true);
    expect(s.hLambda).toBeGreaterThan(2);
    expect(s.hLambda).toBeLessThan(4);
  });
  it("does not flag y' = -(y - cos t)", () => {
    const s = run(1, 400);
    expect(s.looksStiff).toBe(false);
    expect(s.hLambda).toBeLessThan(3.25);
  });
});
