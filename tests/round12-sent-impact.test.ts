/**
 * An impact that event iteration fires (tests/README, round 12): another event's action sets
 * its function onto zero at rest, from one side, and its own action then changes the
 * function's rate. It arrived by that jump, from the side it stood on: an approach seen,
 * whatever its rate. The steppers took the rate before its action (the location's residue,
 * 1e-16) for an approach they could not see, and its action's rate on across for a contact:
 * "persisting contact" on every stepper (the differential oracle, seed 1010), where the
 * analytic path went on. A ball lowered onto the floor at its apex by a reset, whose impact
 * keeps it at rest under gravity, stays a persisting contact on every method.
 *
 * Exact answers: x' = v, v' = -1 from x = 0, v = 0.5: x = 0.125 at t = 0.5 with v = 0 there;
 * `at 0.5 do x := 0` sets x onto zero from above at rest, so `x falls` fires once.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { ALL_METHODS } from './zero-set-cases.js';

const base = (event: string, extra = '', rate = 'v') => `independent t from 0 to 1
discrete n = 0
${event}
event tm at 0.5 do x := 0 end
x' = ${rate}
v' = -1
x(0) = 0; v(0) = 0.5
${extra}`;

const cases = [
  {
    // n := n + 1 turns x' = v - n to -1: on down, x = -(t - 0.5) - (t - 0.5)^2/2, x(1) = -0.625
    name: 'a counter in the rate',
    model: base('event e3 when x falls do n := n + 1 end', '', 'v - n'),
    final: { x: -0.625, v: -0.5, n: 1 },
  },
  {
    // the same through y' = n: x - y = -(t - 0.5)^2/2 - (t - 0.5), x(1) = -0.125, y(1) = 0.5
    name: 'a counter in another state',
    model: base('event e3 when x - y falls do n := n + 1 end', "y' = n\ny(0) = 0\n"),
    final: { x: -0.125, y: 0.5, n: 1 },
  },
  {
    // v := v - 1 sends it on down: x = -(t - 0.5) - (t - 0.5)^2/2, v(1) = -1.5
    name: 'an impact that pushes it on',
    model: base('event e3 when x falls do v := v - 1; n := n + 1 end'),
    final: { x: -0.625, v: -1.5, n: 1 },
  },
];

describe('an impact fired by event iteration, sent on across by its own action', () => {
  for (const c of cases)
    for (const method of ALL_METHODS)
      it(`${c.name}: ${method}`, () => {
        const r = simulate(c.model, { method });
        expect(r.status, r.message ?? '').toBe('ok');
        expect(r.events.map((e) => e.name)).toEqual(['tm', 'e3']);
        // (polynomials of degree 2 over [0, 1]: every method's error is far below 1e-9)
        for (const [k, v] of Object.entries(c.final)) expect(Math.abs(r.final[k] - v), k).toBeLessThan(1e-9);
      });
});

describe('a ball lowered onto the floor at its apex, its impact keeping it at rest', () => {
  const model = base('event e3 when x falls do v := -0.8*v end');
  for (const method of ALL_METHODS)
    it(`${method}: a persisting contact at t = 0.5`, () => {
      const r = simulate(model, { method });
      expect(r.status).toBe('failed');
      expect(r.message).toMatch(/^persisting contact at t = 0\.5/);
      expect(r.events.map((e) => e.name)).toEqual(['tm', 'e3']);
    });
});
