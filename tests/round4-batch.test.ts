/**
 * Round 4, batches: a run that completes with a warning. A sweep or Monte Carlo batch kept
 * only each run's status and, for the others, its message: a run whose answer carries a
 * warning (dopri5 held at the border of its stability region while state events fire, so
 * that its count may be off) showed as a plain `ok` row. The warnings of completed runs now
 * travel with them, and stderr says how many runs completed with one and the first.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
let dir = '';

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: dir }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

// y' = -L (y - sin t) with an event as y passes 0.5: stiff; dopri5 runs at its stability border
const STIFF = `independent t from 88 to 90
parameter L = 1e6
discrete m = 0
event up when y - 0.5 rises do m := m + 1 end
y' = -L*(y - sin(t))
y(88) = sin(88)
`;
// the same crossing without stiffness: no warning
const CALM = STIFF.replace('parameter L = 1e6', 'parameter L = 1');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'deltastep-round4-batch-'));
  writeFileSync(join(dir, 'stiff.delta'), STIFF);
  writeFileSync(join(dir, 'calm.delta'), CALM);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a batch says which runs completed with a warning', () => {
  it('sweep: the count, and the first run with its warning; the exit code stays 0', async () => {
    const r = await cli('sweep', 'stiff.delta', '--vary', 'L=1e5:1e6:3', '--method', 'dopri5', '--report', 'm');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('3 of 3 runs completed with a warning; the first, run 0 (L = 100000): warning:');
    expect(r.stderr).toContain('border of its stability region');
  });

  it('montecarlo: the same', async () => {
    const r = await cli(
      'montecarlo',
      'stiff.delta',
      '--sample',
      'L~uniform(1e5,1e6)',
      '--samples',
      '4',
      '--method',
      'dopri5',
      '--report',
      'm',
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/4 of 4 runs completed with a warning; the first, run 0 \(L = [\d.e+]+\): warning:/);
  });

  it('runs without warnings: nothing said', async () => {
    const r = await cli('sweep', 'calm.delta', '--vary', 'L=1:2:3', '--method', 'dopri5', '--report', 'm');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    // (y follows sin t from sin 88 = 0.035: it passes 0.5 once before t = 90)
    expect(r.stdout).toMatch(/\b1\s+ok/);
  });
});
