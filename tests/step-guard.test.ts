/**
 * The step guard (driver/step-guard.ts) and the jump test (driver/diagnosis.ts): a run whose
 * steps cannot carry it to the end fails promptly and names the true cause; a run whose steps
 * are short for a good reason (a stiff transient, steps below an ulp of t far from 0) is left
 * alone. No assertion on time: promptness is counted in steps.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

const JUMPS = /jumps within the last step, again and again: a discontinuity that is not written with if, step or sign/;

describe('chatter is told from the pattern of switching, within a few thousand steps (issue 20, item 4)', () => {
  it.each([
    // sliding along x = sin(t): x' is 1 - pi below the surface, 1 + pi above (478 000 steps before)
    ["x' = 1 - 2*atan2(x - sin(t), 0)\nx(0) = 0.5", "x' = 1 - 2*atan2(x - sin(t), 0)"],
    // zigzag about x = 0 with almost no rejected step (it ran to the 10 M step limit)
    ["x' = -atan2(x, 0)*(1 + t)\nx(0) = 1", "x' = -atan2(x, 0)*(1 + t)"],
    ["x' = 0.5 - x/sqrt(x^2)\nx(0) = 0.1", "x' = 0.5 - x/sqrt(x^2)"],
    ["x' = v\nv' = -x - 2*atan2(v, 0)\nx(0) = 1; v(0) = 0", "v' = -x - 2*atan2(v, 0)"],
  ])('%s', (equations, culprit) => {
    const r = simulate(`independent t from 0 to 10\n${equations}`, { record: false });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(JUMPS);
    expect(r.message).toContain(`the right-hand side of ${culprit} jumps`);
    expect(r.stats.steps + r.stats.rejected).toBeLessThan(3000);
  });

  it('a chatter that begins late in a long run is told within a few thousand steps of its onset', () => {
    // x meets the surface x = sin(t) + 50 at t* = 12.07 (x = (1 + pi) t before), while a fast
    // oscillator keeps the steps short: thousands of smooth steps first
    const oscillator = "parameter w2 = 1e4\nz' = w\nw' = -w2*z\nz(0) = 1; w(0) = 0";
    // (the same right-hand side, which is 1 + pi before t*: the same path, the stepper)
    const before = simulate(
      `independent t from 0 to 12.07\nx' = 1 - 2*atan2(x - sin(t) - 50, 0)\nx(0) = 0\n${oscillator}`,
      {
        record: false,
      },
    );
    expect(before.status).toBe('ok');
    const r = simulate(`independent t from 0 to 20\nx' = 1 - 2*atan2(x - sin(t) - 50, 0)\nx(0) = 0\n${oscillator}`, {
      record: false,
    });
    expect(r.status).toBe('failed');
    expect(r.message).toContain("the right-hand side of x' = 1 - 2*atan2(x - sin(t) - 50, 0) jumps");
    const after = r.stats.steps + r.stats.rejected - (before.stats.steps + before.stats.rejected);
    expect(after).toBeLessThan(5000);
  });

  it('a coarse oscillation that turns back every few steps is no chatter', () => {
    const r = simulate("independent t from 0 to 6000\nx' = v\nv' = -x\nx(0) = 1; v(0) = 0", {
      rtol: 1e-3,
      record: false,
    });
    expect(r.status).toBe('ok');
    // a rotation: the radius stays within the tolerance's drift over 955 periods
    expect(Math.abs(Math.hypot(r.final.x, r.final.v) - 1)).toBeLessThan(0.5);
  });
});

describe('the limit that ends a run is named with its flag', () => {
  it('steps: y\' = cos(t) over a long range with maxSteps 100 (no false "stiff": f does not depend on y)', () => {
    const r = simulate("independent t from 0 to 1000\ny' = cos(t)\ny(0) = 0", { maxSteps: 100, record: false });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(
      /^more than 100 steps by t = [\d.]+: at this step size the rest of the range \([\d.]+\) needs about \d+ more steps; raise maxSteps \(--max-steps\)/,
    );
  });

  it('stiffness under an explicit method is told within a window of steps, with the method to use', () => {
    const r = simulate("independent t from 0 to 1\ny' = -1e12*y\ny(0) = 1", { method: 'dopri5', record: false });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/the problem looks stiff .*run it with --method rodas/);
    expect(r.stats.steps).toBeLessThan(1000);
  });

  it('a right-hand side not finite just ahead is named after a window of rejected steps', () => {
    const r = simulate("independent t from 0 to 1\ny' = -1\nz' = sqrt(y + 1)\ny(0) = -1; z(0) = 0", { record: false });
    expect(r.status).toBe('failed');
    expect(r.message).toContain("the right-hand side of z' (sqrt(y + 1)) is NaN");
    expect(r.stats.steps).toBeLessThan(1000);
  });
});
