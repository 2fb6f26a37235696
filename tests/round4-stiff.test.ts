/**
 * Stiff models over long ranges and at every tolerance (round 4): false diagnoses and wrong
 * answers found there, each against its exact answer or the true cause of the failure.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type MethodName } from '../src/index.js';

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
