/**
 * Stiff models over long ranges and at every tolerance (round 4): false diagnoses and wrong
 * answers found there, each against its exact answer or the true cause of the failure.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, formatText, simulate, transformReport, type MethodName } from '../src/index.js';

describe("a stiff model that reads t far from t = 0: t's own resolution is named, not a discontinuity", () => {
  // x1' = −1e6 (x1 − cos(t − 1e12)) on [1e12, 1e12 + 1]. A double resolves t there only to
  // 2^-13 = 1.2e-4 (one ulp), so the right-hand side the stepper sees is a staircase: cos of
  // t − 1e12 in steps of 1.2e-4, a jump of f of 1e6·sin·1.2e-4 ≈ 50 at each, which x1 follows
  // within 1e-6. Where the steps are shorter than that ulp, the runs failed with "the right-hand
  // side ... jumps within the last step, again and again: a discontinuity that is not written
  // with if, step or sign" (auto, rodas, radau5 at rtol 1e-5 .. 1e-12), "persisting contact"
  // after the event (radau5 at 1e-5, auto at 1e-12), or "crossing not resolved ... its terms
  // cancel" (rodas at 1e-4): no such discontinuity, contact or cancellation is in the model.
  // The same model counted from t = 0 runs ok at every one of these settings (below).
  const at = (origin: string, withEvent: boolean) => `independent t from ${origin} to ${origin} + 1
discrete n = 0, tt = -1
${withEvent ? 'event up when x1 - 0.9 falls do n := n + 1; tt := t end' : ''}
x1' = -1e6*(x1 - cos(t - ${origin}))
x1(${origin}) = 1`;
  // x1 = L/(L²+1) (L cos s + sin s) + C e^{-Ls}: at s = 1, and the fall through 0.9 (mpmath)
  const x1End = 0.5403031473385842;
  const fall = 0.45102781179523;
  const cases: [MethodName, number, boolean][] = [
    ['auto', 1e-10, false],
    ['radau5', 1e-10, false],
    ['auto', 1e-6, true],
    ['rodas', 1e-4, true],
    ['rodas', 1e-6, true],
    ['radau5', 1e-5, true],
    ['radau5', 1e-8, true],
  ];
  it.each(cases)(
    '%s at rtol %s (event: %s): ok and right, or failed naming the resolution of t',
    (method, rtol, ev) => {
      const r = simulate(at('1e12', ev), { method, rtol, atol: 1e-3 * rtol, eventsOnly: true });
      if (r.status === 'ok') {
        // (what the staircase leaves at the end, where t is exact again: within the tolerance)
        expect(Math.abs(r.final.x1 - x1End)).toBeLessThan(20 * (1e-3 * rtol + rtol * x1End));
        if (ev) expect(r.final.n).toBe(1);
        return;
      }
      expect(r.message).toMatch(
        /^the right-hand side of x1' = .* reads t, which double precision resolves at t = 1000000000000(\.\d+)? only to 0\.000122 \(one ulp\)/,
      );
      expect(r.message).toContain('count t from the start of the range');
    },
  );
  it.each(cases)('counted from t = 0, %s at rtol %s (event: %s) is ok and right', (method, rtol, ev) => {
    const r = simulate(at('0', ev), { method, rtol, atol: 1e-3 * rtol, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(Math.abs(r.final.x1 - x1End)).toBeLessThan(20 * (1e-3 * rtol + rtol * x1End));
    if (ev) {
      expect(r.final.n).toBe(1);
      // the function falls at rate −sin(0.451) = −0.44: ten times the tolerance over that
      expect(Math.abs(r.final.tt - fall)).toBeLessThan(Math.max(1e-9, (10 * rtol) / 0.44));
    }
  });
  it('an autonomous model at t = 1e12 is not concerned: a stiff pair dosed every 1 is exact (radau5, rodas)', () => {
    // x2 halves its log every 2: x2(100) = e^{-50} + Σ_{k=0}^{99} e^{-(99.5 - k)/2}, x1 = x2·L/(L − 0.5)
    const src = `independent t from 1e12 to 1e12 + 100
event dose every 1 from 1e12 + 0.5 do x2 := x2 + 1 end
x1' = -1e6*(x1 - x2)
x2' = -0.5*x2
x1(1e12) = 0; x2(1e12) = 1`;
    let x2 = Math.exp(-50);
    for (let k = 0; k < 100; k++) x2 += Math.exp(-0.5 * (99.5 - k));
    for (const method of ['rodas', 'radau5'] as const) {
      const r = simulate(src, { method, rtol: 1e-10, atol: 1e-13, eventsOnly: true });
      expect(r.status).toBe('ok');
      expect(Math.abs(r.final.x2 - x2)).toBeLessThan(20 * 1e-10 * x2);
      expect(Math.abs(r.final.x1 - (x2 * 1e6) / (1e6 - 0.5))).toBeLessThan(20 * 1e-10 * x2);
    }
  });
});

describe('radau5 at an atol below the smallest normal double: no false overflow', () => {
  // y' = −1e3 y from 1 to t = 0.7: y = e^{−700} = 9.86e-305. With atol 1e-320 the scale of a
  // state of 1e-304 at rtol 1e-6 is 1e-310, whose reciprocal is Infinity: Newton's norm took
  // 0·Infinity = NaN for "not finite", and the run failed with "the state overflowed within
  // the step" at t = 0.698 (rtol 1e-6) and 0.688 (1e-12), y finite and tiny throughout.
  // Bar: the relative error of each step adds up over the 700 e-foldings; measured 23 rtol at
  // 1e-6 and 47 rtol at 1e-12, held to 100 rtol.
  const src = `independent t from 0 to 0.7\ny' = -1e3*y\ny(0) = 1`;
  const exact = Math.exp(-700);
  it.each([1e-3, 1e-6, 1e-9, 1e-12])('rtol %s: ok and e^-700', (rtol) => {
    const r = simulate(src, { method: 'radau5', rtol, atol: 1e-320, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(Math.abs(r.final.y - exact)).toBeLessThan(100 * rtol * exact);
  });
});

describe('many deltas into a state that stays small: the steps are held to rtol of the state, not of u = y - S', () => {
  // A' = -Vm A/(Km + A) + D delta(t - dose), a dose every 1 from 1 to 1000: A settles into a
  // periodic orbit, A(k + 1/2) = 0.174584553073188 (SciPy's Radau, LSODA and DOP853 at rtol
  // 1e-13, the doses as resets, agreeing to 3e-13). The u-plus-step form integrated
  // u = A - S with S = 1000 by the end, so the tolerance was rtol·1000: under the default method
  // A = 0.175406 (4700 times rtol 1e-6 off), and at rtol 1e-3 A = -445.7 (auto, rodas),
  // -728.2 (radau5), -962.9 (dopri5), status ok. Bar: 20 (atol + rtol·A), the Test Set's bar
  // for a one-step method's error added over the run (tests/testset.test.ts).
  const mm = `independent t from 0 to 1000.5
parameter Vm = 2, Km = 0.1, D = 1
event dose every 1 from 1
A' = -Vm*A/(Km + A) + D*delta(t - dose)
A(0) = 1`;
  const exact = 0.174584553073188;
  it.each(
    (['auto', 'rodas', 'radau5', 'dopri5', 'dop853'] as const).flatMap((method) =>
      [1e-3, 1e-6].map((rtol) => [method, rtol] as const),
    ),
  )('%s at rtol %s: 1000 doses, A(1000.5) to the tolerance', (method, rtol) => {
    const atol = 1e-3 * rtol;
    const r = simulate(mm, { method, rtol, atol, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.stats.events).toBe(1000);
    expect(Math.abs(r.final.A - exact)).toBeLessThan(20 * (atol + rtol * exact));
  });
  it('the default settings (auto, rtol 1e-6)', () => {
    const r = simulate(mm, { eventsOnly: true });
    expect(Math.abs(r.final.A - exact)).toBeLessThan(20 * 1e-6 * exact);
  });

  // A stiff dimerisation 2A <-> B (kf = 1e6, kb = 1e4), B -> C (1e-3), with a dose of
  // D·100/pi² into A at each root of sin(pi t/10): A stays near 0.48 on its fast manifold while
  // S grows by 2.53 per dose. radau5 at rtol 1e-3 took steps of 2.8 against a tolerance of
  // 1e-3·|u| = 0.05 for A: A(193.3) = 0.404, and a step later A = -0.095, which the quadratic
  // term then blew up ("the step size fell below the resolution of t" at t = 196.6).
  // Reference: SciPy's Radau and LSODA at rtol 1e-12, the 20 doses as resets, agreeing to 7e-14.
  const dimer = `independent t from 0 to 193.3
parameter kf = 1e6, kb = 1e4, k3 = 1e-3, D = 0.25
A' = -2*kf*A^2 + 2*kb*B + D*delta(sin(pi*t/10))*10/pi
B' = kf*A^2 - kb*B - k3*B
C' = k3*B
M = A + 2*B + 2*C
A(0) = 1; B(0) = 0; C(0) = 0`;
  const ref = { A: 0.48164713133509, B: 23.198395900353, C: 2.391076444564 };
  it.each(
    (['auto', 'rodas', 'radau5'] as const).flatMap((method) => [1e-3, 1e-6].map((rtol) => [method, rtol] as const)),
  )('the dosed dimerisation on %s at rtol %s: every species to the tolerance, the mass exact', (method, rtol) => {
    const atol = 1e-3 * rtol;
    const r = simulate(dimer, { method, rtol, atol, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    for (const [k, v] of Object.entries(ref))
      expect(Math.abs(r.final[k] - v), `${k} = ${r.final[k]}`).toBeLessThan(20 * (atol + rtol * v));
    // A + 2B + 2C changes only by the doses: 1 + 20·D·100/pi², to rounding
    expect(Math.abs(r.final.M - (1 + (20 * 0.25 * 100) / Math.PI ** 2))).toBeLessThan(1e-12 * 52);
  });
});

describe('the analytic path folds the jumps too: doses far larger than what is left', () => {
  // A' = -k A + D delta(t - dose), a dose of 1e6 every 1 from 1 to 100, k = 40: between doses
  // A decays by e^-40, so A(100.5) = Σ_j D e^{-k (100.5 - j)} = 0.00206115362243856 (mpmath),
  // while S = 1e8. The closed forms carried u = A - S, known to ulp(1e8) = 1.5e-8 only:
  // A = 0.00206114352 (5e-6 relative off, at any rtol; status ok). Now to rounding.
  it.each([
    [40, 0.002061153622438558],
    [20, 45.39992985606108],
  ])('k = %s: A(100.5) = %s to 1e-14 relative, on the analytic path', (k, exact) => {
    const r = simulate(
      `independent t from 0 to 100.5\nparameter k = ${k}, D = 1e6\nevent dose every 1 from 1\nA' = -k*A + D*delta(t - dose)\nA(0) = 0`,
      { rtol: 1e-12, atol: 1e-30, eventsOnly: true },
    );
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe('analytic');
    expect(Math.abs(r.final.A - exact)).toBeLessThan(1e-14 * exact);
  });
});

describe('transform does not count a listing it cut short', () => {
  // delta(sin(pi t/10)) on [0, 10000.5] has 1001 roots (0, 10, ..., 10000) and the run fires
  // 1001 impulses; the listing holds the first 1000 and said "(1000 in all)".
  it('"more than 1000", with the warning', () => {
    const report = transformReport(
      compileModel(`independent t from 0 to 10000.5\nx' = -x + delta(sin(pi*t/10))\nx(0) = 0`),
    );
    expect(report.events[0].times).toHaveLength(1000);
    expect(report.events[0].moreTimes).toBe(true);
    const text = formatText(report);
    expect(text).toContain('at 0, 10, 20, 30, 40, 50, 60, 70, ... (more than 1000)');
    expect(text).not.toContain('1000 in all');
  });
  it('a listing that holds them all counts them', () => {
    const report = transformReport(compileModel(`independent t from 0 to 95\nx' = -x + delta(sin(pi*t/10))\nx(0) = 0`));
    expect(report.events[0].moreTimes).toBeUndefined();
    expect(formatText(report)).toContain('(10 in all)');
  });
});
