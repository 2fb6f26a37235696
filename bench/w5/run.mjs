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
// exact count (row-model.mjs).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exactHits, rowModel } from './row-model.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');
const CVODE_SOURCE = join(ROOT, '..', 'shared', 'peers', 'row', 'cvode_row.c');

function parseArgs(argv) {
  const o = { cases: [[64, 40], [256, 20], [1024, 20]] };
  let n = null, t = 20;
  for (let i = 2; i < argv.length; i++) {
    if (argv[i] === '--n') n = parseInt(argv[++i], 10);
    else if (argv[i] === '--t') t = parseInt(argv[++i], 10);
    else if (argv[i] === '--help' || argv[i] === '-h') { console.log('usage: node bench/w5/run.mjs [--n N --t T]'); process.exit(0); }
    else throw new Error(`unknown argument '${argv[i]}' (try --help)`);
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
    execFileSync('gcc', ['-O2', '-o', exe, CVODE_SOURCE, '-lsundials_cvode', '-lsundials_nvecserial', '-lm'], { stdio: 'ignore' });
    return exe;
  } catch {
    return null;
  }
}

/** Whole-process time and peak memory of the command line (GNU time for the memory, if present). */
function runCli(model, out) {
  const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
  const args = [CLI, 'simulate', model, '--format', 'json', '--quiet', '--out', out];
  const start = process.hrtime.bigint();
  const r = timeBin
    ? spawnSync(timeBin, ['-f', '%M', process.execPath, ...args], { encoding: 'utf8' })
    : spawnSync(process.execPath, args, { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const peak = timeBin ? Number(r.stderr.trim().split('\n').pop()) / 1024 : NaN;
  const result = JSON.parse(readFileSync(out, 'utf8'));
  return { seconds, peakMB: peak, hits: result.final.hits, status: result.status };
}

async function inProcess(text) {
  const { compileModel, Simulator } = await import(join(ROOT, 'dist', 'index.js'));
  const t0 = performance.now();
  const model = compileModel(text);
  const t1 = performance.now();
  const run = new Simulator(model).run({ record: false, eventValues: false });
  const t2 = performance.now();
  return { compileMs: t1 - t0, runMs: t2 - t1, steps: run.stats.steps, rhs: run.stats.rhsEvaluations };
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
    let cv = null;
    if (cvode) {
      const [hits, seconds, steps] = execFileSync(cvode, [String(n), String(t)], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
      cv = { hits, seconds, steps };
    }
    rows.push({ n, t, exact, ds, inp, cv });
  }
  console.log('W5, a row of N elastic spheres (rtol 1e-10, atol 1e-12): impacts, seconds, deltastep/CVODE\n');
  const header = ['N', 'T', 'exact', 'deltastep', 'CVODE', 'deltastep s (process)', 'compile ms', 'integrate ms', 'peak MB', 'CVODE s (integration)', 'CVODE steps', 'ratio'];
  const table = rows.map(({ n, t, exact, ds, inp, cv }) => [n, t, exact, `${ds.hits}${ds.hits === exact ? '' : ' WRONG'}`, cv ? `${cv.hits}${cv.hits === exact ? '' : ' WRONG'}` : '-',
    ds.seconds.toFixed(3), inp.compileMs.toFixed(0), inp.runMs.toFixed(0), ds.peakMB.toFixed(0), cv ? cv.seconds.toFixed(3) : '-', cv ? cv.steps : '-', cv ? (ds.seconds / cv.seconds).toFixed(2) : '-']);
  const widths = header.map((h, j) => Math.max(h.length, ...table.map((r) => String(r[j]).length)));
  for (const r of [header, widths.map((w) => '-'.repeat(w)), ...table]) console.log(r.map((c, j) => String(c).padEnd(widths[j])).join('  '));
  if (!cvode) console.log('\n(CVODE not run: SUNDIALS or ../shared/peers/row/cvode_row.c not on this machine)');
  console.log('\nratio: deltastep\'s whole process over CVODE\'s integration alone (target <= 1).');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
