/**
 * Round 16, the steppers at tight tolerances: decisions on the scale of a located residue.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type SimulateOptions } from '../src/index.js';

type Method = NonNullable<SimulateOptions['method']>;

const STEPPERS: Method[] = ['dopri5', 'dop853', 'rodas', 'radau5', 'rk4'];
const TIGHT = [
  { rtol: 1e-10, atol: 1e-12 },
  { rtol: 1e-12, atol: 1e-14 },
  { rtol: 1e-13, atol: 1e-15 },
] as const;

describe("a function held at its zero by one of the same zeros: the residue's motion is no crossing", () => {
  // x'' = -4x - 0.5x', x(0) = 0.3, x'(0) = 0.25 (seed 606). x' falls through zero at
  // t0 = 0.18867968536970380 (mpmath); e2 (`x' crosses`) fires and x := 0 leaves x = x' = 0, an
  // equilibrium: in exact arithmetic nothing moves after, and e1 (`x' rises`, the same zeros)
  // never fires. With the kick at t = 1 (x' from 0 up to 1, back to the side it came from: no
  // rise) x(1) = 0, x'(1) = 1; without it x(1) = x'(1) = 0.
  // radau5 at rtol 1e-12 located x' at -1.95e-16, and the exact motion from that residue (a
  // damped rotation of size 2e-16, x' turning back up a quarter period later) crossed zero at
  // t = 0.917: e2's function was held there but e1's, the same zeros, was scanned as any other,
  // and its change of sign within e2's hold (2e-14) fired e1 (x := -0.5, x' := -x') and e2 again
  // (x := 0); the kick then fired e1 once more: x'(1) = -1, status ok.
  const model = (kick: boolean) => `independent t from 0 to 1
event e1 when x' rises do x := x - 0.5; x' := -x' end
event e2 when x' crosses do x := 0 end
x'' = -4*x - 0.5*x'${kick ? ' + delta(t - 1)' : ''}
x(0) = 0.3; x'(0) = 0.25
output x, x'
`;
  for (const kick of [true, false])
    for (const method of STEPPERS)
      for (const tol of TIGHT)
        it(`${method}, rtol ${tol.rtol}${kick ? ', kicked at t = 1' : ''}: e2 once, e1 never`, () => {
          const r = simulate(model(kick), { method, ...tol });
          expect(r.status, r.message ?? '').toBe('ok');
          expect(r.events.map((e) => e.name)).toEqual(kick ? ['e2', 'delta(t - 1)'] : ['e2']);
          // (the location to far below rtol: t0 is a simple zero with rate x'' = -1.3)
          expect(Math.abs(r.events[0].t - 0.1886796853697038)).toBeLessThan(1e-9);
          // (x and x' at rest at 0: the residue's motion, below 1e-15)
          expect(Math.abs(r.final.x)).toBeLessThan(1e-12);
          expect(Math.abs(r.final["x'"] - (kick ? 1 : 0))).toBeLessThan(1e-12);
        });
});

describe("the same with a multiple of the function: 2x' rises beside x' crosses", () => {
  // The model above with e1 on 2x' (the same zeros as x', not the same expression, so not in
  // WatchEntry.zeroOf's ring): exact as above, e1 never fires, x(1) = 0, x'(1) = 1. Measured
  // at rtol 1e-12, atol 1e-14: dop853, rodas and the analytic path fire e1 at the kick (read
  // as a rise from the residue's side, x' = -2.7e-17 on dop853) and e2 after it: x'(1) = -1,
  // status ok; radau5 fires e1 at t = 0.917 on the residue's motion and then fails. Diagnosis
  // (dop853): at e2's instant, Firing judges 2x' with firedHere false (zeroFiredHere is
  // syntactic), so its zero band is |rate| times the tie only (2.59 * 8.9e-16) and judgeAcross
  // returns OPEN: 2x' is neither held (holdSetOnZero needs NOT_CROSSED) nor given the
  // location's band, and its residue's side decides later. The fix is to take "its zero was
  // located here" from the value (within its rounding plus its rate times the bracket, the
  // coincidence rule of EVENTS.md, 2) rather than from the expression, on both paths
  // (round-verdicts.ts zeroFiredHere, analytic/fire.ts); not done in round 16.
  const model = `independent t from 0 to 1
event e1 when 2*x' rises do x := x - 0.5; x' := -x' end
event e2 when x' crosses do x := 0 end
x'' = -4*x - 0.5*x' + delta(t - 1)
x(0) = 0.3; x'(0) = 0.25
output x, x'
`;
  for (const method of ['analytic', 'dop853', 'rodas', 'radau5'] as Method[])
    it(`${method}, rtol 1e-12: e2 once, e1 never, x'(1) = 1`, () => {
      const r = simulate(model, { method, rtol: 1e-12, atol: 1e-14 });
      expect(r.status, r.message ?? '').toBe('ok');
      expect(r.events.map((e) => e.name)).toEqual(['e2', 'delta(t - 1)']);
      expect(Math.abs(r.final.x)).toBeLessThan(1e-12);
      expect(Math.abs(r.final["x'"] - 1)).toBeLessThan(1e-12);
    });
});
