/**
 * `deltastep sweep`, `montecarlo` and `merge` as a user runs them: `node dist/cli.js`, with
 * the worker threads of the built bundle. Numbers are C12's exact values
 * (tests/fixtures/reference/README.md, C12), not snapshots of our own output.
 */
import { execFile, execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spansDecades } from '../src/cli/sweep-writer.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');
const C12 = fileURLToPath(new URL('./fixtures/reference/models/c12.delta', import.meta.url));
const TIGHT = ['--rtol', '1e-10', '--atol', '1e-12'];
const EXACT_MEAN = 0.4232812592766656,
  EXACT_SD = 0.04228115105621;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built command line from a temporary directory (the worker must load from any cwd). */
function cli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: dir, maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

async function json(...args: string[]): Promise<Record<string, unknown>> {
  const r = await cli(...args, '--format', 'json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

let dir = '';

beforeAll(() => {
  // Build once if there is no bundle (a fresh clone); `npm run build` is the usual way.
  if (!existsSync(CLI) || !existsSync(join(ROOT, 'dist', 'sweep-worker.js')))
    execSync('npx tsup', { cwd: ROOT, stdio: 'ignore', timeout: 180_000 });
  dir = mkdtempSync(join(tmpdir(), 'deltastep-batch-'));
}, 200_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('sweep', () => {
  it("C12 task b: n(e) = 3, 6, 25 at e = 1, 0.5, 0.18; x4'(0.5) = 27/64", async () => {
    // e = 1 - 0.02 k: k = 25 is 0.5, k = 41 is 0.18
    const out = await json('sweep', C12, '--vary', 'e=1:0.18:42', '--report', "n, x4'", ...TIGHT);
    expect(out.parameter).toBe('e');
    expect(out.columns).toEqual(['e', 'n', "x4'"]);
    const rows = out.rows as number[][];
    expect(rows).toHaveLength(42);
    expect(rows[0].slice(0, 2)).toEqual([1, 3]);
    expect(rows[25][0]).toBeCloseTo(0.5, 14);
    expect(rows[25][1]).toBe(6);
    expect(Math.abs(rows[25][2] - 27 / 64)).toBeLessThan(1e-10);
    expect(rows[41].slice(0, 2)).toEqual([0.18, 25]);
  });

  it('C12 task c: v4 = ((1+e)/2)^3 for e >= 2 - sqrt(3) across a sweep', async () => {
    const out = await json('sweep', C12, '--vary', 'e=0.27:1:30', '--report', "x4'", ...TIGHT);
    for (const [e, v4] of out.rows as number[][]) expect(Math.abs(v4 - ((1 + e) / 2) ** 3)).toBeLessThan(1e-9);
  });

  it('gives identical JSON with 1, 2 and 3 workers', async () => {
    const args = ['sweep', C12, '--vary', 'e=1:0.18:300', '--report', "n, x4'", ...TIGHT, '--format', 'json'];
    const [a, b, c] = await Promise.all([
      cli(...args, '--workers', '1'),
      cli(...args, '--workers', '2'),
      cli(...args, '--workers', '3'),
    ]);
    expect(a.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    expect(c.stdout).toBe(a.stdout);
    // not a terminal: no progress bar on stderr
    expect(a.stderr + b.stderr + c.stderr).toBe('');
  });

  it('reports every final value without --report; CSV and text tables', async () => {
    const all = await json('sweep', C12, '--vary', 'e=1:0.5:2', ...TIGHT);
    expect(all.columns).toEqual(['e', 'x1', "x1'", 'x2', "x2'", 'x3', "x3'", 'x4', "x4'", 'n']);
    const csv = await cli('sweep', C12, '--vary', 'e=1:0.5:2', '--report', 'n', ...TIGHT, '--format', 'csv');
    // each run with its status (issue 21, item 2)
    expect(csv.stdout).toBe('e,n,status\n1,3,ok\n0.5,6,ok\n');
    const text = await cli('sweep', C12, '--vary', 'e=1:0.5:2', '--report', 'n', ...TIGHT);
    expect(text.stdout.split('\n')[0]).toMatch(/^e\s+n\s+status$/);
    expect(text.stdout.endsWith('\n2 runs: 2 ok\n')).toBe(true);
  });

  it('writes a plot of each reported value against the parameter', async () => {
    const svg = join(dir, 'n.svg');
    const r = await cli(
      'sweep',
      C12,
      '--vary',
      'e=1:0.18:20',
      '--report',
      'n',
      ...TIGHT,
      '--format',
      'csv',
      '--out',
      join(dir, 'n.csv'),
      '--plot',
      svg,
    );
    expect(r.code).toBe(0);
    const text = readFileSync(svg, 'utf8');
    expect(text).toContain('<svg');
    expect(text).toContain('Spheres: n against e');
  });

  it('chooses a log value axis when a value spans more than two decades (and all are positive)', () => {
    expect(spansDecades([[3, 6, 25, 1263]])).toBe(true);
    expect(spansDecades([[3, 6, 25]])).toBe(false);
    expect(spansDecades([[0, 1, 1000]])).toBe(false);
    expect(
      spansDecades([
        [0.25, 1],
        [1, 500],
      ]),
    ).toBe(true);
  });

  it('keeps the rows of failed runs, exits 3 and names how many failed and the first', async () => {
    const model = join(dir, 'fail.delta');
    writeFileSync(model, "model Fails\nindependent t from 0 to 1\nparameter a = 2\ny' = sqrt(a - t)\ny(0) = 0\n");
    const r = await cli('sweep', model, '--vary', 'a=0.5:2:4', '--report', 'y', '--format', 'json');
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^deltastep: 1 of 4 runs failed; the first, run 0 \(a = 0\.5\): the right-hand side .*NaN/,
    );
    const out = JSON.parse(r.stdout) as { rows: number[][]; status: string[]; failures: { index: number }[] };
    expect(out.rows).toHaveLength(4);
    expect(out.status).toEqual(['failed', 'ok', 'ok', 'ok']);
    expect(out.failures.map((f) => f.index)).toEqual([0]);
    // Failures spread over the whole range, through worker threads: the same rows, statuses
    // and messages (which come back from the workers) as in one thread.
    const spread = join(dir, 'spread.delta');
    writeFileSync(
      spread,
      "model Spread\nindependent t from 0 to 1\nparameter a = 2\ny' = sqrt(sin(1000*a) + 0.5 - t)\ny(0) = 0\n",
    );
    const args = ['sweep', spread, '--vary', 'a=0.5:2:400', '--report', 'y', '--format', 'json'];
    const [one, two] = await Promise.all([cli(...args, '--workers', '1'), cli(...args, '--workers', '2')]);
    expect(one.code).toBe(3);
    expect(two.code).toBe(3);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toBe(one.stderr);
    const failed = (JSON.parse(one.stdout) as { failures: unknown[] }).failures.length;
    expect(failed).toBeGreaterThan(100);
    expect(failed).toBeLessThan(300);
  });
});

describe('arrays in batches: elements varied and reported, N set from outside', () => {
  const ROW = join(ROOT, 'bench', 'w5', 'row.delta');
  it('sweeps an element of an array parameter and reports elements, with the model written out for --set N', async () => {
    const args = [
      'sweep',
      ROW,
      '--set',
      'N=8',
      '--vary',
      'pool[ 3 ]=0.1:0.5:3',
      '--report',
      'hits, x[1], x[8] - x[1]',
      '--to',
      '5',
      '--quiet',
    ];
    const one = await json(...args, '--workers', '1');
    const two = await json(...args, '--workers', '2');
    expect(two).toEqual(one);
    expect(one.columns).toEqual(['pool[3]', 'hits', 'x[1]', 'x[8] - x[1]']);
    const { simulate } = await import('../src/index.js');
    const text = readFileSync(ROW, 'utf8');
    for (const row of one.rows as number[][]) {
      const r = simulate(text, { set: { N: 8, 'pool[3]': row[0] }, to: 5 });
      expect(row.slice(1)).toEqual([r.final.hits, r.final['x[1]'], r.final['x[8]'] - r.final['x[1]']]);
    }
  });

  it('refuses to vary a structural parameter, and names elements that do not exist', async () => {
    const n = await cli('sweep', ROW, '--vary', 'N=2:8:4', '--quiet');
    expect(n.code).toBe(2);
    expect(n.stderr).toBe(
      "deltastep: 'N' sets the shape of RowArray (a range or an index uses it): each value would be another model, so it cannot be varied in one batch; run the batch once per value with --set N=...\n",
    );
    const x = await cli('sweep', ROW, '--set', 'N=8', '--vary', 'e=0.5:1:2', '--report', 'x[2]', '--quiet');
    expect(x.code).toBe(2);
    expect(x.stderr).toBe("deltastep: --report 'x[2]': 'x[2]' is not an element of x: its elements are x[1], x[8]\n");
  });
});

describe('montecarlo', () => {
  const MC = ['montecarlo', C12, '--sample', 'e~normal(0.5,0.05)', '--report', "x4'", ...TIGHT];

  it('C12 task c, 1000 samples: mean and sd of v4 agree with the exact values within sampling error', async () => {
    const out = await json(...MC, '--samples', '1000', '--seed', '1');
    expect(out.samples).toBe(1000);
    expect(out.seed).toBe(1);
    const s = (out.report as Record<string, { mean: number; sd: number; ci95: number[]; min: number; max: number }>)[
      "x4'"
    ];
    // standard errors: of the mean sd/sqrt(n) = 0.0013; of the sd about sd/sqrt(2n) = 0.00095.
    // Seed 1's e sample itself has an sd 2.9 standard errors above 0.05 (the generator's sd
    // z-scores over 400 seeds are N(0,1)), hence 4 standard errors for the sd.
    expect(Math.abs(s.mean - EXACT_MEAN)).toBeLessThan((3 * EXACT_SD) / Math.sqrt(1000));
    expect(Math.abs(s.sd - EXACT_SD)).toBeLessThan((4 * EXACT_SD) / Math.sqrt(2000));
    expect(s.ci95[0]).toBeLessThan(s.mean);
    expect(s.ci95[1]).toBeGreaterThan(s.mean);
    expect(s.min).toBeLessThan(s.mean);
    expect(s.max).toBeGreaterThan(s.mean);
  });

  it('the same seed gives identical numbers, with 1 or 2 workers; another seed different ones', async () => {
    const [a, b, c] = await Promise.all([
      cli(...MC, '--samples', '400', '--seed', '5', '--format', 'json', '--workers', '1'),
      cli(...MC, '--samples', '400', '--seed', '5', '--format', 'json', '--workers', '2'),
      cli(...MC, '--samples', '400', '--seed', '6', '--format', 'json', '--workers', '2'),
    ]);
    expect(a.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    const mean = (r: Run) => (JSON.parse(r.stdout) as { report: Record<string, { mean: number }> }).report["x4'"].mean;
    expect(mean(c)).not.toBe(mean(a));
  });

  it('--out writes every sample (CSV or JSON by extension); the summary stays on stdout', async () => {
    const csv = join(dir, 'samples.csv'),
      jsonFile = join(dir, 'samples.json');
    const r = await cli(...MC, '--samples', '50', '--format', 'json', '--out', csv);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { samples: number; report: object };
    expect(summary.samples).toBe(50);
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    expect(lines[0]).toBe("sample,e,x4',status");
    expect(lines).toHaveLength(51);
    await cli(...MC, '--samples', '50', '--format', 'json', '--out', jsonFile);
    const file = JSON.parse(readFileSync(jsonFile, 'utf8')) as {
      columns: string[];
      rows: (number | string)[][];
      report: object;
    };
    expect(file.columns).toEqual(['sample', 'e', "x4'", 'status']);
    expect(file.rows).toHaveLength(50);
    expect(file.report).toEqual(summary.report);
    // v4 = ((1+e)/2)^3 sample by sample (all these e are above 2 - sqrt(3))
    for (const [i, e, v4, status] of file.rows as [number, number, number, string][]) {
      expect(status).toBe('ok');
      expect(i).toBeGreaterThanOrEqual(0);
      if (e >= 2 - Math.sqrt(3)) expect(Math.abs(v4 - ((1 + e) / 2) ** 3)).toBeLessThan(1e-9);
    }
  });

  it('writes a histogram of the first reported value with its mean', async () => {
    const svg = join(dir, 'hist.svg');
    const r = await cli(...MC, '--samples', '100', '--plot', svg);
    expect(r.code).toBe(0);
    const text = readFileSync(svg, 'utf8');
    expect(text).toContain('<svg');
    expect(text).toMatch(/mean 0\.4\d+/);
  });
});

describe('--shard and merge', () => {
  it('sweep: shards 1/3, 2/3, 3/3 merge into exactly the unsharded output', async () => {
    const args = ['sweep', C12, '--vary', 'e=1:0.18:100', '--report', "n, x4'", ...TIGHT, '--format', 'json'];
    const whole = await cli(...args);
    const files = [1, 2, 3].map((k) => join(dir, `sweep-${k}.json`));
    const shards = await Promise.all(files.map((f, i) => cli(...args, '--shard', `${i + 1}/3`, '--out', f)));
    for (const s of shards) expect(s.code).toBe(0);
    const one = JSON.parse(readFileSync(files[1], 'utf8')) as { shard: object; index: number[]; rows: unknown[] };
    expect(one.shard).toEqual({ k: 2, n: 3, indices: [33, 65] });
    expect(one.index[0]).toBe(33);
    expect(one.rows).toHaveLength(33);
    // in any order
    const merged = await cli('merge', files[2], files[0], files[1]);
    expect(merged.code).toBe(0);
    expect(merged.stdout).toBe(whole.stdout);
    const csv = await cli('merge', ...files, '--format', 'csv');
    const wholeCsv = await cli(
      'sweep',
      C12,
      '--vary',
      'e=1:0.18:100',
      '--report',
      "n, x4'",
      ...TIGHT,
      '--format',
      'csv',
    );
    expect(csv.stdout).toBe(wholeCsv.stdout);
  });

  it('montecarlo: shards merge into the unsharded statistics and samples', async () => {
    const args = [
      'montecarlo',
      C12,
      '--sample',
      'e~normal(0.5,0.05)',
      '--samples',
      '150',
      '--seed',
      '3',
      '--report',
      "n, x4'",
      ...TIGHT,
      '--format',
      'json',
    ];
    const wholeSamples = join(dir, 'mc-whole.json'),
      mergedSamples = join(dir, 'mc-merged.json');
    const whole = await cli(...args, '--out', wholeSamples);
    const files = [1, 2, 3].map((k) => join(dir, `mc-${k}.json`));
    await Promise.all(files.map((f, i) => cli(...args, '--shard', `${i + 1}/3`, '--out', f)));
    const shard = JSON.parse(readFileSync(files[0], 'utf8')) as { rows: unknown[][]; samples: number };
    expect(shard.rows).toHaveLength(50);
    expect(shard.samples).toBe(50);
    const merged = await cli('merge', ...files, '--out', mergedSamples);
    expect(merged.code).toBe(0);
    expect(merged.stdout).toBe(whole.stdout);
    expect(readFileSync(mergedSamples, 'utf8')).toBe(readFileSync(wholeSamples, 'utf8'));
    // a shard without --out carries its samples on stdout
    const stdoutShard = JSON.parse((await cli(...args, '--shard', '3/3')).stdout) as { rows: unknown[][] };
    expect(stdoutShard.rows).toEqual(JSON.parse(readFileSync(files[2], 'utf8')).rows);
  });

  it('merge refuses missing, duplicate and mismatched shards (exit 2)', async () => {
    const args = ['sweep', C12, '--vary', 'e=1:0.18:20', '--report', 'n', ...TIGHT, '--format', 'json'];
    const [a, b, other] = [join(dir, 'm-1.json'), join(dir, 'm-2.json'), join(dir, 'm-other.json')];
    await Promise.all([
      cli(...args, '--shard', '1/2', '--out', a),
      cli(...args, '--shard', '2/2', '--out', b),
      cli(
        'sweep',
        C12,
        '--vary',
        'e=1:0.18:20',
        '--report',
        'n',
        '--rtol',
        '1e-8',
        '--format',
        'json',
        '--shard',
        '2/2',
        '--out',
        other,
      ),
    ]);
    const missing = await cli('merge', a);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/runs 10-19 of 0-19 are in none of the files/);
    const twice = await cli('merge', a, a, b);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/run 0 is in both .*m-1\.json and .*m-1\.json/);
    const mismatch = await cli('merge', a, other);
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toMatch(/are shards of different batches: they differ in options/);
    const whole = join(dir, 'whole.json');
    await cli(...args, '--out', whole);
    const notShard = await cli('merge', whole);
    expect(notShard.code).toBe(2);
    expect(notShard.stderr).toMatch(/not the output of a shard/);
  });
});

describe.concurrent('bad input: exit 2 with a message that names the flag', () => {
  const cases: [string[], RegExp][] = [
    [['sweep', C12, '--vary', 'e=1:0.18'], /--vary 'e=1:0\.18': write NAME=FROM:TO:COUNT/],
    [['sweep', C12, '--vary', 'q=0:1:3'], /'q' is not a parameter or unknown of Spheres; they are: e/],
    [['sweep', C12, '--vary', 'e=0:1:3', '--report', 'x9'], /--report 'x9': 'x9' is not a final value of Spheres/],
    [
      ['montecarlo', C12, '--sample', 'e~gamma(1,2)', '--report', 'n'],
      /--sample 'e~gamma\(1,2\)': write NAME~normal\(MEAN,SD\) or NAME~uniform\(A,B\)/,
    ],
    [
      ['montecarlo', C12, '--sample', 'e~normal(0.5,0.05)', '--samples', '0', '--report', 'n'],
      /--samples must be a whole number of at least 1, got 0/,
    ],
    [['montecarlo', C12, '--sample', 'e~normal(0.5,0.05)'], /montecarlo needs --report/],
    [['sweep', C12, '--vary', 'e=0:1:3', '--shard', '4/3'], /--shard 4\/3: K must be from 1 to N/],
    [['sweep', C12, '--vary', 'e=0:1:3', '--shard', '1/4'], /--shard 1\/4: 4 slices of only 3 run\(s\)/],
    [['sweep', C12, '--vary', 'e=0:1:3', '--workers', '0'], /--workers must be a whole number of at least 1, got 0/],
  ];
  it.each(cases)('%j', async (args, message) => {
    const r = await cli(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
