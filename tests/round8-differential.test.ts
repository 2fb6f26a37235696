/**
 * Pairs of the differential oracle (tests/differential.test.ts, seeds 7, 11, 23 and 101 at
 * DIFF_N = 3000) where the analytic path and dop853 at rtol 1e-12 both ended with status ok
 * and disagreed, decided against the exact answer (mpmath, 30 digits, on the doubles the
 * model's constants round to; summarised beside each case). Each test is the smallest model
 * of its kind.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

describe('an action that leaves a linear block at rest: its location residue is no motion', () => {
  // A damped spring caught as it passes its equilibrium: x' := 0 at x = 0 leaves the block at
  // rest in exact arithmetic, and x stays 0. In double precision x keeps the location's
  // residue (x at the located instant, up to its rate times the rounding of t), and the
  // residue's own decaying oscillation crossed zero every 1.58 s: the analytic path counted
  // each as a catch (n = 8 by t = 20, status ok). Exact (mpmath): one catch, at
  // t = 1.0749010676084975597, x = 0 after it.
  const caught = (x0: string, v0: string) =>
    `independent t from 0 to 20\ndiscrete n = 0\nevent catch when x falls do x' := 0; n := n + 1 end\n` +
    `x'' = -4*x - 0.5*x'\nx(0) = ${x0}; x'(0) = ${v0}`;

  it('a damped spring caught at its equilibrium is caught once', () => {
    const r = simulate(caught('1', '1'));
    expect(r.stats.method).toBe('analytic');
    expect(r.status).toBe('ok');
    expect(r.final.n).toBe(1);
    expect(r.events.length).toBe(1);
    // (a crossing with rate about 1.4: a few ulps of its time)
    expect(Math.abs(r.events[0].t - 1.0749010676084975597)).toBeLessThan(1e-14);
    // (x is the residue, below its rate times the rounding of t)
    expect(Math.abs(r.final.x)).toBeLessThan(1e-15);
  });

  it('on every scale of the motion (x(0) from 0.3 to 1e6)', () => {
    for (const [x0, v0] of [
      ['0.3', '1'],
      ['7', '-2'],
      ['1e3', '1'],
      ['1e6', '-2'],
    ]) {
      const r = simulate(caught(x0, v0));
      expect({ x0, status: r.status, n: r.final.n }).toEqual({ x0, status: 'ok', n: 1 });
      expect(Math.abs(r.final.x)).toBeLessThan(1e-15 * Number(x0));
    }
  });

  it("caught rising (x rises, x' := 0), from -7 and from -1e3", () => {
    // Exact: one catch, at rest after it (n was 8 on both).
    for (const x0 of ['-7', '-1e3']) {
      const r = simulate(
        `independent t from 0 to 20\ndiscrete n = 0\nevent e when x rises do x' := 0; n := n + 1 end\n` +
          `x'' = -4*x - 0.5*x'\nx(0) = ${x0}; x'(0) = 1`,
      );
      expect(r.stats.method).toBe('analytic');
      expect({ x0, status: r.status, n: r.final.n }).toEqual({ x0, status: 'ok', n: 1 });
      expect(Math.abs(r.final.x)).toBeLessThan(1e-15 * Math.abs(Number(x0)));
    }
  });

  it('on a rotation, a critically damped and an overdamped spring, and beside an integral of x', () => {
    // Exact: one event each, the block at rest after it (x = 0 to within the residue).
    for (const body of [
      // (a rotation: x' falls at pi/2, x := 0 leaves x' at its residue)
      "event e when x' falls do x := 0; n := n + 1 end\nx'' = -x\nx(0) = 0; x'(0) = 1",
      // (critically damped, eigenvalue -2 twice; overdamped, -1 and -4)
      "event e when x falls do x' := 0; n := n + 1 end\nx'' = -4*x - 4*x'\nx(0) = 1; x'(0) = -7",
      "event e when x falls do x' := 0; n := n + 1 end\nx'' = -4*x - 5*x'\nx(0) = 1; x'(0) = -9",
      // (z integrates x' and has no equilibrium: the block (x, x', z) is not at rest, x is)
      "event e when x falls do x' := 0; n := n + 1 end\nx'' = -4*x - 0.5*x'\nz' = x'\nx(0) = 1e6; x'(0) = 1; z(0) = 0",
    ]) {
      const r = simulate(`independent t from 0 to 20\ndiscrete n = 0\n${body}`);
      expect(r.stats.method).toBe('analytic');
      expect({ body, status: r.status, n: r.final.n }).toEqual({ body, status: 'ok', n: 1 });
    }
  });
});

describe('a function with the zeros of one that fired, at rest with it', () => {
  // x' falls at t = atan(1000) (x = cos t + 1000 sin t), x := 0 leaves the rotation at rest
  // in exact arithmetic; x' rises, the same zeros, stood at the residue too, and its sign
  // changes fired it at 3.1406 (status ok, 3 events; exact: 1, dop853 1).
  it("x' rises beside x' falls: only x' falls fires", () => {
    const r = simulate(
      `independent t from 0 to 5\ndiscrete n = 0\nevent up when x' rises do x' := 0; n := n + 10 end\n` +
        `event down when x' falls do x := 0; n := n + 1 end\nx'' = -x\nx(0) = 1; x'(0) = 1e3`,
    );
    expect(r.stats.method).toBe('analytic');
    expect({ status: r.status, n: r.final.n }).toEqual({ status: 'ok', n: 1 });
    // (mpmath: atan(1000) = 1.5697963271282297526)
    expect(Math.abs(r.events[0].t - 1.5697963271282297526)).toBeLessThan(1e-14);
  });
});

describe('a linear block of three or more: a state nothing reads is no part of the others', () => {
  // x'' = -x + 1 beside z' = x - z: one block (x, x', z) of the closed form, advanced by the
  // exponential of its augmented matrix (expm.ts). exp(A h) has exact zeros where a state
  // reads no other in turn (x reads nothing of z), but pivoting mixed rows and left 1e-16
  // there: times z = 1e6 that moved x by 3.6e-11, and 1e-8 for z = 1e8. The crossing of x'
  // moved as much, and its event fired twice, its residue then beyond its band. Exact
  // (mpmath): x' = 0 at t = pi - atan(1/0.7) = 2.1815222911841052358, where x' := -0.8 x'
  // keeps it (one event); x(5) = 1 + (x(t1) - 1) cos(5 - t1) = -0.15748780448739685402.
  for (const z0 of ['1e6', '1e8']) {
    it(`with z(0) = ${z0}: one event, and x to its own accuracy`, () => {
      const r = simulate(
        `independent t from 0 to 5\ndiscrete n = 0\nevent e when x' crosses do x' := -0.8*x'; n := n + 1 end\n` +
          `x'' = -x + 1\nz' = x - z\nx(0) = 0.3; x'(0) = 1; z(0) = ${z0}`,
      );
      expect(r.stats.method).toBe('analytic');
      expect({ status: r.status, n: r.final.n }).toEqual({ status: 'ok', n: 1 });
      // (x of size 1 along a few windows: a few ulps, whatever z's size)
      expect(Math.abs(r.events[0].t - 2.1815222911841052358)).toBeLessThan(1e-14);
      expect(Math.abs(r.final.x - -0.15748780448739685402)).toBeLessThan(1e-14);
    });
  }
});
