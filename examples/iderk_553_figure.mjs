#!/usr/bin/env node
// IDERKSolve 5.5.3 (two surfaces): the located solution beside the source's fixed-step one.
//
//   node examples/iderk_553_figure.mjs     (after npm run build; writes examples/plots/iderk_553.svg)
//
// Solid: examples/iderk_553.delta, both events located exactly. Dashed:
// examples/iderk_553_jumpstep.delta, RK4 with dt = 0.01 and each impulse at a grid point
// next to the sign change (wall: the one before, jumpstep 0; brake: the one after,
// jumpstep 1), as IDERKSolve applies them. The two drift apart by the first-order error of
// the late or early jumps. It also prints both event tables.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile } from 'vega-lite';
import { View, parse } from 'vega';
import { useTextWidths } from './plots/text-width.mjs';
import { compileModel, Simulator } from '../dist/index.js';

useTextWidths();

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const runOf = (file, options) =>
  new Simulator(compileModel(readFileSync(here(file), 'utf8'), `examples/${file.slice(2)}`)).run(options);

const runs = [
  { label: 'located (deltastep)', r: runOf('./iderk_553.delta', { outputStep: 0.01 }) },
  { label: 'jumpstep, dt = 0.01 (IDERKSolve)', r: runOf('./iderk_553_jumpstep.delta', {}) },
];

// one line per run and variable, broken where that variable jumps (two rows at one time)
const values = [];
for (const { label, r } of runs) {
  for (const name of ['x', 'y']) {
    const c = r.columns.indexOf(name);
    let piece = 0;
    r.rows.forEach((row, i) => {
      if (i > 0 && r.rows[i - 1][0] === row[0] && r.rows[i - 1][c] !== row[c]) piece++;
      values.push({ t: row[0], value: row[c], variable: name, run: label, piece: `${label}/${piece}`, i });
    });
  }
  console.log(
    `${label}: ${r.events.map((e) => `${e.name} ${e.t.toFixed(5)}`).join(', ')}; x(6) = ${r.final.x.toFixed(8)}, y(6) = ${r.final.y.toFixed(8)}`,
  );
}
const labels = runs.map((x) => x.label);

// the difference on the grid points both runs share away from the events (the located run's
// rows every 0.01 and the fixed-step run's steps; a time with two rows is an event)
const single = (r) => {
  const at = new Map();
  r.rows.forEach((row, i) => {
    const twice = (i > 0 && r.rows[i - 1][0] === row[0]) || (i + 1 < r.rows.length && r.rows[i + 1][0] === row[0]);
    if (!twice) at.set(Math.round(row[0] * 100), row[r.columns.indexOf('x')]);
  });
  return at;
};
const [exactX, gridX] = runs.map(({ r }) => single(r));
const difference = [...gridX].filter(([k]) => exactX.has(k)).map(([k, x]) => ({ t: k / 100, dx: x - exactX.get(k) }));

const events = runs[0].r.events.map((e) => ({ t: e.t, name: e.name }));

const panel = (variable) => ({
  width: 620,
  height: 200,
  layer: [
    {
      data: { values: events },
      mark: { type: 'rule', stroke: '#999', strokeDash: [4, 3] },
      encoding: { x: { field: 't', type: 'quantitative' } },
    },
    {
      data: { values: events },
      mark: { type: 'text', angle: 270, align: 'right', baseline: 'bottom', dx: -2, y: 2, fontSize: 9, color: '#777' },
      encoding: { x: { field: 't', type: 'quantitative' }, text: { field: 'name' } },
    },
    {
      data: { values: values.filter((v) => v.variable === variable) },
      mark: { type: 'line', strokeWidth: 1.5 },
      encoding: {
        x: { field: 't', type: 'quantitative', title: 't', scale: { domain: [0, 6], nice: false } },
        y: { field: 'value', type: 'quantitative', title: variable },
        color: { field: 'run', type: 'nominal', title: null, scale: { domain: labels }, legend: { labelLimit: 320 } },
        strokeDash: {
          field: 'run',
          type: 'nominal',
          title: null,
          scale: {
            domain: labels,
            range: [
              [1, 0],
              [5, 3],
            ],
          },
        },
        detail: { field: 'piece' },
        order: { field: 'i', type: 'quantitative' },
      },
    },
  ],
});

const spec = {
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  title: {
    text: 'IDERKSolve 5.5.3: a wall at x = 0.5 (y := -0.9 y) and a brake at x = 0 (y := 0.8 y)',
    subtitle: [
      'solid: located exactly (rules mark its events); bottom: their difference in x;',
      "dashed: the source's fixed-step jumps (wall jumpstep 0, brake jumpstep 1)",
    ],
  },
  config: { font: 'Helvetica, Arial, sans-serif', background: 'white' },
  vconcat: [
    panel('x'),
    panel('y'),
    {
      width: 620,
      height: 120,
      data: { values: difference },
      mark: { type: 'line', strokeWidth: 1.2, color: '#555' },
      encoding: {
        x: { field: 't', type: 'quantitative', title: 't', scale: { domain: [0, 6], nice: false } },
        y: { field: 'dx', type: 'quantitative', title: 'x: jumpstep - located' },
      },
    },
  ],
};
const view = new View(parse(compile(spec).spec), { renderer: 'none' });
writeFileSync(here('./plots/iderk_553.svg'), await view.toSVG());
console.log('wrote examples/plots/iderk_553.svg');
