/**
 * Round 16, the command line and library layers:
 * 1. an unknown that sets an array's size is refused before any shot, saying so (it was
 *    refused inside the first Jacobian, advising to compile with N = 1.998);
 * 2. a run that fails on maxEvents is a self-consistent record: final = the last row = the
 *    post of the last listed event, whichever event of an instant passes the limit;
 * 3. ci95 uses the standard normal's 0.975 quantile rounded to the nearest double;
 * 4. a boundary condition at an interior instant reads the right limit (docs/language.md).
 */
import { describe, expect, it } from 'vitest';
import { compileModel, shoot, simulate } from '../src/index.js';
import { ShootInputError } from '../src/shooting/errors.js';
import { statistics, Z975 } from '../src/batch/statistics.js';
import { thrown } from './api-helpers.js';

describe('1. an unknown cannot set an array size', () => {
  const SHAPED = `model A
independent t from 0 to 1
unknown N = 2
parameter v[1:N] = 1
x' = v[1]
x(0) = 0
x(1) = 2`;
  it('an unknown used as a range is refused before any shot, naming it', () => {
    const m = thrown(ShootInputError, () => shoot(compileModel(SHAPED))).message;
    expect(m).toBe(
      "'N' sets the shape of A (an array's size or a range uses it), and an array size cannot be an unknown: shooting varies its unknowns continuously. Declare it a parameter and shoot once per value (--set N=...)",
    );
  });
  it('also through a parameter derived from it', () => {
    const derived = SHAPED.replace('parameter v[1:N]', 'parameter M = N + 1\nparameter v[1:M]');
    expect(thrown(ShootInputError, () => shoot(compileModel(derived))).message).toMatch(
      /^'N' sets the shape of A .* an array size cannot be an unknown/,
    );
  });
  it('simulate still takes the unknown at its guess as a parameter', () => {
    // x' = v[1] = 1, x(0) = 0: x(1) = 1 exactly (constant rate)
    const r = simulate(SHAPED);
    expect(r.status).toBe('ok');
    expect(r.final.x).toBe(1);
  });
});

describe('2. a run failed on maxEvents: final, last row and last event agree', () => {
  // Ticks a at 0.5, 1.5, ... set y := 1; b (y - 0.5 rises) fires in the same instant and sets
  // y := 0, c := c + 1. Two events per instant; the limit passed inside an instant fails the
  // run after that instant is complete, with the whole instant listed: after k instants, c = k,
  // y = 0, and 2k events.
  const IT = `model I
independent t from 0 to 10
discrete c = 0
event a every 1 from 0.5 do y := 1 end
event b when y - 0.5 rises do y := 0; c := c + 1 end
y' = 0
y(0) = 0`;
  for (const method of ['analytic', 'dopri5', 'rk4', 'rodas'] as const)
    for (const maxEvents of [1, 2, 3, 4])
      it(`${method}, maxEvents ${maxEvents}`, () => {
        const r = simulate(IT, { method, maxEvents });
        expect(r.status).toBe('failed');
        const instants = Math.floor(maxEvents / 2) + 1; // the first instant past the limit
        const t = instants - 0.5;
        expect(r.message).toBe(
          `more than ${maxEvents} events by t = ${t}; raise option maxEvents (--max-events) if that many are expected`,
        );
        expect(r.events.length).toBe(2 * instants);
        expect(r.stats.events).toBe(r.events.length);
        const last = r.events[r.events.length - 1];
        expect(last.post).toEqual(r.final);
        expect(r.rows[r.rows.length - 1]).toEqual([r.final.t, r.final.y, r.final.c]);
        expect(r.final).toEqual({ t, y: 0, c: instants });
      });
});

describe('3. ci95 uses the 0.975 quantile to the double', () => {
  it('Z975 is sqrt(2) erfinv(0.95) = 1.95996398454005423552... rounded to nearest', () => {
    // mpmath (40 digits): 1.959963984540054235524594430520551527956; neighbours of the
    // double 1.9599639845400543 are 2.2e-16 away, the error is 6.6e-17 (under half an ulp)
    expect(Z975).toBe(1.9599639845400543);
    expect(Math.abs(Z975 - 1.9599639845400542355)).toBeLessThan(2 ** -53);
  });
  it('1 and 2: half-width Z975 * sqrt(1/2) / sqrt(2) = 0.97998199227002712 (exact, to 1 ulp)', () => {
    const s = statistics([1, 2]);
    expect(Math.abs(s.ci95[1] - 1.5 - 0.9799819922700271178)).toBeLessThan(3e-16);
  });
});

describe('4. a boundary condition at an interior instant reads the right limit', () => {
  // y' = s + delta(t - 1), y(0) = 0: y(1-) = s, y(1+) = s + 1. y(1) = 1 reads y(1+): s = 0;
  // y(1) = 1.5 gives s = 0.5 (exact). Newton's residual is within shoot's tolerance (rtol
  // 1e-6 by default; the solves reach 1e-13 on this linear problem).
  for (const method of ['auto', 'dopri5', 'rk4', 'rodas'] as const)
    for (const end of ['2', '1'])
      it(`${method}, range [0, ${end}]`, () => {
        const model = (c: number) => `model D
independent t from 0 to ${end}
unknown s = 0.3
y' = s + delta(t - 1)
y(0) = 0
y(1) = ${c}`;
        const a = shoot(compileModel(model(1)), { method });
        expect(a.converged).toBe(true);
        expect(Math.abs(a.unknowns.s)).toBeLessThan(1e-9);
        const b = shoot(compileModel(model(1.5)), { method });
        expect(Math.abs(b.unknowns.s - 0.5)).toBeLessThan(1e-9);
      });
});
