/**
 * Round 10: test problems from other tools' own test suites and documentation, written as a
 * user of those tools would write them in the model language and run as written, each
 * checked against its exact answer (closed form, or mpmath at 40 digits where cited).
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import type { MethodName } from '../src/index.js';

const TIGHT = { rtol: 1e-10, atol: 1e-12 };

describe('a ball held on a vibrating table (hybrid-systems literature; zeno = continue)', () => {
  // The table moves as s = A sin(w t) with A w^2 = 3.95 < g: the impacts (e = 0.5) accumulate
  // at t = 1.1805 (26 or 27 of them, mpmath agrees on the first 12 to 1e-12), and from there
  // the ball rides the table for good, so y(10) = A sin(20 pi) = 0 and y'(10) = A w. rodas
  // held the contact with ∂f/∂t = 0 (the model y'' = -g reads no t, the contact force does):
  // y(10) = -2.5e-4 in 36382 steps, status ok. At the default rtol 1e-6 the error in y
  // (size 0.1) over 9 s of contact is a few 1e-8 on every method (dopri5: 2.2e-8).
  const table = `option zeno = continue
independent t from 0 to 10
parameter g = 9.81, e = 0.5, A = 0.1, w = 2*pi
discrete hits = 0
event hit when y - A*sin(w*t) falls do y' := (1 + e)*A*w*cos(w*t) - e*y'; hits := hits + 1 end
y'' = -g
y(0) = 1; y'(0) = 0`;
  it.each([
    ['auto', {}, 1e-6],
    ['rodas', {}, 1e-6],
    ['radau5', {}, 1e-6],
    ['rodas', TIGHT, 1e-9],
  ] as [MethodName, { rtol?: number; atol?: number }, number][])(
    '%s %o: rides the table to y(10) = 0',
    (method, tol, err) => {
      const r = simulate(table, { method, ...tol, eventsOnly: true });
      expect(r.status, r.message ?? '').toBe('ok');
      expect(Math.abs(r.final.y)).toBeLessThan(err);
      expect(Math.abs(r.final["y'"] - 0.2 * Math.PI)).toBeLessThan(10 * err);
      // a held contact is a smooth motion: at rtol 1e-6 the steps of a sine (674 on rodas with
      // the contact's ∂f/∂t, 36382 without it)
      if (tol.rtol === undefined) expect(r.stats.steps).toBeLessThan(3000);
    },
  );
});
