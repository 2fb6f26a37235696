/**
 * A long schedule is never held whole: a tick every 1 to 1e7 is ten million instants. The
 * transform lists the first ones with a warning, and the command line (which checks the model
 * through the same report before a run) stays within a small heap.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel, transformReport } from '../src/index.js';
import { CLI, ensureCliBuilt } from './helpers.js';

const TICK = `independent t from 0 to 1e7
x' = 0
x(0) = 0
discrete n = 0
event tick every 1 do n := n + 1 end
`;

let dir = '';
beforeAll(() => {
  ensureCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ds-listing-'));
  writeFileSync(join(dir, 'tick.delta'), TICK);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the listing of a long schedule', () => {
  it('lists the first 1000 times of ten million, in order, and says there are more', () => {
    const report = transformReport(compileModel(TICK));
    const times = report.events[0].times;
    expect(times).toHaveLength(1000);
    expect(times.slice(0, 3)).toEqual([0, 1, 2]);
    expect(times[999]).toBe(999);
    expect(report.warnings).toContain('tick: more than 1000 times in the range; the first 1000 are listed');
  });

  it('a backward range lists them from its start, the order of the run', () => {
    const report = transformReport(
      compileModel(TICK.replace('from 0 to 1e7', 'from 10 to 0').replace('x(0)', 'x(10)')),
    );
    expect(report.events[0].times).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it('the command line runs the tick to its event limit in a 48 MB heap', () => {
    const r = spawnSync(
      process.execPath,
      ['--max-old-space-size=48', CLI, 'simulate', join(dir, 'tick.delta'), '--format', 'csv', '--events-only'],
      { encoding: 'utf8', maxBuffer: 1 << 26 },
    );
    // the event limit, with the flag that raises it: not a heap out of memory
    expect(r.stderr).toContain('more than 100000 events by t = 100000');
    expect(r.stderr).toContain('--max-events');
    expect(r.status).toBe(3);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('100000,0,100001');
  });
});
