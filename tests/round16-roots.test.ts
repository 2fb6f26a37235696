/**
 * Round 16, the weight 1/|u'(r)| of a delta whose argument u(t) crosses zero at a root r that
 * lies between two doubles where u' is small beside u'' times their spacing. Each test states
 * its exact answer (closed forms).
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const EPS = Number.EPSILON;

describe('delta((t - c)^2 - a): each root c -+ sqrt(a) weighs 1/(2 sqrt(a)), a from 1e-30 to 1e-2', () => {
  // u = (t - c)^2 - a has the simple roots c -+ sqrt(a) with |u'| = 2 sqrt(a) (a the double the
  // text gives, sqrt exact in the reals): y' = delta(u) gives y = n/(2 sqrt(a)) for n roots in
  // the range. The run takes each root at the double nearest it, up to half an ulp of c away
  // (5.5e-17 at c = 1, 5.7e-14 at c = 1000), where u' = 2 (r - c) is off by twice that: the
  // weight was read there, 8.3e-8 off at a = 1e-20, c = 1 (4999999586.29818 for 5e9, status
  // ok on every method at rtol 1e-12), 4.4e-4 off at c = 1000, 6% off at a = 1e-30. Now the
  // root's residual (Newton on u's Taylor polynomial at the double) corrects the slope to the
  // root's own: u(r) = (r - c)^2 - a is computed to a few ulps of 2a (r - c is exact beside
  // c), so the residual is known to ~1e-36/2e-10 and the weight to a few eps. Tolerance 8 eps
  // relative: the reference 1/(2 sqrt(a)) rounds twice, the weight 1/|2 (r - c)| once, its
  // correction |u'(r)|/|u'(r) + u'' d| three times, and d itself ~1 eps of the correction.
  // Where sqrt(a) is below the spacing of doubles at c (a = 1e-30 at c = 1000: both roots
  // round to c, u' = 0 there), no double separates the roots: the run must fail saying so.
  const as = [1e-30, 1e-26, 1e-20, 1e-14, 1e-8, 1e-2];
  const cs = [1, 1e3, 1e-3];
  const methods = ['analytic', 'auto', 'dopri5', 'rodas'] as const;
  const cases = as.flatMap((a) => cs.flatMap((c) => methods.map((m) => [a, c, m] as const)));
  it.each(cases)('a = %s, c = %s, %s', (a, c, method) => {
    const s = Math.sqrt(a);
    const hi = 2 * c + 2 * s;
    const run = simulate(
      `independent t from 0 to ${hi}
parameter a = ${a}, c = ${c}
y' = delta((t - c)^2 - a)
y(0) = 0`,
      { method, rtol: 1e-12, atol: 1e-300 },
    );
    // (the doubles about c are 2.2e-16 c apart: with sqrt(a) below a few of them the roots
    // cannot be told from a double root; a clear failure is the answer there)
    if (s < 8 * EPS * c) {
      expect(run.status).toBe('failed');
      expect(run.message).toMatch(/multiple root|weight|slowly/);
      return;
    }
    expect(run.status, run.message ?? undefined).toBe('ok');
    const n = [c - s, c + s].filter((r) => r >= 0 && r <= hi).length;
    expect(run.events.length).toBe(n);
    const exact = n / (2 * s);
    expect(Math.abs(run.final.y - exact)).toBeLessThanOrEqual(8 * EPS * exact);
  });
});

describe('the same argument written out with cancellation', () => {
  // t^2 - 2 c t + c^2 - a at c = 1, a = 1e-20: the same roots 1 -+ 1e-10 in exact arithmetic,
  // but computed near t = 1 its value is rounding of 2e-16 (terms of 1) where the root's own
  // slope is 2e-10: where it crosses zero, and so 1/|u'| there, is known only to about
  // (2e-16/2e-10) * 2 / 2e-10 = 1e4 of itself. At rtol 1e-12 the run must fail saying why,
  // not report a weight (it gave one within 5.5e-7 only because the algebra's root happened
  // to be exact).
  it.each(['analytic', 'auto', 'dopri5', 'rodas'] as const)('%s', (method) => {
    const run = simulate(
      `independent t from 0 to 2
parameter a = 1e-20, c = 1
y' = delta(t^2 - 2*c*t + c^2 - a)
y(0) = 0`,
      { method, rtol: 1e-12, atol: 1e-300 },
    );
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/weight|multiple root/);
  });
});
