/**
 * Stiff models at tight tolerances (round 7): false diagnoses and wrong answers found on the
 * steppers, each against its exact answer.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type MethodName } from '../src/index.js';

describe('the rounding of a stiff component is no jump of its right-hand side', () => {
  // x' = A x with A = T diag(-1, -100, -1e4) T^-1, T = [1 1 0; 1 2 1; 0 1 3] (its entries are
  // halves, exact in doubles), x(0) = (1, 2, 3); x3 := x3 + 1 at t = 1 and 2 excites the fast
  // modes again; x1 falls through 0.2 once. Exactly (mpmath, 40 digits): the slow mode
  // z1 = (T^-1 x)_1 alone is left, x1(4) = x2(4) = 0.1108768146909725, and the fall at
  // 3.4101024409463936. x3 has no slow part: it decays to ~0, where its right-hand side
  // (terms of 4.5e3 that cancel) is rounding of 1e-12, a tenth of atol 1e-14 over a step of
  // 1.8e-3 but nothing over x3's own relaxation time (1/14950). At rtol 1e-12 rodas and radau5
  // failed at t = 0.08 .. 0.64 with "the right-hand side of x3' ... jumps within the last step,
  // again and again: a discontinuity that is not written with if", and dopri5, dop853 and auto
  // (which had not switched yet) with the same at t = 0.09 .. 0.12, where x3 zigzags at the
  // explicit methods' stability border (h·|λ| of the whole state, 3e-4, hid it). SciPy's Radau
  // solves it at rtol 1e-12 (3104 steps on [0, 1], error 8e-15).
  const model = `independent t from 0 to 4
discrete n = 0, tt = -1
event e1 when x1 - 0.2 falls do n := n + 1; tt := t end
event kick at 1, 2 do x3 := x3 + 1 end
x1' = 147.5*x1 + -148.5*x2 + 49.5*x3
x2' = -4702.5*x1 + 4701.5*x2 + -4900.5*x3
x3' = -14850*x1 + 14850*x2 + -14950*x3
x1(0) = 1; x2(0) = 2; x3(0) = 3`;
  const x1End = 0.1108768146909725;
  const fall = 3.4101024409463936;
  it.each(['rodas', 'radau5', 'dopri5', 'dop853', 'auto'] as MethodName[])(
    '%s at rtol 1e-12: ok, the three events, x1(4) and the fall to 1e-10',
    (method) => {
      const r = simulate(model, { method, rtol: 1e-12, atol: 1e-14, eventsOnly: true });
      expect(r.status, r.message ?? '').toBe('ok');
      expect(r.events.map((e) => e.name)).toEqual(['kick', 'kick', 'e1']);
      expect(r.final.n).toBe(1);
      // Bar: 100 rtol. The rounding of f (1e-12 in x3', 3e-13 in x2') drives the slow mode at
      // 1e-12 per unit time whatever the method; measured 2.6e-14 .. 3e-13 relative.
      expect(Math.abs(r.final.x1 - x1End)).toBeLessThan(1e-10 * x1End);
      expect(Math.abs(r.final.x2 - x1End)).toBeLessThan(1e-10 * x1End);
      // x1 falls at 0.11 per unit time there: 1e-11 in x1 is 1e-10 in t
      expect(Math.abs(r.final.tt - fall)).toBeLessThan(1e-9);
    },
  );
});

describe("t's rounding in a stiff right-hand side is no jump either", () => {
  // Prothero-Robinson, y' = -L (y - sin t) + cos t, y(0) = 1: y = sin t + e^{-Lt}. With
  // L = 1e9, one ulp of t at t = 66 (1.4e-14) moves L sin t by 1.4e-5, more than f's smooth
  // change over a step of 2e-4 (7e-6): the jump test's bisection ends on that staircase. rodas
  // at rtol 1e-12 failed at t = 66.0097 with "the right-hand side of y' = -L*(y - sin(t)) +
  // cos(t) jumps within the last step, again and again: a discontinuity that is not written with
  // if", its solution right to 1e-15 up to there (at L = 1e6: at t = 81.7).
  // Exactly: y falls through 0.5 at t ≈ ln 2/L (6.93e-10; the transient), then at 5π/6 + 2πk.
  const model = `independent t from 0 to 70
parameter L = 1e9
discrete n = 0
event e1 when y - 0.5 falls do n := n + 1 end
y' = -L*(y - sin(t)) + cos(t)
y(0) = 1`;
  it('rodas at rtol 1e-12: ok, the 12 falls at their times, y(70) = sin 70', () => {
    const r = simulate(model, { method: 'rodas', rtol: 1e-12, atol: 1e-14, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    const times = r.events.map((e) => e.t);
    expect(times).toHaveLength(12);
    // (the transient's fall: e^{-Lt} + sin t = 0.5, t = 6.9314718e-10 to 1e-17 by mpmath)
    expect(Math.abs(times[0] - 6.931471819e-10)).toBeLessThan(1e-17 + 1e-9 * 6.93e-10);
    // the slow falls: y's error 1e-14 over a rate of 0.87, and t's own ulp (1.4e-14 at 64)
    for (let k = 0; k < 11; k++)
      expect(Math.abs(times[k + 1] - ((5 * Math.PI) / 6 + 2 * Math.PI * k))).toBeLessThan(1e-12);
    expect(Math.abs(r.final.y - Math.sin(70))).toBeLessThan(1e-12);
  });
});
