/**
 * Round 19: crossings that coincide in exact arithmetic but whose certified roots are a few ulps
 * apart in doubles, on the analytic path. The language (docs/language.md, events): instants
 * closer than 4 ulps of t are one instant, processed in file order, and every stepper does so;
 * the analytic path fired commuting ones as two instants (the ledger out of file order, four
 * rows where the stepper writes two). Exact answers by rational arithmetic (Python fractions):
 * every level below is met at its time exactly, a*T^2 = h etc. as the decimals are written.
 * Tolerances: a root rounded in doubles is a few ulps of t (4.4e-16 at 3.3), so 2e-15 for a
 * time; values of order 10 after a few products and one advance, 1e-13.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const near = (t: number, T: number, tol = 2e-15) => Math.abs(t - T) < tol;

describe('three commuting crossings (t^2, t, t^3 forms) equal in rationals: one instant', () => {
  // x1 = a t^2, x2 = b t, x3 = c t^3 reach h = a 3.3^2, k = 3.3 b and q = c 3.3^3 at t = 3.3
  // exactly (a = c = 0.001, b = 0.002, h = 0.01089, k = 0.0066, q = 0.035937 as written). In
  // doubles the root of a t^2 - h is 3.3000000000000003, the others 3.3: the analytic path gave
  // e2, e3 at 3.3 and e1 2 ulps later, two instants, the ledger out of file order, four rows.
  // Exactly: e1, e2, e3 at 3.3, one instant, two rows there, n = 111.
  const MODEL = `independent t from 0 to 3.8
parameter a = 0.001, b = 0.002, c = 0.001, h = 0.01089, k = 0.0066, q = 0.035937
discrete n = 0
x1'' = 2*a
x2'' = 0
x3''' = 6*c
x1(0) = 0; x1'(0) = 0; x2(0) = 0; x2'(0) = b; x3(0) = 0; x3'(0) = 0; x3''(0) = 0
event e1 when x1 - h rises do n := n + 1 end
event e2 when x2 - k rises do n := n + 10 end
event e3 when x3 - q rises do n := n + 100 end`;
  it.each(['analytic', 'dop853'] as const)('%s: e1, e2, e3 at 3.3, two rows there, n = 111', (method) => {
    const run = simulate(MODEL, { method, rtol: 1e-12, atol: 1e-14 });
    expect(run.status).toBe('ok');
    expect(run.final.n).toBe(111);
    expect(run.events.map((e) => e.name)).toEqual(['e1', 'e2', 'e3']);
    // (one instant: one time for all three; the stepper's location to its tolerance)
    expect(new Set(run.events.map((e) => e.t)).size).toBe(1);
    expect(near(run.events[0].t, 3.3, method === 'analytic' ? 2e-15 : 1e-10)).toBe(true);
    expect(run.rows.filter((row) => Math.abs(row[0] - 3.3) < 1e-9)).toHaveLength(2);
  });
});

describe('two crossings 1e-13 apart in rationals stay two instants', () => {
  // x1 = a t^2 reaches h at 3.3, x2 = b t reaches k = 0.0066000000000002 at 3.3000000000001
  // (k/b exactly): 1e-13 apart, 230 ulps of t, far beyond the tie (4 ulps, 2.9e-15). e2 is
  // first in the file; the instants come in time order, each at its own time to its rounding.
  const MODEL = `independent t from 0 to 3.8
parameter a = 0.001, b = 0.002, h = 0.01089, k = 0.0066000000000002
discrete n = 0
x1'' = 2*a
x2'' = 0
x1(0) = 0; x1'(0) = 0; x2(0) = 0; x2'(0) = b
event e2 when x2 - k rises do n := n + 10 end
event e1 when x1 - h rises do n := n + 1 end`;
  it('analytic: e1 at 3.3, then e2 at 3.3000000000001, four rows', () => {
    const run = simulate(MODEL, { method: 'analytic' });
    expect(run.status).toBe('ok');
    expect(run.final.n).toBe(11);
    expect(run.events.map((e) => e.name)).toEqual(['e1', 'e2']);
    expect(near(run.events[0].t, 3.3)).toBe(true);
    expect(near(run.events[1].t, 3.3000000000001)).toBe(true);
    expect(run.events[1].t - run.events[0].t).toBeGreaterThan(9e-14);
    expect(run.rows.filter((row) => Math.abs(row[0] - 3.3) < 1e-12)).toHaveLength(4);
  });
});

describe('a crossing joined to an instant a rounding before its root', () => {
  // A ball x = x0 + v0 t - t^2 (g = 2) and a counter y = b t reaching k. Fired with the other
  // crossing a rounding before its own root, the joined function must be treated as at its
  // zero (its root divided out, as for a function fired at its root), not predicted to cross
  // again an ulp later.
  const ball = (x0: string, v0: string, k: string, to: number) => `independent t from 0 to ${to}
parameter g = 2, b = 0.002, k = ${k}
discrete n = 0
x' = v
v' = -g
y'' = 0
x(0) = ${x0}; v(0) = ${v0}; y(0) = 0; y'(0) = b
event bounce when x falls do v := -v; n := n + 1 end
event e2 when y - k rises do n := n + 10 end`;

  it('analytic: the ball, joined early, bounces away (x0 = 8.58, v0 = 0.7: lands at 3.3)', () => {
    // Exactly: x(3.3) = 8.58 + 2.31 - 10.89 = 0, v = -5.9, and y = k at 3.3: bounce, e2 in one
    // instant (the analytic path gave e2 at 3.3 and the bounce at 3.3000000000000003, two
    // instants, out of file order). v = 5.9 after; the next landing at 3.3 + 5.9 = 46/5; at
    // t = 10, x = 5.9 (0.8) - 0.64 = 102/25, v = 43/10, y = 1/50, n = 12.
    const run = simulate(ball('8.58', '0.7', '0.0066', 10), { method: 'analytic' });
    expect(run.status).toBe('ok');
    expect(run.events.map((e) => e.name)).toEqual(['bounce', 'e2', 'bounce']);
    expect(run.events[0].t).toBe(run.events[1].t);
    expect(near(run.events[0].t, 3.3)).toBe(true);
    expect(near(run.events[2].t, 9.2, 1e-14)).toBe(true);
    expect(run.rows.filter((row) => Math.abs(row[0] - 3.3) < 1e-12)).toHaveLength(2);
    expect(run.final.n).toBe(12);
    expect(Math.abs((run.final.x as number) - 102 / 25)).toBeLessThan(1e-13);
    expect(Math.abs((run.final.v as number) - 4.3)).toBeLessThan(1e-13);
  });

  it('analytic: the counter, joined early, keeps going and does not fire again (x0 = 13.94, lands at 4.1)', () => {
    // Exactly: x(4.1) = 13.94 + 2.87 - 16.81 = 0 and y = 0.0082 at 4.1; in doubles the
    // counter's root is 4.1000000000000005, the ball's 4.1: once two instants, four rows.
    // Joined early, y - k sits a rounding below zero, still rising: it has crossed, once. The
    // next landing at 4.1 + 7.5 = 58/5; at t = 12, x = 71/25, v = 67/10, y = 3/125, n = 12.
    const run = simulate(ball('13.94', '0.7', '0.0082', 12), { method: 'analytic' });
    expect(run.status).toBe('ok');
    expect(run.events.map((e) => e.name)).toEqual(['bounce', 'e2', 'bounce']);
    expect(run.events[0].t).toBe(run.events[1].t);
    expect(near(run.events[0].t, 4.1)).toBe(true);
    expect(near(run.events[2].t, 11.6, 1e-14)).toBe(true);
    expect(run.rows.filter((row) => Math.abs(row[0] - 4.1) < 1e-12)).toHaveLength(2);
    expect(run.final.n).toBe(12);
    expect(Math.abs((run.final.x as number) - 71 / 25)).toBeLessThan(1e-13);
    expect(Math.abs((run.final.v as number) - 6.7)).toBeLessThan(1e-13);
    expect(Math.abs((run.final.y as number) - 3 / 125)).toBeLessThan(1e-16);
  });
});

describe('a tick and a crossing that commute, equal in rationals, a rounding apart in doubles', () => {
  // x = 0.3 - 0.1 t falls through 0 at t = 3 exactly; `at 3` ticks there. In doubles the root
  // is 2.9999999999999996 (1 ulp before 3): the analytic path fired e there and tk at 3, two
  // instants, the ledger out of file order, four rows. The language and the stepper: one
  // instant at the tick's time, tk then e, two rows, n = 11.
  const model = (c: string, T: string) => `independent t from 0 to 10
discrete n = 0
x' = -0.1
x(0) = ${c}
event tk at ${T} do n := n + 1 end
event e when x falls do n := n + 10 end`;
  for (const [c, T] of [
    ['0.3', '3'],
    ['0.7', '7'],
  ] as const)
    it.each(['analytic', 'dop853'] as const)(`%s: x(0) = ${c}, at ${T}: one instant at ${T}`, (method) => {
      const run = simulate(model(c, T), { method, rtol: 1e-12, atol: 1e-14 });
      expect(run.status).toBe('ok');
      expect(run.final.n).toBe(11);
      expect(run.events.map((e) => e.name)).toEqual(['tk', 'e']);
      for (const e of run.events) expect(e.t).toBe(Number(T));
      expect(run.rows.filter((row) => Math.abs(row[0] - Number(T)) < 1e-12)).toHaveLength(2);
      // (x' = -0.1 over 10: -0.7 + c to a few roundings)
      expect(Math.abs((run.final.x as number) - (Number(c) - 1))).toBeLessThan(1e-15);
    });
});

describe('two decays of linear blocks that cross their levels at one time in exact arithmetic', () => {
  // x1' = -2 x1 and x2' = -5 x2 from 1 reach 0.5 and 0.5^2.5 at t = ln(2)/2 exactly (e^{-2t} =
  // 1/2 and e^{-5t} = 2^{-5/2}); in doubles the roots are 0.34657359027997264 and
  // 0.3465735902799727 (1 ulp apart): once two instants, e1 and e2, four rows. Exactly: one
  // instant, e1 then e2 (file order), n = 11, and at t = 3, x1 = e^{-6}, x2 = e^{-15}.
  const MODEL = `independent t from 0 to 3
parameter a = 2, b = 5
discrete n = 0
x1' = -a*x1
x2' = -b*x2
x1(0) = 1; x2(0) = 1
event e1 when x1 - 0.5 falls do n := n + 1 end
event e2 when x2 - 0.5^(b/a) falls do n := n + 10 end`;
  it('analytic: e1, e2 at ln(2)/2, one instant', () => {
    const run = simulate(MODEL, { method: 'analytic' });
    expect(run.status).toBe('ok');
    expect(run.final.n).toBe(11);
    expect(run.events.map((e) => e.name)).toEqual(['e1', 'e2']);
    expect(run.events[0].t).toBe(run.events[1].t);
    expect(near(run.events[0].t, Math.log(2) / 2, 1e-15)).toBe(true);
    expect(run.rows.filter((row) => Math.abs(row[0] - Math.log(2) / 2) < 1e-12)).toHaveLength(2);
    // (the closed form e^{-a t} to a few ulps of itself)
    expect(Math.abs((run.final.x1 as number) / Math.exp(-6) - 1)).toBeLessThan(1e-14);
    expect(Math.abs((run.final.x2 as number) / Math.exp(-15) - 1)).toBeLessThan(1e-13);
  });
});

describe('an action on a linear block beside a polynomial one that an action scales (off topic, the differential oracle)', () => {
  // (DIFF_N=600 DIFF_SEED=7, reduced) y' = -k y + 2, z' = y is a linear block (exp of a
  // matrix), x'' = -9.81 + delta(t - 1) a polynomial one. e2 scales x (x := 1e-6 x, a
  // coefficient risk) and writes y: the check for coefficients that lost range called the
  // linear block's range guard, which does not exist (null): "TypeError: guards[groups[a]] is
  // not a function", thrown out of simulate(). Exactly (mpmath, k = 2): z - 2 rises at
  // T = 2.4956012572496677; at t = 5, y = 1.0066335300595764, z = 4.997683234970212 and
  // x = -89.57216456952622 (x(T) scaled by 1e-6, then its fall at -9.81 T + 1).
  it('analytic: ok, the exact state at t = 5', () => {
    const run = simulate(
      `independent t from 0 to 5
parameter k = 1
event e2 when z - 2 rises do x := 1e-6*x; y := y + 1 end
x'' = -9.81 + delta(t - 1)
x(0) = 0; x'(0) = 0
y' = -k*y + 2
z' = y
y(0) = 0; z(0) = 1e-3`,
      { method: 'analytic', set: { k: 2 } },
    );
    expect(run.status).toBe('ok');
    expect(run.events.map((e) => e.name)).toEqual(['delta(t - 1)', 'e2']);
    expect(Math.abs(run.events[1].t - 2.4956012572496677)).toBeLessThan(1e-14);
    // (exp(A h) and the root to a few ulps of values of order 1 to 100)
    expect(Math.abs((run.final.y as number) - 1.0066335300595764)).toBeLessThan(1e-14);
    expect(Math.abs((run.final.z as number) - 4.997683234970212)).toBeLessThan(1e-13);
    expect(Math.abs((run.final.x as number) - -89.57216456952622)).toBeLessThan(1e-12);
  });
});
