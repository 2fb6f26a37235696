/**
 * Names that JavaScript objects already have (`constructor`, `__proto__`, `toString`,
 * `valueOf`, `hasOwnProperty`) as a model's parameters and states, through every batch
 * command and simulate: each is an ordinary name, never an inherited member (issue 21, 4).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCliBuilt, runCli } from './helpers.js';

const NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'] as const;
let dir = '';

beforeAll(() => {
  ensureCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ds-names-'));
}, 200_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function model(name: string): string {
  const file = join(dir, `${name}.delta`);
  // the parameter also drives a state of the same kind of name, so final values are tested too
  writeFileSync(file, `parameter ${name} = 1\nindependent t from 0 to 1\ny' = ${name}\ny(0) = 0\n`);
  return file;
}

describe.each(NAMES)('a parameter named %s', (name) => {
  it('sweep: the if-expression and the value follow the parameter (20 at 0, 10 at 1)', () => {
    const r = runCli([
      'sweep',
      model(name),
      '--vary',
      `${name}=0:1:2`,
      '--report',
      `if ${name} then 10 else 20, ${name}, y`,
      '--format',
      'json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { rows: number[][] };
    expect(out.rows.map((row) => row.slice(0, 3))).toEqual([
      [0, 20, 0],
      [1, 10, 1],
    ]);
    // y(1) = the parameter, exactly for a constant slope
    expect(out.rows[0][3]).toBeCloseTo(0, 12);
    expect(out.rows[1][3]).toBeCloseTo(1, 12);
  });

  it('montecarlo: a sample of the parameter, not an inherited member', () => {
    const r = runCli([
      'montecarlo',
      model(name),
      '--sample',
      `${name}~uniform(0.25,0.25)`,
      '--samples',
      '3',
      '--report',
      `if ${name} > 0.5 then 10 else 20, ${name}`,
      '--format',
      'json',
    ]);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { report: Record<string, { mean: number; n: number }> };
    expect(out.report[`if ${name} > 0.5 then 10 else 20`]).toMatchObject({ mean: 20, n: 3 });
    expect(out.report[name]).toMatchObject({ mean: 0.25, n: 3 });
  });

  it('sweep shards of it merge into the unsharded output', () => {
    const args = [
      'sweep',
      model(name),
      '--vary',
      `${name}=0:1:4`,
      '--report',
      `if ${name} then 10 else 20`,
      '--format',
      'json',
    ];
    const whole = runCli(args);
    const files = [1, 2].map((k) => join(dir, `${name}-${k}.json`));
    files.forEach((f, i) => expect(runCli([...args, '--shard', `${i + 1}/2`, '--out', f]).status).toBe(0));
    const merged = runCli(['merge', ...files]);
    expect(merged.stderr).toBe('');
    expect(merged.stdout).toBe(whole.stdout);
  });
});

describe('states named like members of Object.prototype', () => {
  it('simulate writes each as its own column and final value, in JSON, CSV and text', () => {
    const file = join(dir, 'states.delta');
    writeFileSync(
      file,
      "independent t from 0 to 1\nconstructor' = 1\ntoString' = 2\n__proto__' = 3\nvalueOf' = 4\nconstructor(0) = 0; toString(0) = 0; __proto__(0) = 0; valueOf(0) = 0\n",
    );
    const json = runCli(['simulate', file, '--format', 'json', '--events-only']);
    const out = JSON.parse(json.stdout) as { columns: string[]; final: Record<string, number> };
    expect(out.columns).toEqual(['t', 'constructor', 'toString', '__proto__', 'valueOf']);
    expect(Object.keys(out.final)).toEqual(out.columns);
    for (const [k, slope] of [
      ['constructor', 1],
      ['toString', 2],
      ['__proto__', 3],
      ['valueOf', 4],
    ] as const)
      expect(out.final[k]).toBeCloseTo(slope, 12);
    const csv = runCli(['simulate', file, '--format', 'csv', '--events-only']);
    expect(csv.stdout.split('\n')[0]).toBe('t,constructor,toString,__proto__,valueOf');
    const text = runCli(['simulate', file]);
    expect(text.stdout).toMatch(/^__proto__\s+3$/m);
    const sweep = runCli(['sweep', file, '--vary', 'valueOf=0:1:2', '--format', 'csv']);
    expect(sweep.stderr).toMatch(/'valueOf' is not a parameter or unknown/);
  });
});
