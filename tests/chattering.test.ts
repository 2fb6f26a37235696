/**
 * A thermostat without hysteresis (issue 20, item 4): `off when T - 20 rises` and `heat when
 * T - 20 falls` share one threshold. When off fires, T' turns negative at T = 20 exactly, so
 * heat is due at the same instant, then off again: the hybrid solution switches infinitely
 * often at one instant (it would slide along T = 20). That is a failure naming both events and
 * the cure, never a run that says ok with the heater off and T falling to 11 (what every
 * stepper said before: heat was held at its zero as if its own action had left it there).
 * With a dead band the same model runs, its switching times exact.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { EVERY_STEPPER } from './methods.js';

const METHODS = EVERY_STEPPER;

const thermostat = (rate: string, off = 'T - 20', heat = 'T - 20') => `model Thermostat
independent t from 0 to 10
discrete on = 1
T(0) = 18
T' = ${rate}
event off when ${off} rises do on := 0 end
event heat when ${heat} falls do on := 1 end
output T, on
`;

describe('switching on and off at one threshold is chattering: a failure that says so', () => {
  // T' = 2 heating, -1 not, from 18: T = 20 at t = 1
  const cases: [string, string, number][] = [
    ["T' = 3*on - 1", '3*on - 1', 1],
    ["T' = if on > 0.5 then 2 else -1 (the rate's branch turns with the action)", 'if on > 0.5 then 2 else -1', 1],
    // T' = 2 - 0.01 T heating: T = 200 - 182 e^(-t/100) = 20 at t = 100 ln(182/180)
    ["T' = 3*on - 1 - 0.01*T", '3*on - 1 - 0.01*T', 100 * Math.log(182 / 180)],
  ];
  it.each(cases.flatMap(([label, rate, t1]) => METHODS.map(([method, o]) => [label, method, rate, t1, o] as const)))(
    '%s, %s',
    (_label, method, rate, t1, o) => {
      const r = simulate(thermostat(rate), { method: method as never, ...o });
      expect(r.status).toBe('failed');
      expect(r.message).toMatch(/events off and heat keep sending each other's functions back across zero/);
      expect(r.message).toMatch(/chattering/);
      expect(r.message).toMatch(/hysteresis/);
      // where it fails: the threshold, at its time (exact on every method where T is piecewise
      // linear; within the run's rtol of it where T curves)
      const rtol = 'rtol' in o ? (o.rtol as number) : 1e-6;
      expect(Math.abs((r.final.t as number) - t1)).toBeLessThan(rate.includes('T') ? 10 * rtol : 1e-9);
      expect(Math.abs((r.final.T as number) - 20)).toBeLessThan(1e-9);
      // the rows and ledger computed up to there are kept
      expect(r.events.length).toBeGreaterThan(2);
    },
  );

  it('the analytic path says the same', () => {
    const r = simulate(thermostat('3*on - 1'), { method: 'analytic' });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^event iteration at t = 1 did not settle .* events off and heat keep sending/);
    expect(r.final.t).toBe(1);
  });

  it('heat written as 20 - T rises is the same threshold (b - a for a - b)', () => {
    const r = simulate(
      thermostat('3*on - 1', 'T - 20', '20 - T').replace('heat when 20 - T falls', 'heat when 20 - T rises'),
    );
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/chattering/);
  });
});

describe('the same thermostat on a state E = T - 20: its zero is known at the instant by location, not rounding', () => {
  // off is located a rounding of t short of E = 0, where E is -4e-16, far beyond E's own
  // rounding (1e-31): the zero heat shares with off is known by the location's bracket
  const src = `model Thermostat
independent t from 0 to 10
discrete on = 1
E(0) = -2
E' = 3*on - 1
event off when E rises do on := 0 end
event heat when E falls do on := 1 end
`;
  it.each([...METHODS, ['analytic', {}] as [string, object]])('%s', (method, o) => {
    const r = simulate(src, { method: method as never, ...o });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/events off and heat keep sending each other's functions back across zero/);
    expect(Math.abs((r.final.t as number) - 1)).toBeLessThan(1e-12);
  });
});

describe('an event on the same function in the other direction fires where an action turns the motion', () => {
  // the ball touches h = 0 at t1 = sqrt(2 h0/g) and leaves upwards: liftoff counts that bounce
  // once (the next is at t1 + 2 e v1/g = 3.71 > 3), on every method as on the analytic path
  const src = `independent t from 0 to 3
parameter g = 9.81, e = 0.8
h' = v; v' = -g
h(0) = 10; v(0) = 0
discrete n = 0
event bounce when h falls do v := -e*v end
event liftoff when h rises do n := n + 1 end
`;
  const t1 = Math.sqrt(20 / 9.81);
  it.each([...METHODS, ['analytic', {}] as [string, object]])('%s', (method, o) => {
    const r = simulate(src, { method: method as never, ...o });
    expect(r.status).toBe('ok');
    expect(r.final.n).toBe(1);
    expect(r.events.map((e) => e.name)).toEqual(['bounce', 'liftoff']);
    expect(Math.abs(r.events[1].t - t1)).toBeLessThan(1e-9);
    expect(r.events[1].t).toBe(r.events[0].t);
  });
});

describe('with a dead band the thermostat runs, its switching times exact', () => {
  // off at 20.5 (rising at 2 from 18: t = 1.25), heat at 19.5 (falling at 1: one unit later),
  // then off half a unit later: events at 1.25, 2.25, 2.75, 3.75, ..., 9.75; T(10) = 20
  const expected: number[] = [];
  for (let k = 0; 1.25 + 1.5 * k < 10; k++) {
    expected.push(1.25 + 1.5 * k);
    if (2.25 + 1.5 * k < 10) expected.push(2.25 + 1.5 * k);
  }
  it.each(METHODS)('%s', (method, o) => {
    const r = simulate(thermostat('3*on - 1', 'T - 20.5', 'T - 19.5'), { method: method as never, ...o });
    expect(r.status).toBe('ok');
    expect(r.events.map((e) => e.name)).toEqual(expected.map((_, i) => (i % 2 === 0 ? 'off' : 'heat')));
    r.events.forEach((e, i) => expect(Math.abs(e.t - expected[i])).toBeLessThan(1e-12 * 16));
    expect(Math.abs((r.final.T as number) - 20)).toBeLessThan(1e-10);
  });
});

describe('two events on one function in two directions, whose actions leave its motion alone, fire as before', () => {
  it('x = cos t: falls at pi/2 and 5pi/2, rises at 3pi/2', () => {
    const src = `independent t from 0 to 10
x' = v; v' = -x
x(0) = 1; v(0) = 0
discrete up = 0, down = 0
event u when x rises do up := up + 1 end
event w when x falls do down := down + 1 end
`;
    for (const [method, o] of METHODS) {
      const r = simulate(src, { method: method as never, ...o });
      expect(r.status).toBe('ok');
      expect(r.events.map((e) => e.name)).toEqual(['w', 'u', 'w']);
      const exact = [Math.PI / 2, (3 * Math.PI) / 2, (5 * Math.PI) / 2];
      // rk4 at its default step (1e-2): error of order h^4
      const tol = method === 'rk4' ? 1e-7 : 1e-5;
      r.events.forEach((e, i) => expect(Math.abs(e.t - exact[i])).toBeLessThan(tol));
    }
  });
});
