/**
 * Round 10: a Marcus flow (`option deltaRule = marcus`) that takes the state near zero keeps
 * its relative accuracy. The u-plus-step form writes y = u + S; the flow moved S from 0 to
 * about -1 to rtol of |S|, and y = u + S = 1 + (-1 + eps) cancelled: at rtol 1e-8 and atol
 * 1e-300, y' = -50 y delta(t - 1) gave y(2) = 4.2e-15 for exp(-50) = 1.9e-22 (status ok, on
 * every method), and y' = -1e8 y^2 delta(t - 1) was 9e-4 off relatively.
 *
 * Exact values (closed forms of the flows over unit pulse time, checked with mpmath at 40
 * digits, its odefun for the nonlinear one):
 * - dy/ds = -r y: y+ = y- exp(-r);
 * - dy/ds = -k y^2: y+ = y-/(1 + k y-);
 * - dy/ds = -k y^3: y+ = y-/sqrt(1 + 2 k y-^2);
 * - two deltas at one instant, -25 y delta(t - 1) - 25 y delta(2t - 2): rates 25 and 12.5
 *   (delta(2t - 2) = delta(t - 1)/2), flows that compose: exp(-37.5);
 * - a run backwards from y(2) = 1 through y' = 50 y delta(t - 1): the flow to s = -1,
 *   exp(-50).
 *
 * Bound: the flow is integrated to a hundredth of the run's tolerances and nothing moves the
 * state between the events (its rate is 0), so 10 (atol + rtol |exact|) covers it, with no
 * term in ulps of the state before the jump: that term was the defect.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const METHODS = ['auto', 'dopri5', 'dop853', 'rodas', 'radau5', 'rk4'] as const;
const TOLERANCES = [
  [1e-8, 1e-300],
  [1e-6, 1e-9],
] as const;
const bound = (exact: number, rtol: number, atol: number) => 10 * (atol + rtol * Math.abs(exact));

const CASES: readonly (readonly [string, string, string, number])[] = [
  ['linear, to exp(-50)', "independent t from 0 to 2\ny' = -50*y*delta(t - 1)\ny(0) = 1", 'y', Math.exp(-50)],
  ['quadratic, to 1/(1e8 + 1)', "independent t from 0 to 2\ny' = -1e8*y^2*delta(t - 1)\ny(0) = 1", 'y', 1 / (1e8 + 1)],
  [
    'cubic, to 1/sqrt(1 + 2e12)',
    "independent t from 0 to 2\ny' = -1e12*y^3*delta(t - 1)\ny(0) = 1",
    'y',
    1 / Math.sqrt(1 + 2e12),
  ],
  [
    'two flows on one level at one instant, to exp(-37.5)',
    "independent t from 0 to 2\ny' = -25*y*delta(t - 1) - 25*y*delta(2*t - 2)\ny(0) = 1",
    'y',
    Math.exp(-37.5),
  ],
  [
    "a second-order state's rate, to exp(-50)",
    "independent t from 0 to 2\nx'' = -50*x'*delta(t - 1)\nx(0) = 0; x'(0) = 1\nv = x'",
    'v',
    Math.exp(-50),
  ],
  ['a run backwards, to exp(-50)', "independent t from 2 to 0\ny' = 50*y*delta(t - 1)\ny(2) = 1", 'y', Math.exp(-50)],
];

describe('a Marcus flow towards zero keeps its relative accuracy', () => {
  it.each(
    CASES.flatMap(([what, model, name, exact]) =>
      TOLERANCES.flatMap(([rtol, atol]) =>
        METHODS.map((method) => [what, method, rtol, atol, model, name, exact] as const),
      ),
    ),
  )('%s (%s, rtol %s, atol %s)', (_what, method, rtol, atol, model, name, exact) => {
    const run = simulate(`option deltaRule = marcus\n${model}`, { method, rtol, atol });
    expect(run.status).toBe('ok');
    expect(Math.abs(run.final[name] - exact)).toBeLessThanOrEqual(bound(exact, rtol, atol));
  });

  it.each(METHODS)(
    'an assignment beside the flow at one instant adds the flow jump, exp(-50) - 1, to it (%s)',
    (method) => {
      // All right-hand sides read the values before the instant: y := 5 and the flow's jump
      // from y- = 1, exp(-50) - 1, take effect together, y+ = 4 + exp(-50) (as before).
      const run = simulate(
        "option deltaRule = marcus\nindependent t from 0 to 2\ny' = -50*y*delta(t - 1)\ny(0) = 1\nevent e at 1 do y := 5 end",
        { method, rtol: 1e-8, atol: 1e-300 },
      );
      expect(run.status).toBe('ok');
      expect(Math.abs(run.final.y - 4)).toBeLessThanOrEqual(10 * 1e-8 * 4);
    },
  );
});

describe('a Marcus flow that grows from far below atol keeps rtol of its own size', () => {
  // y' = 50 y delta(t - 1) multiplies y by e^50 (5.2e21): from y = 1e-12 at the defaults the
  // flow was held to atol (1e-9, a thousand times y) and its error grew with it: 4.75e9 where
  // exact is 5.18e9 (8 %), status ok; backwards from y(2) = 1e-20 with -50, 3.99e-5 for 51.85.
  it.each(METHODS)('%s: e^50 y0 to rtol, forwards and backwards, at the default tolerances', (method) => {
    const forward = simulate(
      "option deltaRule = marcus\nindependent t from 0 to 2\ny' = 50*y*delta(t - 1)\ny(0) = 1e-12",
      {
        method,
      },
    );
    const backward = simulate(
      "option deltaRule = marcus\nindependent t from 2 to 0\ny' = -50*y*delta(t - 1)\ny(2) = 1e-20",
      { method },
    );
    for (const [run, exact] of [
      [forward, 1e-12 * Math.exp(50)],
      [backward, 1e-20 * Math.exp(50)],
    ] as const) {
      expect(run.status).toBe('ok');
      // (the run's rtol, 1e-6, of the result; measured 7.4e-8)
      expect(Math.abs(run.final.y - exact) / exact).toBeLessThan(1e-6);
    }
  });
});
