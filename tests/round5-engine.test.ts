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
