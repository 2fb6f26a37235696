/**
 * Events at the limits of what t can resolve (issue 20, items 3 and 10): periods below the
 * resolution of t, a reset by less than its threshold's rounding, and a crossing that falls
 * exactly on the end of the range. Each gets its exact answer or a clear failure, never a
 * wrong count with status ok, never a hang.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { modelErrorOf } from './helpers.js';
import { EVERY_STEPPER } from './methods.js';

describe('a period below the resolution of t is a model error at the event', () => {
  it.each([
    ['every 1e-300 from 1', 'independent t from 0 to 2', 'near 2'],
    ['every 1 from 1e16', 'independent t from 1e16 to 1e16 + 20', 'near 10000000000000020'],
    ['every 0.001 from 1e12', 'independent t from 1e12 to 1e12 + 1', 'near 1000000000001'],
  ])('%s (it repeated t = 1 for ever, or counted 3 of 21 ticks)', (schedule, range, near) => {
    const text = `${range}\ndiscrete n = 0\nevent tick ${schedule} do n := n + 1 end\nx' = 1\nx(${range.split(' ')[3]}) = 0\n`;
    const err = modelErrorOf(text, 'tick.delta');
    expect(err.message).toMatch(
      new RegExp(
        `^tick\\.delta:3:1: the period [\\de.-]+ of event tick is below the resolution of the independent variable ${near}, where instants closer than [\\de.-]+ \\(64 ulps\\) cannot be told apart`,
      ),
    );
  });

  it('a period the arithmetic resolves near 1e12 keeps every tick', () => {
    const run = simulate(
      "independent t from 1e12 to 1e12 + 1\ndiscrete n = 0\nevent tick every 0.125 from 1e12 do n := n + 1 end\nx' = 1\nx(1e12) = 0\n",
    );
    expect(run.status).toBe('ok');
    expect(run.final.n).toBe(9);
  });
});

describe('an action that resets its function by less than its rounding', () => {
  // x := 0.99999999999999 at x - 1 rises: 1e-14 below the threshold, whose rounding is 3.6e-15
  // per term; x reaches 1 again 1e-14 later, and again: no count of these is meaningful
  const text =
    "independent t from 0 to 2\ndiscrete n = 0\nevent e1 when x - 1 rises do x := 0.99999999999999; n := n + 1 end\nx' = 1\nx(0) = 0\n";
  for (const method of ['auto', 'dopri5', 'rodas', 'rk4'] as const)
    it(`${method}: a failure that says why (was x(2) = 2 with status ok: the event never fired again)`, () => {
      const run = simulate(text, { method });
      expect(run.status).toBe('failed');
      expect(run.message).toMatch(
        // (x - 1 is -9.99e-15 after the reset, 45 of its ulps, and the event fires every
        // 9.99e-15, instants 45 ulps of t apart that t tells apart: 1e14 of them on [1, 2]. The
        // analytic path computes x exactly; it said "within 64 ulps of t ... the arithmetic of t
        // cannot separate them", false, until zeno.ts took 4 ulps, the instants' resolution. The
        // steppers said "precision ran out" until round 17: x - 1's bound was 8 ulps of |x| + 1,
        // 3.6e-15, a band of 1.4e-14; the running bound is x's 8 ulps, 1.8e-15, a band of 7.1e-15
        // that the reset's 9.99e-15 leaves. 1e5 events by 1 + 1e5 * 9.99e-15, rk4's t within 1 %)
        /^more than 100000 events by t = 1\.00000000099\d*; raise option maxEvents/,
      );
      expect(run.final.x).toBeLessThan(1);
    });

  it('a reset by 1e-13, which the arithmetic resolves, fires at its pace until the event limit', () => {
    const run = simulate(text.replace('0.99999999999999', '0.9999999999999'), { method: 'dopri5', maxEvents: 1000 });
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/^more than 1000 events by t = 1\.0000000000\d*; raise option maxEvents/);
  });
});

describe('a crossing exactly at the end of the range is not an event of the range, on every method', () => {
  // spheres 4 and 5 of this row meet exactly at t = 2, the end: as a crossing at the start,
  // it belongs to no event of the range (IDERK 5.5.4: kicks at t = 1..5 on [0, 6], none at 6).
  // dopri5 rounded it a few ulps inside and exchanged the velocities; rodas and radau5 did not.
  const row = readFileSync(new URL('./fixtures/row8-end.delta', import.meta.url), 'utf8');
  for (const method of ['dopri5', 'rodas', 'radau5', 'dop853', 'rk4'] as const)
    it(`${method}: four impacts, x[4]' and x[5]' as they arrive`, () => {
      const run = simulate(row, { method, to: 2 });
      expect(run.status).toBe('ok');
      expect(run.events).toHaveLength(4);
      expect(run.final["x[4]'"]).toBe(0.7);
      expect(run.final["x[5]'"]).toBe(0.2);
      // and a range that reaches past t = 2 has the impact, at 2
      const longer = simulate(row, { method, to: 2.5 });
      // (rk4's 800 steps of rounding in the positions put it up to 5e-13 early)
      expect(longer.events.some((e) => e.name === 'c[4]' && Math.abs(e.t - 2) < 1e-11)).toBe(true);
    });
});

describe('a function quiet while the steps grow, then turning fast: every crossing', () => {
  // x' = 1 is integrated exactly, so the steps grow over the quiet part (t < 1); from t = 1
  // the function turns at 1000 rad/s and one step holds dozens of its periods. Sampled in 64
  // pieces it lost crossings (429 of 437 on auto and dopri5, 423 on dop853 and rodas, status
  // ok); a piece that could reach zero is now halved further (StepSamples).
  const model = (g: string) => `independent t from 0 to 3
discrete n = 0
event e when ${g} rises do n := n + 1 end
x' = 1
x(0) = 0
`;
  const exactCount = (f: (t: number) => number): number => {
    // on a grid of 3e6 points: the function is smooth, the crossings 2e-3 apart at least
    let c = 0,
      prev = f(0);
    for (let i = 1; i <= 3e6; i++) {
      const v = f((3 * i) / 3e6);
      if (prev < 0 && v >= 0) c++;
      prev = v;
    }
    return c;
  };
  const cases = [
    ['sin(1000*x) - 0.5 + 2*max(1 - x, 0)', (t: number) => Math.sin(1000 * t) - 0.5 + 2 * Math.max(1 - t, 0)],
    ['sin(3000*x) - 0.9 + 2*max(1 - x, 0)', (t: number) => Math.sin(3000 * t) - 0.9 + 2 * Math.max(1 - t, 0)],
  ] as const;
  const counts = cases.map(([, f]) => exactCount(f));
  const runs = [...EVERY_STEPPER, ['dopri5', { firstStep: 1 }], ['dop853', { firstStep: 1.5 }]] as const;
  it.each(runs.flatMap(([method, options]) => cases.map(([g], i) => [method, options, g, i] as const)))(
    '%s %o: %s',
    (method, options, g, i) => {
      const r = simulate(model(g), { method, ...options, eventsOnly: true });
      expect(r.status).toBe('ok');
      expect(r.final.n).toBe(counts[i]);
    },
  );
});

describe('a pulse narrower than the samples of a step: found with the step bounded below its width', () => {
  // exp(-1e6 (x - 1.5)^2) - 0.5 is above zero on |x - 1.5| < 8.3e-4 only, its rates zero at
  // every sample of a longer step (docs/language.md: what no sample shows is not seen)
  const model = `independent t from 0 to 3
discrete n = 0, tp = -1
event e when exp(-1e6*(x - 1.5)^2) - 0.5 rises do n := n + 1; tp := t end
x' = 1
x(0) = 0
`;
  it.each(EVERY_STEPPER.filter(([m]) => m !== 'rk4'))('%s with maxStep 1e-3', (method, options) => {
    const r = simulate(model, { method, ...options, maxStep: 1e-3, eventsOnly: true });
    expect(r.status).toBe('ok');
    expect(r.final.n).toBe(1);
    // exp(-1e6 s^2) = 1/2 at s = -sqrt(ln 2)/1000
    expect(Math.abs(r.final.tp - (1.5 - Math.sqrt(Math.LN2) / 1000))).toBeLessThan(1e-9);
  });
});
