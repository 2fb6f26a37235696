#!/usr/bin/env node
// The five stiff problems of the Test Set for IVP solvers (ROBER, HIRES, OREGO, VDPOL with
// mu = 1000, POLLU; Mazzia and Magherini, Bari) over their Test Set ranges: deltastep beside
// CVODE BDF (C, bench/stiff/cvode_testset.c) and SciPy (bench/stiff/scipy_testset.py), in
// the same run, with the error of each against the Test Set's reference solution.
//
//   npm run build && node bench/stiff/testset.mjs
//   node bench/stiff/testset.mjs --rtols 1e-10 --problems hires,orego --rounds 5 --no-scipy
//
// Timing. deltastep runs in this process: each model is compiled once, outside the timed
// region; each run is a fresh Simulator (as a user's `simulate`), timed with a monotonic
// clock. CVODE runs in its own process, each run a fresh solver, timed inside it the same
// way. The machine is shared and noisy, so the tools take turns: `--rounds` rounds, each of
// `--warmup` untimed and `--repeats` timed runs of every deltastep method and of CVODE, and
// the table gives the median of all timed runs and the spread (the 25th and 75th
// percentiles). SciPy is much slower; it runs once per row (1 untimed + `--scipy-repeats`).
//
// Tolerances: rtol as given, atol = 1e-4·rtol for all tools (the Test Set's setting for
// ROBER, used for all five as tests/testset.test.ts does). Errors: "err/tol" is
// max_i |y_i − ref_i| / (atol + rtol·|ref_i|), the error in units of the tolerance asked for;
// "digits" is the Test Set's mixed significant correct digits, −log10 max_i |y_i − ref_i| /
// (atol/rtol + |ref_i|); "reached" says whether max_i |y_i − ref_i| / (atol + g·|ref_i|) ≤ 1
// with g = 1e-4 at rtol ≥ 1e-7 and 1e-7 below (issue 25's targets: the reference to 1e-4 and
// 1e-7 relative, components below atol measured absolutely).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadDist, quantile } from './common.mjs';

const ROOT = new URL('../../', import.meta.url);
const HERE = new URL('./', import.meta.url);
const FIXTURES = new URL('tests/fixtures/testset/', ROOT);
const PROBLEMS = ['rober', 'hires', 'orego', 'vdpol', 'pollu'];

function parseArgs(argv) {
  const o = {
    rtols: [1e-6, 1e-8, 1e-10],
    problems: PROBLEMS,
    methods: ['auto', 'radau5', 'rodas'],
    rounds: 3,
    repeats: 5,
    warmup: 3,
    scipyRepeats: 1,
    scipy: true,
    cvode: true,
    json: null,
  };
  const list = (s) => s.split(',').filter(Boolean);
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i],
      v = () => {
        if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
        return argv[++i];
      };
    if (a === '--rtols') o.rtols = list(v()).map(Number);
    else if (a === '--problems') o.problems = list(v());
    else if (a === '--methods') o.methods = list(v());
    else if (a === '--rounds') o.rounds = parseInt(v(), 10);
    else if (a === '--repeats') o.repeats = parseInt(v(), 10);
    else if (a === '--warmup') o.warmup = parseInt(v(), 10);
    else if (a === '--scipy-repeats') o.scipyRepeats = parseInt(v(), 10);
    else if (a === '--no-scipy') o.scipy = false;
    else if (a === '--no-cvode') o.cvode = false;
    else if (a === '--json') o.json = v();
    else
      throw new Error(
        `unknown argument '${a}' (usage: testset.mjs [--rtols a,b] [--problems p,q] [--methods m,n] [--rounds N] [--repeats N] [--warmup N] [--scipy-repeats N] [--no-scipy] [--no-cvode] [--json FILE])`,
      );
  }
  for (const p of o.problems)
    if (!PROBLEMS.includes(p)) throw new Error(`unknown problem '${p}' (${PROBLEMS.join(', ')})`);
  return o;
}

/** the error measures of the header, of state y against reference ref */
function errors(y, ref, rtol, atol) {
  const goal = rtol >= 1e-7 ? 1e-4 : 1e-7;
  let scaled = 0,
    mixed = 0,
    reach = 0;
  ref.forEach((r, i) => {
    const d = Math.abs(y[i] - r);
    scaled = Math.max(scaled, d / (atol + rtol * Math.abs(r)));
    mixed = Math.max(mixed, d / (atol / rtol + Math.abs(r)));
    reach = Math.max(reach, d / (atol + goal * Math.abs(r)));
  });
  return { scaled, digits: -Math.log10(mixed), reached: reach <= 1 };
}

/** the C driver, built if missing or older than its source */
function cvodeBinary() {
  const src = fileURLToPath(new URL('cvode_testset.c', HERE));
  const dir = fileURLToPath(new URL('build/', HERE));
  const bin = `${dir}cvode_testset`;
  if (!existsSync(bin) || statSync(bin).mtimeMs < statSync(src).mtimeMs) {
    mkdirSync(dir, { recursive: true });
    execFileSync('gcc', ['-O2', '-o', bin, src, '-lsundials_cvode', '-lsundials_nvecserial', '-lm'], {
      stdio: 'inherit',
    });
  }
  return bin;
}

/** peer arguments shared by the C driver and the SciPy script */
const peerArgs = (p, rtol, atol, repeats) => [
  '--problem',
  p,
  '--rtol',
  String(rtol),
  '--atol',
  String(atol),
  '--repeats',
  String(repeats),
];

/**
 * `warmup` untimed and `repeats` timed runs of deltastep, each a fresh Simulator; a method
 * written `m:grid` also keeps 100 rows on an even grid (interpolated from the dense output).
 */
function timeDeltastep(lib, model, spec, rtol, atol, o, range) {
  const [method, grid] = spec.split(':');
  const opts = grid ? { method, rtol, atol, outputStep: range / 100 } : { method, rtol, atol, eventsOnly: true };
  const ms = [];
  let last = null;
  for (let k = 0; k < o.warmup + o.repeats; k++) {
    const sim = new lib.Simulator(model);
    const t0 = process.hrtime.bigint();
    last = sim.run(opts);
    const dt = Number(process.hrtime.bigint() - t0) / 1e6;
    if (k >= o.warmup) ms.push(dt);
  }
  return { ms, last };
}

function runScipy(p, rtol, atol, o) {
  try {
    const out = execFileSync(
      'python3',
      [fileURLToPath(new URL('scipy_testset.py', HERE)), ...peerArgs(p, rtol, atol, o.scipyRepeats)],
      { encoding: 'utf8' },
    );
    return out
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch (e) {
    console.error(`scipy: ${e.message.split('\n')[0]}`);
    return [];
  }
}

/** the rows of one problem at one tolerance: deltastep's methods and CVODE taking turns, then SciPy */
function measure(lib, model, p, ref, range, rtol, o, bin) {
  const atol = 1e-4 * rtol;
  const samples = new Map([...o.methods.map((m) => [m, []]), ['cvode.bdf', []]]);
  const last = new Map();
  for (let round = 0; round < o.rounds; round++) {
    for (const spec of o.methods) {
      const t = timeDeltastep(lib, model, spec, rtol, atol, o, range);
      samples.get(spec).push(...t.ms);
      last.set(spec, t.last);
    }
    if (bin) {
      const d = JSON.parse(
        execFileSync(bin, [...peerArgs(p, rtol, atol, o.repeats), '--warmup', String(o.warmup)], { encoding: 'utf8' }),
      );
      samples.get('cvode.bdf').push(...d.ms);
      last.set('cvode.bdf', d);
    }
  }
  const rows = [];
  const cvodeMedian = bin ? quantile(samples.get('cvode.bdf'), 0.5) : NaN;
  const row = (tool, ms, stats, y, ok, note) => {
    const med = quantile(ms, 0.5);
    rows.push({
      problem: p,
      rtol,
      atol,
      tool,
      median: med,
      p25: quantile(ms, 0.25),
      p75: quantile(ms, 0.75),
      n: ms.length,
      vsCvode: med / cvodeMedian,
      ...stats,
      ok,
      note,
      ...(ok ? errors(y, ref, rtol, atol) : {}),
    });
  };
  for (const spec of o.methods) {
    const r = last.get(spec),
      s = r.stats;
    const y = ref.map((_, i) => r.final[`y${i + 1}`]);
    const note = s.method ? `${s.method}, ${s.switches} sw.${s.methodReason ? `: ${s.methodReason}` : ''}` : '';
    const stats = { steps: s.steps, rhs: s.rhsEvaluations };
    row(`deltastep ${spec}`, samples.get(spec), stats, y, r.status === 'ok', r.status === 'ok' ? note : r.message);
  }
  if (bin) {
    const d = last.get('cvode.bdf');
    row('cvode.bdf', samples.get('cvode.bdf'), { steps: d.steps, rhs: d.rhs, jac: d.jac }, d.y, d.ok, '');
  }
  if (o.scipy)
    for (const d of runScipy(p, rtol, atol, o))
      row(d.tool, d.ms, { steps: d.steps, rhs: d.rhs, jac: d.jac }, d.y, d.ok, d.message ?? '');
  return rows;
}

async function main() {
  const o = parseArgs(process.argv);
  const lib = await loadDist();
  const refs = JSON.parse(readFileSync(new URL('references.json', FIXTURES), 'utf8'));
  const bin = o.cvode ? cvodeBinary() : null;
  const rows = [];
  for (const p of o.problems) {
    const model = lib.compileModel(readFileSync(new URL(`${p}.delta`, FIXTURES), 'utf8'), `${p}.delta`);
    for (const rtol of o.rtols) {
      const some = measure(lib, model, p, refs[p].y, refs[p].t, rtol, o, bin);
      some.forEach(printRow);
      rows.push(...some);
    }
  }
  if (o.json) writeFileSync(o.json, JSON.stringify(rows, null, 1));
}

let headed = false;
function printRow(r) {
  if (!headed) {
    console.log(
      '| problem | rtol | tool | median ms | p25–p75 ms | ×CVODE | steps | f evals | err/tol | digits | reached | note |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
    headed = true;
  }
  const f2 = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  console.log(
    `| ${r.problem.toUpperCase()} | ${r.rtol} | ${r.tool} | ${f2(r.median)} | ${f2(r.p25)}–${f2(r.p75)} | ${Number.isFinite(r.vsCvode) ? r.vsCvode.toFixed(2) : ''} | ${r.steps} | ${r.rhs} | ${r.ok ? r.scaled.toExponential(1) : 'failed'} | ${r.ok ? r.digits.toFixed(1) : ''} | ${r.ok ? (r.reached ? 'yes' : 'NO') : ''} | ${r.note ?? ''} |`,
  );
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
