// The library API in one runnable file (docs/api.md). From the project root, after
// `npm install`:  node docs/examples/api-example.mjs
// It prints a few numbers and checks each against its closed form.
import { compileModel, simulate, shoot, Simulator, transformReport, formatText } from '../../dist/index.js';

const check = (what, value, exact, tol) => {
  const ok = Math.abs(value - exact) <= tol;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}: ${value} (exact ${exact})`);
  if (!ok) process.exitCode = 1;
};

// 1. A delta where the physics puts it: y'' = -y + 2 delta(t - 1), at rest before.
//    For t > 1, y = 2 sin(t - 1); y' jumps by 2 at t = 1.
const model = compileModel(`y'' = -y + 2*delta(t - 1)
y(0) = 0; y'(0) = 0`);
const run = simulate(model, { to: 5, rtol: 1e-10, atol: 1e-12 });
check('y(5)', run.final.y, 2 * Math.sin(4), 1e-9);
check("jump of y' at t = 1", run.events[0].jumps["y'"], 2, 0);

// 2. What the transformation produced (text; formatLatex and the report's JSON too).
console.log(formatText(transformReport(model)).split('\n').slice(0, 6).join('\n'));

// 3. Many runs of one model: a Simulator reuses its compiled code and work arrays.
const ball = compileModel(`independent t from 0 to 3
parameter g = 9.81, e = 0.8
event bounce when h falls
h'' = -g - (1 + e)*h'*delta(t - bounce)
h(0) = 1; h'(0) = 0`);
const sim = new Simulator(ball);
for (const e of [0.5, 0.8]) {
  const r = sim.run({ set: { e }, rtol: 1e-10, atol: 1e-12, record: false, eventValues: false });
  // the first bounce at sqrt(2 h0 / g), the second 2 e sqrt(2 h0 / g) later
  const t1 = Math.sqrt(2 / 9.81);
  check(`second bounce, e = ${e}`, r.events[1].t, t1 * (1 + 2 * e), 1e-12);
}

// 4. Streaming: rows go to a sink as they are produced (memory stays flat however long the run).
let rows = 0,
  lastH = NaN;
const streamed = simulate(ball, {
  rtol: 1e-10,
  atol: 1e-12,
  outputStep: 0.01,
  sink: {
    row: (r) => {
      rows++;
      lastH = r[1];
    },
  },
});
console.log(`streamed ${rows} rows, status ${streamed.status}, h(3) = ${lastH}`);
check('streamed rows = result rows? (none kept)', streamed.rows.length, 0, 0);

// 5. A boundary value problem: the heavy rope (supports at height 8, 10 apart, length 12)
//    with a load F = 5 at x = 4, by shooting for y'(0) and the horizontal force H.
const rope = shoot(
  `independent x from 0 to 10
parameter w = 1, F = 5, a = 4, l = 12
unknown p1 = -1, H = 5
y'' = w/H*sqrt(1 + y'^2) + F/H*delta(x - a)
z' = sqrt(1 + y'^2)
y(0) = 8; y'(0) = p1; z(0) = 0
y(10) = 8; z(10) = l`,
  { rtol: 1e-10, atol: 1e-12 },
);
// exact: two catenaries joined at the load (tests/fixtures/reference/README.md, rope R1)
check('rope H', rope.unknowns.H, 8.186919493913407, 1e-8);
check('rope p1', rope.unknowns.p1, -1.1106615486105161, 1e-8);
