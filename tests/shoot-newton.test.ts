/**
 * The parts of the shooting solver (src/shooting: residual, Jacobians, line search, driver):
 * the dense solve against exact answers, and the iteration pinned where it guards the cost
 * (shots per problem: the numbers of the single 218-line function this replaced).
 */
import { describe, expect, it } from 'vitest';
import { compileModel, shoot } from '../src/index.js';
import { factorCrout, solveCrout } from '../src/shooting/line-search.js';
import { exactRope, ropeModel } from './rope-exact.js';

describe('the dense LU of the Newton step', () => {
  it('solves a system that needs pivoting, exactly where the arithmetic is exact', () => {
    // A x = b with x = (1, -2, 3); the first pivot is zero, so a row swap is needed
    const A = Float64Array.from([0, 2, 1, 1, 1, 1, 2, 1, 0]);
    const b = Float64Array.from([-1, 2, 0]);
    const perm = new Int32Array(3);
    const x = new Float64Array(3);
    expect(factorCrout(A, 3, perm)).toBe(true);
    solveCrout(A, 3, perm, b, x);
    expect(Array.from(x)).toEqual([1, -2, 3]);
    expect(Array.from(b)).toEqual([-1, 2, 0]);
  });

  it('says when a pivot is exactly zero (proportional rows)', () => {
    expect(factorCrout(Float64Array.from([1, 1, 0.5, 0.5]), 2, new Int32Array(2))).toBe(false);
    expect(factorCrout(Float64Array.from([0, 0, 0, 1]), 2, new Int32Array(2))).toBe(false);
  });
});

describe('the Newton driver: shots and iterations as before the split', () => {
  const R1 = { w: 1, F: 5, a: 4, L: 10, y0: 8, yL: 8, S: 12 };
  const model = compileModel(ropeModel(R1, [-1, 5]), 'rope.delta');
  const exact = exactRope(R1, [-1, 5]);

  it.each([
    ['broyden', 18, 10, 3],
    ['central', 36, 7, 7],
  ] as const)('%s: %i shots, %i iterations, %i difference Jacobians', (jacobian, shots, iterations, jacobians) => {
    const r = shoot(model, { rtol: 1e-10, atol: 1e-12, jacobian });
    expect(r.converged).toBe(true);
    expect(r.residualEvaluations).toBe(shots);
    expect(r.iterations.length - 1).toBe(iterations);
    expect(r.jacobianEvaluations).toBe(jacobians);
    expect(Math.abs(r.unknowns.p1 - exact.p1)).toBeLessThan(1e-8);
    expect(Math.abs(r.unknowns.H - exact.H)).toBeLessThan(1e-8 * exact.H);
  });
});
