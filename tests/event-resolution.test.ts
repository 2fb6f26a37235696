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
        `^tick\\.delta:3:1: the period [\\de.-]+ of event tick is below the resolution of the independent variable ${near}, where doubles are [\\de.-]+ apart: its instants cannot be told apart`,
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
        method === 'auto'
          ? /^events of e1 come 9\.99\d*e-15 apart at t = 1\.0000000000000\d*, within 64 ulps of t, and their pace does not shrink \(no accumulation\)/
          : /^precision ran out at t = 1(\.0*\d*)?: after e1, the function of event e1 \(x - 1\) is -9\.99\d*e-15, within its own rounding/,
      );
      expect(run.final.x).toBeLessThan(1);
    });

  it('a reset by 1e-13, which the arithmetic resolves, fires at its pace until the event limit', () => {
    const run = simulate(text.replace('0.99999999999999', '0.9999999999999'), { method: 'dopri5', maxEvents: 1000 });
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/^more than 1000 events by t = 1\.0000000000\d*; raise option maxEvents/);
  });
});

describe('a crossing exactly at the end of the range fires there', () => {
  // spheres 4 and 5 of this row meet exactly at t = 2; rodas and radau5 rounded the gap a few
  // ulps past zero at the end and dropped the impact (velocities not exchanged), status ok
  const row = readFileSync(new URL('./fixtures/row8-end.delta', import.meta.url), 'utf8');
  for (const method of ['dopri5', 'rodas', 'radau5', 'dop853'] as const)
    it(`${method}: five impacts, the last at t = 2, x[4]' and x[5]' exchanged`, () => {
      const run = simulate(row, { method, to: 2 });
      expect(run.status).toBe('ok');
      expect(run.events).toHaveLength(5);
      const last = run.events[4];
      expect(last.name).toBe('c[4]');
      expect(Math.abs(last.t - 2)).toBeLessThan(1e-13);
      expect(Math.abs(run.final["x[4]'"] - 0.2)).toBeLessThan(1e-14);
      expect(Math.abs(run.final["x[5]'"] - 0.7)).toBeLessThan(1e-14);
    });
});
