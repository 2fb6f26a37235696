/**
 * Loops in the generated code (transform/loops.ts): a folded body computes exactly what the
 * statements it replaces did, and only runs that advance together are folded.
 */
import { describe, expect, it } from 'vitest';
import { foldFunctions, foldStatements, foldSum } from '../src/codegen/loops.js';
import { compileModel, simulate } from '../src/index.js';

/** The function (y, d, out) => void of a body, as the compiler would make it. */
function run(lines: readonly string[], n: number, seed: number): Float64Array {
  const f = new Function('y', 'd', 'out', `"use strict";\n${lines.join('')}`) as (
    y: Float64Array,
    d: Float64Array,
    out: Float64Array,
  ) => void;
  const y = Float64Array.from({ length: n }, (_, k) => Math.sin(seed * (k + 1)) * 10);
  const d = Float64Array.from({ length: n }, (_, k) => Math.cos(seed + k));
  const out = new Float64Array(n).fill(NaN);
  f(y, d, out);
  return out;
}

describe('foldStatements', () => {
  it('folds a row of gaps into one loop and computes the same values', () => {
    const lines = ['  out[0] = y[0];\n', '  out[1] = (y[10] - 3);\n'];
    for (let k = 0; k < 9; k++) lines.push(`  out[${k + 2}] = (y[${2 * k + 2}] - y[${2 * k}]);\n`);
    const folded = foldStatements(lines);
    expect(folded).toEqual([
      '  out[0] = y[0];\n',
      '  out[1] = (y[10] - 3);\n',
      '  for (let i = 0; i < 9; i++) {\n',
      '    out[(2 + i)] = (y[(2 + 2 * i)] - y[(2 * i)]);\n',
      '  }\n',
    ]);
    for (const seed of [1, 2, 3]) expect(run(folded, 24, seed)).toEqual(run(lines, 24, seed));
  });

  it("folds blocks of statements (x[k]' and u[k]' of each element) and keeps decimals, exponents and names as text", () => {
    const lines: string[] = [];
    for (let k = 0; k < 50; k++) {
      lines.push(`  out[${2 * k}] = (y[${2 * k + 1}] + d[${k}]);\n`);
      lines.push(`  out[${2 * k + 1}] = 1.7763568394002505e-15 * Math.abs(y[${2 * k}]) + 0.5;\n`);
    }
    const folded = foldStatements(lines);
    expect(folded).toHaveLength(4);
    expect(folded[1]).toBe('    out[(2 * i)] = (y[(1 + 2 * i)] + d[(i)]);\n');
    expect(folded[2]).toBe('    out[(1 + 2 * i)] = 1.7763568394002505e-15 * Math.abs(y[(2 * i)]) + 0.5;\n');
    for (const seed of [1, 5]) expect(run(folded, 100, seed)).toEqual(run(lines, 100, seed));
  });

  it('leaves short runs, declarations and statements that do not advance together alone', () => {
    const three = ['  out[0] = y[0];\n', '  out[1] = y[1];\n', '  out[2] = y[2];\n'];
    expect(foldStatements(three)).toEqual(three);
    const consts = Array.from({ length: 6 }, (_, k) => `  const v${k} = y[${k}];\n`);
    expect(foldStatements(consts)).toEqual(consts);
    // the same shape, but the numbers do not move affinely (squares)
    const squares = Array.from({ length: 6 }, (_, k) => `  out[${k}] = y[${k * k}];\n`);
    expect(foldStatements(squares)).toEqual(squares);
    // a run that breaks off: the affine part is folded, the rest kept
    const broken = [...Array.from({ length: 5 }, (_, k) => `  out[${k}] = y[${k}];\n`), '  out[5] = y[9];\n'];
    const folded = foldStatements(broken);
    expect(folded.at(-1)).toBe('  out[5] = y[9];\n');
    expect(run(folded, 10, 2)).toEqual(run(broken, 10, 2));
  });
});

describe('foldFunctions', () => {
  it('makes a family of evaluators from one factory, each computing what its own function did', () => {
    const bodies = ['  return y[0];\n'];
    for (let k = 0; k < 20; k++) bodies.push(`  const x0 = y[${2 * k + 2}];\n  return (x0 - y[${2 * k}]) * 1e-3;\n`);
    bodies.push('  return y[40] - 7;\n');
    const { definitions, list } = foldFunctions('watch', 'y', bodies);
    expect(definitions).toContain(
      'const watchFamily0 = (i) => function (y) {\n  const x0 = y[(2 + 2 * i)];\n  return (x0 - y[(2 * i)]) * 1e-3;\n};',
    );
    expect(list).toBe('[watch0, ...Array.from({ length: 20 }, (_, k) => watchFamily0(k)), watch21]');

    const made = new Function(`"use strict";\n${definitions}return ${list};`)() as ((y: Float64Array) => number)[];

    const plain = bodies.map((b) => new Function('y', `"use strict";\n${b}`) as (y: Float64Array) => number);
    expect(made).toHaveLength(plain.length);
    const y = Float64Array.from({ length: 41 }, (_, k) => Math.exp(Math.sin(k)));
    made.forEach((f, k) => expect(f(y)).toBe(plain[k](y)));
  });
});

describe('foldSum: a named value that sums many terms', () => {
  it('adds the terms in loops, in order, and gives the sum of the terms', () => {
    const terms = Array.from({ length: 40 }, (_, k) => `sq((y[${2 * k + 1}] + d[${k}]))`);
    const folded = foldSum('s7', terms)!;
    expect(folded).toBe(
      '  let s7 = 0;\n  for (let i = 0; i < 40; i++) {\n    s7 += sq((y[(1 + 2 * i)] + d[(i)]));\n  }\n',
    );
    const f = new Function('y', 'd', `"use strict";\nconst sq = (x) => x * x;\n${folded}return s7;`) as (
      y: Float64Array,
      d: Float64Array,
    ) => number;
    const y = Float64Array.from({ length: 80 }, (_, k) => Math.sin(k + 1));
    const d = Float64Array.from({ length: 40 }, (_, k) => Math.cos(k));
    let expected = 0;
    for (let k = 0; k < 40; k++) expected += (y[2 * k + 1] + d[k]) ** 2;
    expect(f(y, d)).toBe(expected);
  });
  it('leaves short sums and sums whose terms do not advance together as they are', () => {
    expect(foldSum('s1', ['y[0]', 'y[1]', 'y[2]'])).toBeNull();
    const irregular = Array.from({ length: 20 }, (_, k) => `y[${(k * k) % 17}]`);
    expect(foldSum('s1', irregular)).toBeNull();
  });
  it('E = sum(i in 1:N, ...) of a row of 4096 spheres is a loop in the compiled code, and right', () => {
    const N = 4096;
    const source = `independent t from 0 to 1
parameter N = ${N}
for i in 1:N
  x[i]' = 0.001*i
  x[i](0) = i
end
E = sum(i in 1:N, x[i]^2/2)
output E`;
    const m = compileModel(source);
    expect(m.source).toMatch(/for \(let i = 0; i < 4096; i\+\+\) \{\n\s+s\d+ \+= /);
    // x_i(1) = i + 0.001 i: E = sum (1.001 i)^2 / 2, exactly N (N + 1)(2N + 1)/12 · 1.001^2
    const exact = ((N * (N + 1) * (2 * N + 1)) / 12) * 1.001 ** 2;
    const r = simulate(m, { eventsOnly: true });
    expect(Math.abs(r.final.E - exact) / exact).toBeLessThan(1e-12);
  });
});
