/**
 * The ledger streams like the rows (issue 20, item 3, the command line's half): however many
 * events a run has, no output format holds their ledger entries in memory. Run with a 28 MB
 * heap, 1e5 events (whose entries, kept, do not fit: the text output did that and ran out of
 * memory) must pass in every format.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureCliBuilt } from './helpers.js';

let dir = '';
beforeAll(() => {
  ensureCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ds-ledger-'));
  writeFileSync(
    join(dir, 'tick.delta'),
    "discrete n = 0\nevent tick when c - 1 rises do c := 0; n := n + 1 end\nc' = 1\nc(0) = 0\n",
  );
}, 200_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(format: string): { status: number | null; stderr: string; out: string } {
  const out = join(dir, `ticks.${format}`);
  const r = spawnSync(
    process.execPath,
    [
      '--max-old-space-size=28',
      CLI,
      'simulate',
      'tick.delta',
      '--to',
      '100000',
      '--max-events',
      '1e6',
      '--events-only',
      '--format',
      format,
      '--out',
      out,
    ],
    { cwd: dir, encoding: 'utf8', timeout: 120_000 },
  );
  return { status: r.status, stderr: r.stderr, out };
}

describe('1e5 events in a 28 MB heap', () => {
  it('JSON: every entry is in the document', () => {
    const r = run('json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const doc = JSON.parse(readFileSync(r.out, 'utf8')) as { events: { t: number }[]; stats: { events: number } };
    expect(doc.events).toHaveLength(doc.stats.events);
    expect(doc.stats.events).toBeGreaterThanOrEqual(99_999);
  }, 120_000);

  it('text: the count, the first 20 and the last 20', () => {
    const r = run('text');
    expect(r.status).toBe(0);
    const text = readFileSync(r.out, 'utf8');
    // (99999 ticks before t = 1e5, and one at it where the run ends there: the analytic path)
    expect(text).toMatch(/ (99999|100000) events/);
    expect(text.match(/ tick /g)).toHaveLength(40);
    expect(text).toMatch(/\((99959|99960) more\)/);
  }, 120_000);

  it('CSV: the rows before and after each event', () => {
    const r = run('csv');
    expect(r.status).toBe(0);
    const lines = readFileSync(r.out, 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2 * 99_999);
  }, 120_000);
});
