/**
 * Forward Euler (--method euler), the integrator of HYBRSIM and of many hand-written
 * simulators: its discrete solution is known in closed form for y' = -y, so the steps, the
 * order and the location of an event on its polyline are checked exactly.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, createStepper, simulate } from '../../src/index.js';

const decay = (t: number, y: Float64Array, out: Float64Array) => {
  out[0] = -y[0];
};

describe('euler', () => {
  it('takes the steps y_{k+1} = (1 - h) y_k: (1 - h)^N at t = N h', () => {
    const s = createStepper('euler', 1, decay, { rtol: 1, atol: 1, hMax: Infinity, hFixed: 0.01 });
    expect(s.order).toBe(1);
    expect(s.adaptive).toBe(false);
    s.reset(0, [1]);
    let steps = 0;
    while (s.t !== 1) {
      expect(s.step(1)).toBe('accepted');
      steps++;
    }
    expect(steps).toBe(100);
    expect(Math.abs(s.y[0] - 0.99 ** 100)).toBeLessThan(1e-14);
    // one evaluation per step, plus the reset's
    expect(s.stats.rhsEvaluations).toBe(101);
  });

  it('converges with order 1: the error at t = 1 halves with the step', () => {
    const errorAt = (h: number) => {
      const r = simulate("y' = -y\ny(0) = 1", { method: 'euler', step: h, to: 1, record: false });
      return Math.abs(r.final.y - Math.exp(-1));
    };
    const e1 = errorAt(0.01),
      e2 = errorAt(0.005),
      e3 = errorAt(0.0025);
    // leading term: e^-1 h/2 (the global error of Euler on y' = -y), so the ratio tends to 2
    expect(Math.log2(e1 / e2)).toBeGreaterThan(0.98);
    expect(Math.log2(e1 / e2)).toBeLessThan(1.02);
    expect(Math.log2(e2 / e3)).toBeGreaterThan(0.99);
    expect(Math.abs(e1 - (Math.exp(-1) * 0.01) / 2)).toBeLessThan(0.05 * e1);
  });

  it('locates an event where its polyline crosses, between the grid points around it', () => {
    const h = 0.01;
    const r = simulate("y' = -y\ny(0) = 1\nevent half when y - 0.5 falls do stop end", {
      method: 'euler',
      step: h,
      to: 2,
    });
    // grid values (1 - h)^k: the first below 0.5 is k = 69; the straight line between k - 1 and k crosses 0.5 at
    const k = Math.ceil(Math.log(0.5) / Math.log(1 - h));
    const yk1 = (1 - h) ** (k - 1),
      yk = (1 - h) ** k;
    const t = (k - 1 + (yk1 - 0.5) / (yk1 - yk)) * h;
    expect(r.status).toBe('stopped');
    expect(Math.abs(r.events[0].t - t)).toBeLessThan(1e-12);
    expect(Math.abs(r.final.y - 0.5)).toBeLessThan(1e-12);
  });

  it('needs a step: a bad --step is an error, as for rk4', () => {
    expect(() => createStepper('euler', 1, decay, { rtol: 1, atol: 1, hMax: Infinity })).toThrow(
      /euler needs a positive finite step/,
    );
    const m = compileModel("option method = euler\ny' = -y\ny(0) = 1", 'e.delta');
    // the default step is the range / 1000
    const r = simulate(m, { to: 1, record: false });
    expect(Math.abs(r.final.y - 0.999 ** 1000)).toBeLessThan(1e-13);
  });
});
