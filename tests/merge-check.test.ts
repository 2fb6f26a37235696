/**
 * merge checks each shard file whole before merging (issue 21, item 5): a file that
 * contradicts itself or its settings is a usage error naming the file and the field, and
 * nothing is written.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCliBuilt, runCli } from './helpers.js';

let dir = '';
let model = '';
const files = { sweep: ['', ''], mc: ['', ''] };

beforeAll(() => {
  ensureCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ds-merge-'));
  model = join(dir, 'm.delta');
  // k < 0.2 makes the square root's argument negative before t = 1: those runs fail
  writeFileSync(model, "parameter k = 1\nindependent t from 0 to 1\ny' = sqrt(k - 0.2*t)\ny(0) = 0\n");
  const sweep = ['sweep', model, '--vary', 'k=0:1:10', '--report', 'y', '--format', 'json'];
  const mc = [
    'montecarlo',
    model,
    '--sample',
    'k~uniform(0,1)',
    '--samples',
    '12',
    '--report',
    'y',
    '--format',
    'json',
  ];
  for (const i of [0, 1]) {
    files.sweep[i] = join(dir, `sweep-${i + 1}.json`);
    files.mc[i] = join(dir, `mc-${i + 1}.json`);
    runCli([...sweep, '--shard', `${i + 1}/2`, '--out', files.sweep[i]]);
    runCli([...mc, '--shard', `${i + 1}/2`, '--out', files.mc[i]]);
  }
}, 200_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of a shard with one change made to its JSON; merged with the other shard. */
function tampered(kind: 'sweep' | 'mc', change: (doc: Record<string, unknown>) => void, text?: (t: string) => string) {
  const doc = JSON.parse(readFileSync(files[kind][0], 'utf8')) as Record<string, unknown>;
  change(doc);
  const file = join(dir, `bad-${kind}.json`);
  writeFileSync(file, text ? text(JSON.stringify(doc, null, 1)) : JSON.stringify(doc, null, 1));
  const r = runCli(['merge', file, files[kind][1]]);
  expect(r.status).toBe(2);
  expect(r.stdout).toBe('');
  return r.stderr;
}

describe('merge', () => {
  it('merges the untouched shards, failures and all', () => {
    for (const kind of ['sweep', 'mc'] as const) {
      const r = runCli(['merge', ...files[kind]]);
      expect(r.stderr).toMatch(/runs failed/);
      expect(r.status).toBe(3);
      JSON.parse(r.stdout);
    }
  });

  const rows = (d: Record<string, unknown>) => d.rows as unknown[][];
  const sweepCases: [string, (d: Record<string, unknown>) => void, RegExp][] = [
    [
      'a row that is not its run',
      (d) => (rows(d)[1][0] = 0.5),
      /rows\[1\]\[0\] is 0\.5 but run 1 of the sweep has k = 0\.111\d*: the row does not belong to these settings/,
    ],
    ['a null row', (d) => (rows(d)[2] = null as unknown as unknown[]), /rows\[2\] must be \[k, y\], got null/],
    ['"failures": 5', (d) => (d.failures = 5), /"failures" must be a list/],
    [
      'failures naming an ok run',
      (d) => (d.failures = [{ index: 4, message: 'x' }]),
      /failures\[0\] names run 4, whose status is not failed/,
    ],
    [
      'failures that miss one',
      (d) => (d.failures = (d.failures as unknown[]).slice(1)),
      /"failures" lists 1 run but 2 rows have status failed/,
    ],
    [
      '"total": 1e9',
      (d) => ((d.settings as Record<string, unknown>).total = 1e9),
      /settings\.vary must be .*"count": 1000000000/,
    ],
    [
      '"total": 1e20',
      (d) => ((d.settings as Record<string, unknown>).total = 1e20),
      /settings\.total must be a whole number of runs from 1 to 1000000000000, got 100000000000000000000/,
    ],
    [
      'a slice larger than a process runs',
      (d) => {
        const settings = d.settings as { total: number; vary: { count: number } };
        settings.total = settings.vary.count = 1e12;
        d.shard = { k: 1, n: 2, indices: [0, 5e11 - 1] };
      },
      /slice 1\/2 of 1000000000000 runs has 500000000000, more than one process runs \(10000000\)/,
    ],
    [
      'an unknown status',
      (d) => ((d.status as string[])[3] = 'fine'),
      /status\[3\] must be one of ok, stopped, zeno, failed, got "fine"/,
    ],
    [
      'a status list that is short',
      (d) => (d.status = (d.status as string[]).slice(1)),
      /"status" has 4 entries for 5 rows/,
    ],
    ['an index that is not its run', (d) => ((d.index as number[])[0] = 7), /index\[0\] must be 0, got 7/],
    [
      'shard indices of another slice',
      (d) => ((d.shard as Record<string, unknown>).indices = [0, 3]),
      /shard\.indices must be \[0, 4\] for slice 1\/2 of 10 runs, got \[0,3\]/,
    ],
    [
      'a report value that is a string',
      (d) => (rows(d)[3][1] = 'x'),
      /rows\[3\]\[1\] must be a number or null, got "x"/,
    ],
    [
      'an interrupted shard',
      (d) => (d.interrupted = 'interrupted by SIGTERM after 3 of 5 runs'),
      /the shard was interrupted by SIGTERM after 3 of 5 runs; run that slice again/,
    ],
    [
      'a wrong sha256',
      (d) => ((d.settings as Record<string, unknown>).sha256 = 'abc'),
      /settings\.sha256 must be a SHA-256 in hex, got "abc"/,
    ],
  ];
  it.each(sweepCases)('sweep: %s', (_what, change, message) => {
    const stderr = tampered('sweep', change);
    expect(stderr).toMatch(/^deltastep: merge .*bad-sweep\.json: /);
    expect(stderr).toMatch(message);
  });

  const mcCases: [string, (d: Record<string, unknown>) => void, RegExp][] = [
    [
      'a sample that is not the draw of its index',
      (d) => (rows(d)[0][1] = 0.5),
      /rows\[0\]\[1\] is 0\.5 but sample 0 of seed 1 draws k = 0\.\d+: the row does not belong to these settings/,
    ],
    [
      'statistics that are not those of the rows',
      (d) => (((d.report as Record<string, Record<string, number>>).y.mean as number) = 42),
      /"report" is not the statistics of its rows/,
    ],
    [
      'a sample count that is not the slice',
      (d) => (d.samples = 7),
      /"samples" must be 6, the runs of slice 1\/2, got 7/,
    ],
    ["a seed that is not the settings'", (d) => (d.seed = 2), /"seed" is 2 but settings\.seed is 1/],
    [
      'a distribution that is none',
      (d) => ((d.settings as { samples: { distribution: object }[] }).samples[0].distribution = { kind: 'gamma' }),
      /settings\.samples\[0\] must be/,
    ],
    ['a row too short', (d) => rows(d)[5].pop(), /rows\[5\] must be \[sample, k, y, status\]/],
    ['"runs" that miscount', (d) => (d.runs = { ok: 6 }), /"runs" is \{"ok":6\} but its rows count/],
  ];
  it.each(mcCases)('montecarlo: %s', (_what, change, message) => {
    const stderr = tampered('mc', change);
    expect(stderr).toMatch(/^deltastep: merge .*bad-mc\.json: /);
    expect(stderr).toMatch(message);
  });

  it('a file that is not JSON, or cut short, says where', () => {
    expect(
      tampered(
        'sweep',
        () => undefined,
        (t) => t.slice(0, 200),
      ),
    ).toMatch(/not JSON: .* at line \d+/);
    expect(
      tampered(
        'sweep',
        () => undefined,
        (t) => t.replace('"rows": [', '"rows": [,'),
      ),
    ).toMatch(/not JSON: unexpected ',' at line \d+;/);
    const r = runCli(['merge', join(dir, 'none.json'), files.sweep[1]]);
    expect(r.stderr).toMatch(/merge .*none\.json: no such file/);
  });
});
