/**
 * A value an action sums onto its zero carries the rounding of its terms (EVENTS.md 1 and 2;
 * driver/action-residue.ts). `x := x + 0.5` where the stepper left x = -0.49999999999999994
 * writes 5.55e-17, one ulp of the terms -0.5 and 0.5, while x's own bound, |x| times a few
 * ulps, is 1e-31: the residue was taken for a side. x lifted from below onto its zero at rest
 * crossed (the language's rule, as round10-zerorate's `x := 0` set by a state event: n = 1),
 * but was judged not to (n = 0, dop853, rodas, radau5), or to have crossed onto +5.55e-17,
 * was armed there and fell back across at once (n = 2, rk4, dopri5), all with status ok.
 * (round11-residue's deltas are the same motion with the sum in x = u + S, which the
 * function's own bound sees.) Exact answers by hand: x = x0 + v0 t + a t^2 / 2, lifted or
 * lowered by what it lacks of zero where v = 0, a parabola from zero after. The assignments
 * that are no sum of x's terms (`x := 1e-20`) are the controls: their value is off zero.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { ALL_METHODS, expectZeroSet, FOUR_TOLERANCES, type ZeroSetVariant } from './zero-set-cases.js';

const METHODS = ALL_METHODS;
const TOLERANCES = FOUR_TOLERANCES;
type Variant = ZeroSetVariant;

/** x' = v, v' = a from (x0, v0); where v passes 0 (t = -v0/a), `action`; e1 watches x in `event` */
const summed = (event: string, action: string, a: number, x0: number, v0: number, extra = '') =>
  `independent t from 0 to 2
discrete n = 0
event e1 when x ${event} do n := n + 1 end
event e2 when v ${a < 0 ? 'falls' : 'rises'} do ${action} end
${extra}x' = v
v' = ${a}
x(0) = ${x0}; v(0) = ${v0}
`;

const variants: Variant[] = [
  // x = -1 + t - t^2/2 is -0.5 at t = 1 (v = 0): lifted onto 0 from below at rest it crossed,
  // x = -(t - 1)^2/2 after falls back without crossing: n = 1, x(2) = -0.5
  { name: 'lifted from below, falls back', model: summed('crosses', 'x := x + 0.5', -1, -1, 1), n: 1, x: -0.5 },
  // the same beside a state no event reads (other steps, other residues)
  {
    name: 'the same beside an unrelated state',
    model: summed('crosses', 'x := x + 0.5', -1, -1, 1, "w' = -w\nw(0) = 1\n"),
    n: 1,
    x: -0.5,
  },
  // the mirror: x = t - t^2/2 is 0.5 at t = 1, lowered onto 0, falls on: x(2) = -0.5
  { name: 'lowered from above, falls on', model: summed('crosses', 'x := x - 0.5', -1, 0, 1), n: 1, x: -0.5 },
  // x = -t + t^2/2 is -0.5 at t = 1 (v rises there), lifted onto 0, rises on: x(2) = 0.5
  { name: 'lifted from below, rises on', model: summed('crosses', 'x := x + 0.5', 1, 0, -1), n: 1, x: 0.5 },
  // x = t^2/2 - t + 1 is 0.5 at t = 1, lowered onto 0 and back up: crossed down, x(2) = 0.5
  { name: 'lowered from above, back up', model: summed('crosses', 'x := x - 0.5', 1, 1, -1), n: 1, x: 0.5 },
  // a weight that is no dyadic: x(0.3) = -0.745 + 0.09 - 0.045 = -0.7, lifted by 0.7, then
  // x = -(t - 0.3)^2/2: x(2) = -1.445
  { name: 'a weight of 0.7', model: summed('crosses', 'x := x + 0.7', -1, -0.745, 0.3), n: 1, x: -1.445 },
  // instants that are no dyadic, where the analytic path's closed form leaves x an ulp of its
  // terms off -w (n = 0 with status ok before): x = -0.39 + 0.6 t - t^2 is -0.3 at t = 0.3,
  // x(2) = -(1.7)^2 = -2.89; x = -0.545 + 0.7 t - t^2/2 is -0.3 at 0.7, x(2) = -0.845
  { name: 'lifted at t = 0.3', model: summed('crosses', 'x := x + 0.3', -2, -0.39, 0.6), n: 1, x: -2.89 },
  { name: 'lifted at t = 0.7', model: summed('crosses', 'x := x + 0.3', -1, -0.545, 0.7), n: 1, x: -0.845 },
  // in a direction: lifted from below it rose, never fell; lowered from above it fell
  { name: 'rises, lifted from below', model: summed('rises', 'x := x + 0.5', -1, -1, 1), n: 1, x: -0.5 },
  { name: 'falls, lifted from below', model: summed('falls', 'x := x + 0.5', -1, -1, 1), n: 0, x: -0.5 },
  { name: 'falls, lowered from above', model: summed('falls', 'x := x - 0.5', -1, 0, 1), n: 1, x: -0.5 },
  { name: 'rises, lowered from above', model: summed('rises', 'x := x - 0.5', -1, 0, 1), n: 0, x: -0.5 },
  // a sum that is no accumulator (another event assigns x, at t = 3, outside the range): the
  // assignment computes the same sum
  {
    name: 'a plain assignment of the sum',
    model: summed('crosses', 'x := x + 0.5', -1, -1, 1, 'event e3 at 3 do x := 0 end\n'),
    n: 1,
    x: -0.5,
  },
  // the sum of another state's terms: y moves as x does, x := y + 0.5 is the same value
  {
    name: 'the sum of another state',
    model: summed('crosses', 'x := y + 0.5', -1, -1, 1, "y' = v\ny(0) = -1\n"),
    n: 1,
    x: -0.5,
  },
  // two events adding a quarter each at the instant: -0.5 + 0.25 + 0.25 = 0
  {
    name: 'two additions at one instant',
    model: summed('crosses', 'x := x + 0.25', -1, -1, 1, 'event e3 when v falls do x := x + 0.25 end\n'),
    n: 1,
    x: -0.5,
  },
  // controls, off zero after the action: x = 1e-20 - (t - 1)^2/2 crossed up at 1 and back down
  // at 1 + 1.4e-10 (n = 2), x(2) = 1e-20 - 0.5; x := x + 0.5 + 1e-9 the same at 1 + 4.5e-5
  { name: 'an assignment off zero', model: summed('crosses', 'x := 1e-20', -1, -1, 1), n: 2, x: -0.5 },
  {
    name: 'a sum off zero',
    model: summed('crosses', 'x := x + 0.5 + 1e-9', -1, -1, 1),
    n: 2,
    x: 1e-9 - 0.5,
  },
];

/**
 * A control: truth values read a count that actions bring down to 0 (c := c - 1, a sum that
 * cancels): their conditions flip at the count's threshold, which is no rounding of theirs.
 * c is 1 from x = 1 (t = 1) and 0 from t = 2, where `c <= 0 rises` (n + 1) and `c >= 1 falls`
 * (n + 10) fire once each: n = 11.
 */
const counted = `independent t from 0 to 3
discrete c = 2
discrete n = 0
event tick when x - 1 crosses do c := c - 1 end
event tock when x - 2 crosses do c := c - 1 end
event e when c <= 0 rises do n := n + 1 end
event f when c >= 1 falls do n := n + 10 end
x' = 1
x(0) = 0
`;

describe('truth values reading a count an action brings to 0', () => {
  for (const method of METHODS)
    it(`n = 11: ${method}`, () => {
      const r = simulate(counted, { method, eventsOnly: true });
      expect(r.status, r.message ?? '').toBe('ok');
      expect(r.final.n).toBe(11);
      expect(r.final.c).toBe(0);
    });
});

describe('a value an action sums onto its zero', () => {
  for (const v of variants)
    for (const tol of TOLERANCES)
      for (const method of METHODS)
        it(`${v.name}: ${method}, ${tol.name} tolerances`, () => expectZeroSet(v, method, tol.opts));
});

/**
 * Not the action's residue: the rate's. `x := 0` where v falls through 0 at an instant that
 * is no double: v = 3.9 - 3t at t = 1.3 (x = -0.3 there) reads -4.4e-16 from its closed form,
 * v = 0.9 - 3t at 0.3 reads +1.1e-16, a residue on the scale of v's terms (3.9, 0.9) that the
 * rate's bound, |v| times a few ulps, takes for motion: x set onto its zero from below at rest
 * crossed (n = 1, x = -1.5 (t - t*)^2 after), but the analytic path judged it heading down,
 * not crossed (n = 0, status ok), or heading up and back across at once (a false "persisting
 * contact"). The steppers' event iteration measured the rate's own band (driver/rate-band.ts);
 * the analytic path's now does too (analytic/fire.ts, rateBand: |R'| over the tie tolerance,
 * R' from the function's Taylor coefficients), and its prediction from that zero takes the
 * rate within that band for zero (engine.ts, predictOne).
 */
const setOnZero = (x0: number, v0: number) => summed('crosses', 'x := 0', -3, x0, v0);
const rateResidues: Variant[] = [
  { name: 'x := 0 at t = 1.3', model: setOnZero(-2.835, 3.9), n: 1, x: -0.735 },
  { name: 'x := 0 at t = 0.3', model: setOnZero(-0.435, 0.9), n: 1, x: -4.335 },
];

describe("a rate's residue at a non-dyadic instant", () => {
  for (const v of rateResidues)
    for (const method of METHODS) it(`${v.name}: ${method}`, () => expectZeroSet(v, method));
});
