/**
 * Every case of tests/fixtures/reference/cases.json, with the tolerances exactly as written there:
 * simulate, shoot and transform through the library (fast; the flags mapped to options), sweep
 * and montecarlo through the built command line. The expected numbers are closed forms or
 * exact arithmetic, never this program's earlier output.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileModel, ModelError, shoot, simulate, transformReport } from '../src/index.js';
import {
  ensureCliBuilt,
  getPath,
  optionsFromArgs,
  REFERENCE_DIR,
  referenceCases,
  runCli,
  type CaseCheck,
  type ReferenceCase,
} from './helpers.js';

const CASES = referenceCases();
const modelText = (c: ReferenceCase) => readFileSync(`${REFERENCE_DIR}${c.model}`, 'utf8');

/** The exit code the CLI gives for a library result (CLI.md, "Exit codes"). */
function exitCodeOf(command: ReferenceCase['command'], result: unknown): number {
  if (command === 'shoot') {
    const r = result as { converged: boolean; solution?: { status: string } | null };
    return !r.converged || r.solution?.status === 'failed' ? 3 : 0;
  }
  const status = (result as { status: string }).status;
  return status === 'failed' ? 3 : status === 'zeno' ? 4 : 0;
}

function applyChecks(c: ReferenceCase, result: unknown, exitCode: number, stderr: string): void {
  for (const check of c.checks) applyCheck(c, check, result, exitCode, stderr);
}

function applyCheck(c: ReferenceCase, check: CaseCheck, result: unknown, exitCode: number, stderr: string): void {
  if (check.exit !== undefined) {
    expect(exitCode, `${c.id}: exit code`).toBe(check.exit);
    return;
  }
  if (check.stderr !== undefined) {
    expect(stderr, `${c.id}: stderr`).toMatch(new RegExp(check.stderr));
    return;
  }
  const path = check.path!;
  const actual = getPath(result, path);
  if ('equals' in check) {
    expect(actual, `${c.id}: ${path}`).toEqual(check.equals);
    return;
  }
  if (check.atLeast !== undefined) {
    expect(actual as number, `${c.id}: ${path}`).toBeGreaterThanOrEqual(check.atLeast);
    return;
  }
  expect(typeof actual, `${c.id}: ${path} is ${String(actual)}`).toBe('number');
  const err = Math.abs((actual as number) - check.value!);
  expect(
    err / check.tol!,
    `${c.id}: ${path} = ${actual}, expected ${check.value} within ${check.tol} (error ${err.toExponential(2)})`,
  ).toBeLessThanOrEqual(1);
}

describe('the reference cases', () => {
  it('are all here: every command kind is exercised', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(28);
    expect(new Set(CASES.map((c) => c.command))).toEqual(
      new Set(['simulate', 'transform', 'shoot', 'sweep', 'montecarlo']),
    );
  });
});

describe('simulate and shoot through the library', () => {
  const cases = CASES.filter(
    (c) => (c.command === 'simulate' || c.command === 'shoot') && !c.checks.some((k) => k.stderr !== undefined),
  );

  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const model = compileModel(modelText(c), c.model);
    transformReport(model);
    const options = optionsFromArgs(c.args);
    const result = c.command === 'simulate' ? simulate(model, options) : shoot(model, options);
    applyChecks(c, result, exitCodeOf(c.command, result), '');
  });

  it('covers every simulate case of the kinds the issue names (delta_*, ball_*, iderk_*, two_masses_*, c12_e*)', () => {
    const ids = cases.filter((c) => c.command === 'simulate').map((c) => c.id);
    for (const prefix of ['delta_', 'ball_', 'iderk_', 'two_masses_', 'c12_e'])
      expect(
        ids.some((id) => id.startsWith(prefix)),
        prefix,
      ).toBe(true);
  });
});

describe('transform, and models that must be refused (exit 1 with FILE:LINE)', () => {
  const cases = CASES.filter((c) => c.command === 'transform' || c.checks.some((k) => k.stderr !== undefined));

  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    let result: unknown = null;
    let exitCode = 0;
    let stderr = '';
    try {
      const model = compileModel(modelText(c), c.model);
      result = transformReport(model);
      if (c.command === 'simulate') result = simulate(model, optionsFromArgs(c.args));
    } catch (err) {
      if (!(err instanceof ModelError)) throw err;
      exitCode = 1;
      stderr = err.message;
    }
    applyChecks(c, result, exitCode, stderr);
  });
});

describe('sweep and montecarlo through the command line', () => {
  beforeAll(() => ensureCliBuilt(), 180_000);
  const cases = CASES.filter((c) => c.command === 'sweep' || c.command === 'montecarlo');

  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const run = runCli([c.command, `${REFERENCE_DIR}${c.model}`, ...c.args, '--format', 'json', '--quiet']);
    expect(run.status, `${c.id}: exit code; stderr ${run.stderr}`).toBe(0);
    applyChecks(c, JSON.parse(run.stdout), run.status ?? -1, run.stderr);
  });
});
