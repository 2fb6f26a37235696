/**
 * Exact events under radau5 (issue 25, item 2) and how `auto` chooses its implicit method
 * (item 3). Every reference is a closed form.
 *
 * The dense output radau5 locates events on is the collocation polynomial of each step; the
 * Simulator tells the stepper that it reads it (a model with watched functions), and radau5
 * then keeps that polynomial within the tolerance (radau5.ts, DENSE_TOL_FACTOR).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileModel, simulate } from '../src/index.js';

describe('a bolus dose, a delta in time, into a stiff two-compartment model under radau5', () => {
  // c1' = -(k10 + k12) c1 + k21 c2 + D/V delta(t - 2), c2' = k12 c1 - k21 c2: x' = M x between
  // the dose and after it, with the jump c1 += D/V at t = 2. Eigenvalues ≈ -6000 and -0.033.
  const k10 = 0.2,
    k12 = 5000,
    k21 = 1000,
    D = 100,
    V = 10;
  const model = compileModel(
    `independent t from 0 to 10\nparameter k10 = ${k10}, k12 = ${k12}, k21 = ${k21}, D = ${D}, V = ${V}\n` +
      `c1' = -(k10 + k12)*c1 + k21*c2 + D/V*delta(t - 2)\nc2' = k12*c1 - k21*c2\nc1(0) = 1; c2(0) = 0`,
  );
  // e^{Mt} x = ((M - l2 I) e^{l1 t} - (M - l1 I) e^{l2 t}) x / (l1 - l2)
  const [a, b, c, d] = [-(k10 + k12), k21, k12, -k21];
  const half = (a + d) / 2,
    disc = Math.sqrt(half * half - (a * d - b * c));
  const l1 = half + disc,
    l2 = half - disc;
  const expM = (t: number, x: number[]) => {
    const e1 = Math.exp(l1 * t),
      e2 = Math.exp(l2 * t);
    return [
      (((a - l2) * x[0] + b * x[1]) * e1 - ((a - l1) * x[0] + b * x[1]) * e2) / (l1 - l2),
      ((c * x[0] + (d - l2) * x[1]) * e1 - (c * x[0] + (d - l1) * x[1]) * e2) / (l1 - l2),
    ];
  };
  const pre = expM(2, [1, 0]);
  const post = [pre[0] + D / V, pre[1]];
  const end = expM(8, post);

  it.each([1e-6, 1e-10])('rtol %s: the dose at t = 2 exactly, the states before, after and at the end', (rtol) => {
    const atol = 1e-3 * rtol;
    const r = simulate(model, { method: 'radau5', rtol, atol });
    expect(r.status).toBe('ok');
    expect(r.events).toHaveLength(1);
    expect(r.events[0].t).toBe(2);
    // within ten times the tolerance (the error added over the run; measured: 0.01 to 0.03 of it)
    const close = (x: number, ref: number) =>
      expect(Math.abs(x - ref)).toBeLessThan(10 * (atol + rtol * Math.abs(ref)));
    close(r.events[0].pre.c1, pre[0]);
    close(r.events[0].pre.c2, pre[1]);
    close(r.events[0].post.c1, post[0]);
    close(r.final.c1, end[0]);
    close(r.final.c2, end[1]);
  });
});

describe('a threshold reset under radau5: event times to 1e-12 relative of their closed forms', () => {
  it.each([
    [1e8, 3, 1e-6],
    [1e8, 3, 1e-10],
    [1e6, 10, 1e-6],
    [1e6, 10, 1e-10],
  ])('the relaxation of stiff-events.test.ts, L = %s on [0, %s], rtol %s', (L, to, rtol) => {
    // y1' = -L (y1 - y2), y2' = 1, reset y2 -= 0.5 when y1 rises through 0.5: t_k = 0.5 k + 1/L
    // (stiff-events.test.ts derives it), on the slow manifold y1 = y2 - 1/L, where the solution
    // is linear in t and the collocation polynomial exact
    const m = compileModel(
      `independent t from 0 to ${to}\nparameter L = ${L}\nevent e when y1 - 0.5 rises do y2 := y2 - 0.5 end\n` +
        `y1' = -L*(y1 - y2)\ny2' = 1\ny1(0) = 0; y2(0) = 0`,
    );
    const r = simulate(m, { method: 'radau5', rtol, atol: 1e-3 * rtol, eventsOnly: true });
    expect(r.status).toBe('ok');
    const exact: number[] = [];
    for (let k = 1; 0.5 * k + 1 / L <= to; k++) exact.push(0.5 * k + 1 / L);
    expect(r.events).toHaveLength(exact.length);
    r.events.forEach((e, k) => expect(Math.abs(e.t - exact[k]) / exact[k], `event ${k + 1}`).toBeLessThan(1e-12));
  });

  it.each([1e-8, 1e-10, 1e-12])(
    "a crossing along an exponential (y' = 2 - y, reset to 0 at 1) beside a stiff component, rtol %s: times k·ln 2 to rtol",
    (rtol) => {
      // between resets y = 2 - 2 e^{-(t - t_k)} reaches 1 after ln 2; z' = -1e6 (z - cos t) makes
      // the problem stiff. The event function rises at rate 1 through the crossing, so an error
      // of the dense output within the tolerance (rtol·1) moves each time by as much, and the k
      // intervals add: |t_k - k ln 2| ≤ k·rtol. (Measured: 0.07 to 0.14 of rtol relative.)
      const m = compileModel(
        `independent t from 0 to 5\nevent e when y - 1 rises do y := 0 end\ny' = 2 - y\nz' = -1e6*(z - cos(t))\ny(0) = 0; z(0) = 1`,
      );
      const r = simulate(m, { method: 'radau5', rtol, atol: 1e-3 * rtol, eventsOnly: true });
      expect(r.status).toBe('ok');
      expect(r.events).toHaveLength(7);
      r.events.forEach((e, k) => expect(Math.abs(e.t - (k + 1) * Math.LN2)).toBeLessThan((k + 1) * rtol));
    },
  );
});

describe('an event on a nonlinear stiff model is located on the solution, not the interpolant', () => {
  // y1' = -1e8 (y1^3 - y2), y2' = 1; y2 := y2 - 0.5 where y1 - 0.8 rises. y1 follows the
  // manifold y1^3 = y2 within 1e-8 of time, so every period repeats the first: the event comes
  // at 0.5 k + 0.512 + y1'/L, y1' = 1/(3 * 0.64), to O(1/L^2). radau5's collocation polynomial
  // (order 3) put the events up to 5e-9 off at rtol 1e-12; taken again to land on them, the
  // steps (order 5) put them within 1e-13.
  const model = compileModel(`independent t from 0 to 3
parameter L = 1e8
discrete n = 0
event e when y1 - 0.8 rises do y2 := y2 - 0.5; n := n + 1 end
y1' = -L*(y1^3 - y2)
y2' = 1
y1(0) = 0; y2(0) = 0`);
  const offset = 0.512 + 1 / (3 * 0.64) / 1e8;
  it.each(['radau5', 'auto'] as const)(
    '%s at rtol 1e-12: five events, each 0.512 + 5.2e-9 into its period',
    (method) => {
      const run = simulate(model, { method, rtol: 1e-12, atol: 1e-15 });
      expect(run.status).toBe('ok');
      expect(run.events).toHaveLength(5);
      run.events.forEach((e, k) => expect(Math.abs(e.t - 0.5 * k - offset)).toBeLessThan(1e-12));
    },
  );
});

describe('auto chooses by stiffness and tolerance, and says why (stats.methodReason)', () => {
  const rober = readFileSync(new URL('./fixtures/testset/rober.delta', import.meta.url), 'utf8');

  it('ROBER at rtol 1e-10: radau5 once dopri5 finds it stiff', () => {
    const r = simulate(rober, { rtol: 1e-10, atol: 1e-14, eventsOnly: true });
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe('radau5');
    expect(r.stats.switches).toBe(1);
    expect(r.stats.methodReason).toMatch(/^stiff: .*rtol 1e-10 < 5e-7: radau5, order 5$/);
  });

  it('ROBER at rtol 1e-6 (the default): rodas, as before', () => {
    const r = simulate(rober, { rtol: 1e-6, atol: 1e-10, eventsOnly: true });
    expect(r.stats.method).toBe('rodas');
    expect(r.stats.methodReason).toMatch(/^stiff: .*rtol 0.000001 ≥ 5e-7: rodas, order 4$/);
  });

  it('HIRES (8 states) at rtol 1e-6: radau5 when no dense output is read, rodas when rows are interpolated', () => {
    const hires = readFileSync(new URL('./fixtures/testset/hires.delta', import.meta.url), 'utf8');
    const ends = simulate(hires, { rtol: 1e-6, atol: 1e-10, eventsOnly: true });
    expect(ends.status).toBe('ok');
    expect(ends.stats.method).toBe('radau5');
    expect(ends.stats.methodReason).toMatch(
      /^stiff: .*rtol 0.000001 < 0.000002, 8 states and no dense output read: radau5, order 5, which keeps its LUs across steps$/,
    );
    const grid = simulate(hires, { rtol: 1e-6, atol: 1e-10, outputStep: 10 });
    expect(grid.stats.method).toBe('rodas');
    // both to the Test Set's reference at the tolerance asked for
    const ref = JSON.parse(readFileSync(new URL('./fixtures/testset/references.json', import.meta.url), 'utf8')).hires
      .y as number[];
    for (const r of [ends, grid])
      ref.forEach((v, i) => expect(Math.abs(r.final[`y${i + 1}`] - v)).toBeLessThan(1e-10 + 1e-6 * Math.abs(v)));
  });

  it('an oscillator at rtol 1e-10 is not stiff: dopri5 throughout', () => {
    // (w' = -w^3 from 0 stays 0: a nonlinear part keeps the model on the stepper, since a
    // linear one takes the analytic path)
    const r = simulate("independent t from 0 to 20\nx' = v\nv' = -x\nw' = -w^3\nx(0) = 1; v(0) = 0; w(0) = 0", {
      rtol: 1e-10,
      atol: 1e-13,
      eventsOnly: true,
    });
    expect(r.stats.method).toBe('dopri5');
    expect(r.stats.switches).toBe(0);
    expect(r.stats.methodReason).toMatch(/^not stiff \(so far\)/);
    expect(Math.abs(r.final.x - Math.cos(20))).toBeLessThan(1e-8);
  });

  it.each([
    [1e-6, 'rodas'],
    [1e-10, 'radau5'],
  ])('a problem that stops being stiff, rtol %s: back to dopri5 from %s', (rtol, implicit) => {
    // y' = -1e4 e^{-t} (y - cos t) - sin t: y follows cos t at a rate that fades from 1e4 to 4e-14
    const r = simulate("independent t from 0 to 40\ny' = -1e4*exp(-t)*(y - cos(t)) - sin(t)\ny(0) = 0", {
      rtol,
      atol: 1e-3 * rtol,
      eventsOnly: true,
    });
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe('dopri5');
    expect(r.stats.switches).toBe(2);
    expect(r.stats.methodReason).toMatch(new RegExp(`^not stiff: ${implicit}'s last .* back to dopri5$`));
    // y = cos t + O(e^{t}/1e4) once the transient is gone: the closed form to the tolerance
    expect(Math.abs(r.final.y - Math.cos(40))).toBeLessThan(10 * rtol);
  });
});
