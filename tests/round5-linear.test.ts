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

describe('a stiff block of three (Padé, scaling and squaring) keeps its slow and its decayed modes', () => {
  // exp(A t) by mpmath (50 digits) for each matrix below
  const rows = (text: string, outputTimes: number[]) => {
    const r = simulate(text, { outputTimes });
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe('analytic');
    return r.rows.map((row) => row.slice(1));
  };

  it('eigenvalues near -1e10 and -1, -3 over 100: x = y = z = 2.4999999999250 (was 2.49997295)', () => {
    // x' = -1e10 (x - y): 2^38 squarings of r(A/2^38) held the slow modes as 1 + 2^-38 z and
    // multiplied their error by 2^38: 1e-5 relative at t = 100, 5e-12 at t = 1 for -1e6
    const text =
      "independent t from 0 to 100\nx' = -1e10*x + 1e10*y\ny' = x - 2*y + z\nz' = y - z\nx(0) = 1; y(0) = 2; z(0) = 3";
    const [a, b] = rows(text, [1, 100]);
    const exact1 = [2.43233235828301, 2.4323323582965435, 2.5676676415602233];
    a.forEach((v, i) => expect(Math.abs(v - exact1[i]) / exact1[i]).toBeLessThan(1e-13));
    for (const v of b) expect(Math.abs(v - 2.499999999925) / 2.5).toBeLessThan(1e-13);
  });

  it('the same with -1e6 over 1 (18 squarings)', () => {
    const text =
      "independent t from 0 to 1\nx' = -1e6*x + 1e6*y\ny' = x - 2*y + z\nz' = y - z\nx(0) = 1; y(0) = 2; z(0) = 3";
    const [, b] = rows(text, [0.001, 1]);
    const exact = [2.4323313715448662, 2.4323315068805555, 2.567667060788073];
    b.forEach((v, i) => expect(Math.abs(v - exact[i]) / exact[i]).toBeLessThan(1e-13));
  });

  it('a triangular stiff chain: y = 1e20 e^{-1e6 t} still reaches 1 at 20 ln(10)/1e6', () => {
    const r = simulate(
      "independent t from 0 to 1e-4\ndiscrete n = 0\nevent e when y - 1 falls do n := n + 1 end\nx' = -x + y\ny' = -1e6*y\nz' = -z + x\nx(0) = 0; y(0) = 1e20; z(0) = 0",
    );
    expect(r.stats.method).toBe('analytic');
    expect(r.final.n).toBe(1);
    expect(Math.abs(r.events[0].t - (20 * Math.LN10) / 1e6)).toBeLessThan(1e-19);
    expect(Math.abs(r.final.y - 3.720075976020836e-24) / 3.72e-24).toBeLessThan(1e-13);
    expect(Math.abs(r.final.x - 99990100490083.824) / 1e14).toBeLessThan(1e-14);
    expect(Math.abs(r.final.z - 9899019848.5280981) / 1e10).toBeLessThan(1e-14);
  });

  it('a triple eigenvalue -1: t² e^{-t}/2 at t = 40 to its own relative accuracy', () => {
    // a decayed mode is -1 + e^{λh} on r - I: squaring that alone lost 7 digits of x(40)
    // (1.8e-7); squaring r keeps it to 2e-12 (6 squarings of a defective block's r(A/64))
    const r = simulate("independent t from 0 to 40\nx''' + 3*x'' + 3*x' + x = 0\nx(0) = 0; x'(0) = 0; x''(0) = 1", {
      outputTimes: [3.3, 40],
    });
    expect(r.stats.method).toBe('analytic');
    const x = r.rows[1][r.columns.indexOf('x')];
    const exact = 800 * Math.exp(-40); // 3.398683404233271e-15
    expect(Math.abs(x - exact) / exact).toBeLessThan(1e-11);
  });
});
