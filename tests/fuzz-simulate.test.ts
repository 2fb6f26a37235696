/**
 * Generated models, run to the end: every one compiles to a run with a status (ok, stopped,
 * zeno, failed with a message) or is a ModelError at file:line:col; nothing else is thrown
 * (an "internal error" would reach a user as a crash), and no run hangs (every resource has a
 * limit: steps, events, rows). Generated command lines get an exit code from 0 to 4 and never
 * an internal error.
 *
 * The suite runs a few thousand cases; `npm run fuzz` runs FUZZ_RUNS of them (10^5) and
 * prints the counts of each outcome (tests/README.md keeps the last figures).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compileModel, Simulator, SimulationInputError } from '../src/index.js';
import { ModelError } from '../src/expression/errors.js';
import { transformReport } from '../src/report/print.js';
import { CLI, ensureCliBuilt } from './helpers.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const CLI_RUNS = Number(process.env.FUZZ_CLI_RUNS ?? 40);
/** a run taking this long is a hang: every run here is bounded by its limits far below it */
const HANG_MS = 20_000;

const atom = fc.constantFrom('x', 'y', 't', 'a', 'b', '1', '2', '0.5', '1e-3', '1e3', 'pi', "x'", 'n');
const expr: fc.Arbitrary<string> = fc.letrec((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '^'), tie('e')).map(([l, op, r]) => `(${l} ${op} ${r})`),
    fc
      .tuple(fc.constantFrom('sin', 'cos', 'exp', 'log', 'sqrt', 'abs', 'sign', 'tanh', 'atan'), tie('e'))
      .map(([f, a]) => `${f}(${a})`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([c, a, b]) => `(if ${c} > 0 then ${a} else ${b})`),
    fc
      .tuple(
        tie('e'),
        fc.constantFrom(
          't - 1',
          't - 0.5',
          't - hit',
          'sin(pi*t)',
          'x - 1',
          't^2 - 2',
          't - t',
          '(t - 1)^2',
          'sin(50*t)',
          'sin(1/t)',
          'sqrt(t) - 0.5',
          'cos(t^2)',
        ),
      )
      .map(([g, u]) => `${g}*delta(${u})`),
  ),
})).e as fc.Arbitrary<string>;

const model = fc
  .record({
    order: fc.constantFrom(1, 2),
    rhsX: expr,
    rhsY: expr,
    event: fc.option(
      fc.tuple(
        fc.constantFrom('x', 'y - 1', 'x - y', 'sin(t)'),
        fc.constantFrom('rises', 'falls', 'crosses'),
        fc.constantFrom('x := 0', "x' := -0.8*x'", 'y := y + 1', 'n := n + 1', 'stop', 'x := x'),
      ),
    ),
    option: fc.constantFrom(
      '',
      'option zeno = continue',
      'option method = dop853',
      'option method = rk4',
      'option deltaRule = marcus',
      'option maxEvents = 50',
    ),
    x0: fc.constantFrom('0', '1', '-1', '1e-300', '1e300', 'a'),
    end: fc.constantFrom('1', '10', '0.001', '100'),
    // values that overflow or are not numbers are ModelErrors at the value
    a: fc.oneof(
      { arbitrary: fc.constant('2'), weight: 12 },
      fc.constantFrom('1/0', '1e300*1e300', 'sqrt(-1)', 'log(0)', 'exp(800)', '0.5^2000'),
    ),
  })
  .map((m) =>
    [
      `independent t from 0 to ${m.end}`,
      `parameter a = ${m.a}, b = -0.5`,
      'discrete n = 0',
      m.option,
      m.event ? `event hit when ${m.event[0]} ${m.event[1]} do ${m.event[2]} end` : 'event hit at 0.25',
      m.order === 2 ? `x'' = ${m.rhsX}` : `x' = ${m.rhsX}`,
      `y' = ${m.rhsY}`,
      m.order === 2 ? `x(0) = ${m.x0}; x'(0) = 0; y(0) = 1` : `x(0) = ${m.x0}; y(0) = 1`,
    ].join('\n'),
  );

/** What one generated model gave. */
export type Outcome = 'model error' | 'input error' | 'ok' | 'stopped' | 'zeno' | 'failed';

function runModel(text: string): Outcome {
  let compiled;
  try {
    compiled = compileModel(text, 'fuzz.delta');
    transformReport(compiled);
  } catch (err) {
    if (err instanceof ModelError) {
      expect(err.message).toMatch(/^fuzz\.delta:\d+:\d+: /);
      return 'model error';
    }
    throw new Error(`not a ModelError for\n${text}\n${err instanceof Error ? err.stack : String(err)}`, { cause: err });
  }
  const start = Date.now();
  try {
    const run = new Simulator(compiled).run({ maxSteps: 2_000, maxEvents: 200, maxRows: 10_000 });
    expect(['ok', 'stopped', 'zeno', 'failed']).toContain(run.status);
    if (run.status === 'failed' || run.status === 'zeno') expect(run.message, text).toBeTruthy();
    expect(Date.now() - start, `a run this long is a hang:\n${text}`).toBeLessThan(HANG_MS);
    return run.status;
  } catch (err) {
    if (err instanceof SimulationInputError) return 'input error';
    throw new Error(`an exception from a run of\n${text}\n${err instanceof Error ? err.stack : String(err)}`, {
      cause: err,
    });
  }
}

describe('generated models run to a status or a positioned ModelError', () => {
  it(`${RUNS} models`, () => {
    const counts = new Map<Outcome, number>();
    fc.assert(
      fc.property(model, (text) => {
        const o = runModel(text);
        counts.set(o, (counts.get(o) ?? 0) + 1);
      }),
      { seed: 13_2026, numRuns: RUNS },
    );
    if (process.env.FUZZ_RUNS)
      console.log(
        `fuzz: ${RUNS} generated models: ${[...counts].map(([k, v]) => `${v} ${k}`).join(', ')}; 0 internal errors, 0 hangs`,
      );
    // the generator reaches every outcome, or it tests less than it seems to
    for (const o of ['model error', 'ok', 'failed'] as const) expect(counts.get(o) ?? 0, o).toBeGreaterThan(0);
  }, 600_000);
});

describe('generated command lines get an exit code, never an internal error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ds-fuzz-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'm.delta');
  writeFileSync(
    file,
    "independent t from 0 to 2\nparameter e = 0.8\nevent bounce when h falls\nh'' = -9.81 - (1 + e)*h'*delta(t - bounce)\nh(0) = 1; h'(0) = 0\n",
  );
  const value = fc.constantFrom(
    '0',
    '-1',
    '1e400',
    '0x10',
    'abc',
    '',
    '2',
    '1e-8',
    '3.5',
    'auto',
    '1/2',
    'e=1',
    'e=0:1:3',
    'h=1',
    "h'=2,h=0",
    'json',
    'csv',
    'latex',
    'nope',
  );
  const flag = fc.constantFrom(
    '--to',
    '--from',
    '--rtol',
    '--atol',
    '--step',
    '--method',
    '--locate',
    '--set',
    '--init',
    '--format',
    '--output-step',
    '--max-steps',
    '--max-events',
    '--zeno',
    '--events-only',
    '--shard',
    '--vary',
    '--report',
    '--samples',
    '--seed',
    '--workers',
    '--bogus',
  );
  const command = fc.constantFrom('simulate', 'transform', 'shoot', 'sweep', 'montecarlo', 'merge', 'nonsense');

  it(`${CLI_RUNS} command lines`, () => {
    ensureCliBuilt();
    fc.assert(
      fc.property(command, fc.array(fc.tuple(flag, value), { maxLength: 4 }), (cmd, flags) => {
        const args = [cmd, file, ...flags.flatMap(([f, v]) => (f === '--events-only' ? [f] : [f, v])), '--quiet'];
        const r = spawnSync(process.execPath, [CLI, ...args], {
          cwd: dir,
          encoding: 'utf8',
          timeout: HANG_MS,
          env: { ...process.env, NO_COLOR: '1' },
        });
        expect(r.error, `hang: ${args.join(' ')}`).toBeUndefined();
        expect([0, 1, 2, 3, 4], `${args.join(' ')}: ${r.stderr}`).toContain(r.status);
        expect(r.stderr, args.join(' ')).not.toMatch(/internal error|at .*\.js:\d+/);
      }),
      { seed: 9_2026, numRuns: CLI_RUNS },
    );
  }, 600_000);
});
