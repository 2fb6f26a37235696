/**
 * Round 16, zeno and fixed steps (the twelfth session):
 * 1. continuing a ball's zeno run on dopri5: an impact's rate after its instant is its own
 *    action's image of the rate it arrived with, not a residue within the rate's band
 *    (driver/arming.ts, ownRateBand);
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
