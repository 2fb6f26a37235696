/**
 * Shared fixtures for the transform, simulate, reference-case and CLI tests: the reference
 * models and cases of tests/fixtures/reference (a copy of the developers' reference set), the model examples of MODEL-LANGUAGE.md verbatim,
 * an evaluator for printed expressions (so that tests check what an action computes, not how
 * it happens to be printed), error capture, and a runner for the built command line.
 */
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { compileModel, transformReport } from '../src/index.js';
import type { SimulateOptions, SimulationResult } from '../src/index.js';
import { ModelError } from '../src/expression/errors.js';
import { evaluate } from '../src/expression/evaluate.js';
import { parseModel } from '../src/language/parser.js';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const REFERENCE_DIR = fileURLToPath(new URL('./fixtures/reference/', import.meta.url));
export const MODELS_DIR = `${REFERENCE_DIR}models/`;
export const CLI = `${ROOT}dist/cli.js`;

export function modelPath(file: string): string {
  return `${MODELS_DIR}${file}`;
}

/** The text of a reference model, e.g. `referenceModel('delta_a.delta')`. */
export function referenceModel(file: string): string {
  return readFileSync(modelPath(file), 'utf8');
}

export interface CaseCheck {
  path?: string;
  value?: number;
  tol?: number;
  equals?: unknown;
  atLeast?: number;
  exit?: number;
  stderr?: string;
}
export interface ReferenceCase {
  id: string;
  about?: string;
  model: string;
  command: 'simulate' | 'shoot' | 'transform' | 'sweep' | 'montecarlo';
  args: string[];
  checks: CaseCheck[];
}

export function referenceCases(): ReferenceCase[] {
  return (JSON.parse(readFileSync(`${REFERENCE_DIR}cases.json`, 'utf8')) as { cases: ReferenceCase[] }).cases;
}

/** `events[0].jumps.y'`, `rows[4][1]`, `events.length` on a JSON-like value, as check-cases does. */
export function getPath(value: unknown, path: string): unknown {
  let v: unknown = value;
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    const key = m[1] ?? m[2];
    if (key === 'length' && Array.isArray(v)) {
      v = v.length;
      continue;
    }
    v = v === null || v === undefined ? undefined : (v as Record<string, unknown>)[key];
  }
  return v;
}

/** The command-line flags of a case as library options (only the flags the cases use). */
export function optionsFromArgs(args: readonly string[]): SimulateOptions {
  const o: SimulateOptions & { set?: Record<string, number>; init?: Record<string, number> } = {};
  const pairs = (text: string) =>
    Object.fromEntries(
      text.split(',').map((p) => {
        const [k, v] = p.split('=');
        return [k.trim(), Number(v)];
      }),
    );
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i],
      value = args[i + 1];
    switch (flag) {
      case '--from':
        o.from = Number(value);
        break;
      case '--to':
        o.to = Number(value);
        break;
      case '--rtol':
        o.rtol = Number(value);
        break;
      case '--atol':
        o.atol = Number(value);
        break;
      case '--step':
        o.step = Number(value);
        break;
      case '--method':
        o.method = value as SimulateOptions['method'];
        break;
      case '--locate':
        o.locate = value as SimulateOptions['locate'];
        break;
      case '--set':
        o.set = { ...(o.set as Record<string, number> | undefined), ...pairs(value) };
        break;
      case '--init':
        o.init = pairs(value);
        break;
      default:
        throw new Error(`optionsFromArgs: flag ${flag} is not mapped`);
    }
  }
  return o;
}

/**
 * |actual - expected| <= tol, with the error in units of the tolerance in the failure message.
 * Returns that ratio so that a test can also pin how far below the tolerance it stays.
 */
export function expectWithin(actual: unknown, expected: number, tol: number, what = ''): number {
  expect(typeof actual, `${what}: not a number`).toBe('number');
  const err = Math.abs((actual as number) - expected);
  const ratio = err / tol;
  expect(
    ratio,
    `${what}: ${actual} vs ${expected}, error ${err.toExponential(2)} = ${ratio.toExponential(2)} tol`,
  ).toBeLessThanOrEqual(1);
  return ratio;
}

/** Evaluates printed expression text (`-(1 + e)*(u1 + S1)`) with the given values. */
export function evalText(text: string, values: Readonly<Record<string, number>>): number {
  const st = parseModel(`r__ = ${text}`, '<text>').statements[0];
  if (!st || st.kind !== 'equation') throw new Error(`not an expression: ${text}`);
  return evaluate(st.rhs, (k) => values[k]);
}

/** `S1 := S1 + t^2` -> target and value text. */
export function splitAction(action: string): { target: string; value: string } {
  const m = /^(\S+) := (.+)$/.exec(action);
  if (!m) throw new Error(`not an assignment: ${action}`);
  return { target: m[1], value: m[2] };
}

/** `u1' = -y` -> state and right-hand side text. */
export function splitEquation(equation: string): { state: string; rhs: string } {
  const m = /^(\S+)' = (.+)$/.exec(equation);
  if (!m) throw new Error(`not an equation: ${equation}`);
  return { state: m[1], rhs: m[2] };
}

/**
 * The ModelError a model raises on the way to `transform` (compile, then the report, which
 * finds double roots of delta arguments as the CLI does); fails the test if there is none or
 * if something else is thrown.
 */
export function modelErrorOf(source: string, file = 'm.delta'): ModelError {
  try {
    transformReport(compileModel(source, file));
  } catch (err) {
    if (err instanceof ModelError) return err;
    throw new Error(
      `expected a ModelError, got ${err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err)}`,
      { cause: err },
    );
  }
  throw new Error('expected a ModelError, but the model was accepted');
}

/** Every model example of MODEL-LANGUAGE.md, verbatim. */
export const SPEC_EXAMPLES = {
  heavyRope: `# Heavy sagging rope with a single force F at x = a
model HeavyRope
independent x from 0 to 10
parameter w = 1, F = 2, a = 4, l = 12   # weight per length, load, its place, rope length
unknown p1 = -1, H = 3                   # y'(0) and horizontal force: found by shooting

y'' = w/H*sqrt(1 + y'^2) + F/H*delta(x - a)
z'  = sqrt(1 + y'^2)

y(0) = 0;  y'(0) = p1;  z(0) = 0         # initial conditions (at the start of the range)
y(10) = 0; z(10) = l                     # boundary conditions (anywhere else)
`,
  bouncingBall: `model BouncingBall
parameter g = 9.81, e = 0.8
event bounce when h falls
h'' = -g - (1 + e)*h'*delta(t - bounce)
h(0) = 10; h'(0) = 0
`,
  wall: `# IDERKSolve example 5.5.1: a spring against a wall, written as a reset
independent t from 0 to 6
event wall when x - 0.5 rises do y := -0.9*y end
x' = y;  y' = -x
x(0) = 0; y(0) = 1
`,
  twoMasses: `# two masses, Newton's collision law as a force impulse (Hohmann, 4.2)
independent t from 0 to 5
parameter m1 = 1, m2 = 2, e = 0.8
discrete n = 0
event hit when x1 - x2 rises do n := n + 1 end
J = (1 + e)*m1*m2/(m1 + m2)*(x1' - x2')
m1*x1'' = -J*delta(t - hit)
m2*x2'' =  J*delta(t - hit)
x1(0) = 0; x1'(0) = 1; x2(0) = 1; x2'(0) = 0
`,
} as const;

// ---------------------------------------------------------------------------
// The command line

/** Builds dist/ once if it is missing (tsup: a few seconds). */
export function ensureCliBuilt(): void {
  if (!existsSync(CLI)) execSync('npx tsup', { cwd: ROOT, stdio: 'pipe', timeout: 180_000 });
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[], cwd = ROOT): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The times of the events named `name` in a run, in order. */
export function eventTimes(r: SimulationResult, name: string): number[] {
  return r.events.filter((e) => e.name === name).map((e) => e.t);
}

/** That `got` has as many times as `want`, each within `tol` of its own. */
export function expectTimes(got: number[], want: number[], tol: number): void {
  expect(got.length).toBe(want.length);
  got.forEach((t, i) => expect(Math.abs(t - want[i]), `event ${i}: ${t} vs ${want[i]}`).toBeLessThan(tol));
}
