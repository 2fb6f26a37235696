/**
 * Coincident events (round 8): two state events whose functions are one quantity at their
 * crossing, written differently, fire at one instant on every stepper.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { simulate, type MethodName } from '../src/index.js';
import { ROOT } from './helpers.js';

describe('a function equal to a fired one at the instant, to the bit, crosses with it', () => {
  // examples/hoop_rules.delta: as the hoop leaves the floor (h = R), RmH.hold and four more
  // fire on R - h, and Fy_spring.hold2 (speed-up ends) on min(min(R - h, Vy), -min(R - h, -Vy)),
  // which is R - h there (Vy > 0): the same zero. Exactly (mpmath: a fall to h = R at
  // sqrt(3/9.81), a quarter oscillation of the 60000 spring to Vy = 0, the 45000 spring back
  // to h = R), the hoop leaves at 0.566895470991224857. On rodas and radau5 at the example's
  // own tolerances (rtol 1e-10, atol 1e-12) Fy_spring.hold2 was located a rounding after the
  // others, reads RmH.held, which RmH.hold writes, so it could not join them as a commuting
  // event: "precision ran out ... write the model so that this quantity is computed without
  // cancellation" (rodas at t = 0.567, radau5 at 2.375), where dopri5 fires all of them at once.
  const model = readFileSync(`${ROOT}examples/hoop_rules.delta`, 'utf8');
  const leave = 0.566895470991224857;
  const reference = simulate(model, { method: 'dopri5', eventsOnly: true });
  it.each(['rodas', 'radau5', 'dopri5'] as MethodName[])('%s: ok, hold2 with the others at each leave', (method) => {
    const r = simulate(model, { method, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.events.map((e) => e.name)).toEqual(reference.events.map((e) => e.name));
    const hold2 = r.events.filter((e) => e.name === 'Fy_spring.hold2');
    const rmh = r.events.filter((e) => e.name === 'RmH.hold');
    expect(hold2.map((e) => e.t)).toEqual(rmh.map((e) => e.t));
    // Bar: 1e-9, ten times rtol over the fall and two spring phases (measured 2e-13 .. 7e-13).
    expect(Math.abs(hold2[0].t - leave)).toBeLessThan(1e-9);
  });
});

/** MODEL-LANGUAGE.md's array example, as written there. */
const LANGUAGE_ROW = `model Row
independent t from 0 to 40
parameter N = 4, m = 1, e = 1, L = N + 1
parameter v0[1:N] = [0.3, -0.1, 0.7, 0.2]  # literal: exactly N values (N = 4 here)
parameter k[1:N] = [1 + i/N for i in 1:N]   # comprehension
discrete hits = 0
event wl when x[1] falls do hits := hits + 1 end
event wr when x[N] - L rises do hits := hits + 1 end
for i in 1:N-1
  event c[i] when x[i+1] - x[i] falls do hits := hits + 1 end
  J[i] = (1 + e)*m/2*(x[i]' - x[i+1]')
end
m*x[1]'' = -J[1]*delta(t - c[1]) - (1 + e)*m*x[1]'*delta(t - wl)
for i in 2:N-1
  m*x[i]'' = J[i-1]*delta(t - c[i-1]) - J[i]*delta(t - c[i])
end
m*x[N]'' = J[N-1]*delta(t - c[N-1]) - (1 + e)*m*x[N]'*delta(t - wr)
for i in 1:N
  x[i](0) = i; x[i]'(0) = v0[i]
end
E = sum(i in 1:N, m*x[i]'^2/2)
output x[1], x[N], E, hits
`;

describe("the language description's row: a wall and two spheres meet at one instant", () => {
  // MODEL-LANGUAGE.md's array example, as written there. Exactly (fractions, the language's
  // rounds: every action of a round reads the values before it): at t = 30 spheres 1 and 2
  // reach the wall x = 0 together (v1 = -0.2, v2 = -0.3), and the instant resolves as
  // {wl, c[1]} in one round (v1 = 0.1, v2 = -0.2: the gap closing), then c[1], wl, c[1] (v1 =
  // 0.1, v2 = 0.2 after); at t = 40, x = (1, 1, 2, 2), v = (0.7, 0.1, 0.2, 0.1), E = 11/40,
  // and 34 impacts before it (c[1]'s and c[3]'s crossings at t = 40 exactly are at the end of
  // the range, no events of it). The steppers' rounding places c[1] and wl at t = 30 farther
  // apart than their tie, and they fire one after the other, as the language allows for
  // interacting events a rounding separates: c[1], wl, c[1], wl (v1 = 0.2, v2 = 0.3 after), at
  // t = 40 x = (1, 2, 2, 3), E = 0.315, also 34 impacts. The analytic path had put c[1], wl
  // and c[1] an ulp apart and then found wl again an ulp after its own firing: "persisting
  // contact ... x[1] stays at zero", although c[1] had sent sphere 1 back at the wall. (Until
  // round 19 it too gave the one-after-the-other answer: its rounding put c[1] 3.6e-14 before
  // wl at t = 30, beyond the tie of 2.7e-14; joining commuting crossings within the tie, c[3]
  // at t = 10 with wl, moved that rounding, and it now meets the exact instant.)
  const model = LANGUAGE_ROW;
  it.each(['dopri5', 'rodas'] as MethodName[])('%s: ok, 34 impacts, one after the other at t = 30', (method) => {
    const r = simulate(model, { method, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.final.hits).toBe(34);
    const atThirty = r.events.filter((e) => Math.abs(e.t - 30) < 1e-9).map((e) => e.name);
    expect(atThirty.sort()).toEqual(['c[1]', 'c[1]', 'wl', 'wl']);
    // Bar: 1e-9 (the steppers' rtol 1e-6 over 34 linear flights is exact to rounding: measured
    // 1e-14 on every path).
    expect(Math.abs(r.final['x[1]'] - 1)).toBeLessThan(1e-9);
    expect(Math.abs(r.final['x[4]'] - 3)).toBeLessThan(1e-9);
    expect(Math.abs(r.final.E - 0.315)).toBeLessThan(1e-12);
  });
  it('auto (analytic): ok, 34 impacts, the exact instant at t = 30 and the exact state at t = 40', () => {
    const r = simulate(model, { eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.stats.method).toBe('analytic');
    expect(r.final.hits).toBe(34);
    const atThirty = r.events.filter((e) => Math.abs(e.t - 30) < 1e-9);
    expect(atThirty.map((e) => e.name)).toEqual(['wl', 'c[1]', 'c[1]', 'wl', 'c[1]']);
    expect(new Set(atThirty.map((e) => e.t)).size).toBe(1);
    // Bar: 1e-12 (exact to the rounding of 34 straight flights)
    expect(Math.abs(r.final['x[1]'] - 1)).toBeLessThan(1e-12);
    expect(Math.abs(r.final['x[4]'] - 2)).toBeLessThan(1e-12);
    expect(Math.abs(r.final.E - 11 / 40)).toBeLessThan(1e-12);
  });
});

/** Spheres 1 and 2 (x1 = 0.6 - 0.2 t, x2 = 0.9 - 0.3 t) reaching the wall x = 0 together at t = 3, restitution e. */
function twoAtTheWall(e: number): string {
  return `independent t from 0 to 10
parameter e = ${e}
discrete hits = 0
event wl when x1 falls do hits := hits + 1; v1 := -e*v1 end
event c1 when x2 - x1 falls do hits := hits + 1; v1 := v1 - (1 + e)/2*(v1 - v2); v2 := v2 + (1 + e)/2*(v1 - v2) end
x1' = v1; x2' = v2; v1' = 0; v2' = 0
x1(0) = 0.6; x2(0) = 0.9; v1(0) = -0.2; v2(0) = -0.3
`;
}

describe('an impact another event of its instant turns back fires again', () => {
  // Spheres 1 and 2 (x1 = 0.6 - 0.2 t, x2 = 0.9 - 0.3 t, e = 1) reach the wall x = 0 together
  // at t = 3, exactly in doubles on the analytic path and dopri5. wl and c1 fire in one round,
  // every action reading the values before it: wl sets v1 = 0.2 and c1, later in the file,
  // v1 = -0.3, v2 = -0.2. The round leaves sphere 1 at the wall moving into it: wl's impact was
  // undone, and it fires again (then c1, then wl: v1 = 0.2, v2 = 0.3, five impacts; energy
  // kept). Both paths had left wl out of event iteration because it fired in the round, and
  // sphere 1 passed through the wall: x1(10) = -2.1, x2(10) = -1.4, status ok (exact 1.4, 2.1).
  const model = twoAtTheWall(1);
  it.each(['auto', 'dopri5', 'rodas', 'radau5', 'dop853'] as MethodName[])(
    '%s: the spheres leave the wall',
    (method) => {
      const r = simulate(model, { method, eventsOnly: true });
      expect(r.status, r.message ?? '').toBe('ok');
      // (bar 1e-12: straight flights, exact to the rounding of a few products)
      expect(Math.abs(r.final.v1 - 0.2)).toBeLessThan(1e-12);
      expect(Math.abs(r.final.v2 - 0.3)).toBeLessThan(1e-12);
      expect(Math.abs(r.final.x1 - 1.4)).toBeLessThan(1e-12);
      expect(Math.abs(r.final.x2 - 2.1)).toBeLessThan(1e-12);
      // five where the two meet at one double of t (one round, then three), four where the
      // stepper's rounding puts them ulps apart (rodas: wl, c1, wl, c1, one after the other)
      expect([4, 5]).toContain(r.final.hits);
      expect(r.events.every((e) => Math.abs(e.t - 3) < 1e-12)).toBe(true);
    },
  );
});

describe('an impact another event of its instant turns back: inelastic (e = 0.5)', () => {
  // The same two spheres at e = 0.5. In one round (every action reading the values before it)
  // wl gives v1 = 0.1 and c1, later in the file, v1 = -0.275, v2 = -0.225; then wl, c1, wl, c1
  // one by one (fractions): six impacts, v1 = 133/2560, v2 = 159/2560 after. The second round's
  // wl turned c1's gap back (its rate 0.05 to -0.3625) while the gap read 3.3e-16, the residue
  // of its location: judged on the rate after the first round, that residue was no longer
  // "at zero", c1 did not fire again, and sphere 2 passed through sphere 1 (x2(10) = -1.575 <
  // x1(10) = 0.9625, status ok). A located zero's residue is now taken before any action.
  const model = twoAtTheWall(0.5);
  it.each(['auto', 'dopri5'] as MethodName[])('%s: one instant, six impacts, exact velocities', (method) => {
    const r = simulate(model, { method, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.final.hits).toBe(6);
    // (bar 1e-12: products of a few decimals)
    expect(Math.abs(r.final.v1 - 133 / 2560)).toBeLessThan(1e-12);
    expect(Math.abs(r.final.v2 - 159 / 2560)).toBeLessThan(1e-12);
  });
  it.each(['rodas', 'radau5', 'dop853'] as MethodName[])('%s: no sphere passes another or the wall', (method) => {
    // (their rounding puts the impacts ulps apart, one after the other: another resolution of
    // the same instant, as valid physically; what must never be is a pass-through)
    const r = simulate(model, { method, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.final.x1).toBeGreaterThanOrEqual(0);
    expect(r.final.x2).toBeGreaterThanOrEqual(r.final.x1);
  });
});

describe("a held residue stays held when another instant only scales its function's rate", () => {
  // (the differential oracle, seed 101) z' = x - z falls through 2 at t1 = 0.99999811485 at a
  // rate of -1e6 (x is about -1e6): e1 sets x := 0 (and a delta turns x'), so z - 2 goes on
  // down at -2, held at its zero with its location's residue (+1e-10 on the steppers: a rate
  // of 1e6 times the rounding of t). 5e-12 later e2 moves x to -0.5: z - 2's rate becomes
  // -2.5, still across. e2's actions "touch" e1's function, and that cleared what kept its
  // residue from counting as a new crossing: the residue crossed zero 5e-11 later and e1 fired
  // again on every stepper at rtol 1e-12 (5 events, x(1) = -1.706, status ok); exactly, z
  // decreases from t1 on and e1 fires once (3 events, as the analytic path gives).
  const model = `independent t from 0 to 1
discrete n = 0
event e1 when z - 2 crosses do x := 0 end
event e2 when 1e6*x - y crosses do x' := -x'; x := x - 0.5 end
x'' = y - 1.8*x'*delta(t - e1)
x(0) = 0; x'(0) = 1e6
y' = 1
z' = x - z
y(0) = 3; z(0) = 1e6`;
  const analytic = simulate(model, { eventsOnly: true });
  it.each(['dop853', 'dopri5', 'radau5'] as MethodName[])('%s at rtol 1e-12: e2, e1, e2', (method) => {
    expect(analytic.stats.method).toBe('analytic');
    expect(analytic.events.map((e) => e.name)).toEqual(['e2', 'e1', 'e2']);
    const r = simulate(model, { method, rtol: 1e-12, atol: 1e-14, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.events.map((e) => e.name)).toEqual(['e2', 'e1', 'e2']);
    // (bar 1e-6: x'' = y over a unit range of speeds near 1e6, rtol 1e-12 of those)
    expect(Math.abs(r.final.x - analytic.final.x)).toBeLessThan(1e-6);
  });
});

describe('spheres resting in contact that an impact at the wall turns across', () => {
  // (the fuzz's arrays family, after the rule that a function held at its own zero leaves it
  // without crossing) Five elastic spheres: c[4] fires at t = 2.5 and leaves spheres 4 and 5
  // in contact, moving together, its gap held at zero. At t = 20/3 sphere 5 meets the wall:
  // wr turns its velocity, and so the gap's rate across: Newton's cradle, the impact passes
  // on (docs/language.md). Exactly, in rounds of the language's semantics (fractions): wl at
  // 20/9, c[3] and c[4] at 2.5, then wr c[1], c[4], wr c[3], c[4], wr at 20/3: 10 impacts,
  // x = (2, 3.5, 5, 5, 5) at t = 10. c[4] was kept "at zero" through wr's turn: spheres 3
  // and 4 passed through sphere 5 and the wall (x[3] = x[4] = 7, L = 6), status ok.
  const model = LANGUAGE_ROW.replace('from 0 to 40', 'from 0 to 10')
    .replace('N = 4,', 'N = 5,')
    .replace(/parameter v0\[1:N\] = .*/, 'parameter v0[1:N] = [-0.45, 0, 0.7, 0.3, -0.1]')
    .replace('output x[1], x[N], E, hits', 'output x, hits');
  it.each(['auto', 'dopri5', 'dop853', 'radau5'] as MethodName[])(
    '%s: ten impacts, no sphere through another',
    (method) => {
      const r = simulate(model, { method, eventsOnly: true });
      expect(r.status, r.message ?? '').toBe('ok');
      expect(r.final.hits).toBe(10);
      // (bar 1e-9: straight flights between exact instants)
      [2, 3.5, 5, 5, 5].forEach((x, i) => expect(Math.abs(r.final[`x[${i + 1}]`] - x)).toBeLessThan(1e-9));
    },
  );
});
