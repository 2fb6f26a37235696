/**
 * State events whose function jumps across zero at a switch: `step(x) - 0.5`, `sign(x)`, `if
 * x < 0 then -1 else 1`. A jump has no zero to stand at: a ball bouncing on one (`x' :=
 * -0.8*x'` at `step(x) - 0.5 crosses`) failed on every method with "persisting contact ...
 * stays at zero with zero rate" at its first bounce (found by the fuzzer, seed 89). Such a
 * function now stands as its switch's argument, with its sign (transform/condition-
 * functions.ts), and `transform` says so. Each case against its exact event times.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, simulate } from '../src/index.js';
import { parseExpression } from '../src/language/parser.js';
import { toText } from '../src/expression/expr.js';
import { jumpStandIn } from '../src/transform/condition-functions.js';
import { formatText, transformReport } from '../src/report/print.js';

const METHODS = ['auto', 'dopri5', 'dop853', 'rodas', 'radau5', 'rk4'] as const;
const head = (body: string) => `independent t from 0 to 10\ndiscrete n = 0\n${body}`;
/** x'' = -1 from x = 2 at rest, bouncing with e = 0.8: x = 0 at t = 2, then flights of 3.2, 2.56, 2.048 */
const BOUNCES = [2, 5.2, 7.76, 9.808];
/** x = cos t: x = 0 at pi/2 + k pi (a bounce x' := -x' on x'' = -x keeps the same times) */
const COSINE = [Math.PI / 2, (3 * Math.PI) / 2, (5 * Math.PI) / 2];
/**
 * Event times are located to the run's tolerance (default rtol 1e-6, atol 1e-9): on the
 * steppers a crossing of a curve is off by the state's error over its rate, a few 1e-8 here.
 */
const TIME_TOL = 1e-6;

const cases: [string, string, number[]][] = [
  [
    'step crosses, bounce',
    "event hit when step(x) - 0.5 crosses do x' := -0.8*x' end\nx'' = -1\nx(0) = 2; x'(0) = 0",
    BOUNCES,
  ],
  [
    'if crosses, bounce',
    "event hit when (if x < 0 then -1 else 1) crosses do x' := -0.8*x' end\nx'' = -1\nx(0) = 2; x'(0) = 0",
    BOUNCES,
  ],
  [
    'sign crosses, bounce',
    "event hit when sign(x) crosses do x' := -0.8*x' end\nx'' = -1\nx(0) = 2; x'(0) = 0",
    BOUNCES,
  ],
  [
    '0.5 - step rises, bounce',
    "event hit when 0.5 - step(x) rises do x' := -0.8*x' end\nx'' = -1\nx(0) = 2; x'(0) = 0",
    BOUNCES,
  ],
  [
    'step falls, bounce',
    "event hit when step(x) - 0.5 falls do x' := -0.8*x' end\nx'' = -1\nx(0) = 2; x'(0) = 0",
    BOUNCES,
  ],
  [
    'step crosses, passing through',
    "event hit when step(x) - 0.5 crosses do n := n + 1 end\nx'' = -1\nx(0) = 2; x'(0) = 0",
    [2],
  ],
  [
    'step crosses, oscillating',
    "event hit when step(x) - 0.5 crosses do n := n + 1 end\nx'' = -x\nx(0) = 1; x'(0) = 0",
    COSINE,
  ],
  [
    'step crosses, bouncing oscillator',
    "event hit when step(x) - 0.5 crosses do x' := -x' end\nx'' = -x\nx(0) = 1; x'(0) = 0",
    COSINE,
  ],
  [
    'sign crosses, oscillating',
    "event hit when sign(x) crosses do n := n + 1 end\nx'' = -x\nx(0) = 1; x'(0) = 0",
    COSINE,
  ],
];

describe('a function that jumps across zero at a switch stands as the switch argument', () => {
  it.each(cases)('%s: every method gives the exact event times, status ok', (_, body, exact) => {
    const model = compileModel(head(body));
    for (const method of METHODS) {
      const r = simulate(model, { method, eventsOnly: true });
      expect(r.status, `${method}: ${r.message}`).toBe('ok');
      const times = r.events.map((e) => e.t);
      expect(times.length, `${method}: ${times.join(', ')}`).toBe(exact.length);
      times.forEach((t, i) => expect(Math.abs(t - exact[i]), `${method} event ${i}`).toBeLessThan(TIME_TOL));
    }
  });

  it('the bounce on a step is a polynomial root on the analytic path, to rounding', () => {
    const r = simulate(compileModel(head(cases[0][1])), { eventsOnly: true });
    expect(r.stats.method).toBe('analytic');
    // (roots of x = 2 - t^2/2 and of the flights after: exact but for a few ulps)
    r.events.forEach((e, i) => expect(Math.abs(e.t - BOUNCES[i])).toBeLessThan(1e-13));
  });

  it('transform says where the event is located', () => {
    const text = formatText(transformReport(compileModel(head(cases[0][1]))));
    expect(text).toContain('when step(x) - 0.5 (located where x crosses 0) crosses');
    expect(text).toContain('every part in closed form');
  });
});

describe("an action that sets the switch's argument exactly onto zero leaves the jump's side", () => {
  // x := 0 at t = 1: step(x) - 0.5 is step(0) - 0.5 = +0.5 there, as for x > 0: no crossing
  // (the review of this round found n = 1 where the stand-in x was taken as set onto zero);
  // from there x moving down crosses at once, x moving up or at rest never.
  const landing = (condition: string, x0: number, v: number) =>
    `independent t from 0 to 3\ndiscrete n = 0\nevent reset at 1 do x := 0; v := ${v} end\n` +
    `event e when ${condition} do n := n + 1 end\nx' = v\nv' = 0\nx(0) = ${x0}; v(0) = 0`;
  it.each([
    ['step(x) - 0.5 falls', 1, 0, 0],
    ['step(x) - 0.5 crosses', 1, 0, 0],
    ['sign(x) - 0.5 rises', -1, 0, 0],
    ['(if x < 0 then -1 else 1) falls', 1, 0, 0],
    ['step(x) - 0.5 falls', 1, -1, 1],
    ['step(x) - 0.5 falls', 1, 1, 0],
    ['sign(x) - 0.5 rises', -1, 1, 1],
    ['sign(x) - 0.5 rises', -1, -1, 0],
  ] as const)('%s from x = %s, reset to x = 0 moving at %s: n = %s on every method', (condition, x0, v, n) => {
    const model = compileModel(landing(condition, x0, v));
    for (const method of METHODS) {
      const r = simulate(model, { method, eventsOnly: true });
      expect(r.status, `${method}: ${r.message}`).toBe('ok');
      expect(r.final.n, method).toBe(n);
    }
  });

  it('starting exactly at the switch: step(x) - 0.5 falls from x = 0 moving down fires at once', () => {
    const model = compileModel(
      `independent t from 0 to 1\ndiscrete n = 0\nevent e when step(x) - 0.5 falls do n := n + 1 end\nx' = -1\nx(0) = 0`,
    );
    for (const method of METHODS) {
      const r = simulate(model, { method, eventsOnly: true });
      expect(r.status, `${method}: ${r.message}`).toBe('ok');
      expect(r.final.n, method).toBe(1);
    }
  });
});

describe('jumpStandIn', () => {
  const stand = (s: string) => {
    const e = jumpStandIn(parseExpression(s, 'test'));
    return e === null ? null : toText(e.stand);
  };
  const side = (s: string) => jumpStandIn(parseExpression(s, 'test'))?.zeroSide;

  it('takes the argument, or its negative, where the function changes sign at the switch', () => {
    expect(stand('step(x) - 0.5')).toBe('x');
    expect(stand('0.5 - step(x)')).toBe('-x');
    expect(stand('2*step(x - 1) - 1')).toBe('x - 1');
    expect(stand('sign(sin(x))')).toBe('sin(x)');
    expect(stand('-3*sign(x)')).toBe('-x');
    expect(stand('if x < 1 then -1 else 2')).toBe('-(1 - x)');
  });

  it("keeps the jump's side where the stand-in is exactly zero", () => {
    // (step(0) = 1, sign(0) = 0, and an if at equality takes its relation's branch there)
    expect(side('step(x) - 0.5')).toBe(1);
    expect(side('0.5 - step(x)')).toBe(-1);
    expect(side('sign(x)')).toBe(0);
    expect(side('sign(x) - 0.5')).toBe(-1);
    expect(side('if x < 1 then -1 else 2')).toBe(1);
    expect(side('if x <= 1 then -1 else 2')).toBe(-1);
  });

  it('leaves alone what does not jump across zero, or could rest at zero where it never jumps', () => {
    // (0 on one side: a flat zero, which the located-zero rules handle as it stands)
    expect(stand('step(x)')).toBeNull();
    // (never negative)
    expect(stand('step(x) + 0.5')).toBeNull();
    // (max(x, 0) rests at zero for x < 0, where step(max(x, 0)) - 0.5 stays at +0.5)
    expect(stand('step(max(x, 0)) - 0.5')).toBeNull();
    // (two switches, or something that moves beside the switch)
    expect(stand('step(x) + step(y) - 1.5')).toBeNull();
    expect(stand('step(x) - y')).toBeNull();
    expect(stand('if x < 0 then y else 1')).toBeNull();
    // (a condition of several relations: where its truth function is zero, which side holds is
    // not one relation's; located on its own values)
    expect(stand('if x > 0 and y > 0 then 1 else -1')).toBeNull();
    expect(stand('x - 1')).toBeNull();
  });
});
