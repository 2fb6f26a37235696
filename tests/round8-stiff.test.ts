/**
 * Long stiff ranges (round 8): what a stepper that cannot finish says, and who can.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

describe('Van der Pol, mu = 1e6, over two periods at tight tolerances', () => {
  // The relaxation oscillation's period is (3 - 2 ln 2) mu + O(mu^(-1/3)) = 1.614e6: y rises
  // through 0 twice on [0, 4e6], at 1613705.697 and 3227411.406 (radau5, rodas and auto at rtol
  // 1e-10 to 1e-12 agree to 4e-4). In the fast transitions near t = 8e5 radau5 and rodas need
  // steps of about 2e-9, below 16 ulps of t there (2.9e-9), and failed at rtol 1e-11 and 1e-12:
  // "the step size fell below the resolution of t (the solution changes too fast: a
  // singularity or an extremely stiff problem)". The time origin, which moved only at events,
  // now also moves to where the stepper stands when its own t cannot resolve its steps.
  const model = `independent t from 0 to 4e6
parameter mu = 1e6
discrete n = 0
event zc when y rises do n := n + 1 end
y' = z
z' = mu*(1 - y^2)*z - y
y(0) = 2; z(0) = 0`;
  it.each([
    ['rodas', 1e-11],
    ['rodas', 1e-12],
    ['radau5', 1e-11],
    ['radau5', 1e-12],
    ['auto', 1e-12],
  ] as const)('%s at rtol %s: two rises, at the period', (method, rtol) => {
    const r = simulate(model, { method, rtol, atol: rtol / 100, eventsOnly: true });
    expect(r.status, r.message ?? '').toBe('ok');
    expect(r.final.n).toBe(2);
    // (bar 1e-9 relative: the five runs agree to 2.5e-10)
    expect(Math.abs(r.events[0].t - 1613705.6973) / 1.6e6).toBeLessThan(1e-9);
    expect(Math.abs(r.events[1].t - 3227411.4063) / 3.2e6).toBeLessThan(1e-9);
  });
});

describe('a step size below the resolution of t near a singularity', () => {
  // y' = y^2, y(0) = 1 blows up at t = 1: the run fails there, after moving the time origin to
  // where the stepper stands (the steps then go below an ulp of t, in its two doubles), with a
  // message that names the method, the resolution and what takes longer steps, and with no
  // two rows at one t (they would read as an event)
  it.each(['dopri5', 'rodas'] as const)('%s: fails at t = 1, each row at a t of its own', (method) => {
    const r = simulate("independent t from 0 to 2\ny' = y^2\ny(0) = 1", { method });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(
      method === 'dopri5'
        ? /^the step size fell below the resolution of t \(.* there: .*dopri5 at rtol 1e-6 can follow .*dop853, of order 8/
        : /^the step size (fell below the resolution|keeps falling, below the rounding) of t/,
    );
    expect(Math.abs(r.final.t - 1)).toBeLessThan(1e-6);
    for (let i = 1; i < r.rows.length; i++) expect(r.rows[i][0]).toBeGreaterThan(r.rows[i - 1][0]);
  });
});

describe("a right-hand side that is not finite at the step's end only", () => {
  // (helper 39) x' = -1e-6 reaches x = 0 exactly at the end of [0, 1e6], where y' = log(x) is
  // -Infinity (exactly, y(1e6) = -1e6: the singularity is integrable). The explicit methods'
  // last stage lands there, and the diagnosis, which probed the step at fractions up to 0.56 of
  // it, said "the state overflowed within the step, although the right-hand side is finite
  // along it", which is false: it names y' and the end of the step now.
  it.each(['dopri5', 'dop853'] as const)('%s names log(x) at the end of the step', (method) => {
    const r = simulate("independent t from 0 to 1e6\nx' = -1e-6\ny' = log(x)\nx(0) = 1; y(0) = 0", {
      method,
      eventsOnly: true,
    });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(
      /^the right-hand side of y' \(log\(x\)\) is (NaN|-Infinity) at the end of the step \(t = 1000000\)/,
    );
    expect(r.message).not.toMatch(/overflowed/);
  });
});
