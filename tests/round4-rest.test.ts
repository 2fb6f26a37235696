/**
 * Round 4, a function that reaches its zero and rests there: a draining tank (Torricelli's
 * law), h' = -k sqrt(max(h, 0)), h(0) = 1. Exactly h = (1 - k t / 2)^2 until t = 2 / k, where
 * it reaches 0 with zero rate, and 0 from then on (for h <= 0 the rate is 0): ONE `falls`.
 * Near the zero h is far below atol, and the steppers' solutions there are noise: the event
 * was located a little before the zero (h = +1e-20, the rate -1e-10 heading across: rodas
 * lands there on the solution, dop853's interpolant before its wiggle), and the next step's
 * continuation of that same crossing (rodas), or the interpolant's wiggle above 0 and back
 * (dop853), was counted as a new `falls`: rodas 2 events with status ok, dop853 more than
 * 100000 events or a false `zeno`. The rate of h is never positive: nothing but noise can
 * bring it back above 0, so it never falls again.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type MethodName } from '../src/index.js';

const tank = (k: number) => `independent t from 0 to 30
parameter k = ${k}
event empty when h falls
h' = -k*sqrt(max(h, 0))
h(0) = 1`;

const METHODS: MethodName[] = ['auto', 'dopri5', 'dop853', 'rk4', 'rodas', 'radau5'];
const KS = [0.3, 0.5, 1, 2, 7];
const ATOL = 1e-9;
/** the fixed step of rk4: a thousandth of the range */
const RK4_STEP = 30 / 1000;

/**
 * How far the event may be from 2 / k. Near the zero h = (k/2)^2 (2/k - t)^2, so an error
 * e in h moves its zero by 2 sqrt(e) / k. On the adaptive steppers h's error is held to atol
 * per step there (its rtol part vanishes with h), and the global error is a sum of a few
 * dozen such: e = 100 atol is a generous bound (seen: up to 2.6e-4 at k = 0.5, rtol 1e-10,
 * against 1.3e-3). rk4 takes a fixed step H = 0.03 whose error grows without bound as the
 * solution nears its square-root zero: it reaches zero within its last step or so, and within
 * one step H of 2 / k (seen: up to 6e-3).
 */
const bound = (method: MethodName, k: number) => (method === 'rk4' ? RK4_STEP : (2 * Math.sqrt(100 * ATOL)) / k);

describe('a draining tank reaches empty once, and stays empty', () => {
  for (const method of METHODS)
    for (const rtol of [1e-6, 1e-10])
      it.each(KS)(`${method} at rtol ${rtol}, k = %s: one event, at 2 / k`, (k) => {
        const r = simulate(tank(k), { method, rtol, atol: ATOL, eventsOnly: true });
        expect(r.status, r.message ?? '').toBe('ok');
        expect(r.events.length).toBe(1);
        expect(Math.abs(r.events[0].t - 2 / k)).toBeLessThan(bound(method, k));
        // it stays at 0 (within the tolerance of the noise it was located in) to the end
        expect(r.final.t).toBe(30);
        expect(Math.abs(r.final.h)).toBeLessThan(10 * ATOL);
      });
});

describe('and fills again when the motion says so', () => {
  // The protection above lasts only while the flow has not turned h back: a refill by
  // another event's action, or an inflow that makes the rate positive, lets it fall again.
  const refill = `independent t from 0 to 30
event empty when h falls
event refill at 10 do h := 1 end
h' = -sqrt(max(h, 0))
h(0) = 1`;
  // inflow 1 on 10 < t < 11 from h = 0: with u = sqrt(h), t - 10 = -2u - 2 ln(1 - u), so
  // u(11) solves -2u - 2 ln(1 - u) = 1 (mpmath: 0.69829043731566...); then h drains to 0 at
  // 11 + 2 u(11)
  const inflow = `independent t from 0 to 30
event empty when h falls
h' = -sqrt(max(h, 0)) + step(t - 10) - step(t - 11)
h(0) = 1`;
  const u11 = 0.698290437315664;
  it.each(METHODS)('%s: the refilled tank empties again at 12', (method) => {
    const r = simulate(refill, { method, atol: ATOL, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.events.map((e) => e.name)).toEqual(['empty', 'refill', 'empty']);
    expect(Math.abs(r.events[2].t - 12)).toBeLessThan(bound(method, 1));
  });
  it.each(METHODS)('%s: the tank fed on 10 < t < 11 empties again at 11 + 2 u(11)', (method) => {
    const r = simulate(inflow, { method, atol: ATOL, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.events.length).toBe(2);
    expect(Math.abs(r.events[1].t - (11 + 2 * u11))).toBeLessThan(bound(method, 1));
  });
});
