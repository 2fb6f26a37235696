/**
 * Round 18's differential fuzz campaign (small random models on the analytic path, dop853 at
 * rtol 1e-12, dopri5, radau5 and rodas, compared event by event): its finds, each against
 * its exact answer.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

describe('two equal coupled oscillators started alike: x2 - x1 is zero for all time', () => {
  // x1'' = -k x1 - kc (x1 - x2) - c x1', x2'' likewise with 1 and 2 swapped, from x1 = x2 = 1 at
  // rest. The system is symmetric under the swap and so are the initial values, so x1 = x2 for
  // all t (d = x2 - x1 obeys d'' = -(k + 2kc) d - c d' from d = d' = 0): `x2 - x1 crosses`
  // never fires. Each follows the symmetric mode x'' = -k x - c x' alone:
  // x = e^{-ct/2} (cos wt + c/(2w) sin wt), w = sqrt(k - c^2/4).
  // The analytic path (a 4x4 block, its states summed by the propagator from the two modes,
  // (a + b)/2 and (a - b)/2, each larger than x1) took x2 - x1 = 1.6e-16 for a certain sign on
  // the scale of |x1| + |x2| (1.1e-16) and the next window's -2e-16 for a crossing: one event
  // at t = 5.5656 (c = 0.3; 3.33 for c = 0, 6.10 for c = 1), status ok.
  const model = (c: number, stop: string) => `parameter k = 2, kc = 0.1, c = ${c}
discrete n = 0
x1'' = -k*x1 - kc*(x1 - x2) - c*x1'
x2'' = -k*x2 - kc*(x2 - x1) - c*x2'
x1(0) = 1; x1'(0) = 0; x2(0) = 1; x2'(0) = 0
event meet when x2 - x1 crosses do n := n + 1 end
${stop}`;
  const exact = (c: number, t: number) => {
    const w = Math.sqrt(2 - (c * c) / 4);
    return Math.exp((-c * t) / 2) * (Math.cos(w * t) + (c / (2 * w)) * Math.sin(w * t));
  };
  for (const c of [0, 0.05, 0.3, 1]) {
    for (const method of ['analytic', 'dop853'] as const) {
      it(`c = ${c}, ${method}: no crossing of x2 - x1`, () => {
        const run = simulate(model(c, ''), { to: 10, method, rtol: 1e-12, atol: 1e-14 });
        expect(run.status).toBe('ok');
        expect(run.events.map((e) => e.name)).toEqual([]);
        expect(run.final.n).toBe(0);
        // (x1(10) to the closed form: the propagator's rounding on the analytic path, the
        // tolerance's promise on dop853)
        expect(Math.abs((run.final.x1 as number) - exact(c, 10))).toBeLessThan(method === 'analytic' ? 1e-13 : 1e-9);
      });
    }
    // with a threshold that does fire (x1 falls through -0.4), the prediction restarts at its
    // instants, from states that are sums of the propagator's terms
    it(`c = ${c}, analytic, with x1 - -0.4 falls: only that event fires`, () => {
      const run = simulate(model(c, 'event stop1 when x1 - -0.4 falls do n := n + 10 end'), { to: 10, method: 'analytic' });
      expect(run.status).toBe('ok');
      expect(run.events.every((e) => e.name === 'stop1')).toBe(true);
      // x1 = exact(c, t) falls through -0.4 once per period while its envelope allows
      for (const e of run.events) expect(Math.abs(exact(c, e.t) + 0.4)).toBeLessThan(1e-12);
    });
  }
});
