#!/usr/bin/env node
// The stiff workloads of issue #16, timed in-process beside SciPy on the same machine.
//
//   npm run build && node bench/stiff/run.mjs            # deltastep, then SciPy if python3 has it
//   node bench/stiff/run.mjs --repeats 50 --no-scipy
//
// deltastep: the model is compiled once outside the timed region; each repeat is one
// `Simulator.run` (a fresh Simulator per repeat, as a user's `simulate` call), timed with a
// monotonic clock; the first `--warmup` repeats are discarded (JIT), the median of the rest is
// printed, and the very first run beside it ("first ms": cold, JIT and the lazy compilation
// of the model's Jacobian included). Robertson at rtol 1e-6, atol 1e-10 as bench/stiff/scipy_robertson.py runs SciPy
// (median of 20, analytic Jacobian); the other workloads at rtol 1e-6 and 1e-8. Accuracy
// against bench/stiff/references.json.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadDist, median } from './common.mjs';
import { fileURLToPath } from 'node:url';

const HERE = new URL('./', import.meta.url);

function parseArgs(argv) {
  const o = { repeats: 30, warmup: 10, scipy: true };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--repeats') o.repeats = parseInt(argv[++i], 10);
    else if (a === '--warmup') o.warmup = parseInt(argv[++i], 10);
    else if (a === '--no-scipy') o.scipy = false;
    else throw new Error(`unknown argument '${a}' (usage: run.mjs [--repeats N] [--warmup N] [--no-scipy])`);
  }
  return o;
}

const rel = (a, b) => Math.abs(a - b) / Math.abs(b);
const e1 = (x) => x.toExponential(1);

async function main() {
  const o = parseArgs(process.argv);
  const lib = await loadDist();
  const refs = JSON.parse(readFileSync(new URL('references.json', HERE), 'utf8'));
  const model = (name) => lib.compileModel(readFileSync(new URL(`${name}.delta`, HERE), 'utf8'), `${name}.delta`);

  const workloads = [
    {
      name: 'robertson',
      model: model('robertson'),
      rtol: 1e-6,
      atol: 1e-10,
      accuracy: (r) => {
        const R = refs.robertson_t1e5;
        return `y1 ${e1(rel(r.final.y1, R[0]))} y2 ${e1(rel(r.final.y2, R[1]))} y3 ${e1(rel(r.final.y3, R[2]))}`;
      },
    },
    ...[1e-6, 1e-8].map((rtol) => ({
      name: 'robertson',
      model: model('robertson'),
      rtol,
      atol: rtol * 1e-2,
      accuracy: (r) => {
        const R = refs.robertson_t1e5;
        return `y1 ${e1(rel(r.final.y1, R[0]))} y2 ${e1(rel(r.final.y2, R[1]))} y3 ${e1(rel(r.final.y3, R[2]))}`;
      },
    })),
    ...[1e-6, 1e-8].map((rtol) => ({
      name: 'vdp1000',
      model: model('vdp1000'),
      rtol,
      atol: rtol * 1e-2,
      accuracy: (r) => {
        const V = refs.vdp1000_t3000['1e-12'];
        return `x ${e1(rel(r.final.x, V[0]))} v ${e1(rel(r.final.v, V[1]))}`;
      },
    })),
    {
      name: 'chain1000',
      model: model('chain1000'),
      rtol: 1e-6,
      atol: 1e-8,
      accuracy: (r) => {
        const N = 1000,
          k = 1000,
          lambda = k * (2 * Math.cos(Math.PI / (N + 1)) - 2);
        let worst = 0;
        for (let i = 1; i <= N; i += 37)
          worst = Math.max(worst, rel(r.final[`u[${i}]`], Math.exp(lambda * 20) * Math.sin((Math.PI * i) / (N + 1))));
        return `u_i max ${e1(worst)} (every 37th i)`;
      },
    },
    ...[1e-6, 1e-8].map((rtol) => ({
      name: 'drug',
      model: model('drug'),
      rtol,
      atol: rtol * 1e-2,
      accuracy: (r) => {
        const D = refs.drug,
          pre = r.events[r.events.length - 1].pre;
        return `t=240- c1 ${e1(rel(pre.c1, D.t240_before_dose[0]))} c2 ${e1(rel(pre.c2, D.t240_before_dose[1]))}; t=240+ c1 ${e1(rel(r.final.c1, D.t240_after_dose[0]))}`;
      },
    })),
  ];

  console.log(`deltastep stiff workloads: in-process, median of ${o.repeats} runs after ${o.warmup} warm-up runs`);
  console.log('');
  const rows = [];
  for (const w of workloads) {
    for (const method of ['auto', 'rodas', 'radau5']) {
      const opts = { method, rtol: w.rtol, atol: w.atol, eventsOnly: true };
      let last,
        cold = 0;
      const times = [];
      // the chain's runs take tens of ms: fewer of them
      const reps = w.name === 'chain1000' ? Math.max(5, Math.ceil(o.repeats / 3)) : o.repeats;
      const warm = w.name === 'chain1000' ? Math.min(8, o.warmup) : o.warmup;
      for (let k = 0; k < warm + reps; k++) {
        const sim = new lib.Simulator(w.model);
        const t0 = process.hrtime.bigint();
        last = sim.run(opts);
        const dt = Number(process.hrtime.bigint() - t0) / 1e6;
        if (k === 0) cold = dt;
        if (k >= warm) times.push(dt);
      }
      const s = last.stats;
      rows.push([
        w.name,
        method,
        String(w.rtol),
        String(w.atol),
        median(times).toFixed(2),
        cold.toFixed(2),
        String(s.steps),
        String(s.rejected),
        String(s.rhsEvaluations),
        `${s.method ?? method}${s.switches !== undefined ? ` (${s.switches} sw.)` : ''}`,
        last.status === 'ok' ? w.accuracy(last) : `${last.status}: ${last.message}`,
      ]);
    }
  }
  const head = [
    'workload',
    'method',
    'rtol',
    'atol',
    'median ms',
    'first ms',
    'steps',
    'rejected',
    'rhs evals',
    'ended with',
    'relative error',
  ];
  const wd = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i >= 4 && i <= 8 ? c.padStart(wd[i]) : c.padEnd(wd[i])))
      .join('  ')
      .trimEnd();
  console.log([line(head), wd.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line)].join('\n'));

  if (o.scipy) {
    console.log('');
    console.log(
      'SciPy on the same machine (bench/stiff/scipy_robertson.py: Robertson, rtol 1e-6, atol 1e-10, analytic Jacobian, median of 20):',
    );
    try {
      const out = execFileSync('python3', [fileURLToPath(new URL('scipy_robertson.py', HERE))], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      console.log(out.trimEnd());
    } catch (err) {
      console.log(`  (not run: ${String(err.message).split('\n')[0]})`);
    }
  }
}

main();
