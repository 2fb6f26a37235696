/**
 * Round 11 (session 2026-11-30), the symbolic stage.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const model = (arg: string) => `independent t from 0 to 3\ny' = delta(${arg})\nx' = 1\nx(0) = -1; y(0) = 0`;

describe("a delta argument's root multiplicity through powers of powers", () => {
  it('(x^2)^3, abs(x)^3, (x*x)^3, x^3*x^3 and x^1e300 touch zero (even): was "multiplicity 3"', () => {
    for (const arg of ['(x^2)^3', 'abs(x)^3', '(x*x)^3', '(x^3)*(x^3)', 'x^1e300', '-2*(x^2)^5'])
      expect(() => simulate(model(arg)), arg).toThrow(
        /touches zero without crossing it \(a root of even multiplicity\)/,
      );
  });

  it('(x^3)^3 and -(x^3)^5 cross with zero rate, with their multiplicity (9, 15)', () => {
    expect(() => simulate(model('(x^3)^3'))).toThrow(/crosses zero with zero rate \(a root of multiplicity 9\)/);
    expect(() => simulate(model('-(x^3)^5'))).toThrow(/a root of multiplicity 15\)/);
  });

  it('(x + 1)^1 and x^1 are simple: weight 1 at t = 1', () => {
    for (const arg of ['x^1', '(2*x)^1']) {
      const r = simulate(model(arg));
      expect(r.status, arg).toBe('ok');
      // (x = t - 1 is linear: its root is exact; the weight 1/|d/dt arg| is 1 or 1/2)
      expect(r.final.y, arg).toBeCloseTo(arg === 'x^1' ? 1 : 0.5, 14);
    }
  });
});
