/**
 * Leftovers of issue 21: flags that contradict each other are usage errors, not silently
 * dropped (item 1); merge of a directory (item 2); a sweep's plot survives a failed output,
 * help and version report a failed write (item 3); draws that overflow (item 5); the first zeno
 * run of merged shards in a whole sentence (item 6); controls and bidi characters in flag values
 * and paths written out in messages (item 7). Each asserts the whole message and the exit code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeLines, escapeText } from '../src/expression/terminal-text.js';
import { CLI, ensureCliBuilt } from './helpers.js';

let dir = '';
const BALL =
  "model Ball\nparameter g = 9.81, e = 0.8\nindependent t from 0 to 5\nevent bounce when h falls\nh'' = -g - (1 + e)*h'*delta(t - bounce)\nh(0) = 1; h'(0) = 0\n";
beforeAll(() => {
  ensureCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ds-conflicts-'));
  writeFileSync(join(dir, 'ball.delta'), BALL);
  mkdirSync(join(dir, 'shards'));
}, 200_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[], stdout: 'pipe' | number = 'pipe') {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', stdout, 'pipe'],
  });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr };
}

/** The run ends with exit 2 and exactly this message on stderr, nothing on stdout. */
function usage(args: string[], message: string): void {
  const r = run(args);
  expect(r.stderr).toBe(`deltastep: ${message}\n`);
  expect(r.status).toBe(2);
  expect(r.stdout).toBe('');
}

describe('conflicting flags (item 1)', () => {
  it('two --vary: a usage error naming both', () => {
    usage(
      ['sweep', 'ball.delta', '--vary', 'e=0.5:1:3', '--vary', 'g=1:2:2', '--report', 'e, g, h'],
      '--vary was given 2 times (--vary e=0.5:1:3, --vary g=1:2:2); a sweep varies one parameter: run one sweep per parameter, or vary several at random with montecarlo --sample "NAME~uniform(A,B)"',
    );
  });

  it('--vary or --sample of a name that --set gives too', () => {
    usage(
      ['sweep', 'ball.delta', '--vary', 'e=0.5:1:3', '--set', 'e=0.9', '--report', 'h'],
      'e is given by both --vary and --set (e=0.9); --vary sets it for each run: drop e from --set, or drop --vary to run with e=0.9',
    );
    usage(
      ['montecarlo', 'ball.delta', '--sample', 'e~uniform(0.5,0.6)', '--set', 'g=9,e=0.9', '--report', 'h'],
      'e is given by both --sample and --set (e=0.9); --sample sets it for each run: drop e from --set, or drop --sample to run with e=0.9',
    );
  });

  it('a name twice in one --set, in two --set, in one --init, twice in --sample', () => {
    const twiceSet = '--set gives e twice (e=0.5 and e=0.6); give each name one value';
    for (const command of ['simulate', 'shoot']) usage([command, 'ball.delta', '--set', 'e=0.5,e=0.6'], twiceSet);
    usage(['simulate', 'ball.delta', '--set', 'e=0.5', '--set', 'e=0.6'], twiceSet);
    usage(['sweep', 'ball.delta', '--vary', 'g=1:2:2', '--set', 'e=0.5', '--set', 'e=0.6'], twiceSet);
    const twiceInit = '--init gives h twice (h=7 and h=8); give each name one value per --init';
    for (const extra of [[], ['--init', 'h=1']])
      usage(['simulate', 'ball.delta', '--init', 'h=7,h=8', ...extra], twiceInit);
    usage(
      ['shoot', 'ball.delta', '--init', 'h=7, h = 8'],
      '--init gives h twice (h=7 and h = 8); give each name one value per --init',
    );
    usage(
      ['montecarlo', 'ball.delta', '--sample', 'e~uniform(0.5,0.6)', '--init', 'h=7,h=8', '--report', 'h'],
      twiceInit,
    );
    usage(
      ['montecarlo', 'ball.delta', '--sample', 'e~uniform(0.5,0.6)', '--sample', 'e~normal(1,2)', '--report', 'h'],
      '--sample gives e twice (e~uniform(0.5,0.6) and e~normal(1,2)); give each parameter one distribution',
    );
  });

  it('different names, and the same name in separate --init runs, are still fine', () => {
    const r = run([
      'simulate',
      'ball.delta',
      '--set',
      'e=0.5',
      '--set',
      'g=9',
      '--init',
      'h=2',
      '--init',
      'h=3',
      '--to',
      '0.1',
    ]);
    expect(r.status, r.stderr).toBe(0);
  });
});

describe('merge of a directory (item 2)', () => {
  it('is a usage error naming the path', () => {
    usage(
      ['merge', 'shards'],
      'merge shards: this is a directory, not a shard file; give the files written by sweep or montecarlo with --shard K/N --format json --out FILE',
    );
  });
});

const hasDevFull = existsSync('/dev/full');

describe.runIf(hasDevFull)('outputs that fail (item 3)', () => {
  it('a sweep whose --out or stdout is full still writes its --plot, then exit 5', () => {
    const flags = ['--vary', 'e=0.5:0.9:3', '--report', 'h', '--to', '1', '--workers', '1'];
    const toFile = run(['sweep', 'ball.delta', ...flags, '--plot', 'p4.svg', '--out', '/dev/full']);
    expect(toFile.stderr).toBe('deltastep: cannot write --out /dev/full: no space left on device\n');
    expect(toFile.status).toBe(5);
    expect(statSync(join(dir, 'p4.svg')).size).toBeGreaterThan(1000);
    const full = run(['sweep', 'ball.delta', ...flags, '--plot', 'p5.svg'], openFull());
    expect(full.stderr).toBe('deltastep: cannot write the standard output: no space left on device\n');
    expect(full.status).toBe(5);
    expect(statSync(join(dir, 'p5.svg')).size).toBeGreaterThan(1000);
  });

  it('montecarlo with its stdout full still writes its histogram', () => {
    const r = run(
      [
        'montecarlo',
        'ball.delta',
        '--sample',
        'e~uniform(0.5,0.6)',
        '--samples',
        '20',
        '--report',
        'h',
        '--to',
        '0.3',
        '--plot',
        'h.svg',
      ],
      openFull(),
    );
    expect(r.stderr).toBe('deltastep: cannot write the standard output: no space left on device\n');
    expect(r.status).toBe(5);
    expect(statSync(join(dir, 'h.svg')).size).toBeGreaterThan(1000);
  });

  it.each([['--help'], ['--version'], ['sweep', '--help']])(
    '%s > /dev/full: exit 5 with the write error',
    (...args) => {
      const r = run(args, openFull());
      expect(r.stderr).toBe('deltastep: cannot write the standard output: no space left on device\n');
      expect(r.status).toBe(5);
    },
  );
});

/** /dev/full as a child's stdout */
const openFull = (): number => openSync('/dev/full', 'w');

describe('draws and values that would not be finite (item 5)', () => {
  it('uniform and normal beyond double precision, and a --vary as wide', () => {
    usage(
      ['montecarlo', 'ball.delta', '--sample', 'e~uniform(-1e308,1e308)', '--report', 'h'],
      "--sample 'e~uniform(-1e308,1e308)': B - A is beyond the range of double precision numbers (1.8e308), so the draws would be infinite; narrow the range",
    );
    usage(
      ['montecarlo', 'ball.delta', '--sample', 'e~normal(0,1e308)', '--report', 'h'],
      "--sample 'e~normal(0,1e308)': draws reach MEAN ± 8.58 SD, beyond the range of double precision numbers (1.8e308), so some would be infinite; give a smaller MEAN or SD",
    );
    usage(
      ['sweep', 'ball.delta', '--vary', 'e=-1e308:1e308:3', '--report', 'h'],
      "--vary 'e=-1e308:1e308:3': TO - FROM is beyond the range of double precision numbers (1.8e308), so the values between would not be finite; narrow the range",
    );
  });

  it('the widest ranges that stay finite still run', () => {
    const r = run([
      'montecarlo',
      'ball.delta',
      '--sample',
      'g~uniform(-8e307,8e307)',
      '--samples',
      '3',
      '--report',
      'g',
      '--to',
      '0',
    ]);
    expect(r.stderr).not.toMatch(/Infinity|internal/);
    expect(r.status).not.toBe(2);
  });
});

describe('merged zeno shards (item 6)', () => {
  it('the first zeno run is named with a whole sentence', () => {
    const flags = ['--vary', 'e=0.3:0.9:5', '--report', 't, h', '--format', 'json', '--workers', '1'];
    for (const k of [1, 2]) run(['sweep', 'ball.delta', ...flags, '--shard', `${k}/2`, '--out', `s${k}.json`]);
    const r = run(['merge', 's1.json', 's2.json', '--format', 'csv']);
    expect(r.stderr).toBe(
      "deltastep: 4 of 5 runs stopped at an accumulation of events (zeno) before the end; the first, run 0 (e = 0.3), whose message the shards' JSON does not keep: simulate the model with --set e=0.3 to see where it stopped\n",
    );
    expect(r.status).toBe(4);
  });
});

describe('controls and bidi characters in messages (item 7)', () => {
  it('escapeText writes out C0, DEL, C1, LS/PS and the bidi controls; escapeLines keeps line feeds', () => {
    expect(escapeText('a\u001b[31mb\nc\td\re\u007f\u0085')).toBe(
      'a\\u{001B}[31mb\\u{000A}c\\u{0009}d\\u{000D}e\\u{007F}\\u{0085}',
    );
    expect(escapeText('x\u202ey\u2066\u2069\u200e\u200f\u2028\u2029\u061c')).toBe(
      'x\\u{202E}y\\u{2066}\\u{2069}\\u{200E}\\u{200F}\\u{2028}\\u{2029}\\u{061C}',
    );
    expect(escapeText('plain é ü 中 😀')).toBe('plain é ü 中 😀');
    expect(escapeLines('a\u001b\nb\u202e')).toBe('a\\u{001B}\nb\\u{202E}');
  });

  it('flag values: --set, --rtol, --method, --format, an unknown flag', () => {
    usage(
      ['simulate', 'ball.delta', '--set', 'e=1\u001b[31m'],
      "--set e needs a decimal number such as 10, 0.5 or 1e-8, got '1\\u{001B}[31m'",
    );
    usage(
      ['simulate', 'ball.delta', '--rtol', '1e-6\nx'],
      "--rtol needs a decimal number such as 10, 0.5 or 1e-8, got '1e-6\\u{000A}x'",
    );
    usage(
      ['simulate', 'ball.delta', '--method', 'rk\u202e4'],
      '--method must be one of euler, rk4, dopri5, dop853, rodas, radau5, auto, analytic, got rk\\u{202E}4 (did you mean rk4?)',
    );
    usage(['simulate', 'ball.delta', '--format', 'js\u2066on'], '--format js\\u{2066}on: write one of text, json, csv');
    const r = run(['simulate', 'ball.delta', '--bogus\u001b']);
    expect(r.stderr).toBe("error: unknown option '--bogus\\u{001B}'\n(run with --help for usage)\n");
    expect(r.status).toBe(2);
  });

  it('--variables: its message of several lines keeps them, with what was typed written out', () => {
    const r = run(['simulate', 'ball.delta', '--plot', 'v.svg', '--variables', 'h^\u001b']);
    expect(r.stderr).toBe(
      'deltastep: --variables h^\\u{001B}: unexpected character U+001B at column 3\n  h^?\n    ^\nRemove it: a model uses names, numbers, + - * / ^ ( ) , ; = := < <= > >= == != and # comments.\n',
    );
    expect(r.status).toBe(2);
  });

  it('paths: a model file, an --out directory, a merge file', () => {
    const r = run(['simulate', 'no\u001b[31mne/x\n.delta']);
    expect(r.stderr).toBe(
      'no\\u{001B}[31mne/x\\u{000A}.delta:1:1: no such file\nGive the path of a .delta model file.\n',
    );
    expect(r.status).toBe(1);
    usage(
      ['simulate', 'ball.delta', '--out', 'no\u202edir/f.csv'],
      `cannot write --out no\\u{202E}dir/f.csv: the directory ${dir}/no\\u{202E}dir does not exist`,
    );
    usage(
      ['merge', 'x\u2028.json'],
      'merge x\\u{2028}.json: no such file; give the files written by sweep or montecarlo with --shard K/N --format json --out FILE',
    );
  });
});
