#!/usr/bin/env node
// ARGESIM C12 task b: the figures of the source (ACSL solution, Hohmann, Gotzel, Pöge),
// computed with deltastep from examples/c12_task_b.delta (relative coordinates).
//
//   node examples/c12_figures.mjs        (after npm run build; writes examples/plots/c12_fig*.svg)
//
// Fig. 1: the distance functions y1, y2, y3 of task a (e = 0.5) against t.
// Fig. 2: the number of collisions n against e, logarithmic, down to e = 0.1715763 where the
//         source finds its maximum n = 1263; beside it n against e - (3 - 2 sqrt 2), the
//         distance to the critical restitution of inelastic collapse, on log-log axes.
// Fig. 3: the final velocities v1..v4 against e (v4 the upper curve, all 0.25 below ~0.175).
// It also prints the table of the counts the source and exact rational arithmetic give.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile } from 'vega-lite';
import { View, parse } from 'vega';
import { useTextWidths } from './plots/text-width.mjs';
import { compileModel, Simulator } from '../dist/index.js';

useTextWidths();

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const model = compileModel(readFileSync(here('./c12_task_b.delta'), 'utf8'), 'examples/c12_task_b.delta');
const sim = new Simulator(model);
const E_CRIT = 3 - 2 * Math.SQRT2;

async function svg(spec, file) {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  writeFileSync(here(`./plots/${file}`), await view.toSVG());
  console.log(`wrote examples/plots/${file}`);
}

/** One panel of lines, one per value of `series`. */
function lineChart(title, values, x, y, series, extra = {}) {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title,
    width: 560,
    height: 300,
    data: { values },
    mark: { type: 'line', strokeWidth: 1.6 },
    encoding: { x, y, color: { field: series, type: 'nominal', title: null }, ...extra },
  };
}

// Fig. 1: distances between neighbours for e = 0.5, on a grid of the dense output plus every
// collision's before/after rows (the kinks are collisions)
const fig1 = sim.run({ set: { e: 0.5 }, to: 12, outputStep: 0.02 });
const col = (name) => fig1.columns.indexOf(name);
const distances = fig1.rows.flatMap((r) => ['y1', 'y2', 'y3'].map((k) => ({ t: r[0], distance: r[col(k)], gap: k })));
await svg(
  lineChart(
    {
      text: 'C12 task a: distance functions (e = 0.5)',
      subtitle: 'y1 = x2 - x1 solid, y2 = x3 - x2 dashed, y3 = x4 - x3 dotted; each kink is a collision',
    },
    distances,
    { field: 't', type: 'quantitative', title: 't' },
    { field: 'distance', type: 'quantitative', title: 'distance' },
    'gap',
    {
      strokeDash: {
        field: 'gap',
        type: 'nominal',
        scale: {
          range: [
            [1, 0],
            [6, 3],
            [2, 2],
          ],
        },
        title: null,
      },
    },
  ),
  'c12_fig1_distances.svg',
);

// The sweep: e from 1 down to 0.1715763, points spaced evenly in log(e - e_crit) so that the
// growth near the critical value shows, plus the values the source and the issue quote.
const quoted = [0.1715763, 0.1716, 0.1718, 0.172, 0.175, 0.18, 0.5, 1];
const sMax = Math.log10((1 - E_CRIT) / (0.1715763 - E_CRIT));
const grid = Array.from({ length: 160 }, (_, i) => E_CRIT + (1 - E_CRIT) * 10 ** (-(sMax * i) / 159));
const es = [...new Set([...grid, ...quoted])].filter((e) => e >= 0.1715763 && e <= 1).sort((a, b) => a - b);
const sweep = es.map((e) => {
  const r = sim.run({ set: { e }, record: false, eventValues: false });
  if (r.status !== 'ok') throw new Error(`e = ${e}: ${r.status} ${r.message}`);
  return { e, n: r.final.n, v1: r.final.v1, v2: r.final.v2, v3: r.final.v3, v4: r.final.v4, excess: e - E_CRIT };
});

console.log('\n  e          n (deltastep)   exact / source');
const exact = { 0.1715763: '1263 (source: 1263)', 0.1716: 452, 0.1718: 157, 0.172: 115, 0.175: 40, 0.18: 25 };
for (const row of sweep.filter((p) => p.e in exact))
  console.log(`  ${String(row.e).padEnd(10)} ${String(row.n).padEnd(15)} ${exact[row.e]}`);
console.log('');

await svg(
  {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: {
      text: 'C12 task b: number of collisions n(e)',
      subtitle: `maximum n = ${sweep[0].n} at e = 0.1715763 (source: 1263); critical e = 3 - 2 sqrt 2 = ${E_CRIT.toFixed(7)}`,
    },
    data: { values: sweep },
    hconcat: [
      {
        width: 330,
        height: 280,
        mark: { type: 'line', point: { size: 14 } },
        encoding: {
          x: { field: 'e', type: 'quantitative', title: 'restitution e', scale: { domain: [0.15, 1] } },
          y: { field: 'n', type: 'quantitative', title: 'collisions n (log)', scale: { type: 'log' } },
        },
      },
      {
        width: 330,
        height: 280,
        mark: { type: 'line', point: { size: 14 } },
        encoding: {
          x: { field: 'excess', type: 'quantitative', title: 'e - (3 - 2 sqrt 2) (log)', scale: { type: 'log' } },
          y: { field: 'n', type: 'quantitative', title: 'collisions n (log)', scale: { type: 'log' } },
        },
      },
    ],
  },
  'c12_fig2_collisions.svg',
);

const velocities = sweep.flatMap((p) => ['v1', 'v2', 'v3', 'v4'].map((k) => ({ e: p.e, v: p[k], sphere: k })));
await svg(
  lineChart(
    {
      text: 'C12 task b: final velocities v(e)',
      subtitle: 'v4 the upper curve; all four 0.25 below e of about 0.175 (quasi-plastic)',
    },
    velocities,
    { field: 'e', type: 'quantitative', title: 'restitution e', scale: { domain: [0.15, 1] } },
    { field: 'v', type: 'quantitative', title: 'final velocity' },
    'sphere',
  ),
  'c12_fig3_velocities.svg',
);
