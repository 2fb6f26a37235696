/**
 * Wrong answers with status ok found on the closed-form path of linear blocks (issue 24) in
 * the seventh round, each against its exact answer (mpmath, 50 digits, on the doubles the
 * model's constants round to: /tmp scripts of the round, summarised beside each case).
 *
 * Both come from one cause: a 2x2 block with an input b was advanced, and a pure rotation's
 * event function written, about the block's equilibrium x_eq = -A⁻¹ b. Where x_eq lies far
 * from the states (a nearly singular block: a slow mode beside a fast one, a slow rotation;
 * or a run short beside the block's time scale, where the states have moved little from
 * their start), x = x_eq + (x - x_eq) cancels to the rounding of x_eq, not of x.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

describe('a 2x2 block with an input, far from its equilibrium, keeps the states to their own accuracy', () => {
  it('a nearly singular block (eigenvalues -2e-7 and -10.1): the crossing and the end to 1e-14', () => {
    // det A = 2e-6, so x_eq = (5e6, 5e5) while x stays below 1: the closed form about x_eq
    // lost 5e6·2^-53 ≈ 1e-9 (the crossing at 0.5040160055770 instead of 0.5040160057312).
    // mpmath: t = 0.50401600573116686946, x(1) = 0.99107920070952875, y(1) = 0.089207179455242889.
    const r = simulate(
      `independent t from 0 to 1\ndiscrete n = 0\nevent half when x - 0.5 rises do n := n + 1 end\n` +
        `x' = -0.1*x + y + 1\ny' = x - 10.00002*y\nx(0) = 0; y(0) = 0`,
    );
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe('analytic');
    expect(r.events.length).toBe(1);
    // (a well-conditioned crossing, rate about 1: a few ulps of its time)
    expect(Math.abs(r.events[0].t - 0.50401600573116686946)).toBeLessThan(1e-14);
    expect(Math.abs(r.final.x - 0.99107920070952875)).toBeLessThan(1e-14);
    expect(Math.abs(r.final.y - 0.089207179455242889)).toBeLessThan(1e-15);
  });

  it('a run of 1e-9 from rest: the states keep their relative accuracy (y was 0, x off by 4e-7)', () => {
    // x_eq = (1.5, 0.5); over 1e-9, x ≈ t and y ≈ t²/2. mpmath: crossing of 5e-10 at
    // 5.0000000012500003116e-10, x(1e-9) = 9.9999999950000006e-10, y(1e-9) = 4.999999993333334e-19.
    const r = simulate(
      `independent t from 0 to 1e-9\ndiscrete n = 0\nevent half when x - 5e-10 rises do n := n + 1 end\n` +
        `x' = -x + y + 1\ny' = x - 3*y\nx(0) = 0; y(0) = 0`,
    );
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe('analytic');
    expect(r.events.length).toBe(1);
    expect(Math.abs(r.events[0].t - 5.0000000012500003116e-10) / 5e-10).toBeLessThan(1e-14);
    expect(Math.abs(r.events[0].pre.x - 5e-10) / 5e-10).toBeLessThan(1e-14);
    expect(Math.abs(r.final.x - 9.9999999950000006e-10) / 1e-9).toBeLessThan(1e-14);
    expect(Math.abs(r.final.y - 4.999999993333334e-19) / 5e-19).toBeLessThan(1e-13);
  });
});

describe('a pure rotation with an input: its crossings do not pass through a far equilibrium', () => {
  // x'' = -w² x + 1 from rest, w = 1e-4: x = (1 - cos wt)/w², x_eq = 1e8. Its event function
  // was γ + P cos ωs + Q sin ωs with γ = x_eq - c and P = -x_eq: a threshold c below the
  // rounding of 1e8 vanished from γ.
  const text = (c1: string) =>
    `independent t from 0 to 10\nparameter w = 1e-4\ndiscrete n = 0\n` +
    `event one when x - ${c1} rises do n := n + 1 end\nevent two when x - 2 rises do n := n + 10 end\n` +
    `x'' = -w^2*x + 1\nx(0) = 0; x'(0) = 0`;

  it('crossings of 1 and 2 to 1e-15 (were off by 3.5e-9 and 2.8e-9)', () => {
    // mpmath: 1.4142135635516063534, 2.0000000033333333483; x(10) = 49.999995833333472222,
    // x'(10) = 9.9999983333334166667
    const r = simulate(text('1'));
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe('analytic');
    expect(r.events.map((e) => e.name)).toEqual(['one', 'two']);
    expect(Math.abs(r.events[0].t - 1.4142135635516063534)).toBeLessThan(4e-15);
    expect(Math.abs(r.events[1].t - 2.0000000033333333483)).toBeLessThan(4e-15);
    expect(Math.abs(r.final.x - 49.999995833333472222) / 50).toBeLessThan(1e-14);
    expect(Math.abs(r.final["x'"] - 9.9999983333334166667) / 10).toBeLessThan(1e-14);
  });

  it('a threshold of 1e-7 is crossed at 4.4721359549995797e-4 (the event was lost)', () => {
    const r = simulate(text('1e-7'));
    expect(r.status).toBe('ok');
    expect(r.events.map((e) => e.name)).toEqual(['one', 'two']);
    // (rate 4.5e-4 at the crossing: x's rounding 1e-23 moves it by 1e-19)
    expect(Math.abs(r.events[0].t - 0.00044721359549995796643) / 4.5e-4).toBeLessThan(1e-14);
    expect(r.final.n).toBe(11);
  });

  it("x'' = -x + 1 over 1e-9: x = 1 - cos t is 5e-19 at the end, not 0, and crosses 1e-19", () => {
    // mpmath: the crossing at 4.4721359549995793375e-10; x(1e-9) = 5.0000000000000006e-19
    const r = simulate(
      `independent t from 0 to 1e-9\ndiscrete n = 0\nevent e1 when x - 1e-19 rises do n := n + 1 end\n` +
        `x'' = -x + 1\nx(0) = 0; x'(0) = 0`,
    );
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe('analytic');
    expect(r.events.length).toBe(1);
    expect(Math.abs(r.events[0].t - 4.4721359549995793375e-10) / 4.5e-10).toBeLessThan(1e-14);
    expect(Math.abs(r.final.x - 5.0000000000000006e-19) / 5e-19).toBeLessThan(1e-14);
    expect(Math.abs(r.final["x'"] - 1e-9) / 1e-9).toBeLessThan(1e-15);
  });
});

describe('a window whose polynomial cannot certify its end: the crossing is judged on the values', () => {
  // x'' = -2x' - x + 1 from rest (critically damped): x' = t e^{-t}, x = 1 - (1 + t) e^{-t}.
  // Near x = 1 the Taylor coefficients of x' - c beyond the constant are computed from
  // x'' = 1 - x - 2x', whose rounding is that of x (1.1e-16), not of x' (1e-12 or 1e-15).
  const text = (events: string) =>
    `independent t from 0 to 60\ndiscrete n = 0\n${events}\nx'' = -2*x' - x + 1\nx(0) = 0; x'(0) = 0`;

  it("x' falls through 1e-12 once, at 31.067172842017231 (fired 1.9e-6 early, then again)", () => {
    // mpmath: t e^{-t} = 1e-12 (the double) at 31.067172842017231; the rate there is
    // -0.97e-12 and x' is its own closed form to a few ulps: a few ulps of t
    const r = simulate(text("event e2 when x' - 1e-12 falls do n := n + 1 end"));
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe('analytic');
    expect(r.events.length).toBe(1);
    expect(Math.abs(r.events[0].t - 31.067172842017231)).toBeLessThan(1e-13);
    expect(r.final.n).toBe(1);
  });

  it("x' falls through 1e-15 at 38.18 (the crossing was lost, status ok)", () => {
    // mpmath: 38.181117481547581. The scan's budget of windows stops at 37.79 and the
    // block starts again from the state there, where x = 1 - 1.5e-15 is held to 1.1e-16:
    // x' + (x - 1) = -e^{-t} = -3.9e-17 is then known to its own size, and the crossing
    // from there to about 0.02 (the open part of this find, see the report of round 7).
    const r = simulate(text("event e3 when x' - 1e-15 falls do n := n + 1 end"));
    expect(r.status).toBe('ok');
    expect(r.stats.method).toBe('analytic');
    expect(r.events.length).toBe(1);
    expect(Math.abs(r.events[0].t - 38.181117481547581)).toBeLessThan(0.05);
  });

  it('the same crossing of 1e-9 to a few ulps (was off by 2.3e-11)', () => {
    // mpmath: t e^{-t} = 1e-9 at 23.897019584531657
    const r = simulate(text("event e2 when x' - 1e-9 falls do n := n + 1 end"));
    expect(r.events.length).toBe(1);
    expect(Math.abs(r.events[0].t - 23.897019584531657)).toBeLessThan(1e-13);
  });
});
