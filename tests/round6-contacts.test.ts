/**
 * The event core's rules for a function an action sets onto its zero at rest, found in the
 * sixth round by the differential oracle (tests/differential.test.ts): the analytic path and
 * the steppers disagreed, each in one direction, and a detector was called a contact.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const METHODS = ['analytic', 'dopri5', 'dop853', 'rk4', 'rodas', 'radau5'] as const;

describe('a ball lowered onto the floor at rest by a reset is in contact there', () => {
  // x' = v, v' = -2, x(1) = 1, v(1) = 0 (the apex; exact in doubles); `tm` lowers x by 1 onto
  // the floor: at zero at rest, its impact e1 (x crosses, v := -0.8 v) fires and leaves v = 0,
  // and gravity pushes it on across from the side it came from. That is a persisting contact
  // (as after a plastic impact), not a flight through the floor: the analytic path let it
  // fall to x(2) = -1 with status ok.
  const apex = (at: number) =>
    at === 0
      ? 'independent t from 0 to 2\nevent e1 when x crosses do v := -0.8*v end\nevent tm at 0 do x := x - 1 end\n' +
        "x' = v\nv' = -2\nx(0) = 1; v(0) = 0\noutput x, v"
      : 'independent t from 0 to 2\nevent e1 when x crosses do v := -0.8*v end\nevent tm at 1 do x := x - 1 end\n' +
        "x' = v\nv' = -2\nx(0) = 0; v(0) = 2\noutput x, v";

  it('analytic, at t = 1: the persisting contact, after tm and e1', () => {
    const r = simulate(apex(1), { method: 'analytic' });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^persisting contact at t = 1: after event e1/);
    expect(r.events.map((e) => `${e.name}@${e.t}`)).toEqual(['tm@1', 'e1@1']);
  });

  it.each(METHODS)('%s, at the start: the persisting contact at t = 0, on every method', (method) => {
    const r = simulate(apex(0), { method });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^persisting contact at t = 0: after event e1/);
    expect(r.events.map((e) => `${e.name}@${e.t}`)).toEqual(['tm@0', 'e1@0']);
  });
});

describe('a detector set onto its zero at rest and pushed on across has crossed once', () => {
  // The same motion with a detector (n := n + 1 at x falls): its actions do not touch x's
  // motion, so there is no contact; x crosses once, at t = 1, and falls to x(2) = -1. The
  // analytic path said "persisting contact" (a false diagnosis).
  const text =
    'independent t from 0 to 2\ndiscrete n = 0\nevent e1 when x falls do n := n + 1 end\n' +
    "event tm at 1 do x := x - 1 end\nx' = v\nv' = -2\nx(0) = 0; v(0) = 2\noutput x, v, n";
  it.each(METHODS)('%s: one event at t = 1, x(2) = -1', (method) => {
    const r = simulate(text, { method });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.final.n).toBe(1);
    // (the steppers' x at the apex carries their error: the crossing within a few ulps of 1)
    expect(Math.abs(r.events[1].t - 1)).toBeLessThan(1e-15);
    expect(Math.abs(r.final.x + 1)).toBeLessThan(1e-14);
  });
});

describe('an ambiguity at the end of the range ends nothing', () => {
  // y = t reaches 1 at the end, t = 1, where tm and a delta act on x: y*y - 1 is zero within
  // its rounding after the instant, heading across. A crossing that cannot be told from the
  // end is no event of the range; the analytic path failed with "precision ran out".
  // Exactly: tm at 0, 0.5, 1 and the delta at 1; x'' = t + delta(t - 1), x'(0) = 0.25:
  // x(1) = 1e-3 + 0.25 + 1/6 - 1.5 = -1.0823333...
  const text =
    'independent t from 0 to 1\nevent e1 when y*y - 1 rises do x := 0 end\n' +
    "event tm every 0.5 do x := x - 0.5 end\nx'' = y + delta(t - 1)\nx(0) = 1e-3; x'(0) = 0.25\n" +
    "y' = 1\ny(0) = 0\noutput x, y";
  it.each(['analytic', 'dop853', 'rk4'] as const)('%s: ok, e1 not fired, x(1) exact', (method) => {
    const r = simulate(text, { method });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.events.map((e) => e.name)).toEqual(['tm', 'tm', 'tm', 'delta(t - 1)']);
    expect(Math.abs(r.final.x - (1e-3 + 0.25 + 1 / 6 - 1.5))).toBeLessThan(1e-14);
  });
});

describe('lowered onto the floor at rest: the motion decides later, on the steppers', () => {
  // x = 1 at rest until tm lowers it onto the floor at t = 0.5 (x = 0 exactly, v = 0); e1
  // fires there. At t = 1 a force switches on (step(t - 1)): pulling it down into the floor
  // is a persisting contact for an impact; pulling it back up is a flight, x = (t - 1)^2,
  // x(2) = 1, v(2) = 2; and a detector (n := n + 1) pulled down crossed once, x(2) = -1.
  // The steppers called all three a persisting contact: the side it came from (x = 1, before
  // the reset) was not kept, and a detector was taken for an impact.
  const text = (force: string, action: string) =>
    `independent t from 0 to 2\ndiscrete n = 0\nevent e1 when x crosses do ${action} end\n` +
    `event tm at 0.5 do x := x - 1 end\nx' = v\nv' = ${force}*step(t - 1)\nx(0) = 1; v(0) = 0\noutput x, v, n`;
  const STEPPERS = METHODS.filter((m) => m !== 'analytic');

  it.each(STEPPERS)('%s: an impact pulled down: the persisting contact at t = 1', (method) => {
    const r = simulate(text('-2', 'v := -0.8*v'), { method });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^persisting contact at t = 1: after event e1/);
  });
  it.each(STEPPERS)('%s: an impact pulled back up: a flight, x(2) = 1, v(2) = 2', (method) => {
    const r = simulate(text('2', 'v := -0.8*v'), { method });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.events.map((e) => `${e.name}@${e.t}`)).toEqual(['tm@0.5', 'e1@0.5']);
    // (a parabola from the switch at t = 1, which the steppers locate to a few ulps)
    expect(Math.abs(r.final.x - 1)).toBeLessThan(1e-13);
    expect(Math.abs(r.final.v - 2)).toBeLessThan(1e-13);
  });
  it.each(STEPPERS)('%s: a detector pulled down: crossed once, x(2) = -1', (method) => {
    const r = simulate(text('-2', 'n := n + 1'), { method });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.final.n).toBe(1);
    expect(Math.abs(r.final.x + 1)).toBeLessThan(1e-13);
  });
});
