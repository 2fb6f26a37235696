/**
 * Round 4 of the delta rules (adversarial variants of rule 1 and rule 6): a root of a time
 * argument a few ulps inside an end of the range counts once; a simple root is judged on the
 * magnitude of the argument's own terms there, not on its largest value over the range.
 *
 * An end sample whose value is zero to rounding (within what a few ulps of t make of it) is a
 * root there; the same nonzero value also made a sign change with its neighbour, which was
 * bisected to a second root a few ulps inside: exp(t) - exp(3 - 1e-14) on [0, 3] had events
 * at 2.99999999999999 and 3, and y(3) twice the weight, with status ok (likewise at the start,
 * and with or without the algebra's exact candidates).
 *
 * Exact: one root r within 1e-14 of the end, of weight 1/|u'(r)|; u' moves relatively by
 * about 1e-14 over that distance, so the bound is 1e-12 relatively. sin(pi t)(2 + cos t) on
 * [0, 2001] has the 2002 roots k = 0..2001 (both ends count), each of weight
 * 1/(pi (2 + cos k)); the sum of 2002 rounded terms is good to about 1e-13 relatively.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, simulate, transformReport } from '../src/index.js';

const run = (argument: string, from: number, to: number, back: boolean) =>
  simulate(
    `independent t from ${from} to ${to}\ny' = delta(${argument})\ny(${from}) = 0`,
    back ? { from: to, to: from, init: { y: 0 }, eventsOnly: true } : { eventsOnly: true },
  );

describe('a root a few ulps inside an end of the range counts once', () => {
  it.each([
    ['exp(t) - exp(3 - 1e-14)', Math.exp(-3)],
    ['(exp(t) - exp(3 - 1e-14))*(2 + sin(t))', Math.exp(-3) / (2 + Math.sin(3))],
    ['exp(t) - exp(1e-15)', 1],
    ['(exp(t) - exp(1e-15))*(2 + sin(t))', 0.5],
    ['(t - 3 + 4e-16)*(2 + sin(t))', 1 / (2 + Math.sin(3))],
    ['(t - 1e-16)*(2 + sin(t))', 0.5],
  ] as const)('delta(%s) on [0, 3]: one event of weight %s', (argument, weight) => {
    for (const back of [false, true]) {
      const r = run(argument, 0, 3, back);
      expect(r.status).toBe('ok');
      expect(r.events).toHaveLength(1);
      expect(Math.abs((back ? -1 : 1) * r.final.y - weight)).toBeLessThanOrEqual(1e-12 * weight);
    }
  });

  it('delta(sin(pi t)(2 + cos t)) on [0, 2001]: the 2002 integers, each once', () => {
    let total = 0;
    for (let k = 0; k <= 2001; k++) total += 1 / (Math.PI * (2 + Math.cos(k)));
    for (const back of [false, true]) {
      const r = run('sin(pi*t)*(2 + cos(t))', 0, 2001, back);
      expect(r.status).toBe('ok');
      expect(r.events).toHaveLength(2002);
      expect(Math.abs((back ? -1 : 1) * r.final.y - total)).toBeLessThanOrEqual(1e-12 * total);
    }
  });
});

/**
 * The note of rule 5 names the levels a weight reads that the same delta makes jump, not
 * the levels the weight changes: `y'' = x*delta'(t - 1)` beside `x' = delta(t - 1)` reads x,
 * and the note said "depends on y" (y is what it changes; y does not jump before y' reads
 * it). y*delta'(t - 1) reads y, and y' through Leibniz's -g'(1) delta(t - 1).
 */
describe('the note of rule 5 names what the weight reads', () => {
  it.each([
    ["x' = delta(t - 1)\ny'' = x*delta'(t - 1)\nx(0) = 0; y(0) = 0; y'(0) = 0", "x*delta'(t - 1)", 'x'],
    ["x' = delta(t - 1)\ny' = (x + y)*delta(t - 1)\nx(0) = 0; y(0) = 0", '(x + y)*delta(t - 1)', 'x, y'],
    ["y'' = y*delta'(t - 1)\ny(0) = 0; y'(0) = 0", "y*delta'(t - 1)", "y, y'"],
  ])('%s', (equations, term, levels) => {
    const model = compileModel(`independent t from 0 to 2\n${equations}`);
    expect(transformReport(model).warnings).toEqual([
      `deltaRule left at delta(t - 1): the weight of ${term} depends on ${levels}, which the same delta makes jump; the weight uses its value just before the event (left limit), y+ = y- + g(y-).`,
    ]);
  });
});

describe("a simple root of a delta's argument that is large elsewhere is not taken for a double one", () => {
  // The test of a zero slope compared u' with the largest |u| over the range: t^20 - 1 is
  // 1e20 at t = 10, and its simple root at 1 (slope 20) was refused as "a multiple root".
  // Each is judged on the magnitude of its own terms there now. y = 1/|u'(r)| exactly.
  const cases: [string, number, number][] = [
    ['t^20 - 1', 10, 1 / 20],
    ['exp(10*t) - exp(10)', 5, 1 / (10 * Math.exp(10))],
    ['exp(40*t) - exp(40)', 2, 1 / (40 * Math.exp(40))],
    ['(t - 1)*exp(t^2)', 6, 1 / Math.E],
    ['tan(pi*t/4) - 1', 1.9, 2 / Math.PI],
  ];
  it.each(cases)("delta(%s) on [0, %s]: one root, weight 1/|u'|", (u, T, exact) => {
    const r = simulate(`independent t from 0 to ${T}\ny' = delta(${u})\ny(0) = 0`);
    expect(r.status, r.message ?? '').toBe('ok');
    // (the root is located to an ulp or so, and u' is evaluated there: a few ulps of the weight)
    expect(Math.abs(r.final.y - exact)).toBeLessThan(1e-12 * exact);
  });

  it('a true double root is still refused, written with or without cancellation', () => {
    for (const u of ['(t - 1)^2', 't*t - 2*t + 1']) {
      const r = simulate(`independent t from 0 to 3\ny' = delta(${u})\ny(0) = 0`);
      expect(r.status, u).toBe('failed');
      expect(r.message, u).toMatch(/multiple root at 1 /);
    }
  });
});
