/**
 * Round 11, models on extreme time scales: the same model with t scaled by s gives the same
 * events and values, each against its exact answer.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

describe('dop853 on a time scale of 1e-200: its error norm does not overflow', () => {
  // IDERKSolve's spring against a wall (MODEL-LANGUAGE.md) with t scaled by s: x' = y/s,
  // y' = -x/s on [0, 6 s]. Exact (a rotation between the events, by hand): walls at t/s =
  // pi/6 and 4.805945049266893, and x(6 s) = -0.46833844873710273, y = -0.7230035251881723.
  // With s = 1e-200 the stage rates are near 1e200 and DOP853's norm squares them unscaled
  // by h (1e212 over the tolerance): Infinity, every step rejected, and the run failed with
  // "the state overflowed within the step", false (x and y stay within 1).
  const text = (s: string) => `independent t from 0 to 6*${s}
discrete n = 0
event wall when x - 0.5 rises do y := -0.9*y; n := n + 1 end
x' = y/${s};  y' = -x/${s}
x(0) = 0; y(0) = 1`;
  it.each(['1', '1e-200'])('s = %s', (s) => {
    const r = simulate(text(s), { method: 'dop853', rtol: 1e-10, atol: 1e-12 });
    expect(r.status).toBe('ok');
    expect(r.final.n).toBe(2);
    expect(r.events[0].t / Number(s)).toBeCloseTo(Math.PI / 6, 9);
    expect(r.events[1].t / Number(s)).toBeCloseTo(4.805945049266893, 8);
    // rtol 1e-10 over a few turns: 1e-8 is ample
    expect(Math.abs(r.final.x + 0.46833844873710273)).toBeLessThan(1e-8);
    expect(Math.abs(r.final.y + 0.7230035251881723)).toBeLessThan(1e-8);
  });
});
