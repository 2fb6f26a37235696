/**
 * Wrong answers with status ok found on the closed-form path of linear blocks (issue 24) in
 * the fifth round, each against its exact answer.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

describe('a stiff 2x2 block with real eigenvalues keeps each mode to its own relative accuracy', () => {
  // x' = -x + y, y' = -1e6 y: triangular, y = y0 e^{-1e6 t} exactly. The propagator wrote
  // exp(A h) as C I + S B, whose (1,1) entry is e^{-h} - e^{-h} + e^{-1e6 h}: below 2^-53 of
  // e^{-h} the fast mode was lost (y(1e-4) = 8192 for y0 = 1e20, exactly 3.72e-24).
  const text = (coupling: string) =>
    `independent t from 0 to 1e-4\ndiscrete n = 0\nevent e when y - 1 falls do n := n + 1 end\n` +
    `x' = -x + y\ny' = -1e6*y${coupling}\nx(0) = 0; y(0) = 1e20`;

  it('y = 1e20 e^{-1e6 t} reaches 1 at 20 ln(10)/1e6, once, and is 1e20 e^{-100} at the end', () => {
    const r = simulate(text(''));
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe('analytic');
    expect(r.events.length).toBe(1);
    // (a decay's closed form: a few ulps of the time and of the value)
    expect(Math.abs(r.events[0].t - (20 * Math.LN10) / 1e6)).toBeLessThan(1e-19);
    expect(r.final.n).toBe(1);
    const y = 1e20 * Math.exp(-100);
    expect(Math.abs(r.final.y - y) / y).toBeLessThan(1e-13);
  });

  it('the same with a weak coupling back (not triangular): y settles near 1e-30 x / 1e6, not 8192', () => {
    // y' = -1e6 y + 1e-30 x: exp(A t) by mpmath (60 digits) gives x(1e-4) = 99990100490083.824,
    // y(1e-4) = 1.0371027645630514e-22; the event's time moves by less than 1e-36 relative
    const r = simulate(text(' + 1e-30*x'));
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe('analytic');
    expect(r.final.n).toBe(1);
    expect(Math.abs(r.events[0].t - (20 * Math.LN10) / 1e6)).toBeLessThan(1e-19);
    expect(Math.abs(r.final.x - 99990100490083.824) / 1e14).toBeLessThan(1e-14);
    expect(Math.abs(r.final.y - 1.0371027645630514e-22) / 1e-22).toBeLessThan(1e-13);
  });

  it('output rows of the fast mode on a grid: e^{-1e6 t} at 3e-5 and 5e-5 to 1e-15 relative', () => {
    const r = simulate("independent t from 0 to 1e-4\nx' = -x + y\ny' = -1e6*y\nx(0) = 0; y(0) = 1", {
      outputTimes: [3e-5, 5e-5, 1e-4],
    });
    expect(r.stats.method).toBe('analytic');
    const yc = r.columns.indexOf('y');
    for (const row of r.rows) {
      const exact = Math.exp(-1e6 * row[0]);
      expect(Math.abs(row[yc] - exact) / exact).toBeLessThan(1e-14);
    }
  });
});
