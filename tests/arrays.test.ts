/**
 * Arrays in the model language (docs/language.md, "Arrays"): `for` blocks, indexed names,
 * array parameters, `sum`/`prod`, structural parameters.
 *
 * 1. An array model means exactly the model written out element by element: each test
 *    generates the written-out text here (names `x3` for `x[3]`) and checks that both forms
 *    give the same events in the same order and the same numbers, to the last bit.
 * 2. Closed forms: independent decays with delta kicks, against exp.
 * 3. Every mistake is a ModelError at FILE:LINE:COL naming the element and the loop values.
 * 4. `transform` prints what it prints for every format (see the last describe).
 * 5. `set` of a structural parameter writes the model out anew (library and command line);
 *    `--set v0[3]=...` and `--init "x[1]=..."` address single elements.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileModel,
  formatLatex,
  formatText,
  simulate,
  SimulationInputError,
  transformReport,
  type SimulateOptions,
  type SimulationResult,
} from '../src/index.js';
import { parseAssignments } from '../src/cli/options.js';
import { ModelError } from '../src/expression/errors.js';
import { ROW_ARRAY_BODY, exactHits, rowArrayModel, rowModel, velocities } from '../bench/w5/row-model.mjs';
import { ensureCliBuilt, modelErrorOf, ROOT, runCli } from './helpers.js';

/** `x[3]` -> `x3`, `c[12]` -> `c12`: the name the written-out model gives an element. */
const flat = (name: string) => name.replace(/\[(\d+)\]/g, '$1');

const TIGHT: SimulateOptions = { rtol: 1e-10, atol: 1e-12 };

/**
 * The array run and the written-out run agree exactly: same columns (renamed), same rows
 * bit for bit, same ledger (times, names, pre/post values), same final values, same step
 * counts. No tolerance: both forms are the same system after writing out, evaluated by the
 * same generated code in the same order, so any difference at all is a bug.
 */
function expectSameRun(array: SimulationResult, written: SimulationResult): void {
  expect(array.status).toBe(written.status);
  expect(array.columns.map(flat)).toEqual(written.columns);
  expect(array.stats.steps).toBe(written.stats.steps);
  expect(array.stats.rhsEvaluations).toBe(written.stats.rhsEvaluations);
  expect(array.rows.length).toBe(written.rows.length);
  for (let r = 0; r < array.rows.length; r++) {
    // toEqual on numbers is Object.is: -0 and 0 differ, every bit counts
    expect(array.rows[r], `row ${r}`).toEqual(written.rows[r]);
  }
  expect(array.events.map((e) => [e.t, flat(e.name)])).toEqual(written.events.map((e) => [e.t, e.name]));
  const renamed = (rec: Record<string, number>) =>
    Object.fromEntries(Object.entries(rec).map(([k, v]) => [flat(k), v]));
  for (let k = 0; k < array.events.length; k++) {
    expect(renamed(array.events[k].pre), `pre of event ${k}`).toEqual(written.events[k].pre);
    expect(renamed(array.events[k].post), `post of event ${k}`).toEqual(written.events[k].post);
  }
  expect(renamed(array.final)).toEqual(written.final);
}

// ---------------------------------------------------------------------------
// Models in both forms

/** The row's events, impulses and initial values (bench/w5/row-model.mjs, which writes row.delta). */
const ROW_BODY = ROW_ARRAY_BODY;

/** A row of n elastic spheres between walls at 0 and n + 1 (the spec's example, any n). */
function rowArray(v: readonly number[], tEnd: number): string {
  return `model Row
independent t from 0 to ${tEnd}
parameter N = ${v.length}, m = 1, e = 1, L = N + 1
parameter v0[1:N] = [${v.join(', ')}]
${ROW_BODY}E = sum(i in 1:N, m*x[i]'^2/2)
output x, E, hits
`;
}

function rowWritten(v: readonly number[], tEnd: number): string {
  const n = v.length;
  const L: string[] = [
    'model Row',
    `independent t from 0 to ${tEnd}`,
    `parameter N = ${n}, m = 1, e = 1, L = N + 1`,
    `parameter ${v.map((x, i) => `v0${i + 1} = ${x}`).join(', ')}`,
    'discrete hits = 0',
    'event wl when x1 falls do hits := hits + 1 end',
    `event wr when x${n} - L rises do hits := hits + 1 end`,
  ];
  for (let i = 1; i < n; i++) {
    L.push(`event c${i} when x${i + 1} - x${i} falls do hits := hits + 1 end`);
    L.push(`J${i} = (1 + e)*m/2*(x${i}' - x${i + 1}')`);
  }
  L.push(`m*x1'' = -J1*delta(t - c1) - (1 + e)*m*x1'*delta(t - wl)`);
  for (let i = 2; i < n; i++) L.push(`m*x${i}'' = J${i - 1}*delta(t - c${i - 1}) - J${i}*delta(t - c${i})`);
  L.push(`m*x${n}'' = J${n - 1}*delta(t - c${n - 1}) - (1 + e)*m*x${n}'*delta(t - wr)`);
  for (let i = 1; i <= n; i++) L.push(`x${i}(0) = ${i}; x${i}'(0) = v0${i}`);
  L.push(`E = ${Array.from({ length: n }, (_, k) => `m*x${k + 1}'^2/2`).join(' + ')}`);
  L.push(`output ${Array.from({ length: n }, (_, k) => `x${k + 1}`).join(', ')}, E, hits`);
  return L.join('\n') + '\n';
}

/**
 * A chain of n masses and springs fixed at both ends, damped, kicked at t = 1 by a delta on
 * the first mass; each mass counts its own upward passages of 0.05 (a discrete array and an
 * event array, both output whole).
 */
function chainArray(n: number): string {
  return `model Chain
independent t from 0 to 8
parameter N = ${n}, k = 4, m = 1, c = 0.1, P = 0.8
parameter a[1:N] = [0.05*i - 0.1 for i in 1:N]
discrete count[1:N] = 0
for i in 1:N
  event up[i] when x[i] - 0.05 rises do count[i] := count[i] + 1 end
end
m*x[1]'' = k*(x[2] - 2*x[1]) - c*x[1]' + P*delta(t - 1)
for i in 2:N-1
  m*x[i]'' = k*(x[i+1] - 2*x[i] + x[i-1]) - c*x[i]'
end
m*x[N]'' = k*(x[N-1] - 2*x[N]) - c*x[N]'
for i in 1:N
  x[i](0) = 0
  x[i]'(0) = a[i]
end
output x, count
`;
}

function chainWritten(n: number): string {
  const L = [
    'model Chain',
    'independent t from 0 to 8',
    `parameter N = ${n}, k = 4, m = 1, c = 0.1, P = 0.8`,
    `parameter ${Array.from({ length: n }, (_, k) => `a${k + 1} = 0.05*${k + 1} - 0.1`).join(', ')}`,
    `discrete ${Array.from({ length: n }, (_, k) => `count${k + 1} = 0`).join(', ')}`,
  ];
  for (let i = 1; i <= n; i++) L.push(`event up${i} when x${i} - 0.05 rises do count${i} := count${i} + 1 end`);
  L.push(`m*x1'' = k*(x2 - 2*x1) - c*x1' + P*delta(t - 1)`);
  for (let i = 2; i < n; i++) L.push(`m*x${i}'' = k*(x${i + 1} - 2*x${i} + x${i - 1}) - c*x${i}'`);
  L.push(`m*x${n}'' = k*(x${n - 1} - 2*x${n}) - c*x${n}'`);
  for (let i = 1; i <= n; i++) L.push(`x${i}(0) = 0`, `x${i}'(0) = a${i}`);
  const range = Array.from({ length: n }, (_, k) => k + 1);
  L.push(`output ${range.map((i) => `x${i}`).join(', ')}, ${range.map((i) => `count${i}`).join(', ')}`);
  return L.join('\n') + '\n';
}

/**
 * A line of n compartments: a periodic dose into the first (a delta at a periodic event),
 * first-order transfer down the line, the total by sum() and a product by prod(), and an
 * event on the total.
 */
function compartmentsArray(n: number): string {
  return `model Compartments
independent t from 0 to 12
parameter N = ${n}, D = 2
parameter k[1:N] = [0.5 + 0.1*i for i in 1:N]
discrete alarms = 0
event dose every 3 from 0.5
c[1]' = -k[1]*c[1] + D*delta(t - dose)
for i in 2:N
  c[i]' = k[i-1]*c[i-1] - k[i]*c[i]
end
for i in 1:N
  c[i](0) = 0
end
total = sum(i in 1:N, c[i])
spread = prod(j in 1:N, 1 + c[j])
event high when total - 1.5 rises do alarms := alarms + 1 end
output c, total, spread, alarms
`;
}

function compartmentsWritten(n: number): string {
  const range = Array.from({ length: n }, (_, k) => k + 1);
  const L = [
    'model Compartments',
    'independent t from 0 to 12',
    `parameter N = ${n}, D = 2`,
    `parameter ${range.map((i) => `k${i} = 0.5 + 0.1*${i}`).join(', ')}`,
    'discrete alarms = 0',
    'event dose every 3 from 0.5',
    `c1' = -k1*c1 + D*delta(t - dose)`,
  ];
  for (let i = 2; i <= n; i++) L.push(`c${i}' = k${i - 1}*c${i - 1} - k${i}*c${i}`);
  for (const i of range) L.push(`c${i}(0) = 0`);
  L.push(`total = ${range.map((i) => `c${i}`).join(' + ')}`);
  L.push(`spread = ${range.map((i) => `(1 + c${i})`).join('*')}`);
  L.push('event high when total - 1.5 rises do alarms := alarms + 1 end');
  L.push(`output ${range.map((i) => `c${i}`).join(', ')}, total, spread, alarms`);
  return L.join('\n') + '\n';
}

// ---------------------------------------------------------------------------

describe('an array model is the written-out model: same events, same order, same numbers', () => {
  it('the row example of the language (N = 4, to t = 10): E 0.315, 7 impacts, as written out', () => {
    const v = [0.3, -0.1, 0.7, 0.2];
    const a = simulate(rowArray(v, 10), TIGHT);
    const w = simulate(rowWritten(v, 10), TIGHT);
    expectSameRun(a, w);
    // elastic, equal masses: the kinetic energy sum(v^2)/2 = 0.315 is kept; 7 impacts by t = 10
    expect(a.final.hits).toBe(7);
    expect(Math.abs(a.final.E - 0.315)).toBeLessThan(1e-12);
    expect(a.events.map((e) => e.name)).toEqual(['c[3]', 'c[1]', 'wr', 'c[3]', 'wr', 'c[2]', 'c[1]']);
    // whole-array output: x[1] ... x[4] in index order
    expect(a.columns).toEqual(['t', 'x[1]', 'x[2]', 'x[3]', 'x[4]', 'E', 'hits']);
  });

  it.each([2, 3, 9, 17])('rows of %i spheres with irregular velocities', (n) => {
    // the pseudo-random velocities of workload W5 (six decimals)
    const v = velocities(n);
    const a = simulate(rowArray(v, 30), TIGHT);
    const w = simulate(rowWritten(v, 30), TIGHT);
    expect(a.status, a.message ?? '').toBe('ok');
    expectSameRun(a, w);
    expect(a.events.length).toBeGreaterThan(n);
    // elastic: the kinetic energy of the start, sum(v^2)/2, to rounding
    const E0 = v.reduce((s, x) => s + (x * x) / 2, 0);
    expect(Math.abs(a.final.E - E0)).toBeLessThan(1e-12 * n);
  });

  it.each([2, 5, 12])('a chain of %i masses and springs, kicked, with an event array and a discrete array', (n) => {
    const a = simulate(chainArray(n), TIGHT);
    const w = simulate(chainWritten(n), TIGHT);
    expectSameRun(a, w);
    expect(a.columns).toEqual([
      't',
      ...Array.from({ length: n }, (_, k) => `x[${k + 1}]`),
      ...Array.from({ length: n }, (_, k) => `count[${k + 1}]`),
    ]);
    // every up[i] firing counted once in count[i]
    for (let i = 1; i <= n; i++)
      expect(a.final[`count[${i}]`]).toBe(a.events.filter((e) => e.name === `up[${i}]`).length);
    expect(a.events.length).toBeGreaterThan(0);
  });

  it.each([1, 4, 10])('a line of %i compartments with a periodic dose, sum() and prod()', (n) => {
    const a = simulate(compartmentsArray(n), TIGHT);
    const w = simulate(compartmentsWritten(n), TIGHT);
    expectSameRun(a, w);
    // 4 doses at 0.5, 3.5, 6.5, 9.5 (delta events named after the periodic event)
    expect(a.events.filter((e) => e.name === 'dose').map((e) => e.t)).toEqual([0.5, 3.5, 6.5, 9.5]);
  });

  it('the transform of both forms has the same equations and events once names are mapped', () => {
    const a = compileModel(chainArray(4)).system;
    const w = compileModel(chainWritten(4)).system;
    expect(a.states.map((s) => flat(s.variable))).toEqual(w.states.map((s) => s.variable));
    expect(a.events.map((e) => flat(e.name))).toEqual(w.events.map((e) => e.name));
  });
});

describe('closed forms', () => {
  /**
   * n independent decays x[i]' = -k[i] x[i] + b[i] delta(t - 1) + b[i]/2 delta(t - T2[i]):
   * x_i(t) = x0_i e^{-k_i t} + b_i e^{-k_i (t - 1)} [t > 1] + b_i/2 e^{-k_i (t - T2_i)} [t > T2_i].
   * At rtol 1e-12 the error of DOPRI5 over [0, 4] with two restarts stays near 1e-12
   * relative; 1e-9 relative leaves a margin of 1000 and still catches a wrong k, b or time.
   */
  const n = 7;
  const src = `model Decays
independent t from 0 to 4
parameter N = ${n}
parameter k[1:N] = [i/3 for i in 1:N]
parameter b[1:N] = [1 + i*i/10 for i in 1:N]
parameter T2[1:N] = [1.5 + i/4 for i in 1:N]
for i in 1:N
  x[i]' = -k[i]*x[i] + b[i]*delta(t - 1) + b[i]/2*delta(t - T2[i])
  x[i](0) = 2*i
end
total = sum(i in 1:N, x[i])
output x, total
`;
  const exact = (i: number, t: number) => {
    const k = i / 3,
      b = 1 + (i * i) / 10,
      t2 = 1.5 + i / 4;
    return (
      2 * i * Math.exp(-k * t) +
      (t > 1 ? b * Math.exp(-k * (t - 1)) : 0) +
      (t > t2 ? (b / 2) * Math.exp(-k * (t - t2)) : 0)
    );
  };

  it('every element at every output row and at the end, against exp', () => {
    // (linear: the analytic path, whose rows are the events' and a grid's)
    const r = simulate(src, { rtol: 1e-12, atol: 1e-14, outputStep: 0.05 });
    expect(r.stats.method).toBe('analytic');
    expect(r.status).toBe('ok');
    const col = (name: string) => r.columns.indexOf(name);
    let checked = 0;
    for (const row of r.rows) {
      const t = row[0];
      if ([1, ...Array.from({ length: n }, (_, k) => 1.5 + (k + 1) / 4)].some((s) => Math.abs(t - s) < 1e-12)) continue; // before/after rows at a kick
      let total = 0;
      for (let i = 1; i <= n; i++) {
        const want = exact(i, t);
        total += want;
        expect(Math.abs(row[col(`x[${i}]`)] - want)).toBeLessThanOrEqual(1e-9 * Math.abs(want) + 1e-14);
        checked++;
      }
      expect(Math.abs(row[col('total')] - total)).toBeLessThanOrEqual(1e-9 * total);
    }
    expect(checked).toBeGreaterThan(10 * n);
    for (let i = 1; i <= n; i++)
      expect(Math.abs(r.final[`x[${i}]`] - exact(i, 4))).toBeLessThanOrEqual(1e-9 * exact(i, 4));
    // each kick is one event at its exact time; the jump of x[i] at T2[i] is b[i]/2
    const second = r.events.filter((e) => e.t !== 1);
    expect(second.map((e) => e.t)).toEqual(Array.from({ length: n }, (_, k) => 1.5 + (k + 1) / 4));
    second.forEach((e, k) => {
      const i = k + 1;
      expect(Math.abs(e.post[`x[${i}]`] - e.pre[`x[${i}]`] - (1 + (i * i) / 10) / 2)).toBeLessThan(1e-12);
    });
  });

  it('prod over an empty range is 1, sum over one is 0; a reduction inside a loop', () => {
    const r = simulate(
      `independent t from 0 to 1
parameter N = 3
for i in 1:N
  y[i]' = -y[i]*sum(j in 1:i, 1)/prod(j in i+1:i, 2) + sum(j in 2:1, 5)
  y[i](0) = 1
end
`,
      { rtol: 1e-12, atol: 1e-14 },
    );
    // y[i]' = -i y[i]: y[i](1) = e^{-i}
    for (let i = 1; i <= 3; i++) expect(Math.abs(r.final[`y[${i}]`] - Math.exp(-i))).toBeLessThan(1e-10);
  });
});

describe('mistakes: a ModelError at the text, naming the element and the loop values', () => {
  /** The error, with its position checked against the line and column given. */
  function errorAt(src: string, line: number, column: number): ModelError {
    const err = modelErrorOf(src, 'arr.delta');
    expect(err.file).toBe('arr.delta');
    expect([err.line, err.column], err.message).toEqual([line, column]);
    expect(err.message.startsWith(`arr.delta:${line}:${column}: `)).toBe(true);
    return err;
  }

  it("an index out of range names the element, its array's elements and the loop value", () => {
    const err = errorAt(
      `parameter N = 3
for i in 1:N
  x[i]' = -x[i+1]
  x[i](0) = 1
end
`,
      3,
      12,
    );
    expect(err.message).toContain(
      'x[i+1] (here x[4]) is not an element of x: its elements are x[1] to x[3] (where i = 3)',
    );
  });

  it('x[0] with x over 1:N', () => {
    const err = errorAt(
      `parameter N = 3
for i in 1:N
  x[i]' = -x[i-1]
  x[i](0) = 1
end
`,
      3,
      12,
    );
    expect(err.message).toContain(
      'x[i-1] (here x[0]) is not an element of x: its elements are x[1] to x[3] (where i = 1)',
    );
  });

  it('an element defined twice names both places and the loop values', () => {
    const err = errorAt(
      `parameter N = 3
for i in 1:N
  J[i] = i
end
J[2] = 5
for i in 1:N
  x[i]' = -J[i]
  x[i](0) = 1
end
`,
      5,
      1,
    );
    expect(err.what).toBe('J[2] is defined twice: first at 3:3 (where i = 2)');
  });

  it('an element defined twice by overlapping loops', () => {
    const err = errorAt(
      `parameter N = 4
for i in 1:N-1
  event c[i] when x[i] - 1 rises
end
for i in 3:N
  event c[i] when x[i] - 2 rises
end
for i in 1:N
  x[i]' = 1
  x[i](0) = 0
end
`,
      6,
      9,
    );
    expect(err.message).toContain('c[3] is defined twice: first at 3:9 (where i = 3)');
    expect(err.message).toContain('(where i = 3)\n');
  });

  it('an element never defined: a state without its equation, an array without elements', () => {
    const noEquation = errorAt(
      `parameter N = 3
for i in 1:N-1
  x[i]' = -x[i]
end
for i in 1:N
  x[i](0) = 1
end
`,
      6,
      3,
    );
    expect(noEquation.message).toContain("condition for 'x[3]', which is not a state (where i = 3)");
    const nowhere = errorAt(
      `parameter N = 3
for i in 1:N
  x[i]' = -x[i] + y[i]
  x[i](0) = 1
end
`,
      3,
      19,
    );
    expect(nowhere.message).toContain("y[i] (here y[1]): 'y' has no elements defined anywhere (where i = 1)");
    const missingEvent = errorAt(
      `parameter N = 3
for i in 1:N-1
  event c[i] when x[i] - 1 rises
end
for i in 1:N
  x[i]'' = -delta(t - c[i])
  x[i](0) = 0; x[i]'(0) = 1
end
`,
      6,
      23,
    );
    expect(missingEvent.message).toContain(
      'c[i] (here c[3]) is not an element of c: its elements are c[1] to c[2] (where i = 3)',
    );
  });

  it('a non-integer index: a fraction, a division, a parameter that is not whole', () => {
    expect(
      errorAt(
        `parameter N = 3
for i in 1:N
  x[i]' = -x[1.5]
  x[i](0) = 1
end
`,
        3,
        14,
      ).message,
    ).toContain('an index of x must be an integer, not 1.5 (where i = 1)');
    expect(
      errorAt(
        `parameter N = 4
for i in 1:N
  x[i]' = -x[i/2]
  x[i](0) = 1
end
`,
        3,
        14,
      ).message,
    ).toContain("'/' in an index of x: an index is integer arithmetic (+ - *) (where i = 1)");
    expect(
      errorAt(
        `parameter N = 4, h = 0.5
for i in 1:N
  x[i]' = -x[i + h]
  x[i](0) = 1
end
`,
        3,
        18,
      ).message,
    ).toContain('h = 0.5 (line 1) is used in an index of x, so it must be an integer (where i = 1)');
  });

  it('a structural parameter that is not an integer, in the model or set from outside', () => {
    const src = `parameter N = 2.5
for i in 1:N
  x[i]' = -x[i]
  x[i](0) = 1
end
`;
    expect(errorAt(src, 2, 12).what).toBe('N = 2.5 (line 1) is used in the end of a range, so it must be an integer');
    const whole = src.replace('2.5', '2');
    let err: unknown;
    try {
      compileModel(whole, 'arr.delta', { set: { N: 3.5 } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).message).toMatch(
      /^arr\.delta:2:12: N = 3\.5 \(from --set\) is used in the end of a range, so it must be an integer/,
    );
  });

  it('a literal list of the wrong length, also once N is set from outside', () => {
    const src = `parameter N = 3
parameter k[1:N] = [1, 2, 3]
for i in 1:N
  x[i]' = -k[i]*x[i]
  x[i](0) = 1
end
`;
    expect(errorAt(src.replace('[1, 2, 3]', '[1, 2]'), 2, 12).what).toBe('k[1:N] has 3 elements but 2 values');
    expect(errorAt(src.replace('[1, 2, 3]', '[1, 2, 3, 4]'), 2, 30).what).toBe('k[1:N] has 3 elements but 4 values');
    // --set N=2 (library: set) writes the model out with N = 2; the list of 3 no longer fits
    for (const [file, run] of [
      ['arr.delta', () => compileModel(src, 'arr.delta', { set: { N: 2 } })],
      ['<model>', () => simulate(src, { set: { N: 2 } })],
    ] as const) {
      let err: unknown;
      try {
        run();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ModelError);
      const e = err as ModelError;
      // at the first value too many
      expect([e.file, e.line, e.column]).toEqual([file, 2, 27]);
      expect(e.what).toBe('k[1:N] has 2 elements (N = 2 from --set) but 3 values');
    }
  });

  it('a comprehension over another range', () => {
    const err = errorAt(
      `parameter N = 3
parameter k[1:N] = [i for i in 1:N+1]
for i in 1:N
  x[i]' = -k[i]*x[i]
  x[i](0) = 1
end
`,
      2,
      27,
    );
    expect(err.what).toBe('k[1:N] has 3 elements but the comprehension over i in 1:4 gives 4 values');
  });

  it('an array used without an index, a loop variable used twice', () => {
    expect(
      errorAt(
        `parameter N = 3
for i in 1:N
  x[i]' = -x[i]
  x[i](0) = 1
end
y = x
`,
        6,
        5,
      ).what,
    ).toBe("'x' is an array: name one element, as in x[1]");
    expect(
      errorAt(
        `for i in 1:2
  for i in 1:2
    x[i]' = 1
  end
end
`,
        2,
        7,
      ).what,
    ).toBe("'i' is already the variable of an enclosing loop");
  });
});

describe('structural parameters set from outside write the model out anew', () => {
  const v = [0.3, -0.1, 0.7, 0.2, -0.45, 0.05, 0.6, -0.25];
  /** the row with N structural and the velocities from a pool of 8 (v0[i] = V[i]) */
  const pooled = `model Row
independent t from 0 to 12
parameter N = 4, m = 1, e = 1, L = N + 1
parameter V[1:8] = [${v.join(', ')}]
parameter v0[1:N] = [V[i] for i in 1:N]
${ROW_BODY}output x, hits
`;

  it.each([2, 3, 6, 8])('set N = %i: the same run as the written-out row of N', (n) => {
    const a = simulate(pooled, { ...TIGHT, set: { N: n } });
    const w = simulate(
      rowWritten(v.slice(0, n), 12)
        .replace(/\nE = .*\n/, '\n')
        .replace(/, E, hits/, ', hits'),
      TIGHT,
    );
    expect(a.columns.length).toBe(n + 2);
    expectSameRun(a, w);
    expect(compileModel(pooled, 'row.delta', { set: { N: n } }).stateNames.length).toBe(2 * n);
  });

  it('different N, different impact counts; N past the pool is an index error at the comprehension', () => {
    const counts = [2, 4, 8].map((n) => simulate(pooled, { ...TIGHT, set: { N: n } }).final.hits);
    expect(new Set(counts).size).toBe(3);
    let err: unknown;
    try {
      compileModel(pooled, 'row.delta', { set: { N: 9 } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).message).toMatch(
      /^row\.delta:5:22: V\[i\] \(here V\[9\]\) is not an element of V: its elements are V\[1\] to V\[8\] \(where i = 9\)/,
    );
  });

  it('a parameter that a structural one depends on is structural too', () => {
    const src = `parameter M = 2, N = 2*M
for i in 1:N
  y[i]' = -y[i]
  y[i](0) = i
end
`;
    const m = compileModel(src, 'm.delta', { set: { M: 3 } });
    expect(m.stateNames.length).toBe(6);
    expect(m.system.structural).toEqual(['M', 'N']);
    const r = simulate(m, { to: 1, rtol: 1e-12, atol: 1e-14, set: { M: 3 } });
    expect(Math.abs(r.final['y[6]'] - 6 * Math.exp(-1))).toBeLessThan(1e-11);
  });

  it('a compiled model refuses a different structural value at run time instead of running the wrong shape', () => {
    const m = compileModel(pooled, 'row.delta');
    expect(() => simulate(m, { set: { N: 6 } })).toThrow(SimulationInputError);
    expect(() => simulate(m, { set: { N: 6 } })).toThrow("'N' sets the shape of Row (a range or an index uses it)");
    // the value it was written out with is fine, and so is any other parameter
    expect(simulate(m, { ...TIGHT, set: { N: 4, e: 1 } }).status).toBe('ok');
  });
});

describe('single elements in set and init (library)', () => {
  const v = [0.3, -0.1, 0.7, 0.2];
  const src = rowArray(v, 10);

  it("set { 'v0[3]': ... } is the row with that velocity; init { 'x[1]': ..., \"x[2]'\": ... } starts from there", () => {
    const changed = [0.3, -0.1, -0.2, 0.2];
    expectSameRun(simulate(src, { ...TIGHT, set: { 'v0[3]': -0.2 } }), simulate(rowWritten(changed, 10), TIGHT));
    // the kinetic energy follows the velocities: sum(v^2)/2
    const r = simulate(src, { ...TIGHT, init: { 'x[1]': 0.5, "x[2]'": 0.4 } });
    const w = simulate(rowWritten(v, 10), { ...TIGHT, init: { x1: 0.5, "x2'": 0.4 } });
    expectSameRun(r, w);
    expect(Math.abs(r.final.E - (0.09 + 0.16 + 0.49 + 0.04) / 2)).toBeLessThan(1e-12);
  });

  it.each([
    [{ set: { 'v0[7]': 1 } }, "'v0[7]' is not an element of v0: its elements are v0[1] to v0[4]"],
    [{ set: { 'N[2]': 1 } }, "'N[2]': N is not an array; write N=VALUE"],
    [{ set: { v0: 1 } }, "'v0': v0 is an array; name one element, as in v0[1]=VALUE (its elements are v0[1] to v0[4])"],
    [{ set: { 'w[1]': 1 } }, "'w[1]' is not a parameter or unknown of Row; they are: N, m, e, L, v0[1] to v0[4]"],
    [{ init: { 'x[5]': 1 } }, "'x[5]' in init is not an element of x: its elements are x[1] to x[4]"],
    [{ init: { "x[0]'": 1 } }, "'x[0]'' in init is not an element of x: its elements are x[1] to x[4]"],
    [
      { init: { x: 1 } },
      "'x' in init: x is an array; name one element, as in x[1]=VALUE (its elements are x[1] to x[4])",
    ],
    [{ init: { 'hits[1]': 1 } }, "'hits[1]' in init: hits is not an array; write hits=VALUE"],
  ] as [SimulateOptions, string][])('%j: %s', (options, message) => {
    const m = compileModel(src);
    let err: unknown;
    try {
      simulate(m, options);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SimulationInputError);
    expect((err as Error).message).toBe(message);
  });

  it("the command-line parser reads elements: v0[3]=0.2, x[2]'=1, a[2, 1]=3 and commas inside brackets", () => {
    expect([...parseAssignments('--set', 'v0[3]=0.2')]).toEqual([['v0[3]', 0.2]]);
    expect([...parseAssignments('--init', "x[1]=0.5, x[ 2 ]'=1,a[2, 1]=3,y=4")]).toEqual([
      ['x[1]', 0.5],
      ["x[2]'", 1],
      ['a[2,1]', 3],
      ['y', 4],
    ]);
    expect(() => parseAssignments('--set', 'v0[i]=1')).toThrow(
      "--set 'v0[i]=1': the index of v0 must be a whole number, as in v0[1]",
    );
    expect(() => parseAssignments('--set', 'v0[1.5]=1')).toThrow('the index of v0 must be a whole number');
    expect(() => parseAssignments('--set', 'v0[3=1')).toThrow(
      "--set 'v0[3=1': write NAME=VALUE, or NAME[INDEX]=VALUE for an element of an array",
    );
  });
});

describe('the command line: elements in --set and --init', () => {
  let dir = '';
  let row = '';
  const v = [0.3, -0.1, 0.7, 0.2];
  beforeAll(() => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'deltastep-arrays-'));
    row = join(dir, 'row.delta');
    writeFileSync(row, rowArray(v, 10));
  }, 180_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const json = (args: string[]) => {
    const r = runCli(['simulate', row, '--rtol', '1e-10', '--atol', '1e-12', '--format', 'json', ...args]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return JSON.parse(r.stdout) as {
      final: Record<string, number>;
      events: { t: number; name: string }[];
      columns: string[];
    };
  };

  it('--set v0[3]=-0.2 and --init "x[1]=0.5,x[2]\'=0.4" give the library\'s run with those values', () => {
    const set = json(['--set', 'v0[3]=-0.2']);
    const lib = simulate(rowArray(v, 10), { ...TIGHT, set: { 'v0[3]': -0.2 } });
    expect(set.final).toEqual(lib.final);
    expect(set.events.map((e) => [e.t, e.name])).toEqual(lib.events.map((e) => [e.t, e.name]));
    // and that is the written-out row with v3 = -0.2
    expect(set.final.hits).toBe(simulate(rowWritten([0.3, -0.1, -0.2, 0.2], 10), TIGHT).final.hits);
    const init = json(['--init', "x[1]=0.5,x[2]'=0.4"]);
    const libInit = simulate(rowArray(v, 10), { ...TIGHT, init: { 'x[1]': 0.5, "x[2]'": 0.4 } });
    expect(init.final).toEqual(libInit.final);
    expect(Math.abs(init.final.E - 0.39)).toBeLessThan(1e-12);
    // a whole array in the output: every element is a column
    expect(set.columns).toEqual(['t', 'x[1]', 'x[2]', 'x[3]', 'x[4]', 'E', 'hits']);
  });

  it('--set N of a structural parameter writes the model out for that N on the command line too', () => {
    const pooledFile = join(dir, 'pooled.delta');
    writeFileSync(pooledFile, readFileSync(join(ROOT, 'bench', 'w5', 'row.delta'), 'utf8'));
    const r = runCli(['simulate', pooledFile, '--set', 'N=6', '--to', '12', '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    // the run of 6 spheres, exactly
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { final: Record<string, number>; columns: string[] };
    expect(out.columns).toEqual(['t', 'x[1]', 'x[6]', 'hits']);
    expect(out.final.hits).toBe(exactHits(6, 12));
    expect(out.final).toEqual(simulate(readFileSync(pooledFile, 'utf8'), { set: { N: 6 }, to: 12 }).final);
    const list = runCli(['simulate', row, '--set', 'N=2']);
    expect(list.status).toBe(1);
    expect(list.stderr.split('\n')[0]).toBe(`${row}:4:33: v0[1:N] has 2 elements (N = 2 from --set) but 4 values`);
  });

  it.each([
    [['--set', 'v0[9]=1'], "deltastep: 'v0[9]' is not an element of v0: its elements are v0[1] to v0[4]\n"],
    [['--set', 'e[1]=1'], "deltastep: 'e[1]': e is not an array; write e=VALUE\n"],
    [
      ['--set', 'v0=1'],
      "deltastep: 'v0': v0 is an array; name one element, as in v0[1]=VALUE (its elements are v0[1] to v0[4])\n",
    ],
    [['--init', 'x[0]=1'], "deltastep: 'x[0]' in --init is not an element of x: its elements are x[1] to x[4]\n"],
    [
      ['--init', 'x=1'],
      "deltastep: 'x' in --init: x is an array; name one element, as in x[1]=VALUE (its elements are x[1] to x[4])\n",
    ],
    [['--set', 'v0[i]=1'], "deltastep: --set 'v0[i]=1': the index of v0 must be a whole number, as in v0[1]\n"],
  ])('exit 2 for %j', (args, stderr) => {
    const r = runCli(['simulate', row, ...args]);
    expect(r.stderr).toBe(stderr);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
  });
});

describe('the Arrays section of docs/language.md: its examples run and give the numbers it states', () => {
  const text = readFileSync(join(ROOT, 'docs', 'language.md'), 'utf8');
  const section = text.slice(text.indexOf('## Arrays\n'), text.indexOf('\n## ', text.indexOf('## Arrays\n') + 1));
  const blocks = [...section.matchAll(/```\n([\s\S]*?)```/g)].map((m) => m[1]);
  const [row, declarations, pool, mistake, transit, shown] = blocks;
  /** a fragment of declarations made a runnable model */
  const withEquation = (fragment: string) => `${fragment}independent t from 0 to 1\ny' = -y\ny(0) = 1\n`;
  const parameter = (src: string, name: string, options?: { set?: Record<string, number> }) => {
    const m = compileModel(src, 'doc.delta', options);
    return m.parameters()[m.paramNames.indexOf(name)];
  };

  it('has the six blocks it shows', () => {
    expect(blocks.length).toBe(6);
  });

  it('what transform shows of the row is what it prints', () => {
    expect(formatText(transformReport(compileModel(row)))).toContain(shown);
  });

  it('the row: 7 impacts by t = 10, c[3] first at t = 2, E = 0.315; the same as written out', () => {
    const r = simulate(row, TIGHT);
    expect(r.status).toBe('ok');
    expect(r.final.hits).toBe(7);
    // (at 1/(0.7 - 0.2): in doubles 0.7 - 0.2 = 0.5 - 2^-54, so the exact root of the model as
    // written is 2 + 2^-52 + ..., whose nearest double is 2.0000000000000004: what the closed
    // form gives)
    expect([r.events[0].name, r.events[0].t]).toEqual(['c[3]', 1 / (0.7 - 0.2)]);
    expect(Math.abs(r.final.E - (0.09 + 0.01 + 0.49 + 0.04) / 2)).toBeLessThan(1e-12);
    expectSameRun(r, simulate(rowWritten([0.3, -0.1, 0.7, 0.2], 10), TIGHT));
  });

  it('the declarations: a list, a comprehension, one value for all, a discrete array; the pool', () => {
    const src = withEquation(declarations);
    expect([1, 2, 3, 4].map((i) => parameter(src, `v0[${i}]`))).toEqual([0.3, -0.1, 0.7, 0.2]);
    expect([1, 2, 3, 4].map((i) => parameter(src, `k[${i}]`))).toEqual([1.25, 1.5, 1.75, 2]);
    expect([1, 2, 3, 4].map((i) => parameter(src, `w[${i}]`))).toEqual([0.5, 0.5, 0.5, 0.5]);
    expect(compileModel(src).discreteNames.filter((n) => n.startsWith('n['))).toEqual(['n[1]', 'n[2]', 'n[3]', 'n[4]']);
    const p = withEquation(pool);
    expect(parameter(p, 'v0[3]', { set: { N: 6 } })).toBe(0.7);
    expect(parameter(p, 'v0[6]', { set: { N: 6 } })).toBe(0.05);
    expect(() => compileModel(p, 'doc.delta', { set: { N: 9 } })).toThrow(ModelError);
  });

  it('the mistake is the message the Row model with for i in 2:N gives', () => {
    let err: unknown;
    try {
      compileModel(row.replace('for i in 2:N-1', 'for i in 2:N'), 'row.delta');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).message + '\n').toBe(mistake);
  });

  it('the transit chain: c[i] against D (k(t-1))^(i-1)/(i-1)! e^(-k(t-1)) at t = 8, total 10', () => {
    const r = simulate(transit, { rtol: 1e-12, atol: 1e-14 });
    const s = 1.5 * 7;
    let factorial = 1;
    for (let i = 1; i <= 4; i++) {
      const exact = ((10 * s ** (i - 1)) / factorial) * Math.exp(-s);
      expect(Math.abs(r.final[`c[${i}]`] - exact)).toBeLessThan(1e-9 * exact);
      factorial *= i;
    }
    expect(Math.abs(r.final.total - 10)).toBeLessThan(1e-10);
    // the numbers the text states, to its digits
    expect(r.final['c[3]'].toFixed(7)).toBe('0.0151795');
    expect(r.final['c[4]'].toFixed(7)).toBe('0.0531281');
  });
});

describe('W5 with arrays: bench/w5/row.delta', () => {
  const file = join(ROOT, 'bench', 'w5', 'row.delta');
  const text = readFileSync(file, 'utf8');

  it('is what row-model.mjs writes (rowArrayModel)', () => {
    expect(text).toBe(rowArrayModel());
  });

  it.each([
    [2, 20],
    [16, 20],
    [40, 10],
  ])('N = %i to T = %i: the exact impact count, and the written-out run bit for bit', (n, t) => {
    const a = simulate(compileModel(text, 'row.delta', { set: { N: n } }), { to: t });
    const w = simulate(rowModel(n, t), {});
    expect(a.final.hits).toBe(exactHits(n, t));
    expectSameRun(a, w);
  });
});

describe('transform prints an array model once, as loops over its template', () => {
  /** Integer arithmetic as the folding writes it (no spaces): 3+1, 2*3-1, 5-3. */
  const arith = (e: string) => {
    if (!/^-?\d+(?:[+\-*]\d+)*$/.test(e)) return null;
    // products first, then sums, left to right
    const terms = e
      .replace(/(?<=\d)-/g, '+-')
      .split('+')
      .map((t) => t.split('*').reduce((a, b) => a * Number(b), 1));
    return String(terms.reduce((a, b) => a + b, 0));
  };
  /** One copy of a template line with the loop variable at a value. */
  const instance = (line: string, v: string, value: number) =>
    line
      .replace(new RegExp(`(?<![\\w\\\\])${v}(?!\\w)`, 'g'), String(value))
      .replace(
        /\[([^\]]+)\]/g,
        (m, inside: string) =>
          `[${inside
            .split(',')
            .map((x) => arith(x) ?? x)
            .join(',')}]`,
      )
      .replace(/\((-?\d+(?:[+\-*]\d+)*)\)/g, (m, e: string) => arith(e) ?? m);

  /** A range end as printed (`4`, `N-1`) with the model's parameter values. */
  const end = (e: string, values: Record<string, number>) => {
    const v = arith(e.replace(/[A-Za-z_]\w*/g, (n) => String(values[n] ?? NaN)));
    if (v === null) throw new Error(`cannot evaluate the range end ${e}`);
    return Number(v);
  };

  /** The printout written out again: loops, sums and value lists expanded (the inverse of the folding). */
  function unfold(text: string, values: Record<string, number> = {}): string[] {
    const lines = text.split('\n');
    const out: string[] = [];
    const sums = (line: string) =>
      line.replace(
        /sum\((\w) in (\d+):(\d+), ((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)/g,
        (m, v: string, a: string, b: string, term: string) =>
          Array.from({ length: Number(b) - Number(a) + 1 }, (_, k) => instance(term, v, Number(a) + k)).join(' + '),
      );
    for (let k = 0; k < lines.length; k++) {
      const line = sums(lines[k]);
      const list = /^(\s*)(\w+)\[(\d+):(\d+)\] = \[([^\]]*)\](.*)$/.exec(line);
      if (list) {
        list[5]
          .split(', ')
          .forEach((value, j) => out.push(`${list[1]}${list[2]}[${Number(list[3]) + j}] = ${value}${list[6]}`));
        continue;
      }
      const head = /^(\s*)(- )?for (\w) in ([^\s:]+):([^\s:]+):(?: (.*))?$/.exec(line);
      if (!head) {
        out.push(line);
        continue;
      }
      const [, indent, bullet, v, a, b, same] = head;
      let body: string[];
      if (same !== undefined) body = [`${indent}${bullet ?? ''}${same}`];
      else {
        body = [];
        while (k + 1 < lines.length && lines[k + 1].startsWith(`${indent}  `) && lines[k + 1].trim() !== '')
          body.push(sums(lines[++k]).slice(2));
      }
      for (let value = end(a, values); value <= end(b, values); value++)
        for (const l of body) out.push(instance(l, v, value));
    }
    return out;
  }
  /** Lines compared: spaces normalised, the `from:` lines (the source text, which differs between the two files) left out. */
  const comparable = (lines: string[]) =>
    lines.filter((l) => !/^\s*from: /.test(l)).map((l) => l.replace(/\s+/g, ' ').trimEnd());
  const text = (src: string, options?: { set?: Record<string, number> }) =>
    formatText(transformReport(compileModel(src, 'm.delta', options)));
  const parameterValues = (src: string) =>
    Object.fromEntries(transformReport(compileModel(src)).parameters.map((q) => [q.name, q.value]));

  it.each([
    ['a row of 4 spheres', rowArray([0.3, -0.1, 0.7, 0.2], 10), rowWritten([0.3, -0.1, 0.7, 0.2], 10)],
    ['a row of 12 spheres', rowArray(velocities(12), 10), rowWritten(velocities(12), 10)],
    ['a chain of 6 masses', chainArray(6), chainWritten(6)],
    ['10 compartments', compartmentsArray(10), compartmentsWritten(10)],
  ])("%s: the folded text, written out again, is the written-out model's text", (_, array, written) => {
    const folded = text(array);
    const unfolded = comparable(unfold(folded, parameterValues(array))).map(flat);
    expect(unfolded).toEqual(comparable(text(written).split('\n')));
    expect(folded.split('\n').length).toBeLessThan(unfolded.length);
  });

  it('the row: the template once with its ranges; the same number of lines for N = 8 and N = 600', () => {
    const src = readFileSync(join(ROOT, 'bench', 'w5', 'row.delta'), 'utf8');
    const small = text(src, { set: { N: 8 } });
    const large = text(src, { set: { N: 600 } });
    expect(large.split('\n').length).toBe(small.split('\n').length);
    // (the template, and how its parts are integrated: report/segments.ts, 8 lines folded)
    expect(small.split('\n').length).toBeLessThan(78);
    // a loop of the model keeps its range as written; the equations come from three statements (x[1], x[2..N-1], x[N]): numbers
    expect(large).toContain('  for i in 1:N-1: J[i] = (1 + e)*m/2*(u[i] + S[i] - (u[i+1] + S[i+1]))\n');
    expect(large).toContain("equations\n  for i in 1:600:\n    x[i]' = u[i] + S[i]\n    u[i]' = 0\n");
    expect(large).toContain('  v0[1:600] = [0.310308, -0.390371, ');
    expect(large).not.toMatch(/J\[5\] =/);
    // the contacts are one template, each with its two delta terms, signs as written
    expect(large).toMatch(/\n {2}for i in 1:N-1:\n {4}c\[i\] {2}\[state\] when x\[i\+1\] - x\[i\] falls\n/);
    expect(large).toContain('        delta term: -J[i]*delta(t - c[i])\n        delta term: J[i]*delta(t - c[i])\n');
  });

  it('sum() prints as a sum; LaTeX folds its equations and events the same way', () => {
    const src = rowArray([0.3, -0.1, 0.7, 0.2, 0.5, -0.6], 10);
    expect(text(src)).toContain('  E = sum(i in 1:6, m*(u[i] + S[i])^2/2)\n');
    const m = compileModel(src);
    const latex = formatLatex(m.system, transformReport(m));
    expect(latex).toContain(
      "  \\text{for } i = 1, \\dots, 6: \\\\\n    \\mathit{x[i]}' &= \\mathit{u[i]} + \\mathit{S[i]} \\\\\n    \\mathit{u[i]}' &= 0 \\\\\n",
    );
    expect(latex).toContain(
      'E &= \\sum_{i=1}^{6} \\left(\\frac{m \\, \\left(\\mathit{u[i]} + \\mathit{S[i]}\\right)^{2}}{2}\\right)',
    );
    expect(latex).toMatch(
      /\\item\[\] for \$i = 1, \\dots, N-1\$:\n {4}\\item \\texttt\{c\[i\]\} when \$\\mathit\{x\[i\+1\]\} - \\mathit\{x\[i\]\}\$ falls/,
    );
    const big = compileModel(
      src.replace('parameter N = 6', 'parameter N = 6').replace(/\[0\.3, [^\]]*\]/, '0.1'),
      'm.delta',
      { set: { N: 200 } },
    );
    expect(formatLatex(big.system, transformReport(big)).split('\n').length).toBe(latex.split('\n').length);
  });

  it('JSON keeps the ranges: a template of each section, which written out again is the section', () => {
    const src = readFileSync(join(ROOT, 'bench', 'w5', 'row.delta'), 'utf8');
    const report = (n: number) => transformReport(compileModel(src, 'row.delta', { set: { N: n } }));
    const small = report(8),
      large = report(300);
    type Item = NonNullable<typeof small.template>['equations'][number];
    const expand = (items: Item[]) =>
      items.flatMap((item) =>
        typeof item === 'string'
          ? [item]
          : Array.from({ length: item.to - item.from + 1 }, (_, k) =>
              item.body.map((l) => instance(l, item.for, item.from + k)),
            ).flat(),
      );
    for (const r of [small, large]) {
      const t = r.template!;
      expect(expand(t.equations)).toEqual(r.equations);
      expect(expand(t.algebraic).map((l) => unfold(l)[0])).toEqual(r.algebraic.map((a) => `${a.name} = ${a.expr}`));
      expect(expand(t.states)).toEqual(
        r.states.map((q) => `${q.name} stands for ${q.standsFor}, initial ${q.initial}`),
      );
      expect(expand(t.events).length).toBe(r.events.length);
    }
    // the same template for 8 and 300 spheres, up to the numbers in it
    const shape = (r: typeof small) =>
      JSON.stringify({ ...r.template, parameters: r.template!.parameters.length }).replace(/\d+/g, '#');
    expect(shape(large)).toBe(shape(small));
    expect(large.template!.equations).toEqual([
      { for: 'i', from: 1, to: 300, range: '1:300', body: ["x[i]' = u[i] + S[i]", "u[i]' = 0"] },
    ]);
    expect(large.template!.algebraic).toEqual([
      { for: 'i', from: 1, to: 299, range: '1:N-1', body: ['J[i] = (1 + e)*m/2*(u[i] + S[i] - (u[i+1] + S[i+1]))'] },
    ]);
    // a model without arrays has none
    expect(transformReport(compileModel(rowWritten([0.3, -0.1], 5))).template).toBeUndefined();
  });

  it('nested loops: the outer loop folds with its range as written, the inner one is written out inside it', () => {
    const grid = `parameter N = 3, M = 2
for i in 1:N
  for j in 1:M
    y[i,j]' = -(i + j)*y[i,j]
    y[i,j](0) = 1
  end
end
`;
    const shown = text(grid);
    expect(shown).toContain(
      "equations\n  for i in 1:N:\n    y[i,1]' = -(i + 1)*y[i,1]\n    y[i,2]' = -(i + 2)*y[i,2]\n",
    );
    const r = transformReport(compileModel(grid));
    const lines = unfold(shown, { N: 3, M: 2 });
    expect(lines.filter((l) => /^ {2}y\[\d,\d\]' = /.test(l)).map((l) => l.trim())).toEqual(r.equations);
  });

  it('a model without arrays prints as before (nothing to fold)', () => {
    const written = text(rowWritten([0.3, -0.1, 0.7, 0.2], 10));
    expect(written).not.toMatch(/^\s*(- )?for \w+ in /m);
    expect(written).toContain('  J1 = (1 + e)*m/2*(u1 + S1 - (u2 + S2))\n  J2 = ');
  });
});
