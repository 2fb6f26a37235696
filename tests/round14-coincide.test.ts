/**
 * Round 14, events that coincide on different scales: a state event and a time event at one
 * instant in exact arithmetic, with t from 1e-305 to 1e12, on every method, each against its
 * exact answer (closed forms; the instants are doubles, so "one instant" is exact).
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const METHODS = ['analytic', 'auto', 'dopri5', 'dop853', 'rk4', 'euler', 'rodas', 'radau5'] as const;

describe('a clock x = t - T reaches zero at the tick at T on the fixed-step methods too', () => {
  // x' = 1, x(0) = -T: x = t - T is zero at t = T exactly, where `at T` ticks: one instant,
  // its events in file order, both reading k = 0 before the round: k = 2 (the analytic path,
  // the adaptive steppers). rk4 and euler take the default fixed step, a thousandth of the
  // range (h = 0.009 for T = 3), and y + h f rounded in each of the 333 steps with the same
  // sign: x was -2.2e-14 at the tick (about 28 ulps of 3 short), so s fired as a separate
  // instant 1.2e-14 after it, ledger T, s and k = 21, status ok; likewise for T from 1e-3 to
  // 1e-305 (any T whose steps' residues do not cancel). With compensated summation x stays
  // within the rounding of one addition of t - T, and the tick and the crossing are one.
  const model = (T: string) => `independent t from 0 to 3*${T}
discrete n = 0, m = 0, k = 0
event s when x rises do n := n + 1; k := k*10 + 1 end
event T at ${T} do m := m + 1; k := k*10 + 2 end
x' = 1
x(0) = -${T}`;
  const Ts = [
    '3',
    '0.7',
    '1e-3',
    '1e-5',
    '1e-7',
    '1e-15',
    '1e-20',
    '1e-50',
    '1e-200',
    '1e-250',
    '1e-300',
    '1e-305',
    '1e6',
  ];
  it.each(Ts.flatMap((T) => METHODS.map((m) => [T, m] as const)))('T = %s, %s', (T, method) => {
    const r = simulate(model(T), { method });
    expect(r.status).toBe('ok');
    expect(r.events.map((e) => [e.name, e.t])).toEqual([
      ['s', Number(T)],
      ['T', Number(T)],
    ]);
    expect(r.final).toMatchObject({ n: 1, m: 1, k: 2 });
  });
});

describe('a tick that lands on a pole of another function exactly: no zero there', () => {
  // x = t - 1 is exactly 0 at the tick at 1 where the steps add up to 1 exactly (rk4 and
  // euler with steps of 0.5 or 0.25, radau5 with steps of at most 0.5). 1/x - 2 goes from
  // -Infinity to +Infinity through its pole there (no crossing, docs/language.md) and falls
  // through 0 at x = 1/2, t = 1.5: exact, the tick at 1, e at 1.5, no f; n = 1. At the tick
  // the function was +Infinity with the bound +Infinity, "within its rounding of zero" and
  // heading down: e joined the tick, ledger e, tick, e and n = 2, status ok.
  const text = `independent t from 0 to 2
discrete n = 0, m = 0, k = 0
event e when 1/x - 2 falls do n := n + 1 end
event f when 1/x - 2 rises do m := m + 1 end
event tick at 1 do k := k + 1 end
x' = 1
x(0) = -1`;
  const cases = [
    ['rk4', { step: 0.5 }],
    ['rk4', { step: 0.25 }],
    ['euler', { step: 0.5 }],
    ['radau5', { maxStep: 0.5 }],
    ['dopri5', { maxStep: 0.5 }],
    ['dop853', { maxStep: 0.5 }],
    ['rodas', { maxStep: 0.5 }],
    ['rk4', {}],
  ] as const;
  it.each(cases)('%s %o', (method, opts) => {
    const r = simulate(text, { method, ...opts });
    expect(r.status).toBe('ok');
    expect(r.events.map((e) => e.name)).toEqual(['tick', 'e']);
    expect(r.events[0].t).toBe(1);
    // x = t - 1 is a line: every method integrates it to the rounding of t
    expect(Math.abs(r.events[1].t - 1.5)).toBeLessThan(1e-14);
    expect(r.final).toMatchObject({ n: 1, m: 0, k: 1 });
  });
});

describe('a clock x = t meets a tick every 0.1 at t = 1000 after 10000 ticks, on every method', () => {
  // x' = 1 from 0: x - 1000 is zero at t = 1000, the 10001st tick of `every 0.1` (ticks at
  // the doubles nearest k/10, 1000 exactly): one instant, s then tick in file order, s reading
  // n = 10000 from before the round. Each tick restarts the stepper, whose first steps after
  // a restart repeat, and y + h f rounded with the same sign in each: x drifted 5e-10 from t
  // by t = 1000 on dop853, rodas and radau5 (4000 ulps of 1000), so s fired 4.9e-10 before
  // the tick (dop853, rodas) or 4.3e-10 after it (radau5: m = 10001), status ok.
  const text = `independent t from 0 to 1000.05
discrete n = 0, m = 0
event s when x - 1000 rises do m := n end
event tick every 0.1 do n := n + 1 end
x' = 1
x(0) = 0`;
  const check = (method: (typeof METHODS)[number]) => {
    const r = simulate(text, { method, eventsOnly: true, maxEvents: 100000 });
    expect(r.status).toBe('ok');
    const i = r.events.findIndex((e) => e.name === 's');
    expect(r.events.slice(i - 1, i + 2).map((e) => [e.name, e.t])).toEqual([
      ['tick', 999.9],
      ['s', 1000],
      ['tick', 1000],
    ]);
    expect(r.final).toMatchObject({ n: 10001, m: 10000 });
    // the clock itself: t = 1000.05 is 1000.0499999999999545 in doubles; x integrates
    // x' = 1 over the steps that add up to it, within a few ulps of 1000 (1.1e-13 each)
    expect(Math.abs(r.final.x - 1000.05)).toBeLessThan(1e-12);
  };
  it.each(METHODS)('%s', check);
  // (Round 15: dop853's weights b1 + b6 + ... + b12 sum to 1 + 4.4e-16 in doubles, so for
  // x' = 1 every step added h (1 + 4.4e-16): it now sums k1 + Σ b_i (k_i - k1). rodas' u-form
  // increment A51 u1 + ... + A54 u4 + u5 + u6 (coefficients near 10) is h (1 - 8.3e-16) in
  // exact arithmetic on the 16-digit coefficients, plus roundings of its own: it now takes the
  // k-form h F1 + h Σ b_j (F_j - F1) + h J w where that rounds less. Both then add the
  // increment compensated. s fired 4.9e-10 (dop853) and 3.8e-10 (rodas) before the tick.)
});

describe('a reset onto a pole: the function is back on the side it fell from', () => {
  // x' = 1 from 0.25: 1/x - 2 falls through 0 at x = 1/2, t = 0.25; the tick at 1 sets
  // x := 0, which puts 1/x - 2 at +Infinity (a pole, no crossing), and it falls through 0
  // again at x = 1/2, t = 1.5: exact n = 2 (and from 0.1 with the tick at 0.9: at 0.4 and
  // 1.4). After the first firing the function was "unturned" (heading on from its zero); the
  // reset's value +Infinity was not judged back on its side, as its tolerance, from its bound,
  // was infinite too: the crossing at 1.5 was taken for the way on from the old zero and lost,
  // n = 1, status ok (dopri5, radau5 with their default steps).
  const text = (x0: string, T: string) => `independent t from 0 to 2
discrete n = 0
event e when 1/x - 2 falls do n := n + 1 end
event r at ${T} do x := 0 end
x' = 1
x(0) = ${x0}`;
  const STEPPERS = METHODS.filter((m) => m !== 'analytic');
  it.each(
    (
      [
        ['0.25', '1', 0.25],
        ['0.1', '0.9', 0.4],
      ] as const
    ).flatMap(([x0, T, t1]) => STEPPERS.map((m) => [x0, T, t1, m] as const)),
  )('x(0) = %s, x := 0 at %s, %s', (x0, T, t1, method) => {
    const r = simulate(text(x0, T), { method });
    expect(r.status).toBe('ok');
    expect(r.events.map((e) => e.name)).toEqual(['e', 'r', 'e']);
    // x = x0 + t and x = t - T are lines: within a few ulps of t on every method
    expect(Math.abs(r.events[0].t - t1)).toBeLessThan(1e-14);
    expect(Math.abs(r.events[2].t - (Number(T) + 0.5))).toBeLessThan(1e-14);
    expect(r.final.n).toBe(2);
  });
});
