/**
 * Round 3 of the delta rules (issue 20, adversarial variants): deltas at an event's times
 * (rule 2) and delayed after them, written backwards.
 *
 * delta' is odd: delta'(E - t) = -delta'(t - E), as delta'(1 - t) = -delta'(t - 1) by the
 * scaling rule delta^(m)(a (t - r)) = delta^(m)(t - r) / (|a| a^m) with a = -1. The event's
 * form dropped the sign: delta'(E - t) made y jump by +1 where delta'(1 - t) makes it jump
 * by -1, with status ok (and delta'(E + D - t), delayed, the same).
 *
 * Each model is y'' = delta'(u) + delta(u) on [0, 3] from rest, with `event e at 1` and
 * D = 0.5: y jumps by 1/(|a| a) and y' by 1/|a| at t* (1, or 1.5 when delayed), so
 * y(3) = 1/(|a| a) + (3 - t*)/|a| and y'(3) = 1/|a|. The bound is the run's tolerance, ten
 * times over: 10 (atol + rtol |exact|) at the defaults (1e-9, 1e-6).
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const bound = (exact: number) => 10 * (1e-9 + 1e-6 * Math.abs(exact));
const model = (u: string) =>
  `independent t from 0 to 3\nparameter D = 0.5\nevent e at 1\ny'' = delta'(${u}) + delta(${u})\ny(0) = 0; y'(0) = 0`;

describe("an event's delta written backwards: delta'(E - t) = -delta'(t - E)", () => {
  it.each([
    ['t - e', 1, 1],
    ['e - t', -1, 1],
    ['1 - t', -1, 1],
    ['t - 1', 1, 1],
    ['t - e - D', 1, 1.5],
    ['e + D - t', -1, 1.5],
    ['D + e - t', -1, 1.5],
    ['-(t - e - D)', -1, 1.5],
  ] as const)('delta(%s): a = %s at t = %s', (u, a, at) => {
    const run = simulate(model(u));
    expect(run.status).toBe('ok');
    const jump = 1 / (Math.abs(a) * a),
      slope = 1 / Math.abs(a);
    const impulse = run.events.find((ev) => ev.t === at && Object.keys(ev.jumps).length > 0)!;
    expect(Math.abs(impulse.jumps.y - jump)).toBeLessThanOrEqual(bound(jump));
    expect(Math.abs(impulse.jumps["y'"] - slope)).toBeLessThanOrEqual(bound(slope));
    const y = jump + (3 - at) * slope;
    expect(Math.abs(run.final.y - y)).toBeLessThanOrEqual(bound(y));
    expect(Math.abs(run.final["y'"] - slope)).toBeLessThanOrEqual(bound(slope));
  });
});
