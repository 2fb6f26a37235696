/**
 * What an instant leaves to the steps after it, on every stepper and both tolerances (the fuzz
 * finds radau5-leave-zero and radau5-coincident-scales, tests/README.md, Fuzzing):
 * - a function that reached zero and sits there (max(h, 0) once h < 0) remembers the side it
 *   came from, also where radau5 places the instant on its solution a little past the zero,
 *   where the function is flat and shows no side: leaving back towards that side is neither
 *   a crossing nor the motion pushing it across (a contact);
 * - samples that stay exactly at a zero are that zero, not crossings from alternate sides
 *   (max(h, 0) rises fired on the plateau after h fell to zero, on every method);
 * - the step after an instant is sized by the motion, not by the step that landed on it
 *   (radau5 retakes its step to land on a crossing; an event 7e-14 after the last one made the
 *   next step as short, and a ball just bounced off a floor at 3026, whose height rounds to
 *   zero for that long, fired again).
 * Times are compared with their closed forms: the zeros of A cos t at pi/2 + k pi, a ball's
 * bounces at t1 (1 + 2 (e + ... + e^(k-1))), t1 = sqrt(2 h0 / g) (fuzz-models.ts, ballBounce).
 */
import { describe, expect, it } from 'vitest';
import { compileModel, Simulator } from '../src/index.js';
import { EVERY_STEPPER } from './methods.js';
import { ballBounce, spherePairsModel, twoBallsModel } from './fuzz-models.js';

const METHODS = EVERY_STEPPER.map(([m]) => m);
const TOLERANCES = [{}, { rtol: 1e-10, atol: 1e-12 }];
const tight = (tol: object) => 'rtol' in tol;
/** the spacing of doubles at x */
const ulp = (x: number) => 2 ** (Math.floor(Math.log2(Math.abs(x))) - 52);

describe('a kinked function of h = A cos t reaches zero, sits there, and leaves it', () => {
  const P = Math.PI;
  // [condition, its events on [0, 10]]: max(h, 0) reaches zero from above at pi/2 and 5 pi/2
  // and leaves it upwards at 3 pi/2 (no crossing: back to the side it came from); min(h, 0)
  // starts at zero, leaves it downwards at pi/2 (not a crossing: zero at the start), reaches it
  // from below at 3 pi/2 and leaves it downwards at 5 pi/2
  const cases: [string, number[]][] = [
    ['max(h, 0) crosses', [P / 2, (5 * P) / 2]],
    ['max(h, 0) falls', [P / 2, (5 * P) / 2]],
    ['max(h, 0) rises', []],
    ['min(h, 0) crosses', [(3 * P) / 2]],
    ['min(h, 0) rises', [(3 * P) / 2]],
    ['min(h, 0) falls', []],
  ];
  const src = (condition: string, A: number) => `independent t from 0 to 10
parameter A = ${A}
discrete n = 0
event e when ${condition} do n := n + 1 end
h' = v; v' = -h
h(0) = A; v(0) = 0
`;
  for (const [condition, times] of cases) {
    const sims = [1, 1e-3, 3000].map((A) => [A, new Simulator(compileModel(src(condition, A)))] as const);
    for (const method of METHODS)
      for (const tol of TOLERANCES)
        it(`${condition}, ${method}${tight(tol) ? ' at rtol 1e-10' : ''}: ${times.length} events at the zeros of h`, () => {
          for (const [A, sim] of sims) {
            // (at tight tolerances atol scales with A: the same relative accuracy at every scale)
            const scaled = tight(tol) ? { rtol: 1e-10, atol: 1e-12 * A } : {};
            const run = sim.run({ method: method as never, ...scaled, record: false });
            expect(run.status, `A = ${A}: ${run.message ?? ''}`).toBe('ok');
            expect(run.final.n, `A = ${A}`).toBe(times.length);
            // A zero of h is located as well as h is integrated, h's error over its rate A:
            // about rtol t for the adaptive methods (measured: 8e-11 at rtol 1e-10, 2e-6 at the
            // defaults), and rk4's fixed step of 0.01 gives 7e-10
            const bound = tight(tol) ? 1e-9 : 1e-5;
            run.events.forEach((e, i) =>
              expect(Math.abs(e.t - times[i]), `A = ${A}, event ${i + 1} at ${e.t}`).toBeLessThan(bound),
            );
          }
        });
  }
});

describe('two balls over floors far apart bounce at the same instants', () => {
  const h0 = 1,
    e = 0.5;
  /** the speed at the k-th bounce */
  const speed = (k: number) => Math.sqrt(2 * 9.81 * h0) * e ** (k - 1);
  for (const [fa, fb] of [
    [0, 3026],
    [3026, 0],
    [1, 3026],
    [0, 1e6],
  ]) {
    const sim = new Simulator(
      compileModel(twoBallsModel(fa, fb, h0, e, (ballBounce(h0, e, 3) + ballBounce(h0, e, 4)) / 2)),
    );
    for (const method of [...METHODS, 'analytic'])
      for (const tol of TOLERANCES)
        it(`floors at ${fa} and ${fb}, ${method}${tight(tol) ? ' at rtol 1e-10' : ''}: three bounces each`, () => {
          const run = sim.run({ method: method as never, ...tol, record: false });
          expect(run.status, run.message ?? '').toBe('ok');
          expect(run.final.hits).toBe(6);
          for (let k = 1; k <= 3; k++) {
            const [p, q] = run.events.slice(2 * k - 2, 2 * k);
            expect([p.name, q.name].sort(), `bounce ${k}`).toEqual(['ba', 'bb']);
            // located to the rounding of the higher ball's height (a few ulps of its floor) at
            // the speed it arrives with: 1e-12 near 3026, 2e-9 near 1e6
            const slack = (16 * ulp(Math.max(fa, fb))) / speed(k);
            for (const ev of [p, q])
              expect(Math.abs(ev.t - ballBounce(h0, e, k)), `${ev.name} ${k} at ${ev.t}`).toBeLessThan(slack);
          }
        });
  }
});

describe('two pairs of spheres far apart collide at one instant, e = 0.5', () => {
  // gaps of 1 closing at 2v, one pair near o1 and one near o2: both impacts at 1/(2v), after
  // which each sphere moves at -e times its speed (Newton's law, equal masses)
  for (const [o1, o2] of [
    [1, 3000],
    [-3000, 3],
    [0, 3026],
  ])
    for (const v of [0.3, 0.7]) {
      const sim = new Simulator(compileModel(spherePairsModel(o1, o2, v, 0.5)));
      for (const method of [...METHODS, 'analytic'])
        for (const tol of TOLERANCES)
          it(`pairs near ${o1} and ${o2} closing at ${2 * v}, ${method}${tight(tol) ? ' at rtol 1e-10' : ''}`, () => {
            const run = sim.run({ method: method as never, ...tol, record: false });
            expect(run.status, run.message ?? '').toBe('ok');
            expect(run.final.hits).toBe(2);
            expect(run.events.map((ev) => ev.name).sort()).toEqual(['c1', 'c3']);
            // (rk4's 670 fixed steps add up the rounding of x near 3000: 3.4e-10 in time)
            for (const ev of run.events) expect(Math.abs(ev.t - 1 / (2 * v))).toBeLessThan(1e-9);
            [v, -v, v, -v].forEach((u, i) =>
              expect(Math.abs(run.final[`x${i + 1}'`] + 0.5 * u), `x${i + 1}'`).toBeLessThanOrEqual(1e-12),
            );
          });
    }
});

describe('a function at zero at an instant, heading away, does not cross in a short step after it', () => {
  // z - 3026 rises through zero at t = 1, with a's instant; a time event 1e-15 later makes a
  // step in which z - 3026 rounds to exactly 0 at every sample. It never falls: b never fires.
  // (With its action setting z to 3026 it forgets its side; without, it sat at zero from below.)
  for (const action of ['; z := 3026', ''])
    for (const method of METHODS)
      for (const tol of TOLERANCES)
        it(`${action ? 'z set at the instant' : 'z left alone'}, ${method}${tight(tol) ? ' at rtol 1e-10' : ''}`, () => {
          const run = new Simulator(
            compileModel(`independent t from 0 to 2
discrete n = 0, m = 0, k = 0
event a when x - 1 rises do n := n + 1${action} end
event b when z - 3026 falls do m := m + 1 end
event tick at 1.000000000000001 do k := k + 1 end
x' = 1; z' = 1
x(0) = 0; z(0) = 3025
`),
          ).run({ method: method as never, ...tol, record: false });
          expect(run.status, run.message ?? '').toBe('ok');
          expect([run.final.n, run.final.m, run.final.k]).toEqual([1, 0, 1]);
          expect(Math.abs(run.events[0].t - 1)).toBeLessThanOrEqual(8 * Number.EPSILON);
        });
});
