/**
 * Round 17 (underflow17): closed forms whose Taylor coefficients leave the range of normal
 * doubles by underflow, where every value of the motion is a normal double. The coefficient
 * of t^2 under b' = B*t/T*2 is generated (quotient rule) as ((B*T)/T^2*2)/2: B*T or T^2 may
 * underflow or overflow on the way, and a coefficient that comes out 0 or subnormal leaves
 * no trace in any value (the overflow checks of round 16/17 see Infinity only). The analytic
 * path (and auto, which took it) moved b as if the coefficient were what doubles made of it,
 * status ok. Now each polynomial group has a range guard (codegen/closed-form.ts,
 * rangeLost): auto takes the stepper, method analytic refuses naming the coefficient.
 * Exact answers: b = B t^2/T (b(0) = 0), powers of ten, by rational arithmetic.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const model = (from: string, to: string, T: string, B: string) => `independent t from ${from} to ${to}
parameter T = ${T}, B = ${B}
b' = B*t/T*2
b(0) = 0`;

// dopri5 integrates a right-hand side linear in t exactly (its order is 5), so what it gives
// differs from the exact value by the rounding of its steps only: a few ulps of b. The
// stepper auto takes is judged to 1e-14 relative (dopri5 gives 1 ulp off on each below).
const REL = 1e-14;

describe('a coefficient that underflows where the motion does not', () => {
  const cases = [
    // B/T = 1e-350: 0 in doubles (B*T = 1e-50, T^2 = 1e300). b(1e160) = 1e-350 * 1e320 = 1e-30.
    // Was: auto and analytic b = 0, status ok.
    ['B/T underflows to 0', model('0', '1e160', '1e150', '1e-200'), 1e-30],
    // B/T = 1e-310: subnormal (gradual underflow keeps 38 of 53 bits). b(1e150) = 1e-310 *
    // 1e300 = 1e-10. Was: 9.999999999999969e-11 (3.1e-15 off), status ok.
    ['B/T subnormal', model('0', '1e150', '1e10', '1e-300'), 1e-10],
    // B/T = 1e-200 is a normal double, but T^2 = 1e400 overflows and (B*T)/Infinity = 0.
    // b(1e100) = 1e-200 * 1e200 = 1. Was: b = 0, status ok.
    ['T^2 overflows, the quotient is 0', model('0', '1e100', '1e200', '1'), 1],
    // B*T = 1e-350 underflows to 0 and T^2 = 1e-300: B/T = 1e-50, normal. b(1e30) = 1e-50 *
    // 1e60 = 1e10.
    ['B*T underflows, the quotient is normal', model('0', '1e30', '1e-150', '1e-200'), 1e10],
  ] as const;
  it.each(cases)('%s: auto gives the exact value', (_what, text, exact) => {
    const r = simulate(text, { method: 'auto', rtol: 1e-12, atol: 1e-300 });
    expect(r.status, r.message ?? undefined).toBe('ok');
    expect(Math.abs(r.final.b - exact)).toBeLessThanOrEqual(REL * exact);
  });
  // (the first two: B/T itself is below normal doubles, so the analytic path cannot hold it)
  it.each(cases.slice(0, 2))('%s: method analytic refuses, naming the coefficient', (_what, text) => {
    expect(() => simulate(text, { method: 'analytic', rtol: 1e-12, atol: 1e-300 })).toThrow(
      /closed form of b has a coefficient below double precision/,
    );
  });
  // (the last two: B/T is a normal double. Since round 18 the derivative of a quotient by a
  // constant is a'/T, without T^2 (expression/expr.ts), so the coefficient is B/T*2/2 and the
  // analytic path holds it: one rounding of b = (B/T) t^2 at the end, 2 ulps)
  it.each(cases.slice(2))('%s: method analytic gives the exact value', (_what, text, exact) => {
    const r = simulate(text, { method: 'analytic', rtol: 1e-12, atol: 1e-300 });
    expect(r.status, r.message ?? undefined).toBe('ok');
    expect(Math.abs(r.final.b - exact)).toBeLessThanOrEqual(4 * Number.EPSILON * exact);
  });
  it('a mixed model: one group underflows, the other is exact in any case', () => {
    // c' = 1: c = t, c(1e160) = 1e160 exactly; b as the first case, 1e-30.
    const text = `independent t from 0 to 1e160
parameter T = 1e150, B = 1e-200
b' = B*t/T*2
c' = 1
b(0) = 0; c(0) = 0`;
    const r = simulate(text, { method: 'auto', rtol: 1e-12, atol: 1e-300 });
    expect(r.status).toBe('ok');
    expect(Math.abs(r.final.b - 1e-30)).toBeLessThanOrEqual(REL * 1e-30);
    expect(Math.abs(r.final.c - 1e160)).toBeLessThanOrEqual(REL * 1e160);
    expect(() => simulate(text, { method: 'analytic' })).toThrow(/closed form of b has a coefficient below/);
  });
  it('no false alarm: a product that underflows beside a larger term', () => {
    // h'' = -g + e1*e2, e1 = e2 = 1e-200: the product (1e-400) is 0 in doubles and nothing
    // beside g = 9.81, so the coefficient -g/2 is exact and the analytic path stays: h(2) =
    // 10 - 9.81*2 = -9.62, v(2) = -19.62 (exact to the rounding of a few operations).
    const text = `independent t from 0 to 2
parameter g = 9.81, e1 = 1e-200, e2 = 1e-200
h'' = -g + e1*e2
h(0) = 10; h'(0) = 0`;
    const r = simulate(text, { method: 'analytic' });
    expect(r.status).toBe('ok');
    expect(Math.abs(r.final.h - (10 - 9.81 * 2))).toBeLessThanOrEqual(1e-14);
  });
});

describe('a coefficient that underflows only after an event', () => {
  // c' = 1 (c = t); B is 0 until the state event go at c = 5e159, t1 = 5e159, sets B := 1e-200.
  // Then b = B (t^2 - t1^2)/T with T = 1e150: b(1e160) = 1e-350 (1e320 - 2.5e319) = 7.5e-31,
  // and eb (b = 1e-31) at t^2 = t1^2 + 1e-31/1e-350 = 3.5e319, t = sqrt(35) 1e159. The
  // coefficient of t^2 after go, B/T = 1e-350, is 0 in doubles: the analytic path moved b as
  // 0 (status ok, eb never fired).
  const text = `independent t from 0 to 1e160
discrete n = 0, B = 0
parameter T = 1e150
event go when c - 5e159 rises do B := 1e-200 end
event eb when b - 1e-31 rises do n := n + 1 end
b' = B*t/T*2
c' = 1
b(0) = 0; c(0) = 0`;
  const rise = Math.sqrt(35) * 1e159;
  const check = (r: ReturnType<typeof simulate>, events: { t: number; name: string }[]) => {
    expect(r.status, r.message ?? undefined).toBe('ok');
    expect(events.map((e) => e.name)).toEqual(['go', 'eb']);
    expect(Math.abs(events[0].t - 5e159)).toBeLessThanOrEqual(REL * 5e159);
    expect(Math.abs(events[1].t - rise)).toBeLessThanOrEqual(1e-11 * rise);
    expect(r.final.n).toBe(1);
    expect(Math.abs(r.final.b - 7.5e-31)).toBeLessThanOrEqual(1e-11 * 7.5e-31);
  };
  it('auto: exact', () => {
    const r = simulate(text, { method: 'auto', rtol: 1e-12, atol: 1e-300 });
    check(r, r.events);
  });
  it('auto with a sink: handed over at the state event, each event once', () => {
    const events: { t: number; name: string }[] = [];
    const rows: number[] = [];
    const r = simulate(text, {
      method: 'auto',
      rtol: 1e-12,
      atol: 1e-300,
      sink: { row: (row) => rows.push(row[0]), event: (e) => events.push({ t: e.t, name: e.name }) },
    });
    check(r, events);
    for (let i = 1; i < rows.length; i++) expect(rows[i]).toBeGreaterThanOrEqual(rows[i - 1]);
  });
  it('analytic: a failure naming the coefficient and the event', () => {
    const r = simulate(text, { method: 'analytic', rtol: 1e-12, atol: 1e-300 });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/after the actions of go, the closed form of b has a coefficient below/);
  });
});

describe('a state event whose action makes a coefficient overflow, streamed: each event once', () => {
  // As round17-marcus's overflow after an event, but go is a state event: x' = 1 (x = t), go
  // when x = 5e-151 sets B := 1e200; b = -1e50 + t^2/T before, b(t1) + B (t^2 - t1^2)/T after
  // (T = 1e-150): eb (b = 0) at t = sqrt(1.25) 1e-150, b(3e-150) = 7.75e50 (to 1e-100
  // relative). The analytic path stops at go's instant and hands the run to the stepper; the
  // stepper must not find go again a few ulps after the instant.
  const text = `independent t from 0 to 3e-150
discrete n = 0, B = 1
parameter T = 1e-150
event go when x - 5e-151 rises do B := 1e200 end
event eb when b rises do n := n + 1 end
b' = B*2*t/T
x' = 1
b(0) = -1e50; x(0) = 0`;
  it('auto with a sink', () => {
    const events: { t: number; name: string }[] = [];
    const r = simulate(text, {
      method: 'auto',
      rtol: 1e-12,
      atol: 1e-300,
      sink: { row: () => {}, event: (e) => events.push({ t: e.t, name: e.name }) },
    });
    expect(r.status, r.message ?? undefined).toBe('ok');
    expect(events.map((e) => e.name)).toEqual(['go', 'eb']);
    expect(Math.abs(events[0].t - 5e-151)).toBeLessThanOrEqual(REL * 5e-151);
    expect(Math.abs(events[1].t - Math.sqrt(1.25) * 1e-150)).toBeLessThanOrEqual(1e-11 * 1.2e-150);
    expect(r.final.n).toBe(1);
    expect(Math.abs(r.final.b - 7.75e50)).toBeLessThanOrEqual(1e-11 * 7.75e50);
  });
});

describe("an event function's Taylor coefficient that underflows", () => {
  // x' = 1 (x = t), hit when x*A/T = 5e-101 with A = 1e-200, T = 1e200: x = 5e-101 T/A =
  // 5e299 exactly (powers of ten). The function's rate A/T = 1e-400 is 0 in doubles: the
  // analytic path (and auto) saw a constant function, n = 0, status ok. dopri5 gives hit at
  // 5.000000000000001e299. The state's own coefficient (1) is in range: the event's guard
  // (closed-form.ts, eventRangeLost) finds it.
  const text = `independent t from 0 to 1e300
discrete n = 0
parameter A = 1e-200, T = 1e200
event hit when x*A/T - 5e-101 rises do n := n + 1 end
x' = 1
x(0) = 0`;
  it('auto: the crossing at 5e299', () => {
    const r = simulate(text, { method: 'auto', rtol: 1e-12, atol: 1e-300 });
    expect(r.status, r.message ?? undefined).toBe('ok');
    expect(r.final.n).toBe(1);
    expect(Math.abs(r.events[0].t - 5e299)).toBeLessThanOrEqual(1e-12 * 5e299);
  });
  it('analytic: refused, naming the event', () => {
    expect(() => simulate(text, { method: 'analytic' })).toThrow(
      /function of event hit has a Taylor coefficient below/,
    );
  });
  // The plainest form: hit when x/T = 5e-101 with T = 1e200, at x = 5e99. The rate was
  // generated by the quotient rule, (1*T)/T^2, and T^2 = 1e400 overflows: the rate was 0 and
  // the analytic path gave n = 0, status ok. (Since round 18 the rate is 1/T and the analytic
  // path takes it: tests/round18-lead.test.ts.)
  it('x/T with T^2 beyond doubles: auto finds the crossing', () => {
    const plain = `independent t from 0 to 1e100
discrete n = 0
parameter T = 1e200
event hit when x/T - 5e-101 rises do n := n + 1 end
x' = 1
x(0) = 0`;
    const r = simulate(plain, { method: 'auto', rtol: 1e-12, atol: 1e-300 });
    expect(r.final.n).toBe(1);
    expect(Math.abs(r.events[0].t - 5e99)).toBeLessThanOrEqual(1e-12 * 5e99);
  });
  // After an event: T = 1e100 and A = 1 until go at t = 1e299 sets A := 1e-250. The rate of
  // x*A/T - 5e-51 is (A*T)/T^2: 1e-100 before go, 1e-350 (0 in doubles) after. hit at x/T =
  // 5e-51, x = 5e49; after go x*A/T = 1e-51 at 1e299, rising through 5e-51 at x = 5e-51 T/A
  // = 5e299: n = 2 (powers of ten: exact to the rounding of doubles).
  const after = `independent t from 0 to 1e300
discrete n = 0, A = 1
parameter T = 1e100
event go at 1e299 do A := 1e-250 end
event hit when x*A/T - 5e-51 rises do n := n + 1 end
x' = 1
x(0) = 0`;
  it('after an event: auto finds both crossings', () => {
    const r = simulate(after, { method: 'auto', rtol: 1e-12, atol: 1e-300 });
    expect(r.status, r.message ?? undefined).toBe('ok');
    expect(r.events.map((e) => e.name)).toEqual(['hit', 'go', 'hit']);
    expect(Math.abs(r.events[0].t - 5e49)).toBeLessThanOrEqual(1e-12 * 5e49);
    expect(Math.abs(r.events[2].t - 5e299)).toBeLessThanOrEqual(1e-12 * 5e299);
    expect(r.final.n).toBe(2);
  });
  it('after an event: analytic fails naming the event and the instant', () => {
    const r = simulate(after, { method: 'analytic', rtol: 1e-12, atol: 1e-300 });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/after the actions of go, the function of event hit has a Taylor coefficient below/);
  });
});
