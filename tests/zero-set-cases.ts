/**
 * Shared by the tests of functions set onto their zero by an instant's actions
 * (round10-zerorate, round11-residue, round11-action-residue): the methods, the tolerance
 * settings, a variant with its exact answers, and the check of one run against them.
 */
import { expect } from 'vitest';
import { simulate, type MethodName, type SimulateOptions } from '../src/index.js';

export const ALL_METHODS: MethodName[] = ['auto', 'dopri5', 'dop853', 'rodas', 'radau5', 'rk4'];

export const FOUR_TOLERANCES = [
  { name: 'default', opts: {} },
  { name: 'tight', opts: { rtol: 1e-12, atol: 1e-12 } },
  { name: 'loose', opts: { rtol: 1e-4, atol: 1e-6 } },
  { name: 'medium', opts: { rtol: 1e-8, atol: 1e-10 } },
];

/** a model with its exact answers: the count n (an integer, exact) and x at the end */
export interface ZeroSetVariant {
  name: string;
  model: string;
  n: number;
  x: number;
}

/**
 * Runs v on `method` (events only) and checks status ok, n exactly and x within 1e-6: x is a
 * polynomial of degree 2 at most, or a decaying motion of size 1 over a range of 2 to 4, which
 * every method integrates to far better than 1e-6 at these tolerances, while any wrong branch
 * differs by the size of x.
 */
export function expectZeroSet(v: ZeroSetVariant, method: MethodName, opts: SimulateOptions = {}): void {
  const r = simulate(v.model, { method, eventsOnly: true, ...opts });
  expect(r.status, r.message ?? '').toBe('ok');
  expect(r.final.n).toBe(v.n);
  expect(Math.abs(r.final.x - v.x)).toBeLessThan(1e-6);
}
