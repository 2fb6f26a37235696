/**
 * Rules that hold only in a situation (`EQUATION while CONDITION`, symbolic/rules.ts), and
 * the conditions of relations they rest on: checked against closed forms on models small
 * enough to solve by hand.
 */
import { describe, expect, it } from 'vitest';
import { ModelError, simulate, transformModel } from '../src/index.js';
import { formatText, transformReport } from '../src/report/print.js';
import { compileModel } from '../src/codegen/stages.js';

const near = (got: number, want: number, tol: number) =>
  expect(Math.abs(got - want), `${got} vs ${want}`).toBeLessThanOrEqual(tol);
const TIGHT = { rtol: 1e-12, atol: 1e-14 };

function errorOf(text: string): ModelError {
  try {
    compileModel(text, 'm.delta');
  } catch (err) {
    expect(err).toBeInstanceOf(ModelError);
    return err as ModelError;
  }
  throw new Error('expected a ModelError');
}

describe('a named variable defined by rules', () => {
  // F = 2t while t < 1, = 10 while t > 3, and in between keeps 2, its value when the first rule stopped
  const model = [
    'independent t from 0 to 4',
    'situation early = t < 1',
    'situation late = t > 3',
    'F = 2*t while early',
    'F = 10 while late',
    "w' = F",
    'w(0) = 0',
  ].join('\n');

  it("is the active rule's value, and keeps the last one while no rule is active", () => {
    const r = simulate(model, { ...TIGHT, outputStep: 0.5 });
    expect(r.status).toBe('ok');
    const at = (t: number) => r.rows.filter((row) => row[0] === t).at(-1)![r.columns.indexOf('F')];
    near(at(0.5), 1, 1e-12);
    near(at(2), 2, 1e-12);
    near(at(3.5), 10, 1e-12);
    // w = integral of F: t^2 on [0, 1], then 2 per unit to t = 3, then 10 per unit
    near(r.final.w, 1 + 2 * 2 + 10 * 1, 1e-9);
    // one hold per rule that stops inside the range: the first at t = 1; the second never stops
    expect(r.events.map((e) => [e.name, e.t])).toEqual([['F.hold1', 1]]);
    // the held value is not an output of its own
    expect(r.columns).toEqual(['t', 'w', 'F']);
  });

  it('is 0 before any rule has run, as the variables of a rule table start', () => {
    const r = simulate("independent t from 0 to 2\nF = 5 while t > 1\ny' = F\ny(0) = 0", TIGHT);
    near(r.final.y, 5, 1e-9);
    near(r.rows[0][r.columns.indexOf('F')], 0, 0);
  });

  it('holds the value of the rule at the instant it stops, read on the near side (a relation of the state)', () => {
    // x' = 1 from 0; G = 3x while x < 0.5 holds 1.5 from t = 0.5 on; H follows x again from x > 2
    const r = simulate("independent t from 0 to 3\nG = 3*x while x < 0.5\nH = x while x > 2\nx' = 1\nx(0) = 0", TIGHT);
    near(r.final.G, 1.5, 1e-12);
    near(r.final.H, 3, 1e-12);
    near(r.events[0].t, 0.5, 1e-14);
  });

  it('transform shows what the rules became', () => {
    const text = formatText(transformReport(compileModel(model, 'm.delta')));
    expect(text).toContain('F = if early then 2*t else if late then 10 else F.held');
    expect(text).toContain('F.hold1  [state] when early (located where 1 - t crosses 0) falls');
  });
});

describe('rules in for blocks', () => {
  it('each element keeps its own rule and held value', () => {
    // F[i] = i t while t < i, then held at i^2: x[i](3) = i^3/2 + i^2 (3 - i)
    const r = simulate(
      "independent t from 0 to 3\nparameter N = 3\nfor i in 1:N\n  F[i] = i*t while t < i\n  x[i]' = F[i]\n  x[i](0) = 0\nend",
      TIGHT,
    );
    for (const i of [1, 2, 3]) {
      near(r.final[`x[${i}]`], i ** 3 / 2 + i * i * (3 - i), 1e-9);
      near(r.final[`F[${i}]`], i * Math.min(i, 3), 1e-12);
    }
  });
});

describe('a differential equation with while: the integral stops', () => {
  it("w' = 1 while t < 2 stops at 2 and keeps it", () => {
    const r = simulate("independent t from 0 to 5\nw' = 1 while t < 2\nw(0) = 0", TIGHT);
    near(r.final.w, 2, 1e-12);
  });

  it('a second-order equation stops its highest derivative: the velocity is kept, the position goes on', () => {
    // x'' = -9.81 while x' > -3 (a fall up to a terminal speed of 3, then uniform)
    const r = simulate("independent t from 0 to 2\nx'' = -9.81 while x' > -3\nx(0) = 0; x'(0) = 0", TIGHT);
    const t1 = 3 / 9.81;
    near(r.final["x'"], -3, 1e-12);
    near(r.final.x, -0.5 * 9.81 * t1 ** 2 - 3 * (2 - t1), 1e-10);
    expect(
      transformModel("independent t from 0 to 2\nm*x'' = -m*9.81 while x' > -3\nparameter m = 2\nx(0) = 0; x'(0) = 0")
        .equations.length,
    ).toBe(2);
  });

  it('with the derivative on both sides it still means: the highest derivative is zero', () => {
    const r = simulate("independent t from 0 to 4\n2*w' = 1 + w' while t < 1\nw(0) = 0", TIGHT);
    near(r.final.w, 1, 1e-12);
  });
});

describe('mistakes in rules are model errors at their place', () => {
  it('a delta in a rule', () => {
    const e = errorOf("independent t from 0 to 2\nv' = delta(t - 1) while t < 3\nv(0) = 0");
    expect(e.message).toMatch(/^m\.delta:2:6: a delta cannot stand in a rule with while/);
  });
  it('a variable defined both plainly and by rules', () => {
    const e = errorOf("independent t from 0 to 2\nF = 1\nF = 2 while t > 1\ny' = F\ny(0) = 0");
    expect(e.message).toMatch(/^m\.delta:2:1: 'F' is defined without while here and by rules with while \(line 3\)/);
  });
  it('two highest derivatives in one rule', () => {
    const e = errorOf("independent t from 0 to 2\nx' + y' = 1 while t < 1\nx' - y' = 0\nx(0) = 0; y(0) = 0");
    expect(e.message).toMatch(/two highest derivatives/);
  });
  it('a rule without a condition after while', () => {
    expect(() => compileModel("y' = 1 while\ny(0) = 0", 'm.delta')).toThrow(ModelError);
  });
});

describe('conditions of relations as event triggers', () => {
  it('fire at every flip, however long the steps (sin(t) > 0 on [1, 20])', () => {
    const base = "independent t from 1 to 20\ndiscrete n = 0\ny' = 0\ny(1) = 0\n";
    const falls = simulate(`${base}event e when sin(t) > 0 falls do n := n + 1 end`, TIGHT);
    expect(falls.events.map((e) => e.t)).toHaveLength(3);
    falls.events.forEach((e, k) => near(e.t, (2 * k + 1) * Math.PI, 1e-12));
    const crosses = simulate(`${base}event e when sin(t) > 0 crosses do n := n + 1 end`, TIGHT);
    expect(crosses.events).toHaveLength(6);
    crosses.events.forEach((e, k) => near(e.t, (k + 1) * Math.PI, 1e-12));
  });

  it('and/or/not of relations, and situations, flip where the combined condition does', () => {
    // in (0.5, 1) and (2, 2.5) both hold: x = t in (0.5, 2.5) and sin(pi t) > 0 in (0, 1) u (2, 3)
    const r = simulate(
      [
        'independent t from 0 to 3',
        'situation inside = x > 0.5 and x < 2.5',
        'discrete n = 0',
        'event on when inside and sin(pi*t) > 0 rises do n := n + 1 end',
        'event off when not (inside and sin(pi*t) > 0) rises do n := n + 10 end',
        "x' = 1",
        'x(0) = 0',
      ].join('\n'),
      TIGHT,
    );
    expect(r.events.map((e) => e.name)).toEqual(['on', 'off', 'on', 'off']);
    [0.5, 1, 2, 2.5].forEach((t, k) => near(r.events[k].t, t, 1e-12));
    expect(r.final.n).toBe(22);
  });
});

describe('rules that stop at one instant keep the value of the one that gave it (fuzz find while-tie)', () => {
  // x = t: both rules of G stop at t = 1, where G = 3x = 3 (the first active rule); after it G
  // keeps 3. With both holds firing, the last in file set 5.
  const methods = ['auto', 'dopri5', 'dop853', 'rodas', 'radau5', 'rk4'] as const;
  it.each(methods)('%s', (method) => {
    const r = simulate(
      "independent t from 0 to 2\nG = 3*x while x < 1\nG = 5*x while x < 1\nx' = 1\nx(0) = 0\noutput G\n",
      { method },
    );
    expect(r.status).toBe('ok');
    expect(Math.abs((r.final.G as number) - 3)).toBeLessThan(1e-12);
  });

  it('a later rule that stops while an earlier one gives the value holds nothing then; its own stop later does', () => {
    // G = 3x while x < 2 governs until t = 2; rule 2 (x < 1) stops at 1 unseen; after 2, G = 6
    const r = simulate(
      "independent t from 0 to 3\nG = 3*x while x < 2\nG = 5*x while x < 1\nx' = 1\nx(0) = 0\noutput G\n",
    );
    expect(r.status).toBe('ok');
    expect(Math.abs((r.final.G as number) - 6)).toBeLessThan(1e-12);
    // and the other way round: rule 1 (x < 1) stops first, rule 2 (x < 2) then gives 5x until 2
    const s = simulate(
      "independent t from 0 to 3\nG = 3*x while x < 1\nG = 5*x while x < 2\nx' = 1\nx(0) = 0\noutput G\n",
    );
    expect(Math.abs((s.final.G as number) - 10)).toBeLessThan(1e-12);
  });
});

describe('a rule whose condition never holds never holds a value (fuzz find while-touch)', () => {
  // x > 15 and x < 15 is never true: its function -|x - 15| touches zero at t = 1.5 from below.
  // Where a step ended exactly there, the next one started at zero on the side its rate at the
  // kink pointed to (above), and going down looked like the rule stopping: G.hold set G = 45.
  const src = `independent t from 0 to 3.1
parameter k = 10
x' = k
G = 3*x while x > 1.5*k and x < 1.5*k
y' = k while x <= 0.5*k
x(0) = 0; y(0) = 0
output G, y
`;
  it.each(['auto', 'dopri5', 'dop853', 'rodas', 'radau5', 'rk4'] as const)('%s', (method) => {
    const r = simulate(src, { method });
    expect(r.status).toBe('ok');
    expect(r.final.G).toBe(0);
    expect(r.events.map((e) => e.name)).not.toContain('G.hold');
    expect(Math.abs((r.final.y as number) - 5)).toBeLessThan(1e-9);
  });
});
