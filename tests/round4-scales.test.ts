/**
 * Round 4, events on different scales and over long ranges: wrong answers with status ok
 * found by the hunt on coincident events, each against its exact answer, on every method.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const METHODS = ['auto', 'dopri5', 'dop853', 'rodas', 'radau5'] as const;
const TIGHT = { rtol: 1e-12, atol: 1e-14 };
/** one ulp of t near 1e9 (2^-23) */
const ULP_1E9 = 2 ** -23;

describe('a run that starts at t = 1e9 locates its events on the scale of the time elapsed', () => {
  // x' = 1 reset at x = 1: crossings at 1e9 + k exactly (doubles), a clock c' = 1 beside it.
  // The bracket of each crossing was 1/4096 ulp of the absolute time (1.1e-10), and the
  // instant restarted at its right end with the state of its left end: every event shifted
  // the motion by that much, the same way. Over 5000 periods dopri5's clock lagged 4e-7 and
  // dop853's crossings came 5 ulps of t late (status ok, rtol 1e-12).
  const sawtooth = (periods: number, end: number) => `independent t from 1e9 to ${1e9 + periods + end}
discrete n = 0
event r when x - 1 rises do x := 0; n := n + 1 end
x' = 1
c' = 1
x(1e9) = 0; c(1e9) = 0`;
  it.each(METHODS)('%s: 5000 periods, every crossing at 1e9 + k, the clock exact', (method) => {
    const r = simulate(sawtooth(5000, 0.5), { method, ...TIGHT, eventsOnly: true });
    expect(r.status).toBe('ok');
    expect(r.final.n).toBe(5000);
    // each crossing is located to the rounding of t near 1e9 (half an ulp, the double nearest)
    r.events.forEach((e, i) => expect(Math.abs(e.t - (1e9 + i + 1))).toBeLessThanOrEqual(ULP_1E9 / 2));
    // x and c are integrated exactly by every stepper (their rates are constant); what is left
    // is the rounding of 5000 restarts and of the steps in between: rtol 1e-12 of c = 5000.5
    expect(Math.abs(r.final.x - 0.5)).toBeLessThan(1e-10);
    expect(Math.abs(r.final.c - 5000.5)).toBeLessThan(5000.5 * 1e-12);
  });

  it('dop853: 20000 periods to 1.5e-6 past the last crossing, none lost', () => {
    // the end, 1000020000.0000015, is 13 ulps of t after the crossing at 1e9 + 20000; the drift
    // of 1e-10 per period (2.2e-6) had carried that crossing past the end (n = 19999, status ok)
    const r = simulate(sawtooth(20000, 0.0000015), { method: 'dop853', ...TIGHT, eventsOnly: true });
    expect(r.status).toBe('ok');
    expect(r.final.n).toBe(20000);
    // x = t - (1e9 + 20000) after the last reset: the end's offset, 1.5497207641601562e-6
    // (the double 1000020000.0000015 minus 1000020000); as above, 1e-10 of rounding
    expect(Math.abs(r.final.x - (r.final.t - 1000020000))).toBeLessThan(1e-10);
  }, 30_000);
});

describe("Newton's cradle hit from both ends at one instant", () => {
  // Point spheres of unit mass, e = 1: sphere 1 at 0 moving at 1, sphere n at n - 2 moving at
  // -1, the ones between at rest touching at x = 1 (gaps of 0). Both outer gaps close at t = 1
  // exactly (every number is exact in doubles). The language's rule: both impacts fire in one
  // round from the velocities before it, and event iteration fires the gaps their actions turn
  // across, each round from the values after the one before. By hand:
  //   4 spheres: c1, c3 -> (0, 1, -1, 0); c2 -> (0, -1, 1, 0); c1, c3 -> (-1, 0, 0, 1): 5 impacts
  //   5 spheres: c1, c4 -> (0, 1, 0, -1, 0); c2, c3 -> (0, 0, 0, 0, 0): 4 impacts
  // The analytic path took c1 alone (it commutes with the far impact), its chain then reached
  // the far gap at its own zero, and it stopped: "precision ran out" (auto as well).
  const cradle = (n: number) => {
    const lines = ['independent t from 0 to 3', 'parameter m = 1, e = 1', 'discrete hits = 0'];
    for (let i = 1; i < n; i++) {
      lines.push(`event c${i} when x${i + 1} - x${i} falls do hits := hits + 1 end`);
      lines.push(`J${i} = (1 + e)*m/2*(x${i}' - x${i + 1}')`);
    }
    for (let i = 1; i <= n; i++) {
      const terms = [];
      if (i > 1) terms.push(`J${i - 1}*delta(t - c${i - 1})`);
      if (i < n) terms.push(`- J${i}*delta(t - c${i})`);
      lines.push(`m*x${i}'' = ${terms.join(' ')}`);
      const [x0, v0] = i === 1 ? [0, 1] : i === n ? [2, -1] : [1, 0];
      lines.push(`x${i}(0) = ${x0}; x${i}'(0) = ${v0}`);
    }
    return lines.join('\n');
  };
  const want: Record<number, { hits: number; v: number[] }> = {
    4: { hits: 5, v: [-1, 0, 0, 1] },
    5: { hits: 4, v: [0, 0, 0, 0, 0] },
  };
  it.each([4, 5].flatMap((n) => (['analytic', ...METHODS] as const).map((m) => [n, m] as const)))(
    '%i spheres, %s',
    (n, method) => {
      const r = simulate(cradle(n), { method, eventsOnly: true });
      expect(r.status, r.message ?? '').toBe('ok');
      expect(r.final.hits).toBe(want[n].hits);
      // (velocities are sums of 0, 1 and -1: exact)
      expect(Array.from({ length: n }, (_, i) => r.final[`x${i + 1}'`])).toEqual(want[n].v);
      // (the gaps round to 3.6e-15 at x = 1, closing at 2: a few 1e-15 in time)
      for (const e of r.events) expect(Math.abs(e.t - 1)).toBeLessThan(1e-14);
    },
  );
});
