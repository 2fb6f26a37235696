/**
 * Round 4, grazing crossings on the steppers. A spring against a wall (W2, IDERKSolve 5.5.1):
 * x' = y, y' = -x, y := -0.9 y where x reaches 0.5. Each impact leaves the amplitude closer to
 * 0.5, and the impacts graze: the k-th comes at speed 0.9^(k-1) sqrt(3)/2 and reaches only
 * about y^2 past the wall. A stepper whose tolerance cannot tell such an approach from a
 * miss either missed it (dopri5 at rtol 1e-6: 63 of 100 impacts by t = 600, dop853: 89,
 * status ok, the final state off by 0.03) or placed it on the falling side of its peak and
 * turned the motion into the wall (radau5: "persisting contact", a false diagnosis). A step
 * that dips across zero and back by less than the tolerance on the function now ends the run
 * there: "crossing not resolved at these tolerances", with the rtol that would resolve it.
 * The closed form (auto: the analytic path) gives all 100.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type MethodName } from '../src/index.js';

const wall = `independent t from 0 to 600
event wall when x - 0.5 rises do y := -0.9*y end
x' = y;  y' = -x
x(0) = 0; y(0) = 1`;

describe('grazing impacts: counted, or the run says the tolerance cannot tell', () => {
  const exact = simulate(wall, { eventsOnly: true });

  it('the analytic path (auto) gives all 100 impacts', () => {
    expect(exact.stats.method).toBe('analytic');
    expect(exact.status).toBe('ok');
    expect(exact.events.length).toBe(100);
  });

  const STEPPERS: MethodName[] = ['dopri5', 'dop853', 'rodas', 'radau5'];
  it.each(STEPPERS)('%s at rtol 1e-6: never a short count with status ok', (method) => {
    const r = simulate(wall, { method, eventsOnly: true });
    expect(r.status).toBe('failed');
    expect(r.message).toContain('crossing not resolved at these tolerances');
    expect(r.message).toContain('across zero and back');
    // every impact before it is one of the exact ones, in order: each within 0.5 of its own
    // (impacts come about 2 pi apart; the phase error of rtol 1e-6 over 300 units is ~1e-2)
    expect(r.events.length).toBeGreaterThan(50);
    r.events.forEach((e, i) => expect(Math.abs(e.t - exact.events[i].t), `${method} #${i + 1}`).toBeLessThan(0.5));
    // it stops at the approach of the next exact impact, the one it cannot resolve
    expect(Math.abs(r.final.t - exact.events[r.events.length].t)).toBeLessThan(0.5);
  });

  it.each(['dopri5', 'dop853'] as const)('%s at rtol 1e-12: all 100 impacts, status ok', (method) => {
    const r = simulate(wall, { method, rtol: 1e-12, atol: 1e-14, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.events.length).toBe(100);
    // the last impacts come at speeds of 2.6e-5: their times are known to rtol / speed^2 or so
    r.events.forEach((e, i) => expect(Math.abs(e.t - exact.events[i].t)).toBeLessThan(1e-3));
  });

  it('a crossing that the tolerance resolves is still found: a ball over a ledge it clears by 1e-3', () => {
    // h(t) = 1 - (t - 1)^2 peaks at 1; the ledge at 0.999 is crossed twice, at 1 -+ sqrt(1e-3)
    const r = simulate(
      `independent t from 0 to 2
discrete n = 0
event over when h - 0.999 crosses do n := n + 1 end
h' = v; v' = -2
h(0) = 0; v(0) = 2`,
      { method: 'dopri5', eventsOnly: true },
    );
    expect(r.status).toBe('ok');
    expect(r.final.n).toBe(2);
    expect(Math.abs(r.events[0].t - (1 - Math.sqrt(1e-3)))).toBeLessThan(1e-12);
  });
});
