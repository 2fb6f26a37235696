#!/usr/bin/env node
// HYBRSIM's Table 1 (Mosterman, "HYBRSIM: a modeling and simulation environment for hybrid
// bond graphs", Higher Index DAEs): the conservation-of-state iteration at the inelastic
// collision of two equal masses, beside the one event in which deltastep makes the jump.
//
//   node examples/hybrsim_table1.mjs        (after npm run build)
//
// HYBRSIM, at the collision (m1 = m2 = 1, v1 = 1, v2 = 0): p1 is the independent state; its
// velocity is enforced on m2 (p2+ = m2 p1 / m1), but only a fraction eta = 0.4 of the jump
// is applied per iteration, dp2 = eta (p2+ - p2), and taken out of p1, until the change is
// below a margin. Each iteration shrinks p1 - p2 by the factor 1 - 2 eta = 0.2.
// deltastep: examples/two_masses_plastic.delta writes the collision as a force impulse
// J delta(t - hit) with J = (1 + e) m1 m2/(m1 + m2) (x1' - x2'); the event applies it once,
// and p1 = p2 = 1/2 exactly. With --method euler (HYBRSIM's integrator) the event is the
// same: between collisions the motion is uniform, which forward Euler follows exactly.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileModel, Simulator } from '../dist/index.js';

const ETA = 0.4,
  MARGIN = 1e-12;
const m1 = 1,
  m2 = 1;

/** The iteration of Table 1, every row until the applied change is below MARGIN. */
export function conservationOfState(p1 = 1, p2 = 0) {
  const rows = [];
  for (let k = 0; k < 1000; k++) {
    const p2Plus = (m2 / m1) * p1;
    const dp2 = ETA * (p2Plus - p2);
    rows.push({ k, p1, p2Plus, p2, dp2 });
    if (Math.abs(dp2) < MARGIN) break;
    p2 += dp2;
    p1 -= dp2;
  }
  return rows;
}

const fmt = (x) => Number(x.toPrecision(12)).toString().padEnd(16);
const rows = conservationOfState();
console.log(`HYBRSIM, Table 1 (eta = ${ETA}); the source shows iterations 0 to 3:`);
console.log(`${'iteration'.padEnd(10)}${'p1'.padEnd(16)}${'p2+'.padEnd(16)}${'p2'.padEnd(16)}eta (p2+ - p2)`);
for (const r of rows.slice(0, 4))
  console.log(`${String(r.k).padEnd(10)}${fmt(r.p1)}${fmt(r.p2Plus)}${fmt(r.p2)}${fmt(r.dp2)}`);
const last = rows[rows.length - 1];
console.log(`... until the change is below ${MARGIN}: ${rows.length} iterations, p1 = ${last.p1}, p2 = ${last.p2}`);

const file = fileURLToPath(new URL('./two_masses_plastic.delta', import.meta.url));
const sim = new Simulator(compileModel(readFileSync(file, 'utf8'), 'examples/two_masses_plastic.delta'));
for (const options of [{}, { method: 'euler', step: 0.01 }]) {
  const r = sim.run(options);
  const hit = r.events[0];
  console.log(
    `\ndeltastep${options.method ? ` --method euler --step ${options.step}` : ''}: ${r.events.length} event, ${hit.name} at t = ${hit.t}`,
  );
  console.log(
    `  p1 = m1 x1' = ${m1 * hit.pre["x1'"]} -> ${m1 * hit.post["x1'"]},  p2 = m2 x2' = ${m2 * hit.pre["x2'"]} -> ${m2 * hit.post["x2'"]}  (exact: 1/2 and 1/2)`,
  );
}
