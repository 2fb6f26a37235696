/**
 * Round 15, the steppers' increments at the rounding level: dop853 and rodas summed their
 * stages with weights that do not add up to 1 in doubles (dop853: 1 + 4.4e-16) or that cancel
 * (rodas: coefficients near 10, h (1 - 8.3e-16) for x' = 1 even in exact arithmetic on its
 * 16-digit tableau), so every step of a constant f gained or lost the same few ulps of h, and
 * the same first steps after each restart (every tick) drifted one way.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const METHODS = ['dopri5', 'dop853', 'rodas', 'radau5'] as const;
const TOLS = [
  ['default', {}],
  ['rtol 1e-10', { rtol: 1e-10, atol: 1e-12 }],
  ['rtol 1e-12', { rtol: 1e-12, atol: 1e-14 }],
  ['maxStep 0.03', { maxStep: 0.03 }],
] as const;
// (a constant f has a zero error estimate: the tolerances give the same steps, the largest
// growth after each restart; maxStep another sequence of them)
const CASES = METHODS.flatMap((m) => TOLS.map(([name, opts]) => [m, name, opts] as const));

describe('a clock with ticks every 0.1 meets 100 at the tick, at every tolerance', () => {
  // x' = 1 from 0: x = t exactly, so x - 100 is zero at t = 100, the 1001st tick of `every
  // 0.1` (100 exactly): one instant, s (first in the file) then tick; s reads n = 1000 from
  // before the round. Each tick restarts the stepper, and dop853's and rodas' increments
  // rounded the same way in the same steps after each restart: s fired as an instant of its
  // own 2.0e-12 (dop853) and 7.6e-12 (rodas) before the tick, status ok (m = 1000 by luck).
  // Compensated and exact for a constant f, x stays within a few ulps of t (1.4e-14 at 100).
  const text = `independent t from 0 to 100.05
discrete n = 0, m = 0
event s when x - 100 rises do m := n end
event tick every 0.1 do n := n + 1 end
x' = 1
x(0) = 0`;
  it.each(CASES)('%s, %s', (method, _name, opts) => {
    const r = simulate(text, { method, ...opts, eventsOnly: true, maxEvents: 100000 });
    expect(r.status).toBe('ok');
    const i = r.events.findIndex((e) => e.name === 's');
    expect(r.events.slice(i - 1, i + 2).map((e) => [e.name, e.t])).toEqual([
      ['tick', 99.9],
      ['s', 100],
      ['tick', 100],
    ]);
    expect(r.final).toMatchObject({ n: 1001, m: 1000 });
    // t = 100.05 in doubles; x' = 1 integrated over steps that add up to it: a few ulps
    expect(Math.abs(r.final.x - 100.05)).toBeLessThan(1e-13);
  });
});

describe('constant rates on several components over many restarts', () => {
  // x' = 3, y' = -0.7 from 0 with a tick every 0.25 on [0, 50]: x = 3t, y = -0.7t exactly,
  // x(50) = 150, y(50) = -35; 200 restarts. The sum of increments is exact to a few ulps
  // of each once each step's increment is h f with one rounding and the additions are
  // compensated; before, y(50) was 2.6e-13 off on dop853 and x(50) 1.6e-12 on rodas.
  const text = `independent t from 0 to 50
discrete n = 0
event tick every 0.25 do n := n + 1 end
x' = 3
y' = -0.7
x(0) = 0; y(0) = 0`;
  it.each(CASES)('%s, %s', (method, _name, opts) => {
    const r = simulate(text, { method, ...opts, eventsOnly: true });
    expect(r.status).toBe('ok');
    expect(r.final.n).toBe(201);
    expect(Math.abs(r.final.x - 150)).toBeLessThan(1e-13);
    expect(Math.abs(r.final.y + 35)).toBeLessThan(1e-13);
  });
});

describe('rodas where the step is stiff: the increment stays accurate', () => {
  // y' = -1e6 (y - cos t) - sin t, y(0) = 1: y = cos t exactly (the stiff term vanishes on
  // it), |h J| up to 1e6 and more in each step, where the k-form's h J w cancels against h F
  // and rodas takes its u-form increment. At rtol 1e-10 the error stays at the tolerance's
  // scale: |y(10) - cos 10| below 1e-9, with and without restarts every 0.5.
  const model = (tick: boolean) => `independent t from 0 to 10
discrete n = 0
${tick ? 'event tick every 0.5 do n := n + 1 end' : ''}
y' = -1e6*(y - cos(t)) - sin(t)
y(0) = 1`;
  it.each([false, true])('ticks: %s', (tick) => {
    const r = simulate(model(tick), { method: 'rodas', rtol: 1e-10, atol: 1e-12, eventsOnly: true });
    expect(r.status).toBe('ok');
    expect(Math.abs(r.final.y - Math.cos(10))).toBeLessThan(1e-9);
  });
});
