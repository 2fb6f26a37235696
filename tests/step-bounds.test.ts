/**
 * `firstStep` and `maxStep` (`--first-step`, `--max-step`): honoured by every adaptive
 * stepper (no accepted step longer than maxStep; the first attempt of firstStep), refused with
 * a message for the fixed-step methods (their step is `step`) and for the analytic path (it
 * takes no steps); method auto with either takes its stepper.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, simulate, SimulationInputError } from '../src/index.js';
import { tempModel, thrown } from './api-helpers.js';
import { ensureCliBuilt, runCli, SPEC_EXAMPLES } from './helpers.js';

const OSCILLATOR = compileModel(`y'' = -y
y(0) = 1; y'(0) = 0`);
/** stiff: y follows cos t within 1/1000 (auto switches to its implicit method) */
const STIFF = compileModel(`y' = -1000*(y - cos(t))
x' = -x + y
y(0) = 0; x(0) = 1`);

const ADAPTIVE = ['dopri5', 'dop853', 'rodas', 'radau5', 'auto'] as const;

/** The longest interval between successive rows (one row per accepted step). */
function longestStep(rows: number[][]): number {
  let longest = 0;
  for (let i = 1; i < rows.length; i++) longest = Math.max(longest, rows[i][0] - rows[i - 1][0]);
  return longest;
}

const inputError = (run: () => unknown) => thrown(SimulationInputError, run).message;

describe('maxStep: no accepted step is longer', () => {
  it.each(ADAPTIVE)('%s: every step within maxStep, where the free steps are longer', (method) => {
    for (const model of [OSCILLATOR, STIFF]) {
      const free = simulate(model, { to: 10, method });
      const bounded = simulate(model, { to: 10, method, maxStep: 0.05 });
      expect(bounded.status).toBe('ok');
      expect(bounded.stats.method).not.toBe('analytic');
      // (a landing step may pass the bound by the rounding of t: BOUND_SLACK, 1e-8 relative)
      expect(longestStep(bounded.rows)).toBeLessThanOrEqual(0.05 * (1 + 1e-8));
      expect(bounded.stats.steps).toBeGreaterThanOrEqual(200);
      // (on the stiff problem the explicit methods' free steps are held short by stability)
      if (model === OSCILLATOR) expect(longestStep(free.rows)).toBeGreaterThan(0.05);
    }
  });

  it('maxStep and step are one bound for an adaptive method: the same steps', () => {
    const a = simulate(OSCILLATOR, { to: 10, method: 'dopri5', maxStep: 0.05 });
    const b = simulate(OSCILLATOR, { to: 10, method: 'dopri5', step: 0.05 });
    expect(a.rows).toEqual(b.rows);
    // the caller's maxStep over the model's option step
    const model = `option step = 0.5\n${OSCILLATOR.system.source}`;
    expect(longestStep(simulate(model, { to: 10, method: 'dopri5', maxStep: 0.05 }).rows)).toBeLessThanOrEqual(
      0.05 * (1 + 1e-8),
    );
  });
});

describe('firstStep: the first attempt', () => {
  it.each(ADAPTIVE)('%s: the first step is firstStep (accepted as tried), not the estimate', (method) => {
    const free = simulate(OSCILLATOR, { to: 10, method: method === 'auto' ? 'dopri5' : method });
    const r = simulate(OSCILLATOR, { to: 10, method, firstStep: 0.01 });
    expect(r.rows[1][0]).toBe(0.01);
    expect(free.rows[1][0]).not.toBe(0.01);
  });

  it('after events at the start (no step before them) the first step is still firstStep', () => {
    const kicked = `y'' = -y + delta(t)\ny(0) = 1; y'(0) = 0`;
    const r = simulate(kicked, { to: 2, method: 'dopri5', firstStep: 0.01 });
    expect(r.events[0].t).toBe(0);
    expect(r.rows.map((row) => row[0]).slice(0, 3)).toEqual([0, 0, 0.01]);
  });

  it('a first step too long for the problem is rejected and cut, as any step', () => {
    const r = simulate(STIFF, { to: 1, method: 'dopri5', firstStep: 0.01 });
    expect(r.status).toBe('ok');
    expect(r.rows[1][0]).toBeLessThan(0.01);
    expect(r.stats.rejected).toBeGreaterThan(0);
  });
});

describe('method auto and the analytic path', () => {
  it('auto with firstStep or maxStep takes its stepper, where it would take the analytic path', () => {
    expect(simulate(SPEC_EXAMPLES.bouncingBall, { to: 3 }).stats.method).toBe('analytic');
    const bounded = simulate(SPEC_EXAMPLES.bouncingBall, { to: 3, maxStep: 0.1 });
    expect(bounded.stats.method).toBe('dopri5');
    expect(longestStep(bounded.rows)).toBeLessThanOrEqual(0.1 * (1 + 1e-8));
    expect(simulate(SPEC_EXAMPLES.bouncingBall, { to: 3, firstStep: 0.1 }).stats.method).toBe('dopri5');
  });

  it('method analytic refuses them: it takes no steps', () => {
    expect(inputError(() => simulate(SPEC_EXAMPLES.bouncingBall, { method: 'analytic', maxStep: 0.1 }))).toBe(
      'maxStep bounds the steps of a stepper, and method analytic takes none (it goes from event to event in closed form): drop maxStep, or choose a stepper (method auto or dopri5, ...)',
    );
  });
});

describe('bad values: an error that names the option', () => {
  it.each([
    [{ firstStep: 0 }, 'firstStep must be a positive number, such as 1e-8, got 0'],
    [{ maxStep: -1 }, 'maxStep must be a positive number, such as 1e-8, got -1'],
    [{ maxStep: Infinity }, 'maxStep must be a positive number, such as 1e-8, got Infinity'],
    [{ firstStep: '0.1' }, "firstStep must be a positive number, such as 1e-8, got '0.1'"],
    [
      { firstStep: 0.5, maxStep: 0.1 },
      'firstStep 0.5 is longer than maxStep 0.1: the first step is one of the steps that maxStep bounds; give a firstStep of at most 0.1',
    ],
    [
      { method: 'dopri5', step: 0.1, maxStep: 0.2 },
      'step and maxStep both set the largest step of dopri5 (0.1 and 0.2): give one',
    ],
    [
      { method: 'dopri5', step: 0.1, firstStep: 0.2 },
      'firstStep 0.2 is longer than the largest step of dopri5, 0.1 (step): give a firstStep of at most 0.1',
    ],
    [
      { method: 'rk4', maxStep: 0.1 },
      'maxStep bounds the steps of an adaptive method, and method rk4 takes steps of one fixed size: set that size with step, or choose an adaptive method (dopri5, dop853, rodas, radau5, auto)',
    ],
    [
      { method: 'euler', firstStep: 0.1 },
      'firstStep bounds the steps of an adaptive method, and method euler takes steps of one fixed size: set that size with step, or choose an adaptive method (dopri5, dop853, rodas, radau5, auto)',
    ],
  ])('%o: %s', (options, message) => {
    expect(inputError(() => simulate(OSCILLATOR, options as never))).toBe(message);
  });

  it('a fixed-step method chosen by the model is named with its line', () => {
    const model = `option method = rk4\noption step = 0.01\n${OSCILLATOR.system.source}`;
    expect(inputError(() => simulate(compileModel(model, 'osc.delta'), { maxStep: 0.1 }))).toBe(
      'maxStep bounds the steps of an adaptive method, and option method = rk4 (osc.delta:1) takes steps of one fixed size: set that size with step, or choose an adaptive method (dopri5, dop853, rodas, radau5, auto)',
    );
    const stepped = `option step = 0.01\n${OSCILLATOR.system.source}`;
    expect(inputError(() => simulate(compileModel(stepped, 'osc.delta'), { firstStep: 0.1 }))).toBe(
      'firstStep 0.1 is longer than the largest step of auto, 0.01 (option step (osc.delta:1)): give a firstStep of at most 0.01',
    );
  });

  it.each([
    ['max_step', 'maxStep'],
    ['first_step', 'firstStep'],
    ['dtmax', 'maxStep'],
    ['maxstep', 'maxStep'],
  ])("another tool's name %s points at %s", (key, nearest) => {
    const err = thrown(SimulationInputError, () => simulate(OSCILLATOR, { [key]: 0.1 } as never));
    expect(err.nearest).toBe(nearest);
  });
});

describe('the command line: --first-step and --max-step', () => {
  it('bound the steps of a run, as the options do', () => {
    ensureCliBuilt();
    const file = tempModel('osc.delta', `${OSCILLATOR.system.source}\n`);
    const run = runCli([
      'simulate',
      file,
      '--to',
      '10',
      '--method',
      'dopri5',
      '--max-step',
      '0.05',
      '--first-step',
      '0.01',
      '--format',
      'json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const rows = (JSON.parse(run.stdout) as { rows: number[][] }).rows;
    expect(rows[1][0]).toBe(0.01);
    expect(longestStep(rows)).toBeLessThanOrEqual(0.05 * (1 + 1e-8));
  });

  it.each([
    [['--first-step', '0'], 'deltastep: --first-step must be a positive number, such as 1e-8, got 0\n'],
    [['--max-step', 'x'], "deltastep: --max-step needs a decimal number such as 10, 0.5 or 1e-8, got 'x'\n"],
    [
      ['--first-step', '1', '--max-step', '0.1'],
      'deltastep: --first-step 1 is longer than --max-step 0.1: the first step is one of the steps that --max-step bounds; give a --first-step of at most 0.1\n',
    ],
    [
      ['--method', 'rk4', '--max-step', '0.1'],
      'deltastep: --max-step bounds the steps of an adaptive method, and --method rk4 takes steps of one fixed size: set that size with --step, or choose an adaptive method (dopri5, dop853, rodas, radau5, auto)\n',
    ],
    [
      ['--method', 'analytic', '--first-step', '0.1'],
      'deltastep: --first-step bounds the steps of a stepper, and --method analytic takes none (it goes from event to event in closed form): drop --first-step, or choose a stepper (--method auto or dopri5, ...)\n',
    ],
  ])('%o is a usage error (exit 2) naming the flag', (flags, message) => {
    ensureCliBuilt();
    const file = tempModel('ball.delta', SPEC_EXAMPLES.bouncingBall);
    const run = runCli(['simulate', file, '--to', '1', ...flags]);
    expect(run.stderr).toBe(message);
    expect(run.status).toBe(2);
  });
});
