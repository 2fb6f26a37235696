/**
 * Round 11, repeated events a few ulps of t apart at large t: events at a fixed pace that t
 * resolves (above the 4 ulps of t that the docs give as one instant) are counted, not taken
 * for an accumulation (status zeno) or a crawl that "the arithmetic cannot separate".
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { EVERY_STEPPER } from './methods.js';

// A sawtooth of period p = 2e-15*t0 (9 ulps of t0 in units of EPSILON*t0, 17 doubles apart
// at 1e9) from t0, over 50.5 periods: exactly 50 resets (x reaches p at t0 + k p, k = 1..50),
// and x at the end is the time since the last, (tEnd - t0) - 50 p, with tEnd the double
// nearest t0 + 50.5 p. Times are kept in two doubles (time-origin.ts), so each flight is
// integrated on its own scale; the answers hold to the rounding of p.
const sawtooth = (t0: string, p: string) => `independent t from ${t0} to ${t0} + 50.5*${p}
discrete n = 0
event s when x - ${p} rises do x := 0; n := n + 1 end
x' = 1
x(${t0}) = 0`;

describe('a sawtooth 9 ulps of t apart counts every reset, on every method', () => {
  // was: failed after 4 events with "within 64 ulps of t ... cannot separate them" (the
  // analytic path and most steppers), or status zeno after 3 (rodas: the gaps' rounding
  // noise, 1e-21 at 1e9, read as a shrink)
  const cases: [string, string][] = [
    ['1e-6', '2e-21'],
    ['1', '2e-15'],
    ['1e6', '2e-9'],
    ['1e9', '2e-6'],
    ['1e12', '2e-3'],
  ];
  for (const [t0, p] of cases)
    it.each(EVERY_STEPPER)(`t0 = ${t0}, p = ${p}: %s`, (method, tol) => {
      const r = simulate(sawtooth(t0, p), { method, ...tol });
      expect(r.status).toBe('ok');
      expect(r.final.n).toBe(50);
      const T0 = Number(t0),
        P = Number(p);
      const tEnd = T0 + 50.5 * P;
      // (tEnd - T0 is exact: two doubles within a factor 2; 50 P to its rounding)
      const xEnd = tEnd - T0 - 50 * P;
      // the state between resets is integrated exactly (x' = 1) up to a few roundings of p
      expect(Math.abs(r.final.x - xEnd)).toBeLessThan(1e-9 * P);
      for (const e of r.events) expect(Math.abs(e.pre.x - P)).toBeLessThan(1e-9 * P);
    });
});

describe('a slow accumulation near the resolution of t reports its geometric limit', () => {
  // A ball from x = 1 at rest, g = 9.81, e = 0.999: its bounces accumulate at t0 + T with
  // T = sqrt(2/g) + 2 e sqrt(2 g)/(g (1 - e)) = 902.5957583304761 (mpmath, 30 digits). Its
  // flights come within 64 ulps of t while a thousand times their length is left; the run
  // said "accumulate at" the instant it stopped, 0.014 before the limit at t0 = 1e9 (1.4e-5
  // at 1e6). The geometric limit from the last flights' ratio is exact to their rounding; the
  // steppers' flights carry their tolerance (rodas: 2e-9 on 902 at t0 = 0), so 1e-6 is ample
  // and far below the error (and than one ulp of 1e9, 1.2e-7, times ten).
  const ball = (t0: string) => `independent t from ${t0} to ${t0} + 1000
discrete n = 0
event b when x falls do x' := -0.999*x'; n := n + 1 end
x'' = -9.81
x(${t0}) = 1; x'(${t0}) = 0`;
  for (const t0 of ['1e6', '1e9'])
    it.each(['auto', 'rodas'] as const)(`t0 = ${t0}: %s`, (method) => {
      const r = simulate(ball(t0), { method });
      expect(r.status).toBe('zeno');
      expect(Math.abs(r.accumulationPoint! - Number(t0) - 902.5957583304761)).toBeLessThan(1e-6);
    });
});

describe('gaps that shrink like the harmonic series are no accumulation', () => {
  // x resets at x = 0.1/n, n = 1, 2, ...: the k-th reset at t0 + 0.1 H_k (H_k the harmonic
  // number), which diverges: no accumulation. Exact (mpmath, with tEnd the double nearest
  // the range's end): 22533 resets on [1e9, 1e9 + 1.06], x(end) = 2.5393026520997e-6; 24 on
  // [1e12, 1e12 + 0.38], x(end) = 0.0024090650371493. The last reset is 11 and 10.8 ulps of t
  // before the end (not within the instants' 4). The gaps' ratios k/(k+1) are steady to 1.05
  // and below 1, and the geometric test (or, below 64 ulps of t, any shrink) said Zeno at
  // t0 + 0.94 (7038 resets), at 1e12 + 0.28 (9), where the estimated limit moves on by one
  // gap at each reset. x is exact between resets (x' = 1) up to the location of the last
  // reset, to the steppers' tolerance (1.5e-15 on rodas at 1e9): 1e-12 is ample and far
  // below a lost or extra reset (a gap: 4.4e-6 at 1e9, 4e-3 at 1e12).
  const harmonic = (t0: string, span: string) => `independent t from ${t0} to ${t0} + ${span}
discrete n = 1
event e when x - 0.1/n rises do x := 0; n := n + 1 end
x' = 1
x(${t0}) = 0`;
  const cases: [string, string, number, number, number][] = [
    ['1e9', '1.06', 22534, 2.5393026520997e-6, 1e-12],
    ['1e12', '0.38', 25, 0.0024090650371493, 1e-12],
  ];
  for (const [t0, span, n, x, tol] of cases)
    it.each(['auto', 'dopri5', 'rodas'] as const)(`t0 = ${t0}: %s`, (method) => {
      const r = simulate(harmonic(t0, span), { method });
      expect(r.status).toBe('ok');
      expect(r.final.n).toBe(n);
      expect(Math.abs(r.final.x - x)).toBeLessThan(tol);
    });
});

describe('a sawtooth just above the tie of t is instants, not a contact', () => {
  // Periods of 4.3 to 5 units of EPSILON*t (above the tie, 4: distinct instants by the docs).
  // Their instants' rounded doubles come up to an ulp of t closer than that, within the tie:
  // every method failed with "persisting contact ... stays at zero with zero rate" (x' = 1).
  // Exact (fractions on the doubles): 50 resets reach the range's end, the 50th within 4
  // units of it (1.9, 2.3, 1.8), so one instant with the end, no event of the range (as the
  // docs say and every method does): 49, and x(end) = (tEnd - t0) - 49 p.
  const cases: [string, string][] = [
    ['1e9', '9.5e-7'],
    ['1', '1.1e-15'],
    ['1', '1e-15'],
  ];
  for (const [t0, p] of cases)
    it.each(EVERY_STEPPER)(`t0 = ${t0}, p = ${p}: %s`, (method, tol) => {
      const r = simulate(sawtooth(t0, p), { method, ...tol });
      expect(r.status).toBe('ok');
      expect(r.final.n).toBe(49);
      const T0 = Number(t0),
        P = Number(p);
      const xEnd = T0 + 50.5 * P - T0 - 49 * P;
      expect(Math.abs(r.final.x - xEnd)).toBeLessThan(1e-9 * P);
    });
});

describe('a sawtooth within the tie of t fails and says so, without "zero rate"', () => {
  // Period 2 units of EPSILON*t: one instant with the one before, by the docs, so the run
  // fails; the message said "stays at zero with zero rate", false (x' = 1).
  for (const [t0, p] of [
    ['1e9', '4.4e-7'],
    ['1', '4.4e-16'],
  ])
    it.each(EVERY_STEPPER)(`t0 = ${t0}, p = ${p}: %s`, (method, tol) => {
      const r = simulate(sawtooth(t0, p), { method, ...tol });
      expect(r.status).toBe('failed');
      expect(r.message).toMatch(
        /^persisting contact at t = [\d.]+: after event s, x - [\d.e-]+ is at zero again [\d.e-]+ later, within the tie of t/,
      );
      expect(r.message).not.toContain('zero rate');
      expect(r.final.n).toBe(1);
    });
});
