/**
 * SIGINT and SIGTERM during a run (issue 21, item 6; CLI.md): the document is finished with
 * what was computed and the status `interrupted`, the CSV ends with a comment line, no
 * temporary file is left, and the exit code is 130 or 143.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureCliBuilt } from './helpers.js';

let dir = '';
let tmp = '';
beforeAll(() => {
  ensureCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ds-signals-'));
  tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  // a tick at every unit of time, forever: rows and ledger entries without end (a state event:
  // a periodic one's schedule is not yet lazy)
  writeFileSync(
    join(dir, 'tick.delta'),
    "discrete n = 0\nevent tick when c - 1 rises do c := 0; n := n + 1 end\nc' = 1\nc(0) = 0\n",
  );
  writeFileSync(join(dir, 'decay.delta'), "parameter k = 1\nindependent t from 0 to 0.1\nx' = -k*x\nx(0) = 1\n");
}, 200_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the command line, sends `signal` once it has written something (to `out`, or to
 * stdout; or after `afterMs`), and waits for it to end.
 */
function interrupt(args: string[], signal: NodeJS.Signals, out?: string, afterMs?: number): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env: { ...process.env, TMPDIR: tmp } });
    let stdout = '',
      stderr = '',
      sent = false;
    const send = () => {
      if (!sent) {
        sent = true;
        child.kill(signal);
      }
    };
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!out && afterMs === undefined) send();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const started = Date.now();
    const poll = setInterval(() => {
      if (afterMs !== undefined ? Date.now() - started > afterMs : out && existsSync(out) && statSync(out).size > 0)
        send();
    }, 20);
    const limit = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no end within 60 s: ${args.join(' ')}`));
    }, 60_000);
    child.on('exit', (code) => {
      clearInterval(poll);
      clearTimeout(limit);
      resolve({ code, stdout, stderr });
    });
  });
}

const long = (format: string) => [
  'simulate',
  'tick.delta',
  '--to',
  '1e9',
  '--max-events',
  '1e9',
  '--output-step',
  '0.01',
  '--format',
  format,
];

describe('simulate', () => {
  it('JSON to a file, SIGTERM: a whole document with status interrupted, its rows and ledger, exit 143', async () => {
    const out = join(dir, 'f.json');
    const r = await interrupt([...long('json'), '--out', out], 'SIGTERM', out);
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toMatch(
      /^deltastep: interrupted by SIGTERM at t = [\d.e+]+; .*f\.json holds what was computed \(status interrupted\)\n$/,
    );
    const doc = JSON.parse(readFileSync(out, 'utf8')) as {
      status: string;
      message: string;
      rows: number[][];
      events: { t: number; name: string }[];
      final: Record<string, number>;
      stats: { events: number };
    };
    expect(doc.status).toBe('interrupted');
    expect(doc.message).toMatch(/^interrupted by SIGTERM at t = /);
    expect(doc.rows.length).toBeGreaterThan(0);
    // the ledger is kept: one tick per unit of time up to where the run was
    const last = doc.rows[doc.rows.length - 1][0];
    expect(doc.events.length).toBe(doc.stats.events);
    expect(Math.abs(doc.events.length - Math.floor(last))).toBeLessThanOrEqual(1);
    doc.events.forEach((e, k) => {
      expect(e.name).toBe('tick');
      expect(Math.abs(e.t - (k + 1))).toBeLessThan(1e-6 * (k + 1));
    });
    expect(doc.final.t).toBe(last);
    expect(readdirSync(tmp)).toEqual([]);
  }, 90_000);

  it('CSV on stdout, SIGINT: the rows end with a comment line, exit 130', async () => {
    const r = await interrupt(long('csv'), 'SIGINT');
    expect(r.code, r.stderr).toBe(130);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('t,c,n');
    expect(lines.at(-1)).toMatch(/^# interrupted by SIGINT at t = /);
    // every line before it is a whole row
    for (const line of lines.slice(1, -1)) expect(line.split(',')).toHaveLength(3);
    expect(readdirSync(tmp)).toEqual([]);
  }, 90_000);

  it('several --init in JSON: the runs done, the interrupted one, and a whole document', async () => {
    const out = join(dir, 'runs.json');
    const r = await interrupt([...long('json'), '--init', 'c=0', '--init', 'c=0.5', '--out', out], 'SIGTERM', out);
    expect(r.code, r.stderr).toBe(143);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as { runs: { status: string }[] };
    expect(doc.runs.at(-1)!.status).toBe('interrupted');
  }, 90_000);

  it('text: the summary says interrupted and shows the events so far', async () => {
    const r = await interrupt(
      ['simulate', 'tick.delta', '--to', '1e9', '--max-events', '1e9'],
      'SIGTERM',
      undefined,
      1500,
    );
    expect(r.code, r.stderr).toBe(143);
    expect(r.stdout).toMatch(/^Model: interrupted - interrupted by SIGTERM/);
    expect(r.stdout).toMatch(/\d+ events before the interruption/);
  }, 90_000);
});

describe('batches', () => {
  it('sweep JSON, SIGINT: the runs done, each with its status, and the mark; exit 130', async () => {
    const out = join(dir, 'sweep.json');
    const r = await interrupt(
      ['sweep', 'decay.delta', '--vary', 'k=0:1:5000000', '--format', 'json', '--out', out, '--workers', '2'],
      'SIGINT',
      out,
    );
    expect(r.code, r.stderr).toBe(130);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as { rows: number[][]; status: string[]; interrupted: string };
    expect(doc.interrupted).toMatch(/^interrupted by SIGINT after \d+ of 5000000 runs$/);
    expect(doc.status).toHaveLength(doc.rows.length);
    expect(Number(/after (\d+)/.exec(doc.interrupted)![1])).toBe(doc.rows.length);
    // the rows are the first runs, in order
    doc.rows.slice(0, 100).forEach(([k], i) => expect(k).toBe(i / 4999999));
    expect(readdirSync(tmp)).toEqual([]);
  }, 90_000);

  it('montecarlo, SIGTERM: the summary of the runs done on stdout, the samples in the file, exit 143', async () => {
    const out = join(dir, 'samples.csv');
    const r = await interrupt(
      [
        'montecarlo',
        'decay.delta',
        '--sample',
        'k~normal(1,0.1)',
        '--samples',
        '5000000',
        '--report',
        'x',
        '--out',
        out,
      ],
      'SIGTERM',
      out,
    );
    expect(r.code, r.stderr).toBe(143);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    const note = lines.at(-1)!;
    expect(note).toMatch(/^# interrupted by SIGTERM after \d+ of 5000000 runs$/);
    const done = Number(/after (\d+)/.exec(note)![1]);
    expect(lines).toHaveLength(done + 2);
    expect(r.stdout).toContain(`${done} runs: ${done} ok`);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(`interrupted by SIGTERM after ${done} of 5000000 runs`);
  }, 90_000);
});
