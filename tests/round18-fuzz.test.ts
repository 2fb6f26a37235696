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
      const run = simulate(model(c, 'event stop1 when x1 - -0.4 falls do n := n + 10 end'), {
        to: 10,
        method: 'analytic',
      });
      expect(run.status).toBe('ok');
      expect(run.events.every((e) => e.name === 'stop1')).toBe(true);
      // x1 = exact(c, t) falls through -0.4 once per period while its envelope allows
      for (const e of run.events) expect(Math.abs(exact(c, e.t) + 0.4)).toBeLessThan(1e-12);
    });
  }
});

describe('two balls dropped alike onto two floors, and a tick when they land: one instant in file order', () => {
  // x1 = x2 = 4 - 4 t^2 (g = 8) reach 0 at t = 1 exactly, the closed form's root to the bit;
  // `tick` fires at 1 too. Every method's ledger: floor1, floor2, tick at t = 1, one instant
  // (two rows at t = 1), x1' = x2' = 4 after (e = 0.5), n = 2, m = 1. The analytic path took
  // floor1 with the tick (a tick that commutes joins the crossing at its time to the bit) and
  // floor2, which commutes with both, as an instant of its own after them: floor1, tick,
  // floor2, four rows at t = 1 (the same values; the ledger out of file order).
  const BALLS = (tick: string) => `parameter g = 8, e = 0.5
discrete n = 0, m = 0
x1'' = -g
x1(0) = 4; x1'(0) = 0
event floor1 when x1 falls do x1' := -e*x1'; n := n + 1 end
x2'' = -g
x2(0) = 4; x2'(0) = 0
event floor2 when x2 falls do x2' := -e*x2'; n := n + 1 end
${tick}`;
  for (const [tick, m] of [
    ['event tick at 1 do m := m + 1 end', 1],
    ["event tick at 1 do m := m + x1' end", -8],
    ['event tick every 0.5 do m := m + 1 end', 3],
  ] as const) {
    for (const method of ['analytic', 'dop853'] as const) {
      it(`${tick}, ${method}`, () => {
        const r = simulate(BALLS(tick), { to: 1.2, method, rtol: 1e-12, atol: 1e-14 });
        expect(r.status).toBe('ok');
        const at1 = r.events.filter((e) => Math.abs(e.t - 1) < 1e-12);
        expect(at1.map((e) => e.name)).toEqual(['floor1', 'floor2', 'tick']);
        expect(r.rows.filter((row) => Math.abs(row[0] - 1) < 1e-12)).toHaveLength(2);
        expect(r.final).toMatchObject({ n: 2, m });
        // x' = 4 - 8 (t - 1) = 2.4 at t = 1.2: a few ulps of the velocities (8)
        for (const v of ["x1'", "x2'"]) expect(Math.abs((r.final[v] as number) - 2.4)).toBeLessThan(1e-14);
      });
    }
  }
});

describe('a body reaching its wall at a tick, a rounding after another wall stops a second body', () => {
  // x1 = s (1 - t) reaches its wall at 0 at t = 1 exactly, where `tick` fires; x2 = s (9 + t)
  // reaches the wall W a rounding before 1 (W = 9.999999999999998 s, its double: t = 1 - 1.8e-15
  // for s = 1). wl bounces x1 back (x1' := -x1'), so x1(1.5) = 0.5 s; wr halves x2' (x2(1.5) =
  // x2 at its wall + 0.25 s). wl fires once, at 1 (with the tick: one instant, or an ulp
  // after). The steppers moved wr's instant to the tick, where x1 stood at exactly 0 (s = 1)
  // or -2e-22 (s = 1e-6), not judged coincident (its side forgotten when its crossing was
  // located in that step; or already across): wl never fired, x1(1.5) = -0.5 s, status ok,
  // on dop853, dopri5 and rodas.
  const model = (s: number, W: string) => `discrete n = 0
x1'' = 0
x2'' = 0
x1(0) = ${s}; x1'(0) = ${-s}
x2(0) = ${9 * s}; x2'(0) = ${s}
event wl when x1 falls do x1' := -x1' end
event wr when ${W} - x2 falls do x2' := -0.5*x2' end
event tick every 0.2 do n := n + 100 end`;
  for (const [s, W] of [
    [1, '9.999999999999998'],
    [1e-6, '0.000009999999999999999'],
  ] as const) {
    for (const method of ['analytic', 'dop853', 'dopri5', 'rodas', 'radau5'] as const) {
      it(`s = ${s}, ${method}: wl fires at 1 and x1(1.5) = 0.5 s`, () => {
        const run = simulate(model(s, W), { to: 1.5, method, rtol: 1e-10, atol: 1e-14 * s });
        expect(run.status).toBe('ok');
        const walls = run.events.filter((e) => e.name !== 'tick');
        expect(walls.map((e) => e.name).sort()).toEqual(['wl', 'wr']);
        // (both within a few ulps of 1: the tie of t)
        for (const e of walls) expect(Math.abs(e.t - 1)).toBeLessThan(4e-15);
        expect(run.final.n).toBe(800);
        // (x1 = 0.5 s after a flight of 0.5 at speed s: rtol 1e-10 of the motion, at most)
        expect(Math.abs((run.final.x1 as number) / s - 0.5)).toBeLessThan(1e-9);
        expect(run.final["x1'"]).toBeCloseTo(s, 12);
      });
    }
  }
});
