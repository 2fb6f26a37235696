/**
 * Generated models, run to the end: every one compiles to a run with a status (ok, stopped,
 * zeno, failed with a message) or is a ModelError at file:line:col; nothing else is thrown
 * (an "internal error" would reach a user as a crash), and no run hangs (every resource has a
 * limit: steps, events, rows). Half the models come from a general generator (random
 * right-hand sides, deltas, events, options), half from the families of fuzz-models.ts:
 * arrays and sums, `while` rules, contacts under `option zeno`, coincident events, kinked event
 * functions and stiff models with events, each with its exact answer where one is cheap to
 * state (counts of events, their times, final values). Generated command lines get an exit
 * code from 0 to 4 and never an internal error.
 *
 * The suite runs a few thousand cases; `npm run fuzz` runs FUZZ_RUNS of them (10^5) and
 * prints the counts of each outcome, in all and per family, and every find with its model
 * (tests/README.md keeps the last figures).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compileModel, Simulator, SimulationInputError, type SimulateOptions } from '../src/index.js';
import { ModelError } from '../src/expression/errors.js';
import { transformReport } from '../src/report/print.js';
import { CLI, ensureCliBuilt } from './helpers.js';
import { CHECK_OPEN_FINDS, expr, FAMILY_MODELS, familyCase, KINKED_FUNCTIONS, type FuzzCase } from './fuzz-models.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 800);
const CLI_RUNS = Number(process.env.FUZZ_CLI_RUNS ?? 40);
/** a run taking this long is a hang: every run here is bounded by its limits far below it */
const HANG_MS = 20_000;

const general: fc.Arbitrary<FuzzCase> = fc
  .record({
    order: fc.constantFrom(1, 2),
    rhsX: expr,
    rhsY: expr,
    event: fc.option(
      fc.tuple(
        fc.constantFrom('x', 'y - 1', 'x - y', 'sin(t)', ...KINKED_FUNCTIONS),
        fc.constantFrom('rises', 'falls', 'crosses'),
        fc.constantFrom('x := 0', "x' := -0.8*x'", 'y := y + 1', 'n := n + 1', 'stop', 'x := x'),
      ),
    ),
    option: fc.constantFrom(
      '',
      'option zeno = continue',
      'option zeno = stop',
      'option method = dop853',
      'option method = rk4',
      'option method = rodas',
      'option method = radau5',
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
  .map((m) => ({
    family: 'general' as const,
    text: [
      `independent t from 0 to ${m.end}`,
      `parameter a = ${m.a}, b = -0.5`,
      'discrete n = 0',
      m.option,
      m.event ? `event hit when ${m.event[0]} ${m.event[1]} do ${m.event[2]} end` : 'event hit at 0.25',
      m.order === 2 ? `x'' = ${m.rhsX}` : `x' = ${m.rhsX}`,
      `y' = ${m.rhsY}`,
      m.order === 2 ? `x(0) = ${m.x0}; x'(0) = 0; y(0) = 1` : `x(0) = ${m.x0}; y(0) = 1`,
    ].join('\n'),
    options: {},
  }));

/** the general generator's limits are tight; the families' exact answers need some room */
const LIMITS: SimulateOptions = { maxSteps: 2_000, maxEvents: 200, maxRows: 10_000 };
const FAMILY_LIMITS: SimulateOptions = { maxSteps: 20_000, maxEvents: 1_000, maxRows: 20_000 };

/** What one generated model gave. */
export type Outcome =
  'model error' | 'input error' | 'ok' | 'stopped' | 'zeno' | 'failed' | 'internal error' | 'hang' | 'wrong answer';

/** a model that broke the contract, kept to be reported at the end of the run */
interface Find {
  family: string;
  kind: Outcome;
  /** the open find of fuzz-models.ts it is, if it is one */
  open?: string;
  text: string;
  options: SimulateOptions;
  detail: string;
}

/** the message of the last run that runCase made (for FUZZ_DUMP) */
let lastMessage: string | null = null;

function runCase(c: FuzzCase, finds: Find[]): Outcome {
  lastMessage = null;
  const found = (kind: Outcome, err: unknown): Outcome => {
    const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
    finds.push({ family: c.family, kind, open: c.open, text: c.text, options: c.options, detail });
    return kind;
  };
  let compiled;
  try {
    compiled = compileModel(c.text, 'fuzz.delta');
    transformReport(compiled);
  } catch (err) {
    if (err instanceof ModelError && /^fuzz\.delta:\d+:\d+: /.test(err.message)) return 'model error';
    return found('internal error', err);
  }
  const start = Date.now();
  let run;
  try {
    run = new Simulator(compiled).run({ ...(c.family === 'general' ? LIMITS : FAMILY_LIMITS), ...c.options });
  } catch (err) {
    if (err instanceof SimulationInputError) return 'input error';
    return found('internal error', err);
  }
  lastMessage = run.message;
  if (Date.now() - start > HANG_MS) return found('hang', `${Date.now() - start} ms`);
  try {
    expect(['ok', 'stopped', 'zeno', 'failed']).toContain(run.status);
    if (run.status === 'failed' || run.status === 'zeno') expect(run.message).toBeTruthy();
    expect(run.message ?? '', 'a message with a stack trace').not.toMatch(/internal error|at .*\.[jt]s:\d+/);
    if (!c.open || CHECK_OPEN_FINDS) c.check?.(run);
  } catch (err) {
    return found('wrong answer', err instanceof Error ? err.message : err);
  }
  return run.status;
}

const show = (counts: Map<string, number>) => [...counts].map(([k, v]) => `${v} ${k}`).join(', ');

describe('generated models run to a status or a positioned ModelError', () => {
  it(`${RUNS} models`, () => {
    const counts = new Map<Outcome, number>();
    const families = new Map<string, Map<Outcome, number>>();
    const seconds = new Map<string, number>();
    const finds: Find[] = [];
    const start = Date.now();
    fc.assert(
      fc.property(fc.oneof(general, familyCase), (c) => {
        const t0 = Date.now();
        const o = runCase(c, finds);
        // (FUZZ_DUMP=file: each model's outcome, one JSON line, to compare two versions run by run)
        if (process.env.FUZZ_DUMP)
          appendFileSync(
            process.env.FUZZ_DUMP,
            `${JSON.stringify({ family: c.family, outcome: o, text: c.text, options: c.options, message: lastMessage })}\n`,
          );
        seconds.set(c.family, (seconds.get(c.family) ?? 0) + (Date.now() - t0) / 1000);
        counts.set(o, (counts.get(o) ?? 0) + 1);
        const f = families.get(c.family) ?? new Map<Outcome, number>();
        families.set(c.family, f.set(o, (f.get(o) ?? 0) + 1));
      }),
      { seed: Number(process.env.FUZZ_SEED ?? 13_2026), numRuns: RUNS },
    );
    if (process.env.FUZZ_RUNS) {
      const errors = finds.filter((f) => f.kind === 'internal error').length;
      const hangs = finds.filter((f) => f.kind === 'hang').length;
      const wrong = finds.filter((f) => f.kind === 'wrong answer').length;
      console.log(
        `fuzz: ${RUNS} generated models in ${Math.round((Date.now() - start) / 1000)} s: ${show(counts)}; ` +
          `${errors} internal errors, ${hangs} hangs, ${wrong} wrong answers`,
      );
      for (const [family, f] of [...families].sort()) {
        const n = [...f.values()].reduce((a, b) => a + b, 0);
        console.log(`  ${family} (${n}, ${Math.round(seconds.get(family) ?? 0)} s): ${show(f)}`);
      }
      // finds by kind, family and open find (new: none of fuzz-models.ts's OPEN_FINDS), three of each shown
      const groups = new Map<string, Find[]>();
      for (const f of finds) {
        const key = `${f.kind} (${f.family}, ${f.open ?? 'new'})`;
        groups.set(key, [...(groups.get(key) ?? []), f]);
      }
      if (groups.size) console.log(`finds: ${[...groups].map(([k, v]) => `${v.length} ${k}`).join('; ')}`);
      for (const [key, fs] of groups)
        for (const f of fs.slice(0, 3)) console.log(`${key}: ${JSON.stringify(f.options)}\n${f.text}\n${f.detail}\n`);
    }
    expect(
      finds.slice(0, 5).map((f) => `${f.kind} (${f.family}) ${JSON.stringify(f.options)}\n${f.text}\n${f.detail}`),
      `${finds.length} generated models broke the contract`,
    ).toEqual([]);
    // the generator reaches every outcome, or it tests less than it seems to
    for (const o of ['model error', 'ok', 'failed', 'zeno'] as const) expect(counts.get(o) ?? 0, o).toBeGreaterThan(0);
  }, 1_800_000);
});

describe('generated command lines get an exit code, never an internal error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ds-fuzz-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // the bouncing ball, and a model of each family (arrays, rules, a contact, coincident events, kinks, stiff)
  const files = [
    "independent t from 0 to 2\nparameter e = 0.8\nevent bounce when h falls\nh'' = -9.81 - (1 + e)*h'*delta(t - bounce)\nh(0) = 1; h'(0) = 0\n",
    ...FAMILY_MODELS,
  ].map((text, i) => {
    const file = join(dir, `m${i}.delta`);
    writeFileSync(file, text);
    return file;
  });
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
    'continue',
    'radau5',
    'N=3',
    'N=0',
    'L=1e8',
    'Tr=1',
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
      fc.property(
        command,
        fc.constantFrom(...files),
        fc.array(fc.tuple(flag, value), { maxLength: 4 }),
        (cmd, file, flags) => {
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
        },
      ),
      { seed: 9_2026, numRuns: CLI_RUNS },
    );
  }, 600_000);
});
