/**
 * Round 16 on the analytic path's linear engine (closed-form exp(A t) segments and the window
 * scan of their event functions, src/analytic/linear-scan.ts), each case against its exact
 * answer: mpmath at 40 digits on the doubles the model's constants round to (scripts of the
 * round, not committed; the numbers beside each case).
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

describe('a crossing inside the band the scan cannot sign, where its budget of windows ran out', () => {
  // x'' = -0.2 x' - 1.01 x + 1.01 from x = 1, x' = 1e-13: x - 1 = (1e-13/ωd) e^{-t/10} sin ωd t,
  // ωd = sqrt(1.01 - 0.01) = 1.0000000000000000039 (the doubles). Its crossings are at
  // k π/ωd = 3.14159.., 6.28318.., 9.42477.., 12.5663.., 15.7079.., 18.8495.. in [0, 20]; its
  // extrema between them are 1.8e-14 and more, and x - 1 at t = 20 is +1.2355e-14, where the
  // rounding of x - 1 (32 ulps of 1, as the engine bounds it) is 7.1e-15: every crossing is
  // told from none, but each takes about 0.5 of t to pass through that band, and the scan
  // spent its 256 windows (halved near a touching) inside it. It resumed from where it
  // stopped "as at a start", without the sign it had seen before the band: the sixth
  // crossing (negative to positive through 18.85) was lost, n = 5, status ok.
  const text =
    `independent t from 0 to 20\ndiscrete n = 0\nevent e when x - 1 crosses do n := n + 1 end\n` +
    `x'' = -0.2*x' - 1.01*x + 1.01\nx(0) = 1; x'(0) = 1e-13`;

  it('six crossings, the last near 18.85, and x(20) - 1 = 1.2355e-14 (was n = 5)', () => {
    const r = simulate(text);
    expect(r.stats.method).toBe('analytic');
    expect(r.status).toBe('ok');
    expect(r.events.length).toBe(6);
    // (a crossing at rate 1e-13 e^{-t/10} through a band of 7.1e-15 is placed within that band:
    // |Δt| <= 7.1e-15 / (1e-13 e^{-1.885}) = 0.47 at the last one)
    const exact = [3.1415926535897932263, 6.2831853071795864525, 9.4247779607693796788, 12.566370614359172905, 15.707963267948966131, 18.849555921538759358];
    r.events.forEach((e, i) => expect(Math.abs(e.t - exact[i])).toBeLessThan(0.5));
    // (x carries the rounding of 1: a few ulps)
    expect(Math.abs(r.final.x - 1 - 1.235537040867438717e-14)).toBeLessThan(2e-15);
  });
});
