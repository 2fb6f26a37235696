/**
 * A smooth right-hand side with an extremum inside a step is no jump: x'' = cos(y), y' = w,
 * taken by dop853 in steps of about a quarter of its period, has the mean slope of x over a
 * step outside the slopes at its ends, which the step guard took for a jump "not written with
 * if, step or sign" and ended the run at t = 0.53 (found by the fuzzer, seed 89). Simpson's
 * rule with f at the midpoint of the step's dense output tells the two apart.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const METHODS = ['auto', 'dopri5', 'dop853', 'rodas', 'radau5'] as const;

/** x(T) for x'' = cos(1 + w t), x(0) = 1, x'(0) = 0 */
const exact = (w: number, T: number) => 1 - (T * Math.sin(1)) / w - (Math.cos(1 + w * T) - Math.cos(1)) / (w * w);

describe('a fast smooth oscillation is no discontinuity', () => {
  it.each([
    [1000, 1e-6],
    [1e4, 1e-4],
    [100, 1e-8],
  ])('w = %s at rtol %s: every method ends ok, x within 50 rtol of the closed form', (w, rtol) => {
    const T = Math.min(10, 2000 / w);
    const text = `independent t from 0 to ${T}\nx'' = cos(y)\ny' = ${w}\nx(0) = 1; x'(0) = 0; y(0) = 1`;
    for (const method of METHODS) {
      const r = simulate(text, { method, rtol, atol: 1e-3 * rtol, eventsOnly: true, maxSteps: 2e6 });
      expect(r.status, `${method}: ${r.message}`).toBe('ok');
      // (a one-step method bounds each step's error, and over up to 1600 periods the global
      // error adds up: measured 0.3 to 4 times rtol; 50 leaves room and fails on a lost digit)
      expect(Math.abs(r.final.x - exact(w, T)), method).toBeLessThan(50 * rtol);
    }
  });
});
