/**
 * Run options are checked once, at the boundary (src/driver/settings.ts), for the library and
 * the command line alike: every mistake is a SimulationInputError that names the option, the
 * value and what is allowed (exit 2 on the command line, naming the flag); the model's own
 * options are ModelErrors at their line; a tolerance below double precision is raised with a
 * warning in the result.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, ModelError, shoot, simulate, SimulationInputError, Simulator } from '../src/index.js';
import { MIN_RTOL } from '../src/driver/settings.js';
import { ensureCliBuilt, expectWithin, runCli } from './helpers.js';
import { tempModel, thrown } from './api-helpers.js';

const BALL = `model Ball
independent t from 0 to 5
parameter e = 0.8, g = 9.81
event bounce when h falls do h' := -e*h' end
h'' = -g
h(0) = 10; h'(0) = 0`;

/** h(5) of BALL in closed form: two bounces by t = 5 (the third is at 5.54). */
function ballAt5(): { h: number; bounces: number[] } {
  const g = 9.81,
    e = 0.8;
  const t1 = Math.sqrt((2 * 10) / g);
  const t2 = t1 + 2 * e * t1;
  const v2 = e * e * g * t1;
  const s = 5 - t2;
  return { h: v2 * s - (g / 2) * s * s, bounces: [t1, t2] };
}

const modelErrorOf = (run: () => unknown) => thrown(ModelError, run);
const inputErrorOf = (run: () => unknown) => thrown(SimulationInputError, run);

describe('library options: every mistake is a SimulationInputError that names the option and the value', () => {
  it.each([
    [
      { locate: 'Exact' },
      "locate must be one of exact, before, after, got 'Exact' (did you mean exact? the words are lower case)",
    ],
    [{ locate: 'middle' }, "locate must be one of exact, before, after, got 'middle'"],
    [
      { zeno: 'yes' },
      "zeno must be stop (end the run at an accumulation of events or a persisting contact) or continue (hold the contact as a constraint), got 'yes'",
    ],
    [{ outputStep: 0 }, 'outputStep must be a positive number, such as 1e-8, got 0'],
    [{ rtol: '1e-6' }, "rtol must be a positive number, such as 1e-8, got '1e-6'"],
    [{ rtol: -1 }, 'rtol must be a positive number, such as 1e-8, got -1'],
    [{ atol: Number.NaN }, 'atol must be a positive number, such as 1e-8, got NaN'],
    [{ step: Infinity }, 'step must be a positive number, such as 1e-8, got Infinity'],
    [
      { method: 'bogus' },
      "method must be one of euler, rk4, dopri5, dop853, rodas, radau5, auto, analytic, got 'bogus'",
    ],
    [{ maxEvents: -1 }, 'maxEvents must be a whole number of at least 1, got -1'],
    [{ maxSteps: 2.5 }, 'maxSteps must be a whole number of at least 1, got 2.5'],
    [{ maxRows: 0 }, 'maxRows must be a whole number of at least 1, got 0'],
    [{ to: '5' }, "to must be a finite number, got '5'"],
    [{ record: 'yes' }, "record must be true or false, got 'yes'"],
    [
      { set: { e: '0.5' } },
      "set must be values by name, as a Map or an object of finite numbers ({ e: 0.5 }), got e is '0.5'",
    ],
    [
      { init: new Map([['h', Number.NaN]]) },
      'init must be values by name, as a Map or an object of finite numbers ({ e: 0.5 }), got h is NaN',
    ],
    [{ probes: [1, 'x'] }, 'probes must be an array of finite numbers, got an array'],
    [{ sink: {} }, 'sink must be an object with a row(row) method and an optional event(record) method, got an object'],
    [{ outputStep: 0.1, eventsOnly: true }, 'outputStep and eventsOnly exclude each other: choose one'],
  ])('%j', (options, message) => {
    const err = inputErrorOf(() => simulate(BALL, options as never));
    expect(err.message).toBe(message);
    // the same check guards a reused Simulator and shoot
    expect(() => new Simulator(compileModel(BALL)).run(options as never)).toThrow(message);
  });

  it('the error carries the option, the value and what is allowed', () => {
    const err = inputErrorOf(() => simulate(BALL, { rtol: -1 }));
    expect(err).toMatchObject({ option: 'rtol', value: -1, allowed: 'a positive number, such as 1e-8' });
    expect(err.name).toBe('SimulationInputError');
  });

  it.each([
    // (SciPy's t_eval is outputTimes: rows exactly at the times given)
    ['t_eval', 'outputTimes'],
    ['RTOL', 'rtol'],
    ['max_step', 'maxStep'],
    ['rtoll', 'rtol'],
    ['maxEvent', 'maxEvents'],
  ])('an unknown key %s names the nearest known one (%s) and lists them all', (key, nearest) => {
    const err = inputErrorOf(() => simulate(BALL, { [key]: 1 } as never));
    expect(err.nearest).toBe(nearest);
    expect(err.message).toMatch(
      new RegExp(`^unknown option '${key}' \\(the nearest is ${nearest}\\); the options are from, to, set, init,`),
    );
  });

  it('a key far from every option lists them all', () => {
    const err = inputErrorOf(() => simulate(BALL, { colour: 'red' } as never));
    expect(err.nearest).toBeUndefined();
    expect(err.message).toMatch(/^unknown option 'colour'; the options are from, to, /);
  });

  it('undefined values mean the default; no options at all is fine', () => {
    expect(simulate(BALL, { rtol: undefined, method: undefined }).status).toBe('ok');
    expect(simulate(BALL).status).toBe('ok');
  });

  it('options must be an object; a model must be text or a compiled model', () => {
    expect(inputErrorOf(() => simulate(BALL, null as never)).message).toBe(
      'the options must be an object such as { to: 5, rtol: 1e-8 }, got null',
    );
    expect(inputErrorOf(() => (simulate as (...a: unknown[]) => unknown)()).message).toBe(
      'simulate needs a model: its text (a string) or what compileModel gives, got undefined',
    );
    expect(inputErrorOf(() => simulate(42 as never)).message).toBe(
      'simulate needs a model: its text (a string) or what compileModel gives, got number',
    );
    expect(inputErrorOf(() => compileModel(null as never)).message).toBe(
      "compileModel takes the model's text or what parse, analyseModel or transformModel gives, got null",
    );
    expect(inputErrorOf(() => shoot(undefined as never)).message).toMatch(/^shoot needs a model/);
  });

  it("shoot's own options are checked with the run's", () => {
    const rope = `independent x from 0 to 1\nunknown p = 0\ny'' = 0\ny(0) = 0; y'(0) = p\ny(1) = 1`;
    expect(inputErrorOf(() => shoot(rope, { maxIterations: 0 })).message).toBe(
      'maxIterations must be a whole number of at least 1, got 0',
    );
    expect(inputErrorOf(() => shoot(rope, { jacobain: 'central' } as never)).message).toMatch(
      /^unknown option 'jacobain' \(the nearest is jacobian\)/,
    );
    expect(shoot(rope, { jacobian: 'central' }).unknowns.p).toBeCloseTo(1, 9);
  });
});

describe('a relative tolerance below what double precision delivers is raised to 100 eps, with a warning', () => {
  it('rtol 1e-20: the run uses 100 eps, says so in warnings, and is right', () => {
    const exact = ballAt5();
    const r = simulate(BALL, { rtol: 1e-20, atol: 1e-20 });
    expect(r.status).toBe('ok');
    expect(r.warnings).toEqual([
      'the relative tolerance 1e-20 is below what double precision can deliver; the run uses 2.22e-14 (100 times the machine epsilon)',
    ]);
    expect(r.events.map((e) => e.t)).toHaveLength(2);
    r.events.forEach((e, i) => expectWithin(e.t, exact.bounces[i], 1e-12, 'bounce time'));
    expectWithin(r.final.h, exact.h, 1e-10, 'h(5)');
    // the same run as one asked at 100 eps directly, bit for bit
    const direct = simulate(BALL, { rtol: MIN_RTOL, atol: 1e-20 });
    expect(direct.warnings).toEqual([]);
    expect(r.final).toEqual(direct.final);
  });

  it('a model option rtol below it is raised too, and the warning names its line', () => {
    const r = simulate(`${BALL}\noption rtol = 1e-18`);
    expect(r.status).toBe('ok');
    expect(r.warnings).toEqual([
      'the relative tolerance 1e-18 (option rtol, <model>:7) is below what double precision can deliver; the run uses 2.22e-14 (100 times the machine epsilon)',
    ]);
  });

  it('no warning at or above the floor', () => {
    expect(simulate(BALL, { rtol: 1e-13 }).warnings).toEqual([]);
  });
});

describe('locate before|after needs a fixed-step method', () => {
  it('the caller asks for it with an adaptive method: refused, naming the method', () => {
    for (const method of [undefined, 'dopri5', 'dop853', 'rodas', 'auto'] as const) {
      const err = inputErrorOf(() => simulate(BALL, { locate: 'before', method }));
      expect(err.option).toBe('locate');
      expect(err.message).toMatch(
        /^locate before places events at the grid points of a fixed-step method, and (the default method auto|method \w+) is adaptive \(its grid depends on the tolerance\): use method rk4 or euler \(with a fixed step\) or locate exact$/,
      );
    }
    expect(simulate(BALL, { locate: 'after', method: 'rk4', step: 0.01 }).status).toBe('ok');
    expect(simulate(BALL, { locate: 'exact', method: 'dopri5' }).status).toBe('ok');
  });

  it("the model's option locate = before without a fixed-step method: a ModelError at the option", () => {
    const source = `${BALL}\noption locate = before`;
    expect(() => compileModel(source)).not.toThrow();
    expect(modelErrorOf(() => simulate(source)).message).toBe(
      '<model>:7:1: option locate = before places events at the grid points of a fixed-step method, and the default method auto is adaptive (its grid depends on the tolerance)\n  option locate = before\n  ^\nAdd option method = rk4 (or euler) and option step, or write option locate = exact.',
    );
    // with the model's own fixed-step method it runs; --locate exact overrides it
    expect(simulate(`${source}\noption method = rk4\noption step = 0.01`).status).toBe('ok');
    expect(simulate(source, { locate: 'exact' }).status).toBe('ok');
  });

  it('an adaptive method asked for against the model: refused, naming both', () => {
    const source = `${BALL}\noption method = rk4\noption locate = after`;
    const err = inputErrorOf(() => simulate(source, { method: 'dopri5' }));
    expect(err.option).toBe('method');
    expect(err.message).toBe(
      'option locate = after (<model>:8) places events at the grid points of a fixed-step method, and method dopri5 is adaptive (its grid depends on the tolerance): use method rk4 or euler (with a fixed step) or locate exact',
    );
  });

  it("an event's own locate: a ModelError at the event, or refused when the caller chose the method", () => {
    const source = BALL.replace('when h falls', 'when h falls locate before');
    const err = modelErrorOf(() => simulate(source));
    expect(err.line).toBe(4);
    expect(err.what).toBe(
      'event bounce (locate before) places events at the grid points of a fixed-step method, and the default method auto is adaptive (its grid depends on the tolerance)',
    );
    expect(inputErrorOf(() => simulate(source, { method: 'dopri5' })).message).toMatch(
      /^event bounce \(locate before\) .*, at <model>:4: use method rk4 or euler/,
    );
    expect(simulate(source, { method: 'rk4', step: 0.01 }).status).toBe('ok');
  });
});

describe('the command line goes through the same checks, naming the flags (exit 2)', () => {
  it.each([
    [['--rtol', '-1'], 'deltastep: --rtol must be a positive number, such as 1e-8, got -1\n'],
    [['--atol', '0'], 'deltastep: --atol must be a positive number, such as 1e-8, got 0\n'],
    [['--output-step', '0'], 'deltastep: --output-step must be a positive number, such as 1e-8, got 0\n'],
    [['--max-events', '-1'], 'deltastep: --max-events must be a whole number of at least 1, got -1\n'],
    [
      ['--locate', 'Exact'],
      'deltastep: --locate must be one of exact, before, after, got Exact (did you mean exact? the words are lower case)\n',
    ],
    [
      ['--locate', 'before'],
      'deltastep: --locate before places events at the grid points of a fixed-step method, and the default method auto is adaptive (its grid depends on the tolerance): use --method rk4 or euler (with a fixed step) or locate exact\n',
    ],
    [
      ['--locate', 'after', '--method', 'dop853'],
      'deltastep: --locate after places events at the grid points of a fixed-step method, and --method dop853 is adaptive (its grid depends on the tolerance): use --method rk4 or euler (with a fixed step) or locate exact\n',
    ],
  ])('simulate %j', (args, stderr) => {
    ensureCliBuilt();
    const ball = tempModel('ball.delta', `${BALL}\n`);
    const r = runCli(['simulate', ball, ...args]);
    expect(r.stderr).toBe(stderr);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('--rtol 1e-20: raised to 100 eps with a warning on stderr and in the JSON; the answer is right', () => {
    ensureCliBuilt();
    const ball = tempModel('ball.delta', `${BALL}\n`);
    const r = runCli(['simulate', ball, '--rtol', '1e-20', '--atol', '1e-20', '--format', 'json']);
    expect(r.status).toBe(0);
    const warning =
      'the relative tolerance 1e-20 is below what double precision can deliver; the run uses 2.22e-14 (100 times the machine epsilon)';
    expect(r.stderr).toBe(`${ball}: warning: ${warning}\n`);
    const out = JSON.parse(r.stdout) as { status: string; warnings: string[]; final: { h: number } };
    expect(out.status).toBe('ok');
    expect(out.warnings).toEqual([warning]);
    expectWithin(out.final.h, ballAt5().h, 1e-10, 'h(5)');
    // without a warning the key is there, empty
    expect(JSON.parse(runCli(['simulate', ball, '--format', 'json']).stdout).warnings).toEqual([]);
  });

  it("the model's option locate without a fixed-step method is a model error at its line (exit 1)", () => {
    ensureCliBuilt();
    const file = tempModel('ball_before.delta', `${BALL}\noption locate = before\n`);
    const r = runCli(['simulate', file]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:7:1: option locate = before places events`),
    );
  });
});
