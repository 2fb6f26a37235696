#!/usr/bin/env node
// Workload W5: a row of N colliding spheres, deltastep beside SUNDIALS CVODE.
//
//   node bench/w5/run.mjs                 # N = 64 (T = 40), 256 and 1024 (T = 20)
//   node bench/w5/run.mjs --n 1024 --t 20
//
// deltastep is timed as a user sees it: the whole process of `node dist/cli.js simulate
// row.delta --format json --out FILE` (start, transform, integration, writing), with its peak
// memory; in-process compile and integration times are shown beside it. CVODE (Adams, all
// N + 1 root functions, CVodeReInit at each impact: ../shared/peers/row/cvode_row.c) is timed
// by itself, integration only, when SUNDIALS and its source are on the machine
// (../shared/peers/install.sh installs SUNDIALS). Impact counts are checked against the
// exact count (row-model.mjs). The default method takes the analytic path for this model (every
// sphere in closed form between impacts); the stepper (--method dopri5) is timed beside it
// unless --no-stepper.
//
// Each case runs twice: the model written out element by element (rowModel) and the array
// model bench/w5/row.delta with N set from outside (`--set N=...`). Both must give the same
// impacts and final values; the table shows the time of each.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exactHits, rowModel } from './row-model.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');
// (../shared beside the checkout; from a worktree one level deeper, ../../shared)
const CVODE_SOURCE =
  [join(ROOT, '..', 'shared'), join(ROOT, '..', '..', 'shared')]
    .map((d) => join(d, 'peers', 'row', 'cvode_row.c'))
    .find((f) => existsSync(f)) ?? join(ROOT, '..', 'shared', 'peers', 'row', 'cvode_row.c');
const ARRAY_MODEL = join(ROOT, 'bench', 'w5', 'row.delta');

function parseArgs(argv) {
  const o = {
    cases: [
      [64, 40],
      [256, 20],
      [1024, 20],
    ],
  };
  let n = null,
    t = 20;
  o.stepper = true;
  for (let i = 2; i < argv.length; i++) {
    if (argv[i] === '--n') n = parseInt(argv[++i], 10);
    else if (argv[i] === '--t') t = parseInt(argv[++i], 10);
    else if (argv[i] === '--no-stepper') o.stepper = false;
    else if (argv[i] === '--help' || argv[i] === '-h') {
      console.log('usage: node bench/w5/run.mjs [--n N --t T] [--no-stepper]');
      process.exit(0);
    } else throw new Error(`unknown argument '${argv[i]}' (try --help)`);
  }
  if (n !== null) {
    if (!(n >= 2) || !(t >= 1)) throw new Error('--n must be at least 2 and --t a positive integer');
    o.cases = [[n, t]];
  }
  return o;
}

/** Builds the CVODE twin once; null when SUNDIALS or the source is missing. */
function buildCvode(dir) {
  if (!existsSync(CVODE_SOURCE) || !existsSync('/usr/include/cvode/cvode.h')) return null;
  const exe = join(dir, 'cvode_row');
  try {
    execFileSync('gcc', ['-O2', '-o', exe, CVODE_SOURCE, '-lsundials_cvode', '-lsundials_nvecserial', '-lm'], {
      stdio: 'ignore',
    });
    return exe;
  } catch {
    return null;
  }
}

/** Whole-process time and peak memory of the command line (GNU time for the memory, if present). */
function runCli(model, out, extra = []) {
  const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
  const args = [CLI, 'simulate', model, '--format', 'json', '--quiet', '--out', out, ...extra];
  const start = process.hrtime.bigint();
  const r = timeBin
    ? spawnSync(timeBin, ['-f', '%M', process.execPath, ...args], { encoding: 'utf8' })
    : spawnSync(process.execPath, args, { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const peak = timeBin ? Number(r.stderr.trim().split('\n').pop()) / 1024 : NaN;
  if (r.status !== 0) throw new Error(`deltastep simulate ${model} ${extra.join(' ')} exited ${r.status}: ${r.stderr}`);
  const result = JSON.parse(readFileSync(out, 'utf8'));
  return { seconds, peakMB: peak, hits: result.final.hits, status: result.status, final: result.final };
}

/**
 * The array model as a whole process for N spheres to T: `--set N=... --to T`. A command line
 * that keeps the file's shape (it refuses a structural --set) gets a copy of the file with N
 * written in instead, and the table says so.
 */
function runArrayCli(n, t, dir, out) {
  const probeSet = spawnSync(
    process.execPath,
    [CLI, 'simulate', ARRAY_MODEL, '--set', `N=${n}`, '--to', '0', '--format', 'json', '--quiet'],
    { encoding: 'utf8' },
  );
  if (probeSet.status === 0)
    return { ...runCli(ARRAY_MODEL, out, ['--set', `N=${n}`, '--to', String(t)]), via: '--set N' };
  const copy = join(dir, `row-array${n}.delta`);
  writeFileSync(copy, readFileSync(ARRAY_MODEL, 'utf8').replace(/^parameter N = \d+,/m, `parameter N = ${n},`));
  return { ...runCli(copy, out, ['--to', String(t)]), via: 'N in file' };
}

async function inProcess(text, options = {}) {
  const { compileModel, Simulator } = await import(join(ROOT, 'dist', 'index.js'));
  const t0 = performance.now();
  const model = compileModel(text, 'row.delta', options.set ? { set: options.set } : {});
  const t1 = performance.now();
  const run = new Simulator(model).run({ record: false, eventValues: false, ...options });
  const t2 = performance.now();
  return {
    compileMs: t1 - t0,
    runMs: t2 - t1,
    steps: run.stats.steps,
    rhs: run.stats.rhsEvaluations,
    hits: run.final.hits,
  };
}

/** The written-out and the array run agree: same impacts, the same final positions to the last bit. */
function sameFinal(written, array, n) {
  return (
    written.hits === array.hits &&
    written.final.x1 === array.final['x[1]'] &&
    written.final[`x${n}`] === array.final[`x[${n}]`]
  );
}

const options = parseArgs(process.argv);
if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build first');
const dir = mkdtempSync(join(tmpdir(), 'deltastep-w5-'));
try {
  const cvode = buildCvode(dir);
  const rows = [];
  for (const [n, t] of options.cases) {
    const model = join(dir, `row${n}.delta`);
    writeFileSync(model, rowModel(n, t));
    const exact = exactHits(n, t);
    const ds = runCli(model, join(dir, 'out.json'));
    const inp = await inProcess(readFileSync(model, 'utf8'));
    // the stepper on the same model (the default, auto, takes the analytic path for it)
    const st = options.stepper ? runCli(model, join(dir, 'out-stepper.json'), ['--method', 'dopri5']) : null;
    const stInp = options.stepper ? await inProcess(readFileSync(model, 'utf8'), { method: 'dopri5' }) : null;
    const arr = runArrayCli(n, t, dir, join(dir, 'out-array.json'));
    const arrInp = await inProcess(readFileSync(ARRAY_MODEL, 'utf8'), { set: { N: n }, to: t });
    let cv = null;
    if (cvode) {
      const [hits, seconds, steps] = execFileSync(cvode, [String(n), String(t)], { encoding: 'utf8' })
        .trim()
        .split(/\s+/)
        .map(Number);
      cv = { hits, seconds, steps };
    }
    rows.push({ n, t, exact, ds, inp, st, stInp, arr, arrInp, same: sameFinal(ds, arr, n), cv });
  }
  console.log(
    'W5, a row of N elastic spheres: impacts, seconds, deltastep/CVODE (deltastep: the analytic path, its default for this model; stepper: --method dopri5, rtol 1e-10, atol 1e-12)\n',
  );
  const header = [
    'N',
    'T',
    'exact',
    'deltastep',
    'CVODE',
    'deltastep s (process)',
    'compile ms',
    'integrate ms',
    'peak MB',
    'CVODE s (integration)',
    'CVODE steps',
    'ratio',
    'stepper impacts',
    'stepper s (process)',
    'stepper integrate ms',
    'stepper ratio',
  ];
  const table = rows.map(({ n, t, exact, ds, inp, st, stInp, cv }) => [
    n,
    t,
    exact,
    `${ds.hits}${ds.hits === exact ? '' : ' WRONG'}`,
    cv ? `${cv.hits}${cv.hits === exact ? '' : ' WRONG'}` : '-',
    ds.seconds.toFixed(3),
    inp.compileMs.toFixed(0),
    inp.runMs.toFixed(0),
    ds.peakMB.toFixed(0),
    cv ? cv.seconds.toFixed(3) : '-',
    cv ? cv.steps : '-',
    cv ? (ds.seconds / cv.seconds).toFixed(2) : '-',
    st ? `${st.hits}${st.hits === exact ? '' : ' WRONG'}` : '-',
    st ? st.seconds.toFixed(3) : '-',
    stInp ? stInp.runMs.toFixed(0) : '-',
    st && cv ? (st.seconds / cv.seconds).toFixed(2) : '-',
  ]);
  const print = (head, body) => {
    const widths = head.map((h, j) => Math.max(h.length, ...body.map((r) => String(r[j]).length)));
    for (const r of [head, widths.map((w) => '-'.repeat(w)), ...body])
      console.log(r.map((c, j) => String(c).padEnd(widths[j])).join('  '));
  };
  print(header, table);
  console.log(
    '\nThe same rows from the array model bench/w5/row.delta (N set from outside) beside the written-out model:\n',
  );
  const arrayHeader = [
    'N',
    'T',
    'exact',
    'array',
    'same as written out',
    'array s (process)',
    'written-out s (process)',
    'array compile ms',
    'written-out compile ms',
    'array integrate ms',
    'array peak MB',
    'N from',
  ];
  print(
    arrayHeader,
    rows.map(({ n, t, exact, ds, inp, arr, arrInp, same }) => [
      n,
      t,
      exact,
      `${arr.hits}${arr.hits === exact && arrInp.hits === exact ? '' : ' WRONG'}`,
      same ? 'yes' : 'NO',
      arr.seconds.toFixed(3),
      ds.seconds.toFixed(3),
      arrInp.compileMs.toFixed(0),
      inp.compileMs.toFixed(0),
      arrInp.runMs.toFixed(0),
      arr.peakMB.toFixed(0),
      arr.via,
    ]),
  );
  if (!cvode) console.log('\n(CVODE not run: SUNDIALS or ../shared/peers/row/cvode_row.c not on this machine)');
  console.log("\nratio: deltastep's whole process over CVODE's integration alone (target <= 1).");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
