/**
 * Round 16, zeno and fixed steps (the twelfth session):
 * 1. continuing a ball's zeno run on dopri5: an impact's rate after its instant is its own
 *    action's image of the rate it arrived with, not a residue within the rate's band
 *    (driver/firing.ts, carriedRateMotion);
 * 2. euler with a fixed step beyond its stability region says so, as rk4 does
 *    (integrators/euler.ts, driver/fixed-step-stability.ts).
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const BALL = `model Ball
independent t from 0 to 6
parameter g = 9.81, e = 0.8
event bounce when h falls
h'' = -g - (1 + e)*h'*delta(t - bounce)
h(0) = 1; h'(0) = 0`;

describe('1. an impact that turns a measured arrival rate leaves with motion, however small', () => {
  // From t0 = 4.063712768871424 (a zeno stop of the ball on [0, 6]) with h = 2.2958874039497785e-42
  // and h' = v = 1.4991958480556825e-13 up: the flight ends at t1 = (v + sqrt(v^2 + 2 g h))/g
  // with speed u = g t1 - v, and the bounces after it last 2 e u/(g (1 - e)) in all, so they
  // accumulate at t0 + t1 + 2 e u/(g (1 - e)) = 4.06371276887157689797 (mpmath, 50 digits: the
  // double 4.063712768871577). The 7th bounce, at 4.063712768871545, arrived at h' = -3.9e-14,
  // beyond its rate's band (g times the rounding of t, 3.5e-14), and left at +3.1e-14, within
  // it: it was held at rest in a band of 2 atol and fell through the floor by 1.6e-9 before
  // failing with "h stays at zero with zero rate while the motion pushes it across" (false:
  // it left upwards, and its next bounce, 6.4e-15 later, makes the geometric sequence a stop).
  const T_INF = 4.063712768871577;
  it('dopri5: a zeno stop at the accumulation point, h never below the floor', () => {
    const r = simulate(BALL, {
      method: 'dopri5',
      from: 4.063712768871424,
      init: { h: 2.2958874039497785e-42, "h'": 1.4991958480556825e-13 },
    });
    expect(r.status).toBe('zeno');
    // (the limit is extrapolated from gaps located to the rounding of t, a few ulps each:
    // 8 ulps of t = 4, 7.1e-15, bounds it; the bounces' remaining sum is 3e-14)
    expect(Math.abs((r.accumulationPoint ?? NaN) - T_INF)).toBeLessThanOrEqual(8 * 2 ** -50);
    expect(r.final.t).toBeLessThanOrEqual(T_INF);
    // (h on every row: at or above the floor to its rounding, 1e-40 at these states)
    for (const row of r.rows) expect(row[1]).toBeGreaterThanOrEqual(-1e-40);
    expect(r.events.every((ev) => ev.post["h'"] > 0)).toBe(true);
  });
});

describe('2. euler with a step beyond its stability region (|1 + hλ| > 1) says so', () => {
  // x' = -10x from 1: Euler's step multiplies x by 1 - 10h. At h = 0.3 that is -2, exactly:
  // 100 steps give 2^100 = 1.2676506002282294e30 (exact in doubles) where x = e^-300.
  const decay = `independent t from 0 to 30\nx' = -10*x\nx(0) = 1`;
  it('h·λ = 3: 2^100 with a warning naming h·|λ| = 3 and the border 2', () => {
    const r = simulate(decay, { method: 'euler', step: 0.3 });
    expect(r.status).toBe('ok');
    expect(r.final.x).toBe(2 ** 100);
    expect(r.warnings).toHaveLength(1);
    // (the estimate reads the differences of f over two steps, and counts a step where the
    // one before agrees: steps 3 to 100; on y' = λy it is h·|λ| to rounding)
    expect(r.warnings[0]).toMatch(
      /^euler's fixed step was beyond its stability region on 98 steps: h·\|λ\| up to 3, where the region ends at 2,/,
    );
    expect(r.warnings[0]).toMatch(/Take a smaller step \(below 0\.2 here\)/);
  });

  it('h·λ = 10 over three steps: -729 = (-9)^3, one step far beyond, a warning', () => {
    const r = simulate(decay.replace('to 30', 'to 3'), { method: 'euler', step: 1 });
    expect(r.final.x).toBe(-729);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^euler's fixed step was beyond its stability region on one step: h·\|λ\| up to 10,/);
  });

  it("a complex pair, x'' = -4x at h = 1.5: h·|λ| = 3 (|λ| = 2), a warning", () => {
    // (Euler's factor 1 ± 3i grows the amplitude by sqrt(10) a step: x of order 1e10 at t = 30)
    const r = simulate(`independent t from 0 to 30\nx'' = -4*x\nx(0) = 1; x'(0) = 0`, { method: 'euler', step: 1.5 });
    expect(Math.abs(r.final.x)).toBeGreaterThan(1e6);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^euler's fixed step was beyond its stability region on \d+ steps: h·\|λ\| up to 3,/);
  });

  it('inside the region, h·λ = 1.5: (-0.5)^200, no warning', () => {
    const r = simulate(decay, { method: 'euler', step: 0.15 });
    expect(r.warnings).toEqual([]);
    // (200 steps of factor -0.5: 6.2e-61, whatever the rounding of t's grid)
    expect(Math.abs(r.final.x)).toBeLessThan(1e-55);
  });

  // f of t alone, or a nilpotent Jacobian: Euler's errors grow at most like a polynomial, no
  // instability at any step. The differences of f are then no mode's: quadratic in t from 0
  // the estimate is 2h/(2t + h), 2 at the first step; t^5 gives 30, 5.8, 2.7, ...; x'''' = 24
  // from rest makes a chain whose differences reach a new state at every step.
  it.each([
    ["a parabola, h'' = -9.81", `independent t from 0 to 10\nh'' = -9.81\nh(0) = 0; h'(0) = 50`, 5],
    ["a linear f, x' = 2t + 1", `independent t from 0 to 100\nx' = 2*t + 1\nx(0) = 0`, 7],
    ["a cubic in t, x' = 3t^2", `independent t from 0 to 100\nx' = 3*t^2\nx(0) = 0`, 7],
    ["x' = t^5", `independent t from 0 to 100\nx' = t^5\nx(0) = 0`, 1],
    ["a cubic in t, x''' = 6", `independent t from 0 to 100\nx''' = 6\nx(0) = 0; x'(0) = 0; x''(0) = 0`, 5],
    [
      "a quartic, x'''' = 24",
      `independent t from 0 to 100\nx'''' = 24\nx(0) = 0; x'(0) = 0; x''(0) = 0; x'''(0) = 0`,
      5,
    ],
    [
      "kicks every 1 on x' = -x (the stepper restarts at each)",
      `independent t from 0 to 20\nevent kick every 1\nx' = -x + 10*delta(t - kick)\nx(0) = 1`,
      0.25,
    ],
  ] as const)('%s: no warning', (_, model, step) => {
    const r = simulate(model, { method: 'euler', step });
    expect(r.status).toBe('ok');
    expect(r.warnings).toEqual([]);
  });
});
