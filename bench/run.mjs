#!/usr/bin/env node
// `npm run bench`: the four peer workloads (../shared/peers/WORKLOADS.md) at tight
// tolerances, timed exactly as the peer harness times them, with accuracy against the exact
// references and the harness' verdicts.
//
//   npm run bench                          # W1..W4, tight (rtol 1e-10, atol 1e-12), 5 repeats
//   npm run bench -- --tol default --repeats 20 --workloads W2,W3
//   npm run bench -- --json out.json       # also write the raw driver outputs
//
// Each workload runs in a fresh Node process of bench/peer-driver.mjs (the harness' driver),
// so the numbers are the driver's numbers: the model is compiled once at start-up (compile
// time shown separately), each repeat is timed in-process with a monotonic clock, repeat 1
// is the cold run (JIT warm-up is not excluded), and the median is over the repeats.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DRIVER = fileURLToPath(new URL('./peer-driver.mjs', import.meta.url));
// (../shared beside the checkout; from a worktree one level deeper, ../../shared)
const shared = (path) =>
  [new URL(`../../shared/${path}`, import.meta.url), new URL(`../../../shared/${path}`, import.meta.url)].find((u) =>
    existsSync(u),
  ) ?? new URL(`../../shared/${path}`, import.meta.url);
const REF_URL = shared('peers/refs/reference.json');
const PEERS_URL = shared('peers/results.json');
const DIST_URL = new URL('../dist/index.js', import.meta.url);

function parseArgs(argv) {
  const o = { tol: 'tight', repeats: 5, workloads: ['W1', 'W2', 'W3', 'W4', 'W5'], json: null };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i],
      v = argv[i + 1];
    if (a === '--tol') {
      o.tol = v;
      i++;
    } else if (a === '--repeats') {
      o.repeats = parseInt(v, 10);
      i++;
    } else if (a === '--workloads') {
      o.workloads = v.split(',').filter(Boolean);
      i++;
    } else if (a === '--json') {
      o.json = v;
      i++;
    } else if (a === '--help' || a === '-h') {
      console.log(
        'usage: node bench/run.mjs [--tol tight|default] [--repeats N] [--workloads W1,W2,W3,W4,W5] [--json FILE]',
      );
      process.exit(0);
    } else throw new Error(`unknown argument '${a}' (try --help)`);
  }
  if (!(o.repeats >= 1)) throw new Error('--repeats must be a positive integer');
  return o;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b),
    n = s.length;
  return n % 2 ? s[(n - 1) / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
};
const maxAbs = (xs) => xs.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
const e2 = (x) => (x === null || x === undefined || Number.isNaN(x) ? '-' : x === 0 ? '0' : x.toExponential(1));
const ms = (s) => {
  const v = s * 1e3;
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
};

// ---------------------------------------------------------------- accuracy ----
// The same criteria as ../shared/peers/harness/score.py (verdict = the harness' verdict).
function scoreW1(r, ref) {
  const bt = (r.bounce_times ?? []).slice(0, ref.params.max_bounces);
  const errs = bt.map((t, i) => Math.abs(t - ref.bounce_times[i]));
  const h = r.state_stop?.[0];
  const fell = !(h >= -1e-6);
  // WORKLOADS.md (score_w1): 200 bounces with status ok, or a zeno stop within 1e-9 of t_inf
  // after at least 100 bounces each within 1e-9 of its exact time; never fallen through
  const all200 = bt.length === ref.params.max_bounces && r.status === 'ok';
  const zenoOk = Math.abs(r.t_stop - ref.t_inf) < 1e-9 && bt.length >= 100 && errs.slice(0, 100).every((e) => e < 1e-9);
  const ok = !fell && (all200 || zenoOk);
  return {
    accuracy: `${bt.length} bounces; t err (1..20) ${e2(maxAbs(errs.slice(0, 20)))}, (all) ${e2(maxAbs(errs))}; |t_stop - t_inf| ${e2(Math.abs(r.t_stop - ref.t_inf))}; h(t_stop) ${e2(h)}`,
    verdict: ok
      ? `OK (${all200 ? '200 bounces' : `zeno stop at t_inf after ${bt.length}`})`
      : `FAIL (${bt.length}/${ref.params.max_bounces}${fell ? ', fell through' : ''})`,
  };
}

function scoreW2(r, ref) {
  const et = r.event_times ?? [],
    rt = ref.event_times;
  let k = 0;
  while (k < Math.min(et.length, rt.length) && Math.abs(et[k] - rt[k]) < 0.5) k++;
  const errs = et.slice(0, k).map((t, i) => Math.abs(t - rt[i]));
  const st = r.state_stop ?? [NaN, NaN];
  const endErr = Math.max(Math.abs(st[0] - ref.state_end[0]), Math.abs(st[1] - ref.state_end[1]));
  const ok = k === rt.length && et.length === rt.length && r.status === 'ok';
  return {
    accuracy: `${k}/${rt.length} impacts matched (${et.length} reported); t err (1..20) ${e2(maxAbs(errs.slice(0, 20)))}, (all) ${e2(maxAbs(errs))}; state err t=600 ${e2(endErr)}`,
    verdict: ok ? 'OK' : `FAIL (impact #${k + 1} ${k < rt.length ? 'missed' : 'extra'})`,
  };
}

function scoreW3(r, ref) {
  const cases = r.cases ?? [];
  let ok = 0,
    total = 0,
    tRel = 0,
    tAbs = 0,
    vErr = 0;
  ref.cases.forEach((rc, k) => {
    const c = cases[k];
    if (!c) return;
    total += c.collision_times.length;
    const same = c.collision_times.length === rc.n_collisions && c.collision_pairs.join() === rc.collision_pairs.join();
    let rel = 0;
    if (same) {
      c.collision_times.forEach((t, i) => {
        const d = Math.abs(t - rc.collision_times[i]);
        tAbs = Math.max(tAbs, d);
        rel = Math.max(rel, d / Math.max(1, Math.abs(rc.collision_times[i])));
      });
      tRel = Math.max(tRel, rel);
    }
    vErr = Math.max(vErr, maxAbs(c.v_final.map((v, i) => v - rc.v_final[i])));
    if (same && c.status === 'ok' && c.e === rc.e && rel <= 1e-6) ok++;
  });
  return {
    accuracy: `${ok}/${ref.cases.length} cases OK; ${total}/${ref.n_collisions_total} collisions; t err max rel ${e2(tRel)} (abs ${e2(tAbs)}); v_final err ${e2(vErr)}`,
    verdict: ok === ref.cases.length ? 'OK' : `FAIL (${ref.cases.length - ok} cases wrong)`,
  };
}

function scoreW4(r, ref) {
  const hErr = Math.abs(r.H - ref.H),
    pErr = Math.abs(r.p1 - ref.p1);
  const yErr = maxAbs(r.y_grid.map((y, i) => y - ref.y_grid[i])),
    zErr = maxAbs(r.z_grid.map((z, i) => z - ref.z_grid[i]));
  const ok = String(r.status).startsWith('converged') && hErr / ref.H < 1e-2;
  return {
    accuracy: `|H - H*| ${e2(hErr)}, |p1 - p1*| ${e2(pErr)}; grid err y ${e2(yErr)}, z ${e2(zErr)}; ${r.newton_iters} Newton it., ${r.residual_evals} shots`,
    verdict: (ok ? 'OK' : `FAIL (${r.status})`) + (ok && hErr > 1e-10 ? ' (H error above 1e-10)' : ''),
  };
}

const SCORE = { W1: scoreW1, W2: scoreW2, W3: scoreW3, W4: scoreW4 };

function loadJson(url) {
  try {
    return JSON.parse(readFileSync(url, 'utf8'));
  } catch {
    return null;
  }
}

function table(head, rows) {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i > 0 && i < 7 ? String(c).padStart(w[i]) : String(c).padEnd(w[i])))
      .join('  ')
      .trimEnd();
  return [line(head), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line)].join('\n');
}

function main() {
  const o = parseArgs(process.argv);
  if (!existsSync(DIST_URL)) {
    console.error('bench: dist/index.js is missing; run `npm install` (prepare builds it) or `npm run build` first.');
    process.exit(1);
  }
  const ref = loadJson(REF_URL);
  if (!ref)
    console.error(
      `bench: no reference file at ${fileURLToPath(REF_URL)} (the peer harness checkout ../shared/peers); timings only, no accuracy.`,
    );
  // The peers' committed figures (another run, maybe another machine): for orientation only.
  const peers = loadJson(PEERS_URL);
  const peerMs = (peer, wl) => {
    const r = peers?.results?.find((x) => x.peer === peer && x.workload === wl && x.tol_label === o.tol);
    return r?.median_s ? ms(r.median_s) : '-';
  };

  const outs = [];
  const rows = [];
  const accuracy = [];
  const peerWorkloads = o.workloads.filter((w) => w !== 'W5');
  // W1, W2 and W3 take the analytic path by default (auto); the stepper runs beside it
  // (dopri5; dop853 for the oscillator, whose order 8 suits its curved segments)
  const STEPPER = { W1: 'dopri5', W2: 'dop853', W3: 'dopri5' };
  const runs = peerWorkloads.flatMap((wl) =>
    STEPPER[wl]
      ? [
          [wl, null],
          [wl, STEPPER[wl]],
        ]
      : [[wl, null]],
  );
  for (const [wl, method] of runs) {
    let d;
    try {
      const stdout = execFileSync(
        process.execPath,
        [
          DRIVER,
          '--workload',
          wl,
          '--tol',
          o.tol,
          '--repeats',
          String(o.repeats),
          ...(method ? ['--method', method] : []),
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 },
      );
      d = JSON.parse(stdout.trim().split('\n').pop());
    } catch (err) {
      rows.push([wl, '-', '-', '-', '-', '-', '-', '-', 'ERROR: driver failed (see stderr above)', '-', '-']);
      accuracy.push(`${wl}  driver failed: ${String(err.message).split('\n')[0]}`);
      continue;
    }
    outs.push(d);
    const c = d.counts;
    const s = ref ? SCORE[wl](d.result, ref[wl]) : { accuracy: '(no reference file)', verdict: '-' };
    rows.push([
      wl,
      d.tol.method === 'auto' && c.rhs_evals === 0 ? 'auto: analytic' : d.tol.method,
      ms(median(d.times_s)),
      ms(d.times_s[0]),
      ms(Math.min(...d.times_s)),
      c.compile_ms.toFixed(1),
      String(c.rhs_evals),
      String(c.events ?? '-'),
      String(c.event_evals ?? '-'),
      s.verdict,
      peerMs('cvode.adams', wl),
      peerMs('scipy.DOP853', wl),
    ]);
    accuracy.push(`${wl} ${d.tol.method.padEnd(6)}  ${s.accuracy}`);
  }
  const d0 = outs[0];
  console.log(
    `deltastep peer workloads: ${d0?.version ?? ''}; tol ${o.tol} (rtol ${d0?.tol.rtol}, atol ${d0?.tol.atol}); median of ${o.repeats} in-process repeats, each workload in a fresh process, repeat 1 cold`,
  );
  console.log('');
  console.log(
    table(
      [
        'wl',
        'method',
        'median ms',
        'cold ms',
        'best ms',
        'compile ms',
        'rhs evals',
        'events',
        'event-fn evals',
        'verdict',
        'cvode.adams ms*',
        'scipy.DOP853 ms*',
      ],
      rows,
    ),
  );
  console.log('');
  console.log('accuracy against ../shared/peers/refs/reference.json (exact references):');
  for (const line of accuracy) console.log(`  ${line}`);
  console.log('');
  console.log(
    '* committed peer figures from ../shared/peers/results.json (another run; compare ratios only from one harness run, see bench/README.md)',
  );
  if (o.json) {
    writeFileSync(o.json, JSON.stringify(outs, null, 1));
    console.log(`raw driver outputs written to ${o.json}`);
  }
  // start-up of the command line beside node -e 0 (bench/startup.mjs)
  console.log('');
  execFileSync(process.execPath, [fileURLToPath(new URL('./startup.mjs', import.meta.url))], { stdio: 'inherit' });
  // W5, the row of spheres: whole processes beside CVODE (bench/w5/run.mjs)
  if (o.workloads.includes('W5')) {
    console.log('');
    execFileSync(process.execPath, [fileURLToPath(new URL('./w5/run.mjs', import.meta.url))], { stdio: 'inherit' });
  }
}

main();
