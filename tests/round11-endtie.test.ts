/**
 * Round 11, a crossing within the tie of the end of the range on a fixed-step method: the
 * docs make a crossing closer than 4 ulps of t to the end one instant with it, no event of
 * the range. The adaptive methods' last step, which lands on the end, dropped it; rk4's
 * thousand fixed steps put it in a step that ends short of the end, where it fired.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { EVERY_STEPPER } from './methods.js';

// x = t - t0 reaches d at t0 + d; the range ends at the double nearest t0 + 1.01 d: 2.45
// (t0 = 1e9, d = 5e-5) and 1.82 (t0 = 1, d = 5e-14) units of EPSILON*t after the crossing,
// within the 4 of the tie (mpmath/fractions on the doubles). With 1.04 d the crossing is
// 9 or more units before the end, an event of the range on every method.
const model = (t0: string, d: string, f: string) => `independent t from ${t0} to ${t0} + ${f}*${d}
discrete n = 0
event s when x - ${d} rises do n := n + 1 end
x' = 1
x(${t0}) = 0`;

describe('a crossing within 4 ulps of t before the end is no event of the range', () => {
  for (const [t0, d] of [
    ['1e9', '5e-5'],
    ['1', '5e-14'],
  ])
    it.each(EVERY_STEPPER)(`t0 = ${t0}: %s (rk4 counted it)`, (method, tol) => {
      const r = simulate(model(t0, d, '1.01'), { method, ...tol });
      expect(r.status).toBe('ok');
      expect(r.final.n).toBe(0);
      // x' = 1: x at the end is the span, exact in doubles up to a few roundings of x
      const span = Number(t0) + 1.01 * Number(d) - Number(t0);
      expect(Math.abs(r.final.x - span)).toBeLessThan(1e-12 * span);
    });
  it.each(EVERY_STEPPER)('one 9 ulps before the end fires: %s', (method, tol) => {
    const r = simulate(model('1e9', '5e-5', '1.04'), { method, ...tol });
    expect(r.status).toBe('ok');
    expect(r.final.n).toBe(1);
  });
});
