#!/usr/bin/env node
// deltastep driver for the peer benchmark harness (../shared/peers, WORKLOADS.md section 6).
//
//   node bench/peer-driver.mjs --workload W1|W2|W3|W4 --tol tight|default --repeats N
//
// Prints ONE line of JSON on stdout (diagnostics go to stderr). The models are the .delta
// files next to this script; each is compiled once at start-up, outside the timed region
// (reported as counts.compile_ms). Every timed repeat creates its own Simulator (W1..W3) or
// runs `shoot` (W4, which makes its own Simulator), so no solver state survives between
// repeats. Inside one W3 repeat one Simulator serves all 200 values of e, as CVODE's driver
// re-initialises one solver per case.
//
// The counts (rhs_evals, event_evals) come from the library's own statistics where it has
// them (stats.rhsEvaluations) and otherwise from one extra, untimed, instrumented pass with
// counting wrappers around the compiled right-hand side and event functions (see
// `countedPass`). The exported functions are reused by bench/run.mjs (`npm run bench`).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const LIB_URL = new URL('../dist/index.js', import.meta.url);
const PKG_URL = new URL('../package.json', import.meta.url);

/** tolerance settings; `default` = deltastep's own defaults (Simulator: rtol 1e-6, atol 1e-9) */
export const TOLS = {
  tight: { rtol: 1e-10, atol: 1e-12 },
  default: { rtol: 1e-6, atol: 1e-9 },
};

/**
 * Integration method per tolerance label and workload, as a user gets it or would choose it:
 * - W1 (a ball's flights), W2 (a harmonic oscillator against a wall) and W3 (spheres in uniform
 *   motion) have closed forms between events: polynomials of degree 2 and 1 (W1, W3) and the
 *   exponential of a constant 2x2 matrix, a rotation (W2). deltastep's default, auto, takes
 *   the analytic path for them (closed forms, events at certified roots; the tolerances do
 *   not apply): what a user gets without asking. `--method dopri5` (W1, W3) or `dop853` (W2)
 *   measures the stepper on them.
 * - W4 (the catenary, sqrt(1 + y'^2)) has no closed form: at rtol 1e-10 DOP853's order 8
 *   needs far fewer steps than order 5; at the default tolerances, dopri5.
 */
export const METHOD = {
  tight: { W1: 'auto', W2: 'auto', W3: 'auto', W4: 'dop853' },
  default: { W1: 'auto', W2: 'auto', W3: 'auto', W4: 'dopri5' },
};

/** workload parameters (mirror of ../shared/peers/js/common.js) */
export const P = {
  W1: { tMax: 15, maxBounces: 200, fallTolerance: -1e-9 },
  W2: { tEnd: 600 },
  W3: { nE: 200, tEnd: 1e6 },
  W4: { S: 12, L: 10, grid: Array.from({ length: 21 }, (_, i) => 0.5 * i) },
};

const MODEL_FILES = { W1: 'w1_ball.delta', W2: 'w2_wall.delta', W3: 'w3_spheres.delta', W4: 'w4_rope.delta' };

/** e_k = 1.0 - 0.82*k/199, left to right in doubles (WORKLOADS.md W3); identical to reference.json's e_values */
export function w3EValues() {
  const out = [];
  for (let k = 0; k < P.W3.nE; k++) out.push(1.0 - (0.82 * k) / 199);
  return out;
}

let libPromise = null;
export function loadLibrary() {
  libPromise ??= import(LIB_URL.href);
  return libPromise;
}

export function version() {
  let v = '?';
  try {
    v = JSON.parse(readFileSync(PKG_URL, 'utf8')).version;
  } catch {
    /* keep '?' */
  }
  return `deltastep ${v}, node ${process.version}`;
}

/** Compiles one workload's model; returns the compiled model and the compile time in ms. */
export async function compileWorkload(workload) {
  const lib = await loadLibrary();
  const file = MODEL_FILES[workload];
  if (!file) throw new Error(`unknown workload '${workload}' (W1, W2, W3, W4)`);
  const url = new URL(file, import.meta.url);
  const source = readFileSync(url, 'utf8');
  const t0 = performance.now();
  const model = lib.compileModel(source, fileURLToPath(url));
  return { model, compileMs: performance.now() - t0 };
}

// ------------------------------------------------------------------ workloads ----
// Each returns { result, counts } for one timed repeat. `lib` is the loaded library.

function w1(lib, model, tol) {
  const { rtol, atol } = TOLS[tol];
  const sim = new lib.Simulator(model);
  const run = sim.run({ method: METHOD[tol].W1, rtol, atol, record: false, eventValues: false, to: P.W1.tMax });
  const bounceTimes = [];
  for (const ev of run.events) if (ev.name === 'bounce') bounceTimes.push(ev.t);
  const h = run.final.h,
    v = run.final.v,
    tStop = run.final.t;
  // "ok": the run ended at the accumulation point ('zeno') or at t_max without the ball
  // falling through the floor. Anything else is reported with deltastep's own message.
  const fine = (run.status === 'zeno' || run.status === 'ok') && h >= P.W1.fallTolerance;
  return {
    result: {
      bounce_times: bounceTimes.slice(0, P.W1.maxBounces),
      t_stop: tStop,
      state_stop: [h, v],
      status: fine ? 'ok' : `${run.status}: ${run.message ?? `h(t_stop) = ${h}`}`,
      deltastep_status: run.status,
      accumulation_point: run.accumulationPoint ?? null,
    },
    counts: {
      rhs_evals: run.stats.rhsEvaluations,
      steps: run.stats.steps,
      rejected: run.stats.rejected,
      events: run.stats.events,
    },
  };
}

function w2(lib, model, tol) {
  const { rtol, atol } = TOLS[tol];
  const sim = new lib.Simulator(model);
  const run = sim.run({ method: METHOD[tol].W2, rtol, atol, record: false, eventValues: false, to: P.W2.tEnd });
  const times = [];
  for (const ev of run.events) if (ev.name === 'hit') times.push(ev.t);
  return {
    result: {
      event_times: times,
      t_stop: run.final.t,
      state_stop: [run.final.x, run.final.y],
      status: run.status === 'ok' ? 'ok' : `${run.status}: ${run.message}`,
    },
    counts: {
      rhs_evals: run.stats.rhsEvaluations,
      steps: run.stats.steps,
      rejected: run.stats.rejected,
      events: run.stats.events,
    },
  };
}

function w3(lib, model, tol, eValues) {
  const { rtol, atol } = TOLS[tol];
  const sim = new lib.Simulator(model);
  const pairOf = new Map(model.events.map((ev) => [ev.name, ev.index]));
  const cases = [];
  let rhs = 0,
    steps = 0,
    rejected = 0,
    events = 0;
  for (const e of eValues) {
    const run = sim.run({
      method: METHOD[tol].W3,
      rtol,
      atol,
      record: false,
      eventValues: false,
      to: P.W3.tEnd,
      set: { e },
    });
    const ct = [],
      cp = [];
    for (const ev of run.events) {
      ct.push(ev.t);
      cp.push(pairOf.get(ev.name));
    }
    const f = run.final;
    cases.push({
      e,
      collision_times: ct,
      collision_pairs: cp,
      v_final: [f.v1, f.v2, f.v3, f.v4],
      x_end: [f.x1, f.x2, f.x3, f.x4],
      t_stop: f.t,
      status: run.status === 'ok' ? 'ok' : `${run.status}: ${run.message}`,
    });
    rhs += run.stats.rhsEvaluations;
    steps += run.stats.steps;
    rejected += run.stats.rejected;
    events += run.stats.events;
  }
  return { result: { cases }, counts: { rhs_evals: rhs, steps, rejected, events } };
}

function w4(lib, model, tol) {
  const { rtol, atol } = TOLS[tol];
  const grid = P.W4.grid;
  // `shoot` passes its options on to the final run of the solution: with the grid as probes
  // the stepper lands exactly on x_i and reports the internal state there (no interpolation).
  const shot = lib.shoot(model, {
    method: METHOD[tol].W4,
    rtol,
    atol,
    record: false,
    eventValues: false,
    probes: grid,
  });
  const iy = model.stateNames.indexOf('y'),
    iz = model.stateNames.indexOf('z');
  const sol = shot.solution;
  const byT = new Map((sol?.probes ?? []).map((q) => [q.t, q]));
  const yGrid = grid.map((x) => byT.get(x)?.y[iy] ?? null);
  const zGrid = grid.map((x) => byT.get(x)?.y[iz] ?? null);
  const last = shot.iterations[shot.iterations.length - 1];
  const residual = Object.values(shot.residuals);
  return {
    result: {
      p1: shot.unknowns.p1,
      H: shot.unknowns.H,
      residual,
      newton_iters: last ? last.k : 0,
      residual_evals: shot.residualEvaluations,
      status: shot.status + (shot.message ? `: ${shot.message}` : ''),
      y_grid: yGrid,
      z_grid: zGrid,
    },
    counts: { rhs_evals_final_shot: sol ? sol.stats.rhsEvaluations : null, shots: shot.residualEvaluations + 1 },
  };
}

export const WORKLOADS = { W1: w1, W2: w2, W3: w3, W4: w4 };

/**
 * One untimed pass with counting wrappers around the compiled functions: right-hand-side
 * calls (state vectors evaluated), event-function vector evaluations (`watch`, each call
 * evaluates every event function: what CVODE counts as g evaluations) and rate evaluations
 * (`watchRate`, deltastep's grazing test). The wrappers live on a shallow copy of the
 * compiled model, so the timed runs use the original functions.
 */
export function countedPass(lib, model, workload, tol, extra) {
  const c = { rhs: 0, watch: 0, rate: 0 };
  const { rhs, watch, watchRate } = model;
  const counted = {
    ...model,
    rhs: (t, y, p, d, sw, out) => {
      c.rhs++;
      rhs(t, y, p, d, sw, out);
    },
    watch: (t, y, p, d, sw, out) => {
      c.watch++;
      watch(t, y, p, d, sw, out);
    },
    watchRate: (t, y, p, d, sw, out) => {
      c.rate++;
      watchRate(t, y, p, d, sw, out);
    },
  };
  WORKLOADS[workload](lib, counted, tol, extra);
  return c;
}

/** Loads, compiles, runs `repeats` timed repeats; returns the protocol object. */
export async function runDriver(workload, tol, repeats, { instrument = true } = {}) {
  if (!TOLS[tol]) throw new Error(`unknown tolerance label '${tol}' (tight, default)`);
  const lib = await loadLibrary();
  const { model, compileMs } = await compileWorkload(workload);
  const fn = WORKLOADS[workload];
  const extra = workload === 'W3' ? w3EValues() : undefined;
  const times = [];
  let res = null;
  for (let r = 0; r < repeats; r++) {
    const t0 = process.hrtime.bigint();
    res = fn(lib, model, tol, extra);
    times.push(Number(process.hrtime.bigint() - t0) * 1e-9);
  }
  const counts = { ...res.counts, compile_ms: compileMs, method: METHOD[tol][workload] };
  if (instrument) {
    const c = countedPass(lib, model, workload, tol, extra);
    if (counts.rhs_evals === undefined)
      counts.rhs_evals = c.rhs; // W4: every shot
    else if (counts.rhs_evals !== c.rhs) counts.rhs_evals_counted = c.rhs; // should not happen
    counts.event_evals = c.watch;
    counts.event_rate_evals = c.rate;
  }
  return {
    peer: 'deltastep',
    version: version(),
    workload,
    tol_label: tol,
    tol: { ...TOLS[tol], method: METHOD[tol][workload] },
    times_s: times,
    counts,
    result: res.result,
  };
}

const USAGE =
  'usage: peer-driver.mjs --workload W1|W2|W3|W4 --tol tight|default --repeats N [--method auto|analytic|dop853|dopri5|rk4]';

function parseArgs(argv) {
  const o = { workload: 'W1', tol: 'tight', repeats: 5, method: null };
  for (let i = 2; i < argv.length; i++) {
    const k = argv[i].replace(/^--/, '');
    if (!['workload', 'tol', 'repeats', 'method'].includes(k) || i + 1 >= argv.length)
      throw new Error(`${USAGE} (bad argument '${argv[i]}')`);
    o[k] = k === 'repeats' ? parseInt(argv[++i], 10) : argv[++i];
  }
  if (!(o.repeats >= 1)) throw new Error('--repeats must be a positive integer');
  if (o.method !== null && !['dop853', 'dopri5', 'rk4', 'auto', 'analytic'].includes(o.method))
    throw new Error(`${USAGE} (unknown method '${o.method}')`);
  return o;
}

async function main() {
  const o = parseArgs(process.argv);
  if (!WORKLOADS[o.workload]) {
    process.stdout.write(JSON.stringify({ unsupported: `deltastep driver has no workload '${o.workload}'` }) + '\n');
    return;
  }
  // --method (e.g. in the harness: --add-peer 'deltastep.dopri5=node bench/peer-driver.mjs --method dopri5')
  // replaces the method for this tolerance label; the JSON's tol.method says what was used.
  if (o.method && TOLS[o.tol]) for (const w of Object.keys(METHOD[o.tol])) METHOD[o.tol][w] = o.method;
  const out = await runDriver(o.workload, o.tol, o.repeats);
  process.stdout.write(JSON.stringify(out) + '\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    process.stderr.write(`peer-driver: ${err?.stack ?? err}\n`);
    process.exitCode = 1;
  });
}
