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
  // a tick whose period is 1e-3 only at k = 0.1 (run 10 of k=0:1:101, which then runs on and on)
  // and at least 10 elsewhere: one thread stays in run 10 while another finishes later runs
  writeFileSync(
    join(dir, 'slow.delta'),
    "parameter k = 0\nindependent t from 0 to 100000\ndiscrete n = 0\nevent tick when c - (0.001 + 1000*abs(k - 0.1)) rises do c := 0; n := n + 1 end\nc' = 1\nc(0) = 0\n",
  );
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
    // (with an output file, afterMs counts from its first bytes: a loaded machine can take
    // longer than afterMs to start the run, and a signal before any row tests nothing)
    let started = out ? NaN : Date.now();
    const poll = setInterval(() => {
      if (started !== started && out && existsSync(out) && statSync(out).size > 0) started = Date.now();
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

describe('simulate, leftovers of issue 21 (item 4)', () => {
  it('--plot with --out: the plot of what was computed, marked interrupted, and the CSV; exit 130', async () => {
    const out = join(dir, 'pc.csv'),
      plot = join(dir, 'p.svg');
    const r = await interrupt([...long('csv'), '--plot', plot, '--out', out], 'SIGINT', out);
    expect(r.code, r.stderr).toBe(130);
    const note = readFileSync(out, 'utf8').trimEnd().split('\n').at(-1)!;
    const at = /^# interrupted by SIGINT at t = ([\d.e+]+)$/.exec(note)![1];
    expect(r.stderr).toBe(
      `deltastep: interrupted by SIGINT at t = ${at}; ${out} holds what was computed (status interrupted)\n`,
    );
    const svg = readFileSync(plot, 'utf8');
    expect(svg).toContain(`(interrupted): interrupted by SIGINT at t = ${at}`);
    expect(readdirSync(tmp)).toEqual([]);
  }, 90_000);

  it('JSON, events only: final is the last row, and the last event is the last row pair (ten signals)', async () => {
    // (rows only before and after each event: a signal at any row lands next to an event)
    for (let i = 0; i < 10; i++) {
      const out = join(dir, `e${i}.json`);
      const r = await interrupt(
        [
          'simulate',
          'tick.delta',
          '--to',
          '1e9',
          '--max-events',
          '1e9',
          '--events-only',
          '--format',
          'json',
          '--out',
          out,
        ],
        'SIGTERM',
        out,
        40 * i,
      );
      expect(r.code, r.stderr).toBe(143);
      const doc = JSON.parse(readFileSync(out, 'utf8')) as {
        columns: string[];
        rows: number[][];
        events: { t: number; post: Record<string, number> }[];
        final: Record<string, number>;
      };
      const last = doc.rows.at(-1)!;
      expect(doc.final).toEqual(Object.fromEntries(doc.columns.map((c, k) => [c, last[k]])));
      const event = doc.events.at(-1)!;
      // the rows end with the event's after-row, or with the before-row of one not yet fired
      if (event.t === last[0]) expect(doc.final).toEqual(event.post);
      else expect(last[0]).toBeGreaterThan(event.t);
      expect(doc.rows.filter((row) => row[0] <= event.t)).toHaveLength(2 * doc.events.length + 1);
    }
  }, 120_000);
});

describe('batches, leftovers of issue 21 (item 4)', () => {
  it('sweep on two threads: exactly the first runs, no gap, though a later chunk was done; a plot marked', async () => {
    const out = join(dir, 'gap.json'),
      plot = join(dir, 'gap.svg');
    const args = ['sweep', 'slow.delta', '--vary', 'k=0:1:101', '--report', 'n', '--max-events', '1e9'];
    const r = await interrupt(
      [...args, '--workers', '2', '--format', 'json', '--out', out, '--plot', plot],
      'SIGINT',
      undefined,
      2500,
    );
    expect(r.code, r.stderr).toBe(130);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as { rows: number[][]; status: string[]; interrupted: string };
    // run 10 never ends: runs 0 to 9, each ok, whatever the other thread did meanwhile
    expect(doc.interrupted).toBe('interrupted by SIGINT after 10 of 101 runs');
    expect(doc.rows.map((row) => row[0])).toEqual(Array.from({ length: 10 }, (_, i) => i / 100));
    expect(doc.status).toEqual(Array<string>(10).fill('ok'));
    expect(readFileSync(plot, 'utf8')).toContain('interrupted by SIGINT after 10 of 101 runs');
    expect(readdirSync(tmp)).toEqual([]);
  }, 90_000);

  it('montecarlo --plot, SIGTERM: the histogram of the runs done, marked', async () => {
    const out = join(dir, 'mc.csv'),
      plot = join(dir, 'mc.svg');
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
        '--plot',
        plot,
      ],
      'SIGTERM',
      out,
    );
    expect(r.code, r.stderr).toBe(143);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    const note = lines.at(-1)!.slice(2);
    const done = Number(/after (\d+)/.exec(note)![1]);
    // every sample from 0 on, none left out
    expect(lines.slice(1, -1).map((l) => Number(l.split(',')[0]))).toEqual(Array.from({ length: done }, (_, i) => i));
    expect(readFileSync(plot, 'utf8')).toContain(note);
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
