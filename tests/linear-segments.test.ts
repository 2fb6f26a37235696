/**
 * Linear segments in closed form (issue 24): models linear between events take the analytic
 * path by default and match their closed forms.
 *
 * Tolerances: a state advanced by a closed form carries a few ulps of its scale per segment;
 * an event time found by a crossing at speed v carries that rounding divided by v (plus the
 * rounding of t itself), and events found one after another add up their errors. Each bound
 * below says which of these it is.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const EPS = Number.EPSILON;
const read = (path: string) => readFileSync(new URL(path, new URL('../', import.meta.url)), 'utf8');

describe('W2: the oscillator against a wall, through the analytic path', () => {
  const ref = JSON.parse(read('tests/fixtures/analytic/w2_reference.json')) as {
    event_times: number[];
    impact_speeds_in: number[];
    state_end: [number, number];
  };
  it('all 100 impacts, the grazing ones included, at the exact times', () => {
    const r = simulate(read('bench/w2_wall.delta'), {});
    expect(r.stats.method).toBe('analytic');
    expect(r.status).toBe('ok');
    expect(r.events).toHaveLength(100);
    r.events.forEach((e, i) => {
      // the rounding of t, and a few ulps of the wall's scale (1) divided by the impact speed,
      // carried from impact to impact (measured: at most 26 eps/v)
      const tol = 4 * EPS * ref.event_times[i] + (64 * EPS) / ref.impact_speeds_in[i];
      expect(Math.abs(e.t - ref.event_times[i])).toBeLessThanOrEqual(tol);
    });
    // the last impacts come at speed 2.6e-5: the state's error after them is that of their times times the speed
    expect(r.final.x).toBeCloseTo(ref.state_end[0], 10);
    expect(r.final.y).toBeCloseTo(ref.state_end[1], 10);
  });
});

describe('closed forms of linear models, by default on the analytic path', () => {
  it('a leaky integrate-and-fire neuron: spikes every tau ln((Vr - V∞)/(Vth - V∞))', () => {
    const r = simulate(
      `model LIF
independent t from 0 to 200
parameter tau = 10, EL = -65, Vth = -50, Vr = -70, R = 1, I = 20
event spike when V - Vth rises do V := Vr end
V' = (-(V - EL) + R*I)/tau
V(0) = -70`,
      {},
    );
    expect(r.stats.method).toBe('analytic');
    const T = 10 * Math.log(5);
    expect(r.events).toHaveLength(Math.floor(200 / T));
    // each spike time adds the interval to the last (a few ulps of t per spike)
    r.events.forEach((e, i) => expect(Math.abs(e.t - (i + 1) * T)).toBeLessThanOrEqual(4 * (i + 1) * EPS * e.t));
    const last = r.events.length * T;
    const V = -45 + (-70 + 45) * Math.exp(-(200 - last) / 10);
    expect(Math.abs(r.final.V - V)).toBeLessThanOrEqual(1e-13 * Math.abs(V));
  });

  it('a one-compartment model with repeated bolus doses: Cp = Σ Dose/V e^{-kel (t - t_i)}', () => {
    const r = simulate(
      `model Bolus
independent t from 0 to 30
parameter kel = 0.2, V = 10, Dose = 100
Cp' = -kel*Cp + Dose/V*(delta(t - 6) + delta(t - 12) + delta(t - 18) + delta(t - 24))
Cp(0) = 5`,
      {},
    );
    expect(r.stats.method).toBe('analytic');
    expect(r.events.map((e) => e.t)).toEqual([6, 12, 18, 24]);
    let Cp = 5 * Math.exp(-0.2 * 30);
    for (const ti of [6, 12, 18, 24]) Cp += 10 * Math.exp(-0.2 * (30 - ti));
    expect(Math.abs(r.final.Cp - Cp)).toBeLessThanOrEqual(1e-14 * Cp);
  });

  it('a decaying state with timed doses (every 8 from 4)', () => {
    const r = simulate(
      `model Doses
independent t from 0 to 50
parameter k = 0.3, D = 2
event dose every 8 from 4 do x := x + D end
x' = -k*x
x(0) = 1`,
      {},
    );
    expect(r.stats.method).toBe('analytic');
    expect(r.events.map((e) => e.t)).toEqual([4, 12, 20, 28, 36, 44]);
    let x = Math.exp(-0.3 * 50);
    for (const ti of [4, 12, 20, 28, 36, 44]) x += 2 * Math.exp(-0.3 * (50 - ti));
    expect(Math.abs(r.final.x - x)).toBeLessThanOrEqual(1e-14 * x);
  });

  it('a linear system whose right-hand side the events switch: a thermostat', () => {
    const r = simulate(
      `model Thermostat
independent t from 0 to 20
parameter a = 0.5, Ton = 30, Toff = 10, lo = 18, hi = 22
discrete heat = 1
event off when T - hi rises do heat := 0 end
event on when T - lo falls do heat := 1 end
T' = -a*(T - (Toff + heat*(Ton - Toff)))
T(0) = 20`,
      {},
    );
    expect(r.stats.method).toBe('analytic');
    const up = Math.log((30 - 18) / (30 - 22)) / 0.5,
      down = Math.log((22 - 10) / (18 - 10)) / 0.5;
    const expected = [Math.log((30 - 20) / (30 - 22)) / 0.5];
    while (expected.length < r.events.length)
      expected.push(expected[expected.length - 1] + (expected.length % 2 === 1 ? down : up));
    expect(r.events.map((e) => e.name)).toEqual(expected.map((_, i) => (i % 2 === 0 ? 'off' : 'on')));
    expect(r.events.length).toBe(expected.filter((t) => t <= 20).length);
    // each switching time adds an interval to the last, each a few ulps of t
    r.events.forEach((e, i) => expect(Math.abs(e.t - expected[i])).toBeLessThanOrEqual(8 * (i + 1) * EPS * e.t));
  });

  it('a damped oscillator: its zero crossings, (π/2 + kπ + φ)/ωd', () => {
    const r = simulate(
      `model Damped
independent t from 0 to 20
parameter z = 0.1, w = 2
event zero when x crosses
x' = v
v' = -2*z*w*v - w^2*x
x(0) = 1; v(0) = 0`,
      {},
    );
    expect(r.stats.method).toBe('analytic');
    const zw = 0.2,
      wd = Math.sqrt(4 - zw * zw),
      phi = Math.atan(zw / wd);
    const times = r.events.map((e) => e.t);
    expect(times).toHaveLength(Math.floor((20 * wd - phi - Math.PI / 2) / Math.PI) + 1);
    // each crossing is found from the state at the last (a few ulps of t per crossing; the
    // speed at a crossing is at least e^{-ζω t} ω ~ 0.04)
    times.forEach((t, k) =>
      expect(Math.abs(t - (Math.PI / 2 + k * Math.PI + phi) / wd)).toBeLessThanOrEqual((k + 1) * 64 * EPS * t),
    );
    const x = Math.exp(-zw * 20) * (Math.cos(wd * 20) + (zw / wd) * Math.sin(wd * 20));
    expect(Math.abs(r.final.x - x)).toBeLessThanOrEqual(1e-13);
  });

  it('a polynomial input joins the block: an RC circuit driven by a ramp', () => {
    const r = simulate(
      `model RampRC
independent t from 0 to 3.5
parameter R = 2, C = 0.5
event full when q - 1 rises do q := 0 end
vin' = 1
q' = (vin - q/C)/R
vin(0) = 0; q(0) = 0`,
      {},
    );
    expect(r.stats.method).toBe('analytic');
    // q = t/2 - 1/2 + e^{-t}/2 reaches 1 where t = 3 - e^{-t}: Newton from 3
    let t1 = 3;
    for (let i = 0; i < 8; i++) t1 -= (t1 - 3 + Math.exp(-t1)) / (1 - Math.exp(-t1));
    expect(r.events).toHaveLength(1);
    // a crossing at speed q' = (t1 - 2)/2 ~ 0.47: a few ulps of q's scale over that
    expect(Math.abs(r.events[0].t - t1)).toBeLessThanOrEqual(64 * EPS * t1);
    // after the reset: q = (t - t1)/2 + (t1 - 1)/2 (1 - e^{-(t - t1)}) ... solved from q(t1) = 0
    const h = 3.5 - t1,
      q = (3.5 - 1) / 2 - ((t1 - 1) / 2) * Math.exp(-h);
    expect(Math.abs(r.final.q - q)).toBeLessThanOrEqual(1e-14);
  });

  it('a block of three (the matrix exponential by Padé): a decay chain', () => {
    const r = simulate(
      `model Chain
independent t from 0 to 2
x' = -x
y' = x - 2*y
z' = y - 3*z
x(0) = 1; y(0) = 0; z(0) = 0`,
      {},
    );
    expect(r.stats.method).toBe('analytic');
    const e1 = Math.exp(-2),
      e2 = Math.exp(-4),
      e3 = Math.exp(-6);
    expect(Math.abs(r.final.x - e1)).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(r.final.y - (e1 - e2))).toBeLessThanOrEqual(1e-15);
    expect(Math.abs(r.final.z - (e1 / 2 - e2 + e3 / 2))).toBeLessThanOrEqual(1e-15);
  });
});
