/**
 * A ball that comes to rest near t = 0 on a range of order 1 (tests/README, round 12). The
 * instants' resolution there is 4 ulps of 1, not of t (time-tie.ts: the floor stands for the
 * rounding the states carry), so flights shorter than 8.9e-16 are one instant. Zeno detection
 * measured its gaps against ulps of t alone (1e-21 at t = 1e-5) and waited for gaps far below
 * that: the flights became one instant first. The analytic path then failed with a
 * "persisting contact", and on every stepper a ball whose bounce resets x := 0 (or is a delta
 * on x') fell through the floor with status ok: x(1) = -0.49999 (the differential oracle,
 * seed 1010). Now the resolution is the tie's, and the run stops as Zeno at the limit.
 *
 * Exact: dropped from h with x'' = -1, the ball lands at sqrt(2h) with speed sqrt(2h); each
 * bounce keeps 0.8 of the speed, a flight of 2 v / 1, so the flights sum to
 * t_inf = sqrt(2h) (1 + 2 * 0.8 / (1 - 0.8)) = 9 sqrt(2h).
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { ALL_METHODS } from './zero-set-cases.js';

const bounces = {
  "a delta on x' with x := 0": (h: number, range: number) => `independent t from 0 to ${range}
event e1 when x crosses do x := 0 end
x'' = -1 - 1.8*x'*delta(t - e1)
x(0) = ${h}; x'(0) = 0
`,
  'an impact': (h: number, range: number) => `independent t from 0 to ${range}
event e1 when x falls do x' := -0.8*x' end
x'' = -1
x(0) = ${h}; x'(0) = 0
`,
  'an impact with x := 0': (h: number, range: number) => `independent t from 0 to ${range}
event e1 when x falls do x := 0; x' := -0.8*x' end
x'' = -1
x(0) = ${h}; x'(0) = 0
`,
};

describe('a ball at rest near t = 0 stops as Zeno at its limit', () => {
  for (const [name, model] of Object.entries(bounces))
    for (const [h, range] of [
      [1e-12, 1],
      [1e-20, 1],
      [1e-12, 10],
      [1e-12, 1e-3],
    ])
      for (const method of ALL_METHODS)
        it(`${name}, dropped from ${h} on [0, ${range}]: ${method}`, () => {
          const tInf = 9 * Math.sqrt(2 * h);
          const r = simulate(model(h, range), { method });
          expect(r.status, r.message ?? '').toBe('zeno');
          // (the limit extrapolated from located times, each known to a fraction of the tie,
          // the resolution of instants there: 4 ulps of the range's floor, min(1, span); rk4's
          // fixed steps locate to some 1e-8 of a flight: 3.9e-17 at h = 1e-20)
          const tie = 4 * Number.EPSILON * Math.max(Math.min(1, range), tInf);
          expect(Math.abs(r.accumulationPoint! - tInf)).toBeLessThan(Math.max(1e-9 * tInf, tie));
          expect(r.final.t).toBeLessThanOrEqual(tInf);
          // (the ball on the floor: its height within what its last flights reach)
          expect(Math.abs(r.final.x)).toBeLessThan(1e-20);
        });
});

describe("the same with a tick beside it (the oracle's case)", () => {
  // x(0) = 0 heading down at 1e-6: the tick at 0 moves x to -0.5, a crossing; e1 puts it
  // back at 0 with x' = 0.8e-6 up: flights 1.6e-6 * 0.8^k, t_inf = 1.6e-6 / 0.2 = 8e-6
  const model = `independent t from 0 to 5
event e1 when x crosses do x := 0 end
event tm every 0.1 do x := x - 0.5 end
x'' = -1 - 1.8*x'*delta(t - e1)
x(0) = 0; x'(0) = -1e-6
`;
  for (const method of ALL_METHODS)
    it(`${method}: zeno at 8e-6, not through the floor`, () => {
      const r = simulate(model, { method, to: 0.9 });
      expect(r.status, r.message ?? '').toBe('zeno');
      expect(Math.abs(r.accumulationPoint! - 8e-6)).toBeLessThan(1e-9 * 8e-6);
    });
});
