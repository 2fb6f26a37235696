/**
 * Bounds on shooting's unknowns (lower/upper, --lower/--upper): y' = v^2, y(0) = 0, y(1) = 4
 * has two solutions, v = 2 and v = -2. From v = -0.1 the first Newton step goes to -20.05 and
 * the line search accepts -2.59 (half-steps); within [-2.5, 0] every iterate
 * stays in the box and the iteration finds -2 (from 0.1 within [0.05, 2.5], 2). A
 * solution outside the box is not found: the iteration stalls at the bound and says which.
 */
import { describe, expect, it } from 'vitest';
import { shoot, ShootInputError } from '../src/index.js';
import { tempModel } from './api-helpers.js';
import { ensureCliBuilt, runCli } from './helpers.js';

const SQUARE = `model Square
independent t from 0 to 1
unknown v = -0.1
option rtol = 1e-10
option atol = 1e-12
y' = v*v
y(0) = 0
y(1) = 4`;

// the residual y(1) - 4 = v^2 - 4 is within 10 atol + 4 rtol; |dR/dv| = 4 near the root
const V_TOL = (10 * 1e-12 + 4 * 1e-10) / 4;

describe('bounds on the unknowns of shoot', () => {
  it('keeps every iterate within the bounds and finds the solution inside them', () => {
    const free = shoot(SQUARE);
    // (unbounded, the first accepted step leaves [-2.5, 0])
    expect(Math.min(...free.iterations.map((it) => it.unknowns.v))).toBeLessThan(-2.5);
    for (const [lower, upper, root] of [
      [{ v: -2.5 }, { v: 0 }, -2],
      [{ v: 0.05 }, { v: 2.5 }, 2],
    ] as const) {
      const guess = root > 0 ? 0.1 : -0.1;
      const r = shoot(SQUARE, { set: { v: guess }, lower, upper });
      expect(r.status, r.message ?? '').toBe('converged');
      expect(Math.abs(r.unknowns.v - root)).toBeLessThan(V_TOL);
      for (const it of r.iterations) {
        expect(it.unknowns.v).toBeGreaterThanOrEqual(lower.v);
        expect(it.unknowns.v).toBeLessThanOrEqual(upper.v);
      }
    }
  });

  it('stalls at a bound that keeps the solution out, naming it', () => {
    const r = shoot(SQUARE, { set: { v: 0.5 }, upper: { v: 1 } });
    expect(r.converged).toBe(false);
    expect(r.status).toBe('stalled');
    expect(r.unknowns.v).toBe(1);
    expect(r.message).toContain('the upper bound of v');
  });

  it('refuses a guess outside its bounds, a name that is no unknown, and an empty box', () => {
    expect(() => shoot(SQUARE, { lower: { v: 0 } })).toThrow(
      /first guess v = -0.1 is outside its bounds \[0, Infinity\]/,
    );
    expect(() => shoot(SQUARE, { upper: { w: 1 } })).toThrow(ShootInputError);
    expect(() => shoot(SQUARE, { upper: { w: 1 } })).toThrow(/w is not an unknown of the model/);
    expect(() => shoot(SQUARE, { lower: { v: -1 }, upper: { v: -1 } })).toThrow(/lower -1 is not below upper -1/);
    expect(() => shoot(SQUARE, { lower: 3 as never })).toThrow(/lower/);
  });

  it('--lower and --upper on the command line', () => {
    ensureCliBuilt();
    const file = tempModel('square.delta', SQUARE);
    const r = runCli(['shoot', file, '--lower', 'v=-3', '--upper', 'v=0', '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { converged: boolean; unknowns: { v: number } };
    expect(doc.converged).toBe(true);
    expect(Math.abs(doc.unknowns.v + 2)).toBeLessThan(V_TOL);
    const outside = runCli(['shoot', file, '--lower', 'v=0']);
    expect(outside.status).toBe(1);
    expect(outside.stderr).toContain('outside its bounds');
  });
});
