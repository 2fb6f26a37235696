/**
 * Long stiff ranges (round 9): problems of the Test Set and of Hairer and Wanner beyond those of
 * tests/fixtures/testset, on every method a user can pick, against their reference solutions.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

describe('NaN in the rejected trial steps of an explicit method is no end of the solution', () => {
  // Test Set problem CHEMAKZO (the chemical Akzo Nobel problem, an index-1 DAE: its algebraic
  // y6 = Ks y1 y4 is written as a named variable), on [0, 180]. Its reference at t = 180 is
  // PSIDE's at rtol = atol = 1e-19 (Cray C90, quadruple precision). dopri5 at rtol 1e-4 runs
  // at its stability border from t = 40 on: y2 (1.2e-3, under sqrt in r1 and r5) zigzags by
  // 1e-4, and each step the controller grows tenfold gives a stage with y2 < 0, NaN, and is
  // shrunk again (64 of 320 attempts), while the accepted steps keep a pace of 0.15. The step
  // guard took the rejections for "the right-hand side of y1' ... is NaN just after t = 120.3:
  // the solution cannot be continued there ...; check the model near this point" (found by
  // extrapolating the last slope up to 1e12 steps ahead). The solution continues: y2 stays
  // near 1.2e-3. At that pace the run finishes (351 steps), and within its tolerance.
  const model = `independent t from 0 to 180
parameter k1 = 18.7, k2 = 0.58, k3 = 0.09, k4 = 0.42, K = 34.4, klA = 3.3, Ks = 115.83, pCO2 = 0.9, H = 737
y6 = Ks*y1*y4
r1 = k1*y1^4*sqrt(y2)
r2 = k2*y3*y4
r3 = k2/K*y1*y5
r4 = k3*y1*y4^2
r5 = k4*y6^2*sqrt(y2)
Fin = klA*(pCO2/H - y2)
y1' = -2*r1 + r2 - r3 - r4
y2' = -0.5*r1 - r4 - 0.5*r5 + Fin
y3' = r1 - r2 + r3
y4' = -r2 + r3 - 2*r4
y5' = r2 - r3 + r5
y1(0) = 0.444; y2(0) = 0.00123; y3(0) = 0; y4(0) = 0.007; y5(0) = 0`;
  const ref: Record<string, number> = {
    y1: 0.1150794920661702,
    y2: 0.1203831471567715e-2,
    y3: 0.1611562887407974,
    y4: 0.3656156421249283e-3,
    y5: 0.1708010885264404e-1,
    y6: 0.4873531310307455e-2,
  };
  it.each([
    [1e-3, 1e-3],
    [1e-4, 1e-4],
    [1e-5, 1e-4],
  ])('dopri5 at rtol %s, atol %s: ok, the reference at t = 180', (rtol, atol) => {
    const r = simulate(model, { method: 'dopri5', rtol, atol, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    // Bar: 10 (atol + rtol |y|), a global error over 350 steps (measured: at most 4)
    for (const [k, v] of Object.entries(ref)) expect(Math.abs(r.final[k] - v), k).toBeLessThan(10 * (atol + rtol * v));
  });
});
