/**
 * `dense: true`: the solution as a function of t over the whole range (SciPy's
 * `dense_output`, DifferentialEquations.jl's `sol(t)`), jumps included. Checked against
 * closed forms at random times, in units of the tolerance for the adaptive methods and by
 * its convergence order for the fixed-step ones; both limits at an event against the ledger,
 * bit for bit; the store against each stepper's own dense output; its memory and its limit.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, METHODS, shoot, simulate, SimulationInputError, Simulator } from '../src/index.js';
import { thrown } from './api-helpers.js';
import { SPEC_EXAMPLES } from './helpers.js';

/** A reproducible sequence in [0, 1) (a linear congruential generator). */
function uniform(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const randomTimes = (count: number, to: number, seed = 1) => {
  const u = uniform(seed);
  return Array.from({ length: count }, () => u() * to);
};

const OSCILLATOR = compileModel(`y'' = -y
y(0) = 1; y'(0) = 0`);
const DECAY = compileModel(`y' = -y
y(0) = 1`);
/** stiff: y follows cos t within 1/1000 (auto switches to its implicit method) */
const STIFF = compileModel(`y' = -1000*(y - cos(t))
x' = -x + y
y(0) = 0; x(0) = 1`);

const ADAPTIVE = ['dopri5', 'dop853', 'rodas', 'radau5'] as const;

/** The ball of SPEC_EXAMPLES (h0 = 10, g = 9.81, e = 0.8) in closed form: bounce times, height and speed. */
const g = 9.81,
  e = 0.8;
const t1 = Math.sqrt((2 * 10) / g);
const bounces: number[] = [t1];
for (let k = 1; k < 8; k++) bounces.push(bounces[k - 1] + (2 * g * t1 * e ** k) / g);
function ball(t: number): { h: number; v: number } {
  if (t < t1) return { h: 10 - (g * t * t) / 2, v: -g * t };
  let k = 0;
  while (k + 1 < bounces.length && bounces[k + 1] <= t) k++;
  const s = t - bounces[k],
    v0 = g * t1 * e ** (k + 1);
  return { h: v0 * s - (g * s * s) / 2, v: v0 - g * s };
}

describe('dense: true, the solution as a function of t', () => {
  it.each([...METHODS])(
    "%s: the solution is the stepper's own dense output, read back to rounding (sol at the outputStep rows)",
    (method) => {
      for (const model of method === 'euler' || method === 'rk4' ? [OSCILLATOR] : [OSCILLATOR, STIFF]) {
        const step = method === 'euler' || method === 'rk4' ? 0.01 : undefined;
        const r = simulate(model, { to: 3, dense: true, method, rtol: 1e-6, atol: 1e-9, outputStep: 1e-3, step });
        expect(r.status).toBe('ok');
        let diff = 0;
        for (const row of r.rows) {
          const v = r.sol!(row[0]);
          r.columns.forEach((c, i) => (diff = Math.max(diff, Math.abs(v[c] - row[i]))));
        }
        expect(diff).toBeLessThan(1e-14);
      }
    },
  );

  it.each(ADAPTIVE)(
    '%s: exp(-t) and cos t at 2000 random times, within 100 tolerances (rtol 1e-8, atol 1e-10)',
    (method) => {
      const rtol = 1e-8,
        atol = 1e-10;
      for (const [model, exact] of [
        [DECAY, Math.exp.bind(null) as (t: number) => number],
        [OSCILLATOR, Math.cos],
      ] as const) {
        const f = model === DECAY ? (t: number) => exact(-t) : exact;
        const r = simulate(model, { to: 10, dense: true, method, rtol, atol });
        let worst = 0;
        for (const t of randomTimes(2000, 10)) {
          const y = f(t);
          worst = Math.max(worst, Math.abs(r.sol!(t).y - y) / (atol + rtol * Math.abs(y)));
        }
        // measured: at most 81 (rodas on the oscillator, whose step ends are 60 off), 62
        // for dop853 (its dense output is of order 7, one below its steps), 12 for dopri5
        expect(worst).toBeLessThan(100);
      }
    },
  );

  it.each([
    ['rk4', 4],
    ['euler', 1],
  ] as const)('%s: the dense solution converges with the order of the method (%i)', (method, order) => {
    const times = randomTimes(2000, 10);
    const errors = [0.05, 0.025, 0.0125].map((step) => {
      const r = simulate(OSCILLATOR, { to: 10, dense: true, method, step });
      return Math.max(...times.map((t) => Math.abs(r.sol!(t).y - Math.cos(t))));
    });
    for (let i = 1; i < errors.length; i++)
      expect(Math.abs(Math.log2(errors[i - 1] / errors[i]) - order)).toBeLessThan(0.2);
  });

  it('the analytic path: closed forms at any t (the oscillator, exp(-t)) to rounding', () => {
    const osc = simulate(OSCILLATOR, { to: 10, dense: true });
    const decay = simulate(DECAY, { to: 10, dense: true });
    expect([osc.stats.method, decay.stats.method]).toEqual(['analytic', 'analytic']);
    for (const t of randomTimes(500, 10)) {
      expect(Math.abs(osc.sol!(t).y - Math.cos(t))).toBeLessThan(1e-14);
      expect(Math.abs(osc.sol!(t)["y'"] + Math.sin(t))).toBeLessThan(1e-14);
      expect(Math.abs(decay.sol!(t).y - Math.exp(-t))).toBeLessThan(1e-15);
    }
  });

  it.each(['analytic', 'dopri5', 'dop853', 'radau5'] as const)(
    '%s: the bouncing ball at random times, and both limits at each bounce exactly as the ledger has them',
    (method) => {
      const r = simulate(SPEC_EXAMPLES.bouncingBall, { to: 5, dense: true, method, rtol: 1e-10, atol: 1e-12 });
      expect(r.status).toBe('ok');
      expect(r.stats.method).toBe(method);
      // (two bounces by t = 5: the third is at 5.54)
      expect(r.events).toHaveLength(2);
      for (const t of randomTimes(1000, 5)) {
        const v = r.sol!(t),
          x = ball(t);
        expect(Math.abs(v.h - x.h)).toBeLessThan(1e-8);
        expect(Math.abs(v["h'"] - x.v)).toBeLessThan(1e-8);
      }
      for (const ev of r.events) {
        const left = r.sol!(ev.t, 'left'),
          right = r.sol!(ev.t);
        expect(left).toEqual(ev.pre);
        expect(right).toEqual(ev.post);
        expect(r.sol!(ev.t, 'right')).toEqual(right);
        expect(right["h'"]).toBeCloseTo(-e * left["h'"], 8);
      }
      expect(r.sol!(0)).toEqual({ t: 0, h: 10, "h'": 0 });
      expect(r.sol!(5)).toEqual(r.final);
      expect([r.sol!.from, r.sol!.to]).toEqual([0, 5]);
      expect(r.sol!.columns).toEqual(r.columns);
    },
  );

  it('a counter at the events: the value before the instant from below, after it from above, on both paths', () => {
    const counted = `parameter g = 9.81, e = 0.8
discrete n = 0
event bounce when h falls do n := n + 1 end
h'' = -g - (1 + e)*h'*delta(t - bounce)
h(0) = 10; h'(0) = 0`;
    for (const method of ['analytic', 'dopri5'] as const) {
      const r = simulate(counted, { to: 5, dense: true, method, rtol: 1e-10, atol: 1e-12 });
      r.events.forEach((ev, k) => {
        expect(r.sol!(ev.t, 'left').n).toBe(k);
        expect(r.sol!(ev.t).n).toBe(k + 1);
        expect(r.sol!((ev.t + (r.events[k + 1]?.t ?? 5)) / 2).n).toBe(k + 1);
      });
      expect(r.sol!(0.1).n).toBe(0);
    }
  });

  it('two masses colliding (two clock groups and a step variable): the analytic and the stepper solutions agree', () => {
    const analytic = simulate(SPEC_EXAMPLES.twoMasses, { dense: true });
    const stepper = simulate(SPEC_EXAMPLES.twoMasses, { dense: true, method: 'dop853', rtol: 1e-11, atol: 1e-13 });
    expect(analytic.stats.method).toBe('analytic');
    expect(analytic.events).toHaveLength(1);
    for (const t of randomTimes(500, 5)) {
      const a = analytic.sol!(t),
        s = stepper.sol!(t);
      for (const c of analytic.columns) expect(Math.abs(a[c] - s[c])).toBeLessThan(1e-9);
    }
    for (const r of [analytic, stepper]) {
      const ev = r.events[0];
      expect(r.sol!(ev.t, 'left')).toEqual(ev.pre);
      expect(r.sol!(ev.t)).toEqual(ev.post);
    }
  });

  it('a backward run: from below and from above keep their meaning (the ledger pre is from above)', () => {
    const kicked = compileModel(`independent t from 2 to 0
y' = -y + delta(t - 1)
y(2) = 1`);
    const r = simulate(kicked, { dense: true, method: 'dopri5', rtol: 1e-11, atol: 1e-13 });
    expect(r.status).toBe('ok');
    const ev = r.events[0];
    expect(ev.t).toBe(1);
    // backwards from y(2) = 1: y = e^(2 - t) above 1, then 1 less below it
    expect(r.sol!(1, 'right').y).toBe(ev.pre.y);
    expect(r.sol!(1, 'left').y).toBe(ev.post.y);
    expect(r.sol!(1).y).toBe(ev.pre.y);
    for (const t of randomTimes(200, 2)) {
      const exact = t > 1 ? Math.exp(2 - t) : (Math.E - 1) * Math.exp(1 - t);
      expect(Math.abs(r.sol!(t).y - exact)).toBeLessThan(1e-9);
    }
    expect([r.sol!.from, r.sol!.to]).toEqual([2, 0]);
  });

  it('a switch of the right-hand side (no jump): the solution follows both branches', () => {
    const braked = `y' = if y > 0.5 then -1 else -2
y(0) = 1`;
    const r = simulate(braked, { to: 0.6, dense: true, method: 'dopri5' });
    for (const t of randomTimes(200, 0.6)) {
      const exact = t <= 0.5 ? 1 - t : 0.5 - 2 * (t - 0.5);
      expect(Math.abs(r.sol!(t).y - exact)).toBeLessThan(1e-12);
    }
  });

  it('a solution outlives the next run of its Simulator, and works with a sink and without rows', () => {
    const sim = new Simulator(OSCILLATOR);
    const a = sim.run({ to: 10, dense: true, method: 'dopri5', rtol: 1e-10, atol: 1e-12 });
    const b = sim.run({ to: 3, dense: true, method: 'dopri5', rtol: 1e-10, atol: 1e-12, init: { y: 2 } });
    expect(a.sol!(7).y).toBeCloseTo(Math.cos(7), 8);
    expect(b.sol!(2).y).toBeCloseTo(2 * Math.cos(2), 8);
    const rows: number[] = [];
    const streamed = simulate(OSCILLATOR, {
      to: 10,
      dense: true,
      method: 'dopri5',
      record: false,
      sink: { row: (row) => rows.push(row[0]) },
    });
    expect(streamed.rows).toEqual([]);
    expect(streamed.sol!(7).y).toBeCloseTo(Math.cos(7), 5);
    const row = new Float64Array(3);
    expect(streamed.sol!.into(7, row)).toBe(row);
    expect([...row]).toEqual(Object.values(streamed.sol!(7)));
  });

  it('holds what the steps need: (degree + 1) states and 3 numbers a step, within twice that (chunks grow by doubling)', () => {
    const r = simulate(OSCILLATOR, { to: 1000, dense: true, method: 'dopri5', rtol: 1e-10, atol: 1e-12 });
    const perStep = (3 + 5 * 2) * 8;
    expect(r.sol!.bytes).toBeGreaterThanOrEqual(r.stats.steps * perStep);
    expect(r.sol!.bytes).toBeLessThan(2 * r.stats.steps * perStep + 4096);
    // the analytic path keeps where each motion starts: nothing for the oscillator but its start
    expect(simulate(OSCILLATOR, { to: 1000, dense: true }).sol!.bytes).toBeLessThan(1024);
  });

  it('past maxDenseBytes the run fails with a message naming the limit; the solution covers what was kept', () => {
    const r = simulate(OSCILLATOR, { to: 1000, dense: true, method: 'dopri5', maxDenseBytes: 100_000 });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(
      /^the dense solution \(dense: true\) would hold more than 97\.7 KiB by t = [\d.]+ \(its limit, maxDenseBytes\): ask for rows at the times you need instead \(outputTimes; --output-times on the command line\), shorten the range, or raise maxDenseBytes$/,
    );
    const to = r.sol!.to;
    expect(to).toBeGreaterThan(10);
    expect(to).toBeLessThan(1000);
    expect(r.sol!(to / 2).y).toBeCloseTo(Math.cos(to / 2), 5);
    expect(r.sol!.bytes).toBeLessThanOrEqual(100_000);
    const bounced = simulate(SPEC_EXAMPLES.bouncingBall, { to: 12, dense: true, maxDenseBytes: 300 });
    expect(bounced.stats.method).toBe('analytic');
    expect(bounced.status).toBe('failed');
    expect(bounced.message).toMatch(/^the dense solution \(dense: true\) would hold more than 300 bytes by t = /);
    expect(bounced.sol!.to).toBeLessThan(12);
  });

  it('bad arguments: a SimulationInputError that says what the solution takes', () => {
    const r = simulate(DECAY, { to: 2, dense: true });
    const err = (f: () => unknown) => thrown(SimulationInputError, f).message;
    expect(err(() => r.sol!(3))).toBe('sol(3): t must be a number from 0 to 2 (the range of the solution), got 3');
    expect(err(() => r.sol!(Number.NaN))).toBe(
      'sol(NaN): t must be a number from 0 to 2 (the range of the solution), got NaN',
    );
    expect(err(() => r.sol!('1' as never))).toBe(
      'sol(1): t must be a number from 0 to 2 (the range of the solution), got string',
    );
    expect(err(() => r.sol!(1, 'middle' as never))).toBe(
      "sol(1): the side must be 'left' (the limit from below, before a jump) or 'right' (from above, the default), got 'middle'",
    );
    expect(err(() => r.sol!.into(1, new Float64Array(1)))).toBe(
      'sol.into: the row must be a Float64Array of at least 2 values (t, y)',
    );
    expect(err(() => simulate(DECAY, { dense: 'yes' as never }))).toBe("dense must be true or false, got 'yes'");
    expect(err(() => simulate(DECAY, { maxDenseBytes: 0 }))).toBe(
      'maxDenseBytes must be a whole number of at least 1, got 0',
    );
    expect(err(() => simulate(DECAY, { dense_output: true } as never))).toMatch(
      /^unknown option 'dense_output' \(the nearest is dense\)/,
    );
    expect(simulate(DECAY, { to: 2 }).sol).toBeUndefined();
  });
});

describe('instants of several events (delayed spikes, event iteration)', () => {
  // leaky integrate-and-fire neurons coupled by delayed delta synapses: an arriving spike
  // lifts a neuron over its threshold at that very instant (event iteration)
  const network = `independent t from 0 to 60
parameter N = 4, tau = 10, vth = 1, vr = 0, w = 0.3, d = 2
parameter I[1:N] = [1.1 + 0.4*(i - 1)/(N - 1) for i in 1:N]
discrete spikes = 0
for i in 1:N
  event spike[i] when v[i] - vth rises do v[i] := vr; spikes := spikes + 1 end
  v[i]' = (-v[i] + I[i])/tau + sum(j in 1:i-1, w*delta(t - spike[j] - d)) + sum(j in i+1:N, w*delta(t - spike[j] - d))
  v[i](0) = 0
end`;

  it.each(['analytic', 'dopri5'] as const)(
    "%s: from below, the ledger's pre of the instant's first event; from above, the post of its last",
    (method) => {
      const r = simulate(network, { dense: true, method, rtol: 1e-10, atol: 1e-12 });
      expect(r.status).toBe('ok');
      expect(r.stats.method).toBe(method);
      const evs = r.events;
      let shared = 0;
      for (let i = 0; i < evs.length; i++) {
        if (i > 0 && evs[i - 1].t === evs[i].t) continue;
        let j = i;
        while (j + 1 < evs.length && evs[j + 1].t === evs[i].t) j++;
        if (j > i) shared++;
        expect(r.sol!(evs[i].t, 'left')).toEqual(evs[i].pre);
        expect(r.sol!(evs[i].t)).toEqual(evs[j].post);
      }
      // (instants of several events do occur)
      expect(shared).toBeGreaterThan(10);
    },
  );
});

describe('dense: true elsewhere', () => {
  it('shoot: the solution of the converged unknowns has its sol; the shots keep none', () => {
    const rope = `independent x from 0 to 1\nunknown p = 0\ny'' = 0\ny(0) = 0; y'(0) = p\ny(1) = 1`;
    const r = shoot(rope, { dense: true, rtol: 1e-10, atol: 1e-12 });
    expect(r.converged).toBe(true);
    expect(r.solution!.sol!(0.25).y).toBeCloseTo(0.25, 9);
  });
});
