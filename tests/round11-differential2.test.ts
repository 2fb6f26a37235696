/**
 * Finds of the differential oracle, second pass (round 11: tests/differential.test.ts, seeds
 * 606, 707, 808, 11, 909): disagreements between the analytic path and the steppers decided by
 * hand.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type SimulateOptions } from '../src/index.js';

type Method = NonNullable<SimulateOptions['method']>;

const METHODS: Method[] = ['analytic', 'dopri5', 'dop853', 'rodas', 'radau5', 'rk4'];

describe('a persisting contact at the start is judged after the instant there', () => {
  // (seed 606) A ball at rest on the floor, x = 1, x' = 0, x'' = -1, `x - 1 falls` an impact:
  // a persisting contact at the start, on every method (tests/round6-contacts). A tick at t0
  // that changes nothing (x' := x') leaves the same state: the steppers then skipped the start's
  // rule and let the ball fall through the floor with status ok (x(1) = 0.5).
  const resting = `independent t from 0 to 1
discrete n = 0
event e1 when x - 1 falls do n := n + 1; x' := 0 end
event tm at 0 do x' := x' end
x'' = -1
x(0) = 1; x'(0) = 0
`;
  it.each(METHODS)('%s: a no-op tick at t0 leaves the contact', (method) => {
    const r = simulate(resting, { method });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^persisting contact at the start, t = 0: the function of event e1/);
    expect(r.final.t).toBe(0);
  });
  // A tick at t0 that throws the ball up (x' := 1) takes it off the contact: x = 1 + t - t^2/2,
  // back at the floor at t = 2 only, so on [0, 1.5] no event, x(1.5) = 1.375, x'(1.5) = -0.5.
  // The analytic path judged the contact before the tick acted: a false failure.
  const thrown = resting.replace("x' := x'", "x' := 1").replace('to 1', 'to 1.5');
  it.each(METHODS)('%s: a tick at t0 that throws the ball up ends ok', (method) => {
    const r = simulate(thrown, { method, rtol: 1e-10, atol: 1e-12 });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.events.map((e) => e.name)).toEqual(['tm']);
    // (a parabola: exact on the analytic path, to rtol on the steppers; rk4's fixed step of
    // 1.5e-3 integrates a quadratic exactly too, up to rounding)
    expect(Math.abs(r.final.x - 1.375)).toBeLessThan(1e-9);
    expect(Math.abs(r.final["x'"] + 0.5)).toBeLessThan(1e-9);
  });
});

describe('a ball at rest at x = 1e6 is a contact at the start on every method', () => {
  // (seed 606) The same ball on a floor at 1e6: x - 1e6 is known to some 1e-10 there, and rodas'
  // first step (about 1e-5) sinks the ball 4.9 h^2 = 5e-10, within that rounding; the start's
  // rule took it for a flat zero (armed as it stands) and the ball fell through, status ok. With
  // a delta at 0.75 and dop853, dopri5 and radau5 the same (their first steps shorter there).
  const model = `independent t from 0 to 0.9
event e1 when x - 1e6 falls do x' := x' end
x'' = -9.81
x(0) = 1e6; x'(0) = 0
`;
  // (at the differential's tolerances, rtol 1e-12, where the steppers' first steps are short)
  const tight = (method: Method) => (method === 'analytic' ? { method } : { method, rtol: 1e-12, atol: 1e-14 });
  it.each(METHODS)('%s', (method) => {
    const r = simulate(model, tight(method));
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^persisting contact at the start, t = 0/);
    expect(r.final.t).toBe(0);
    expect(r.final.x).toBe(1e6);
  });
  it.each(METHODS)('%s: with a delta at 0.75', (method) => {
    const r = simulate(model.replace('-9.81', '-9.81 + 2*delta(t - 0.75)'), tight(method));
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^persisting contact at the start, t = 0/);
    // (the analytic path went on after failing at t0: the delta's event at 0.75 and the
    // motion through the floor were written after the failure)
    expect(r.events).toEqual([]);
    expect(r.rows?.length ?? 0).toBeLessThanOrEqual(1);
  });
  // (the seed's model: dop853, dopri5 and radau5 as well as rodas fell through, status ok)
  const seed = `independent t from 0 to 5
parameter k = 1
discrete n = 0
event e1 when x - 1e6 falls do x' := x' end
event tm at 2 do stop end
x'' = -9.81 + 2*delta(t - 0.75)
x(0) = 1e6; x'(0) = 0
y' = n
z' = x
y(0) = 1e-3; z(0) = 3
`;
  it.each(METHODS)('%s: seed 606', (method) => {
    const r = simulate(seed, { ...tight(method), to: 0.9 });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^persisting contact at the start, t = 0/);
    expect(r.final.t).toBe(0);
  });
  // (a flat zero at the start is still armed as it stands: max(x - 1, 0) with x from 0.5 up
  // reaches 1 at t = 1 and rises off zero, no contact; the event never fires, as `falls`)
  it.each(METHODS.slice(1))('%s: a flat zero at the start is no contact', (method) => {
    const r = simulate(
      `independent t from 0 to 2
discrete n = 0
event e1 when max(x - 1, 0) falls do n := n + 1; x' := 0 end
x'' = 0
x(0) = 0.5; x'(0) = 0.5
`,
      { method },
    );
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.final.n).toBe(0);
  });
});

describe("a plastic impact whose function's rate reads its own residue rests", () => {
  // (seed 707) x = -1 + 1000 t - t^2/2 catches up with z (z' = x - z, z(0) = 1e-3): z - x
  // crosses at t1 = 0.0010004998339166170 (mpmath), where x' := 0. Then x = x1 - s^2/2 and
  // w = z - x obeys w' = -w + s from w(0) = 0: w = s - 1 + e^-s > 0, back to the side it came
  // from, no crossing; x(0.9) = -0.40360071723277572, z(0.9) = -0.097624580893069010. After
  // the action the rate of z - x is x - z, minus the location's residue (7e-17 on dop853):
  // the steppers took that residue for motion across and failed "persisting contact at t =
  // 0.0010005", where the analytic path ends ok.
  const model = `independent t from 0 to 0.9
event e1 when z - x crosses do x' := 0 end
x'' = -1
x(0) = -1; x'(0) = 1e3
z' = x - z
z(0) = 1e-3
`;
  it.each(METHODS)('%s', (method) => {
    const r = simulate(model, method === 'analytic' ? { method } : { method, rtol: 1e-12, atol: 1e-14 });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.events.map((e) => e.name)).toEqual(['e1']);
    expect(Math.abs(r.events[0].t - 0.001000499833916617)).toBeLessThan(1e-15);
    // (at rtol 1e-12 over a unit range; rk4's fixed step of 9e-4 leaves some 3e-13)
    expect(Math.abs(r.final.x + 0.40360071723277572)).toBeLessThan(1e-11);
    expect(Math.abs(r.final.z + 0.09762458089306901)).toBeLessThan(1e-11);
  });
});
