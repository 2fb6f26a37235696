/**
 * The Marcus rule (`option deltaRule = marcus`, issue 20 item 7): at an impulse the state
 * follows the flow dS/ds = rate(S) over a unit of pulse time, integrated with error control
 * to the run's tolerance (it was a fixed 256 steps of RK4: 2.2e55 for exp(-800)).
 *
 * Closed forms:
 * - y' = -r y delta(t - 1): the flow dy/ds = -r y gives y(1+) = exp(-r) y(1-);
 * - y' = y^2 delta(t - 1): dy/ds = y^2 gives y(1+) = y0/(1 - y0), which blows up at s = 1/y0
 *   for y0 >= 1 (no state after the impulse: the run fails and says so);
 * - x' = -w v delta(t - 1), v' = w x delta(t - 1): a rotation by the angle w.
 *
 * Bounds: the flow is integrated to a hundredth of the run's tolerance; the jump adds to the
 * state y = u + S of the u-plus-step form, whose rounding is a few ulps of u (1 here), so each
 * value is asked to be within 10 (atol + rtol |exact|) + 4 eps of its closed form.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const marcus = (equations: string) =>
  `independent t from 0 to 2\nparameter w = 2\noption deltaRule = marcus\n${equations}`;
const bound = (exact: number, rtol: number, atol: number) => 10 * (atol + rtol * Math.abs(exact)) + 4 * Number.EPSILON;
const TOLERANCES = [
  [1e-6, 1e-9],
  [1e-10, 1e-14],
] as const;

describe('the Marcus flow of an impulse, to the run tolerance', () => {
  it.each(TOLERANCES.flatMap(([rtol, atol]) => [5, 50, 800, 1e9].map((r) => [r, rtol, atol] as const)))(
    "y' = -%s y delta(t - 1): y(1+) = exp(-rate) (rtol %s, atol %s)",
    (rate, rtol, atol) => {
      const run = simulate(marcus(`y' = -${rate}*y*delta(t - 1)\ny(0) = 1`), { rtol, atol });
      expect(run.status).toBe('ok');
      const exact = Math.exp(-rate);
      expect(Math.abs(run.final.y - exact)).toBeLessThanOrEqual(bound(exact, rtol, atol));
    },
  );

  it.each(TOLERANCES.flatMap(([rtol, atol]) => [0.5, -3, 0.9].map((y0) => [y0, rtol, atol] as const)))(
    "y' = y^2 delta(t - 1) from y = %s: y(1+) = y0/(1 - y0) (rtol %s, atol %s)",
    (y0, rtol, atol) => {
      const run = simulate(marcus(`y' = y^2*delta(t - 1)\ny(0) = ${y0}`), { rtol, atol });
      expect(run.status).toBe('ok');
      const exact = y0 / (1 - y0);
      expect(Math.abs(run.final.y - exact)).toBeLessThanOrEqual(
        bound(exact, rtol, atol) * Math.max(1, Math.abs(exact)),
      );
    },
  );

  it.each(TOLERANCES)('a rotation by w = 2: (x, v) = (cos 2, sin 2) (rtol %s, atol %s)', (rtol, atol) => {
    const run = simulate(marcus("x' = -w*v*delta(t - 1)\nv' = w*x*delta(t - 1)\nx(0) = 1; v(0) = 0"), { rtol, atol });
    expect(run.status).toBe('ok');
    expect(Math.abs(run.final.x - Math.cos(2))).toBeLessThanOrEqual(bound(Math.cos(2), rtol, atol));
    expect(Math.abs(run.final.v - Math.sin(2))).toBeLessThanOrEqual(bound(Math.sin(2), rtol, atol));
  });

  it('a flow that blows up inside the pulse (dy/ds = y^2 from 2, at s = 1/2) fails at the impulse and says why', () => {
    const run = simulate(marcus("y' = y^2*delta(t - 1)\ny(0) = 2"));
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(
      /^the Marcus flow of event delta\(t - 1\) at t = 1 cannot be integrated \(.*pulse time s = 0\.(49|50)/,
    );
    expect(run.final.t).toBe(1);
    expect(run.final.y).toBe(2);
  });
});
