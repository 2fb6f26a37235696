/**
 * Round 5, the analytic engine's two loops agree. A run that records nothing (record: false,
 * eventValues: false) takes the engine's one-event loop (`simple`), every other run the
 * general instant. The general instant judged the right-hand sides an event's actions change
 * (`k := 0` under x' = 1/k: Infinity at that instant) and the loop did not, so the same model
 * failed at t = 1 with the true cause when it recorded rows, and at the end of the range with
 * "x is Infinity ... left the range of double precision" when it did not.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const divided = `independent t from 0 to 3
discrete k = 1
x' = 1/k
x(0) = 0
event e when x - 1 rises do k := 0 end`;

describe('a right-hand side an action makes infinite, on both loops of the analytic path', () => {
  it.each([
    ['rows and ledger', {}],
    ['nothing recorded', { record: false, eventValues: false }],
  ])('%s: fails at the instant, naming the right-hand side', (_label, options) => {
    const r = simulate(divided, options);
    expect(r.stats.method).toBe('analytic');
    expect(r.status).toBe('failed');
    expect(r.message).toContain("the right-hand side of x' (1/k) is Infinity at t = 1");
    // x = t reaches 1 at t = 1 exactly (a degree-1 root)
    expect(r.final.t).toBe(1);
    expect(r.final.x).toBe(1);
  });

  it('an event whose actions change no motion (a counter) runs on, on both loops', () => {
    const model = `independent t from 0 to 3
discrete n = 0
x' = 1
x(0) = 0
event e when x - 1 rises do n := n + 1 end
output x, n`;
    for (const options of [{}, { record: false, eventValues: false }]) {
      const r = simulate(model, options);
      expect(r.status).toBe('ok');
      expect(r.final.n).toBe(1);
      expect(r.final.x).toBe(3);
    }
  });
});

describe('a switch on the other side of a located zero, on both loops of the analytic path', () => {
  // x'' = -4x - 0.5x' from x = 1000: x falls through zero at t1 = (pi - atan(w/0.25))/w,
  // w = sqrt(63/16), and rises through it half a period later, where e1 turns x' so that x
  // falls again at once: e2 (x falls, the same zeros) fires at that instant too, as a
  // thermostat's other switch does. The one-event loop (nothing recorded) missed it: 4
  // events, n = 22 (exact 5, n = 32); the general instant then took its residue (4.2e-13, the
  // location's) for a crossing to come and failed with a false persisting contact.
  const w = Math.sqrt(63 / 16);
  const t1 = (Math.PI - Math.atan(w / 0.25)) / w,
    t2 = t1 + Math.PI / w,
    t3 = t2 + Math.PI / w;
  it.each([
    ['rows and ledger', {}],
    ['nothing recorded', { record: false, eventValues: false }],
  ])('%s', (_label, options) => {
    const r = simulate(
      `independent t from 0 to 5
discrete n = 0
event e1 when x rises do x' := -x'; n := n + 1 end
event e2 when x falls do n := n + 10 end
x'' = -4*x - 0.5*x'
x(0) = 1e3; x'(0) = 0
output x, n`,
      options,
    );
    expect(r.stats.method).toBe('analytic');
    expect(r.status).toBe('ok');
    expect(r.events.map((e) => e.name)).toEqual(['e2', 'e1', 'e2', 'e1', 'e2']);
    // (a root of a damped rotation, to some ulps of t)
    const exact = [t1, t2, t2, t3, t3];
    r.events.forEach((e, i) => expect(Math.abs(e.t - exact[i])).toBeLessThan(1e-14 * 5));
    expect(r.final.n).toBe(32);
  });
});
