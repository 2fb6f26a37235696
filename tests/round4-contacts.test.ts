/**
 * Round 4, a contact at the start of a run. A ball at rest on the floor at t0 (h = 0, v = 0,
 * gravity pushing it down, `event land when h falls` with an action that turns its motion)
 * never fires its event (a function at zero at the start fires only once it has left zero
 * and crossed), so it fell through the floor with status ok: h(2) = -19.62 on every method
 * and on the analytic path. It is the persisting contact the same ball makes after a plastic
 * impact, and the run now says so at the start. A detector (an event whose actions do not
 * turn its function) and a function that leaves its zero with a rate are not contacts.
 */
import { describe, expect, it } from 'vitest';
import { simulate, type MethodName } from '../src/index.js';

const METHODS: (MethodName | 'auto' | 'analytic')[] = ['auto', 'dopri5', 'dop853', 'rodas', 'radau5', 'rk4'];

const resting = (action: string) => `independent t from 0 to 2
event land when h falls${action}
h' = v
v' = -9.81
h(0) = 0; v(0) = 0`;

describe('a body at rest on its contact at the start', () => {
  it.each(METHODS)('%s: a ball at rest on the floor is a persisting contact, not a fall through it', (method) => {
    for (const action of [' do v := 0 end', ' do v := -0.8*v end']) {
      const r = simulate(resting(action), { method });
      expect(r.status, `${method}${action}`).toBe('failed');
      expect(r.message).toContain('persisting contact at the start, t = 0');
      expect(r.message).toContain('event land');
      expect(r.final.h).toBe(0);
      expect(r.final.t).toBe(0);
    }
  });

  it('the impulse written as a delta: the same', () => {
    const r = simulate(`independent t from 0 to 2
event bounce when h falls
h'' = -9.81 - 1.8*h'*delta(t - bounce)
h(0) = 0; h'(0) = 0`);
    expect(r.status).toBe('failed');
    expect(r.message).toContain('persisting contact at the start');
  });

  it.each(METHODS)('%s: pushed off its contact, it flies and lands (exact times)', (method) => {
    // v' = +9.81 for t < 1 (a push up), then -9.81: h = 9.81 t^2/2, then back to 0 at
    // t = 1 + s with h(1) = 4.905, v(1) = 9.81: 4.905 + 9.81 s - 4.905 s^2 = 0, s = 1 + sqrt(2)
    const r = simulate(
      `independent t from 0 to 4
discrete a = 9.81
event off at 1 do a := -9.81 end
event land when h falls do v := 0 end
h' = v
v' = a
h(0) = 0; v(0) = 0`,
      { method, rtol: 1e-10, atol: 1e-12, eventsOnly: true },
    );
    const land = r.events.find((e) => e.name === 'land');
    expect(land, method).toBeDefined();
    expect(Math.abs(land!.t - (2 + Math.SQRT2)), method).toBeLessThan(1e-8);
  });

  it.each(METHODS)('%s: a detector at zero at the start does not fire there, and is no contact', (method) => {
    // y = t^2/2 from its zero: it never was below zero, so `y rises` never crosses
    const r = simulate(
      `independent t from 0 to 3
discrete n = 0
event e when y rises do n := n + 1 end
y' = t
y(0) = 0`,
      { method },
    );
    expect(r.status).toBe('ok');
    expect(r.final.n).toBe(0);
  });

  it.each(METHODS)('%s: a function flat at zero from the start (a kink) is no contact', (method) => {
    // max(x - S, 0) is 0 until x reaches S and never below it: it leaves its flat zero upwards,
    // which is no crossing of `rises` (npm run fuzz, kinked family: the start's rest took the
    // leaving for a contact pushed across, a false "persisting contact" at t = 1)
    const r = simulate(
      `independent t from 0 to 3.5
parameter S = 1e-8
discrete n = 0
event e when max(x - S, 0) rises do n := n + 1; x := 0 end
x' = S
x(0) = 0`,
      { method },
    );
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.final.n).toBe(0);
  });

  it.each(METHODS)('%s: a function leaving its zero with a rate at the start is no contact', (method) => {
    // h = -t: it leaves zero downwards at once; the event of its zero at the start does not fire
    const r = simulate(
      `independent t from 0 to 1
event land when h falls do v := 0 end
h' = v
v' = 0
h(0) = 0; v(0) = -1`,
      { method },
    );
    expect(r.status).toBe('ok');
    expect(r.events.length).toBe(0);
  });
});

describe('a contact held after an accumulation keeps the impulse direction exact', () => {
  // Two masses pushed together by F (m1 = 0.5, m2 = 1, e = 0.5): their impacts accumulate and
  // the contact is held (zeno = continue); the force F is the only external one, so the total
  // momentum is exactly m1 v1(0) + F t = 0.25 + 2 t. With the jumps folded into their states
  // after each instant (step-fold.ts), the last impulses (1e-12 beside velocities of 3) were
  // read back from the folded states to 4 digits: the held contact's direction was off by
  // 2e-4, and rk4 ended with momentum 6.24912 for 6.25 (npm run fuzz, contact family).
  const model = `independent t from 0 to 3
parameter m1 = 0.5, m2 = 1, e = 0.5, F = 2
option zeno = continue
event hit when x1 - x2 rises
J = (1 + e)*m1*m2/(m1 + m2)*(x1' - x2')
m1*x1'' = F - J*delta(t - hit)
m2*x2'' = J*delta(t - hit)
x1(0) = 0; x1'(0) = 0.5; x2(0) = 1; x2'(0) = 0`;
  it.each(['auto', 'dopri5', 'dop853', 'rodas', 'radau5', 'rk4'] as const)('%s: momentum 6.25 at t = 3', (method) => {
    const r = simulate(model, { method, rtol: 1e-8, atol: 1e-11 });
    expect(r.status).toBe('ok');
    expect(r.contacts?.length).toBe(1);
    // (momentum is a sum of velocities held to rtol 1e-8: within 1e-8 of 6.25, relative)
    const p = 0.5 * r.final["x1'"] + r.final["x2'"];
    expect(Math.abs(p - 6.25), `${method}: ${p}`).toBeLessThan(1e-8 * 6.25);
  });
});
