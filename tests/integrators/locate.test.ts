import { describe, expect, it } from 'vitest';
import { locateCrossing, type Bracket, type ScanFunction } from '../../src/integrators/locate.js';

/** f with its exact slope (or none), counting evaluations */
function counted(
  value: (s: number) => number,
  slope: ((s: number) => number) | null,
  resolution = 0,
): ScanFunction & { calls: number } {
  let last = NaN;
  const f = {
    calls: 0,
    resolution,
    value(s: number) {
      f.calls++;
      last = s;
      return value(s);
    },
    slope() {
      return slope ? slope(last) : NaN;
    },
  };
  return f;
}

/** the bracket is collapsed to neighbouring doubles around the root, with the signs in order */
function expectCollapsed(out: Bracket, f: (s: number) => number, root: number, signBefore: number) {
  expect(Math.abs(out.right - out.left)).toBeLessThanOrEqual(
    2 * Number.EPSILON * Math.max(Math.abs(out.left), Math.abs(out.right)),
  );
  expect(Math.sign(f(out.left))).toBe(signBefore);
  const after = f(out.right);
  expect(after === 0 || Math.sign(after) === -signBefore).toBe(true);
  // the root lies within a couple of ulps of the bracket
  expect(Math.abs(out.right - root)).toBeLessThanOrEqual(4 * Number.EPSILON * Math.abs(root));
}

describe('locateCrossing', () => {
  // A ball's flight after a restart whose step overshot the bounce by far (the case of the
  // Zeno benchmark): h(s) = v0 s - g s^2 / 2 on [apex, 1e5 flights].
  const g = 9.81,
    v0 = 2e-5,
    flight = (2 * v0) / g;
  const h = (s: number) => v0 * s - 0.5 * g * s * s;
  const dh = (s: number) => v0 - g * s;
  const apex = v0 / g;

  it('lands on the root of a quadratic in a handful of evaluations with slopes (Hermite step)', () => {
    const f = counted(h, dh);
    const b = 1e5 * flight;
    const out = locateCrossing(f, apex, h(apex), b, h(b), { left: 0, right: 0 }, dh(apex), dh(b));
    expectCollapsed(out, h, flight, 1);
    expect(f.calls).toBeLessThanOrEqual(6);
  });

  it('still converges without slopes (Illinois), only with more evaluations', () => {
    const f = counted(h, null);
    const b = 1e5 * flight;
    const out = locateCrossing(f, apex, h(apex), b, h(b), { left: 0, right: 0 });
    expectCollapsed(out, h, flight, 1);
    expect(f.calls).toBeGreaterThan(6);
  });

  it('handles a transcendental function and the backward direction', () => {
    // sin(t) - 0.5 falls through zero at 5π/6; bracket given right to left (a > b)
    const fn = (s: number) => Math.sin(s) - 0.5;
    const f = counted(fn, Math.cos);
    const root = (5 * Math.PI) / 6;
    const a = 3.0,
      b = 2.0; // fn(3) < 0, fn(2) > 0: seen backwards, the sign before is negative
    const out = locateCrossing(f, a, fn(a), b, fn(b), { left: 0, right: 0 }, Math.cos(a), Math.cos(b));
    expectCollapsed(out, fn, root, -1);
    expect(f.calls).toBeLessThanOrEqual(10);
  });

  it('survives slopes that lie (the dense output is not the exact flow): the bracket still collapses', () => {
    const fn = (s: number) => s * s * s - 2; // root 2^(1/3)
    const liar = (s: number) => 1e-3 * (3 * s * s) + (s > 1.2 ? -5 : 5);
    const f = counted(fn, liar);
    const out = locateCrossing(f, 0, fn(0), 3, fn(3), { left: 0, right: 0 }, liar(0), liar(3));
    expectCollapsed(out, fn, Math.cbrt(2), -1);
    expect(f.calls).toBeLessThan(200);
  });

  it('stops at the resolution it is given: a plateau of exact zeros is not bisected bit by bit', () => {
    // t counted from an origin near 12.85: h rounds to exactly 0 on [1e-10 - 1e-21, 1e-10 + 1e-21]
    const fn = (s: number) => (Math.abs(s - 1e-10) <= 1e-21 ? 0 : 1e-10 - s);
    const fine = counted(fn, () => -1);
    const outFine = locateCrossing(fine, 0, fn(0), 1, fn(1), { left: 0, right: 0 }, -1, -1);
    const resolution = (2 * Number.EPSILON * 12.85) / 4096; // what the Simulator passes there
    const coarse = counted(fn, () => -1, resolution);
    const outCoarse = locateCrossing(coarse, 0, fn(0), 1, fn(1), { left: 0, right: 0 }, -1, -1);
    for (const out of [outFine, outCoarse]) {
      expect(out.left).toBeLessThan(1e-10 - 1e-21 + 1e-30);
      expect(out.right).toBeGreaterThanOrEqual(1e-10 - 1e-21);
      expect(fn(out.left)).toBeGreaterThan(0);
    }
    expect(outCoarse.right - outCoarse.left).toBeLessThanOrEqual(resolution);
    expect(coarse.calls).toBeLessThan(fine.calls);
    expect(coarse.calls).toBeLessThanOrEqual(8);
  });

  it('walks back from an exact zero at the right end', () => {
    const fn = (s: number) => (s >= 1 ? 0 : 1 - s); // exactly zero from 1 on
    const f = counted(fn, () => -1);
    const out = locateCrossing(f, 0, 1, 2, 0, { left: 0, right: 0 }, -1, 0);
    expect(out.left).toBeLessThan(1);
    expect(out.right).toBeGreaterThanOrEqual(1);
    expect(out.right - out.left).toBeLessThanOrEqual(4 * Number.EPSILON);
  });
});
