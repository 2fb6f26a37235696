/**
 * Shooting's diagnoses (round 8): what a singular Jacobian far from the first guess says.
 */
import { describe, expect, it } from 'vitest';
import { shoot } from '../src/index.js';
import { SPEC_EXAMPLES } from './helpers.js';

describe('a Jacobian singular only where the iteration went blames no condition', () => {
  // The heavy rope with l = 9, shorter than its span of 10: no H and p1 can satisfy z(10) = l.
  // The iteration drives H up (the rope straightens), where dy/dH and dz/dH vanish like 1/H^2;
  // at H = 137 the column of H was below the noise and the message said "no boundary condition
  // depends on H: shooting cannot determine it; make it a parameter", a false diagnosis of a
  // model whose z(10) = l plainly depends on H (at the first guess it did not show).
  it('says where, and that the conditions may have no solution there', () => {
    const r = shoot(SPEC_EXAMPLES.heavyRope.replace('l = 12', 'l = 9'));
    expect(r.converged).toBe(false);
    expect(r.message).toMatch(/\(iteration \d+\)/);
    expect(r.message).toMatch(/no solution near it/);
    expect(r.message).not.toMatch(/make it a parameter or add a condition that it affects/);
  });

  it('at the first guess it still says the model leaves an unknown free', () => {
    const free = shoot("independent t from 0 to 1\nunknown q = 1, v = 0\ny' = v\ny(0) = 0\ny(1) = 2\ny(0.5) = 1");
    expect(free.message).toMatch(/iteration 0: no boundary condition depends on q: shooting cannot determine it;/);
  });
});
