/**
 * Round 14, the explicit methods' stiffness test (Hairer's, integrators/stiffness-test.ts): a
 * step whose error is far inside the tolerance is held by nothing, and its h·|λ| above the
 * stability border is no sign of stiffness.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

describe('an elastic ball: steps of a whole flight are no stiffness', () => {
  // h'' = -9.81 from 10, v := -v at each bounce: every stage integrates a parabola exactly, the
  // error estimate is rounding, and the steps grow to a whole flight (2.86). On the nilpotent
  // Jacobian [[0, 1], [0, 0]] the test's h·‖Δf‖/‖Δy‖ is up to h, above dopri5's border 3.25
  // and near dop853's 6.1: dopri5 warned that 3485 bounces "fired where dopri5 was held at the
  // border of its stability region". Exact: 350 bounces on [0, 1000], at t1 (2k + 1), t1 =
  // sqrt(20/9.81) = 1.4278431229270645 (k = 0..349; the 351st would be at 1003.77).
  const model = `independent t from 0 to 1000
discrete nb = 0
event bounce when h falls do v := -v; nb := nb + 1 end
h' = v
v' = -9.81
h(0) = 10; v(0) = 0`;
  const t1 = Math.sqrt(20 / 9.81);
  it.each(['dopri5', 'dop853'] as const)('%s at rtol 1e-10: no stability warning, 350 bounces', (method) => {
    const r = simulate(model, { method, rtol: 1e-10, atol: 1e-14, eventsOnly: true });
    expect(r.status).toBe('ok');
    expect(r.warnings ?? []).toEqual([]);
    expect(r.final.nb).toBe(350);
    // (the bounce times drift by rounding only, 350 flights of it: far below 1e-8)
    expect(Math.abs(r.events[349].t - 699 * t1)).toBeLessThan(1e-8);
  });
});
