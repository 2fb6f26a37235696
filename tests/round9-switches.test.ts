/**
 * Relations that never switch along a motion: a relation of parameters (constant in a run) or
 * of discrete variables (changed only at events) was listed as a switching function, so a
 * model whose every part has a closed form was integrated numerically, `transform` printed a
 * closed form and then "integrates numerically", and `--method analytic` refused it with a
 * false reason ("the right-hand side switches (a > b)"). Each case against its exact answer,
 * on every path, with the relation flipped between runs of one compiled model (a sweep).
 */
import { describe, expect, it } from 'vitest';
import { compileModel, simulate } from '../src/index.js';
import { transformReport } from '../src/report/print.js';

const METHODS = ['auto', 'analytic', 'dopri5', 'rodas', 'rk4'] as const;
/** the solutions below are polynomials of degree 1 (exp for the linear one): the steppers
 * integrate a constant rate to a few ulps per step, far inside 1e-12 */
const TOL = 1e-12;

describe('a relation of parameters is no switching function', () => {
  const text = "independent t from 0 to 2\nparameter a = 1, b = 2\nx' = if a > b then 1 else 3\nx(0) = 0";

  it('transform lists no switch and says analytic; simulate takes it', () => {
    const compiled = compileModel(text);
    const r = transformReport(compiled);
    expect(r.switching).toEqual([]);
    expect(r.analyticPath?.closedForm).toBe(true);
    expect(simulate(compiled).stats.method).toBe('analytic');
  });

  it('x(2) = 6 for a = 1 and 2 for a = 3, a = 2 (not a > b) 6, on one compiled model', () => {
    const compiled = compileModel(text);
    for (const method of METHODS)
      for (const [a, x] of [
        [1, 6],
        [3, 2],
        [2, 6],
        [1, 6],
      ]) {
        const r = simulate(compiled, { method, set: { a } });
        expect(r.status).toBe('ok');
        expect(Math.abs(r.final.x - x), `${method} a = ${a}`).toBeLessThan(TOL);
      }
  });

  it('at equality each primitive takes its own side: 1 + step(0) + sign(0) + [a <= b] per unit of t', () => {
    const eq =
      "independent t from 0 to 2\nparameter a = 2, b = 2\nx' = (if a >= b then 1 else 3) + step(a - b) + sign(a - b) + (if a > b then 100 else 0) + (if a <= b then 10 else 0) + (if a < b then 1000 else 0)\nx(0) = 0";
    expect(transformReport(compileModel(eq)).switching).toEqual([]);
    for (const method of METHODS) {
      const r = simulate(eq, { method });
      expect(r.status).toBe('ok');
      expect(Math.abs(r.final.x - 24), method).toBeLessThan(TOL);
    }
  });

  it('a linear block with a coefficient chosen by parameters: x(2) = exp(-4) or exp(-2)', () => {
    const lin = "independent t from 0 to 2\nparameter a = 1, b = 2\nx' = if a > b then -x else -2*x\nx(0) = 1";
    const compiled = compileModel(lin);
    expect(simulate(compiled).stats.method).toBe('analytic');
    for (const [a, x] of [
      [1, Math.exp(-4)],
      [3, Math.exp(-2)],
    ]) {
      // (the analytic path: exp(A h) to rounding; the steppers at the default tolerances)
      expect(Math.abs(simulate(compiled, { set: { a } }).final.x - x) / x).toBeLessThan(1e-13);
      expect(Math.abs(simulate(compiled, { set: { a }, method: 'dopri5' }).final.x - x) / x).toBeLessThan(1e-5);
    }
  });
});

describe('a relation of discrete variables changes only at events', () => {
  it('k = if n >= 1 then 10 else 1 through a situation, and z with n > 0: n set when y reaches 1', () => {
    // y = t; at t = 1, n := 1; x = t before, 1 + 10 (t - 1) after: x(3) = 21; z = 2 (t - 1): z(3) = 4
    const text =
      "independent t from 0 to 3\ndiscrete n = 0\nsituation on = n >= 1\nk = if on then 10 else 1\nevent e when y - 1 rises do n := n + 1 end\ny' = 1\nx' = k\nz' = if n > 0 then 2 else 0\ny(0) = 0; x(0) = 0; z(0) = 0";
    const compiled = compileModel(text);
    expect(transformReport(compiled).switching).toEqual([]);
    expect(simulate(compiled).stats.method).toBe('analytic');
    for (const method of METHODS) {
      const r = simulate(compiled, { method });
      expect(r.status).toBe('ok');
      expect(r.events.map((e) => e.name)).toEqual(['e']);
      expect(Math.abs(r.events[0].t - 1), method).toBeLessThan(TOL);
      expect(Math.abs(r.final.x - 21), method).toBeLessThan(TOL * 21);
      expect(Math.abs(r.final.z - 4), method).toBeLessThan(TOL);
      expect(r.final.k).toBe(10);
    }
  });

  it('a linear block whose coefficient an event switches through n: x(2) = exp(-(2 - ln 2 / 2))/2', () => {
    // x = exp(-2t) until x = 1/2 at t1 = ln 2 / 2, where n := 1; then x = exp(-(t - t1))/2,
    // at 0.3 when t2 = t1 + ln(5/3)
    const text =
      "independent t from 0 to 2\ndiscrete n = 0, m = 0\nevent e when x - 0.5 falls do n := 1 end\nevent g when x - 0.3 falls do m := m + 1 end\nx' = if n > 0 then -x else -2*x\nx(0) = 1";
    const t1 = Math.log(2) / 2,
      x = Math.exp(-(2 - t1)) / 2;
    const r = simulate(text);
    expect(r.stats.method).toBe('analytic');
    // (closed forms: exp(A h) and its roots to a few ulps)
    expect(Math.abs(r.final.x - x)).toBeLessThan(1e-15);
    expect(Math.abs(r.events[0].t - t1)).toBeLessThan(1e-14);
    expect(Math.abs(r.events[1].t - t1 - Math.log(5 / 3))).toBeLessThan(1e-14);
    // (dopri5 at the default rtol 1e-6: within 1e-6 of each)
    const s = simulate(text, { method: 'dopri5' });
    expect(Math.abs(s.final.x - x)).toBeLessThan(1e-6);
    expect(Math.abs(s.events[1].t - t1 - Math.log(5 / 3))).toBeLessThan(1e-6);
  });

  it('a relation of t or of a state still switches (the stepper stops there)', () => {
    const r = transformReport(
      compileModel("independent t from 0 to 2\nparameter a = 1\nx' = if t > a then 1 else 0\nx(0) = 0"),
    );
    expect(r.switching).toEqual(['t > a']);
    expect(r.analyticPath?.closedForm).toBe(false);
    const mixed = transformReport(
      compileModel("independent t from 0 to 2\ndiscrete n = 1\nx' = if n > 0 and x < 1 then 1 else 3\nx(0) = 0"),
    );
    expect(mixed.switching).toEqual(['x < 1']);
  });
});

describe('transform and simulate agree on the path where a relation of parameters stands elsewhere', () => {
  const cases: [string, string, number, number][] = [
    // event function: crosses at x = 2 (a = 1) or x = 1 (a = 3); x(3) = 3 and one event either way
    [
      'event function',
      "independent t from 0 to 3\nparameter a = 1, b = 2\ndiscrete n = 0\nevent e when (if a > b then x - 1 else x - 2) rises do n := n + 1 end\nx' = 1\nx(0) = 0",
      3,
      3,
    ],
    // delta weight: x(2) = 2 + 5 (a = 1) or 2 + 2 (a = 3)
    [
      "delta's weight",
      "independent t from 0 to 2\nparameter a = 1, b = 2\nx' = 1 + (if a > b then 2 else 5)*delta(t - 1)\nx(0) = 0",
      7,
      4,
    ],
    // while on a situation of parameters: x' = 1 only while a > b
    [
      'while situation',
      "independent t from 0 to 2\nparameter a = 1, b = 2\nsituation s = a > b\nx' = 1 while s\nx(0) = 0",
      0,
      2,
    ],
  ];
  for (const [what, text, x1, x3] of cases)
    it(`${what}: analytic in both, x exact for a = 1 and a = 3`, () => {
      const compiled = compileModel(text);
      expect(transformReport(compiled).analyticPath?.closedForm).toBe(true);
      for (const method of METHODS)
        for (const [a, x] of [
          [1, x1],
          [3, x3],
        ]) {
          const r = simulate(compiled, { method, set: { a } });
          expect(r.status).toBe('ok');
          if (method === 'auto') expect(r.stats.method).toBe('analytic');
          expect(Math.abs(r.final.x - x), `${what} ${method} a = ${a}`).toBeLessThan(TOL);
        }
    });
});
