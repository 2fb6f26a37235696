// The main example (`npm start`): the heavy rope with a point load (Hohmann, "Point
// abstractions in continuous models", 4.1), solved by shooting with deltastep's library API
// and compared with the exact solution, two catenaries joined at the load.
//
//   y'' = (w/H) sqrt(1 + y'^2) + (F/H) delta(x - a),   z' = sqrt(1 + y'^2)
//   y(0) = 8, y'(0) = p1, z(0) = 0;   y(10) = 8, z(10) = l      (unknowns p1 and H)
//
// Run from the project root after `npm install` (which builds dist/): `npm start`.
// It prints the transformed equations, the comparison table, and writes rope.svg (a plot of
// the rope) into the current directory.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileModel, formatText, readModelFile, shoot, transformReport } from '../dist/node.js';

const here = dirname(fileURLToPath(import.meta.url));
const modelFile = join(here, 'rope.delta');
const cli = join(here, '..', 'dist', 'cli.js');

// 1. Compile the model once: the delta becomes a step variable and a time event at x = a.
const model = compileModel(readModelFile(modelFile), 'examples/rope.delta');
console.log('The heavy rope with a point load (examples/rope.delta), as deltastep transforms it:\n');
console.log(formatText(transformReport(model)));

// 2. Shoot for p1 = y'(0) and H (tolerances come from the file's `option rtol/atol`).
const result = shoot(model);
if (!result.converged) {
  console.error(`shooting did not converge: ${result.message}`);
  process.exit(3);
}
const { p1, H } = result.unknowns;
const kink = result.solution.events.find((e) => e.name.startsWith('delta'));
console.log(
  `Shooting converged in ${result.iterations.length - 1} Newton iterations (${result.residualEvaluations} shots).\n`,
);

// 3. The exact solution. With k = w/H each segment is a catenary:
//      [0, a]:  y' = sinh(k x + A1),       A1 = asinh(p1)
//      [a, L]:  y' = sinh(k (x - a) + A2), A2 = asinh(sinh(k a + A1) + F/H)   (the slope jumps by F/H)
//    and y, z follow in closed form (y from cosh, z from sinh). The two boundary conditions
//    y(L) = 8 and z(L) = l are two equations in (p1, H): solved here by Newton's method on the
//    closed form (no ODE solver), to the last digit.
const w = 1,
  F = 5,
  a = 4,
  l = 12,
  L = 10,
  y0 = 8;
function exact(p1, H) {
  const k = w / H;
  const A1 = Math.asinh(p1);
  const slopeBefore = Math.sinh(k * a + A1);
  const ya = y0 + (Math.cosh(k * a + A1) - Math.cosh(A1)) / k;
  const za = (Math.sinh(k * a + A1) - Math.sinh(A1)) / k;
  const slopeAfter = slopeBefore + F / H;
  const A2 = Math.asinh(slopeAfter);
  const yL = ya + (Math.cosh(k * (L - a) + A2) - Math.cosh(A2)) / k;
  const zL = za + (Math.sinh(k * (L - a) + A2) - Math.sinh(A2)) / k;
  return { ya, za, slopeBefore, slopeAfter, residual: [yL - y0, zL - l] };
}
function solveExact(guess) {
  let [p, h] = guess;
  for (let it = 0; it < 50; it++) {
    const r = exact(p, h).residual;
    // Jacobian by central differences: accurate to ~1e-10, enough for Newton to converge
    // quadratically to the root of the (exactly evaluated) residual.
    const dp = 1e-6,
      dh = 1e-6 * h;
    const rp1 = exact(p + dp, h).residual,
      rm1 = exact(p - dp, h).residual;
    const rp2 = exact(p, h + dh).residual,
      rm2 = exact(p, h - dh).residual;
    const j11 = (rp1[0] - rm1[0]) / (2 * dp),
      j21 = (rp1[1] - rm1[1]) / (2 * dp);
    const j12 = (rp2[0] - rm2[0]) / (2 * dh),
      j22 = (rp2[1] - rm2[1]) / (2 * dh);
    const det = j11 * j22 - j12 * j21;
    const sp = (-r[0] * j22 + r[1] * j12) / det;
    const sh = (-j11 * r[1] + j21 * r[0]) / det;
    p += sp;
    h += sh;
    if (Math.abs(sp) < 1e-15 * Math.max(1, Math.abs(p)) && Math.abs(sh) < 1e-15 * h) break;
  }
  return { p1: p, H: h, ...exact(p, h) };
}
const ex = solveExact([-1, 5]);

// 4. Compare.
const rows = [
  ["p1 = y'(0)", p1, ex.p1],
  ['H', H, ex.H],
  ['y(4)', kink.post.y, ex.ya],
  ["y'(4-) before the load", kink.pre["y'"], ex.slopeBefore],
  ["y'(4+) after the load", kink.post["y'"], ex.slopeAfter],
  ["jump of y' (= F/H)", kink.jumps["y'"], F / ex.H],
  ['z(4) rope left of load', kink.pre.z, ex.za],
];
const fmt = (v) => v.toFixed(13).padStart(18);
console.log(`${'quantity'.padEnd(24)}${'deltastep'.padStart(18)}${'exact'.padStart(18)}${'error'.padStart(10)}`);
for (const [name, got, want] of rows) {
  console.log(
    `${name.padEnd(24)}${fmt(got)}${fmt(want)}${Math.abs(got - want)
      .toExponential(1)
      .padStart(10)}`,
  );
}
const worst = Math.max(...rows.map(([, got, want]) => Math.abs(got - want)));
console.log(`\nLargest difference ${worst.toExponential(1)} (tolerances rtol = 1e-10, atol = 1e-12).`);

// 5. The plot: the rope y(x) with its kink under the load, drawn by the command line (plots are
//    not part of the library): a simulation with the unknowns just found, y only, steps of at
//    most 0.1 so the curve is smooth. Its CSV output (stdout) is captured and not shown.
const svg = resolve(process.cwd(), 'rope.svg');
const plot = spawnSync(
  process.execPath,
  [
    cli,
    'simulate',
    modelFile,
    '--set',
    `p1=${p1}`,
    '--set',
    `H=${H}`,
    '--variables',
    'y',
    '--step',
    '0.1',
    '--format',
    'csv',
    '--plot',
    svg,
  ],
  { encoding: 'utf8' },
);
if (plot.status !== 0) {
  console.error(`the plot was not written: ${plot.stderr.trim()}`);
  process.exit(plot.status ?? 3);
}
console.log(`The rope y(x) is plotted in ${svg}`);
