/**
 * Round 15, a fixed step beyond its method's stability region (driver/fixed-step-stability.ts):
 * the step is taken as the user gives it, and the result says that its numbers need not be
 * near the solution.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

describe('rk4 with a step beyond its stability region says so', () => {
  // x'' = -4x from x = 1 at rest: x = cos 2t (|λ| = 2). RK4 is stable for h·|λ| up to 2.83 on
  // the imaginary axis: a step of 100 (h·|λ| = 200) multiplies the error by about
  // 200^4/24 = 6.7e7 a step, and gave x of order 1e7 with status ok and no word.
  const model = `independent t from 0 to 300
x'' = -4*x
x(0) = 1; x'(0) = 0`;
  it('step 100: the numbers are far from cos 2t, and a warning names the step and the border', () => {
    const r = simulate(model, { method: 'rk4', step: 100 });
    expect(r.status).toBe('ok');
    expect(Math.abs(r.final.x - Math.cos(600))).toBeGreaterThan(1);
    expect(r.warnings).toHaveLength(1);
    // (Hairer's estimate h‖J d‖/‖d‖ lies between h·1 and h·4 for J = [[0, 1], [-4, 0]]; here
    // 400, so the step it suggests, 2.78·100/400, is on the safe side of the 1.41 that holds)
    expect(r.warnings[0]).toMatch(/^rk4's fixed step was beyond its stability region on 3 steps: h·\|λ\| up to 400,/);
    expect(r.warnings[0]).toMatch(/Take a smaller step \(below 0\.7 here\)/);
  });

  it('the default step (0.3, h·|λ| = 0.6) is inside the region: no warning, the amplitude RK4 gives', () => {
    const r = simulate(model, { method: 'rk4' });
    expect(r.warnings).toEqual([]);
    // The step map is R(hJ), and on J's eigenvalues ±2i the amplitude sqrt(x² + (x'/2)²)
    // shrinks by |R(0.6i)| a step, R(z) = 1 + z + z²/2 + z³/6 + z⁴/24: after 1000 steps
    // |R(0.6i)|^1000 = 0.733 (stable, and far from the 1 of cos 2t: RK4's error at this step)
    const y = 0.6,
      re = 1 - y ** 2 / 2 + y ** 4 / 24,
      im = y - y ** 3 / 6;
    const amplitude = Math.hypot(re, im) ** 1000;
    expect(Math.abs(Math.hypot(r.final.x, r.final["x'"] / 2) / amplitude - 1)).toBeLessThan(1e-9);
  });

  it('a parabola at any step is integrated exactly and is no instability (a nilpotent Jacobian)', () => {
    // (h'' = -9.81: RK4 is exact on it; Hairer's estimate is 0, the stages agree in v)
    const r = simulate(`independent t from 0 to 10\nh'' = -9.81\nh(0) = 0; h'(0) = 50`, { method: 'rk4', step: 5 });
    expect(r.warnings).toEqual([]);
    expect(Math.abs(r.final.h - (500 - 490.5))).toBeLessThan(1e-12);
  });
});
