/**
 * The analytic path where an event changes a linear block's constants (the sixth round).
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

describe('an event that makes a linear block stiff', () => {
  // z' = -L z + x with L := 1e8 at t = 0.1: the scan for c (x - 0.9 falls) would need about
  // 2e8 windows of width 1e-8 over the rest of the range; auto ran for hours (found by a
  // helper of this round: 'still running after 2 minutes'). The block was judged stiff only
  // with the constants at the start.
  const text =
    'independent t from 0 to 1\ndiscrete L = 1, n = 0\nevent sw at 0.1 do L := 1e8 end\n' +
    "event c when x - 0.9 falls do n := n + 1 end\nx' = y\ny' = -x + 1e-3*z\nz' = -L*z + x\n" +
    'x(0) = 1; y(0) = 0; z(0) = 0\noutput x, y, z, n';

  it('auto: the stepper takes the run, one crossing where radau5 at rtol 1e-12 has it', () => {
    const r = simulate(text, { rtol: 1e-10, atol: 1e-14 });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.stats.method).not.toBe('analytic');
    expect(r.final.n).toBe(1);
    const ref = simulate(text, { method: 'radau5', rtol: 1e-12, atol: 1e-16 });
    // (x = cos t to 1e-6 (the coupling through z is 1e-3 z, z of order 1e-8): near acos(0.9))
    expect(Math.abs(r.events[1].t - Math.acos(0.9))).toBeLessThan(1e-5);
    expect(Math.abs(r.events[1].t - ref.events[1].t)).toBeLessThan(1e-9);
  });

  it('method analytic: fails where the scan turns stiff, and says what takes it', () => {
    const r = simulate(text, { method: 'analytic' });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^from t = 0\.1\d*, the function of event c moves on a time scale of 1\.00e-8/);
    expect(r.message).toMatch(/a stiff stepper integrates it \(method rodas or radau5/);
  });
});

describe('a coupling switched on and off by a tick', () => {
  // x' = -on K (x - y), y' = -0.1 y + 0.05 x, on toggled every 1: with on = 0 at the start the
  // block is not stiff and auto took the analytic path; after the first switch the scan of
  // x - 0.3 falls walked windows of 1/K, 26 s at K = 1e6 with the event 1e-10 late from the
  // rounding of 1e5 advances, and K = 1e8 did not finish (a helper's find, round 7). The
  // exact crossing (mpmath, from the same helper): 10.3414631933391802.
  const text = (K: number) =>
    `independent t from 0 to 30\nparameter K = ${K}\ndiscrete on = 0, n = 0, last = 0\n` +
    'event sw every 1 do on := 1 - on end\nevent e1 when x - 0.3 falls do n := n + 1; last := t end\n' +
    "x' = -on*K*(x - y)\ny' = -0.1*y + 0.05*x\nx(0) = 1; y(0) = 0.5";
  it.each([1e6, 1e8])('K = %s: auto takes the stepper once the block turns stiff, e1 as radau5 has it', (K) => {
    const r = simulate(text(K), { rtol: 1e-10, atol: 1e-14 });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.stats.method).not.toBe('analytic');
    expect(r.final.n).toBe(1);
    // (at rtol 1e-10 on a crossing at rate ~0.03: 1e-9 in time; at K = 1e6 against mpmath)
    if (K === 1e6) expect(Math.abs(r.final.last - 10.3414631933391802)).toBeLessThan(1e-9);
    const ref = simulate(text(K), { method: 'radau5', rtol: 1e-12, atol: 1e-16 });
    expect(Math.abs(r.final.last - ref.final.last)).toBeLessThan(1e-9);
  });
});

describe('a reset of its own function keeps the location residue of a fast approach', () => {
  // A damped oscillator x'' = -4x - 0.5x' launched at x' = 1e6: x' falls through zero at rate
  // -2e6, located to the rounding of t, a residue of 2e-10; e1 scales x by 1e-6 and sets
  // x' := -x' (0 in exact arithmetic), which left the residue at +2e-10 with a rate of -1.7:
  // the analytic path fired e1 again 1.2e-10 later, x(2) = -2.2e-7 with status ok (exact
  // -0.2249..., the steppers'). The residue's band now takes the rate before the actions.
  const text =
    "independent t from 0 to 2\ndiscrete n = 0\nevent e1 when x' falls do x := 1e-6*x; x' := -x' end\n" +
    "x'' = -4*x - 0.5*x'\nx(0) = 0.3; x'(0) = 1e6";
  it('analytic: one e1, x(2) as radau5 at rtol 1e-12 has it', () => {
    const r = simulate(text, { method: 'analytic' });
    expect(r.status).toBe('ok');
    expect(r.events.length).toBe(1);
    const ref = simulate(text, { method: 'radau5', rtol: 1e-12, atol: 1e-16 });
    // (x = 1e-6 of a value near 5e5 at an event located to the rounding of t: a relative 1e-9)
    expect(Math.abs(r.final.x - ref.final.x)).toBeLessThan(1e-9 * Math.abs(ref.final.x));
  });
});

describe('two crossings within one instant, the later one a resumed prediction', () => {
  // tm at 0 sets x' := -0.8e6: x = 1e-3 - 8e5 t + t^3/6 falls through zero at 1.25e-9, and
  // x - 0.5 t 7.8e-16 earlier, one instant by the tie tolerance (4 ulps of 1). The cubic's
  // prediction of x's zero resumed (its place "uncertain" against 2^-44 of t = 1.25e-9), a
  // resumed entry joined no instant, and at its own time event iteration took e1's function
  // (-6.25e-10, within the instant's band) for a crossing again: y(1) = 1002.25 with status
  // ok; exact 1001.25 (e1 once), as every stepper has it.
  it('analytic: e1 and e2 at one instant, e1 once, y(1) = 1001.25', () => {
    const r = simulate(
      'independent t from 0 to 1\ndiscrete n = 0\nevent e1 when x - 0.5*t falls do y := y + 1 end\n' +
        'event e2 when x falls do x := 1e-6*x; x := x - 0.5 end\n' +
        "event tm every 0.5 do x' := -0.8*x' end\nx'' = t\nx(0) = 1e-3; x'(0) = 1e6\ny' = 0.5*t\ny(0) = 1e3",
      { method: 'analytic' },
    );
    expect(r.status).toBe('ok');
    expect(r.events.filter((e) => e.name === 'e1').length).toBe(1);
    expect(r.final.y).toBe(1001.25);
  });
});
