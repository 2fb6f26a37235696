/**
 * Each run of a batch stands alone (issue 21, items 2 and 8): a run that throws fails alone,
 * with its message, and the others are kept.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../src/codegen/stages.js';
import { Simulator } from '../src/analytic/index.js';
import { parseReport, runChunk } from '../src/batch/index.js';
import { ensureCliBuilt, runCli } from './helpers.js';

let dir = '';
beforeAll(() => {
  ensureCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ds-runs-'));
}, 200_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The range ends at 1/k: k = 0 puts its end at infinity, which the simulator refuses by throwing.
const INFINITE_END = "parameter k = 1\nindependent t from 0 to 1/k\ny' = 1\ny(0) = 0\n";

describe('a run that throws fails alone (item 8)', () => {
  it('runChunk: status failed with the message for that run, exact values for the others', () => {
    const sim = new Simulator(compileModel(INFINITE_END, 'end.delta'));
    const r = runChunk(sim, parseReport('y, t'), {}, ['k'], Float64Array.from([0.5, 0, 2]));
    expect(r.status).toEqual(['ok', 'failed', 'ok']);
    expect(r.message[1]).toMatch(/end of the range/);
    // y(1/k) = 1/k exactly for a constant slope
    expect([r.values[1], r.values[5]]).toEqual([2, 0.5]);
    expect(Math.abs(r.values[0] - 2)).toBeLessThan(1e-12);
    expect(Math.abs(r.values[4] - 0.5)).toBeLessThan(1e-12);
    expect([r.values[2], r.values[3]]).toEqual([NaN, NaN]);
  });

  it('sweep with threads keeps every other run, exits 3 and names the failed run', () => {
    const file = join(dir, 'end.delta');
    writeFileSync(file, INFINITE_END);
    for (const workers of ['1', '2']) {
      const r = runCli([
        'sweep',
        file,
        '--vary',
        'k=0:2:201',
        '--report',
        'y',
        '--format',
        'json',
        '--workers',
        workers,
      ]);
      expect(r.status).toBe(3);
      expect(r.stderr).toMatch(/^deltastep: 1 of 201 runs failed; the first, run 0 \(k = 0\): .*end of the range/);
      const out = JSON.parse(r.stdout) as { rows: (number | null)[][]; status: string[] };
      expect(out.rows).toHaveLength(201);
      expect(out.status.filter((s) => s === 'ok')).toHaveLength(200);
      expect(out.rows[0][1]).toBeNull();
      for (const [k, y] of out.rows.slice(1) as number[][]) expect(Math.abs(y - 1 / k)).toBeLessThan(1e-9 / k);
    }
  });

  it('sweep --vary T=0:1:101 --method rk4: the runs with a range are all kept', () => {
    const file = join(dir, 'rk4.delta');
    writeFileSync(file, "parameter T = 1\nindependent t from 0 to T\ny' = 1\ny(0) = 0\n");
    const r = runCli(['sweep', file, '--vary', 'T=0:1:101', '--method', 'rk4', '--report', 'y', '--format', 'json']);
    expect(r.stderr).not.toMatch(/internal error/);
    const out = JSON.parse(r.stdout) as { rows: number[][]; status: string[] };
    expect(out.rows).toHaveLength(101);
    // the empty range (T = 0) may fail or give y = 0; every other run reaches y = T
    expect(out.status.slice(1).every((s) => s === 'ok')).toBe(true);
    for (const [T, y] of out.rows.slice(1)) expect(Math.abs(y - T)).toBeLessThan(1e-12);
    if (out.status[0] === 'ok') expect(out.rows[0][1]).toBe(0);
    expect(r.status).toBe(out.status[0] === 'ok' ? 0 : 3);
  });
});

// The tutorial's ball: runs with small e reach their Zeno point before t = 15, the others the end.
const BALL =
  "parameter g = 9.81, e = 0.8\nevent bounce when h falls\nh'' = -g - (1 + e)*h'*delta(t - bounce)\nh(0) = 10; h'(0) = 0\n";

describe('each run carries its status (item 2)', () => {
  it('sweep: a status column in text and CSV, the status list in JSON, a count by status, exit 4 for zeno', () => {
    const file = join(dir, 'ball.delta');
    writeFileSync(file, BALL);
    const args = ['sweep', file, '--vary', 'e=0.3:0.9:5', '--report', 't, h', '--to', '15'];
    const text = runCli(args);
    expect(text.status).toBe(4);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^e\s+t\s+h\s+status$/);
    expect(lines.slice(1, 6).map((l) => l.split(/\s+/).at(-1))).toEqual(['zeno', 'zeno', 'zeno', 'zeno', 'ok']);
    expect(lines.at(-1)).toBe('5 runs: 1 ok, 4 zeno');
    expect(text.stderr).toMatch(
      /^deltastep: 4 of 5 runs stopped at an accumulation of events \(zeno\) before the end; the first, run 0 \(e = 0\.3\): /,
    );
    const csv = runCli([...args, '--format', 'csv'])
      .stdout.trim()
      .split('\n');
    expect(csv[0]).toBe('e,t,h,status');
    expect(csv.slice(1).map((l) => l.split(',').at(-1))).toEqual(['zeno', 'zeno', 'zeno', 'zeno', 'ok']);
    const json = JSON.parse(runCli([...args, '--format', 'json']).stdout) as {
      status: string[];
      runs: object;
      rows: number[][];
    };
    expect(json.status).toEqual(['zeno', 'zeno', 'zeno', 'zeno', 'ok']);
    expect(json.runs).toEqual({ ok: 1, zeno: 4 });
    // the run that reached the end reports t = 15; the others where they stopped
    expect(json.rows[4][1]).toBe(15);
    for (const row of json.rows.slice(0, 4)) expect(row[1]).toBeLessThan(15);
  });

  it('montecarlo: the statistics are over the runs that reached the end unless --stats-over says otherwise', () => {
    const file = join(dir, 'ball.delta');
    writeFileSync(file, BALL);
    const args = [
      'montecarlo',
      file,
      '--sample',
      'e~uniform(0.3,0.9)',
      '--samples',
      '100',
      '--report',
      't',
      '--to',
      '15',
      '--format',
      'json',
    ];
    const byDefault = runCli(args);
    expect(byDefault.status).toBe(4);
    const d = JSON.parse(byDefault.stdout) as {
      report: { t: { mean: number; sd: number; n: number } };
      runs: { ok: number; zeno: number };
      statsOver: string[];
    };
    expect(d.runs.ok + d.runs.zeno).toBe(100);
    expect(d.runs.ok).toBeGreaterThan(0);
    expect(d.runs.zeno).toBeGreaterThan(0);
    // only runs that reached t = 15: the mean of t is exactly 15
    expect(d.report.t).toMatchObject({ mean: 15, sd: 0, n: d.runs.ok });
    expect(d.statsOver).toEqual(['ok', 'stopped']);
    const all = JSON.parse(runCli([...args, '--stats-over', 'all']).stdout) as {
      report: { t: { mean: number; n: number } };
    };
    expect(all.report.t.n).toBe(100);
    expect(all.report.t.mean).toBeLessThan(15);
    const zeno = JSON.parse(runCli([...args, '--stats-over', 'zeno']).stdout) as {
      report: { t: { n: number; max: number } };
    };
    expect(zeno.report.t.n).toBe(d.runs.zeno);
    expect(zeno.report.t.max).toBeLessThan(15);
    const text = runCli(args.slice(0, -2));
    expect(text.stdout).toContain(
      `100 runs: ${d.runs.ok} ok, ${d.runs.zeno} zeno; the statistics are over the runs with status ok, stopped (--stats-over)`,
    );
    const bad = runCli([...args, '--stats-over', 'ok,finished']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(
      /--stats-over ok,finished: 'finished' is not a status of a run; write some of ok, stopped, zeno, failed/,
    );
  });
});

describe('large batches stream (item 7)', () => {
  it('300000 samples: every one written in order, the same statistics with 1 or 2 threads', () => {
    const file = join(dir, 'decay.delta');
    writeFileSync(file, "parameter k = 1\nindependent t from 0 to 0.1\nx' = -k*x\nx(0) = 1\n");
    const out = (w: string) => join(dir, `s${w}.csv`);
    const args = (w: string) => [
      'montecarlo',
      file,
      '--sample',
      'k~normal(1,0.1)',
      '--samples',
      '300000',
      '--report',
      'x',
      '--format',
      'json',
      '--workers',
      w,
      '--out',
      out(w),
    ];
    const one = runCli(args('1'));
    const two = runCli(args('2'));
    expect(one.status).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const lines = readFileSync(out('2'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(300_001);
    expect(lines[1].startsWith('0,')).toBe(true);
    expect(lines[300_000].startsWith('299999,')).toBe(true);
    expect(readFileSync(out('1'), 'utf8')).toBe(readFileSync(out('2'), 'utf8'));
    // x(0.1) = exp(-0.1 k) with k ~ N(1, 0.1): the mean is exp(-0.1 + 0.00005) within sampling error
    const s = (JSON.parse(one.stdout) as { report: { x: { mean: number; sd: number; n: number } } }).report.x;
    expect(s.n).toBe(300_000);
    expect(Math.abs(s.mean - Math.exp(-0.1 + 0.5 * 0.01 * 0.01))).toBeLessThan((4 * s.sd) / Math.sqrt(300_000));
  }, 120_000);
});
