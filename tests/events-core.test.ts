/**
 * The event core's principles (EVENTS.md) against exactly known answers: re-arming follows
 * the action, zero is judged on each function's own scale, accumulation is a limit, and
 * every run that cannot go on says why (status failed, a message naming the cause, the rows
 * so far). Counts are exact; times and values are checked to what the arithmetic allows.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileModel, simulate, Simulator } from '../src/index.js';

const TIGHT = { rtol: 1e-10, atol: 1e-12 };
const EXAMPLES = new URL('../examples/', import.meta.url);
const example = (file: string) => readFileSync(new URL(file, EXAMPLES), 'utf8');

describe('re-arming follows the action (EVENTS.md, 2)', () => {
  it('a reset that moves its own function away re-arms it: the sawtooth fires at 0.5, 1, 1.5, 2', () => {
    const run = simulate(
      "independent t from 0 to 2.2\nevent e when y - 0.5 rises do y := 0 end\ny' = 1\ny(0) = 0",
      TIGHT,
    );
    expect(run.status).toBe('ok');
    expect(run.events.map((e) => e.t)).toHaveLength(4);
    // each instant is y's own crossing: the times add up one rounding per period
    run.events.forEach((e, i) => expect(Math.abs(e.t - 0.5 * (i + 1))).toBeLessThan(8 * Number.EPSILON * (i + 1)));
    expect(run.final.y).toBeCloseTo(0.2, 12);
  });

  it('a function left at zero by its action (a bounce) fires again only after leaving zero: IDERK 5.5.4 on [0, 6]', () => {
    const run = simulate(example('iderk_554.delta').replace('from 0 to 5.5', 'from 0 to 6'), TIGHT);
    expect(run.status).toBe('ok');
    expect(run.events).toHaveLength(5);
    run.events.forEach((e, i) => expect(Math.abs(e.t - (i + 1))).toBeLessThan(1e-14 * (i + 1)));
    // x(6) = 2 e^-6 + sum_{k=1..5} e^-(6-k): the decay with a unit kick at every integer
    let exact = 2 * Math.exp(-6);
    for (let k = 1; k <= 5; k++) exact += Math.exp(-(6 - k));
    expect(exact).toBeCloseTo(0.583012883017071, 14);
    expect(Math.abs(run.final.x - exact) / exact).toBeLessThan(1e-8);
  });
});

describe("zero on the function's own scale (EVENTS.md, 1)", () => {
  // Exact counts by rational arithmetic (tests/fixtures/lead/c12_exact_counts.py); the
  // source reports n = 1263 at e = 0.1715763 (ACSL, double precision).
  const cases: [number, number][] = [
    [0.1715763, 1263],
    [0.1716, 452],
    [0.1718, 157],
    [0.172, 115],
    [0.175, 40],
    [0.18, 25],
  ];
  const model = compileModel(example('c12_task_b.delta'), 'c12_task_b.delta');
  const sim = new Simulator(model);
  for (const [e, n] of cases) {
    it(`C12 task b in relative coordinates: n(${e}) = ${n}, gaps down to subnormal numbers`, () => {
      const run = sim.run({ set: { e }, record: false, eventValues: false });
      expect(run.status).toBe('ok');
      expect(run.final.n).toBe(n);
      expect(run.events).toHaveLength(n);
    });
  }
  it('C12 task b: the final velocities are 0.25 below e = 0.175, and the exact ones at 0.18', () => {
    for (const e of [0.1715763, 0.172]) {
      const run = sim.run({ set: { e }, record: false, eventValues: false });
      for (const v of ['v1', 'v2', 'v3', 'v4'])
        expect(Math.abs(run.final[v] - 0.25), `${v} at e = ${e}`).toBeLessThan(1e-12);
    }
    // exact rationals, as doubles
    const run = sim.run({ set: { e: 0.18 }, record: false, eventValues: false });
    const exact = [0.24999980660774823, 0.2499999676963612, 0.25000008034460275, 0.25000014535128784];
    ['v1', 'v2', 'v3', 'v4'].forEach((v, i) => expect(Math.abs(run.final[v] - exact[i]), v).toBeLessThan(1e-12));
  });

  it('C12 in absolute positions near the critical e: "precision ran out", never ok or zeno with a wrong count', () => {
    const abs = new Simulator(compileModel(example('c12_task_a.delta')));
    for (const [e, n] of [
      [0.1715763, 1263],
      [0.172, 115],
    ]) {
      const run = abs.run({ set: { e }, record: false, eventValues: false });
      expect(run.status).toBe('failed');
      expect(run.message).toMatch(
        /^precision ran out at t = [\d.]+: after c\d\d(, c\d\d)*, the function of event c\d\d \(x\d - x\d\) is .*within its own rounding/,
      );
      expect(run.final.n).toBeLessThan(n);
    }
    // where the positions resolve every gap, the count is exact (6 at e = 0.5)
    expect(abs.run({ set: { e: 0.5 } }).final.n).toBe(6);
  });

  it('a ball scaled by 1e-200 bounces at the same times as one of unit size (no absolute threshold anywhere)', () => {
    const ball = (s: number) =>
      `independent t from 0 to 20\nparameter g = ${9.81 * s}, e = 0.8\nevent bounce when h falls\nh'' = -g - (1 + e)*h'*delta(t - bounce)\nh(0) = ${s}; h'(0) = 0`;
    const unit = simulate(ball(1), { ...TIGHT, record: false, eventValues: false });
    const tiny = simulate(ball(1e-200), { rtol: 1e-10, atol: 1e-212, record: false, eventValues: false });
    expect(tiny.status).toBe('zeno');
    expect(unit.status).toBe('zeno');
    // The bounces located before the stop are those the arithmetic resolves (about 131 of
    // them, the last ones 1e-13 long): their number, but not their times, depends on rounding.
    expect(Math.abs(tiny.events.length - unit.events.length)).toBeLessThanOrEqual(2);
    expect(Math.abs(tiny.accumulationPoint! - unit.accumulationPoint!)).toBeLessThan(1e-12);
    // the scaled parameters differ in their last bits: times agree to rounding, not bits
    for (let i = 0; i < Math.min(unit.events.length, tiny.events.length); i++)
      expect(Math.abs(tiny.events[i].t - unit.events[i].t)).toBeLessThan(1e-12);
  });
});

describe('contact and accumulation (EVENTS.md, 2-3)', () => {
  const push = `independent t from 0 to 3
parameter m1 = 1, m2 = 1, e = 0, F = 1
event hit when x1 - x2 rises
J = (1 + e)*m1*m2/(m1 + m2)*(x1' - x2')
m1*x1'' = F - J*delta(t - hit)
m2*x2'' = J*delta(t - hit)
x1(0) = 0; x1'(0) = 1; x2(0) = 1; x2'(0) = 0`;

  it('a plastic impact that the force keeps pushing is a persisting contact, not a pass-through', () => {
    const run = simulate(push, TIGHT);
    expect(run.status).toBe('failed');
    expect(run.events).toHaveLength(1);
    expect(Math.abs(run.events[0].t - (Math.sqrt(3) - 1))).toBeLessThan(1e-14);
    expect(run.message).toMatch(
      /^persisting contact at t = 0\.7320508075688\d*: after event hit, x1 - x2 stays at zero with zero rate while the motion pushes it across/,
    );
    // never through: m1 is not ahead of m2 anywhere in the rows
    for (const r of run.rows) expect(r[1] - r[3]).toBeLessThanOrEqual(1e-15);
  });

  it('elastic enough to separate: impacts at sqrt(3) - 1 and sqrt(3) - 1 + sqrt(3) by t = 3, status ok', () => {
    const run = simulate(push, { ...TIGHT, set: { e: 0.5 } });
    expect(run.status).toBe('ok');
    expect(run.events.map((e) => e.t)).toHaveLength(2);
    expect(Math.abs(run.events[1].t - (2 * Math.sqrt(3) - 1))).toBeLessThan(1e-12);
  });

  it('Zeno only where the events converge inside the range: a ball whose accumulation point lies past the end runs to the end', () => {
    const ball =
      "independent t from 0 to 4\nparameter g = 9.81, e = 0.8\nevent bounce when h falls\nh'' = -g - (1 + e)*h'*delta(t - bounce)\nh(0) = 1; h'(0) = 0";
    const run = simulate(ball, TIGHT);
    // t_inf = t1 (1 + e)/(1 - e) = 4.0637 > 4
    expect(run.status).toBe('ok');
    expect(run.final.t).toBe(4);
  });
});

describe('runs that cannot go on end promptly and say why (status failed, rows kept)', () => {
  it('a right-hand side that is NaN just after the start names the variable and the expression', () => {
    const run = simulate("independent t from 0 to 1\ny' = -1\nz' = sqrt(y + 1)\ny(0) = -1; z(0) = 0");
    expect(run.status).toBe('failed');
    expect(run.message).toContain("the right-hand side of z' (sqrt(y + 1)) is NaN");
    expect(run.rows.length).toBeGreaterThan(0);
    expect(run.stats.steps).toBeLessThan(10_000);
  });

  it('a discontinuity not written with if/sign (it chatters) is named, not crept through', () => {
    const run = simulate("independent t from 0 to 1\nx' = 0.5 - atan2(x, 0)\nx(0) = 0.1", { record: false });
    expect(run.status).toBe('failed');
    expect(run.message).toContain("the right-hand side of x' = 0.5 - atan2(x, 0) jumps within the last step");
  });

  it('a stiff problem under an explicit method says so, after a bounded number of steps', () => {
    const run = simulate("independent t from 0 to 1\ny' = -1e12*y\ny(0) = 1", { method: 'dopri5', record: false });
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/the problem looks stiff .*run it with --method rodas/);
    expect(run.stats.steps).toBeLessThan(10_000);
  });

  it('maxSteps: a limit with a message, and the rows up to it', () => {
    const run = simulate("independent t from 0 to 1000\ny' = cos(t)\ny(0) = 0", { maxSteps: 100 });
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/^more than 100 steps by t = [\d.]+: /);
    expect(run.stats.steps).toBeLessThanOrEqual(100);
    expect(run.stats.steps + run.stats.rejected).toBeGreaterThanOrEqual(100);
    expect(run.rows.length).toBeGreaterThan(50);
    expect(() => simulate("y' = 1\ny(0) = 0", { to: 1, maxSteps: 0 })).toThrow(
      'maxSteps must be a whole number of at least 1, got 0',
    );
  });

  it('a model without states runs: its outputs over the range', () => {
    const run = simulate('independent t from 0 to 1\ny = sin(t)');
    expect(run.status).toBe('ok');
    expect(run.final.y).toBe(Math.sin(1));
    for (const r of run.rows) expect(r[1]).toBe(Math.sin(r[0]));
  });
});

describe('streaming and output density (EVENTS.md, 5)', () => {
  const ball =
    "independent t from 0 to 3\nparameter g = 9.81, e = 0.8\nevent bounce when h falls\nh'' = -g - (1 + e)*h'*delta(t - bounce)\nh(0) = 1; h'(0) = 0";

  it('a sink receives every row and ledger entry as produced; the result keeps none', () => {
    const inMemory = simulate(ball, TIGHT);
    const rows: number[][] = [];
    const events: string[] = [];
    const streamed = simulate(ball, {
      ...TIGHT,
      sink: { row: (r) => rows.push(Array.from(r)), event: (e) => events.push(`${e.name}@${e.t}`) },
    });
    expect(streamed.rows).toHaveLength(0);
    expect(streamed.events).toHaveLength(0);
    expect(rows).toEqual(inMemory.rows);
    expect(events).toEqual(inMemory.events.map((e) => `${e.name}@${e.t}`));
    expect(streamed.final).toEqual(inMemory.final);
  });

  it('outputStep: one row per step of the grid from the dense output, plus both rows of every event and the ends', () => {
    const run = simulate(ball, { ...TIGHT, outputStep: 0.25 });
    const grid = run.rows.filter(
      (r) => Math.abs(r[0] / 0.25 - Math.round(r[0] / 0.25)) < 1e-12 && r[0] !== 0 && r[0] !== 3,
    );
    expect(grid.map((r) => r[0])).toEqual([0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75]);
    // free fall before the first bounce: h = 1 - g t^2/2 exactly on the grid
    for (const r of grid.filter((r) => r[0] < 0.45)) expect(r[1]).toBeCloseTo(1 - (9.81 * r[0] * r[0]) / 2, 12);
    expect(run.rows.length).toBe(2 + grid.length + 2 * run.events.length);
    // rows on a grid are read off the dense output: the integration itself is the same
    const everyStep = simulate(ball, TIGHT);
    expect(run.final).toEqual(everyStep.final);
    expect(run.events.map((e) => e.t)).toEqual(everyStep.events.map((e) => e.t));
  });

  it('outputStep rows inside a step cut by an event are read at their own times (C12: the gaps never go negative)', () => {
    const run = simulate(example('c12_task_b.delta'), { set: { e: 0.5 }, to: 12, outputStep: 0.02 });
    expect(run.status).toBe('ok');
    const y = ['y1', 'y2', 'y3'].map((k) => run.columns.indexOf(k));
    for (const r of run.rows) for (const j of y) expect(r[j], `t = ${r[0]}`).toBeGreaterThanOrEqual(-1e-12);
    // the first impact is at t = 1 exactly, where sphere 1 has covered the unit gap at unit speed
    expect(Math.abs(run.events[0].t - 1)).toBeLessThan(1e-15);
  });

  it("eventsOnly: the two ends and each event's before and after rows", () => {
    const run = simulate(ball, { ...TIGHT, eventsOnly: true });
    expect(run.rows.length).toBe(2 + 2 * run.events.length);
    expect(run.rows[0][0]).toBe(0);
    expect(run.rows[run.rows.length - 1][0]).toBe(3);
  });

  it('maxRows: rows kept in memory and rows streamed to a sink have the same limit, with a message', () => {
    const run = simulate("independent t from 0 to 100\ny' = cos(t)\ny(0) = 0", { maxRows: 50 });
    expect(run.status).toBe('failed');
    expect(run.rows).toHaveLength(50);
    expect(run.message).toMatch(
      /^more than 50 rows by t = .*\(the row limit, maxRows; --max-rows on the command line\)/,
    );
    // (issue 21, item 10: a sink writing to a file would otherwise fill the disk)
    let count = 0;
    const streamed = simulate("independent t from 0 to 100\ny' = cos(t)\ny(0) = 0", {
      maxRows: 50,
      sink: {
        row: () => {
          count++;
        },
      },
    });
    expect(streamed.status).toBe('failed');
    expect(streamed.message).toBe(run.message);
    expect(count).toBe(50);
  });
});

describe('many bodies (W5): cost per event O(N), exact counts', () => {
  it('1024 spheres in a row over t in [0, 20]: exactly 6582 impacts, energy kept, no false "precision ran out"', async () => {
    const { rowModel, exactHits, velocities } = await import('../bench/w5/row-model.mjs');
    expect(exactHits(1024, 20)).toBe(6582);
    // the written-out model with its kinetic energy as an output
    // (in four partial sums: one expression may be at most 1000 operations deep)
    const part = (q: number) => Array.from({ length: 256 }, (_, i) => `x${256 * q + i + 1}'^2`).join(' + ');
    const sums = [0, 1, 2, 3].map((q) => `E${q} = ${part(q)}\n`).join('');
    const text =
      rowModel(1024, 20).replace('output x1, x1024, hits', 'output x1, x1024, hits, E') +
      sums +
      'E = (E0 + E1 + E2 + E3)/2\n';
    const run = new Simulator(compileModel(text)).run({ record: false, eventValues: false });
    expect(run.status).toBe('ok');
    expect(run.final.hits).toBe(6582);
    // one step per impact, give or take the end: the cost does not hide in extra steps
    expect(run.stats.steps).toBeLessThan(6582 + 50);
    // elastic, equal masses: speeds are only exchanged, so the kinetic energy stays what it was
    const e0 = velocities(1024).reduce((sum, v) => sum + v * v, 0) / 2;
    expect(Math.abs(run.final.E - e0) / e0).toBeLessThan(1e-9);
  }, 60_000);
});

describe('option zeno = continue: contacts held as constraints (EVENTS.md, 2)', () => {
  const push = readFileSync(new URL('two_masses_push.delta', EXAMPLES), 'utf8');

  it('two masses pushed together after a plastic impact move as one: x1(3) = x2(3) = 4.25', () => {
    const run = simulate(push, TIGHT);
    expect(run.status).toBe('ok');
    expect(run.events).toHaveLength(1);
    // meet at sqrt(3) - 1 with speeds sqrt(3) and 0; then together at F/2 from sqrt(3)/2
    const t1 = Math.sqrt(3) - 1,
      v = Math.sqrt(3) / 2,
      x = (t: number) => 1 + v * (t - t1) + (t - t1) ** 2 / 4;
    expect(Math.abs(run.final.x1 - x(3))).toBeLessThan(1e-9);
    expect(Math.abs(run.final.x2 - x(3))).toBeLessThan(1e-9);
    expect(x(3)).toBeCloseTo(4.25, 14);
    expect(run.contacts).toHaveLength(1);
    expect(Math.abs(run.contacts![0].from - t1)).toBeLessThan(1e-14);
    expect(run.contacts![0].to).toBeNull();
  });

  it('the force reversed at t = 2: they part there (x1(3) = 3.5, x2(3) = 4)', () => {
    const run = simulate(push, { ...TIGHT, set: { Treverse: 2 } });
    expect(run.status).toBe('ok');
    expect(run.contacts).toHaveLength(1);
    expect(Math.abs(run.contacts![0].to! - 2)).toBeLessThan(1e-12);
    expect(Math.abs(run.final.x1 - 3.5)).toBeLessThan(1e-9);
    expect(Math.abs(run.final.x2 - 4)).toBeLessThan(1e-9);
  });

  it('without the option the same model stops with a persisting contact (never passes through)', () => {
    const run = simulate(push, { ...TIGHT, zeno: 'stop' });
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/^persisting contact at t = 0\.73205080756887\d*/);
  });

  it('a bouncing ball on [0, 20] rests on the floor after its accumulation point t_inf = 12.8506', () => {
    const ball =
      "independent t from 0 to 20\nparameter g = 9.81, e = 0.8\noption zeno = continue\nevent bounce when h falls\nh'' = -g - (1 + e)*h'*delta(t - bounce)\nh(0) = 10; h'(0) = 0";
    const run = simulate(ball, { ...TIGHT, eventValues: false });
    expect(run.status).toBe('ok');
    // t_inf = t1 (1 + e)/(1 - e), t1 = sqrt(2 h0/g)
    const tInf = (Math.sqrt(20 / 9.81) * 1.8) / 0.2;
    expect(Math.abs(run.contacts![0].from - tInf)).toBeLessThan(1e-9);
    expect(Math.abs(run.final.h)).toBeLessThan(1e-12);
    expect(run.final["h'"]).toBe(0);
    for (const r of run.rows.filter((row) => row[0] > tInf + 1e-6)) {
      expect(Math.abs(r[1])).toBeLessThan(1e-12);
      expect(r[2]).toBe(0);
    }
  });

  it("a ball on a table moving as A sin(w t) rides it while the table's downward acceleration is below g, and lifts off where it reaches g", () => {
    const table = readFileSync(new URL('ball_on_table.delta', EXAMPLES), 'utf8');
    const run = simulate(table, { ...TIGHT, eventValues: false });
    expect(run.status).toBe('ok');
    expect(run.contacts!.length).toBeGreaterThanOrEqual(8);
    const A = 0.05,
      w = 16,
      g = 9.81;
    for (const c of run.contacts!) {
      if (c.to === null) continue;
      // lift-off where T'' = -A w^2 sin(w t) = -g
      expect(Math.abs(-A * w * w * Math.sin(w * c.to) + g)).toBeLessThan(1e-6);
    }
    // it never sinks into the table
    for (const r of run.rows) expect(r[1] - r[2]).toBeGreaterThan(-1e-10);
    // without the option it stops at the first contact with a clear message, no fall-through
    const stop = simulate(table, { ...TIGHT, zeno: 'stop', eventValues: false });
    expect(stop.status).toBe('failed');
    expect(stop.message).toMatch(/^persisting contact at t = 0\.7076/);
  });
});
