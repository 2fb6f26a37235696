/**
 * Certified roots of event polynomials (issue 23, part 3): closed forms without cancellation,
 * isolation for higher degrees, the root at the event's own instant divided out, and double
 * roots the arithmetic cannot separate reported instead of guessed.
 */
import { describe, expect, it } from 'vitest';
import { PolynomialRoots, twoProductError } from '../src/analytic/roots.js';

const EPS = Number.EPSILON;
/** coefficients (lowest first) and bounds of 8 ulps of each, as the generated code gives them */
function poly(cs: number[], bound = (c: number) => 8 * EPS * Math.abs(c)): Float64Array {
  return Float64Array.from([...cs, ...cs.map(bound)]);
}
const FALLS = -1,
  RISES = 1,
  CROSSES = 0;

describe('TwoProduct', () => {
  it('recovers the exact rounding error of a product (checked in exact integer arithmetic)', () => {
    const cases = [
      [0.1, 0.3],
      [1e10 + 0.1, 3.7],
      [Math.PI, Math.E],
      [14.007141035914502, 14.007141035914502],
      [-7.25e-200, 3.3e150],
    ];
    for (const [a, b] of cases) {
      const p = a * b;
      const err = twoProductError(a, b, p);
      // exact: a*b - p as rationals, via BigInt on the doubles' mantissas scaled to a common exponent
      const exact = (x: number) => {
        const [m, e] = frexp(x);
        return { m: BigInt(m), e };
      };
      const A = exact(a),
        B = exact(b),
        P = exact(p),
        E = exact(err);
      const eMin = Math.min(A.e + B.e, P.e, E.e);
      const scale = (v: { m: bigint; e: number }, e: number) => v.m << BigInt(e - eMin);
      expect(scale({ m: A.m * B.m, e: A.e + B.e }, A.e + B.e)).toBe(scale(P, P.e) + scale(E, E.e));
    }
  });
});

/** x = m * 2^e with m an integer */
function frexp(x: number): [number, number] {
  if (x === 0) return [0, 0];
  let e = 0;
  let m = x;
  while (!Number.isInteger(m)) {
    m *= 2;
    e--;
  }
  return [m, e];
}

describe('first crossing', () => {
  const roots = new PolynomialRoots();
  it('degree 1: a gap closing at speed 2 falls through zero at s = 1.5', () => {
    const c = poly([3, -2]);
    expect(roots.first(c, 0, 1, false, FALLS, 10)).toBe(1.5);
    expect(roots.first(c, 0, 1, false, RISES, 10)).toBe(Infinity);
    expect(roots.first(c, 0, 1, false, FALLS, 1)).toBe(Infinity); // beyond the horizon
  });

  it('degree 2: the first drop of W1 (h = 10 - g/2 s^2) lands at sqrt(2 h0/g)', () => {
    const c = poly([10, 0, -9.81 / 2]);
    // (within two ulps of the exact root of the polynomial with these double coefficients)
    expect(Math.abs(roots.first(c, 0, 2, false, FALLS, 15) - 1.4278431229270645)).toBeLessThanOrEqual(2 * 2.3e-16);
  });

  it('degree 2 without cancellation: tiny root beside a large one, to full relative precision', () => {
    // (s - 1e-12)(s - 1e6) = s^2 - (1e6 + 1e-12) s + 1e-6
    const c = poly([1e-6, -(1e6 + 1e-12), 1]);
    const s = roots.first(c, 0, 2, false, FALLS, 1e9);
    expect(Math.abs(s - 1e-12) / 1e-12).toBeLessThan(4 * EPS);
    // the naive formula loses every digit here
    const naive = (1e6 + 1e-12 - Math.sqrt((1e6 + 1e-12) ** 2 - 4e-6)) / 2;
    expect(Math.abs(naive - 1e-12) / 1e-12).toBeGreaterThan(1e-3);
  });

  it('degree 2: the direction picks the rising root after the falling one', () => {
    // (s - 1)(s - 2): falls at 1, rises at 2
    const c = poly([2, -3, 1]);
    expect(roots.first(c, 0, 2, false, FALLS, 10)).toBe(1);
    expect(roots.first(c, 0, 2, false, RISES, 10)).toBe(2);
    expect(roots.first(c, 0, 2, false, CROSSES, 10)).toBe(1);
  });

  it('at the instant of a bounce the root at zero is divided out: the next one is the flight 2v/g', () => {
    // h = 0 + v s - g/2 s^2 after the bounce (h keeps a residue of 1e-15, taken as zero)
    const v = 3.2,
      g = 9.81;
    const c = poly([-1e-15, v, -g / 2]);
    expect(roots.first(c, 0, 2, true, FALLS, 100)).toBeCloseTo((2 * v) / g, 15);
    // and where it leaves zero to: up, at first order
    expect(roots.departure(c, 0, 2)).toBe(1);
    expect(roots.order).toBe(1);
  });

  it('a function that leaves zero at second order has a double root there: both divided out', () => {
    // p = s^2 (1 - s) + rounding in the linear term: leaves zero upwards, falls through at 1
    const c = Float64Array.from([0, 1e-18, 1, -1, 0, 8 * EPS, 8 * EPS, 8 * EPS]);
    expect(roots.first(c, 0, 3, true, FALLS, 10)).toBe(1);
    expect(roots.first(c, 0, 3, true, RISES, 10)).toBe(Infinity);
  });

  it('a grazing whose depth is within rounding is reported, not guessed', () => {
    // (s - 1)^2 + 1e-18: a minimum at s = 1 whose height is below the coefficients' rounding
    const c = poly([1 + 1e-18, -2, 1]);
    expect(roots.first(c, 0, 2, false, FALLS, 10)).toBe(Infinity);
    expect(roots.unresolved).toBe(true);
    expect(roots.where).toBe(1);
    // a clear miss (height 1e-6) and a clear double crossing (depth 1e-6) are resolved
    expect(roots.first(poly([1 + 1e-6, -2, 1]), 0, 2, false, FALLS, 10)).toBe(Infinity);
    expect(roots.unresolved).toBe(false);
    const s = roots.first(poly([1 - 1e-6, -2, 1]), 0, 2, false, FALLS, 10);
    expect(Math.abs(s - (1 - 1e-3))).toBeLessThan(1e-12);
  });

  it('degree 3 and 5 by isolation: every root in order with its direction', () => {
    // (s - 1)(s - 2)(s - 3) = s^3 - 6 s^2 + 11 s - 6: rises at 1, falls at 2, rises at 3
    const c = poly([-6, 11, -6, 1]);
    const near = (s: number, r: number) => Math.abs(s - r) <= 4 * EPS * r;
    expect(near(roots.first(c, 0, 3, false, RISES, 10), 1)).toBe(true);
    expect(near(roots.first(c, 0, 3, false, FALLS, 10), 2)).toBe(true);
    expect(roots.first(c, 0, 3, false, FALLS, 1.5)).toBe(Infinity);
    // Wilkinson-like: roots 0.5, 1.5, 2.5, 3.5, 4.5
    const rs = [0.5, 1.5, 2.5, 3.5, 4.5];
    let cs = [1];
    for (const r of rs) cs = [...cs.map((x, i) => -r * x + (i > 0 ? cs[i - 1] : 0)), cs[cs.length - 1]];
    const p5 = poly(cs);
    expect(Math.abs(roots.first(p5, 0, 5, false, RISES, 10) - 0.5)).toBeLessThan(1e-14);
    expect(Math.abs(roots.first(p5, 0, 5, false, FALLS, 10) - 1.5)).toBeLessThan(1e-14);
    expect(Math.abs(roots.first(p5, 0, 5, false, CROSSES, 10) - 0.5)).toBeLessThan(1e-14);
  });

  it('degree 4: a touching within rounding between two clear roots is reported', () => {
    // (s - 1)(s - 2)^2 (s - 3): falls at 1, touches zero at 2, rises at 3
    const c = poly([12, -28, 23, -8, 1]);
    expect(Math.abs(roots.first(c, 0, 4, false, FALLS, 10) - 1)).toBeLessThan(4 * EPS);
    expect(roots.unresolved).toBe(false);
    // the first rise: the touching at 2 could be one, so it is reported
    expect(roots.first(c, 0, 4, false, RISES, 10)).toBe(Infinity);
    expect(roots.unresolved).toBe(true);
    expect(Math.abs(roots.where - 2)).toBeLessThan(1e-6);
  });

  it('a leading coefficient within its rounding is no part of the polynomial', () => {
    // x2 - x1 of two bodies under the same gravity: the s^2 term cancels to rounding
    const c = Float64Array.from([1, -1, 1e-18, 8 * EPS, 8 * EPS, 1e-17]);
    expect(roots.first(c, 0, 2, false, FALLS, 10)).toBe(1);
  });
});
