/**
 * Round 18: the Newton shooting solver on sensitive and nonlinear boundary value problems.
 * Reference values from closed forms, checked with mpmath at 30 digits (script not committed).
 */
import { describe, expect, it } from 'vitest';
import { compileModel, shoot } from '../src/index.js';

// Troesch's problem y'' = mu sinh(mu y), y(0) = 0, y(1) = 1. Its solution is
// y = (2/mu) asinh((s/2) sc(mu x | m)), m = 1 - s^2/4, so s = y'(0) solves
// (s/2) sc(mu | 1 - s^2/4) = sinh(mu/2); mpmath (ellipfun, findroot on [0.04, 0.05]):
// mu = 5: s = 0.045750461406318740099277325334, y(0.9) = 0.455060027298934776278595856528.
const troesch = (mu: number, guess: number) => `independent x from 0 to 1
parameter mu = ${mu}
unknown s = ${guess}
y'' = mu*sinh(mu*y)
y(0) = 0; y'(0) = s
y(1) = 1
`;
const TROESCH5 = 0.04575046140631874;

describe("Troesch's problem, mu = 5, at the default tolerances", () => {
  // From s = 0.01 the iteration reached s = 0.0457508880 with y(1) - 1 = 2.29e-5 (after
  // 3.95e-4: Newton still gaining a factor 17 per step) and ended `stalled`, "the steps have
  // shrunk to 7.0e-6 ... may have no solution near s = 0.04575": a false failure, on every
  // method. The test took a step below 10 rtol (1 + |u|) for the noise floor, which it is not
  // where |dR/ds| is large (about 53 here): the step's size says nothing about the residual's.
  it.each(['auto', 'dopri5', 'rodas', 'radau5'])('converges from s = 0.01 (%s)', (method) => {
    const r = shoot(compileModel(troesch(5, 0.01), 'troesch.delta'), { method } as never);
    expect(r.status).toBe('converged');
    // |y(1) - 1| <= 1e-6 + 1e-8 (the residual's tolerance) plus the integration's error in
    // y(1) (order rtol = 1e-6), over dR/ds ~ 53: s within 1e-7 of the exact value, 5e-7 allowed
    expect(Math.abs(r.unknowns.s - TROESCH5)).toBeLessThan(5e-7);
  });
});

// y'' = k^2 y, y(0) = 1, y(1) = 0: y = sinh(k (1 - x))/sinh(k), y'(0) = -k coth(k). The
// shooting residual y(1; s) = cosh(k) + (s/k) sinh(k) has dR/ds = sinh(k)/k, 2.9e15 at k = 40:
// one rounding unit of s (7.1e-15 at s = -40) moves y(1) by 20, and each of the two terms
// cosh(40) ~ 1.2e17 carries a rounding error of 16. The residual cannot be resolved to any
// tolerance below that; what shooting returns there is a rounding accident.
const sensitive = (k: number, guess: number) => `independent x from 0 to 1
parameter k = ${k}
unknown s = ${guess}
y'' = k^2*y
y(0) = 1; y'(0) = s
y(1) = 0
`;

describe('a boundary value problem beyond what double precision resolves by single shooting', () => {
  // The analytic path (auto) gave status converged with y(1) = 0 "exactly" at s =
  // -39.99999999999999 (one ulp above -40), but the exact solution of the initial value
  // problem from that s has y(1) = 7.1e-15 sinh(40)/40 = 20.8, and its rows have y(0.875) =
  // 0.125 where the boundary value problem's is sinh(5)/sinh(40) = 6.3e-16 (k = 30: y(0.875)
  // off by 1.5e-5 at rtol 1e-6). Converged must mean the conditions hold to their tolerance;
  // here no double s makes that checkable, and the result must say so.
  it.each([
    [40, 'auto'],
    [30, 'auto'],
    [40, 'dopri5'],
    [20, 'auto', 1e-10],
  ] as const)('k = %i, %s: either right or refused naming the conditioning', (k, method, rtol = 1e-6) => {
    const r = shoot(compileModel(sensitive(k, -k / 2), 'sens.delta'), {
      method,
      rtol,
      atol: rtol * 1e-3,
      outputStep: 0.125,
    } as never);
    const sol = r.solution!;
    const iy = sol.columns.indexOf('y');
    let worst = 0;
    for (const row of sol.rows) worst = Math.max(worst, Math.abs(row[iy] - Math.sinh(k * (1 - row[0])) / Math.sinh(k)));
    if (r.converged) {
      // a converged answer is the solution to its tolerance (10 rtol, on the scale 1 of y(0))
      expect(worst).toBeLessThan(10 * rtol);
    } else {
      expect(r.message).toMatch(/one rounding unit of s/);
      expect(r.message).toMatch(/ill-conditioned/);
    }
    // (none of them is: the conditioning is beyond it)
    expect(r.converged).toBe(false);
  });

  it('k = 10 and k = 20 at rtol 1e-6 stay converged, and right', () => {
    for (const k of [10, 20]) {
      const r = shoot(compileModel(sensitive(k, -k / 2), 'sens.delta'), { outputStep: 0.125 } as never);
      expect(r.status).toBe('converged');
      // y'(0) = -k coth(k); |dR/ds| = sinh(k)/k, so the residual's tolerance 1e-6 leaves s
      // within 1e-6 k / sinh(k) plus the integration's error: 1e-9 relative is ample
      expect(Math.abs(r.unknowns.s + k / Math.tanh(k))).toBeLessThan(1e-9 * k);
    }
  });
});

describe('a point load whose position is the unknown', () => {
  // y'' = F delta(x - a), y(0) = y'(0) = 0 on [0, 10]: y(10) = F (10 - a) for 0 <= a <= 10 (a
  // delta at either end counts), so y(10) = 3 with F = 2 gives a = 8.5, exactly.
  const model = (guess: number) => `independent x from 0 to 10
parameter F = 2
unknown a = ${guess}
y'' = F*delta(x - a)
y(0) = 0; y'(0) = 0
y(10) = 3
`;
  // From a = 10 the forward difference moved the load past the end of the range (no delta,
  // y(10) = 0, as at a = 10 itself): the Jacobian came out exactly zero and the result was
  // `singular`, "no boundary condition depends on any of the unknowns a", which is false.
  it.each(['auto', 'dopri5', 'rk4'])('from a guess at the end of the range (%s)', (method) => {
    const r = shoot(compileModel(model(10), 'load.delta'), { method, rtol: 1e-10, atol: 1e-12 } as never);
    expect(r.status).toBe('converged');
    // linear in a: Newton lands on it to rounding (y(10) is a sum of a few terms of size 10)
    expect(Math.abs(r.unknowns.a - 8.5)).toBeLessThan(1e-12);
  });

  it('an unknown nothing depends on is still named (both sides see no change)', () => {
    const r = shoot(
      compileModel(
        `independent x from 0 to 1\nunknown q = 1, v = 0\ny' = v\ny(0) = 0\ny(1) = 2\ny(0.5) = 1`,
        'free.delta',
      ),
    );
    expect(r.status).toBe('singular');
    expect(r.message).toMatch(/no boundary condition depends on q/);
  });
});
