/**
 * Rows exactly at given times (CLI.md: `--output-times LIST`, `outputTimes` in the API), plus
 * the rows of events; checked against the ball's closed form.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { parseOutputTimes } from '../src/cli/output-times.js';
import { ensureCliBuilt, runCli, SPEC_EXAMPLES } from './helpers.js';

const g = 9.81,
  e = 0.8;
const t1 = Math.sqrt((2 * 10) / g); // first impact
const v1 = e * g * t1; // speed after it
/** The ball's height, closed form, before its second impact. */
const height = (t: number) => (t <= t1 ? 10 - (g * t * t) / 2 : v1 * (t - t1) - (g * (t - t1) ** 2) / 2);

describe('outputTimes', () => {
  it('rows exactly at the times, in order, plus the before and after rows of each event; the ends only when listed', () => {
    const times = [2.5, 0.5, 1, 2.5];
    const r = simulate(SPEC_EXAMPLES.bouncingBall, { to: 3, outputTimes: times, rtol: 1e-10, atol: 1e-12 });
    expect(r.status).toBe('ok');
    expect(r.rows.map((row) => row[0])).toEqual([0.5, 1, r.events[0].t, r.events[0].t, 2.5]);
    for (const row of r.rows) {
      const t = row[0];
      if (t === r.events[0].t) continue;
      expect(Math.abs(row[1] - height(t))).toBeLessThan(1e-8);
    }
    expect(Math.abs(r.events[0].t - t1)).toBeLessThan(1e-9);
    // the final values are still the end's
    expect(r.final.t).toBe(3);
  });

  it('the analytic path and the stepper write the same rows', () => {
    const times = [0, 0.3, 1.2, 2, 2.9];
    const analytic = simulate(SPEC_EXAMPLES.bouncingBall, { to: 3, outputTimes: times });
    const stepper = simulate(SPEC_EXAMPLES.bouncingBall, {
      to: 3,
      outputTimes: times,
      method: 'dopri5',
      rtol: 1e-10,
      atol: 1e-12,
    });
    expect(analytic.stats.method).toBe('analytic');
    expect(analytic.rows).toHaveLength(stepper.rows.length);
    analytic.rows.forEach((row, k) => {
      expect(Math.abs(row[0] - stepper.rows[k][0])).toBeLessThan(1e-9);
      expect(Math.abs(row[1] - stepper.rows[k][1])).toBeLessThan(1e-7);
    });
  });

  it('the start and the end get a row when listed, once', () => {
    const r = simulate(SPEC_EXAMPLES.bouncingBall, { to: 1, outputTimes: [0, 0.25, 1] });
    expect(r.rows.map((row) => row[0])).toEqual([0, 0.25, 1]);
    expect(r.rows[2][1]).toBeCloseTo(height(1), 6);
  });

  it('a run that stops early writes where it stopped', () => {
    // without contact handling the ball stops at its accumulation point, near t = 12.85
    const r = simulate(SPEC_EXAMPLES.bouncingBall, { to: 20, outputTimes: [1, 19] });
    expect(r.status).toBe('zeno');
    const last = r.rows[r.rows.length - 1][0];
    expect(last).toBeGreaterThan(12);
    expect(last).toBeLessThan(19);
    expect(r.rows[0][0]).toBe(1);
  });

  it('refuses a time outside the range, and outputStep or eventsOnly beside it', () => {
    expect(() => simulate(SPEC_EXAMPLES.bouncingBall, { to: 3, outputTimes: [4] })).toThrow(
      /outputTimes: 4 is outside the range 0 to 3/,
    );
    expect(() => simulate(SPEC_EXAMPLES.bouncingBall, { to: 3, outputTimes: [1], outputStep: 0.1 })).toThrow(
      /outputTimes and outputStep exclude each other/,
    );
    expect(() => simulate(SPEC_EXAMPLES.bouncingBall, { to: 3, outputTimes: [1, NaN] })).toThrow(
      /outputTimes must be an array of finite numbers/,
    );
  });

  it('streams like the other modes, to a sink', () => {
    const seen: number[] = [];
    simulate(SPEC_EXAMPLES.bouncingBall, {
      to: 1,
      outputTimes: [0.5, 0.75],
      sink: { row: (row) => seen.push(row[0]) },
    });
    expect(seen).toEqual([0.5, 0.75]);
  });
});

describe('--output-times', () => {
  it('reads a list or FROM:TO:COUNT, both ends included', () => {
    expect(parseOutputTimes('0.5, 1,2.5')).toEqual([0.5, 1, 2.5]);
    expect(parseOutputTimes('0:1:5')).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(parseOutputTimes('0:0.3:4').at(-1)).toBe(0.3);
    expect(parseOutputTimes('2:2:1')).toEqual([2]);
    expect(() => parseOutputTimes('0:1:0')).toThrow(/COUNT must be a whole number of at least 1, got 0/);
    expect(() => parseOutputTimes('0:1:1e8')).toThrow(/more than 10000000; for a grid that fine give --output-step/);
    expect(() => parseOutputTimes('1,,2')).toThrow(/write numbers separated by commas/);
    expect(() => parseOutputTimes('1,x')).toThrow(/--output-times needs a decimal number/);
  });

  it('radau5 sizes its steps for the rows read off its dense output: as accurate as a grid of outputStep', () => {
    // (sized for its step ends alone, radau5's rows between them were 10 tolerances off at rtol 1e-9)
    const rtol = 1e-9,
      atol = 1e-12;
    const times = Array.from({ length: 99 }, (_, i) => (i + 1) / 10);
    const r = simulate(`y'' = -y\ny(0) = 1; y'(0) = 0`, { to: 10, method: 'radau5', rtol, atol, outputTimes: times });
    expect(r.rows).toHaveLength(99);
    for (const [t, y] of r.rows) expect(Math.abs(y - Math.cos(t))).toBeLessThan(atol + rtol * Math.abs(Math.cos(t)));
  });

  it('the command line writes the rows at those times', () => {
    ensureCliBuilt();
    const r = runCli([
      'simulate',
      'tests/fixtures/reference/models/bouncing_ball.delta',
      '--output-times',
      '0:2:5',
      '--format',
      'csv',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const ts = r.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => Number(l.split(',')[0]));
    const grid = ts.filter((t, k) => ts.indexOf(t) === k && ts.lastIndexOf(t) === k);
    expect(grid).toEqual([0, 0.5, 1, 1.5, 2]);
    const bad = runCli([
      'simulate',
      'tests/fixtures/reference/models/bouncing_ball.delta',
      '--output-times',
      '1',
      '--events-only',
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--output-times and --events-only exclude each other: choose one/);
  });
});
