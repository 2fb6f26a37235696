/**
 * Round 4: test problems from other tools' own test suites and documentation (PETSc TS
 * tutorials, deSolve, DifferentialEquations.jl's docs, the Wolfram Language's WhenEvent
 * examples, SciPy's test_ivp.py, heyoka's event tutorial, Assimulo's examples), written as a
 * user would write them in the model language and checked against their exact or published
 * answers. Each source is cited where its model is; every number below is either a closed
 * form computed here or the source's printed value.
 *
 * Tolerances: at the default rtol 1e-6 / atol 1e-9 an event time is off by the state's error
 * over the run divided by the function's rate there (1e-5 covers every case below with a
 * margin of 3 or more); at rtol 1e-10 / atol 1e-12, 1e-8. Polynomial motion (free flight)
 * is exact on every stepper's dense output, so its times are checked to 1e-9 everywhere.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import type { MethodName } from '../src/index.js';
import { eventTimes as times, expectTimes } from './helpers.js';

const TIGHT = { rtol: 1e-10, atol: 1e-12 };
/** the methods every problem runs on: the default, one explicit and one implicit, each at default and tight tolerances */
const RUNS: [MethodName, { rtol?: number; atol?: number }, number][] = [
  ['auto', {}, 1e-5],
  ['dopri5', TIGHT, 1e-8],
  ['dop853', {}, 1e-5],
  ['rodas', {}, 1e-5],
  ['radau5', TIGHT, 1e-8],
];

/** a ball thrown up at v from the ground under g, v := -e v at each bounce: the bounce times below T */
function bounceTimes(v: number, g: number, e: number, T: number, count = Infinity): number[] {
  const out: number[] = [];
  for (let t = (2 * v) / g; t < T && out.length < count; v *= e, t += (2 * v) / g) out.push(t);
  return out;
}

describe('PETSc src/ts/tutorials/ex40.c: a ball from the ground, stopped after 10 bounces', () => {
  // u1' = u2, u2' = -9.8 from u = (0, 20); u2 := -0.9 u2 at u1 = 0 (direction -1); the second
  // event, maxbounces - nbounces (terminal), ends the run at the 10th bounce. Printed: "Ball hit
  // the ground at t = 4.08 seconds", ... Exact: t_k = (40/9.8)(1 - 0.9^k)/0.1.
  const ex40 = `independent t from 0 to 30
parameter g = 9.8, maxb = 10
discrete n = 0
event bounce when h falls do h' := -0.9*h'; n := n + 1 end
event enough when maxb - n - 0.5 falls do stop end
h'' = -g
h(0) = 0; h'(0) = 20`;
  const want = bounceTimes(20, 9.8, 0.9, 30, 10);
  it.each(RUNS)('%s: the 10 bounces, then stopped at the 10th', (method, tol) => {
    const r = simulate(ex40, { method, ...tol });
    expect(r.status, r.message ?? '').toBe('stopped');
    expectTimes(times(r, 'bounce'), want, 1e-9);
    expect(r.final.t).toBe(times(r, 'bounce')[9]);
    expect(r.final.n).toBe(10);
  });

  // ex44.c: the same ball with quadratic drag, u'' = -9.8 - Cd/2 u'^2 sign(u'), here -Cd 0.1,
  // Cr 0.9. Up from v: apex after atan(v/vt)/w, height -ln(cos(atan(v/vt)))/k; down from rest
  // at H: ground after acosh(exp(k H))/w at speed vt tanh(w s) (k = Cd/2, w = sqrt(g k), vt = sqrt(g/k)).
  const ex44 = `independent t from 0 to 100
parameter Cd = 0.1, Cr = 0.9, maxb = 10
discrete n = 0
event bounce when u falls do u' := -Cr*u'; n := n + 1 end
event enough when maxb - n - 0.5 falls do stop end
u'' = -9.8 - 0.5*Cd*u'^2*sign(u')
u(0) = 0; u'(0) = 20`;
  const drag: number[] = [];
  {
    const g = 9.8,
      k = 0.05,
      w = Math.sqrt(g * k),
      vt = Math.sqrt(g / k);
    for (let i = 0, t = 0, v = 20; i < 10; i++) {
      const th = Math.atan(v / vt);
      const H = -Math.log(Math.cos(th)) / k;
      const s = Math.acosh(Math.exp(k * H)) / w;
      t += th / w + s;
      drag.push(t);
      v = 0.9 * vt * Math.tanh(w * s);
    }
  }
  it.each(RUNS)('%s: with drag Cd = 0.1, the bounces at their closed-form times', (method, tol, dt) => {
    const r = simulate(ex44, { method, ...tol });
    expect(r.status, r.message ?? '').toBe('stopped');
    expectTimes(times(r, 'bounce'), drag, dt);
  });
});

describe('deSolve', () => {
  // inst/doc/examples/ballode.R: lsodar, height 0 and v 20 at t = 0 (the root function is zero
  // at the start: no event there), v := -0.9 v at each root, on [0, 40]; the bounces
  // accumulate at 40.816, so 37 fall inside.
  const ballode = `independent t from 0 to 40
event bounce when height falls do height := 0; v := -0.9*v end
height' = v
v' = -9.8
height(0) = 0; v(0) = 20`;
  it.each(RUNS)('ballode.R, %s: the 37 bounces', (method, tol) => {
    const r = simulate(ballode, { method, ...tol, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    const want = bounceTimes(20, 9.8, 0.9, 40);
    expect(want.length).toBe(37);
    expectTimes(times(r, 'bounce'), want, 1e-9);
  });

  // man/events.Rd, "EVENTS in a data.frame": at t = 1 add 1 to v1 and multiply v2 by 2, at 5
  // replace v2 by 3, at 9 add 4 to v1 (v1' = v2' = 0)
  const data = `independent t from 0 to 10
event at1 at 1 do v1 := v1 + 1; v2 := v2*2 end
event at5 at 5 do v2 := 3 end
event at9 at 9 do v1 := v1 + 4 end
v1' = 0
v2' = 0
v1(0) = 1; v2(0) = 2`;
  it.each(RUNS)('events in a data frame, %s: v1 = 6, v2 = 3 at the end', (method, tol) => {
    const r = simulate(data, { method, ...tol });
    expect(r.status).toBe('ok');
    expect(r.final.v1).toBe(6);
    expect(r.final.v2).toBe(3);
  });

  // man/events.Rd, "EVENTS triggered by a root function": y' = -0.1 y from 2, y := 1 at
  // y = 0.5; y first reaches 0.5 at 10 ln 4, then every 10 ln 2: 13 resets on [0, 100]
  const root = `independent t from 0 to 100
event reset when y - 0.5 crosses do y := 1 end
y' = -0.1*y
y(0) = 2`;
  it.each(RUNS)('events triggered by a root function, %s: the sawtooth', (method, tol, dt) => {
    const r = simulate(root, { method, ...tol, eventsOnly: true });
    expect(r.status).toBe('ok');
    const want = Array.from({ length: 13 }, (_, k) => 10 * Math.log(4) + 10 * k * Math.log(2));
    // 13 events in a row: each time inherits the error of the ones before (dop853 at the
    // default tolerances: 7e-5 by the last, 7e-6 per period of 6.9; rodas 9e-6)
    expectTimes(times(r, 'reset'), want, method === 'dop853' ? 2e-4 : 5 * dt);
  });
});

describe('DifferentialEquations.jl documentation, Event Handling and Callback Functions', () => {
  // PresetTimeCallback dosing: u' = -u, u(0) = 10, a dose of 10 at t = 4 and t = 8
  const dosing = `independent t from 0 to 10
event dose at 4, 8 do u := u + 10 end
u' = -u
u(0) = 10`;
  it.each(RUNS)('dosing, %s: u(10) = 10 (e^-10 + e^-6 + e^-2)', (method, tol, dt) => {
    const r = simulate(dosing, { method, ...tol });
    expect(r.status).toBe('ok');
    expect(Math.abs(r.final.u - 10 * (Math.exp(-10) + Math.exp(-6) + Math.exp(-2)))).toBeLessThan(dt);
  });

  // VectorContinuousCallback: a ball in a box, u0 = [50, 0, 0, 2], p = 9.8 on (0, 15);
  // out[1] = y (the floor), out[2] = (x - 10) x (walls at 0 and 10), -0.9 on the velocity
  const box = `independent t from 0 to 15
parameter p = 9.8
event floor when y crosses do vy := -0.9*vy end
event walls when (x - 10)*x crosses do vx := -0.9*vx end
y' = vy
vy' = -p
x' = vx
vx' = 0
y(0) = 50; vy(0) = 0; x(0) = 0; vx(0) = 2`;
  it.each(RUNS)('a ball in a box, %s: the floor and both walls', (method, tol) => {
    const r = simulate(box, { method, ...tol });
    expect(r.status).toBe('ok');
    const t1 = Math.sqrt(100 / 9.8),
      v1 = 9.8 * t1;
    const floor = [t1, t1 + (2 * 0.9 * v1) / 9.8, t1 + (2 * 0.9 * v1 + 2 * 0.81 * v1) / 9.8];
    expectTimes(times(r, 'floor'), floor, 1e-9);
    // x: 0 to 10 at 2 (t = 5), back at 1.8 (5 + 10/1.8); on at 1.62 it would reach 0 after 15
    expectTimes(times(r, 'walls'), [5, 5 + 10 / 1.8], 1e-9);
  });
});

describe('Wolfram Language, WhenEvent: a ball bouncing down stairs (example "Simulate a Bouncing Ball")', () => {
  // x'' = 0, y'' = -9.8, y(0) = 6, x'(0) = 1, a(0) = 5; WhenEvent[Mod[x, 1] == 0, If[a > 0,
  // a -> a - 1, "RemoveEvent"]]; WhenEvent[y == a, {x', y'} -> 0.9 {x', -y'}]. The stair edge
  // at x = 6 - a stands for Mod[x, 1] == 0; at a = 0 it stays put (the event fires once more,
  // at x = 6, without changing anything, where Mathematica removes it).
  const stairs = `independent t from 0 to 15
discrete a = 5, hits = 0
event stair when x - (6 - a) rises do a := max(a - 1, 0) end
event bounce when y - a crosses do x' := 0.9*x'; y' := -0.9*y'; hits := hits + 1 end
x'' = 0
y'' = -9.8
x(0) = 0; x'(0) = 1
y(0) = 6; y'(0) = 0`;
  /** the exact event sequence: parabolas between stair edges and bounces */
  function exact(): { stair: number[]; bounce: number[] } {
    const g = 9.8;
    const stair: number[] = [],
      bounce: number[] = [];
    let t = 0,
      x = 0,
      vx = 1,
      y = 6,
      vy = 0,
      a = 5;
    for (;;) {
      const ts = a > 0 ? (6 - a - x) / vx : Infinity;
      // y + vy s - g s^2/2 = a on the way down
      const tb = (vy + Math.sqrt(vy * vy + 2 * g * (y - a))) / g;
      const s = Math.min(ts, tb);
      if (t + s > 15) break;
      x += vx * s;
      y += vy * s - (g * s * s) / 2;
      vy -= g * s;
      t += s;
      if (ts < tb) {
        stair.push(t);
        a--;
      } else {
        bounce.push(t);
        vx *= 0.9;
        vy = -0.9 * vy;
        y = a;
      }
    }
    return { stair, bounce };
  }
  it.each(RUNS)('%s: every stair and every bounce', (method, tol) => {
    const r = simulate(stairs, { method, ...tol });
    expect(r.status, r.message ?? '').toBe('ok');
    const want = exact();
    expect(want.bounce.length).toBe(12);
    expectTimes(times(r, 'bounce'), want.bounce, 1e-9);
    // the five steps down, then the edge at x = 6 that changes nothing
    expectTimes(times(r, 'stair').slice(0, 5), want.stair, 1e-9);
    expect(times(r, 'stair').length).toBe(6);
    expect(r.final.a).toBe(0);
    expect(r.final.hits).toBe(12);
  });
});

describe("SciPy's scipy/integrate/_ivp/tests/test_ivp.py", () => {
  // test_args: sys3, x' = -omega y, y' = omega x, z' = k z (1 - z); x decreasing through 0,
  // y increasing through 0, z = zfinal terminal; z0 chosen so that z(5) = zfinal
  const sys3 = `independent t from 0 to 10
parameter omega = 2, k = 4, tfinal = 5, zfinal = 0.99
parameter z0 = exp(-k*tfinal)/((1 - zfinal)/zfinal + exp(-k*tfinal))
event xdown when x falls
event yup when y rises
event zend when z - zfinal crosses do stop end
x' = -omega*y
y' = omega*x
z' = k*z*(1 - z)
x(0) = 0; y(0) = -1; z(0) = z0`;
  it.each(RUNS)('test_args, %s: x falls at pi/2, 3pi/2; y rises at pi/4, 5pi/4; stop at 5', (method, tol, dt) => {
    const r = simulate(sys3, { method, ...tol });
    expect(r.status).toBe('stopped');
    expectTimes(times(r, 'xdown'), [Math.PI / 2, 1.5 * Math.PI], dt);
    expectTimes(times(r, 'yup'), [Math.PI / 4, 1.25 * Math.PI], dt);
    // z grows from 2e-9: its relative error over the run is many times rtol, and z' = 0.04
    // at z = 0.99 turns z's error into ten times as much in t (3e-6 at the default rtol)
    expectTimes(times(r, 'zend'), [5], 10 * dt);
  });

  // test_event_terminal_integer: the harmonic oscillator with event y0 = 0, terminal = 3
  const terminal3 = `independent t from 0 to 100
discrete n = 0
event zero when y0 crosses do n := n + 1 end
event enough when n - 2.5 rises do stop end
y0' = y1
y1' = -y0
y0(0) = 1; y1(0) = 0`;
  it.each(RUNS)('test_event_terminal_integer, %s: three zeros, then stopped at the third', (method, tol, dt) => {
    const r = simulate(terminal3, { method, ...tol });
    expect(r.status).toBe('stopped');
    expectTimes(times(r, 'zero'), [Math.PI / 2, 1.5 * Math.PI, 2.5 * Math.PI], dt);
    expect(r.final.t).toBe(times(r, 'zero')[2]);
  });

  // test_duplicate_timestamps: the upward cannon, y'' = -9.80665 from (0, 0.01), hit_ground
  // terminal with direction -1 (zero at the start, heading up: no event there); t_events
  // 0.00203943 = 2 (0.01)/9.80665
  const cannon = `independent t from 0 to 1
event hit when y falls do stop end
y'' = -9.80665
y(0) = 0; y'(0) = 0.01`;
  it.each(RUNS)('test_duplicate_timestamps, %s: hits the ground at 0.02/9.80665', (method, tol) => {
    const r = simulate(cannon, { method, ...tol });
    expect(r.status).toBe('stopped');
    expectTimes(times(r, 'hit'), [0.02 / 9.80665], 1e-15);
    // y' = 0.01 - g t: back at -0.01 to a few ulps of the time
    expect(Math.abs(r.final["y'"] + 0.01)).toBeLessThan(1e-14);
  });

  // test_t_eval_early_event: fun_rational on [5, 9], event t - 7 terminal, t_eval 7.5 to 9:
  // no rows (all asked for after the stop), the event at exactly 7
  const rational = `y0' = y1/t
y1' = y1*(y0 + 2*y1 - 1)/(t*(y0 - 1))`;
  const early = `independent t from 5 to 9
event early when t - 7 crosses do stop end
${rational}
y0(5) = 1/3; y1(5) = 2/9`;
  it.each(RUNS)('test_t_eval_early_event, %s: stopped at exactly 7, no row past it', (method, tol) => {
    const outputTimes = Array.from({ length: 16 }, (_, i) => 7.5 + i * 0.1);
    const r = simulate(early, { method, ...tol, outputTimes });
    expect(r.status).toBe('stopped');
    // t - 7 is a line in t: at 7 to its rounding (radau5 lands on the double below it)
    expectTimes(times(r, 'early'), [7], 4e-15);
    expect(r.rows.length).toBe(2);
    expect(r.rows.every((row) => row[0] === r.final.t)).toBe(true);
  });

  // test_events, backward direction: from (8, [4/9, 20/81]) to 5 with sol_rational y0 =
  // t/(t + 10), y1 = 10 t/(t + 10)^2: e1 = y0 - y1^0.7 at 5.5505757662407761 and e2 =
  // y1^0.6 - y0 at 7.5487766624669276 (mpmath), e3 = t - 7.4 terminal stops it before e1.
  const backward = `independent t from 8 to 5
event e1 when y0 - y1^0.7 crosses
event e2 when y1^0.6 - y0 crosses
${rational}
y0(8) = 4/9; y1(8) = 20/81`;
  it.each(RUNS)('test_events backward, %s: both events, and y(5) = sol_rational(5)', (method, tol, dt) => {
    const r = simulate(backward, { method, ...tol });
    expect(r.status).toBe('ok');
    expectTimes(times(r, 'e2'), [7.5487766624669276], dt);
    expectTimes(times(r, 'e1'), [5.5505757662407761], dt);
    expect(Math.abs(r.final.y0 - 1 / 3)).toBeLessThan(dt);
    expect(Math.abs(r.final.y1 - 2 / 9)).toBeLessThan(dt);
    const stopped = simulate(`${backward}\nevent e3 when t - 7.4 crosses do stop end`, { method, ...tol });
    expect(stopped.status).toBe('stopped');
    expect(times(stopped, 'e1')).toEqual([]);
    expectTimes(times(stopped, 'e2'), [7.5487766624669276], dt);
    // t - 7.4 is a line in t: located to a few ulps of 7.4
    expectTimes(times(stopped, 'e3'), [7.4], 4e-15);
  });
});

describe("heyoka's event tutorial (doc/tut_events.rst, tutorial/event_basic.cpp)", () => {
  // x' = v, v' = -9.8 sin x from rest at x = -0.05; v = 0 every half period T/2 with
  // T = 4 K(sin^2(0.025))/sqrt(9.8) = 2.0074035758801299 (printed). heyoka fires v = 0 at t = 0
  // too (deltastep: a function zero at the start fires only once it has crossed). The printed
  // times of v^2 - 1e-12 = 0, two per half period 4.1e-6 apart, to 16 digits.
  const pendulum = `independent t from 0 to 5
event ev0 when v crosses
event ev1 when v*v - 1e-12 crosses
event left when v rises
x' = v
v' = -9.8*sin(x)
x(0) = -0.05; v(0) = 0`;
  const T = 2.0074035758801299;
  const ev1 = [
    2.041666914753826e-6, 1.003699746272244, 1.003703829606799, 2.007401534213656, 2.00740561754654, 3.011103322152711,
    3.011107405487484, 4.014805110093445, 4.014809193427102,
  ];
  it.each(RUNS)('%s: v = 0 at kT/2, v rises at T and 2T, v^2 = 1e-12 at the printed times', (method, tol, dt) => {
    const r = simulate(pendulum, { method, ...tol });
    expect(r.status).toBe('ok');
    expectTimes(times(r, 'ev0'), [T / 2, T, 1.5 * T, 2 * T], dt);
    expectTimes(times(r, 'left'), [T, 2 * T], dt);
    expectTimes(times(r, 'ev1'), ev1, dt);
  });

  // Terminal events: the friction alpha toggles between 0 and 1 at each v = 0, from x = 0.05,
  // v = 0.025; printed on the grid t = 1..10 (propagate_grid), to 16 digits
  const drag = `independent t from 0 to 10
discrete alpha = 0
event toggle when v crosses do alpha := 1 - alpha end
x' = v
v' = -9.8*sin(x) - alpha*v
x(0) = 0.05; v(0) = 0.025`;
  const grid = [
    [-0.02976504606251412, -0.02063006479837935],
    [0.02970666582653454, 0.02099345736431702],
    [-0.01761378049610636, -0.01622382722426959],
    [0.01757771112979705, 0.01613903817360225],
    [-0.01037481471383597, -0.01205316233867281],
    [0.01035648925410416, 0.01177669636844242],
    [-0.006080605964468329, -0.008627473720971276],
    [0.006074559637531474, 0.008299135527482404],
    [-0.003544733998720797, -0.006013682818278612],
    [0.003546198899884463, 0.005703010459398463],
  ];
  it.each(RUNS)('%s: the printed states at t = 1, ..., 10', (method, tol, dt) => {
    const outputTimes = Array.from({ length: 10 }, (_, i) => i + 1);
    const r = simulate(drag, { method, ...tol, outputTimes });
    expect(r.status).toBe('ok');
    expect(times(r, 'toggle').length).toBe(10);
    const ix = r.columns.indexOf('x'),
      iv = r.columns.indexOf('v');
    const rows = outputTimes.map((t) => r.rows.find((row) => row[0] === t)!);
    // states of size 0.03: a tenth of the time tolerance
    rows.forEach((row, i) => {
      expect(Math.abs(row[ix] - grid[i][0])).toBeLessThan(dt / 10);
      expect(Math.abs(row[iv] - grid[i][1])).toBeLessThan(dt / 10);
    });
  });
});

describe("Assimulo's examples (modelon-community/Assimulo, examples/)", () => {
  // cvode_with_disc.py: event iteration with three switches, event functions y1 - 1, -y2 + 1
  // and -t + 1; each sign change turns its switch, and init_mode sets y1 = sw1 ? -1 : 3 and
  // y2 = sw2 ? 0 : 2. At t = 1 they turn in three iterations; asserted: y(10) = [8, 3, 2].
  const disc = `independent t from 0 to 10
discrete sw0 = 0, sw1 = 1, sw2 = 1
event e0 when y1 - 1 crosses do sw0 := 1 - sw0 end
event e1 when -y2 + 1 crosses do sw1 := 1 - sw1; y1 := if sw1 == 1 then 3 else -1 end
event e2 when -t + 1 crosses do sw2 := 1 - sw2; y2 := if sw2 == 1 then 2 else 0 end
y0' = if sw0 == 1 then 1 else -1
y1' = 0
y2' = 0
y0(0) = 0; y1(0) = -1; y2(0) = 0`;
  it.each(RUNS)('cvode_with_disc.py, %s: three switches at t = 1 in turn, y(10) = [8, 3, 2]', (method, tol) => {
    const r = simulate(disc, { method, ...tol });
    expect(r.status).toBe('ok');
    expect(r.events.map((e) => e.name)).toEqual(['e2', 'e1', 'e0']);
    for (const e of r.events) expect(Math.abs(e.t - 1)).toBeLessThan(1e-15);
    expect(Math.abs(r.final.y0 - 8)).toBeLessThan(1e-14);
    expect(r.final.y1).toBe(3);
    expect(r.final.y2).toBe(2);
  });

  // lsodar_bouncing_ball.py: y(0) = 2 at rest, g = -9.81, v := -0.88 v; the ground event is
  // active (sw0) only after an apex, the apex event (v = 0) only after a bounce; 10 s. The
  // bounces accumulate at sqrt(4/g)(1 + 2e/(1 - e)) = 10.003963, just past the end: 61 of
  // each inside, and 155 bounces up to 10.0039634 (counted in exact arithmetic).
  const ball = `independent t from 0 to 10
discrete sw0 = 1, sw1 = 0, bounces = 0, apexes = 0
event ground when (if sw0 == 1 then y else 5) crosses do sw0 := 0; sw1 := 1; v := -0.88*v; bounces := bounces + 1 end
event apex when (if sw1 == 1 then v else 5) crosses do sw0 := 1; sw1 := 0; apexes := apexes + 1 end
y' = v
v' = -9.81
y(0) = 2; v(0) = 0`;
  it.each(RUNS)('lsodar_bouncing_ball.py, %s: 61 bounces and apexes by 10, 155 by 10.0039634', (method, tol) => {
    const r = simulate(ball, { method, ...tol, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    const g = 9.81;
    const ground: number[] = [],
      apex: number[] = [];
    for (let t = Math.sqrt(4 / g), v = g * t; t < 10; t += (2 * v) / g) {
      ground.push(t);
      v *= 0.88;
      apex.push(t + v / g);
    }
    expectTimes(times(r, 'ground'), ground, 1e-9);
    expectTimes(times(r, 'apex'), apex, 1e-9);
    const near = simulate(ball, { method, ...tol, eventsOnly: true, to: 10.0039634 });
    expect(near.status, near.message ?? '').toBe('ok');
    expect(near.final.bounces).toBe(155);
  });

  // radau5dae_time_events.py: Van der Pol with mu = 1e6 divided by 10 at t = 1, 2, 2.5, 3,
  // y(0) = [2, -0.6]; asserted x1(8) = 1.14330840983 to 1e-3; SciPy's Radau at rtol = atol =
  // 1e-12 and 1e-13 (restarted at each time event): 1.14330717746.
  const vdp = `independent t from 0 to 8
discrete my = 1e6
event soften at 1, 2, 2.5, 3 do my := my*0.1 end
y0' = y1
y1' = my*((1 - y0^2)*y1 - y0)
y0(0) = 2; y1(0) = -0.6`;
  it.each([
    ['auto', {}, 1e-5],
    ['rodas', {}, 1e-5],
    ['radau5', TIGHT, 1e-8],
  ] as const)('radau5dae_time_events.py, %s: x1(8)', (method, tol, dt) => {
    const r = simulate(vdp, { method, ...tol, eventsOnly: true });
    expect(r.status).toBe('ok');
    expect(r.final.my).toBeCloseTo(100, 9);
    expect(Math.abs(r.final.y0 - 1.14330840983)).toBeLessThan(1e-3);
    expect(Math.abs(r.final.y0 - 1.14330717746)).toBeLessThan(dt);
  });
});

describe('a sampled controller (Modelica: when sample(0, 0.1) then u = K*(r - x); end when)', () => {
  // plant x' = -x + u with u held between ticks, the first tick at t = 0: exactly the
  // recurrence x_{k+1} = a x_k + (1 - a) K (r - x_k), a = e^-0.1, over 20 periods
  const sampled = `independent t from 0 to 2
parameter K = 4, r = 1
discrete u = 0
event tick every 0.1 from 0 do u := K*(r - x) end
x' = -x + u
x(0) = 0`;
  it.each(RUNS)('%s: x(2) from the recurrence, 21 ticks', (method, tol, dt) => {
    const r = simulate(sampled, { method, ...tol });
    expect(r.status).toBe('ok');
    let x = 0;
    const a = Math.exp(-0.1);
    for (let k = 0; k < 20; k++) x = a * x + (1 - a) * 4 * (1 - x);
    expect(times(r, 'tick').length).toBe(21);
    expect(Math.abs(r.final.x - x)).toBeLessThan(dt);
  });
});
