/**
 * Round 5, the analytic engine against the steppers at a stop and at the start (both from
 * tests/differential.test.ts's list).
 * - A stop event whose own action leaves its function at zero, pushed across, ended the
 *   analytic run with a "persisting contact" failure: it predicted the next crossings before
 *   it looked at the stop. The steppers stop there, status stopped.
 * - A function at its zero at the start with zero rate, pushed across, whose event resets its
 *   value (y := y + 1 at y - 0.5 rises) was called a persisting contact at the start on the
 *   analytic path; that rule is for impacts, whose actions turn the motion (a ball at rest on
 *   the floor). A reset follows the start's rule (it fires once it has left zero and crossed:
 *   here never), as on the steppers.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type MethodName } from '../src/index.js';

const METHODS: (MethodName | 'auto')[] = ['auto', 'dopri5', 'dop853', 'rodas', 'radau5', 'rk4'];

describe('the analytic path and the steppers agree at a stop and at the start', () => {
  it.each(METHODS)('%s: a stop whose action leaves its function at zero, pushed across, stops', (method) => {
    // z = t^2/2 reaches 2 at t = 2, where x := 0 leaves z' = 0 and z'' = 1 pushes z on
    const r = simulate(
      `independent t from 0 to 3
event e1 when z - 2 crosses do x := 0; stop end
x' = 1
z' = x
x(0) = 0; z(0) = 0`,
      { method },
    );
    expect(r.status).toBe('stopped');
    expect(r.message).toMatch(/^stopped by event e1 at t = (2|1\.99999999\d*|2\.00000000\d*)$/);
    expect(Math.abs(r.final.t - 2)).toBeLessThan(1e-8);
    expect(r.final.x).toBe(0);
  });

  it.each(METHODS)('%s: a reset at its zero at the start, pushed across, follows the start rule', (method) => {
    // y = 0.5 + t^2/4: at 0.5 with zero rate at t = 0, rising; it never crosses from below
    const r = simulate(
      `independent t from 0 to 2
discrete n = 0
event e1 when y - 0.5 rises do y := y + 1; n := n + 1 end
y' = 0.5*t
y(0) = 0.5`,
      { method },
    );
    expect(r.status).toBe('ok');
    expect(r.events).toHaveLength(0);
    expect(r.final.n).toBe(0);
    expect(Math.abs(r.final.y - 1.5)).toBeLessThan(1e-8);
  });

  it('an impact at rest on its zero at the start is still a persisting contact', () => {
    const r = simulate(`independent t from 0 to 2
event land when h falls do v := -0.8*v end
h' = v
v' = -9.81
h(0) = 0; v(0) = 0`);
    expect(r.status).toBe('failed');
    expect(r.message).toContain('persisting contact at the start');
  });
});
