/**
 * Outputs that cannot be written (issue 21, items 12 to 14): a closed pipe ends the program
 * quietly (exit 141), a full device or disk is an output error (exit 5) that says so, a path
 * that takes no file is said before anything runs (exit 2) with what is really wrong, and no
 * temporary file is left behind.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFileError } from '../src/cli/out-file.js';
import { CLI, ensureCliBuilt } from './helpers.js';

let dir = '';
let tmp = '';
let ball = '';
beforeAll(() => {
  ensureCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ds-output-'));
  // the children's own temporary directory: what they leave there is seen
  tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  ball = join(dir, 'ball.delta');
  writeFileSync(
    ball,
    "parameter g = 9.81, e = 0.8\nindependent t from 0 to 5\nevent bounce when h falls\nh'' = -g - (1 + e)*h'*delta(t - bounce)\nh(0) = 10; h'(0) = 0\n",
  );
}, 200_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = () => ({ ...process.env, NO_COLOR: '1', TMPDIR: tmp });

function run(args: string[], stdout: 'pipe' | number = 'pipe') {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: env(),
    stdio: ['ignore', stdout, 'pipe'],
  });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr };
}

const leftovers = () => readdirSync(tmp);
const hasDevFull = existsSync('/dev/full');

describe('a closed pipe (item 12)', () => {
  it.each([
    ['simulate', '--format', 'csv'],
    ['simulate', '--format', 'json'],
    ['sweep', '--vary', 'e=0.1:0.9:5000', '--format', 'csv', '--workers', '1'],
  ])('%s %s %s ... | head: ends quietly with 141, no temporary file left', async (...args) => {
    const command = args[0];
    const flags = args.slice(1);
    const extra = command === 'simulate' ? ['--output-step', '1e-5'] : [];
    const child = spawn(process.execPath, [CLI, command, ball, ...flags, ...extra], {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // read a little, then close the pipe as head does
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(141);
    expect(leftovers()).toEqual([]);
  });
});

describe.runIf(hasDevFull)('a full device (item 13)', () => {
  it('stdout on /dev/full: an output error naming the standard output, exit 5', () => {
    const fd = openSync('/dev/full', 'w');
    try {
      for (const format of ['csv', 'json', 'text']) {
        const r = run(['simulate', ball, '--format', format], fd);
        expect(r.stderr).toBe('deltastep: cannot write the standard output: no space left on device\n');
        expect(r.status).toBe(5);
      }
    } finally {
      closeSync(fd);
    }
    expect(leftovers()).toEqual([]);
  });

  it('--out /dev/full: an output error naming --out, exit 5, the device left alone', () => {
    for (const format of ['csv', 'json']) {
      const r = run(['simulate', ball, '--format', format, '--output-step', '1e-4', '--out', '/dev/full']);
      expect(r.stderr).toBe('deltastep: cannot write --out /dev/full: no space left on device\n');
      expect(r.status).toBe(5);
    }
    expect(existsSync('/dev/full')).toBe(true);
    expect(leftovers()).toEqual([]);
  });

  it('montecarlo --out /dev/full: the summary is still printed', () => {
    const r = run([
      'montecarlo',
      ball,
      '--sample',
      'e~uniform(0.5,0.9)',
      '--samples',
      '20',
      '--report',
      'h',
      '--out',
      '/dev/full',
    ]);
    expect(r.status).toBe(5);
    expect(r.stderr).toMatch(/cannot write --out \/dev\/full: no space left on device/);
    expect(r.stdout).toMatch(/^report\s+mean/);
  });
});

describe('a path that takes no file is said before the run (item 14), exit 2', () => {
  it.runIf(existsSync('/proc/self'))('/proc: a kernel file system, not a missing directory', () => {
    const r = run(['simulate', ball, '--out', '/proc/out.json']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "deltastep: cannot write --out /proc/out.json: /proc is the kernel's process file system (proc), where no files can be created\n",
    );
  });

  it('a file used as a directory, a directory used as a file, a missing directory, a plot without a kind', () => {
    const file = join(dir, 'plain.txt');
    writeFileSync(file, 'x');
    expect(run(['simulate', ball, '--out', join(file, 'x.json')]).stderr).toBe(
      `deltastep: cannot write --out ${join(file, 'x.json')}: ${file} is a file, not a directory\n`,
    );
    expect(run(['simulate', ball, '--out', dir]).stderr).toBe(
      `deltastep: cannot write --out ${dir}: ${dir} is a directory; give a file name\n`,
    );
    const missing = join(dir, 'no', 'such', 'x.csv');
    const r = run(['sweep', ball, '--vary', 'e=0:1:3', '--out', missing]);
    expect(r.stderr).toBe(
      `deltastep: cannot write --out ${missing}: the directory ${join(dir, 'no', 'such')} does not exist\n`,
    );
    expect(r.status).toBe(2);
    const plot = run(['simulate', ball, '--plot', join(dir, 'p.pdf')]);
    expect(plot.status).toBe(2);
    expect(plot.stderr).toMatch(
      /--plot .*p\.pdf: the extension '\.pdf' is not a kind of plot; use \.svg, \.png, \.html/,
    );
    // nothing ran: no output, no file
    expect(plot.stdout).toBe('');
    expect(existsSync(join(dir, 'p.pdf'))).toBe(false);
  });

  it('describes each error code by what is wrong', () => {
    const e = (code: string) => Object.assign(new Error(code), { code });
    expect(describeFileError(e('EROFS'), '/mnt/x.json')).toBe('/mnt is on a read-only file system');
    expect(describeFileError(e('ENOSPC'), '/x')).toBe('no space left on device');
    expect(describeFileError(e('EDQUOT'), '/x')).toBe('disk quota exceeded');
    expect(describeFileError(e('EACCES'), join(dir, 'new.json'))).toBe(
      `permission denied: you may not create files in ${dir}`,
    );
    expect(describeFileError(e('EACCES'), join(dir, 'plain.txt'))).toBe(
      `permission denied: you may not write ${join(dir, 'plain.txt')}`,
    );
    expect(describeFileError(e('EFBIG'), '/x')).toBe('the file is larger than its file system allows');
  });
});
