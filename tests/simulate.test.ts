/**
 * The numeric backend through the library API (issue 3): problems paired with exact solutions,
 * errors in units of the tolerance, event times against closed forms, exact event counts where
 * the mathematics fixes them, both directions of the independent variable, and the failure
 * statuses with their partial rows. The reference cases themselves are in reference-cases.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, simulate, SimulationInputError, Simulator, type SimulationResult } from '../src/index.js';
import { expectWithin, referenceModel, SPEC_EXAMPLES } from './helpers.js';

const TIGHT = { rtol: 1e-10, atol: 1e-12 } as const;

/** Heaviside step with s(0) = 1 on the right side of a jump; `side` picks the limit at the jump. */
const s = (u: number, side: 'pre' | 'post') => (u > 0 || (u === 0 && side === 'post') ? 1 : 0);

/**
 * Compares every row with the exact solution; at an event time the last row is the value
 * after the event and the others the value before. Returns the largest error in units of `tol`.
 */
function maxRowError(
  run: SimulationResult,
  exact: Record<string, (t: number, side: 'pre' | 'post') => number>,
  tol: number,
  eventTimes: number[],
): number {
  let worst = 0;
  run.rows.forEach((row, i) => {
    const t = row[0];
    const side = eventTimes.includes(t) && run.rows[i + 1]?.[0] === t ? 'pre' : 'post';
    for (const [name, f] of Object.entries(exact)) {
      const j = run.columns.indexOf(name);
      expect(j, `column ${name}`).toBeGreaterThan(0);
      const ratio = Math.abs(row[j] - f(t, side)) / tol;
      expect(
        ratio,
        `${name}(${t}${eventTimes.includes(t) ? ` ${side}` : ''}) = ${row[j]}, exact ${f(t, side)}`,
      ).toBeLessThanOrEqual(1);
      worst = Math.max(worst, ratio);
    }
  });
  return worst;
}

describe('delta models against their closed forms, at every output row', () => {
  it('delta_a: y = 2 sin(t - 1) s(t - 1)', () => {
    const run = simulate(referenceModel('delta_a.delta'), TIGHT);
    expect(run.status).toBe('ok');
    const worst = maxRowError(
      run,
      {
        y: (t) => 2 * Math.sin(t - 1) * s(t - 1, 'post'),
        "y'": (t, side) => 2 * Math.cos(t - 1) * s(t - 1, side),
      },
      1e-8,
      [1],
    );
    expect(worst).toBeLessThan(0.1);
  });

  it('delta_b: y = e^-t + 4 e^-(t - 2) s(t - 2)', () => {
    const run = simulate(referenceModel('delta_b.delta'), TIGHT);
    maxRowError(run, { y: (t, side) => Math.exp(-t) + 4 * Math.exp(-(t - 2)) * s(t - 2, side) }, 1e-8, [2]);
  });

  it('delta_c: y = (t - 1/2)/2 s(t - 1/2)', () => {
    const run = simulate(referenceModel('delta_c.delta'), TIGHT);
    const worst = maxRowError(
      run,
      { y: (t) => ((t - 0.5) / 2) * s(t - 0.5, 'post'), "y'": (t, side) => 0.5 * s(t - 0.5, side) },
      1e-12,
      [0.5],
    );
    expect(worst).toBeLessThan(1);
  });

  it('delta_f: y = (t - 1)^2/2 s(t - 1)', () => {
    const run = simulate(referenceModel('delta_f.delta'), TIGHT);
    maxRowError(
      run,
      {
        y: (t) => ((t - 1) ** 2 / 2) * s(t - 1, 'post'),
        "y'": (t) => (t - 1) * s(t - 1, 'post'),
        "y''": (t, side) => s(t - 1, side),
      },
      1e-10,
      [1],
    );
  });

  it("delta_g1: y = s(t - 1), y' = 0", () => {
    const run = simulate(referenceModel('delta_g1.delta'), TIGHT);
    maxRowError(run, { y: (t, side) => s(t - 1, side), "y'": () => 0 }, 1e-14, [1]);
  });

  it('delta_h: y = 5 (e^-(t-1) - e^-2(t-1)) s(t - 1)', () => {
    const run = simulate(referenceModel('delta_h.delta'), TIGHT);
    maxRowError(
      run,
      {
        y: (t) => 5 * (Math.exp(-(t - 1)) - Math.exp(-2 * (t - 1))) * s(t - 1, 'post'),
        "y'": (t, side) => 5 * (-Math.exp(-(t - 1)) + 2 * Math.exp(-2 * (t - 1))) * s(t - 1, side),
      },
      1e-8,
      [1],
    );
  });

  it('a state event writes two rows, before and after', () => {
    const run = simulate(
      "independent t from 0 to 2\ndiscrete n = 0\nevent a when y - 1 rises do n := 1 end\ny' = 1\ny(0) = 0",
    );
    const at = run.rows.filter((r) => r[0] === run.events[0].t);
    expect(at).toHaveLength(2);
    expect(at.map((r) => r[2])).toEqual([0, 1]);
  });

  // BUG: a time event writes three rows at its time: the step that lands on it, then the
  // event's before and after rows (delta_a: [1, 0, 0], [1, 0, 0], [1, 0, 2]; likewise for `at`
  // events and a delta at the start of the range). CLI.md: each event puts two rows into rows.
  it('a time event writes two rows, before and after', () => {
    const run = simulate(referenceModel('delta_a.delta'), TIGHT);
    expect(run.rows.filter((r) => r[0] === 1)).toHaveLength(2);
    const at = simulate("independent t from 0 to 2\ndiscrete n = 0\nevent a at 1 do n := 1 end\ny' = 1\ny(0) = 0");
    expect(at.rows.filter((r) => r[0] === 1).map((r) => r[2])).toEqual([0, 1]);
  });

  it("--init y'=1 on delta_a: y = sin t + 2 sin(t - 1) s(t - 1)", () => {
    const run = simulate(referenceModel('delta_a.delta'), { ...TIGHT, init: { "y'": 1 } });
    expectWithin(run.final.y, Math.sin(5) + 2 * Math.sin(4), 1e-8, 'y(5)');
  });

  // BUG: two deltas that act at the same instant lose all jumps but the last (each event's
  // action S1 := S1 + g reads the pre-event S1, so the second overwrites the first); the
  // ledger then reports the combined change for both. Actual y(2) = 0.5 for both models.
  it('the jumps of two deltas at the same instant add up (rule 5)', () => {
    const a = simulate("independent t from 0 to 2\ny' = delta(t - 1) + delta(2*t - 2)\ny(0) = 0");
    expect(a.final.y).toBe(1.5);
    expect(a.events.map((e) => e.jumps.y)).toEqual([1, 0.5]);
    const b = simulate(
      "independent t from 0 to 2\nevent a at 1\nevent b at 1\ny' = delta(t - a) + 2*delta(t - b)\ny(0) = 0",
    );
    expect(b.final.y).toBe(3);
  });
});

describe('the bouncing ball (h0 = 1, e = 0.8): every bounce against the closed form, and the Zeno stop', () => {
  const g = 9.81,
    e = 0.8;
  const t1 = Math.sqrt(2 / g),
    v1 = g * t1;
  const tn = (n: number) => t1 + (((2 * v1) / g) * e * (1 - e ** (n - 1))) / (1 - e);
  const tInf = (t1 * (1 + e)) / (1 - e);
  const run = simulate(referenceModel('bouncing_ball.delta'), { ...TIGHT, to: 5 });

  it('t_n = t1 + (2 v1/g) e (1 - e^(n-1))/(1 - e) for every bounce located', () => {
    expect(run.events.length).toBeGreaterThanOrEqual(100);
    let worst = 0;
    run.events.forEach((ev, i) => {
      const err = Math.abs(ev.t - tn(i + 1));
      expect(err, `bounce ${i + 1} at ${ev.t}, exact ${tn(i + 1)}`).toBeLessThanOrEqual(1e-9);
      worst = Math.max(worst, err);
      expect(ev.name).toBe('bounce');
      expect(ev.kind).toBe('state');
    });
    // How far below 1e-9 it stays. The flights are parabolas, which the stepper integrates
    // exactly: what is left is rounding, a few ulps of t per located bounce, accumulated over
    // ~130 bounces: about 1e-13. (1.4e-14 since the time origin moves to every event; with
    // one double for t the rounding of t itself made it 7.9e-13.)
    expect(worst).toBeLessThan(1e-13);
    expect(tn(1)).toBeCloseTo(0.4515236409857309, 15);
    expect(tn(6)).toBeCloseTo(2.8800706354459437, 14);
  });

  it('locating a bounce costs a handful of event-function evaluations, down to the last flights', () => {
    // Counts, not time: the restart step is capped at twice the last flight (a step a
    // million flights long hides the bounce in its dense output's rounding), and the root
    // finder's Hermite step is exact on a parabola. (38 per bounce with Illinois and the
    // uncapped restart.)
    const model = compileModel(referenceModel('bouncing_ball.delta'), 'ball.delta');
    let calls = 0;
    const watch = model.watch;
    const counted = {
      ...model,
      watch: (...a: Parameters<typeof watch>) => {
        calls++;
        watch(...a);
      },
    };
    const r = new Simulator(counted).run({ ...TIGHT, to: 5, record: false });
    expect(r.status).toBe('zeno');
    expect(r.events.length).toBeGreaterThan(100);
    expect(calls / r.events.length).toBeLessThan(12);
  });

  it("each bounce: h' reverses to -e h' (a jump of -(1 + e) h')", () => {
    for (const ev of run.events.slice(0, 30)) {
      // the action S1 - (1 + e)(u1 + S1) rounds on the scale of S1 (the sum of earlier jumps)
      expect(Math.abs(ev.post["h'"] + e * ev.pre["h'"])).toBeLessThanOrEqual(1e-13);
      expect(ev.post.h).toBe(ev.pre.h);
    }
  });

  it('status zeno with the accumulation point t1 (1 + e)/(1 - e) to 1e-9', () => {
    expect(run.status).toBe('zeno');
    expect(run.message).toMatch(/^events of bounce accumulate at t = /);
    expectWithin(run.accumulationPoint, tInf, 1e-9, 'accumulation point');
    // the same rounding argument as for the bounces (9e-15 when written)
    expectWithin(run.accumulationPoint, tInf, 1e-13, 'accumulation point, rounding level');
    expect(tInf).toBeCloseTo(4.0637127688715781, 14);
  });

  it('never falls through the floor, and keeps every row', () => {
    const h = run.columns.indexOf('h');
    for (const row of run.rows) expect(row[h]).toBeGreaterThanOrEqual(-1e-9);
    expect(run.final.t).toBeLessThanOrEqual(tInf + 1e-9);
    expect(run.final.h).toBeGreaterThanOrEqual(-1e-9);
    expect(run.rows.at(-1)![0]).toBe(run.final.t);
    for (let i = 1; i < run.rows.length; i++) expect(run.rows[i][0]).toBeGreaterThanOrEqual(run.rows[i - 1][0]);
    // two rows per event
    for (const ev of run.events.slice(0, 50))
      expect(run.rows.filter((r) => r[0] === ev.t).length).toBeGreaterThanOrEqual(2);
    expect(run.stats.events).toBe(run.events.length);
  });
});

describe('the end of the range, functions with bumps, sliding modes', () => {
  it('far from t = 0 the run ends only when the stepper lands on the end: events and probes there count', () => {
    // Steps below one ulp of t (1.2e-7 at 1e9): a step end that merely rounds to the end time
    // used to end the loop, half an ulp short, and lose the event and the probe at the end.
    const t0 = 1e9,
      t1 = 1e9 + 1e-5,
      D = t1 - t0; // D as represented: 1.0013580322265625e-5
    const model = `independent t from ${t0} to ${t1}\nparameter w = 1e7\nevent b at ${t1} do y := y + 100 end\nx'' = -w^2*x\ny' = 0\nx(${t0}) = 1; x'(${t0}) = 0; y(${t0}) = 0`;
    const r = simulate(model, { ...TIGHT, probes: [t1] });
    expect(r.status).toBe('ok');
    expect(r.final.t).toBe(t1);
    expect(r.final.y).toBe(100);
    expect(r.probes).toHaveLength(1);
    // 100 oscillations at rtol 1e-10: the phase error is ~1e-9 of the argument
    expect(Math.abs(r.final.x - Math.cos(1e7 * D))).toBeLessThan(1e-7);
  });

  it('probes outside the range are not reached (none is reported with the state of another time)', () => {
    const r = simulate("independent t from 0 to 1\nx' = 1\nx(0) = 0", { probes: [-1, 0.5, 2] });
    expect(r.probes!.map((q) => q.t)).toEqual([0.5]);
    expect(r.probes![0].y[0]).toBeCloseTo(0.5, 14);
  });

  it('a crossing half an ulp before the end does not swallow the events at the end', () => {
    // x - c is 2.2e-16 at t = 2, within its own rounding (3.5e-15) of zero: a crossing the
    // arithmetic cannot tell from the end, which is not an event of the range on any path
    // (range-ends.test.ts); the time event at the end fires all the same.
    const src =
      "independent t from 0 to 2\nparameter c = 0.9999999999999998\nevent k at 1 do x := 0 end\nevent s when x - c rises do y := y + 10 end\nevent a at 2 do y := y + 100 end\nx' = 1; y' = 0\nx(0) = -5; y(0) = 0";
    for (const method of ['analytic', 'dopri5', 'rodas', 'rk4'] as const) {
      const r = simulate(src, { method });
      expect(r.events.map((e) => e.name)).toEqual(['k', 'a']);
      expect(r.final.y).toBe(100);
    }
  });

  it('a function with a bump inside a step (flat at both ends) is still sampled: switches and events are found', () => {
    // exp(-(x - 5)^2) > 1/2 on |x - 5| < sqrt(ln 2): the integral of the indicator is 2 sqrt(ln 2)
    const sw = simulate(
      "independent t from 0 to 100\ny' = if exp(-(x - 5)^2) > 0.5 then 1 else 0\nx' = 1\nx(0) = 0; y(0) = 0",
      TIGHT,
    );
    expect(Math.abs(sw.final.y - 2 * Math.sqrt(Math.log(2)))).toBeLessThan(1e-9);
    const ev = simulate(
      "independent t from 0 to 1000\ndiscrete n = 0\nevent e when 1/(1 + (x - 20)^2) - 0.5 rises do n := n + 1 end\nx' = 1\nx(0) = 0",
    );
    expect(ev.events.map((e) => e.t)).toEqual([expect.closeTo(19, 9)]);
  });

  it('after a restart the step does not jump a thousandfold over a bump of a non-affine event function', () => {
    const r = simulate(
      "independent t from 0 to 1000\ndiscrete n = 0\nevent k at 1 do v := 1 end\nevent e when exp(-(x - 35)^2) - 0.5 rises do n := n + 1 end\nx' = v; v' = 0\nx(0) = 0; v(0) = 0",
    );
    expect(r.final.n).toBe(1);
    expect(r.events.map((e) => e.name)).toEqual(['k', 'e']);
    // x = 35 - sqrt(ln 2) at t = 1 + x
    expect(r.events[1].t).toBeCloseTo(1 + 35 - Math.sqrt(Math.log(2)), 8);
  });

  it('a sliding mode (the motion of both sides turns back to the switch) fails with a message, no hang, no wrong answer', () => {
    const r = simulate("independent t from 0 to 2\nx' = if x > 0 then -1 else 1\nx(0) = 1", TIGHT);
    expect(r.status).toBe('failed');
    // (the switch is at t = 1 exactly; located at 1 or the double after it)
    expect(r.message).toMatch(
      /^sliding mode at t = 1(\.0000000000000\d*)?: on both sides of x > 0 the motion turns back/,
    );
    expect(Math.abs(r.final.t - 1)).toBeLessThan(1e-12);
    expect(Math.abs(r.final.x)).toBeLessThan(1e-12);
    // a switch crossed with both sides moving the same way is not sliding
    const through = simulate("independent t from 0 to 2\nx' = if x > 0 then -1 else -2\nx(0) = 1", TIGHT);
    expect(through.status).toBe('ok');
    expect(through.final.x).toBeCloseTo(-2, 12);
  });

  it('no false sliding: a kick at the start, two switches on one function, a slow approach, a stop there', () => {
    // a block on a slope where it would stick, kicked at t = 0: the kick moves it first
    const kick = simulate(
      "independent t from 0 to 0.5\nparameter g = 9.81, a = 0.2, mu = 0.5, J = 3\nx'' = g*sin(a) - mu*g*cos(a)*sign(x') + J*delta(t)\nx(0) = 0; x'(0) = 0",
      TIGHT,
    );
    expect(kick.status).toBe('ok');
    // closed form: v = J - (mu g cos a - g sin a) t while v > 0
    const dec = 0.5 * 9.81 * Math.cos(0.2) - 9.81 * Math.sin(0.2);
    expect(kick.final.x).toBeCloseTo(3 * 0.5 - 0.5 * dec * 0.25, 10);
    // v < 0 and v >= 0 are two switches on one function: both sides move v upwards
    const pair = simulate(
      "independent t from 0 to 2\ndiscrete n = 0\nevent turn when v rises do n := n + 1 end\nv' = (if v < 0 then 2 else if v >= 0 then 1 else 0) - 0.5\nv(0) = -1",
      TIGHT,
    );
    expect(pair.status).toBe('ok');
    expect(pair.final.v).toBeCloseTo(2 / 3, 12);
    // cooling towards Ts: the surface is approached exponentially, never reached
    const cool = simulate(
      "independent t from 0 to 60\nparameter Ts = 293, k = 1, P = 2\ndiscrete samples = 0\nevent sample every 1 do samples := samples + 1 end\nT' = if T > Ts then -k*(T - Ts) else P\nT(0) = 303",
      TIGHT,
    );
    expect(cool.status).toBe('ok');
    expect(cool.final.samples).toBe(61);
    // the stuck phase modelled as the message suggests: stop when the block stops
    const halt = simulate(
      "independent t from 0 to 3\nparameter mu = 0.5, g = 9.81\nevent halt when v falls do stop end\nx' = v\nv' = -mu*g*sign(v)\nx(0) = 0; v(0) = 2",
      TIGHT,
    );
    expect(halt.status).toBe('stopped');
    expect(halt.final.t).toBeCloseTo(2 / (0.5 * 9.81), 12);
  });

  it('a switch exactly at zero takes the side whose own branch keeps the motion there', () => {
    // x -> c from above with rate -(x - c) -> 0; once x rounds to c, the branch below (x' = 1)
    // would move it up while the switch stayed locked below: x(100) was 380
    const eq = simulate(
      "independent t from 0 to 100\nparameter c = 293\nx' = if x > c then -(x - c) else 1\nx(0) = 294",
      TIGHT,
    );
    expect(eq.status).toBe('ok');
    expect(eq.final.x).toBe(293);
    // starting on the surface: the branch of x >= 0 (rate 2) is consistent, the one of x < 0
    // (rate 1) would cross into x >= 0 at once
    const start = simulate(
      "independent t from 0 to 1\nx' = if x < 0 then 1 else if x >= 0 then 2 else -5\nx(0) = 0",
      TIGHT,
    );
    expect(start.final.x).toBeCloseTo(2, 14);
  });

  it('--locate before/after place events only: a switch of the right-hand side is always located (no hang)', () => {
    for (const locate of ['before', 'after', 'exact'] as const) {
      // (before and after are refused with an adaptive method: settings.test.ts)
      for (const method of locate === 'exact' ? (['dopri5', 'rk4'] as const) : (['rk4'] as const)) {
        const r = simulate("independent t from 0 to 2\nx' = if x > 0 then -1 else -2\nx(0) = 1", {
          ...TIGHT,
          locate,
          method,
          step: method === 'rk4' ? 0.01 : undefined,
        });
        expect(r.status).toBe('ok');
        // x = 1 - t to t = 1, then -2 (t - 1): x(2) = -2
        expect(r.final.x).toBeCloseTo(-2, 10);
      }
    }
  });

  it('--locate before: an event whose action leaves its function alone fires once, not until a false Zeno stop', () => {
    const model =
      "independent t from 0 to 5\nevent s when x - 2.005 rises do y := y + 10 end\nevent a at 2.01 do y := y + 100 end\nx' = 1; y' = 0\nx(0) = 0; y(0) = 0";
    for (const method of ['rk4', 'euler'] as const) {
      const r = simulate(model, { locate: 'before', method, step: 0.01 });
      expect(r.status).toBe('ok');
      expect(r.events.map((e) => e.name)).toEqual(['s', 'a']);
      expect(r.final.y).toBe(110);
      // placed at the start of the step that contains the crossing at 2.005
      expect(r.events[0].t).toBeLessThanOrEqual(2.005);
    }
  });

  it("the sliding message names the user's variables (x', not the transformed u1 + S1)", () => {
    const r = simulate(
      "independent t from 0 to 2\nparameter g = 9.81, a = 0.2, mu = 0.5, J = 0.5\nx'' = g*sin(a) - mu*g*cos(a)*sign(x') + J*delta(t)\nx(0) = 0; x'(0) = 0",
      TIGHT,
    );
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^sliding mode at t = 0\.1749\d+: on both sides of sign\(x'\) the motion turns back/);
    // it sticks when x' = 0: t = J/dec
    const dec = 0.5 * 9.81 * Math.cos(0.2) - 9.81 * Math.sin(0.2);
    expect(r.final.t).toBeCloseTo(0.5 / dec, 10);
  });

  it('the compiler marks which watched functions are affine in the states and t', () => {
    const m = compileModel(
      "parameter a = 2\ndiscrete n = 0\nevent e1 when x - 1 rises\nevent e2 when a*x + n*t - y rises\nevent e3 when x*y - 1 rises\nevent e4 when exp(x) - 2 rises\nevent e5 when x/a - sin(a) rises\nevent e6 when x*t - 1 rises\nx' = 1; y' = 1\nx(0) = 0; y(0) = 0\nindependent t from 0 to 1",
      'affine.delta',
    );
    // discrete variables and parameters are constants between events: n*t is affine, x*t is not
    expect(m.watchInfo.map((w) => w.affine)).toEqual([true, true, false, false, true, false]);
  });
});

describe('eventValues: false (sweeps, benchmarks): the same run, a lighter ledger', () => {
  it('same event times, names and final values; pre, post and jumps are empty', () => {
    const src = referenceModel('bouncing_ball.delta');
    const full = simulate(src, { ...TIGHT, to: 3 });
    const light = simulate(src, { ...TIGHT, to: 3, eventValues: false, record: false });
    expect(light.events.map((e) => [e.t, e.name, e.kind])).toEqual(full.events.map((e) => [e.t, e.name, e.kind]));
    expect(light.final).toEqual(full.final);
    expect(light.stats).toEqual(full.stats);
    for (const e of light.events) {
      expect(Object.keys(e.pre)).toEqual([]);
      expect(Object.keys(e.post)).toEqual([]);
      expect(Object.keys(e.jumps)).toEqual([]);
    }
    expect(Object.keys(full.events[0].jumps)).toContain("h'");
  });
});

describe('the time origin: events far from t = 0 keep the precision of their own time scale', () => {
  // The same ball (h0 = 1, e = 0.8) dropped at t = 1e6, where one ulp of t is 1.16e-10 and
  // the last flights are a few ulps long. Each event is located in the stepper's t, counted
  // from the previous event, and the absolute time is kept in two doubles: every bounce time
  // is the exact one correctly rounded, give or take one ulp. (With t in one double, the
  // rounding of every step end and location accumulated to 634 ulps by the last bounce.)
  const g = 9.81,
    e = 0.8,
    t1 = Math.sqrt(2 / g),
    v1 = g * t1,
    t0 = 1e6;
  const ulp = 2 ** -33; // of numbers in [2^19, 2^20)
  const run = simulate(
    "independent t from 1e6 to 1000010\nparameter g = 9.81, e = 0.8\nevent bounce when h falls do h' := -e*h' end\nh'' = -g\nh(1e6) = 1; h'(1e6) = 0",
    { ...TIGHT },
  );

  it('every bounce within one ulp of t of its exact time, and the accumulation point too', () => {
    expect(run.status).toBe('zeno');
    expect(run.events.length).toBeGreaterThanOrEqual(60);
    run.events.forEach((ev, i) => {
      const n = i + 1;
      const exact = t0 + t1 + (((2 * v1) / g) * e * (1 - e ** (n - 1))) / (1 - e);
      expect(Math.abs(ev.t - exact), `bounce ${n}`).toBeLessThanOrEqual(ulp);
    });
    expect(Math.abs(run.accumulationPoint! - (t0 + (t1 * (1 + e)) / (1 - e)))).toBeLessThanOrEqual(ulp);
  });
});

describe('W2: the oscillator against a wall, 100 impacts in [0, 600], the last ones grazing', () => {
  const model =
    "independent t from 0 to 600\nevent wall when x - 0.5 rises do y := -0.9*y end\nx' = y\ny' = -x\nx(0) = 0; y(0) = 1";
  // exact impact times: a rotation in the phase plane between impacts
  const exact: number[] = [Math.PI / 6];
  for (let y = Math.sqrt(3) / 2; ;) {
    const next = exact.at(-1)! + Math.PI + 2 * Math.atan2(0.5, 0.9 * y);
    if (next > 600) break;
    exact.push(next);
    y *= 0.9;
  }

  it('the closed form gives 100 impacts, the last at 596.6250882652105', () => {
    expect(exact).toHaveLength(100);
    expect(exact[99]).toBeCloseTo(596.6250882652105, 10);
  });

  it('dopri5 at rtol 1e-10: exactly the 100 impacts, none missed, none extra', () => {
    const run = simulate(model, TIGHT);
    expect(run.status).toBe('ok');
    expect(run.events).toHaveLength(100);
    run.events.forEach((ev, i) => expect(Math.abs(ev.t - exact[i]), `impact ${i + 1}`).toBeLessThan(1e-3));
    // about 1e-12 relative (2.6e-12 when written)
    expectWithin(run.events[0].t, Math.PI / 6, (1e-11 * Math.PI) / 6, 't1');
    for (let i = 0; i < 20; i++) expect(Math.abs(run.events[i].t - exact[i]), `impact ${i + 1}`).toBeLessThan(1e-7);
  });

  // The last impacts are grazing (speed 2.6e-5), so an amplitude error d gives a time error of
  // about d/v and the state at 600 inherits it: at rtol 1e-10 the state is only good to ~6e-5.
  it('dop853 at rtol 1e-13: t_100 and the state at 600 to 1e-6', () => {
    const run = simulate(model, { method: 'dop853', rtol: 1e-13, atol: 1e-15 });
    expect(run.events).toHaveLength(100);
    expectWithin(run.events[99].t, 596.6250882652105, 1e-6, 't_100');
    expectWithin(run.final.x, -0.48644686025268397, 1e-6, 'x(600)');
    expectWithin(run.final.y, 0.11562634941671691, 1e-6, 'y(600)');
  });
});

describe("IDERKSolve 5.5.4: x' = -x, x -> x + 1 whenever sin(pi t) crosses zero", () => {
  it('kicks at t = 1..5, none at the start where sin(pi t) is zero', () => {
    const run = simulate(referenceModel('iderk_554.delta'), TIGHT);
    expect(run.events).toHaveLength(5);
    run.events.forEach((ev, i) => {
      expectWithin(ev.t, i + 1, 1e-12 * (i + 1), `kick ${i + 1}`);
      const n = i + 1;
      expectWithin(ev.post.x, 2 * Math.exp(-n) + (1 - Math.exp(-n)) / (1 - Math.exp(-1)), 1e-8, `x(${n}+)`);
      expectWithin(ev.post.x - ev.pre.x, 1, 1e-14, 'kick');
    });
    expectWithin(run.final.x, 0.9612257413224511, 1e-8, 'x(5.5)');
  });
});

describe('events at one instant', () => {
  it('are processed together, in file order, all reading the values before the instant', () => {
    const run = simulate(
      "independent t from 0 to 2\ndiscrete a = 1, b = 0\nevent first at 1 do a := 5 end\nevent second at 1 do b := a end\ny' = 0\ny(0) = 0",
    );
    expect(run.events.map((e) => [e.t, e.name])).toEqual([
      [1, 'first'],
      [1, 'second'],
    ]);
    expect(run.final.a).toBe(5);
    expect(run.final.b).toBe(1);
  });

  it('the same for two state events that cross together', () => {
    const run = simulate(
      "independent t from 0 to 2\ndiscrete a = 1, b = 0\nevent first when t - 1 rises do a := 5 end\nevent second when t - 1 rises do b := a end\ny' = 0\ny(0) = 0",
    );
    expect(run.events.map((e) => e.name)).toEqual(['first', 'second']);
    expect(run.events[0].t).toBe(run.events[1].t);
    expect(Math.abs(run.events[0].t - 1)).toBeLessThanOrEqual(4 * Number.EPSILON);
    expect([run.final.a, run.final.b]).toEqual([5, 1]);
  });

  it('event iteration: an action that makes another event function cross fires it at the same instant', () => {
    const run = simulate(
      "independent t from 0 to 2\ndiscrete m = 0\nevent first at 1 do x := 2 end\nevent second when x - 1.5 rises do m := m + 1 end\nx' = 0\nx(0) = 0",
    );
    expect(run.events.map((e) => [e.t, e.name, e.kind])).toEqual([
      [1, 'first', 'time'],
      [1, 'second', 'state'],
    ]);
    expect(run.final).toEqual({ t: 2, x: 2, m: 1 });
  });

  it('event iteration through a discrete variable, reading the time of the instant', () => {
    const run = simulate(
      "independent t from 0 to 2\ndiscrete n = 0, m = 0\nevent first at 1.25 do n := 1 end\nevent second when n - 0.5 rises do m := t end\ny' = 0\ny(0) = 0",
    );
    expect(run.events.map((e) => [e.t, e.name])).toEqual([
      [1.25, 'first'],
      [1.25, 'second'],
    ]);
    expect(run.final.m).toBe(1.25);
  });
});

describe('stop, switching functions, direction', () => {
  it('a stop action ends the run with status stopped', () => {
    const run = simulate("independent t from 0 to 5\nevent done when y - 1 rises do stop end\ny' = 1\ny(0) = 0", TIGHT);
    expect(run.status).toBe('stopped');
    expect(run.message).toMatch(/^stopped by event done at t = 1/);
    expectWithin(run.final.t, 1, 1e-12, 'stop time');
    expectWithin(run.final.y, 1, 1e-12, 'y at stop');
    expect(run.rows.at(-1)![0]).toBe(run.final.t);
  });

  it.each([['if t < 1 then 1 else -1'], ['1 - 2*step(t - 1)']])(
    "y' = %s integrates exactly, with a step boundary at t = 1",
    (rhs) => {
      const run = simulate(`independent t from 0 to 2\ny' = ${rhs}\ny(0) = 0`, TIGHT);
      expect(run.status).toBe('ok');
      expect(Math.abs(run.final.y)).toBeLessThanOrEqual(1e-12);
      const near = run.rows.filter((r) => Math.abs(r[0] - 1) <= 4 * Number.EPSILON);
      expect(near.length).toBeGreaterThanOrEqual(1);
      expect(Math.abs(near[0][1] - 1)).toBeLessThanOrEqual(1e-12);
      // a dense-enough check: y = 1 - |t - 1| at every row
      for (const [t, y] of run.rows) expect(Math.abs(y - (1 - Math.abs(t - 1)))).toBeLessThanOrEqual(1e-12);
    },
  );

  it("a switching function of the state: y' = if y < 1 then 1 else 0.5", () => {
    const run = simulate("independent t from 0 to 3\ny' = if y < 1 then 1 else 0.5\ny(0) = 0", TIGHT);
    expectWithin(run.final.y, 2, 1e-12, 'y(3)');
    expect(run.rows.some(([t, y]) => Math.abs(t - 1) <= 1e-12 && Math.abs(y - 1) <= 1e-12)).toBe(true);
  });

  it('a situation: braking = h < R and Vy < 0 switches the right-hand side once', () => {
    // h falls from 2 with Vy' = -1 until h = 1 at t = sqrt 2; then it coasts at Vy = -sqrt 2
    const run = simulate(
      "independent t from 0 to 3\nparameter R = 1\nsituation braking = h < R and Vy < 0\nh' = Vy\nVy' = if braking then 0 else -1\nh(0) = 2; Vy(0) = 0",
      TIGHT,
    );
    expectWithin(run.final.Vy, -Math.SQRT2, 1e-12, 'Vy(3)');
    expectWithin(run.final.h, 3 - 3 * Math.SQRT2, 1e-12, 'h(3)');
    expect(run.rows.some(([t, h]) => Math.abs(t - Math.SQRT2) <= 1e-12 && Math.abs(h - 1) <= 1e-12)).toBe(true);
  });

  it("backwards: independent t from 5 to 0 with y(5) = 1 and y' = -y gives y(0) = e^5", () => {
    const run = simulate("independent t from 5 to 0\ny' = -y\ny(5) = 1", TIGHT);
    expect(run.rows[0][0]).toBe(5);
    for (let i = 1; i < run.rows.length; i++) expect(run.rows[i][0]).toBeLessThanOrEqual(run.rows[i - 1][0]);
    expectWithin(run.final.y, Math.exp(5), 1e-9 * Math.exp(5), 'y(0)');
  });

  it('backwards with --from 5 --to 0: the initial values hold where the model states them, or are given at 5', () => {
    // y(0) = 1 is stated at t = 0: it is not moved to t = 5 (range.test.ts has the rest)
    expect(() => simulate("independent t from 0 to 5\ny' = -y\ny(0) = 1", { ...TIGHT, from: 5, to: 0 })).toThrow(
      /^from 5: Model states its initial values at t = 0/,
    );
    const run = simulate("independent t from 0 to 5\ny' = -y\ny(0) = 1", { ...TIGHT, from: 5, to: 0, init: { y: 1 } });
    expect(run.final.t).toBe(0);
    expectWithin(run.final.y, Math.exp(5), 1e-9 * Math.exp(5), 'y(0)');
  });

  // BUG: going down in time, a state event fires three times at one crossing, a few ulps apart
  // (t = 0.4999999999999996, 0.49999999999999956, 0.49999999999999944 here; also with y' = -y
  // and with `falls`), and the run then stops with a spurious status zeno ("events of low
  // accumulate at t = 0.49999999999999944") instead of going on to t = 0: the event is not
  // disarmed after its own crossing in a backward run.
  it('backwards: a state event is found going down in time, once', () => {
    const run = simulate("independent t from 3 to 0\nevent low when y - 0.5 crosses\ny' = 1\ny(3) = 3", TIGHT);
    expect(run.status).toBe('ok');
    expect(run.events).toHaveLength(1);
    expectWithin(run.events[0].t, 0.5, 1e-12, 'event time');
    expectWithin(run.final.y, 0, 1e-12, 'y(0)');
    const exp = simulate("independent t from 3 to 0\nevent low when y - 0.5 crosses\ny' = -y\ny(3) = 0.1", TIGHT);
    expect(exp.events).toHaveLength(1);
    expectWithin(exp.events[0].t, 3 + Math.log(0.2), 1e-10, 'event time');
  });

  // BUG: integrating backwards, a delta's jump is applied with the forward sign. For
  // y' = -y + 2 delta(t - 1) with y(5) = 1 the solution has y(1+) - y(1-) = 2, so going down in
  // time y(1-) = e^4 - 2 and y(0) = e^5 - 2e = 142.9766; the run gives y(1-) = e^4 + 2 and
  // y(0) = 153.8497.
  it("backwards: y' = -y + 2 delta(t - 1) from y(5) = 1 down to t = 0", () => {
    const run = simulate("independent t from 5 to 0\ny' = -y + 2*delta(t - 1)\ny(5) = 1", TIGHT);
    expect(run.events).toHaveLength(1);
    expectWithin(run.events[0].pre.y, Math.exp(4), 1e-8, 'y(1+)');
    expectWithin(run.events[0].post.y, Math.exp(4) - 2, 1e-8, 'y(1-)');
    // y grows like e^(5 - t) going down: the global error is about rtol |y| over the range,
    // so the bound is relative (10 rtol |y| = 1.4e-7 here), not an absolute 1e-8.
    expectWithin(run.final.y, Math.exp(5) - 2 * Math.E, 10 * TIGHT.rtol * (Math.exp(5) - 2 * Math.E), 'y(0)');
  });
});

describe('failures keep their rows and say where', () => {
  it("a right-hand side that blows up: y' = y^2, y(0) = 1 (singular at t = 1)", () => {
    const run = simulate("independent t from 0 to 2\ny' = y^2\ny(0) = 1");
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/^the step size fell below the resolution of t .*, at t = 1\.0000/);
    expect(run.rows.length).toBeGreaterThan(10);
    expect(Math.abs(run.final.t - 1)).toBeLessThan(1e-3);
    // the rows computed so far follow y = 1/(1 - t)
    for (const [t, y] of run.rows.slice(0, 10)) expect(Math.abs(y - 1 / (1 - t))).toBeLessThanOrEqual(1e-5 * y);
  });

  it("NaN at the start: y' = sqrt(-1 - t)", () => {
    const run = simulate("independent t from 0 to 2\ny' = sqrt(-1 - t)\ny(0) = 1");
    expect(run.status).toBe('failed');
    expect(run.message).toBe("the right-hand side of y' (sqrt(-1 - t)) is NaN, at t = 0");
    expect(run.rows[0]).toEqual([0, 1]);
    expect(run.final).toEqual({ t: 0, y: 1 });
  });

  it("NaN inside the range: y' = sqrt(1 - t) fails at t = 1 with the rows before", () => {
    const run = simulate("independent t from 0 to 2\ny' = sqrt(1 - t)\ny(0) = 1", TIGHT);
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/at t = 0\.99999/);
    expect(Math.abs(run.final.t - 1)).toBeLessThan(1e-6);
    expectWithin(run.final.y, 1 + 2 / 3, 1e-6, 'y(1-)');
  });

  // BUG: a NaN found inside a step is reported as "the right-hand side became NaN or infinite
  // within the step, at t = 0.9999999999999968" without naming the variable (issue 3: the
  // message says which variable or event), unlike a NaN at a step end ("the right-hand side of y' is NaN").
  it('NaN inside a step names the variable', () => {
    const run = simulate("independent t from 0 to 2\ny' = sqrt(1 - t)\ny(0) = 1", TIGHT);
    expect(run.message).toMatch(/y'/);
  });

  // BUG: a failed run repeats its last row: y' = y^2 ends with two identical rows
  // [1.0000002407541058, 41804530848890.01]; y' = sqrt(-1 - t) with [0, 1], [0, 1]. Two rows with
  // the same independent value are how an event shows in the output (CLI.md), so a duplicate
  // without an event misleads readers of the CSV.
  it('a failed run writes each row once', () => {
    for (const model of [
      "independent t from 0 to 2\ny' = y^2\ny(0) = 1",
      "independent t from 0 to 2\ny' = sqrt(-1 - t)\ny(0) = 1",
    ]) {
      const run = simulate(model);
      const last = run.rows.at(-1)!,
        before = run.rows.at(-2);
      expect(before === undefined || before[0] !== last[0]).toBe(true);
    }
  });

  it.each([
    ['option maxEvents = 10 in the model', 'option maxEvents = 10\n', {}],
    ['maxEvents = 10 as an option of the run', '', { maxEvents: 10 }],
  ])('too many events (%s): failed, with the partial rows', (_how, option, extra) => {
    const run = simulate(
      `${option}independent t from 0 to 1\ndiscrete n = 0\nevent tick every 0.001 do n := n + 1 end\ny' = 1\ny(0) = 0`,
      extra,
    );
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/^more than 10 events by t = 0\.01.*maxEvents/);
    expect(run.events.length).toBeGreaterThanOrEqual(10);
    expect(run.events.length).toBeLessThanOrEqual(11);
    expect(run.rows.length).toBeGreaterThanOrEqual(2 * 10);
    expect(run.final.t).toBeLessThan(0.02);
    expectWithin(run.final.y, run.final.t, 1e-12, 'y = t');
  });

  it('a run with no end anywhere is an input error that says so', () => {
    expect(() => simulate("y' = 1\ny(0) = 0")).toThrow(SimulationInputError);
    expect(() => simulate("y' = 1\ny(0) = 0")).toThrow(
      "no end of the range: give 'independent t from A to B' in the model or --to on the command line",
    );
    expect(simulate("y' = 1\ny(0) = 0", { to: 2 }).final.y).toBeCloseTo(2, 14);
  });

  it('unknown names in set and init are input errors', () => {
    expect(() => simulate("independent t from 0 to 1\ny' = -y\ny(0) = 1", { set: { q: 2 } })).toThrow(
      "'q' is not a parameter or unknown of Model; they are: (none)",
    );
    expect(() => simulate("independent t from 0 to 1\ny' = -y\ny(0) = 1", { init: { q: 2 } })).toThrow(
      "'q' in init is not a state or discrete variable of Model; they are: y",
    );
  });
});

describe('several runs of one compiled model (several --init)', () => {
  const compiled = compileModel(referenceModel('iderk_551.delta'));
  const sim = new Simulator(compiled);

  it('IDERKSolve 5.5.1 from (0, 1) and from (1, 0), one simulator, independent results', () => {
    const a = sim.run({ ...TIGHT, init: { x: 0, y: 1 } });
    const b = sim.run({ ...TIGHT, init: { x: 1, y: 0 } });
    const a2 = sim.run({ ...TIGHT, init: { x: 0, y: 1 } });
    expectWithin(a.final.x, -0.468338448737103, 1e-8, 'x(6) from (0, 1)');
    expectWithin(a.final.y, -0.72300352518817219, 1e-8, 'y(6) from (0, 1)');
    expectWithin(b.final.x, 0.79655242186714322, 1e-8, 'x(6) from (1, 0)');
    expectWithin(b.final.y, -0.1186801972427949, 1e-8, 'y(6) from (1, 0)');
    expect(a2).toEqual(a);
    expect(a.events.map((e) => e.t)).toHaveLength(2);
    expectWithin(a.events[1].t, 4.805945049266893, 1e-9, 'second impact');
    expect(b.events).toHaveLength(3);
    expectWithin(b.events[0].t, Math.PI / 3, 1e-10, 'first impact from (1, 0)');
    expectWithin(b.events[1].t, 3.0480365847075904, 1e-9, 'second impact from (1, 0)');
    expectWithin(b.events[2].t, 4.9511282472203745, 1e-9, 'third impact from (1, 0)');
  });

  it('the library with the model text twice gives the same as the simulator', () => {
    expect(simulate(referenceModel('iderk_551.delta'), TIGHT)).toEqual(sim.run(TIGHT));
  });
});

describe('fixed-step rk4 with --locate exact|before|after (IDERKSolve jumpstep 0/1)', () => {
  const h = 0.05;
  const onGrid = (t: number) => Math.abs(t / h - Math.round(t / h)) <= 1e-9;

  it('before: the action at the step before the sign change, on the grid', () => {
    const run = simulate(SPEC_EXAMPLES.wall, { method: 'rk4', step: h, locate: 'before' });
    expect(run.events).toHaveLength(2);
    for (const ev of run.events) expect(onGrid(ev.t), `t = ${ev.t}`).toBe(true);
    expect(run.events[0].t).toBeCloseTo(0.5, 12);
    expect(run.events[0].pre.x).toBeLessThan(0.5);
    expectWithin(run.final.x, -0.468338448737103, 0.1, 'x(6)');
  });

  it('after: the action at the step after the sign change, on the grid', () => {
    const run = simulate(SPEC_EXAMPLES.wall, { method: 'rk4', step: h, locate: 'after' });
    expect(run.events).toHaveLength(2);
    for (const ev of run.events) expect(onGrid(ev.t), `t = ${ev.t}`).toBe(true);
    expect(run.events[0].t).toBeCloseTo(0.55, 12);
    expect(run.events[0].pre.x).toBeGreaterThan(0.5);
    expect(run.events[0].post.y).toBeCloseTo(-0.9 * run.events[0].pre.y, 15);
  });

  it('exact: located between the grid points to the accuracy of rk4', () => {
    const run = simulate(SPEC_EXAMPLES.wall, { method: 'rk4', step: h, locate: 'exact' });
    expect(run.events).toHaveLength(2);
    expect(Math.abs(run.events[0].t - Math.PI / 6)).toBeLessThan(1e-6);
    expect(Math.abs(run.events[1].t - 4.805945049266893)).toBeLessThan(1e-5);
  });
});

describe('MODEL-LANGUAGE.md examples, run', () => {
  it('two masses m1 = 1, m2 = 2, e = 0.8: one collision at t = 1, v1 = -0.2, v2 = 0.6', () => {
    const run = simulate(SPEC_EXAMPLES.twoMasses, TIGHT);
    expect(run.events).toHaveLength(1);
    expectWithin(run.events[0].t, 1, 1e-12, 'collision');
    expectWithin(run.final["x1'"], -0.2, 1e-12, "x1'");
    expectWithin(run.final["x2'"], 0.6, 1e-12, "x2'");
    expect(run.final.n).toBe(1);
    expect(run.columns).toEqual(['t', 'x1', "x1'", 'x2', "x2'", 'n', 'J']);
    expect(run.events[0].jumps).toMatchObject({ n: 1 });
    expectWithin(run.events[0].jumps["x1'"], -1.2, 1e-12, "x1' jump");
    expectWithin(run.events[0].jumps["x2'"], 0.6, 1e-12, "x2' jump");
    expect(run.events[0].source).toBe('event hit when x1 - x2 rises do n := n + 1 end');
  });

  it('the ball from h = 10 (no range in the model): first bounce at sqrt(20/g)', () => {
    const run = simulate(SPEC_EXAMPLES.bouncingBall, { ...TIGHT, to: 3 });
    expectWithin(run.events[0].t, Math.sqrt(20 / 9.81), 1e-12, 'first bounce');
    expectWithin(run.events[0].post["h'"], 0.8 * 9.81 * Math.sqrt(20 / 9.81), 1e-10, "h' after");
  });

  it('the rope, shot: the slope jumps by F/H at x = a', () => {
    // The first example (F = 2, supports at 0): the kink of F/H at x = 4 whatever H.
    const run = simulate(SPEC_EXAMPLES.heavyRope, { ...TIGHT, set: { H: 4 } });
    expect(run.events.map((e) => e.t)).toEqual([4]);
    expectWithin(run.events[0].jumps["y'"], 0.5, 1e-15, 'F/H');
  });
});

describe('the impulse ledger', () => {
  it('time events carry the delta term as written; state events the event statement', () => {
    const a = simulate(referenceModel('delta_a.delta'), TIGHT);
    expect(a.events.map((e) => ({ t: e.t, name: e.name, kind: e.kind, source: e.source, jumps: e.jumps }))).toEqual([
      { t: 1, name: 'delta(t - 1)', kind: 'time', source: '2*delta(t - 1)', jumps: { "y'": 2 } },
    ]);
    expect(a.events[0].post["y'"] - a.events[0].pre["y'"]).toBe(2);
    expect(a.events[0].pre.t).toBe(1);
    const periodic = simulate(
      "independent t from 0 to 1\ndiscrete n = 0\nevent tick every 0.25 do n := n + 1 end\ny' = 0\ny(0) = 0",
    );
    expect(periodic.events.map((e) => [e.t, e.kind, e.jumps.n])).toEqual([
      [0, 'periodic', 1],
      [0.25, 'periodic', 1],
      [0.5, 'periodic', 1],
      [0.75, 'periodic', 1],
      [1, 'periodic', 1],
    ]);
    expect(periodic.final.n).toBe(5);
  });
});

describe('state events the engine must not miss', () => {
  it('an event function that oscillates with the state: y = sin t crosses 0.9 four times in [0, 20]', () => {
    const run = simulate(
      "independent t from 0 to 20\ndiscrete n = 0\nevent up when y - 0.9 rises do n := n + 1 end\ny' = cos(t)\ny(0) = 0",
      TIGHT,
    );
    const exact = [0, 1, 2, 3].map((k) => Math.asin(0.9) + 2 * Math.PI * k);
    expect(run.events).toHaveLength(4);
    run.events.forEach((e, i) => expectWithin(e.t, exact[i], 1e-8, `crossing ${i + 1}`));
  });

  // BUG: a state event whose function rises and falls back inside one step is missed when the
  // right-hand side lets the integrator take long steps: with y' = 1 (exact for any step), the
  // crossings of sin(t) - 0.9 near 7.40 and 13.69 are missed (2 of 4 found, at default and at
  // tight tolerances); `sin(pi*t) - 0.5 rises` with y' = 2 on [0, 3] finds 1 of 2 at rtol 1e-12,
  // and `crosses` finds 2 of 4 at the default tolerances. STYLE.md 9: sample inside the step
  // where a function may cross twice (the rate cos(t) changes sign twice within such a step).
  it('an event function of time alone is not missed when steps are long', () => {
    for (const options of [{}, TIGHT]) {
      const run = simulate(
        "independent t from 0 to 20\ndiscrete n = 0\nevent up when sin(t) - 0.9 rises do n := n + 1 end\ny' = 1\ny(0) = 0",
        options,
      );
      const exact = [0, 1, 2, 3].map((k) => Math.asin(0.9) + 2 * Math.PI * k);
      expect(run.events).toHaveLength(4);
      run.events.forEach((e, i) => expectWithin(e.t, exact[i], 1e-9, `crossing ${i + 1}`));
    }
    const both = simulate(
      "independent t from 0 to 3\ndiscrete n = 0\nevent E when sin(pi*t) - 0.5 crosses do n := n + 1 end\ny' = 2\ny(0) = 0",
    );
    expect(both.events.map((e) => Math.round(e.t * 6))).toEqual([1, 5, 13, 17]);
  });

  // BUG (regression of c471cd3/eca6270, "restart after an event with the previous step size"):
  // with a flat state the kicks at t = 4 and 5 are missed (3 of 5 found, 11 steps); before those
  // commits all 5 were found. Same cause as the skipped test above: crossings inside long steps.
  it("kicks of a time function with a flat state: 5.5.4 with x' = 0", () => {
    const run = simulate(
      "independent t from 0 to 5.5\ndiscrete n = 0\nevent kick when sin(pi*t) crosses do n := n + 1 end\ny' = 0\ny(0) = 0",
      TIGHT,
    );
    expect(run.events).toHaveLength(5);
    run.events.forEach((e, i) => expectWithin(e.t, i + 1, 4e-15 * (i + 1), `kick ${i + 1}`));
  });
});

describe('stats.method names what integrated the run (CLI.md)', () => {
  // y' = -y + delta(t - 1): a stepper model, not the analytic path, whatever the method
  const source = "model M\nindependent t from 0 to 2\ny' = -y*y + delta(t - 1)\ny(0) = 1";
  it.each(['dopri5', 'dop853', 'rodas', 'radau5', 'rk4', 'euler'] as const)('%s reports itself', (method) => {
    const r = simulate(source, { method });
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe(method);
  });
  it('auto reports the method in use at the end, and why', () => {
    const r = simulate(source, { method: 'auto' });
    expect(['dopri5', 'rodas', 'radau5']).toContain(r.stats.method);
    expect(r.stats.methodReason).toBeTypeOf('string');
  });
});
