/**
 * Round 19, results limited by the tolerances that said nothing.
 *
 * 1. Event functions at the scale of atol (driver/watch-scale.ts). A stepper holds each state's
 * error per step to atol + rtol·|y|; a state of 1e-8 at the default atol 1e-9 is known to a
 * tenth of itself whatever rtol says, and so is an event function read from it. The warning
 * for states below atol (StepGuard.toleranceWarning) does not see a state that is ten or a
 * hundred times atol.
 *
 * The pendulum scaled to s: x = s·θ, θ'' = -sin θ, θ(0) = 2, θ'(0) = 0. x crosses zero at
 * (2j + 1)·K(m), m = sin²(1) (quarter period K, mpmath: K = 2.0874382317296236836), so 7 times
 * on [0, 30]: 2.08743823173, 6.26231469519, 10.4371911586, 14.6120676221, 18.7869440856,
 * 22.9618205490, 27.1366970125. At s = 1e-8 and the default tolerances dopri5 (and auto, which
 * takes dopri5 here: sin is not closed-form) counted 3, the last at 11.2, and ended with x/s =
 * -47 (the pendulum over the top: energy gained from the error), status ok, no warning.
 * dop853, rodas and radau5 counted 7 with times off by 0.07 to 0.5. At atol 1e-17 (below rtol
 * times the function's peak, 1e-6 · 2e-8) every method counts 7 within 2.5e-5 of the exact
 * times, as at s = 1.
 *
 * Times are compared to 1e-3: rtol 1e-6 per step over some 300 steps and 27 units of t moves
 * the phase by about 1e-5 (dopri5 1.5e-5, dop853 2.1e-5 measured at s = 1); 1e-3 leaves that a
 * margin of 40 and is still 4000 times below the half-period 4.17 that separates crossings.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, shoot, simulate } from '../src/index.js';
import { ensureCliBuilt, runCli } from './helpers.js';
import { tempModel } from './api-helpers.js';

const K = 2.0874382317296236836;
const EXACT = Array.from({ length: 7 }, (_, j) => (2 * j + 1) * K);
const METHODS = ['auto', 'dopri5', 'dop853', 'rodas', 'radau5'] as const;

const pendulum = (s: string) => `independent t from 0 to 30
parameter s = ${s}
discrete n = 0
event z when x crosses do n := n + 1 end
x'' = -s*sin(x/s)
x(0) = 2*s; x'(0) = 0
output x, n
`;

function exactCrossings(r: ReturnType<typeof simulate>) {
  expect(r.status, r.message ?? '').toBe('ok');
  expect(r.final.n).toBe(7);
  r.events.forEach((e, j) => expect(Math.abs(e.t - EXACT[j])).toBeLessThan(1e-3));
}

describe('an event function at the scale of atol is named, with the atol that resolves it', () => {
  it.each(METHODS)(
    '%s: the pendulum at 1e-8, default tolerances: warned (dopri5 counted 3 of 7, status ok)',
    (method) => {
      const r = simulate(pendulum('1e-8'), { method, eventsOnly: true });
      const right = r.final.n === 7 && r.events.every((e, j) => Math.abs(e.t - EXACT[j]) < 1e-3);
      // whatever it counted (dopri5: 3; the others 7, off by up to 0.5), it says so
      expect(right).toBe(false);
      expect(r.status).toBe('ok');
      expect(r.warnings.length).toBe(1);
      expect(r.warnings[0]).toMatch(/^event z's function \(x\) was never further from zero than /);
      expect(r.warnings[0]).toMatch(/at atol 1e-9 its crossings .* not to rtol/);
      expect(r.warnings[0]).toMatch(/give a smaller atol \(--atol\), about \d(\.\d)?e-1\d or below$/);
    },
  );

  it.each(METHODS)('%s: the pendulum at 1e-8 with atol 1e-17: the 7 crossings, no warning', (method) => {
    const r = simulate(pendulum('1e-8'), { method, atol: 1e-17, eventsOnly: true });
    exactCrossings(r);
    expect(r.warnings).toEqual([]);
  });

  it.each(METHODS)('%s: the pendulum at 1 (the control), default tolerances: the 7 crossings, no warning', (method) => {
    const r = simulate(pendulum('1'), { method, eventsOnly: true });
    exactCrossings(r);
    expect(r.warnings).toEqual([]);
  });

  it('rtol does not help, and the warning says atol: dopri5 at rtol 1e-10 still counts 3', () => {
    const r = simulate(pendulum('1e-8'), { method: 'dopri5', rtol: 1e-10, eventsOnly: true });
    expect(r.warnings.length).toBe(1);
    expect(r.warnings[0]).toMatch(/smaller atol/);
  });

  // A row of three bodies 1e-8 apart under quadratic drag (x'' = -c x'|x'|, c = 5e7), the
  // first sent at 1e-7 into the two at rest; equal masses, elastic: the velocities swap. With
  // drag, a body from speed v covers 1e-8 when ln(1 + c v τ) = c·1e-8 = 1/2, so the first hit
  // is at t1 = (e^½ − 1)/(c v0) = 0.129744254140025629 and the second a time t1·e^½ after it,
  // at t1 (1 + e^½) = 0.343656365691809047 (mpmath). At the default tolerances the steppers
  // put them 1e-6 to 1.7e-4 off (relative 3e-4 to 5e-4 on dopri5, 2500 times rtol), status ok.
  // At atol 1e-16 they are within 3e-7 (rodas; dopri5 2e-8), the relative error rtol allows
  // over a handful of steps of a smooth motion: compared to 1e-6.
  const row = (d: string, v0: string) => `independent t from 0 to 1
parameter c = 5e7*1e-8/${d}
event hit12 when x1 - x2 rises
event hit23 when x2 - x3 rises
x1'' = -c*x1'*abs(x1') + (x2' - x1')*delta(t - hit12)
x2'' = -c*x2'*abs(x2') + (x1' - x2')*delta(t - hit12) + (x3' - x2')*delta(t - hit23)
x3'' = -c*x3'*abs(x3') + (x2' - x3')*delta(t - hit23)
x1(0) = 0; x1'(0) = ${v0}
x2(0) = ${d}; x2'(0) = 0
x3(0) = 2*${d}; x3'(0) = 0
output x1, x2, x3
`;
  const T1 = 0.129744254140025629,
    T2 = 0.343656365691809047;
  it.each(METHODS)('%s: a row of bodies 1e-8 apart at the default atol: both impacts named', (method) => {
    const r = simulate(row('1e-8', '1e-7'), { method, eventsOnly: true });
    expect(r.status).toBe('ok');
    expect(r.warnings.length).toBe(1);
    expect(r.warnings[0]).toMatch(
      /^event hit12's function \(x1 - x2\) was never further .*; event hit23's function \(x2 - x3\)/,
    );
  });
  it.each(METHODS)(
    '%s: the row at atol 1e-16, and the row at scale 1 (c = 0.5, v0 = 10): exact, no warning',
    (method) => {
      for (const [d, v0, atol] of [
        ['1e-8', '1e-7', 1e-16],
        ['1', '10', 1e-9],
      ] as const) {
        const r = simulate(row(d, v0), { method, atol, eventsOnly: true });
        expect(r.status, r.message ?? '').toBe('ok');
        expect(r.events.map((e) => e.name)).toEqual(['hit12', 'hit23']);
        expect(Math.abs(r.events[0].t - T1)).toBeLessThan(1e-6);
        expect(Math.abs(r.events[1].t - T2)).toBeLessThan(1e-6);
        expect(r.warnings).toEqual([]);
      }
    },
  );

  // The bouncing ball from 1e-8 (g = 9.81, e = 0.8): bounces accumulate at
  // sqrt(2H/g)(1 + e)/(1 - e) = 4.06371276887157814e-4 (mpmath). On the analytic path (auto
  // takes it: the motion is a polynomial) its roots are certified: no warning, the exact limit.
  // On dopri5 the parabolas happen to be integrated exactly too, but the run cannot know that
  // of its error estimate: it says that atol rules h.
  const ball = `independent t from 0 to 1
parameter g = 9.81, e = 0.8
event bounce when h falls
h'' = -g - (1 + e)*h'*delta(t - bounce)
h(0) = 1e-8; h'(0) = 0
output h
`;
  it('auto (analytic): the exact accumulation point, no warning', () => {
    const r = simulate(ball, { method: 'auto', eventsOnly: true });
    expect(r.stats.method).toBe('analytic');
    expect(r.status).toBe('zeno');
    expect(Math.abs(r.accumulationPoint! - 4.06371276887157814e-4)).toBeLessThan(1e-15);
    expect(r.warnings).toEqual([]);
  });
  it('dopri5: the accumulation point, and the word that atol rules h', () => {
    const r = simulate(ball, { method: 'dopri5', eventsOnly: true });
    expect(r.status).toBe('zeno');
    expect(Math.abs(r.accumulationPoint! - 4.06371276887157814e-4)).toBeLessThan(1e-12);
    expect(r.warnings.some((w) => /^event bounce's function \(h\) was never further from zero/.test(w))).toBe(true);
  });
});

/**
 * 1b. Open: a crossing approached slowly through atol's band. x' = -x - x^3, x(0) = 1: x^2 =
 * 1/(2 e^(2t) - 1), so x falls through c at t = ln((1/c^2 + 1)/2)/2: 6.5611821887019143975
 * for c = 1e-3, 18.074107153672392867 for 1e-8, 22.679277339660484185 for 1e-10 (mpmath).
 * The function x - c peaks at 1, far beyond atol, so the peak rule (watch-scale.ts) says
 * nothing; but near the crossing x's error is held to atol = 1e-9, a tenth of c = 1e-8, and the
 * steppers put the fall 1.6e-4 (dop853), 4.9e-4 (radau5), 1.2e-3 (rodas), 4.5e-3 (dopri5,
 * auto) late, status ok, no warning (rtol of the time is 1.8e-5). At c = 1e-10 rodas is 0.17
 * late, radau5 0.04, and dop853 counts 2 falls (x > 0 always: one), status ok, no warning.
 * Diagnosis: the crossing's time is known to about A/|g'| (A = what an error of atol in the
 * states g reads moves it by; 0.1 at c = 1e-8). A rule "warn when A/|g'| > 1000 rtol (t -
 * t0)" caught these, but also fired on ordinary tests whose answers are right: heyoka's
 * `v*v - 1e-12` crossing at t = 2e-6 (the elapsed time is tiny, the first steps' error far
 * below atol: the estimate is pessimistic), Assimulo's bouncing ball near its accumulation,
 * and the draining tank h' = -k sqrt(h) reaching 0 with zero rate (A/|g'| = 41 where the time
 * is off by 2.8e-4): the linear estimate fails where the rate vanishes. Not shipped; what the
 * warning should say is kept here.
 */
describe('a crossing whose time atol leaves uncertain', () => {
  const decay = (c: string) => `independent t from 0 to 40
discrete n = 0, tt = -1
event e when x - ${c} falls do n := n + 1; tt := t end
x' = -x - x^3
x(0) = 1
output x, n, tt
`;
  it.each(METHODS)('%s: x - 1e-3 falls (the control): within 1e-5, silent', (method) => {
    const r = simulate(decay('1e-3'), { method, eventsOnly: true });
    expect(r.status).toBe('ok');
    expect(r.final.n).toBe(1);
    expect(Math.abs(r.final.tt - 6.5611821887019143975)).toBeLessThan(1e-5);
    expect(r.warnings).toEqual([]);
  });
  it.each(METHODS)('%s: x - 1e-8 falls at atol 1e-16: within 1e-4, silent', (method) => {
    const r = simulate(decay('1e-8'), { method, atol: 1e-16, eventsOnly: true });
    expect(r.status).toBe('ok');
    expect(r.final.n).toBe(1);
    // (rtol 1e-6 of the time, 1.8e-5, with room for the global error over 18 units)
    expect(Math.abs(r.final.tt - 18.074107153672392867)).toBeLessThan(1e-4);
    expect(r.warnings).toEqual([]);
  });
  // open: placed within 1e-4 (5 rtol of the time), or a warning that names the event
  it.fails.each(METHODS)(
    '%s: x - 1e-8 falls: within 1e-4 of 18.0741, or said (1.6e-4 to 4.5e-3 late, silent)',
    (method) => {
      const r = simulate(decay('1e-8'), { method, eventsOnly: true });
      expect(r.final.n).toBe(1);
      if (Math.abs(r.final.tt - 18.074107153672392867) >= 1e-4)
        expect(r.warnings.some((w) => /event e\b/.test(w))).toBe(true);
    },
  );
  // open: dopri5 and auto fail naming atol here (crossing-noise.ts); these three are silent
  it.fails.each(['dop853', 'rodas', 'radau5'] as const)(
    '%s: x - 1e-10 falls once, within 1e-3 of 22.6793, or said (dop853: 2 falls; rodas 0.17 late)',
    (method) => {
      const r = simulate(decay('1e-10'), { method, eventsOnly: true });
      const exact = r.final.n === 1 && Math.abs(r.final.tt - 22.679277339660484185) < 1e-3;
      if (r.status === 'failed') expect(r.message).toMatch(/atol/);
      else if (!exact) expect(r.warnings.some((w) => /event e\b/.test(w))).toBe(true);
    },
  );
});

/**
 * 2. Shooting at a double root of the residual (shooting/newton.ts, Newton.spread). The
 * impulse position a is the unknown: x'' = -4x + 2 delta(t - a), x(0) = x'(0) = 0 gives
 * x = sin(2(t - a)) after a, so the condition x(2) = 1 is sin(2(2 - a)) = 1: a* = 2 - pi/4 =
 * 1.2146018366025516904 (mpmath), where the residual sin(2(2 - a)) - 1 = -2 (a - a*)^2 + ...
 * touches zero: its derivative vanishes there. The stopping test accepts |residual| <= tol
 * (10 atol + rtol = 1.01e-6 at the defaults), met by every a within sqrt(tol/2) = 7.1e-4 of
 * a*. Shooting from a = 1 converged at a* - 4.6e-4 (central: a* - 4.1e-4; rtol 1e-10: a* -
 * 6.1e-6), status converged, no word. Now a converged result carries a warning with the
 * spread X that the tolerances leave the unknown (sum_i |J^-1_ji| tol_i from the final
 * Jacobian); X must cover the actual error to within the first-order estimate (at a double
 * root the linear spread tol/|R'(a)| with R'(a) = 4 |a - a*| is half the distance itself:
 * X >= |a - a*| / 3 is asserted), and the CLI prints it on stderr.
 * The control, x(2) = 0.5: sin(2(2 - a)) = 1/2 at a = 2 - pi/12 = 1.7382006122008505635 from
 * a = 1.5, a simple root with R'(a) = -2 cos(pi/6) = -1.732: the unknown is fixed to tol/1.73
 * = 6e-7 (asserted within 1e-5, room for the integration's error carried through), no warning.
 */
describe('shooting says when the conditions fix an unknown only loosely (a double root)', () => {
  const bvp = (target: string, guess: string) => `independent t from 0 to 2
unknown a = ${guess}
x'' = -4*x + 2*delta(t - a)
x(0) = 0; x'(0) = 0
x(2) = ${target}
`;
  const A_DOUBLE = 1.2146018366025516904,
    A_SIMPLE = 1.7382006122008505635;
  const spreadOf = (w: string) => Number(/only to about ±([0-9.e+-]+)/.exec(w)![1]);

  it.each([
    ['default tolerances', {}, 1e-6, 1e-9],
    ['central differences', { jacobian: 'central' as const }, 1e-6, 1e-9],
    ['dopri5', { method: 'dopri5' as const }, 1e-6, 1e-9],
    ['rtol 1e-10, atol 1e-12', { rtol: 1e-10, atol: 1e-12 }, 1e-10, 1e-12],
  ])(
    'x(2) = 1 (%s): converged off a* by up to sqrt(tol), and the warning gives that spread',
    (_, options, rtol, atol) => {
      const r = shoot(compileModel(bvp('1', '1')), options);
      expect(r.status).toBe('converged');
      const off = Math.abs(r.unknowns.a - A_DOUBLE);
      // (off by far more than rtol: the case the warning is for; and within sqrt(tol/2))
      const tol = 10 * atol + rtol;
      expect(off).toBeGreaterThan(100 * rtol);
      expect(off).toBeLessThan(Math.sqrt(tol / 2) * 1.01);
      expect(r.warnings.length).toBe(1);
      expect(r.warnings[0]).toMatch(/^the boundary conditions determine a = [0-9.]+ only to about ±/);
      expect(r.warnings[0]).toMatch(/double root/);
      const X = spreadOf(r.warnings[0]);
      expect(X).toBeGreaterThan(off / 3);
      expect(X).toBeLessThan(3 * Math.sqrt(tol / 2));
    },
  );

  it('x(2) = 0.5, a simple root: exact to the tolerance, no warning', () => {
    for (const options of [{}, { jacobian: 'central' as const }, { rtol: 1e-10, atol: 1e-12 }]) {
      const r = shoot(compileModel(bvp('0.5', '1.5')), options);
      expect(r.status).toBe('converged');
      expect(Math.abs(r.unknowns.a - A_SIMPLE)).toBeLessThan(1e-5);
      expect(r.warnings).toEqual([]);
    }
  });

  it('the command line prints it on stderr, and the JSON carries it', () => {
    ensureCliBuilt();
    const file = tempModel('double.delta', bvp('1', '1'));
    const text = runCli(['shoot', file]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stderr).toMatch(
      /double\.delta: warning: the boundary conditions determine a = [0-9.]+ only to about ±/,
    );
    const json = runCli(['shoot', file, '--format', 'json']);
    expect((JSON.parse(json.stdout) as { warnings: string[] }).warnings[0]).toMatch(/only to about ±/);
    const calm = runCli(['shoot', tempModel('simple.delta', bvp('0.5', '1.5'))]);
    expect(calm.status).toBe(0);
    expect(calm.stderr).toBe('');
  });
});
