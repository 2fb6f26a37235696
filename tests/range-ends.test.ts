/**
 * The ends of the range (MODEL-LANGUAGE, "Ends of the range"; docs/language.md): a delta at
 * the start counts fully and a delta at the end counts too, for a delta on the state as for
 * one in time; a state event's crossing that the arithmetic cannot tell from the end is not
 * an event of the range, as one at the start is not. Every method and the analytic path
 * agree (before: y' = delta(x - 1) with x = t on [0, 1] gave y = 1 on the analytic path and
 * y = 0 on dopri5, rodas and radau5, whose x ended a rounding short of 1).
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const METHODS: [string, object][] = [
  ['auto', {}],
  ['analytic', {}],
  ['dopri5', {}],
  ['dop853', { rtol: 1e-10, atol: 1e-12 }],
  ['rodas', {}],
  ['radau5', {}],
  ['rk4', {}],
];

// y jumps by 1/|x'| where x crosses the delta's zero
const deltaModel = (rate: number, to: number, argument: string) => `independent t from 0 to ${to}
x' = ${rate}
x(0) = 0
y' = delta(${argument})
y(0) = 0
output x, y
`;

describe('a delta on the state at an end of the range counts', () => {
  const cases: [string, number, number, string, number][] = [
    ['at the end: delta(x - 1), x = t on [0, 1]', 1, 1, 'x - 1', 1],
    ['at the end, weight 1/3: delta(x - 3), x = 3t on [0, 1]', 3, 1, 'x - 3', 1 / 3],
    ['at the end, x = 0.1 t reaches 0.3 only in rounding: delta(x - 0.3) on [0, 3]', 0.1, 3, 'x - 0.3', 10],
    ['at the start: delta(x), x = 2t', 2, 1, 'x', 0.5],
    ['inside: delta(x - 0.5)', 1, 1, 'x - 0.5', 1],
  ];
  it.each(
    cases.flatMap(([label, rate, to, arg, y]) => METHODS.map(([m, o]) => [label, m, rate, to, arg, y, o] as const)),
  )('%s, %s', (_label, method, rate, to, argument, y, o) => {
    const r = simulate(deltaModel(rate, to, argument), { method: method as never, ...o });
    expect(r.status).toBe('ok');
    // the weight is evaluated on the state at the instant: exact up to a few roundings
    expect(Math.abs((r.final.y as number) - y)).toBeLessThan(1e-12);
    expect(r.events.length).toBe(1);
  });
});

describe('a state event crossing at the end of the range, or at its start, is not an event of it', () => {
  const model = (to: number, condition: string, rate = 1) => `independent t from 0 to ${to}
discrete n = 0
x' = ${rate}
x(0) = 0
event e when ${condition} do n := n + 1 end
output x, n
`;
  const cases: [string, string, number, number][] = [
    ['x - 1 rises on [0, 1]', model(1, 'x - 1 rises'), 0, 0],
    ['x - 0.3 rises on [0, 0.3]', model(0.3, 'x - 0.3 rises'), 0, 0],
    ['x - 0.3 rises with x = 0.1 t on [0, 3]', model(3, 'x - 0.3 rises', 0.1), 0, 0],
    ['x rises on [0, 1] (zero at the start)', model(1, 'x rises'), 0, 0],
    ['x - 0.5 rises on [0, 1] (inside: fires)', model(1, 'x - 0.5 rises'), 1, 0.5],
  ];
  // (rk4's thousand fixed steps add 0.0003 a thousand times: x ends 5e-15 past 0.3, beyond the
  // function's own rounding, and crosses inside the range in its arithmetic)
  const methodsFor = (label: string) => METHODS.filter(([m]) => !(m === 'rk4' && label.includes('0.1 t')));
  it.each(cases.flatMap(([label, src, n, t]) => methodsFor(label).map(([m, o]) => [label, m, src, n, t, o] as const)))(
    '%s, %s',
    (_label, method, src, n, t, o) => {
      const r = simulate(src, { method: method as never, ...o });
      expect(r.status).toBe('ok');
      expect(r.final.n).toBe(n);
      if (n > 0) expect(Math.abs(r.events[0].t - t)).toBeLessThan(1e-12);
    },
  );
});
