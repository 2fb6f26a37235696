/**
 * Round 16: event problems from other tools' own test suites and examples (SUNDIALS CVODES and
 * IDA, OrdinaryDiffEq.jl's integrator tests, Modelica-style switching models), written as a
 * user would write them in the model language, against their exact or published answers. None
 * repeats round4-peers.test.ts. References: closed forms, mpmath at 30 digits (findroot on the
 * closed forms), or, where there is none, SciPy's Radau, LSODA and BDF (or DOP853 and Radau)
 * at rtol 1e-12 to 1e-14 agreeing with each other; the scripts are not committed.
 *
 * Tolerances: at the default rtol 1e-6 / atol 1e-9 an event time is off by the state's error
 * over the run divided by the function's rate there; at rtol 1e-10 / atol 1e-12 a hundred times
 * less. Each bound below is that estimate with a margin of 3 or more.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import type { MethodName, SimulationResult } from '../src/index.js';
import { eventTimes as times, expectTimes } from './helpers.js';

const TIGHT = { rtol: 1e-10, atol: 1e-12 };
type Run = [MethodName, { rtol?: number; atol?: number }, number];
/** the default, an explicit and an implicit method; the last number is the scale of a time error at that tolerance */
const RUNS: Run[] = [
  ['auto', {}, 1e-5],
  ['dopri5', TIGHT, 1e-8],
  ['radau5', TIGHT, 1e-8],
];
const STIFF: Run[] = [
  ['auto', {}, 1e-5],
  ['rodas', {}, 1e-5],
  ['radau5', TIGHT, 1e-8],
];

describe('SUNDIALS examples/cvodes/serial/cvsRoberts_dns.c: Robertson with two root functions', () => {
  // g1 = y1 - 1e-4, g2 = y3 - 0.01 on [0, 4e10]. Published (cvsRoberts_dns.out, rtol 1e-4,
  // atol 1e-8, 1e-14, 1e-6): "At t = 2.6391e-01 ... rootsfound[] = 0 1" with y = 9.899653e-01
  // 3.470564e-05 1.000000e-02, and "At t = 2.0803e+07 ... rootsfound[] = -1 0" with y3 =
  // 9.999000e-01. SciPy's Radau, LSODA and BDF at rtol 1e-12, atol 1e-22 agree on
  // 0.264019078188 and 20795496.884 (to 2e-3: y1 falls through 1e-4 at a relative rate of
  // 5e-8 per unit time there, so a relative error of rtol in y1 moves that root by rtol/5e-8).
  const robertson = `independent t from 0 to 4e10
discrete t1 = -1, t2 = -1
event lowy1 when y1 - 1e-4 falls do t1 := t end
event highy3 when y3 - 0.01 rises do t2 := t end
y1' = -0.04*y1 + 1e4*y2*y3
y2' = 0.04*y1 - 1e4*y2*y3 - 3e7*y2^2
y3' = 3e7*y2^2
y1(0) = 1; y2(0) = 0; y3(0) = 0`;
  const root3 = 0.264019078188;
  const root1 = 20795496.884;
  it.each(STIFF)('%s: y3 reaches 0.01 at 0.264019, y1 falls to 1e-4 at 2.07955e7', (method, tol, dt) => {
    const r = simulate(robertson, { method, ...tol, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(times(r, 'highy3').length).toBe(1);
    expect(times(r, 'lowy1').length).toBe(1);
    // dt 1e-5 (default): the first root within 1e-7 and the second within 20 (1e-6 relative);
    // dt 1e-8 (tight): 1e-9 and 0.05
    expect(Math.abs(r.final.t2 - root3)).toBeLessThan(dt / 50);
    expect(Math.abs(r.final.t1 - root1) / root1).toBeLessThan(dt / 10);
    // the published roots, to the 5 digits printed at CVODE's rtol 1e-4
    expect(Math.abs(r.final.t2 - 0.26391) / 0.26391).toBeLessThan(1e-3);
    expect(Math.abs(r.final.t1 - 2.0803e7) / 2.0803e7).toBeLessThan(1e-3);
  });

  // idaRoberts_dns.c: the same kinetics as a DAE, y1 + y2 + y3 = 1 in place of y3's equation,
  // with the same two roots; here the algebraic constraint is a named variable.
  const dae = `independent t from 0 to 4e10
discrete t1 = -1, t2 = -1
y3 = 1 - y1 - y2
event lowy1 when y1 - 1e-4 falls do t1 := t end
event highy3 when y3 - 0.01 rises do t2 := t end
y1' = -0.04*y1 + 1e4*y2*y3
y2' = 0.04*y1 - 1e4*y2*y3 - 3e7*y2^2
y1(0) = 1; y2(0) = 0`;
  it.each(STIFF)('idaRoberts_dns, %s: the same roots with y3 = 1 - y1 - y2', (method, tol, dt) => {
    const r = simulate(dae, { method, ...tol, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(Math.abs(r.final.t2 - root3)).toBeLessThan(dt);
    expect(Math.abs(r.final.t1 - root1) / root1).toBeLessThan(dt / 10);
  });
});

describe('OrdinaryDiffEq.jl test/integrators/ode_event_tests.jl', () => {
  // u' = -u + sin(t), u(0) = 1, ContinuousCallback on t - 2.95 adding 2 to u. Exact: u =
  // (sin t - cos t)/2 + C e^-t with C = 3/2, then C + 2 e^2.95 after the event.
  const fwd = `independent t from 0 to 10
discrete n = 0
event kick when t - 2.95 crosses do u := u + 2; n := n + 1 end
u' = -u + sin(t)
u(0) = 1`;
  const uf = (Math.sin(10) - Math.cos(10)) / 2 + (1.5 + 2 * Math.exp(2.95)) * Math.exp(-10);
  it.each(RUNS)('u += 2 at t = 2.95, %s: u(10) in closed form', (method, tol, dt) => {
    const r = simulate(fwd, { method, ...tol });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.final.n).toBe(1);
    // t - 2.95 is a line in t: located to a few ulps of 2.95
    expect(Math.abs(times(r, 'kick')[0] - 2.95)).toBeLessThan(4e-15);
    expect(Math.abs(r.final.u - uf)).toBeLessThan(dt);
  });

  // The same backwards, u' = -u + sin(-t) from 0 to -10, the event at t = -2.95 adding 2 when
  // met going backwards. deltastep reads a backward run as undoing the forward physics: a
  // reset cannot be undone (a clear failure), and the user writes the jump as a delta whose
  // forward weight is -2 (undone backwards: +2). Exact: u = (cos t - sin t)/2 + C e^-t, C = 1/2,
  // then 1/2 + 2 e^-2.95 below -2.95: u(-10) = 13318.258836650153.
  const back = `independent t from 0 to -10
u' = -u + sin(-t) - 2*delta(t + 2.95)
u(0) = 1`;
  const ub = (Math.cos(-10) - Math.sin(-10)) / 2 + (0.5 + 2 * Math.exp(-2.95)) * Math.exp(10);
  it.each(RUNS)('backwards, %s: u(-10) = 13318.2588366', (method, tol, dt) => {
    const r = simulate(back, { method, ...tol });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(times(r, 'delta(t + 2.95)')).toEqual([-2.95]);
    // the error grows by e^10 backwards: relative, as the value
    expect(Math.abs(r.final.u - ub) / ub).toBeLessThan(dt);
  });
  it('backwards with the reset written as the source does: a clear refusal naming the event', () => {
    const reset = `independent t from 0 to -10
event kick when -t - 2.95 crosses do u := u + 2 end
u' = -u + sin(-t)
u(0) = 1`;
    expect(() => simulate(reset)).toThrow(/kick .*cannot be undone exactly/);
  });

  // terminate_callback2: the ball from 50 m (g = 9.81) bounces elastically; the affect
  // terminates at the first ground contact with t >= 3.5, so at 3 sqrt(100/9.81) =
  // 9.578262852211513. deltastep has no conditional `stop`: the terminating event is written
  // on max(y, 3.5 - t), which reaches zero from above only at a contact after t = 3.5.
  const term = `independent t from 0 to 100
parameter g = 9.81
discrete n = 0
event bounce when y falls do y' := -y'; n := n + 1 end
event late when max(y, 3.5 - t) falls do stop end
y'' = -g
y(0) = 50; y'(0) = 0`;
  it.each(RUNS)('terminated at the contact after t = 3.5, %s: t = 3 sqrt(100/9.81)', (method, tol) => {
    const r = simulate(term, { method, ...tol, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('stopped');
    // free flight is exact on every dense output: the times to 1e-12
    expect(Math.abs(r.final.t - 3 * Math.sqrt(100 / 9.81))).toBeLessThan(1e-12);
    expectTimes(
      times(r, 'bounce'),
      [1, 3].map((k) => k * Math.sqrt(100 / 9.81)),
      1e-12,
    );
    expect(Math.abs(r.final.y)).toBeLessThan(1e-12);
  });

  // "Test ContinuousCallback hits values on the steps": u' = 1.00001 u on [0, 200], fixed
  // step 10, an event on 100 - t falling, which is a step point: it fires, once, at 100
  it.each([
    ['rk4', { step: 10 }],
    ['euler', { step: 10 }],
    ['dopri5', {}],
    ['radau5', {}],
    ['auto', {}],
  ] as [MethodName, object][])('an event on a step point, %s: fires once at 100', (method, opts) => {
    const r = simulate(
      `independent t from 0 to 200
discrete n = 0
event hit when 100 - t falls do n := n + 1 end
u' = 1.00001*u
u(0) = 1`,
      { method, ...opts, eventsOnly: true },
    );
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.final.n).toBe(1);
    // a line in t: to a few ulps of 100 (1.4e-14 each)
    expect(Math.abs(times(r, 'hit')[0] - 100)).toBeLessThan(1e-13);
  });

  // DiscreteCallback with tstops = [5, 8]: u1' = -0.5 u1 + 10, u2' = -0.5 u2 from (10, 10), both
  // set to 1 at t = 5 and 8; two rows at each. Exact: u1(10) = 20 - 19/e, u2(10) = 1/e.
  it.each(RUNS)('tstops 5 and 8 resetting u to 1, %s: u(10) = (20 - 19/e, 1/e)', (method, tol, dt) => {
    const r = simulate(
      `independent t from 0 to 10
event reset at 5, 8 do u1 := 1; u2 := 1 end
u1' = -0.5*u1 + 10
u2' = -0.5*u2
u1(0) = 10; u2(0) = 10`,
      { method, ...tol },
    );
    expect(r.status, r.message ?? '').toBe('ok');
    expect(times(r, 'reset')).toEqual([5, 8]);
    const ti = r.columns.indexOf('t');
    expect(r.rows.filter((row) => row[ti] === 5).length).toBe(2);
    expect(r.rows.filter((row) => row[ti] === 8).length).toBe(2);
    expect(Math.abs(r.final.u1 - (20 - 19 / Math.E))).toBeLessThan(dt);
    expect(Math.abs(r.final.u2 - 1 / Math.E)).toBeLessThan(dt);
  });
});

describe('OrdinaryDiffEq.jl test/integrators/event_detection_tests.jl: zeros of q0 in a nonlinear oscillator', () => {
  // z' = (-A q0 - 3B/sqrt2 (q2^2 - q0^2) - D q0 (q0^2 + q2^2), -q2 (A + 3 sqrt2 B q0 + D (q0^2 +
  // q2^2)), A p0, A p2), A = 1, B = 0.55, D = 0.4, a callback on q0 (Vern9 at 1e-14, over 300:
  // "length(sol) > 100"). The motion is chaotic (two solvers at 1e-13 part by 1e-4 at t = 50),
  // so the range here is [0, 20]: SciPy's DOP853 at 1e-14 and Radau at 1e-13 agree to 1e-10 on
  // the 16 zeros after the start (q0(0) = 0 is no crossing), printed below.
  const model = `independent t from 0 to 20
parameter A = 1, B = 0.55, D = 0.4
discrete n = 0
event q0zero when q0 crosses do n := n + 1 end
p0' = -A*q0 - 3*B/sqrt(2)*(q2^2 - q0^2) - D*q0*(q0^2 + q2^2)
p2' = -q2*(A + 3*sqrt(2)*B*q0 + D*(q0^2 + q2^2))
q0' = A*p0
q2' = A*p2
p0(0) = 7.1989885061904335; p2(0) = -0.165912283356219; q0(0) = 0; q2(0) = -3.63534900748947`;
  const zeros = [
    1.33326611099, 2.512276264531, 3.169567048924, 4.71772036638, 5.987798820624, 7.160143716277, 8.701834987387,
    9.769301443001, 11.307580646196, 12.476863521059, 13.732754206835, 15.385176046515, 15.856227366365,
    17.082288461831, 18.554298189058, 19.655298037364,
  ];
  it.each([...RUNS, ['dop853', TIGHT, 1e-8] as Run])('%s: the 16 zeros of q0 on (0, 20]', (method, tol, dt) => {
    const r = simulate(model, { method, ...tol, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    // the chaos multiplies the error by about e^(0.5 t): 1e-4 (default) and 1e-6 (tight) by t = 20
    expectTimes(times(r, 'q0zero'), zeros, dt * 100);
  });
});

describe('OrdinaryDiffEq.jl test/integrators/event_repeat_tests.jl: thresholds a few ulps apart', () => {
  // u' = u from 1 on [0, 100 eps] (eps = 2^-52); callbacks on u - exp(k eps), k = 50, 60, 70,
  // 80, 90: u rises from 1 to 1 + 100 eps, so each fires exactly once, at ln(1 + k eps) = k eps
  // to 1e-30 (the source: Tsit5 at a fixed dt of 4.7 eps, "c[] == 1" for each). u - c with c
  // = 1 + k eps is exact in doubles (Sterbenz) beside u's own rounding of 1 ulp: every one of
  // these crossings is resolved, 10 ulps of u apart.
  const model = `parameter ep = 2.220446049250313e-16
independent t from 0 to 100*2.220446049250313e-16
discrete c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0
event e1 when u - exp(50*ep) crosses do c1 := c1 + 1 end
event e2 when u - exp(60*ep) crosses do c2 := c2 + 1 end
event e3 when u - exp(70*ep) crosses do c3 := c3 + 1 end
event e4 when u - exp(80*ep) crosses do c4 := c4 + 1 end
event e5 when u - exp(90*ep) crosses do c5 := c5 + 1 end
u' = u
u(0) = 1`;
  const eps = Number.EPSILON;
  function check(r: SimulationResult): void {
    expect(r.status, r.message ?? '').toBe('ok');
    [1, 2, 3, 4, 5].forEach((i) => expect(r.final[`c${i}`], `c${i}`).toBe(1));
    // each at k eps, to u's rounding (2 ulps of u is 2 eps in t at rate 1)
    [50, 60, 70, 80, 90].forEach((k, i) => expect(Math.abs(times(r, `e${i + 1}`)[0] - k * eps)).toBeLessThan(2 * eps));
  }
  it.each(['rk4', 'euler'] as MethodName[])('%s (fixed step, 1000 of them): each fires once at k eps', (method) => {
    check(simulate(model, { method, eventsOnly: true }));
  });
  // OPEN (it.fails): the adaptive methods and the analytic path give 0 events, status ok. One
  // step covers the range; the crossings of e1..e5 are 50 to 10 eps from the end, so the
  // function there, 50 to 10 eps, is within the band the core calls zero: 4 x 8 ulps of the
  // magnitudes u - c adds up (|u| + |c| = 2: 64 eps), and crossings-at-end.ts judges such a
  // crossing "not told from the end of the range" (dropped, as sin(pi t) at t = 6 is). On the
  // analytic path e1 is also within that band of zero at the start (-50 eps) and read as at
  // rest there. The band overestimates this function's rounding by 30 times: c is exact and
  // u - c is exact, leaving u's own 0.5 ulp. A crossing the arithmetic does resolve is lost,
  // status ok, where the fixed-step methods (whose steps end far from it) find all five.
  // Fixing it needs a tighter rounding bound for a difference that cancels exactly (a bound
  // from the operands' own roundings rather than 8 ulps of their magnitudes), or, where the
  // band is what it is, "precision ran out" instead of a silent drop; neither fits this round.
  it.fails.each(['auto', 'dopri5', 'dop853', 'rodas', 'radau5'] as MethodName[])(
    '%s: each fires once at k eps (gives 0 events, status ok)',
    (method) => {
      check(simulate(model, { method, eventsOnly: true }));
    },
  );
});

describe('Modelica-style switching models', () => {
  // A tank with a valve under hysteresis control (Modelica by Example's on-off control with a
  // dead band, on a Torricelli outflow): h' = qin - valve k sqrt(h), qin = 1, k = 1.5; the
  // valve opens where h rises through 2 and closes where it falls through 1. Closed: h' = 1, so
  // 1 from 1 to 2 (first from 0.5: t = 1.5). Open: with s = sqrt(h), dt = 2s ds/(1 - k s), so
  // Topen = [-2s/k - 2/k^2 ln|1 - k s|] from sqrt2 to 1 = 1.2701994606876428 (mpmath).
  const tank = `independent t from 0 to 20
parameter qin = 1, k = 1.5
discrete valve = 0
event open when h - 2 rises do valve := 1 end
event close when h - 1 falls do valve := 0 end
h' = qin - valve*k*sqrt(h)
h(0) = 0.5`;
  const Topen = 1.2701994606876428;
  const opens = Array.from({ length: 9 }, (_, j) => 1.5 + j * (1 + Topen));
  const closes = opens.slice(0, 8).map((t) => t + Topen);
  it.each(RUNS)('a tank with a switching valve, %s: 9 openings, 8 closings, h(20)', (method, tol, dt) => {
    const r = simulate(tank, { method, ...tol, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expectTimes(times(r, 'open'), opens, dt * 10);
    expectTimes(times(r, 'close'), closes, dt * 10);
    // h(20) from findroot on the open phase's closed form, 0.338 after the last opening
    expect(Math.abs(r.final.h - 1.6536051734194837)).toBeLessThan(dt * 10);
  });

  // A half-wave rectifier with an ideal diode (conducting while the source is above the
  // capacitor): vs = sin t, series R = 0.1, C = 1, load RL = 10, vC(0) = 0. On: vC' = -a vC +
  // sin t/(RC), a = 1/(RC) + 1/(RL C), solved in closed form; off: vC decays as e^(-t/(RL C)).
  // Switch times by mpmath's findroot on the closed forms (30 digits).
  const rectifier = `independent t from 0 to 20
parameter R = 0.1, RL = 10, C = 1
i = if sin(t) > vC then (sin(t) - vC)/R else 0
event on when sin(t) - vC rises
event off when sin(t) - vC falls
vC' = i/C - vC/(RL*C)
vC(0) = 0`;
  it.each(RUNS)('a half-wave rectifier, %s: the diode turns off and on at the closed-form times', (method, tol, dt) => {
    const r = simulate(rectifier, { method, ...tol, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expectTimes(times(r, 'off'), [1.769153222903806, 8.052329696406784, 14.33551500353497], dt * 100);
    expectTimes(times(r, 'on'), [6.909715739465836, 13.192901648818108, 19.476086956001198], dt * 100);
    expect(Math.abs(r.final.vC - 0.8559689553058077)).toBeLessThan(dt * 10);
  });

  // Modelica by Example, BouncingBall: h(0) = 1, e = 0.7, g = 9.81, when h <= 0 then
  // reinit(v, -e*pre(v)). The bounces accumulate at sqrt(2/g)(1 + 2e/(1 - e)) =
  // 2.5586339655858083 (Dymola and OpenModelica fall through the floor there; deltastep stops
  // with status zeno at the accumulation point).
  it.each(RUNS)('the bouncing ball of Modelica by Example, %s: zeno at 2.55863396558581', (method, tol) => {
    const r = simulate(
      `independent t from 0 to 5
parameter e = 0.7, g = 9.81
event bounce when h falls do v := -e*v end
h' = v
v' = -g
h(0) = 1; v(0) = 0`,
      { method, ...tol, eventsOnly: true },
    );
    expect(r.status, r.message ?? '').toBe('zeno');
    expect(Math.abs(r.final.t - 2.5586339655858083)).toBeLessThan(1e-12);
    expect(Math.abs((r.accumulationPoint ?? NaN) - 2.5586339655858083)).toBeLessThan(1e-12);
    expect(Math.abs(r.final.h)).toBeLessThan(1e-12);
    // the first bounces at the closed form: sqrt(2/g) (1 + 2e + ... + 2e^(k-1))
    const t1 = Math.sqrt(2 / 9.81);
    expectTimes(times(r, 'bounce').slice(0, 3), [t1, t1 * 2.4, t1 * (2.4 + 2 * 0.49)], 1e-12);
  });
});
