/**
 * The row limit holds in every output mode (issue 21, item 10): rows kept in the result,
 * rows streamed to a sink, and the command line's JSON and CSV. A run stops where it reaches
 * the limit, with a message that names the limit and the flag that raises it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { DEFAULTS } from '../src/driver/types.js';
import { ensureCliBuilt, runCli } from './helpers.js';

const SPRING = "x' = v\nv' = -x\nx(0) = 1; v(0) = 0\n";
let dir = '';
beforeAll(() => {
  ensureCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ds-rows-'));
  writeFileSync(join(dir, 'spring.delta'), SPRING);
}, 200_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the library', () => {
  it('a sink gets at most the default limit of rows, and a run to 1e9 stops there', () => {
    let rows = 0;
    let lastT = NaN;
    const r = simulate(SPRING, {
      to: 1e9,
      outputStep: 1e-3,
      sink: {
        row(row) {
          rows++;
          lastT = row[0];
        },
      },
    });
    expect(r.status).toBe('failed');
    expect(rows).toBe(DEFAULTS.maxRows);
    // the grid from 0 in steps of 1e-3: the last row written is number maxRows - 1
    expect(lastT).toBeCloseTo((DEFAULTS.maxRows - 1) * 1e-3, 6);
    expect(r.message).toMatch(
      /^more than 5000000 rows by t = 5000 \(the row limit, maxRows; --max-rows on the command line\)/,
    );
  }, 60_000);

  it('rows kept in the result stop at the limit too, without running on to the end', () => {
    const r = simulate(SPRING, { to: 1e9, outputStep: 1e-3, maxRows: 100 });
    expect(r.status).toBe('failed');
    expect(r.rows).toHaveLength(100);
    expect(r.message).toMatch(/more than 100 rows by t = 0\.1 /);
    // the run stopped within a step of the limit, far from 1e9
    expect(r.final.t).toBeLessThan(1);
  });

  it('a grid inside one long fixed step stops at the limit', () => {
    const r = simulate(SPRING, { to: 1e6, outputStep: 1e-6, method: 'rk4', step: 1e6, maxRows: 10 });
    expect(r.rows).toHaveLength(10);
    expect(r.status).toBe('failed');
  });
});

describe('the command line', () => {
  it.each(['csv', 'json'])('--format %s --max-rows 50: 50 rows, status failed, exit 3, the flag named', (format) => {
    const out = join(dir, `rows.${format}`);
    const r = runCli([
      'simulate',
      join(dir, 'spring.delta'),
      '--to',
      '1e9',
      '--output-step',
      '1e-3',
      '--format',
      format,
      '--max-rows',
      '50',
      '--out',
      out,
    ]);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(
      /spring\.delta: more than 50 rows by t = 0\.05 \(the row limit, maxRows; --max-rows on the command line\): ask for fewer rows/,
    );
    const text = readFileSync(out, 'utf8');
    if (format === 'csv') expect(text.trim().split('\n')).toHaveLength(51);
    else {
      const doc = JSON.parse(text) as { rows: number[][]; status: string; message: string };
      expect(doc.rows).toHaveLength(50);
      expect(doc.status).toBe('failed');
      expect(doc.message).toMatch(/--max-rows/);
    }
  });

  it('--max-rows must be a whole number', () => {
    const r = runCli(['simulate', join(dir, 'spring.delta'), '--to', '1', '--max-rows', '2.5']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--max-rows must be a whole number of at least 1, got 2\.5/);
  });
});
