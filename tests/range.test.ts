/**
 * The range of a run (src/driver/settings.ts, resolveRange): initial values hold at the
 * instant where the model states them (issue 20, item 14), a run backwards undoes each event
 * exactly or is refused, and an empty range is its initial row with status ok (item 12).
 */
import { describe, expect, it } from 'vitest';
import { simulate, SimulationInputError } from '../src/index.js';
import { ensureCliBuilt, expectWithin, runCli } from './helpers.js';
import { tempModel, thrown } from './api-helpers.js';

const TIGHT = { rtol: 1e-10, atol: 1e-12 };
const BALL = `model Ball
independent t from 0 to 5
parameter e = 0.8, g = 9.81
event bounce when h falls do h' := -e*h' end
h'' = -g
h(0) = 10; h'(0) = 0`;

/** The ball in closed form: h and h' at t, and the bounce times up to 5. */
function ball(t: number): { h: number; v: number } {
  const g = 9.81,
    e = 0.8;
  let start = 0,
    h0 = 10,
    v0 = 0;
  for (;;) {
    // the next time h = 0 from (h0, v0) at `start`
    const flight = (v0 + Math.sqrt(v0 * v0 + 2 * g * h0)) / g;
    if (start + flight > t) {
      const s = t - start;
      return { h: h0 + v0 * s - (g / 2) * s * s, v: v0 - g * s };
    }
    start += flight;
    v0 = -e * (v0 - g * flight);
    h0 = 0;
  }
}

describe('initial values hold at the instant where the model states them', () => {
  it('from another start without every initial value: refused, naming what is missing', () => {
    const err = thrown(SimulationInputError, () => simulate(BALL, { from: 2 }));
    expect(err.message).toBe(
      "from 2: Ball states its initial values at t = 0 (line 6), and a run starts where they hold. To start at t = 2, give every initial value there with init (missing: h, h'), or make t = 2 the start of the model's range",
    );
    expect(thrown(SimulationInputError, () => simulate(BALL, { from: 2, init: { h: 1 } })).message).toMatch(
      /\(missing: h'\)/,
    );
    // the issue's backward run: --from 5 --to 1 would reverse the bounce
    expect(() => simulate(BALL, { from: 5, to: 1 })).toThrow(/^from 5: Ball states its initial values at t = 0/);
  });

  it('from another start with every initial value given there: the run continues the one from the start', () => {
    const at2 = ball(2);
    const r = simulate(BALL, { ...TIGHT, from: 2, init: { h: at2.h, "h'": at2.v } });
    expect(r.status).toBe('ok');
    expect(r.rows[0][0]).toBe(2);
    const at5 = ball(5);
    expectWithin(r.final.h, at5.h, 1e-8, 'h(5)');
    expectWithin(r.final["h'"], at5.v, 1e-8, "h'(5)");
    // the same start as the model's, said again, is no change
    expect(simulate(BALL, { ...TIGHT, from: 0 }).final).toEqual(simulate(BALL, TIGHT).final);
  });

  it('discrete variables are initial values too', () => {
    const counter = `${BALL}\ndiscrete n = 0\nevent count when h falls do n := n + 1 end`;
    expect(thrown(SimulationInputError, () => simulate(counter, { from: 2, init: { h: 1, "h'": 0 } })).message).toMatch(
      /\(missing: n\)/,
    );
    expect(simulate(counter, { from: 2, init: { h: 1, "h'": 0, n: 1 } }).status).toBe('ok');
  });

  it('the command line: --from names the flag and --init (exit 2)', () => {
    ensureCliBuilt();
    const file = tempModel('ball.delta', `${BALL}\n`);
    const r = runCli(['simulate', file, '--from', '2']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "deltastep: --from 2: Ball states its initial values at t = 0 (line 6), and a run starts where they hold. To start at t = 2, give every initial value there with --init (missing: h, h'), or make t = 2 the start of the model's range\n",
    );
    const ok = runCli(['simulate', file, '--from', '2', '--init', "h=10,h'=0", '--format', 'json']);
    expect(ok.status).toBe(0);
    expect((JSON.parse(ok.stdout) as { rows: number[][] }).rows[0]).toEqual([2, 10, 0]);
  });
});

describe('backwards: each event undone exactly, or refused', () => {
  it("a delta's jump is undone exactly: y'' = -y + 2 delta(t - 1) run back from t = 5 comes home to rest", () => {
    // forwards from rest: y = 2 sin(t - 1) after t = 1
    const r = simulate(
      `independent t from 5 to 0\ny'' = -y + 2*delta(t - 1)\ny(5) = ${2 * Math.sin(4)}; y'(5) = ${2 * Math.cos(4)}`,
      TIGHT,
    );
    expect(r.status).toBe('ok');
    expect(r.events).toHaveLength(1);
    expect(r.events[0].jumps["y'"]).toBe(-2);
    expectWithin(r.final.y, 0, 1e-9, 'y(0)');
    expectWithin(r.final["y'"], 0, 1e-9, "y'(0)");
  });

  it('an assignment is refused before the run, naming the event and its line', () => {
    const back = BALL.replace('from 0 to 5', 'from 5 to 0').replace("h(0) = 10; h'(0) = 0", "h(5) = 1; h'(5) = 0");
    expect(thrown(SimulationInputError, () => simulate(back)).message).toBe(
      "a run backwards in t (from 5 to 0) must undo each event it meets, and bounce (line 4: event bounce when h falls do h' := -e*h' end) cannot be undone exactly: it assigns h', and deltastep does not invert assignments. Run forwards, from the instant where the model states its initial values",
    );
    // so is --to before the start
    expect(() => simulate(BALL, { to: -1 })).toThrow(/^a run backwards in t \(from 0 to -1\) must undo each event/);
  });

  it('a jump whose weight depends on what it changes is refused (undoing it would mean solving for it)', () => {
    expect(() => simulate("independent t from 2 to 0\nparameter k = 0.5\ny' = k*y*delta(t - 1)\ny(2) = 1.5")).toThrow(
      /cannot be undone exactly: the jump of y depends on a value the same event changes/,
    );
  });
});

describe('rises and falls name sides in the order of t, in either direction of a run', () => {
  // y = cos t rises through 0.5 at t = -pi/3 and falls through it at t = pi/3
  const stop = (from: number, to: number) =>
    simulate(
      `independent t from ${from} to ${to}\nevent s when y - 0.5 falls do stop end\ny = cos(t)\nx' = 1\nx(${from}) = 0`,
    );

  it('backwards over [-3, 0]: no stop, as forwards over the same interval (it stopped at -pi/3)', () => {
    expect(stop(-3, 0).status).toBe('ok');
    const back = stop(0, -3);
    expect(back.status).toBe('ok');
    expect(back.final.t).toBe(-3);
  });

  it('backwards over [0, 3]: stopped at pi/3, as forwards', () => {
    for (const [from, to] of [
      [0, 3],
      [3, 0],
    ]) {
      const run = stop(from, to);
      expect(run.status).toBe('stopped');
      expectWithin(run.final.t, Math.PI / 3, 1e-9, `from ${from} to ${to}`);
    }
  });
});

describe('an empty range is its initial row, status ok', () => {
  it.each(['rk4', 'euler', 'dopri5', 'auto', 'rodas'] as const)('%s', (method) => {
    const r = simulate(BALL, { method, from: 0, to: 0 });
    expect(r.status).toBe('ok');
    expect(r.rows).toEqual([[0, 10, 0]]);
    expect(r.final).toEqual({ t: 0, h: 10, "h'": 0 });
    expect(r.stats.steps).toBe(0);
  });

  it('an event at that instant fires there', () => {
    const r = simulate("independent t from 0 to 0\ny' = delta(t)\ny(0) = 0", { method: 'rk4' });
    expect(r.status).toBe('ok');
    expect(r.final.y).toBe(1);
  });
});
