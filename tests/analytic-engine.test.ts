/**
 * The analytic path (issue 23): event counts and times against exact rational references
 * (tests/fixtures/analytic/references.py), agreement with the stepper on the models that
 * qualify, and the event core's behaviour kept: Zeno, contacts, limits, streaming, rows.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileModel, simulate, Simulator, SimulationInputError, type SimulationResult } from '../src/index.js';
import { ensureCliBuilt, MODELS_DIR, referenceModel, runCli } from './helpers.js';
import { readdirSync } from 'node:fs';

const FIXTURES = new URL('./fixtures/analytic/', import.meta.url);
const REF = JSON.parse(readFileSync(new URL('references.json', FIXTURES), 'utf8')) as {
  ball: { bounce_times: number[]; t_inf: number };
  w3: { e: number; times: number[]; pairs: number[] }[];
  c12b: Record<string, { n: number; first: number[] }>;
  row: { n: number; T: number; times: number[] };
};
const read = (path: string) => readFileSync(new URL(path, new URL('../', import.meta.url)), 'utf8');
const times = (r: SimulationResult, name?: string) => r.events.filter((e) => !name || e.name === name).map((e) => e.t);

const W1 = read('bench/w1_ball.delta');
const W3 = read('bench/w3_spheres.delta');
const C12B = read('examples/c12_task_b.delta');

describe('the analytic path against exact references', () => {
  it('W1: the ball stops at its Zeno point, every bounce within 1e-13 of the exact time', () => {
    const r = simulate(W1, { to: 15, eventValues: false });
    expect(r.stats.method).toBe('analytic');
    expect(r.status).toBe('zeno');
    const t = times(r, 'bounce');
    expect(t.length).toBeGreaterThanOrEqual(100);
    for (let n = 0; n < 100; n++) expect(Math.abs(t[n] - REF.ball.bounce_times[n])).toBeLessThan(1e-13);
    expect(Math.abs(r.accumulationPoint! - REF.ball.t_inf)).toBeLessThan(1e-11);
    expect(Math.abs(r.final.t - REF.ball.t_inf)).toBeLessThan(1e-9);
    // it never falls through the floor
    expect(r.final.h).toBeGreaterThan(-1e-12);
  });

  // (a gap x2 - x1 computed from positions near 10 carries their rounding, and at small e
  // each of the 25 collisions amplifies what the ones before left: 2e-11 relative at the last
  // collision for e = 0.18, where the stepper's was 1e-10 and CVODE's 6e-10; the first
  // collisions are within a few ulps)
  it('W3: four spheres, the exact collision sequence and times (1e-10 relative) for e = 1, 0.5, 0.3, 0.18', () => {
    const sim = new Simulator(compileModel(W3));
    const pair = { c12: 0, c23: 1, c34: 2 } as Record<string, number>;
    for (const ref of REF.w3) {
      const r = sim.run({ set: { e: ref.e }, eventValues: false, record: false });
      expect(r.stats.method).toBe('analytic');
      expect(r.events.map((e) => pair[e.name])).toEqual(ref.pairs);
      r.events.forEach((ev, i) =>
        expect(Math.abs(ev.t - ref.times[i]) / Math.max(1, ref.times[i])).toBeLessThan(i < 5 ? 4e-16 : 1e-10),
      );
    }
  });

  it('C12 task b by default through the analytic path: n = 1263, 452, 115 at e = 0.1715763, 0.1716, 0.172', () => {
    const sim = new Simulator(compileModel(C12B));
    for (const [e, ref] of Object.entries(REF.c12b)) {
      const r = sim.run({ set: { e: Number(e) }, record: false, eventValues: false });
      expect(r.stats.method).toBe('analytic');
      expect(r.status).toBe('ok');
      expect(r.final.n).toBe(ref.n);
      ref.first.forEach((t, i) => expect(Math.abs(r.events[i].t - t) / t).toBeLessThan(1e-13));
    }
  });

  it('a row of 64 spheres over T = 40: 775 impacts, each at its exact time (1e-12 relative)', () => {
    const r = simulate(readFileSync(new URL('row64.delta', FIXTURES), 'utf8'), { record: false, eventValues: false });
    expect(r.stats.method).toBe('analytic');
    expect(r.final.hits).toBe(REF.row.times.length);
    expect(r.final.hits).toBe(775);
    r.events.forEach((ev, i) =>
      expect(Math.abs(ev.t - REF.row.times[i]) / Math.max(1, REF.row.times[i])).toBeLessThan(1e-12),
    );
  });

  it('two pairs far apart that collide at one time both collide, each counted (independent events keep their own instants)', () => {
    const r = simulate(
      `independent t from 0 to 3
discrete hits = 0
event a when x2 - x1 falls do hits := hits + 1 end
event b when x4 - x3 falls do hits := hits + 1 end
J = x1' - x2'
K = x3' - x4'
x1'' = -J*delta(t - a); x2'' = J*delta(t - a)
x3'' = -K*delta(t - b); x4'' = K*delta(t - b)
x1(0) = 0; x1'(0) = 1; x2(0) = 1; x2'(0) = 0
x3(0) = 10; x3'(0) = 1; x4(0) = 11; x4'(0) = 0`,
      {},
    );
    expect(r.stats.method).toBe('analytic');
    expect(times(r)).toEqual([1, 1]);
    expect(r.final.hits).toBe(2);
    expect(r.final["x2'"]).toBe(1);
    expect(r.final["x4'"]).toBe(1);
  });
});

describe('events at one time', () => {
  it('a time event and a crossing at t = 1 that commute: one instant, in file order, as on the stepper; both count', () => {
    const r = simulate(
      "independent t from 0 to 3\nevent a at 1 do n := n + 1 end\nevent b when x - 1 rises do n := n + 10 end\ndiscrete n = 0\nx' = 1\nx(0) = 0",
      {},
    );
    expect(r.stats.method).toBe('analytic');
    expect(r.events.map((e) => [e.t, e.name])).toEqual([
      [1, 'a'],
      [1, 'b'],
    ]);
    expect(r.final.n).toBe(11);
    // (one instant, two rows, as the steppers write them: language.md, events at one instant
    // are processed together in file order; round13-layers)
    expect(r.rows.map((row) => row[0])).toEqual([0, 1, 1, 3]);
  });

  it('that interact (both write v): one instant, every action reading the values before it', () => {
    const r = simulate(
      "independent t from 0 to 3\nevent a at 1 do v := 5 end\nevent b when x - 1 rises do v := v + 10 end\nx' = v\nv' = 0\nx(0) = 0; v(0) = 1",
      {},
    );
    expect(r.events.map((e) => [e.t, e.name])).toEqual([
      [1, 'a'],
      [1, 'b'],
    ]);
    // b read v = 1 before the instant, and its assignment comes last in file order
    expect(r.final.v).toBe(11);
    expect(r.rows.map((row) => row[0])).toEqual([0, 1, 1, 3]);
  });
});

/** The analytic path and the stepper at tight tolerances on one model: the same events and finals. */
function expectSameAsStepper(source: string, file?: string): void {
  const m = compileModel(source, file);
  const a = new Simulator(m).run({ eventValues: false });
  if (a.stats.method !== 'analytic') return; // integrated numerically: nothing to compare
  const b = new Simulator(m).run({ method: 'dop853', rtol: 1e-12, atol: 1e-14, eventValues: false });
  expect(a.status).toBe(b.status);
  // a Zeno stop comes when the rest of the accumulation is below a thousand ulps of t: an event sooner or later
  const n = a.status === 'zeno' ? Math.min(a.events.length, b.events.length) : b.events.length;
  if (a.status === 'zeno') {
    expect(Math.abs(a.events.length - b.events.length)).toBeLessThanOrEqual(2);
    expect(Math.abs(a.accumulationPoint! - b.accumulationPoint!)).toBeLessThan(1e-9);
  }
  expect(a.events.slice(0, n).map((e) => e.name)).toEqual(b.events.slice(0, n).map((e) => e.name));
  for (let i = 0; i < n; i++)
    expect(Math.abs(a.events[i].t - b.events[i].t)).toBeLessThan(1e-9 * Math.max(1, a.events[i].t));
  if (a.status !== 'zeno')
    for (const k of Object.keys(b.final))
      expect(Math.abs(a.final[k] - b.final[k])).toBeLessThan(1e-8 * Math.max(1, Math.abs(b.final[k])));
}

describe('the analytic path agrees with the stepper', () => {
  const models: [string, string][] = [
    ['bouncing ball (delta form)', read('examples/bouncing_ball.delta')],
    ['C12 task a', read('examples/c12_task_a.delta')],
    ['C12 task c', read('examples/c12_task_c.delta')],
    ['two masses', read('examples/two_masses.delta')],
    ['two masses and a wall', read('examples/two_masses_wall.delta')],
    [
      'time events: a kick at t = 1 and every 0.5',
      `independent t from 0 to 3\nevent tick every 0.5 do n := n + 1 end\ndiscrete n = 0\ny'' = 2*delta(t - 1) - 1\ny(0) = 0; y'(0) = 0`,
    ],
    [
      'a cubic in t crossing a level',
      `independent t from 0 to 3\nevent up when x - 0.5 rises do k := k + 1 end\nevent down when x - 0.5 falls do k := k + 10 end\ndiscrete k = 0\nx''' = 6 - 4*t\nx(0) = 0.1; x'(0) = 1; x''(0) = -4`,
    ],
  ];
  for (const [name, source] of models)
    it(name, () => {
      expect(new Simulator(compileModel(source)).run({ eventValues: false }).stats.method).toBe('analytic');
      expectSameAsStepper(source);
    });
});

describe('every reference model that qualifies gives what the stepper gives', () => {
  for (const file of readdirSync(MODELS_DIR).filter((f) => f.endsWith('.delta') && !f.startsWith('reject_')))
    it(file, () => expectSameAsStepper(referenceModel(file), file));
});

describe('the command line', () => {
  it('transform of the ball says closed form; simulate says analytic; --method analytic on a rope is exit 2', () => {
    ensureCliBuilt();
    const ball = `${MODELS_DIR}bouncing_ball.delta`;
    const t = runCli(['transform', ball]);
    expect(t.status).toBe(0);
    expect(t.stdout).toContain('  h     closed form: polynomial of degree 2 in t\n');
    const s = runCli(['simulate', ball, '--format', 'json']);
    expect(JSON.parse(s.stdout).stats.method).toBe('analytic');
    const rope = runCli(['simulate', `${MODELS_DIR}rope_r1.delta`, '--method', 'analytic']);
    expect(rope.status).toBe(2);
    expect(rope.stderr).toMatch(
      /^deltastep: method analytic cannot run .*: not every part has a closed form: .*u1' reads u1 \(a cycle\)/,
    );
  });
});

describe('the event core on the analytic path', () => {
  it('a plastic impact: the masses move together, nothing fires again (two_masses_plastic)', () => {
    const r = simulate(read('examples/two_masses_plastic.delta'), {});
    expect(r.stats.method).toBe('analytic');
    expect(r.status).toBe('ok');
    expect(r.events).toHaveLength(1);
    expect(r.final.x1).toBeCloseTo(3, 14);
    expect(r.final.x2).toBeCloseTo(3, 14);
  });

  it('a plastic impact under gravity is a persisting contact, as on the stepper', () => {
    const ball = `independent t from 0 to 3\nparameter g = 9.81\nevent bounce when h falls\nh'' = -g - h'*delta(t - bounce)\nh(0) = 1; h'(0) = 0`;
    const a = simulate(ball, {});
    expect(a.stats.method).toBe('analytic');
    expect(a.status).toBe('failed');
    expect(a.message).toMatch(/^persisting contact at t = 0\.4515236409857/);
  });

  it('a function at zero at the start fires only at a later crossing', () => {
    const r = simulate(
      `independent t from 0 to 3\ndiscrete n = 0\nevent b when h falls do n := n + 1 end\nh' = v\nv' = 1\nh(0) = 0; v(0) = -1`,
      {},
    );
    expect(r.stats.method).toBe('analytic');
    // h = -t + t^2/2: below zero until t = 2, then rises: no falling crossing after the start
    expect(r.events).toHaveLength(0);
  });

  it('a reset moves its function away and re-arms it: a sawtooth fires every 0.5', () => {
    const r = simulate(
      `independent t from 0 to 2.2\nevent reset when y - 0.5 rises do y := 0 end\ny' = 1\ny(0) = 0`,
      {},
    );
    expect(r.stats.method).toBe('analytic');
    expect(times(r)).toEqual([0.5, 1, 1.5, 2]);
  });

  it('a grazing whose depth is within rounding is reported, never guessed', () => {
    // x = (t - 1)^2 + d with d far below the rounding of the coefficients
    const r = simulate(
      `independent t from 0 to 3\nparameter d = 1e-17\nevent touch when x falls\nx'' = 2\nx(0) = 1 + d; x'(0) = -2`,
      {},
    );
    expect(r.stats.method).toBe('analytic');
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^precision ran out at t = 1(\.0*\d*)?: the function of event touch \(x\) touches zero/);
  });

  it('Zeno, maxEvents and stop behave as on the stepper', () => {
    const ball = read('examples/bouncing_ball.delta');
    const z = simulate(ball, { eventValues: false });
    expect(z.status).toBe('zeno');
    expect(z.message).toMatch(/^events of bounce accumulate at t = 4\.0637127688\d+ \(Zeno\)/);
    const capped = simulate(ball, { maxEvents: 10 });
    expect(capped.status).toBe('failed');
    expect(capped.message).toBe(
      `more than 10 events by t = ${capped.final.t}; raise option maxEvents (--max-events) if that many are expected`,
    );
    const stopped = simulate(`independent t from 0 to 5\nevent s when x - 2 rises do stop end\nx' = 1\nx(0) = 0`, {});
    expect(stopped.status).toBe('stopped');
    expect(stopped.final.t).toBe(2);
  });

  it('rows: events before and after, a grid with outputStep, events only; the ledger streams to a sink', () => {
    const src = `independent t from 0 to 2\nevent kick when x - 1 rises\nx'' = -x'*delta(t - kick)\nx(0) = 0; x'(0) = 1`;
    const a = simulate(src, {});
    expect(a.rows.map((r) => r[0])).toEqual([0, 1, 1, 2]);
    expect(a.events[0].jumps).toEqual({ "x'": -1 });
    const g = simulate(src, { outputStep: 0.5 });
    expect(g.rows.map((r) => r[0])).toEqual([0, 0.5, 1, 1, 1, 1.5, 2]);
    const rows: number[][] = [];
    const events: string[] = [];
    const s = simulate(src, { sink: { row: (r) => rows.push(Array.from(r)), event: (e) => events.push(e.name) } });
    expect(s.rows).toHaveLength(0);
    expect(rows).toEqual(a.rows);
    expect(events).toEqual(['kick']);
    expect(simulate(src, { probes: [0.5, 1.5] }).probes!.map((q) => q.t)).toEqual([0.5, 1.5]);
  });

  it('method analytic on a model without a closed form is refused, naming the part and why', () => {
    const osc = `independent t from 0 to 1\nx' = y\ny' = -sin(x)\nx(0) = 1; y(0) = 0`;
    expect(() => simulate(osc, { method: 'analytic' })).toThrow(SimulationInputError);
    expect(() => simulate(osc, { method: 'analytic' })).toThrow(
      'method analytic cannot run Model: not every part has a closed form: x, y: x and y depend on one another (a cycle): not a polynomial in t',
    );
    expect(simulate(osc, {}).stats.method).not.toBe('analytic');
    // asked by the model's own option: a model error at that line
    expect(() => simulate(`${osc}\noption method = analytic`, {})).toThrow(
      /^<model>:5:1: option method = analytic cannot run Model: not every part has a closed form/,
    );
    // zeno = continue holds contacts on the stepper
    const ball = `independent t from 0 to 20\nparameter g = 9.81, e = 0.8\noption zeno = continue\nevent bounce when h falls\nh'' = -g - (1 + e)*h'*delta(t - bounce)\nh(0) = 10; h'(0) = 0`;
    expect(simulate(ball, { eventValues: false }).stats.method).not.toBe('analytic');
    expect(() => simulate(ball, { method: 'analytic' })).toThrow(/zeno = continue/);
  });
});
