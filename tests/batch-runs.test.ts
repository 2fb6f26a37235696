/**
 * Each run of a batch stands alone (issue 21, items 2 and 8): a run that throws fails alone,
 * with its message, and the others are kept.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../src/codegen/stages.js';
import { Simulator } from '../src/driver/index.js';
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
