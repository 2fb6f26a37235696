/**
 * The closed forms (issue 23, part 2): propagators and event-function Taylor coefficients
 * generated from Lie derivatives, against hand-derived polynomials.
 */
import { describe, expect, it } from 'vitest';
import { compileModel } from '../src/index.js';

const BALL = `independent t from 0 to 5
parameter g = 9.81, e = 0.8
event bounce when h falls
h'' = -g - (1 + e)*h'*delta(t - bounce)
h(0) = 10; h'(0) = 0`;

describe('closed-form propagators', () => {
  it('the ball: h(t0 + s) = h + (u1 + S1) s - g s^2/2, u1(t0 + s) = u1 - g s', () => {
    const m = compileModel(BALL);
    const cf = m.closedForm();
    const p = m.parameters();
    const y = new Float64Array([10, 2]);
    const d = new Float64Array([3]); // S1
    cf.advance[0]!(0, 0.5, y, p, d);
    expect(y[0]).toBeCloseTo(10 + 5 * 0.5 - (9.81 / 2) * 0.25, 14);
    expect(y[1]).toBeCloseTo(2 - 9.81 * 0.5, 14);
    expect(cf.degree[0]).toBe(2);
    const out = new Float64Array(6);
    y.set([1.5, -1]);
    cf.coefficients[0]!(0, y, p, d, out);
    expect([...out.slice(0, 3)]).toEqual([1.5, 2, -9.81 / 2]);
    // rounding bounds: 8 ulps of the magnitudes each coefficient adds up
    expect(out[3]).toBeCloseTo(8 * Number.EPSILON * 1.5, 30);
    expect(out[4]).toBeCloseTo(8 * Number.EPSILON * 4, 30);
  });

  it('a cubic force: x(t) = t^4/2 exactly from Lie derivatives with explicit t', () => {
    const m = compileModel(`independent t from 0 to 1
x''' = 12*t
x(0) = 0; x'(0) = 0; x''(0) = 0`);
    const cf = m.closedForm();
    const y = new Float64Array(m.nStates);
    m.initial(m.parameters(), y, new Float64Array(m.nDiscrete));
    // two halves: from t = 0 by 0.5, then from t = 0.5 by 0.5 (the clock's t enters the coefficients)
    cf.advance[0]!(0, 0.5, y, m.parameters(), new Float64Array(m.nDiscrete));
    cf.advance[0]!(0.5, 0.5, y, m.parameters(), new Float64Array(m.nDiscrete));
    const x = y[m.stateNames.indexOf('x')];
    expect(x).toBeCloseTo(0.5, 15);
  });

  it('a row of 64 spheres: one factory per family, the source does not grow with N', () => {
    const row = (n: number) => {
      const lines = [`independent t from 0 to 1`, `parameter e = 1`];
      for (let i = 1; i < n; i++) lines.push(`event c${i} when x${i + 1} - x${i} falls`);
      for (let i = 1; i <= n; i++) {
        const terms = [];
        if (i > 1) terms.push(`(1 + e)/2*(x${i - 1}' - x${i}')*delta(t - c${i - 1})`);
        if (i < n) terms.push(`-(1 + e)/2*(x${i}' - x${i + 1}')*delta(t - c${i})`);
        lines.push(`x${i}'' = ${terms.join(' + ')}`, `x${i}(0) = ${i}; x${i}'(0) = ${i % 3}`);
      }
      return compileModel(lines.join('\n')).closedForm();
    };
    const a = row(16),
      b = row(64);
    expect(b.advance.every((f) => f !== null)).toBe(true);
    expect(b.source.length).toBeLessThan(a.source.length + 200);
  });
});
