/**
 * The stepper driver, round 3 of "no wrong answer with status ok" (issue 20): findings of the
 * adversarial hunts on the other layers that belonged to the driver, each against its exact
 * answer, on every stepper.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { residueRuns } from './residue-runs.js';

const STEPPERS = ['dopri5', 'dop853', 'rodas', 'radau5', 'rk4', 'euler'] as const;

describe('an event sent across by event iteration is armed as it stands', () => {
  // x = u + S with u' = -1 and S kicked by 2 at t = 1: x crosses 0 at 0.5 (down), is sent
  // across at 1 by the kick (-0.5 to 1.5: event iteration fires `cross` with the delta), and
  // crosses again at 2.5. The steppers held it "at zero" as if located there, with a zero the
  // size of 1.5, and missed 2.5 (n = 2, status ok); the analytic path had 3.
  const kick = `independent t from 0 to 3
discrete n = 0, last = -1
event cross when x crosses do n := n + 1; last := t end
x' = -1 + 2*delta(t - 1)
x(0) = 0.5`;
  it.each(['auto', ...STEPPERS] as const)('%s: the crossings at 0.5, 1 and 2.5', (method) => {
    const r = simulate(kick, { method, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.final.n).toBe(3);
    // x is linear: the steppers locate it to the rounding of t (rk4 and euler: their dense
    // output is exact for a line, but their fixed steps add rounding over 3000 steps)
    expect(Math.abs(r.final.last - 2.5)).toBeLessThan(1e-12);
  });

  // z = 1 + 1.2 t - 0.2 t^2; a (x - 1 rises, x = t) sets z := 0 at t = 1 and sends b
  // (z - 0.5 falls) across; a2 at 1.2 sets z := 0 again with b already below 0.5; b's next
  // fall is on the way down from z's next peak: z = 1.2 (s) - 0.2 s^2 ... from t = 1.2 with
  // z' = 1.2 - 0.4 t at 1.2 = 0.72: 0.72 s - 0.2 s^2 = 0.5 falling at s = (0.72 + sqrt(0.72^2 - 0.4))/0.4.
  // The steppers failed with a false "persisting contact" at 3.958.
  const resets = `independent t from 0 to 8
discrete n = 0, last = -1
event a when x - 1 rises do z := 0 end
event a2 when x - 1.2 rises do z := 0 end
event b when z - 0.5 falls do n := n + 1; last := t end
x' = 1
z'' = -0.4
z(0) = 1; z'(0) = 1.2
x(0) = 0`;
  const second = 1.2 + (0.72 + Math.sqrt(0.72 * 0.72 - 0.4)) / 0.4;
  it.each(['auto', ...STEPPERS] as const)('%s: b at 1 (sent across) and at the fall after a2', (method) => {
    const r = simulate(resets, { method, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.final.n).toBe(2);
    // z is a parabola: exact on every stepper's dense output up to rounding, but rk4 and euler
    // step z' through 1000 fixed steps of 8e-3 (euler's error is of order h: a few h)
    expect(Math.abs(r.final.last - second)).toBeLessThan(method === 'euler' ? 5e-2 : 1e-9);
  });
});

describe('a scheduled instant and a crossing at one time in exact arithmetic are one instant', () => {
  // Actions read the values before their instant. Each model has a tick or an `at` and a
  // crossing at one time in exact (decimal) arithmetic, a few ulps apart in doubles; apart,
  // the second reads what the first wrote. Found by the hunt on the analytic path (helper 20),
  // which already takes them as one instant.
  const cases: [string, string, Record<string, number>][] = [
    [
      // x - 2 rises at 2, `at 2` reads m: dop853 and rk4 crossed 1e-15 before 2 (seen = 1,
      // status ok); dopri5 and radau5 said "precision ran out"
      'at 2 reads what the crossing at 2 writes',
      `independent t from 0 to 3
discrete m = 0, seen = -1, n = 0
event tick every 0.1 do n := n + 1 end
event at2 at 2 do seen := m end
event c when x - 2 rises do m := m + 1 end
x' = 1
x(0) = 0`,
      { seen: 0, m: 1, n: 31 },
    ],
    [
      // a collision at 1.5 near x = 1e4 (positions round to 1.8e-12): located 1e-12 before
      // `at 1.5`, which read the velocity after it (v = 0, status ok)
      'a collision near x = 1e4 at the time of `at 1.5`',
      `independent t from 0 to 3
discrete v = -1, hits = 0
event col when x2 - x1 falls do x1' := x2'; x2' := 1; hits := hits + 1 end
event at15 at 1.5 do v := x1' end
x1'' = 0; x2'' = 0
x1(0) = 10000.3; x2(0) = 10001.8
x1'(0) = 1; x2'(0) = 0`,
      { v: 1, hits: 1 },
    ],
    [
      // x = 1.1 - 2.5 t reaches zero at 0.44, where `at 0.44` turns it back; in doubles the
      // root is an ulp after 0.44, and `x falls` never fired (m = 0, status ok)
      'a crossing an ulp after `at 0.44`, which turns the motion back',
      `independent t from 0 to 1
discrete m = 0, k = 0
event a at 0.44 do k := 1 end
event b when x falls do m := m + 1 end
x' = -2.5 + 5*k
x(0) = 1.1`,
      { m: 1, k: 1 },
    ],
    [
      // the sawtooth x - 0.3 rises (x := 0) meets every third tick of `every 0.1`: c reads n
      // before the tick there (bad counts the readings that were not), and its last crossing
      // is the end of the range, no event of it. Near t = 1e6 the ticks and crossings are a
      // few 1e-11 apart, within half an ulp of t: read after the tick (bad = 4), or the end
      // counted (m = 10); at 0: "precision ran out".
      'the sawtooth and the ticks near t = 0',
      `independent t from 0 to 3
discrete n = 0, m = 0, bad = 0
event tick every 0.1 from 0 do n := n + 1 end
event c when x - 0.3 rises do m := m + 1; bad := bad + (if n == 3*m + 3 then 0 else 1); x := 0 end
x' = 1
x(0) = 0`,
      { n: 31, m: 9, bad: 0 },
    ],
    [
      'the sawtooth and the ticks near t = 1e6',
      `independent t from 1e6 to 1000003
discrete n = 0, m = 0, bad = 0
event tick every 0.1 from 1e6 do n := n + 1 end
event c when x - 0.3 rises do m := m + 1; bad := bad + (if n == 3*m + 3 then 0 else 1); x := 0 end
x' = 1
x(1e6) = 0`,
      { n: 31, m: 9, bad: 0 },
    ],
    [
      // on [0, 4e-9] two crossings 5e-16 apart are a relative 5e-7 apart: two instants, b reads
      // m after a (they were one, within 4 ulps of 1: seen = 0)
      'two crossings a relative 5e-7 apart on a range of 4e-9',
      `independent t from 0 to 4e-9
discrete m = 0, seen = -1
event a when x - 1 rises do m := 1 end
event b when y - 1 rises do seen := m end
x' = 1e9
y' = 1e9/(1 + 5e-7)
x(0) = 0; y(0) = 0`,
      { m: 1, seen: 1 },
    ],
  ];
  // (rk4's 1000 fixed steps carry the state's rounding along: its crossings of the collision
  // and of `at 0.44` come 2e-15 early, more than t's and the function's own rounding; it is
  // left out of those two)
  const rk4Drifts = new Set([
    'a collision near x = 1e4 at the time of `at 1.5`',
    'a crossing an ulp after `at 0.44`, which turns the motion back',
  ]);
  it.each(
    cases.flatMap(([name, text, want]) =>
      (['auto', 'dopri5', 'dop853', 'rodas', 'radau5', 'rk4'] as const)
        .filter((m) => m !== 'rk4' || !rk4Drifts.has(name))
        .map((m) => [name, m, text, want] as const),
    ),
  )('%s, %s', (_name, method, text, want) => {
    const r = simulate(text, { method, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.final).toMatchObject(want);
  });
});

describe('event iteration at a zero located at the instant: the residue has no sign (steppers)', () => {
  // x = v t reaches th at t1 = th/v: e0 turns it back (x' := -x'), which sends e2 across at
  // the same instant, and e2 moves x to th + 0.5: a reset, after which e0 does not fire
  // again; x falls back to th at t2 = t1 + 0.5/v. The located crossing is a rounding short of
  // or past th; where short, the reset read as a crossing from below and e0 fired again
  // (status ok): on every stepper, 678 to 813 of the 813 runs (the analytic path: 37, fixed
  // in fire.ts, tests/round3-analytic.test.ts).
  it.each(['dopri5', 'dop853', 'rodas', 'radau5', 'rk4'] as const)('%s: all 813 runs', (method) => {
    // x is linear: exact up to the rounding of the few instants (rk4's 1000 steps add 1e-13)
    expect(residueRuns({ method }, 1e-11)).toBe(813);
  });
});

describe('pulses at one instant on one level, and arguments that jump', () => {
  // Found by the hunt on the symbolic stage (helper 19). Marcus flows of two events at one
  // instant on one level each started from the values before the instant and overwrote the
  // other: y' = y delta(t - 1) + y delta(2t - 2) gave e^0.5 (the pulses of weights 1 and 1/2:
  // exact e^1.5), and with `event e at 1` y' = y delta(t - e) + y delta(t - 1) gave e (exact
  // e^2). They now compose in file order (exact for commuting flows), and each event's
  // ledger jump is its own flow's (it was 0).
  const marcus = (text: string) => `option deltaRule = marcus\nindependent t from 0 to 2\n${text}`;
  it.each(STEPPERS.filter((m) => m !== 'rk4' && m !== 'euler'))('%s: e^1.5 and e^2', (method) => {
    const a = simulate(marcus("y' = y*delta(t - 1) + y*delta(2*t - 2)\ny(0) = 1"), { method });
    expect(a.status).toBe('ok');
    // (each flow to FLOW_TOLERANCE of the run's tolerance, rtol 1e-6)
    expect(Math.abs(a.final.y - Math.exp(1.5))).toBeLessThan(1e-6 * Math.exp(1.5));
    expect(a.events.map((e) => e.jumps.y)).toEqual([
      expect.closeTo(Math.E - 1, 6),
      expect.closeTo(Math.exp(0.5) - 1, 6),
    ]);
    const b = simulate(marcus("event e at 1\ny' = y*delta(t - e) + y*delta(t - 1)\ny(0) = 1"), { method });
    expect(Math.abs(b.final.y - Math.exp(2))).toBeLessThan(1e-6 * Math.exp(2));
  });

  // A delta's argument that an action jumps across zero never passes through it: no weight.
  // n := 0.5 at t = 1 moves t - n from -4 to 0.5 (y = 1, exact 0); n := 2 at x = 1 moves
  // x n - 1 from -1 to 1 (y = 0.5, exact 0), on every method. n := 2 from 5 leaves t - n below zero until the
  // motion takes it across at t = 2: weight 1.
  it.each(['auto', ...STEPPERS] as const)('%s: jumped across, no impulse; moved across, weight 1', (method) => {
    const jumped = simulate(
      `independent t from 0 to 3\ndiscrete n = 5\nevent e at 1 do n := 0.5 end\ny' = delta(t - n)\ny(0) = 0`,
      { method },
    );
    expect(jumped.status).toBe('ok');
    expect(jumped.final.y).toBe(0);
    const product = simulate(
      `independent t from 0 to 3\ndiscrete n = 0\nevent e at 1 do n := 2 end\nx' = 1\ny' = delta(x*n - 1)\nx(0) = 0; y(0) = 0`,
      { method },
    );
    expect(product.final.y).toBe(0);
    const moved = simulate(
      `independent t from 0 to 3\ndiscrete n = 5\nevent e at 1 do n := 2 end\ny' = delta(t - n)\ny(0) = 0`,
      { method },
    );
    expect(moved.final.y).toBe(1);
  });
});

describe('an action that leaves a variable not finite fails at its instant', () => {
  // y' = sqrt(x - 2)*delta(t - 1) at x = 1: the jump is NaN. The steppers went on and failed
  // at the end of the range, "S1 is NaN at t = 3", naming neither the jump nor its time.
  it.each(STEPPERS)('%s: at t = 1, naming the jump and the delta', (method) => {
    const r = simulate(`independent t from 0 to 3\nx' = 1\ny' = sqrt(x - 2)*delta(t - 1)\nx(0) = 0; y(0) = 0`, {
      method,
    });
    expect(r.status).toBe('failed');
    expect(r.final.t).toBe(1);
    expect(r.message).toBe(
      'the actions at t = 1 leave the jumps of y = NaN: event delta(t - 1) (sqrt(x - 2)*delta(t - 1)); check the expression for the values at that instant (a root or log of a negative number, a division by zero)',
    );
  });
  it.each(STEPPERS)('%s: a discrete variable set to log of a negative number', (method) => {
    const r = simulate(
      `independent t from 0 to 3\ndiscrete k = 1\nevent e at 1 do k := log(k - 2) end\nx' = k\nx(0) = 0`,
      { method },
    );
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^the actions at t = 1 leave k = NaN: event e \(event e at 1 do k := log\(k - 2\) end\)/);
  });
});

describe('the ledger of an instant of several events: each line its own actions', () => {
  // a, b and c at t = 1: a adds 1 to k, b adds 2 to k and sets w, c (a crossing at 1) adds 4
  // to k. Each ledger line's jump is what its own actions did from the values before the
  // instant; the state after is all of them (k = 7).
  const text = `independent t from 0 to 2
discrete k = 0, w = 0
event a at 1 do k := k + 1 end
event b at 1 do k := k + 2; w := 5 end
event c when x - 1 rises do k := k + 4 end
x' = 1
x(0) = 0`;
  it.each(['auto', ...STEPPERS] as const)('%s', (method) => {
    const r = simulate(text, { method, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.final.k).toBe(7);
    expect(r.final.w).toBe(5);
    const at1 = r.events.filter((e) => e.t === 1);
    expect(at1.map((e) => e.name)).toEqual(['a', 'b', 'c']);
    expect(at1.map((e) => e.jumps)).toEqual([{ k: 1 }, { k: 2, w: 5 }, { k: 4 }]);
  });
});

describe('two while rules that stop at one instant', () => {
  // G = 3x while 0.5 < x < 1 and G = -2x while x <= 1: the first active rule gives G, so it
  // keeps 3 from x = 1 on. G.hold2 fires where `C2 and not C1` falls, which it never does
  // after x = 0.5: it is below zero there and touches zero at x = 1. radau5 (since its error
  // is measured on both ends of a step) lands exactly on x = 1, where that function is -0
  // with rate -1, and the crossing of G.hold1 took it along as coincident (G = -2, status ok;
  // the fuzz run of 1e5 models found it). A function at zero at the step's start now shows
  // the side it comes from in the step's middle.
  const text = `independent t from 0 to 2.2
parameter k = 1
x' = k
G = 3*x while x > 0.5*k and x < 1*k
G = -2*x while x <= 1*k
y'' = k while x > 0.5*k
x(0) = 0; y(0) = 0; y'(0) = 0
output G`;
  it.each(['auto', ...STEPPERS] as const)('%s: G keeps 3', (method) => {
    const r = simulate(text, { method, rtol: 1e-10, atol: 1e-12, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(Math.abs(r.final.G - 3)).toBeLessThan(1e-12);
  });
});
