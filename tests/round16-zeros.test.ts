/**
 * Round 16, "its zero was located here" decided by the value, not by the text of the expression.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type SimulateOptions } from '../src/index.js';

type Method = NonNullable<SimulateOptions['method']>;

const METHODS: Method[] = ['auto', 'analytic', 'dopri5', 'dop853', 'rodas', 'radau5'];
const TOLERANCES = [{}, { rtol: 1e-12, atol: 1e-14 }] as const;

// x'' = -4x - 0.5x' + delta(t - 1), x(0) = 0.3, x'(0) = 0.25 (seed 606). x' falls through zero at
// t0 = 0.18867968536970380 (mpmath, 40 digits: the root of x'(t) = e^(-t/4)(...) near 0.19);
// e2 (`x' crosses`) fires there and x := 0 leaves x = x' = 0, an equilibrium: nothing moves
// until the kick at t = 1 sets x' from 0 to 1, back to the side it came from (no rise). e1's
// function has the zeros of x' (x' falls there, so e1, a `rises` or its mirror, does not
// fire), and it stays at that zero until the kick, which moves it off zero towards the side it
// came from: no crossing. Exact: events e2 at t0 and the delta at 1; x(1) = 0, x'(1) = 1.
// Before: at e2's instant the function of e1 got only its rate times the rounding of t as its
// zero band (WatchEntry.zeroOf, the text, did not relate 2x' to x'), was neither held nor
// given the location's band, and its residue's side (x' = -2.7e-17 on dop853) made the kick a
// rise: e1 and e2 fired at t = 1, x'(1) = -1, status ok, on every method; radau5 at rtol 1e-12
// fired e1 at t = 0.917 on the residue's motion and failed.
const model = (e1: string) => `independent t from 0 to 1
event e1 when ${e1} do x := x - 0.5; x' := -x' end
event e2 when x' crosses do x := 0 end
x'' = -4*x - 0.5*x' + delta(t - 1)
x(0) = 0.3; x'(0) = 0.25
output x, x'
`;
const T0 = 0.1886796853697038;
// The location of t0, a simple zero of x' with rate x'' = -1.3: the integrated x' there is off
// by the stepper's global error, up to some 1e-8 at the default tolerances (rtol 1e-6; 6.3e-9
// measured on dopri5) and 1e-14 at rtol 1e-12, over that rate.
const within = (tol: object) => ('rtol' in tol ? 1e-9 : 1e-6);

describe("a function with the zeros of x', not its text, at the zero x' crosses located", () => {
  const variants = ["2*x' rises", "-x' falls", "x'/3 rises", "x' + 0 rises", "x'*(1 + x*x) rises"];
  for (const e1 of variants)
    for (const method of METHODS) {
      // (x'*(1 + x*x) is no closed form: not on the analytic path)
      if (method === 'analytic' && e1.includes('x*x')) continue;
      for (const tol of TOLERANCES)
        it(`${e1}, ${method}${'rtol' in tol ? ', rtol 1e-12' : ''}: e2 once, e1 never, x'(1) = 1`, () => {
          const r = simulate(model(e1), { method, ...tol });
          expect(r.status, r.message ?? '').toBe('ok');
          expect(r.events.map((e) => e.name)).toEqual(['e2', 'delta(t - 1)']);
          expect(Math.abs(r.events[0].t - T0)).toBeLessThan(within(tol));
          // (x and x' at rest at 0 until the kick: the location's residue, below 1e-15)
          expect(Math.abs(r.final.x)).toBeLessThan(1e-12);
          expect(Math.abs(r.final["x'"] - 1)).toBeLessThan(1e-12);
        });
    }
});

describe("control: x' - 1e-3 is not at the zero located there, and rises at the kick", () => {
  // x' - 1e-3 falls through zero just before t0 (no rise) and is -1e-3 at e2's instant, far
  // beyond what the location leaves (1e-16): not at that zero. The kick sends it from -1e-3 to
  // 0.999, a rise: e1 fires at t = 1 (x := -0.5, x' := -1), which sends x' from 1 to -1 across
  // zero: e2 fires (x := 0). Exact: e2 at t0, the delta, e1 and e2 at 1; x(1) = 0, x'(1) = -1.
  for (const method of METHODS)
    for (const tol of TOLERANCES)
      it(`${method}${'rtol' in tol ? ', rtol 1e-12' : ''}: e1 at the kick`, () => {
        const r = simulate(model("x' - 1e-3 rises"), { method, ...tol });
        expect(r.status, r.message ?? '').toBe('ok');
        expect(r.events.map((e) => [e.name, e.t === 1 ? 1 : 'other'])).toEqual([
          ['e2', 'other'],
          ['delta(t - 1)', 1],
          ['e1', 1],
          ['e2', 1],
        ]);
        expect(Math.abs(r.events[0].t - T0)).toBeLessThan(within(tol));
        expect(Math.abs(r.final.x)).toBeLessThan(1e-12);
        expect(Math.abs(r.final["x'"] + 1)).toBeLessThan(1e-12);
      });
});
