/**
 * Events at one instant (EVENTS.md 2; issue 20, item 1): two crossings that coincide in exact
 * arithmetic both fire, whatever the scales of their functions, on every method and on the
 * analytic path; an action that turns a function resting at its zero across fires it at the
 * same instant (Newton's cradle); increments from events at one instant all count. Counts
 * and velocities are exact: equal masses in elastic impacts exchange their velocities.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, Simulator, simulate } from '../src/index.js';

const METHODS = ['auto', 'dopri5', 'dop853', 'rodas', 'radau5'] as const;
const TOLERANCES = [{}, { rtol: 1e-10, atol: 1e-12 }];

/** Point spheres of unit mass on a line, with Newton's law at every gap; `hits` counts the impacts. */
function spheres(x: number[], v: number[], e: number, tEnd: number): string {
  const n = x.length;
  const lines = [
    `independent t from 0 to ${tEnd}`,
    `parameter m = 1, e = ${e}`,
    'discrete hits = 0',
    `output ${x.map((_, i) => `x${i + 1}'`).join(', ')}, hits`,
  ];
  for (let i = 1; i < n; i++) {
    lines.push(`event c${i} when x${i + 1} - x${i} falls do hits := hits + 1 end`);
    lines.push(`J${i} = (1 + e)*m/2*(x${i}' - x${i + 1}')`);
  }
  for (let i = 1; i <= n; i++) {
    const terms = [];
    if (i > 1) terms.push(`+ J${i - 1}*delta(t - c${i - 1})`);
    if (i < n) terms.push(`- J${i}*delta(t - c${i})`);
    lines.push(`m*x${i}'' = ${terms.join(' ').replace(/^\+ /, '')}`);
    lines.push(`x${i}(0) = ${x[i - 1]}; x${i}'(0) = ${v[i - 1]}`);
  }
  return lines.join('\n') + '\n';
}

describe('two crossings at one instant on different scales both fire', () => {
  // gaps of 1 closing at 0.6 near x = 1 and near x = 3026: both close at t = 5/3 exactly; the
  // second gap's rounding (ulp(3026) = 4.5e-13) puts its location up to about 1e-12 away
  const model = compileModel(spheres([1, 2, 3026, 3027], [0.3, -0.3, 0.3, -0.3], 1, 3));
  const sim = new Simulator(model);
  for (const method of METHODS)
    for (const tol of TOLERANCES)
      it(`${method}${tol.rtol ? ' at rtol 1e-10' : ''}: two impacts, the velocities exchanged`, () => {
        const run = sim.run({ method, ...tol, record: false });
        expect(run.status).toBe('ok');
        expect(run.final.hits).toBe(2);
        expect(run.events.map((e) => e.name).sort()).toEqual(['c1', 'c3']);
        // (the far pair's positions carry a few ulps of 3026 (4.5e-13 each) of the steps'
        // rounding; at a closing speed of 0.6, 16 of them are 1.2e-11 in time)
        for (const e of run.events) expect(Math.abs(e.t - 5 / 3)).toBeLessThan((16 * 4.547e-13) / 0.6);
        expect([1, 2, 3, 4].map((i) => run.final[`x${i}'`])).toEqual([-0.3, 0.3, -0.3, 0.3]);
      });
});

describe('increments from events at one instant all count', () => {
  // two balls dropped together bounce at the same instant, exactly
  const balls = `independent t from 0 to 1
parameter g = 9.81
discrete hits = 0, lost = 0
output hits, lost
event ba when a falls do hits := hits + 1; lost := lost - a' end
event bb when b falls do hits := 1 + hits; lost := lost - b' end
a'' = -g - 2*a'*delta(t - ba)
b'' = -g - 2*b'*delta(t - bb)
a(0) = 1; a'(0) = 0
b(0) = 1; b'(0) = 0
`;
  for (const method of METHODS)
    it(`${method}: hits = 2, and lost adds both speeds`, () => {
      const run = simulate(balls, { method, rtol: 1e-10, atol: 1e-12 });
      expect(run.status).toBe('ok');
      expect(run.events).toHaveLength(2);
      expect(run.events[0].t).toBe(run.events[1].t);
      expect(run.final.hits).toBe(2);
      // each arrives at sqrt(2 g h) = sqrt(19.62)
      expect(Math.abs(run.final.lost - 2 * Math.sqrt(19.62))).toBeLessThan(1e-8);
    });
});

describe("Newton's cradle: an impact passes through spheres at rest in contact at the same instant", () => {
  for (const n of [3, 5]) {
    // the first sphere at 0 moving at 1; the others at rest at x = 1, touching (gaps of 0)
    const x = [0, ...Array<number>(n - 1).fill(1)];
    const v = [1, ...Array<number>(n - 1).fill(0)];
    const sim = new Simulator(compileModel(spheres(x, v, 1, 3)));
    for (const method of METHODS)
      it(`${n} spheres, ${method}: n - 1 impacts at t = 1, the last one leaves at 1, the others stay`, () => {
        const run = sim.run({ method });
        expect(run.status).toBe('ok');
        expect(run.final.hits).toBe(n - 1);
        expect(run.events.map((e) => e.name)).toEqual(Array.from({ length: n - 1 }, (_, i) => `c${i + 1}`));
        // (located to the rounding of the gap, 3.6e-15 at x = 1, at a closing speed of 1)
        for (const e of run.events) expect(Math.abs(e.t - 1)).toBeLessThan(1e-14);
        const speeds = Array.from({ length: n }, (_, i) => run.final[`x${i + 1}'`]);
        expect(speeds).toEqual([...Array<number>(n - 1).fill(0), 1]);
      });
  }

  it('3 spheres, e = 0.5: the impacts alternate until they part, as sequential impacts give', () => {
    // c1: (1, 0, 0) -> (1/4, 3/4, 0); c2: -> (1/4, 3/16, 9/16); c1: -> (13/64, 15/64, 9/16)
    const run = new Simulator(compileModel(spheres([0, 1, 1], [1, 0, 0], 0.5, 3))).run({});
    expect(run.status).toBe('ok');
    expect(run.events.map((e) => e.name)).toEqual(['c1', 'c2', 'c1']);
    expect([1, 2, 3].map((i) => run.final[`x${i}'`])).toEqual([13 / 64, 15 / 64, 9 / 16]);
  });
});

describe('rows of many spheres: exact impact counts where pairs far apart collide at one instant', () => {
  // the peer benchmark's row (W5): at N = 4096, T = 5 two pairs (near spheres 499 and 3026) meet at
  // t = 2.4657020840114 in exact arithmetic; losing one loses six more impacts after it
  it('4096 spheres over [0, 5] on the stepper (dopri5): exactly 5832 impacts', async () => {
    const { rowModel, exactHits } = await import('../bench/w5/row-model.mjs');
    expect(exactHits(4096, 5)).toBe(5832);
    const run = simulate(rowModel(4096, 5), { method: 'dopri5', record: false, eventValues: false });
    expect(run.status).toBe('ok');
    expect(run.final.hits).toBe(5832);
  }, 120_000);
});

describe('a scheduled event and a crossing at one instant are one instant', () => {
  // tick every 0.1 (from t = 0) and `t - 0.3 rises` meet at 0.3 in exact arithmetic; in
  // doubles 3·0.1 is 0.30000000000000004, so the ticks are put on the decimal grid (k/10)
  const source = [
    'model Tick',
    'independent t from 0 to 1',
    'discrete n = 0, m = -1, q = -1, k = -1',
    'event tick every 0.1 do n := n + 1; q := m end',
    'event e when t - 0.3 rises do m := n end',
    'event f at 0.7 do k := n end',
    "x' = 1",
    'x(0) = 0',
  ].join('\n');
  const model = compileModel(source);
  it.each([...METHODS, 'rk4', 'analytic'] as const)(
    '%s: the ticks fall on k/10 exactly, and the tick and the crossing at 0.3 read the values before it',
    (method) => {
      const r = new Simulator(model).run({ method });
      expect(r.status).toBe('ok');
      const ticks = r.events.filter((e) => e.name === 'tick').map((e) => e.t);
      // (radau5 places a crossing's instant on its solution a double before the zero, and the
      // tick with it: one ulp of 0.3)
      expect(Math.abs(ticks[3] - 0.3)).toBeLessThanOrEqual(Number.EPSILON * 0.3);
      expect([...ticks.slice(0, 3), ...ticks.slice(4)]).toEqual([0, 0.1, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
      // one instant at 0.3, in file order: the tick reads m before it (-1), e reads n before it (3)
      const e = r.events.find((x) => x.name === 'e')!;
      expect(r.events.filter((x) => x.t === e.t).map((x) => x.name)).toEqual(['tick', 'e']);
      expect(e.post.m).toBe(3);
      expect(r.events.find((x) => x.name === 'tick' && x.t === e.t)!.post.q).toBe(-1);
      // `at 0.7` and the tick at 7/10: together, f reads n before the tick (7 ticks from 0 to 0.6)
      expect(r.final.k).toBe(7);
    },
  );
  it('periods that are not short decimals keep from + k·period (every 1/3: k/3 to an ulp)', () => {
    const r = simulate(
      "model P\nindependent t from 0 to 10\ndiscrete n = 0\nevent tick every 1/3 do n := n + 1 end\nx' = 1\nx(0) = 0",
      {
        method: 'dopri5',
      },
    );
    const ticks = r.events.map((e) => e.t);
    expect(ticks.length).toBe(31);
    ticks.forEach((t, k) => expect(Math.abs(t - k / 3)).toBeLessThanOrEqual(2 * Number.EPSILON * Math.max(1, k / 3)));
  });
  it('a decimal start and period: every 0.1 from 0.05 meets at 0.35 exactly', () => {
    const r = simulate(
      "model P\nindependent t from 0 to 1\ndiscrete n = 0, m = -1\nevent tick every 0.1 from 0.05 do n := n + 1 end\nevent f at 0.35 do m := n end\nx' = 1\nx(0) = 0",
      { method: 'dopri5' },
    );
    const ticks = r.events.filter((e) => e.name === 'tick').map((e) => e.t);
    expect(ticks).toEqual([0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95]);
    // together at 0.35: f reads the count before that instant's tick
    expect(r.final.m).toBe(3);
  });
});

describe('a scheduled instant met by an interacting crossing within the rounding of the motion', () => {
  // x' = 1 from 0: `x - 0.3 rises` and the tick at 0.3 coincide in exact arithmetic, and each
  // reads what the other writes. A stepper's x at 0.3 is off by rounding (0.29999999999999993
  // on dopri5), so the order cannot be told: together (m = 3, q = -1, as exact arithmetic and
  // the analytic path give) or "precision ran out", never apart with status ok (m = 4)
  const model = compileModel(
    [
      'model Tick',
      'independent t from 0 to 0.5',
      'discrete n = 0, m = -1, q = -1',
      'event tick every 0.1 do n := n + 1; q := m end',
      'event e when x - 0.3 rises do m := n end',
      "x' = 1",
      'x(0) = 0',
    ].join('\n'),
  );
  it.each([...METHODS, 'rk4', 'analytic'] as const)('%s', (method) => {
    const r = new Simulator(model).run({ method });
    if (method === 'analytic') expect(r.status).toBe('ok');
    if (r.status === 'ok') {
      expect(r.final.m).toBe(3);
      const e = r.events.find((x) => x.name === 'e')!;
      expect(r.events.filter((x) => x.t === e.t).map((x) => x.name)).toEqual(['tick', 'e']);
      expect(r.events.find((x) => x.name === 'tick' && x.t === e.t)!.post.q).toBe(-1);
    } else {
      expect(r.status).toBe('failed');
      expect(r.message).toMatch(/^precision ran out at t = 0\.3.*tick.*order decides the result/);
    }
  });
  it('additions commute: events that only add to a variable are not ordered by it', () => {
    // each adds to lost (an accumulator: lost := lost - v'), so two balls bouncing at one
    // instant on floors far apart both bounce, whatever rounding places them apart
    const r = simulate(
      [
        'independent t from 0 to 0.8',
        'parameter g = 9.81, e = 0.5',
        'discrete lost = 0',
        "event ba when a falls do lost := lost - a' end",
        "event bb when b - 3026 falls do lost := lost - b' end",
        "a'' = -g - (1 + e)*a'*delta(t - ba)",
        "b'' = -g - (1 + e)*b'*delta(t - bb)",
        "a(0) = 1; a'(0) = 0",
        "b(0) = 3027; b'(0) = 0",
      ].join('\n'),
      { method: 'dopri5', rtol: 1e-10, atol: 1e-12 },
    );
    expect(r.status).toBe('ok');
    expect(r.events.map((x) => x.name).sort()).toEqual(['ba', 'bb']);
    expect(Math.abs(r.final.lost - 2 * Math.sqrt(2 * 9.81))).toBeLessThan(1e-8);
  });
});

describe('a scheduled event, a crossing that commutes with it and one that does not, at one time', () => {
  // at T: tick (a := a + 1), e (b := b + 1, commutes with both) and f (c := a, reads what tick
  // writes). Together, f reads a before the instant: c = 0. The analytic path took tick as an
  // instant of its own because it commuted with e, the first crossing due, and f then read a = 1.
  const source = (T: number) =>
    [
      'model B',
      `independent t from 0 to ${2 * T}`,
      'discrete a = 0, b = 0, c = 0',
      `event tick at ${T} do a := a + 1 end`,
      `event e when x - ${T} rises do b := b + 1 end`,
      `event f when y - ${T} rises do c := a end`,
      "x' = 1",
      "y' = 1",
      'x(0) = 0; y(0) = 0',
    ].join('\n');
  it.each([1, 1e3, 1e6, 3026.1].flatMap((T) => ([...METHODS, 'rk4', 'analytic'] as const).map((m) => [T, m] as const)))(
    'at %s, %s: c = 0 with status ok, or precision ran out',
    (T, method) => {
      const r = simulate(source(T), { method });
      if (method === 'analytic' || method === 'auto') expect(r.status).toBe('ok');
      if (r.status === 'ok') expect([r.final.a, r.final.b, r.final.c]).toEqual([1, 1, 0]);
      else expect(r.message).toMatch(/^precision ran out/);
    },
  );
});
