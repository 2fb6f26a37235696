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

describe("Troesch's problem with central differences (--jacobian central)", () => {
  // At s = 0.0472 the central step cbrt(1e-6) max(1, |s|) = 0.01 reached s = 0.057, whose
  // solution blows up before x = 1 (at about ln(8/s)/mu): "a simulation near the iterate
  // failed while forming the Jacobian", status failed, though the iterate ran and the solution
  // (s = 0.045750461406) is 0.0015 away.
  it.each(['auto', 'rodas'])('converges from s = 0.01 (%s)', (method) => {
    const r = shoot(compileModel(troesch(5, 0.01), 'troesch.delta'), { method, jacobian: 'central' } as never);
    expect(r.status).toBe('converged');
    // as with Broyden above: within 1e-7 by the tolerance over dR/ds ~ 53, 5e-7 allowed
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
    [40, 'auto', 1e-6],
    [30, 'auto', 1e-6],
    [40, 'dopri5', 1e-6],
    [20, 'auto', 1e-10],
  ])('k = %i, %s, rtol %s: either right or refused naming the conditioning', (k, method, rtol) => {
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

describe('a stall at the integration error the conditions amplify says the solution is there', () => {
  // k = 22, dop853, rtol 1e-7: dR/ds = sinh(22)/22 = 8.1e7, so dop853's error in y(1) (about
  // rtol e^22 in the growing mode) leaves y(1) = -1.45e-7, above its tolerance 1e-7, at s within
  // an ulp of -22 coth 22 = -22.000000000000000000 (to 18 digits). The message said "may have
  // no solution near s = -22"; with the integration refined the conditions are met there.
  it('dop853, k = 22, rtol 1e-7', () => {
    const r = shoot(compileModel(sensitive(22, -11), 'sens.delta'), {
      method: 'dop853',
      rtol: 1e-7,
      atol: 1e-10,
    } as never);
    if (r.converged) expect(Math.abs(r.unknowns.s + 22)).toBeLessThan(1e-9);
    else {
      expect(r.message).not.toMatch(/may have no solution/);
      expect(r.message).toMatch(/ill-conditioned|the conditions are met at s = -22\.0000000000/);
    }
  });
});

describe('what works: nonlinear problems, eigenvalues, loads (exact answers)', () => {
  // Bratu y'' = -exp(y), y(0) = y(1) = 0: y = -2 ln(cosh((x - 1/2) t/2)/cosh(t/4)) with
  // t = sqrt(2) cosh(t/4), two roots t = 1.51716459905075 and 10.9387027721221; y'(0) = t tanh(t/4)
  // = 0.549352728775270819 and 10.8468990193894524 (mpmath, 30 digits). Each guess finds the
  // solution on its side; |dR/ds| is O(1) at the lower and O(1e-2) at the upper, so at rtol
  // 1e-10 the residual's tolerance 1e-10 leaves s within about 1e-8.
  it.each([
    [0.5, 0.549352728775270819],
    [3, 0.549352728775270819],
    [8, 10.8468990193894524],
    [20, 10.8468990193894524],
  ])("Bratu from s = %s: y'(0) = %s", (guess, exact) => {
    const r = shoot(
      compileModel(
        `independent x from 0 to 1\nunknown s = ${guess}\ny'' = -exp(y)\ny(0) = 0; y'(0) = s\ny(1) = 0\n`,
        'bratu.delta',
      ),
      { rtol: 1e-10, atol: 1e-12 },
    );
    expect(r.status).toBe('converged');
    expect(Math.abs(r.unknowns.s - exact)).toBeLessThan(1e-8);
  });

  // y'' + lam y = 0, y(0) = 0, y'(0) = 1, y(pi) = 0: lam = n^2 (y = sin(n x)/n); dR/dlam at
  // lam = n^2 is pi cos(n pi)/(2 n^2), so the tolerance 1e-10 leaves lam within about 1e-9 n^2.
  it.each([
    [0.8, 1],
    [3.5, 4],
    [8.5, 9],
  ])('eigenvalue from lam = %s: %s, on the analytic path and on dopri5', (guess, exact) => {
    for (const method of ['auto', 'dopri5']) {
      const r = shoot(
        compileModel(
          `independent x from 0 to pi\nunknown lam = ${guess}\ny'' + lam*y = 0\ny(0) = 0; y'(0) = 1\ny(pi) = 0\n`,
          'eig.delta',
        ),
        { method, rtol: 1e-10, atol: 1e-12 } as never,
      );
      expect(r.status).toBe('converged');
      expect(Math.abs(r.unknowns.lam - exact)).toBeLessThan(1e-9 * exact);
    }
  });

  // The heavy rope (w = 1, span 10, supports at 8, length 12) with point loads: catenary pieces
  // whose slope jumps by F/H at each load; p1 = y'(0) and H by mpmath findroot at 30 digits.
  // A load at x = 0 counts fully (y'(0) = p1 is before it: p1 = p1(no load) - F/H), one at x = 10
  // does not move y or z (only y'(10)): the no-load values.
  const rope = (loads: [number, number][]) => `independent x from 0 to 10
parameter w = 1, l = 12
unknown p1 = -1, H = 5
y'' = w/H*sqrt(1 + y'^2)${loads.map(([a, F]) => ` + ${F}/H*delta(x - ${a})`).join('')}
z' = sqrt(1 + y'^2)
y(0) = 8; y'(0) = p1; z(0) = 0
y(10) = 8; z(10) = l
`;
  it.each([
    [
      'two loads',
      [
        [3, 5],
        [7, 3],
      ],
      -1.1406255959295769737,
      9.1703222012217644257,
    ],
    [
      'three loads',
      [
        [2, 1],
        [5, 2],
        [8, 1.5],
      ],
      -1.145886555004940611,
      7.05205389125480598,
    ],
    ['a load at x = 0', [[0, 5]], -2.3427108057993441943, 4.6954152312652807759],
    ['a load at x = 10', [[10, 5]], -1.2778422577087331969, 4.6954152312652807759],
  ] as [string, [number, number][], number, number][])('%s', (_name, loads, p1, H) => {
    for (const method of ['auto', 'rk4', 'radau5']) {
      const r = shoot(compileModel(rope(loads), 'rope.delta'), { method, rtol: 1e-10, atol: 1e-12 } as never);
      expect(r.status).toBe('converged');
      // integration error at rtol 1e-10 through a Jacobian of order 1: 1e-9 is ample (seen: 3e-10)
      expect(Math.abs(r.unknowns.p1 - p1)).toBeLessThan(1e-9);
      expect(Math.abs(r.unknowns.H - H)).toBeLessThan(1e-9 * H);
    }
  });

  // y'' = w + F delta(x - a), y(0) = 0, y'(0) = p, y(10) = 0: y(10) = 10 p + 50 + F (10 - a) for
  // 0 <= a <= 10, p = -(50 + 2 (10 - a))/10 with F = 2: the same on the analytic path and a
  // stepper, the ends included (a = 0: -7, a = 10: -5), the position set per run.
  it('a load whose position is set per run, ends included', () => {
    const model = compileModel(
      `independent x from 0 to 10\nparameter w = 1, F = 2, a = 0\nunknown p = -1\ny'' = w + F*delta(x - a)\ny(0) = 0; y'(0) = p\ny(10) = 0\n`,
      'load.delta',
    );
    for (const method of ['auto', 'dopri5'])
      for (const a of [0, 1e-12, 2.5, 10 - 1e-12, 10]) {
        const r = shoot(model, { method, rtol: 1e-10, atol: 1e-12, set: { a } } as never);
        expect(r.status).toBe('converged');
        // polynomial pieces: exact to a few roundings of terms of size 50
        expect(Math.abs(r.unknowns.p + (50 + 2 * (10 - a)) / 10)).toBeLessThan(1e-13);
      }
  });
});
