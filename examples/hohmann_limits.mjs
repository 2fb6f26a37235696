#!/usr/bin/env node
// Hohmann's limits ("Point abstractions in continuous models", 4.1 and 4.2): the point
// abstractions of the paper as limits of finite models, computed with deltastep.
//
//   node examples/hohmann_limits.mjs     (after npm run build; writes examples/plots/hohmann_*.svg)
//
// 1. The band (Figure 1): examples/rope_band.delta spreads the rope's load F over a band of
//    width eps. Shooting for p1 and H at eps = 2, 1, 1/2, ..., 1/256 and comparing with the
//    point-load rope's closed form (two catenaries, solved here by Newton's method on the
//    closed form, as examples/main.mjs does) gives the errors and their observed orders.
//    The order is 1, not 2; the first-order coefficient is derived below from the closed form
//    and printed beside the measured error/eps.
// 2. The finite collision (Figure 2): examples/collision_finite.delta, a stiff contact spring
//    k with a compression and a restitution phase whose impulses are in the ratio e. Prints
//    the impulses, the velocities after contact against Newton's law (examples/two_masses.delta,
//    one event) and the positions at t = 5 for k = 1 ... 1e8, and draws the contact force
//    F(t) for e = 0.6, 1, 0 (Figure 2b, c, d).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile } from 'vega-lite';
import { View, parse } from 'vega';
import { useTextWidths } from './plots/text-width.mjs';
import { compileModel, shoot, simulate, Simulator } from '../dist/index.js';

useTextWidths();

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const load = (name) => compileModel(readFileSync(here(`./${name}`), 'utf8'), `examples/${name}`);
const exp = (x, d = 3) => (Number.isFinite(x) ? x.toExponential(d) : String(x));
const pad = (s, n) => String(s).padEnd(n);

async function svg(spec, file) {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  writeFileSync(here(`./plots/${file}`), await view.toSVG());
  console.log(`wrote examples/plots/${file}`);
}

// ---------------------------------------------------------------------------------------
// 1. The rope: point load (closed form) and band (shooting)
// ---------------------------------------------------------------------------------------
const W = 1,
  F = 5,
  A = 4,
  LEN = 12,
  L = 10,
  Y0 = 8; // as in examples/rope.delta and rope_band.delta

/**
 * The point-load rope's closed form: y' = sinh(k x + A1) on [0, a], the slope jumps by F/H at
 * a, y' = sinh(k (x - a) + A2) on [a, L] (k = w/H). `ds` and `dz` perturb the slope and the
 * arc length just after the load: the first-order effect of the band, below.
 */
function pointRope(p1, H, ds = 0, dz = 0) {
  const k = W / H,
    A1 = Math.asinh(p1);
  const slopeBefore = Math.sinh(k * A + A1);
  const ya = Y0 + (Math.cosh(k * A + A1) - Math.cosh(A1)) / k;
  const za = (Math.sinh(k * A + A1) - Math.sinh(A1)) / k + dz;
  const A2 = Math.asinh(slopeBefore + F / H + ds);
  const yL = ya + (Math.cosh(k * (L - A) + A2) - Math.cosh(A2)) / k;
  const zL = za + (Math.sinh(k * (L - A) + A2) - Math.sinh(A2)) / k;
  return { slopeBefore, residual: [yL - Y0, zL - LEN] };
}

/** Jacobian of f(p1, H) -> [r0, r1] by central differences (the closed form is smooth). */
function jacobian(f, p1, H) {
  const dp = 1e-6,
    dh = 1e-6 * H;
  const a = f(p1 + dp, H),
    b = f(p1 - dp, H),
    c = f(p1, H + dh),
    d = f(p1, H - dh);
  return [
    [(a[0] - b[0]) / (2 * dp), (c[0] - d[0]) / (2 * dh)],
    [(a[1] - b[1]) / (2 * dp), (c[1] - d[1]) / (2 * dh)],
  ];
}
const solve2 = (J, r) => {
  const det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
  return [(r[0] * J[1][1] - r[1] * J[0][1]) / det, (J[0][0] * r[1] - J[1][0] * r[0]) / det];
};

function exactPointRope() {
  let p1 = -1,
    H = 5;
  const f = (p, h) => pointRope(p, h).residual;
  for (let it = 0; it < 60; it++) {
    const [sp, sh] = solve2(jacobian(f, p1, H), f(p1, H));
    p1 -= sp;
    H -= sh;
    if (Math.abs(sp) < 1e-15 * Math.max(1, Math.abs(p1)) && Math.abs(sh) < 1e-15 * H) break;
  }
  return { p1, H };
}

/**
 * The first-order effect of the band, derived. Across the band [a - eps/2, a + eps/2] the
 * density F/eps drives y' = s along a ramp from s0 = y'(a-) to s1 = s0 + F/H (plus O(eps));
 * the point load keeps s0 on the first half and s1 on the second. The rope's weight adds
 * (w/H) int sqrt(1 + s^2) dx to the slope and the arc length adds int sqrt(1 + s^2) dx:
 * over the ramp that is eps times the mean M of g(s) = sqrt(1 + s^2) over [s0, s1], for the
 * point load eps times T = (g(s0) + g(s1))/2. g is convex, so D = M - T < 0, and the band
 * leaves y' lower by (w/H) D eps and the rope shorter by D eps at the end of the band (y
 * itself agrees to O(eps^2): the ramp's mean slope is the mean of s0 and s1). With J the
 * Jacobian of the boundary residuals in (p1, H) and dr/deps their change under those two
 * perturbations, the band's unknowns are (p1, H)_point - eps J^-1 dr/deps + O(eps^2).
 */
function bandFirstOrder({ p1, H }) {
  const g = (s) => Math.hypot(1, s),
    G = (s) => (s * g(s) + Math.asinh(s)) / 2; // G' = g
  const s0 = pointRope(p1, H).slopeBefore,
    s1 = s0 + F / H;
  const D = (G(s1) - G(s0)) / (s1 - s0) - (g(s0) + g(s1)) / 2;
  const h = 1e-6,
    k = W / H;
  const rp = pointRope(p1, H, k * D * h, D * h).residual,
    rm = pointRope(p1, H, -k * D * h, -D * h).residual;
  const dr = [(rp[0] - rm[0]) / (2 * h), (rp[1] - rm[1]) / (2 * h)];
  const [cp, cH] = solve2(
    jacobian((p, hh) => pointRope(p, hh).residual, p1, H),
    dr,
  );
  return { D, p1: -cp, H: -cH };
}

const exactRope = exactPointRope();
const c1 = bandFirstOrder(exactRope);
const band = load('rope_band.delta');
const EPS = [2, 1, 0.5, 0.25, 0.125, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256];
const ropeRows = EPS.map((eps) => {
  const r = shoot(band, { set: { eps } });
  if (!r.converged) throw new Error(`rope_band.delta, eps = ${eps}: ${r.status} ${r.message}`);
  return { eps, p1: r.unknowns.p1, H: r.unknowns.H, ep1: r.unknowns.p1 - exactRope.p1, eH: r.unknowns.H - exactRope.H };
});
const order = (rows, key, i, ratio = 2) => Math.log(Math.abs(rows[i - 1][key] / rows[i][key])) / Math.log(ratio);

console.log('1. Hohmann 4.1, Figure 1: the load F on a band of width eps (examples/rope_band.delta, shoot)');
console.log(`   point load (closed form): p1 = ${exactRope.p1.toPrecision(17)}, H = ${exactRope.H.toPrecision(17)}`);
console.log(
  `   first order, derived: D = M - T = ${c1.D.toPrecision(6)}; p1 - p1_point = ${c1.p1.toPrecision(6)} eps, H - H_point = ${c1.H.toPrecision(6)} eps\n`,
);
console.log(
  `   ${pad('eps', 12)}${pad('p1', 18)}${pad('H', 17)}${pad('p1 error', 12)}${pad('order', 7)}${pad('err/eps', 11)}${pad('H error', 12)}${pad('order', 7)}err/eps`,
);
ropeRows.forEach((r, i) => {
  const o1 = i ? order(ropeRows, 'ep1', i).toFixed(3) : '',
    o2 = i ? order(ropeRows, 'eH', i).toFixed(3) : '';
  console.log(
    `   ${pad(r.eps, 12)}${pad(r.p1.toFixed(13), 18)}${pad(r.H.toFixed(12), 17)}${pad(exp(r.ep1), 12)}${pad(o1, 7)}${pad((r.ep1 / r.eps).toFixed(6), 11)}${pad(exp(r.eH), 12)}${pad(o2, 7)}${(r.eH / r.eps).toFixed(6)}`,
  );
});
console.log(
  `   (err/eps -> the derived coefficients ${c1.p1.toFixed(6)} and ${c1.H.toFixed(6)}; order 1: the band rounds the kink,`,
);
console.log("    and the convex sqrt(1 + y'^2) of weight and length gives the ramp an O(eps) defect)\n");

const P1_DERIVED = `derived ${Math.abs(c1.p1).toFixed(5)} eps`,
  H_DERIVED = `derived ${Math.abs(c1.H).toFixed(5)} eps`;
const ropePoints = ropeRows.flatMap((r) => [
  { eps: r.eps, error: Math.abs(r.ep1), series: '|p1 - p1 point| (shoot)' },
  { eps: r.eps, error: Math.abs(r.eH), series: '|H - H point| (shoot)' },
]);
const ropeLines = ropeRows.flatMap((r) => [
  { eps: r.eps, error: Math.abs(c1.p1) * r.eps, series: P1_DERIVED },
  { eps: r.eps, error: Math.abs(c1.H) * r.eps, series: H_DERIVED },
  // a slope-2 line through the first p1 error: what eps^2 convergence would look like
  {
    eps: r.eps,
    error: Math.abs(ropeRows[0].ep1) * (r.eps / ropeRows[0].eps) ** 2,
    series: 'eps^2 (slope 2, for comparison)',
  },
]);
await svg(
  {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: {
      text: 'Hohmann 4.1, Figure 1: load F on a band of width eps -> point load',
      subtitle: 'errors of p1 and H against the point-load rope (closed form): order 1, as derived (dashed)',
    },
    width: 520,
    height: 320,
    encoding: {
      x: {
        field: 'eps',
        type: 'quantitative',
        title: 'band width eps (log)',
        scale: { type: 'log', domain: [0.003, 2.5], nice: false },
      },
      y: { field: 'error', type: 'quantitative', title: 'error (log)', scale: { type: 'log' } },
      color: {
        field: 'series',
        type: 'nominal',
        title: null,
        legend: { orient: 'bottom-right', labelLimit: 300 },
        scale: {
          domain: [
            '|H - H point| (shoot)',
            H_DERIVED,
            '|p1 - p1 point| (shoot)',
            P1_DERIVED,
            'eps^2 (slope 2, for comparison)',
          ],
          range: ['#4c78a8', '#4c78a8', '#e45756', '#e45756', '#999999'],
        },
      },
    },
    layer: [
      { data: { values: ropeLines }, mark: { type: 'line', strokeDash: [5, 4], strokeWidth: 1.3 } },
      { data: { values: ropePoints }, mark: { type: 'line', point: { size: 40 }, strokeWidth: 1.8 } },
    ],
  },
  'hohmann_rope_band.svg',
);

// ---------------------------------------------------------------------------------------
// 2. The collision with a finite contact force
// ---------------------------------------------------------------------------------------
const M1 = 1,
  M2 = 1,
  V0 = 1,
  T0 = 1,
  TEND = 5; // as in examples/two_masses.delta
const MU = (M1 * M2) / (M1 + M2);
/** Closed form of collision_finite.delta (header): instants, impulses and the positions' lag. */
function collisionExact(k, e) {
  const w = Math.sqrt(k / MU),
    q = Math.PI / 2 / w;
  const lag = (V0 / w) * (1 - e * e + (Math.PI / 2) * e * (1 + e)); // D of the header
  return { tstar: T0 + q, tleave: T0 + q + e * q, IC: MU * V0, IR: e * MU * V0, peak: V0 * Math.sqrt(k * MU), lag };
}
const newton = simulate(readFileSync(here('./two_masses.delta'), 'utf8'), { to: TEND });
const NV1 = newton.final["x1'"],
  NV2 = newton.final["x2'"],
  NX1 = newton.final.x1,
  NX2 = newton.final.x2;
const collision = load('collision_finite.delta');
const sim = new Simulator(collision);
const runCollision = (k, e, extra = {}) => {
  const r = sim.run({ set: { k, e }, ...extra });
  if (r.status !== 'ok') throw new Error(`collision_finite.delta, k = ${k}, e = ${e}: ${r.status} ${r.message}`);
  return r;
};

console.log('2. Hohmann 4.2, Figure 2: the collision with a finite contact force (examples/collision_finite.delta)');
console.log(
  `   Newton's law, examples/two_masses.delta (one event): x1' = ${NV1}, x2' = ${NV2}; x1(5) = ${NX1}, x2(5) = ${NX2}\n`,
);
const E = 0.6;
const KS = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8];
const collRows = KS.map((k) => {
  const r = runCollision(k, E, { record: false });
  const ex = collisionExact(k, E);
  const leave = r.events.find((ev) => ev.name === 'leave');
  return {
    k,
    v1: r.final["x1'"],
    v2: r.final["x2'"],
    IC: r.final.IC,
    IR: r.final.IR,
    duration: leave.t - T0,
    ev: Math.max(Math.abs(r.final["x1'"] - NV1), Math.abs(r.final["x2'"] - NV2)),
    ex1: r.final.x1 - NX1,
    ex2: r.final.x2 - NX2,
    lag: ex.lag,
  };
});
console.log(
  `   e = ${E}: impulses, velocities after contact against Newton's, positions at t = 5 (closed-form lag D/2 = (v0/w)((1 - e^2) + (pi/2) e (1 + e))/2)`,
);
console.log(
  `   ${pad('k', 7)}${pad('IC', 15)}${pad('IR', 15)}${pad('IR/IC', 15)}${pad("x1'", 16)}${pad("x2'", 16)}${pad('|dv| Newton', 13)}${pad('contact', 12)}${pad('x1(5) - 1.8', 13)}${pad('order', 7)}${pad('D/2 closed', 12)}`,
);
collRows.forEach((r, i) => {
  const o = i
    ? (Math.log10(Math.abs(collRows[i - 1].ex1 / r.ex1)) / Math.log10(r.k / collRows[i - 1].k)).toFixed(4)
    : '';
  console.log(
    `   ${pad(r.k.toExponential(0), 7)}${pad(r.IC.toFixed(12), 15)}${pad(r.IR.toFixed(12), 15)}${pad((r.IR / r.IC).toFixed(12), 15)}${pad(r.v1.toFixed(12), 16)}${pad(r.v2.toFixed(12), 16)}${pad(exp(r.ev, 1), 13)}${pad(exp(r.duration), 12)}${pad(exp(r.ex1, 6), 13)}${pad(o, 7)}${exp(r.lag / 2, 6)}`,
  );
});
console.log(
  "   (the velocities are Newton's for every k, to the integration tolerance: with no other force, momentum and",
);
console.log(
  "    IR = e IC fix them. What converges is the contact: its duration and the positions' lag fall like k^(-1/2))\n",
);

// Figure 2: the contact force for e = 0.6, 1, 0 at k = 1e4 (the paper's b, c, d)
const KFIG = 1e4;
const panels = [
  [0.6, '(b) partially elastic'],
  [1, '(c) elastic'],
  [0, '(d) inelastic'],
];
console.log(`   Figure 2 (k = ${KFIG}): e, t*, contact ends, IC, IR, IR/IC (closed form: IC = 0.5, IR = 0.5 e)`);
const forceRows = [];
for (const [e, label] of panels) {
  const r = runCollision(KFIG, e, { to: 1.03, outputStep: 2e-5 });
  const ti = r.columns.indexOf('t'),
    fi = r.columns.indexOf('F'),
    pi = r.columns.indexOf('phase');
  const tstar = r.events.find((ev) => ev.name === 'turn').t;
  const end = r.events.find((ev) => ev.name === 'leave')?.t ?? tstar;
  const title = `${label}, e = ${e}: FC = ${r.final.IC.toFixed(4)}, FR = ${r.final.IR.toFixed(4)}`;
  console.log(
    `   ${pad(e, 5)}${pad(tstar.toFixed(9), 14)}${pad(end.toFixed(9), 14)}${pad(r.final.IC.toFixed(10), 14)}${pad(r.final.IR.toFixed(10), 14)}${e > 0 ? (r.final.IR / r.final.IC).toFixed(10) : '0'}`,
  );
  for (const row of r.rows) {
    const t = row[ti];
    if (t < 0.998 || t > 1.024) continue; // the window drawn: 2 ms before the touch to the elastic separation
    const phase = row[pi];
    // the turn's rows sit in both phases so that the two areas meet at t*
    const names = phase === 1 ? ['compression'] : phase === 2 ? ['restitution'] : [];
    if (t === tstar && phase === 1 && e > 0) names.push('restitution');
    if (t === tstar && phase !== 1) names.push('compression');
    forceRows.push({ ms: (t - T0) * 1e3, F: row[fi], panel: title, phase: names[0] ?? 'apart' });
    for (const extra of names.slice(1)) forceRows.push({ ms: (t - T0) * 1e3, F: row[fi], panel: title, phase: extra });
  }
}
console.log('');
await svg(
  {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: {
      text: 'Hohmann 4.2, Figure 2: the force impulses of a collision (collision_finite.delta, k = 1e4)',
      subtitle:
        'compression k d up to the maximum deformation t*, restitution (k/e^2)(d - dp): FR = e FC, areas under F',
    },
    data: { values: forceRows },
    facet: {
      row: {
        field: 'panel',
        type: 'nominal',
        title: null,
        sort: null,
        header: { labelAngle: 0, labelAlign: 'left', labelAnchor: 'start', labelOrient: 'top', labelFontSize: 12 },
      },
    },
    spec: {
      width: 560,
      height: 130,
      layer: [
        // stack: null, or the two phases' areas would pile up where they meet at t*
        {
          transform: [{ filter: "datum.phase !== 'apart'" }],
          mark: { type: 'area', opacity: 0.35, interpolate: 'linear' },
          encoding: {
            y: { field: 'F', type: 'quantitative', stack: null },
            color: {
              field: 'phase',
              type: 'nominal',
              title: null,
              scale: { domain: ['compression', 'restitution'], range: ['#4c78a8', '#f58518'] },
            },
          },
        },
        { mark: { type: 'line', color: 'black', strokeWidth: 1.3 } },
      ],
      encoding: {
        x: { field: 'ms', type: 'quantitative', title: 't - 1 (ms, contact from t = 1)', scale: { domain: [-2, 24] } },
        y: { field: 'F', type: 'quantitative', title: 'contact force F (N)' },
      },
    },
    resolve: { scale: { y: 'shared' } },
  },
  'hohmann_collision_force.svg',
);

const convPoints = collRows.flatMap((r) => [
  { k: r.k, value: Math.abs(r.ex1), series: '|x1(5) - Newton| (deltastep)' },
  { k: r.k, value: r.duration, series: 'contact duration (deltastep)' },
  { k: r.k, value: Math.max(r.ev, 1e-16), series: "max |x' - Newton| after contact" },
]);
const convLines = collRows.flatMap((r) => [
  { k: r.k, value: r.lag / 2, series: 'closed form D/2 ~ k^(-1/2)' },
  { k: r.k, value: (1 + E) * (Math.PI / 2) * Math.sqrt(MU / r.k), series: 'closed form (1 + e)(pi/2)/w' },
]);
await svg(
  {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: {
      text: "Hohmann 4.2: finite contact -> Newton's impulse as k grows (e = 0.6)",
      subtitle:
        "velocities after contact are Newton's for every k; the contact time and the positions' lag fall like k^(-1/2)",
    },
    width: 520,
    height: 320,
    encoding: {
      x: {
        field: 'k',
        type: 'quantitative',
        title: 'contact stiffness k (log)',
        scale: { type: 'log' },
        axis: { format: '.0e', values: KS },
      },
      y: {
        field: 'value',
        type: 'quantitative',
        title: 'error / duration (log)',
        scale: { type: 'log' },
        axis: { format: '.0e' },
      },
      color: {
        field: 'series',
        type: 'nominal',
        title: null,
        legend: { orient: 'bottom-left', labelLimit: 300 },
        scale: {
          domain: [
            'contact duration (deltastep)',
            'closed form (1 + e)(pi/2)/w',
            '|x1(5) - Newton| (deltastep)',
            'closed form D/2 ~ k^(-1/2)',
            "max |x' - Newton| after contact",
          ],
          range: ['#4c78a8', '#4c78a8', '#e45756', '#e45756', '#54a24b'],
        },
      },
    },
    layer: [
      { data: { values: convLines }, mark: { type: 'line', strokeDash: [5, 4], strokeWidth: 1.3 } },
      { data: { values: convPoints }, mark: { type: 'line', point: { size: 40 }, strokeWidth: 1.8 } },
    ],
  },
  'hohmann_collision_convergence.svg',
);
