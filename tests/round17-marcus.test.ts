/**
 * Round 17 (marcus17): a Marcus flow at the roots of a nonlinear time argument, the stability
 * of the fixed-step methods on complex modes, and closed forms that overflow after an event.
 * Each test states its exact answer and why.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const EPS = Number.EPSILON;

describe("a Marcus flow at a root of (t - c)^2 - a weighs 1/|u'| at the root itself", () => {
  // y' = k y delta((t - c)^2 - a) under deltaRule = marcus: at each root r = c -+ sqrt(a)
  // (|u'(r)| = 2 sqrt(a)) y follows dy/ds = k y / (2 sqrt(a)) over s in [0, 1], so y+ = y-
  // exp(k / (2 sqrt(a))). With k = 2 Math.sqrt(a) (the text's double) the exponent is 1 to
  // 7e-17 (mpmath at 50 digits, for every a below: k / (2 sqrt(a)) - 1 from -4.5e-17 to
  // 6.4e-17), so y(end) = e^2 to 1.3e-16 relative after the two roots. The plain jumps' weight
  // has been exact at the root since round 16 (tr, round16-roots); the flow's rate read
  // 1/|u'| at the double nearest the root instead: 1.7e-7 off at a = 1e-20, 4.9e-4 at 1e-26,
  // 13.5 % at 1e-30 (8.387 for 7.389), status ok on every method. The flow is integrated to a
  // hundredth of the run's tolerances (round10-marcus): bound 10 rtol |exact| (atol 1e-300).
  // Where no double separates the roots (sqrt(a) below a few ulps of c) the run must fail.
  const as = [1e-30, 1e-26, 1e-20, 1e-14, 1e-8, 1e-2];
  const cs = [1, 1e3, 1e-3];
  const methods = ['auto', 'dopri5', 'rodas', 'radau5', 'rk4'] as const;
  const cases = as.flatMap((a) => cs.flatMap((c) => methods.map((m) => [a, c, m] as const)));
  it.each(cases)('a = %s, c = %s, %s', (a, c, method) => {
    const s = Math.sqrt(a);
    const run = simulate(
      `independent t from 0 to ${2 * c + 2 * s}
option deltaRule = marcus
parameter a = ${a}, c = ${c}, k = ${2 * s}
y' = k*y*delta((t - c)^2 - a)
y(0) = 1`,
      { method, rtol: 1e-12, atol: 1e-300 },
    );
    if (s < 8 * EPS * c) {
      expect(run.status).toBe('failed');
      expect(run.message).toMatch(/multiple root|weight|slowly/);
      return;
    }
    expect(run.status, run.message ?? undefined).toBe('ok');
    const n = [c - s, c + s].filter((r) => r >= 0).length;
    expect(run.events.length).toBe(n);
    const exact = Math.exp(n);
    expect(Math.abs(run.final.y - exact)).toBeLessThanOrEqual(10 * 1e-12 * exact);
  });

  // The same on a level without a state of its own (x'' = k x' delta(...): x' = u + S, the
  // flow moves x' as dv/ds = k v / (2 sqrt(a))): v(end) = e^2, same bound.
  it.each(['auto', 'dopri5', 'rodas'] as const)("x'' = k x' delta((t - 1)^2 - 1e-26), %s", (method) => {
    const run = simulate(
      `independent t from 0 to 3
option deltaRule = marcus
parameter a = 1e-26, k = ${2 * Math.sqrt(1e-26)}
x'' = k*x'*delta((t - 1)^2 - a)
x(0) = 0; x'(0) = 1
v = x'`,
      { method, rtol: 1e-12, atol: 1e-300 },
    );
    expect(run.status, run.message ?? undefined).toBe('ok');
    expect(Math.abs(run.final.v - Math.exp(2))).toBeLessThanOrEqual(10 * 1e-12 * Math.exp(2));
  });
});

describe('a Marcus flow at a root within the instant of another time takes its own time', () => {
  // y' = k y delta(t^2 - a), k = 2 Math.sqrt(a): each root +-sqrt(a) in the range multiplies
  // y by e (exponent 1 to 1e-16, as above). On [0, 1] the root 1e-150 of a = 1e-300 lies
  // within the run's tie of the start (round16-coincide): the plain jump's weight is read at
  // the root's own time (Workspace.actionTime), the flow's rate read 1/|2 t| at t = 0, and
  // the run failed "its rate is not finite" (a false failure). Bound 10 rtol |exact|.
  const cases = [
    [1e-300, 0, 1],
    [1e-300, -1, 1],
    [1e-200, 0, 1],
    [1e-200, 0, 3e-100],
    [1e-20, 0, 1],
    [1e-20, -1, 1],
  ] as const;
  it.each(cases.flatMap((c) => (['auto', 'dopri5', 'rodas'] as const).map((m) => [...c, m] as const)))(
    'a = %s on [%s, %s], %s',
    (a, lo, hi, method) => {
      const r = Math.sqrt(a);
      const n = [-r, r].filter((x) => x >= lo && x <= hi).length;
      const run = simulate(
        `independent t from ${lo} to ${hi}
option deltaRule = marcus
parameter a = ${a}, k = ${2 * r}
y' = k*y*delta(t^2 - a)
y(${lo}) = 1`,
        { method, rtol: 1e-12, atol: 1e-300 },
      );
      expect(run.status, run.message ?? undefined).toBe('ok');
      expect(run.events.length).toBe(n);
      expect(Math.abs(run.final.y - Math.exp(n))).toBeLessThanOrEqual(10 * 1e-12 * Math.exp(n));
    },
  );
});

describe('a fixed step beyond the stability region off the real axis warns', () => {
  // Euler's region is the disc |1 + z| <= 1, RK4's |R(z)| <= 1 with R(z) = 1 + z + z^2/2 +
  // z^3/6 + z^4/24. Only h·|λ| against the real axis' border (2, 2.78) was judged, so modes
  // off the axis grew a step at a time, status ok and no warning:
  // - x'' = -x - 0.01 x' (λ = -0.005 ± 0.99999i), euler at 0.05 to t = 2000: exactly the
  //   amplitude decays as e^(-0.005 t), |x(2000)| <= e^-10 (1 + 1e-5) = 4.54e-5; Euler's
  //   factor |1 + hλ| = 1.0009995 a step, 1e17.35 over 40000 steps: it gave x = 1.65e17.
  // - x'' = -x, euler at 0.05 to 2000: |x| <= 1 exactly; |1 + 0.05i|^40000 = e^50: 4.7e21.
  // - x' = -1.5335755 x - 2.318738 y, y' = 2.318738 x - 1.5335755 y (λ at 123.5°, |λ| = 2.78),
  //   rk4 at 1 to t = 200: |(x, y)| = e^(-1.53 t) exactly; |R(λ)| = 1.2300670 (inside the
  //   disc |z| < 2.78 where the real border lies, outside RK4's region, whose border comes in
  //   to |z| = 2.616 at 122°): 1.23^200 = 9.7e17, it gave -9.5e17.
  // Each now warns naming the mode and what a step multiplied it by.
  const cases = [
    [
      'damped',
      'euler',
      "independent t from 0 to 2000\nx'' = -x - 0.01*x'\nx(0) = 1; x'(0) = 0",
      0.05,
      4.6e-5,
      /below 0\.01 here/,
    ],
    [
      'undamped',
      'euler',
      "independent t from 0 to 2000\nx'' = -x\nx(0) = 1; x'(0) = 0",
      0.05,
      1,
      /no fixed step of euler/,
    ],
    [
      'rotation at 123.5 deg',
      'rk4',
      "independent t from 0 to 200\nx' = -1.5335755*x - 2.318738*y\ny' = 2.318738*x - 1.5335755*y\nx(0) = 1; y(0) = 0",
      1,
      1e-100,
      /below 0\.9\d here/,
    ],
  ] as const;
  it.each(cases)('%s, %s', (_what, method, text, step, bound, advice) => {
    const run = simulate(text, { method, step });
    expect(run.status).toBe('ok');
    // (the numbers are far from the solution: that is what the warning is for)
    expect(Math.abs(run.final.x)).toBeGreaterThan(1e6 * bound);
    expect(run.warnings.join('\n')).toMatch(/beyond its stability region/);
    expect(run.warnings.join('\n')).toMatch(advice);
  });

  // Inside the regions, or where the mode's growth is the solution's own, no warning:
  // - rk4 at 0.9 on the rotation above: |R(0.9 λ)| = 0.8725 (inside);
  // - euler at 0.1 on x'' = -x over [0, 10]: |1 + 0.1i|^100 = e^0.5 = 1.65, Euler's own
  //   first-order error in amplitude (the warning asks for a doubling, fixed-step-stability.ts);
  // - euler at 0.1 on x' = x and x'' = 0.5 x' - x (growing modes: |1 + z| below e^Re z
  //   for the real one; the pair's excess over e^Re z, about ((h Im λ)^2 - (h Re λ)^2)/2 a
  //   step, is 0.41 over 100);
  // - euler at 0.01 on x'' = -x - 0.5 x' (|1 + z|^2 = 1 - 0.005 + 0.0001 < 1).
  const quiet = [
    [
      'rotation at 123.5 deg',
      'rk4',
      "independent t from 0 to 200\nx' = -1.5335755*x - 2.318738*y\ny' = 2.318738*x - 1.5335755*y\nx(0) = 1; y(0) = 0",
      0.9,
    ],
    ['undamped over [0, 10]', 'euler', "independent t from 0 to 10\nx'' = -x\nx(0) = 1; x'(0) = 0", 0.1],
    ['growing real mode', 'euler', "independent t from 0 to 10\nx' = x\nx(0) = 1", 0.1],
    ['growing pair', 'euler', "independent t from 0 to 10\nx'' = 0.5*x' - x\nx(0) = 1; x'(0) = 0", 0.1],
    ['damped, small step', 'euler', "independent t from 0 to 100\nx'' = -x - 0.5*x'\nx(0) = 1; x'(0) = 0", 0.01],
  ] as const;
  it.each(quiet)('%s, %s: no warning', (_what, method, text, step) => {
    const run = simulate(text, { method, step });
    expect(run.status).toBe('ok');
    expect(run.warnings).toEqual([]);
  });
});

describe('a closed form whose coefficient overflows only after an event', () => {
  // b' = B*2*t/T with T = 1e-150 and a discrete B set from 1 to 1e200 at t1 = 5e-151; b(0) =
  // -1e50. Before t1, b = -1e50 + t^2/T (moves by 2.5e-151, nothing beside 1e50); after it,
  // b = b(t1) + B (t^2 - t1^2)/T, which rises through 0 at t^2 = t1^2 + 1e50 T/B = 1.25e-300,
  // t = sqrt(1.25) 1e-150 = 1.1180339887498949e-150, and ends at b(3e-150) = -1e50 + 1e350
  // (9e-300 - 2.5e-301) = 7.75e50 (both to 1e-100 relative). The closed form's coefficient of
  // t^2 after the event, B/T = 1e350, is beyond doubles, though B*2*t/T as written never is
  // (dopri5 at rtol 1e-12: 7.750000000000002e50, the crossing at 1.1180339887498949e-150).
  // The check of the start (report/path.ts, overflowingGroup) cannot see it: the analytic
  // path (and auto, which took it) failed "precision ran out ... its own rounding (Infinity)".
  // Now the instant that makes such a coefficient hands the run to the stepper under auto
  // (exact, as dopri5) and fails under method analytic naming the coefficient and the event.
  const text = `independent t from 0 to 3e-150
discrete n = 0, B = 1
parameter T = 1e-150
event go at 5e-151 do B := 1e200 end
event eb when b rises do n := n + 1 end
b' = B*2*t/T
b(0) = -1e50`;
  const rise = Math.sqrt(1.25) * 1e-150;
  it('auto: the stepper, exact to rtol', () => {
    const r = simulate(text, { method: 'auto', rtol: 1e-12, atol: 1e-300 });
    expect(r.status, r.message ?? undefined).toBe('ok');
    expect(r.final.n).toBe(1);
    expect(r.events.map((e) => e.name)).toEqual(['go', 'eb']);
    expect(Math.abs(r.events[1].t - rise)).toBeLessThanOrEqual(1e-11 * rise);
    expect(Math.abs(r.final.b - 7.75e50)).toBeLessThanOrEqual(1e-11 * 7.75e50);
  });
  it('auto with a sink (a streamed run): the stepper goes on after the instant, each event once', () => {
    const rows: number[][] = [];
    const events: { t: number; name: string }[] = [];
    const r = simulate(text, {
      method: 'auto',
      rtol: 1e-12,
      atol: 1e-300,
      sink: { row: (row) => rows.push(Array.from(row)), event: (e) => events.push({ t: e.t, name: e.name }) },
    });
    expect(r.status, r.message ?? undefined).toBe('ok');
    expect(events.map((e) => e.name)).toEqual(['go', 'eb']);
    expect(Math.abs(events[1].t - rise)).toBeLessThanOrEqual(1e-11 * rise);
    // (rows in order of t)
    for (let i = 1; i < rows.length; i++) expect(rows[i][0]).toBeGreaterThanOrEqual(rows[i - 1][0]);
    expect(Math.abs(r.final.b - 7.75e50)).toBeLessThanOrEqual(1e-11 * 7.75e50);
  });
  it('analytic: a failure naming the coefficient and the event', () => {
    const r = simulate(text, { method: 'analytic', rtol: 1e-12, atol: 1e-300 });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/closed form of b has a coefficient beyond double precision/);
    expect(r.message).toMatch(/go/);
  });
});

describe('a closed-form coefficient that underflows where the motion does not', () => {
  // b' = B*t/T*2 with B = 1e-200, T = 1e150, b(0) = 0 on [0, 1e160]: b = B t^2/T exactly,
  // b(1e160) = 1e-200 * 1e320 / 1e150 = 1e-30 (each factor a power of ten, exact to the
  // rounding of the doubles: 1e-15 relative is ample). The right-hand side as written,
  // ((B*t)/T)*2, stays a normal double for t above 1e-124 and dopri5 at rtol 1e-12 gives
  // 9.999999999999999e-31. The closed form's coefficient of t^2, B/T = 1e-350, underflows
  // to 0, and the analytic path (and auto, which took it) gave b = 0 with status ok.
  // Diagnosis: the Taylor coefficients are evaluated in doubles in absolute units of t; the
  // start's check (report/path.ts, overflowingGroup) and the instants' (finite-after.ts,
  // overflowing) find a coefficient that overflows by the Infinity a step of MIN_VALUE makes,
  // but one that underflows leaves no trace in any value. Fixed (round17-underflow): each
  // polynomial group's range guard (codegen/closed-form.ts, rangeLost) bounds what leaving
  // the normal doubles cost its coefficients; auto takes the stepper, analytic refuses.
  const text = `independent t from 0 to 1e160
parameter T = 1e150, B = 1e-200
b' = B*t/T*2
b(0) = 0`;
  it('dopri5: 1e-30', () => {
    const r = simulate(text, { method: 'dopri5', rtol: 1e-12, atol: 1e-300 });
    expect(r.status).toBe('ok');
    expect(Math.abs(r.final.b - 1e-30)).toBeLessThanOrEqual(1e-11 * 1e-30);
  });
  it('auto: 1e-30 or a failure that says why (gave 0, status ok)', () => {
    const r = simulate(text, { method: 'auto', rtol: 1e-12, atol: 1e-300 });
    if (r.status === 'ok') expect(Math.abs(r.final.b - 1e-30)).toBeLessThanOrEqual(1e-11 * 1e-30);
    else expect(r.message).toMatch(/coefficient/);
  });
});
