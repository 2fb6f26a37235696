/**
 * Wrong answers with status ok and lost results found at the command line's and the
 * library's layers in the third round: each with the exact answer or the whole message it
 * gets now.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchInputError, parseSample, parseVary, sampleValues, statistics, sweepValues } from '../src/batch/index.js';
import { main } from '../src/cli/main.js';
import { checkDistinct } from '../src/cli/out-file.js';
import { CLI, ensureCliBuilt } from './helpers.js';
import { shoot } from '../src/index.js';
import { parseOutputTimes } from '../src/cli/output-times.js';

/** The command line in this process: its exit code and what it wrote on stderr. */
async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  const chunks: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  (process.stderr as { write: unknown }).write = (s: string) => {
    chunks.push(String(s));
    return true;
  };
  try {
    return { code: await main(args), stderr: chunks.join('') };
  } finally {
    (process.stderr as { write: unknown }).write = write;
  }
}

let dir = '';
const KICK = "parameter k = 1\ny'' = -k*y + 2*delta(t - 1)\ny(0) = 0; y'(0) = 0\n";
/** y(5) of the kicked oscillator: 2 sin(4 sqrt k) / sqrt k */
const kicked = (k: number) => (2 * Math.sin(4 * Math.sqrt(k))) / Math.sqrt(k);
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ds-round3-'));
  writeFileSync(join(dir, 'kick.delta'), KICK);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function batchError(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    if (err instanceof BatchInputError) return err.message;
    throw err;
  }
  throw new Error('no error');
}

describe('--vary and --sample read their numbers as the other flags do', () => {
  it.each([
    // a blank was read as 0: `k=1: :3` swept k over 1, 0.5, 0 with status ok
    ['k=1: :3', 'TO'],
    ['k= :1:3', 'FROM'],
    // hexadecimal and Infinity are not decimal numbers (--from 0x10 is a usage error too)
    ['k=0x1:4:2', 'FROM'],
    ['k=1:Infinity:2', 'TO'],
  ])('--vary %s is refused', (text) => {
    expect(batchError(() => parseVary(text))).toBe(
      `--vary '${text}': FROM and TO must be numbers written in decimal, such as 10, 0.5 or 1e-8`,
    );
  });

  it('a COUNT in hexadecimal is not a whole number', () => {
    expect(batchError(() => parseVary('k=1:4:0x2'))).toBe(
      "--vary 'k=1:4:0x2': COUNT must be a whole number of at least 1",
    );
  });

  it('decimal numbers in every spelling still sweep exactly', () => {
    const v = parseVary(' k = .5 : 4. : 8 ');
    expect(v).toEqual({ name: 'k', from: 0.5, to: 4, count: 8 });
    // value k of 8 from 0.5 to 4: 0.5 + 3.5 k/7 = 0.5 (k + 1), exactly in binary
    expect(sweepValues(v.from, v.to, v.count)).toEqual([0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4]);
    expect(parseVary('k=1e0:-2E-1:2')).toEqual({ name: 'k', from: 1, to: -0.2, count: 2 });
  });

  it.each([
    // uniform(-1, ) drew from [-1, 0] and normal(1, ) had SD 0, with status ok
    'k~uniform(-1, )',
    'k~normal(1, )',
    'k~uniform(0x1,4)',
    'k~normal(NaN,1)',
  ])('--sample %s is refused', (text) => {
    expect(batchError(() => parseSample(text))).toBe(
      `--sample '${text}': the arguments must be numbers written in decimal, such as 10, 0.5 or 1e-8`,
    );
  });

  it('a uniform written with blanks draws within its bounds', () => {
    const s = parseSample('k~uniform( 1 , 2 )');
    expect(s.distribution).toEqual({ kind: 'uniform', a: 1, b: 2 });
    const draws = sampleValues(3, 0, 1000, [s]);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...draws)).toBeLessThan(2);
  });
});

describe('an output is never an input, nor the other output', () => {
  const at = (f: string) => join(dir, f);
  const shard = (k: number) =>
    cli([
      'sweep',
      at('kick.delta'),
      '--to',
      '5',
      '--vary',
      'k=1:4:4',
      '--report',
      'y',
      '--format',
      'json',
      '--shard',
      `${k}/2`,
      '--workers',
      '1',
      '--quiet',
      '--out',
      at(`s${k}.json`),
    ]);

  it('merge --out on one of its shards keeps the shard (it was emptied, then removed)', async () => {
    expect((await shard(1)).code).toBe(0);
    expect((await shard(2)).code).toBe(0);
    const before = readFileSync(at('s1.json'), 'utf8');
    const r = await cli(['merge', at('s1.json'), at('s2.json'), '--out', at('s1.json')]);
    expect(r.stderr).toBe(
      `deltastep: --out ${at('s1.json')} is one of the files to merge: writing there would destroy it; give --out another path\n`,
    );
    expect(r.code).toBe(2);
    expect(readFileSync(at('s1.json'), 'utf8')).toBe(before);
    // to another path, the merge is the whole sweep: y(5) = 2 sin(4 sqrt k)/sqrt k at k = 1..4
    expect((await cli(['merge', at('s1.json'), at('s2.json'), '--out', at('all.json')])).code).toBe(0);
    const rows = (JSON.parse(readFileSync(at('all.json'), 'utf8')) as { rows: number[][] }).rows;
    expect(rows.map((r) => r[0])).toEqual([1, 2, 3, 4]);
    for (const [k, y] of rows) expect(Math.abs(y - kicked(k))).toBeLessThan(1e-14);
  });

  it('--out on the model file, by any name, keeps the model', async () => {
    symlinkSync(at('kick.delta'), at('link.delta'));
    for (const [model, out] of [
      ['kick.delta', 'kick.delta'],
      ['link.delta', 'kick.delta'],
    ]) {
      const r = await cli(['simulate', at(model), '--to', '5', '--format', 'csv', '--out', at(out)]);
      expect(r.stderr).toBe(
        `deltastep: --out ${at(out)} is ${model === out ? '' : `${at(model)}, `}the model file: writing there would destroy it; give --out another path\n`,
      );
      expect(r.code).toBe(2);
      expect(readFileSync(at('kick.delta'), 'utf8')).toBe(KICK);
    }
  });

  it('a device or a terminal named twice is no collision, nor is a model that does not exist', () => {
    // (at a terminal, /dev/stdin and /dev/stdout are one device: simulate /dev/stdin --out /dev/stdout)
    expect(() => checkDistinct(['/dev/null'], [{ flag: '--out', path: '/dev/null' }], 'the model file')).not.toThrow();
    // (the missing model is said where it is read: no such file)
    expect(() =>
      checkDistinct([at('missing.delta')], [{ flag: '--out', path: at('missing.delta') }], 'the model file'),
    ).not.toThrow();
    expect(() =>
      checkDistinct([at('kick.delta')], [{ flag: '--out', path: at('kick.delta') }], 'the model file'),
    ).toThrow(/is the model file: writing there would destroy it/);
  });

  it('--out and --plot on one file: refused before the run (the plot replaced the rows)', async () => {
    const r = await cli([
      'simulate',
      at('kick.delta'),
      '--to',
      '5',
      '--format',
      'json',
      '--out',
      at('x.svg'),
      '--plot',
      at('x.svg'),
    ]);
    expect(r.stderr).toBe(
      `deltastep: --out ${at('x.svg')} and --plot ${at('x.svg')} are the same file: one would write over the other; give them different paths\n`,
    );
    expect(r.code).toBe(2);
  });
});

describe('statistics of one run claim no certainty', () => {
  it('one value: no sample deviation, no interval (sd 0 and a 95% interval of zero width before)', () => {
    const s = statistics([2.5, NaN]);
    expect(s.n).toBe(1);
    expect([s.mean, s.min, s.max]).toEqual([2.5, 2.5, 2.5]);
    expect(s.sd).toBeNaN();
    expect(s.ci95[0]).toBeNaN();
    expect(s.ci95[1]).toBeNaN();
  });

  it('two equal values do have sd 0, and two values the textbook interval', () => {
    expect(statistics([3, 3])).toEqual({ mean: 3, sd: 0, ci95: [3, 3], min: 3, max: 3, n: 2 });
    // 1 and 2: mean 1.5, sd sqrt(1/2), half-width 1.959963984540054 sqrt(1/2)/sqrt(2) = 0.979981992270027
    const s = statistics([1, 2]);
    expect(s.sd).toBe(Math.SQRT1_2);
    expect(Math.abs(s.ci95[1] - 1.5 - 0.979981992270027)).toBeLessThan(1e-15);
  });

  it('montecarlo --samples 1 writes null for them in JSON', async () => {
    const r = await cli([
      'montecarlo',
      join(dir, 'kick.delta'),
      '--to',
      '5',
      '--sample',
      'k~uniform(1,2)',
      '--samples',
      '1',
      '--report',
      'y',
      '--format',
      'json',
      '--workers',
      '1',
      '--quiet',
      '--out',
      join(dir, 'one-samples.json'),
    ]);
    expect(r.code).toBe(0);
    const samples = JSON.parse(readFileSync(join(dir, 'one-samples.json'), 'utf8')) as {
      rows: [number, number, number, string][];
      report: { y: { mean: number; sd: null; ci95: [null, null]; n: number } };
    };
    const [, k, y] = samples.rows[0];
    expect(Math.abs(y - kicked(k))).toBeLessThan(1e-14);
    expect(samples.report.y).toEqual({ mean: y, sd: null, ci95: [null, null], min: y, max: y, n: 1 });
  });
});

describe('--output-times FROM:TO:COUNT over the widest ranges', () => {
  it('-1e308:1e308:5 is five finite times (TO - FROM overflowed: "must be an array of finite numbers")', () => {
    // exactly -1e308, -5e307, 0, 5e307, 1e308: each a product of an end and 1/4, 1/2 or 3/4
    expect(parseOutputTimes('-1e308:1e308:5')).toEqual([-1e308, -5e307, 0, 5e307, 1e308]);
    const max = Number.MAX_VALUE;
    const widest = parseOutputTimes(`${-max}:${max}:3`);
    expect(widest).toEqual([-max, 0, max]);
  });

  it('a range within double precision keeps its values bit for bit', () => {
    expect(parseOutputTimes('0:1:5')).toEqual([0, 0.25, 0.5, 0.75, 1]);
    // (the doubles nearest the decimals 1 - 0.205 k: round 14 took the grid on its decimals)
    expect(parseOutputTimes('1:0.18:5')).toEqual([1, 0.795, 0.59, 0.385, 0.18]);
  });
});

describe('shooting past an accumulation of events', () => {
  // h(1) = 10 + v0 - g/2 before the first bounce (at 2.5 s), so h(1) = 8 needs v0 = g/2 - 2
  const BALL = `model BallShoot
independent t from 0 to 20
parameter g = 9.81, e = 0.8
unknown v0 = 1
event bounce when h falls
h'' = -g - (1 + e)*h'*delta(t - bounce)
h(0) = 10; h'(0) = v0
h(1) = 8
`;

  it('a ball whose bounces accumulate at t = 13 is shot for h(1) = 8 (every shot failed: zeno)', () => {
    const r = shoot(BALL, { rtol: 1e-10, atol: 1e-12 });
    expect(r.status).toBe('converged');
    // converged means |h(1) - 8| <= 10 atol + 8 rtol, and dh(1)/dv0 = 1
    expect(Math.abs(r.unknowns.v0 - (9.81 / 2 - 2))).toBeLessThan(10 * 1e-12 + 8 * 1e-10);
    expect(r.solution!.status).toBe('zeno');
  });

  it('the command line says the solution stopped at the accumulation, exit 4 as simulate', async () => {
    writeFileSync(join(dir, 'ball.delta'), BALL);
    const r = await cli(['shoot', join(dir, 'ball.delta'), '--format', 'json', '--out', join(dir, 'ball.json')]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^.*ball\.delta: the solution's run: events of bounce accumulate at t = 13\.\d+ \(Zeno\)/);
    const d = JSON.parse(readFileSync(join(dir, 'ball.json'), 'utf8')) as {
      converged: boolean;
      unknowns: { v0: number };
    };
    expect(d.converged).toBe(true);
    expect(Math.abs(d.unknowns.v0 - (9.81 / 2 - 2))).toBeLessThan(10 * 1e-9 + 8 * 1e-6);
  });

  it('a condition that is not a number at the guess is named (the message said "null")', () => {
    const r = shoot(`independent t from 0 to 1
unknown v = -1
y' = v
y(0) = 0
y(1) = log(v)
`);
    expect(r.status).toBe('failed');
    expect(r.message).toBe(
      'the first guess does not simulate: the residual of y(1) = log(v) (line 5) is NaN at v = -1. Try another guess.',
    );
  });

  it("a run that ends before a condition's point still says so", () => {
    const r = shoot(BALL.replace('h(1) = 8', 'h(15) = 0'));
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(
      /^the first guess does not simulate: the run ended at t = 12\.9\d* \(zeno: events of bounce accumulate at t = 12\.9\d* \(Zeno\).*\), before t = 15, where h\(15\) = 0 \(line 8\) is to hold\. Try another guess\.$/,
    );
  });
});

describe('a flag given twice', () => {
  const at = (f: string) => join(dir, f);

  it('with two values is a usage error (the last one was taken silently: --to 5 --to 3 ran to 3)', async () => {
    const r = await cli([
      'simulate',
      at('kick.delta'),
      '--to',
      '5',
      '--format',
      'csv',
      '--to',
      '3',
      '--out',
      at('t.csv'),
    ]);
    expect(r.stderr).toBe(
      'deltastep: --to is given twice (--to 5 and --to 3); give it once, with the value you mean\n',
    );
    expect(r.code).toBe(2);
    const m = await cli([
      'sweep',
      at('kick.delta'),
      '--to',
      '5',
      '--vary',
      'k=1:2:2',
      '--workers',
      '1',
      '--workers',
      '2',
    ]);
    expect(m.stderr).toBe(
      'deltastep: --workers is given twice (--workers 1 and --workers 2); give it once, with the value you mean\n',
    );
  });

  it('with one value twice is that value: y(5) = 2 sin 4', async () => {
    const r = await cli([
      'simulate',
      at('kick.delta'),
      '--to',
      '5',
      '--to',
      '5',
      '--format',
      'json',
      '--out',
      at('t.json'),
    ]);
    expect(r.code).toBe(0);
    const d = JSON.parse(readFileSync(at('t.json'), 'utf8')) as { final: { t: number; y: number } };
    expect(d.final.t).toBe(5);
    expect(Math.abs(d.final.y - 2 * Math.sin(4))).toBeLessThan(1e-14);
  });

  it('--report twice reports both (the first was dropped)', async () => {
    const r = await cli([
      'sweep',
      at('kick.delta'),
      '--to',
      '5',
      '--vary',
      'k=1:4:2',
      '--report',
      'y',
      '--report',
      "y'",
      '--workers',
      '1',
      '--quiet',
      '--format',
      'json',
      '--out',
      at('r.json'),
    ]);
    expect(r.code).toBe(0);
    const d = JSON.parse(readFileSync(at('r.json'), 'utf8')) as { columns: string[]; rows: number[][] };
    expect(d.columns).toEqual(['k', 'y', "y'"]);
    // y' = 2 cos(4 sqrt k) after the kick
    for (const [k, y, dy] of d.rows) {
      expect(Math.abs(y - kicked(k))).toBeLessThan(1e-14);
      expect(Math.abs(dy - 2 * Math.cos(4 * Math.sqrt(k)))).toBeLessThan(1e-14);
    }
  });

  it('--lower twice bounds both unknowns (the first bound was dropped)', async () => {
    writeFileSync(at('rope.delta'), readFileSync(new URL('../examples/rope.delta', import.meta.url), 'utf8'));
    // H = 5 (the guess) below the first bound: the bound is there, and said
    const refused = await cli(['shoot', at('rope.delta'), '--lower', 'H=6', '--lower', 'p1=-2']);
    expect(refused.stderr).toBe(
      "deltastep: the first guess H = 5 is outside its bounds [6, Infinity]: start shooting inside them (--set H=... or the model's unknown H = ...)\n",
    );
    const twice = await cli(['shoot', at('rope.delta'), '--lower', 'H=1', '--lower', 'H=2']);
    expect(twice.stderr).toBe('deltastep: --lower gives H twice (H=1 and H=2); give each name one value\n');
    expect(twice.code).toBe(2);
    // both bounds inactive at the solution: the rope's exact p1 and H (examples/rope.delta)
    const r = await cli([
      'shoot',
      at('rope.delta'),
      '--lower',
      'H=1',
      '--lower',
      'p1=-5',
      '--format',
      'json',
      '--out',
      at('rope.json'),
    ]);
    expect(r.code).toBe(0);
    const u = (JSON.parse(readFileSync(at('rope.json'), 'utf8')) as { unknowns: { p1: number; H: number } }).unknowns;
    expect(Math.abs(u.p1 - -1.1106615486105161)).toBeLessThan(1e-8);
    expect(Math.abs(u.H - 8.186919493913407)).toBeLessThan(1e-7);
  });
});

describe('a model given through a pipe is read once', () => {
  it('sweep <(generate) with --plot and --shard: the model and its hash are the text given', async () => {
    // A FIFO whose writer gives the model once, then (after a pause, so that the first reader
    // has seen its end) an empty text to each later reader, as a pipe does: what was read is gone
    // (and never leaves one waiting for a writer). Reading it again for the plot's units, then for the
    // hash, gave "the model has no equations" (exit 1), or the hash of an empty text.
    const fifo = join(dir, 'pipe.delta');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const writer = spawn(
      'sh',
      ['-c', `cat "$1" > "$2"; while :; do sleep 0.3; : > "$2"; done`, 'sh', join(dir, 'kick.delta'), fifo],
      {
        stdio: 'ignore',
      },
    );
    try {
      const out = join(dir, 'pipe.json');
      const r = await cli([
        'sweep',
        fifo,
        '--to',
        '5',
        '--vary',
        'k=1:4:2',
        '--report',
        'y',
        '--workers',
        '1',
        '--quiet',
        '--format',
        'json',
        '--shard',
        '1/1',
        '--out',
        out,
        '--plot',
        join(dir, 'pipe.svg'),
      ]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const d = JSON.parse(readFileSync(out, 'utf8')) as { rows: number[][]; settings: { sha256: string } };
      expect(d.settings.sha256).toBe(createHash('sha256').update(KICK).digest('hex'));
      for (const [k, y] of d.rows) expect(Math.abs(y - kicked(k))).toBeLessThan(1e-14);
    } finally {
      writer.kill();
    }
  }, 60_000);
});

describe("a batch's range is checked before its runs, as simulate's", () => {
  const at = (f: string) => join(dir, f);

  it('no end, or --from without every initial value: a usage error, not a failure of every run', async () => {
    // (every run failed with the same message, exit 3, all values NaN)
    const noEnd = await cli(['sweep', at('kick.delta'), '--vary', 'k=1:2:2', '--workers', '1', '--quiet']);
    expect(noEnd.stderr).toBe(
      "deltastep: no end of the range: give 'independent t from A to B' in the model or --to on the command line\n",
    );
    expect(noEnd.code).toBe(2);
    const from = await cli([
      'montecarlo',
      at('kick.delta'),
      '--from',
      '1',
      '--to',
      '5',
      '--init',
      'y=0',
      '--sample',
      'k~uniform(1,2)',
      '--samples',
      '3',
      '--report',
      'y',
      '--workers',
      '1',
      '--quiet',
    ]);
    expect(from.stderr).toBe(
      "deltastep: --from 1: Model states its initial values at t = 0 (line 3), and a run starts where they hold. To start at t = 1, give every initial value there with --init (missing: y'), or make t = 1 the start of the model's range\n",
    );
    expect(from.code).toBe(2);
  });

  it('a varied parameter that moves the range still runs: each run is its own', async () => {
    // the range starts at t0 = t1: with --from 1 and y(1) = 0, y = t - 1, so y(5) = 4 wherever t0 is
    writeFileSync(at('moving.delta'), "parameter t1 = 0, t0 = t1\nindependent t from t0 to 5\ny' = 1\ny(t0) = 0\n");
    const r = await cli([
      'sweep',
      at('moving.delta'),
      '--from',
      '1',
      '--init',
      'y=0',
      '--vary',
      't1=0:1:2',
      '--report',
      'y',
      '--workers',
      '1',
      '--quiet',
      '--format',
      'json',
      '--out',
      at('moving.json'),
    ]);
    expect(r.code).toBe(0);
    const d = JSON.parse(readFileSync(at('moving.json'), 'utf8')) as { rows: number[][]; status: string[] };
    expect(d.rows).toEqual([
      [0, 4],
      [1, 4],
    ]);
    expect(d.status).toEqual(['ok', 'ok']);
  });
});

describe("shoot's sink gets the solution's run only", () => {
  it("a kicked oscillator's ledger: one entry, y' jumps by 2 (every shot's entry came too)", () => {
    // y'' = -y + 2 delta(t - 0.5), y(0) = 0, y'(0) = v, y(1) = 1: v = (1 - 2 sin 0.5)/sin 1
    const text =
      "independent t from 0 to 1\nunknown v = 0.5\ny'' = -y + 2*delta(t - 0.5)\ny(0) = 0; y'(0) = v\ny(1) = 1\n";
    const rows: number[][] = [];
    const events: { t: number; jumps: Record<string, number> }[] = [];
    const r = shoot(text, {
      rtol: 1e-10,
      atol: 1e-12,
      sink: { row: (row) => rows.push(Array.from(row)), event: (e) => events.push({ t: e.t, jumps: { ...e.jumps } }) },
    });
    expect(r.status).toBe('converged');
    expect(Math.abs(r.unknowns.v - (1 - 2 * Math.sin(0.5)) / Math.sin(1))).toBeLessThan(1e-9);
    expect(events.map((e) => [e.t, Object.keys(e.jumps)])).toEqual([[0.5, ["y'"]]]);
    // (the jump is post - pre of y' ~ 2.04: within a few ulps of 2)
    expect(Math.abs(events[0].jumps["y'"] - 2)).toBeLessThan(1e-15);
    // the solution's rows: the start, both sides of the kick, the end, where y = 1
    expect(rows.map((row) => row[0])).toEqual([0, 0.5, 0.5, 1]);
    expect(Math.abs(rows[3][1] - 1)).toBeLessThan(10 * 1e-12 + 1e-10);
  });
});

describe('a model FIFO that nobody writes yet', () => {
  it('Ctrl-C ends the wait (SIGINT and SIGTERM did nothing: only SIGKILL ended it)', async () => {
    ensureCliBuilt();
    const fifo = join(dir, 'waiting.delta');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const child = spawn(process.execPath, [CLI, 'simulate', fifo, '--to', '5'], { stdio: 'ignore' });
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    // (long enough for the command to start and wait in the open: a signal before that ends it too)
    await new Promise((resolve) => setTimeout(resolve, 1500));
    child.kill('SIGINT');
    const end = await Promise.race([exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000))]);
    if (end === null) child.kill('SIGKILL');
    expect(end).toEqual({ code: null, signal: 'SIGINT' });
  }, 30_000);
});
