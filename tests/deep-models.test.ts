/**
 * Models whose expressions or statements are long (issue 20, item 11): a sum of 1e5 terms, a
 * chain of 1e4 named values (written out and as an array), 1e5 `at` events from one loop. Each
 * ended in "Maximum call stack size exceeded"; every walk over them is now of logarithmic
 * depth (sums become balanced trees beyond a run of 32 terms) or iterative (chains of named
 * values), and the generated code has one factory per family of elements. Answers are exact.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, formatLatex, formatText, simulate, transformReport } from '../src/index.js';
import { REDUCTION_RUN } from '../src/language/array-expressions.js';
import { parse } from '../src/index.js';

const rows = (n: number) =>
  `parameter N = ${n}\nfor i in 1:N\n  x[i]' = -x[i]\n  x[i](0) = 1\nend\nE = sum(i in 1:N, x[i]^2/2)\noutput E\n`;

describe('long sums, chains and loops of events (issue 20, item 11)', () => {
  it('E = sum(i in 1:N, x[i]^2/2) with N = 1e5: E(1) = N e^-2 / 2', () => {
    const run = simulate(compileModel(rows(100000)), { to: 1, rtol: 1e-10, atol: 1e-12 });
    expect(run.status).toBe('ok');
    expect(Math.abs(run.final.E - (100000 * Math.exp(-2)) / 2)).toBeLessThan(1e-9 * run.final.E);
  }, 60000);

  it('a sum of up to 32 terms adds left to right, as written by hand; a longer one in runs added in pairs', () => {
    expect(REDUCTION_RUN).toBe(32);
    const depth = (n: number) => {
      const ast = parse(`x = sum(i in 1:${n}, i)`);
      const st = ast.statements[0];
      if (st.kind !== 'equation') throw new Error('not an equation');
      let d = 0;
      for (let e = st.rhs; e.kind === 'binary'; e = e.left.kind === 'binary' ? e.left : e.right) d++;
      return d;
    };
    expect(depth(32)).toBe(31);
    expect(depth(100000)).toBeLessThan(32 + 17);
  });

  it('an event on a sum of 3000 terms: E = N/4 when e^(-2t) = 1/2', () => {
    const src = `${rows(3000)}event half when E - N/4 falls do stop end\n`;
    const run = simulate(compileModel(src), { to: 1, rtol: 1e-10, atol: 1e-12 });
    expect(run.events[0].t).toBeCloseTo(Math.log(2) / 2, 9);
  }, 60000);

  it.each([
    [
      'written out',
      ["x' = 1", 'x(0) = 0', 'a1 = x + 1', ...Array.from({ length: 9999 }, (_, k) => `a${k + 2} = a${k + 1} + 1`)].join(
        '\n',
      ),
      'a10000',
    ],
    [
      'as an array',
      "parameter N = 10000\nx' = 1\nx(0) = 0\na[1] = x + 1\nfor i in 2:N\n  a[i] = a[i-1] + 1\nend",
      'a[10000]',
    ],
  ])(
    'a chain of 1e4 named values, %s: a = x + 1e4',
    (_, src, last) => {
      const model = compileModel(`${src}\noutput x, ${last}`);
      const run = simulate(model, { to: 1 });
      expect(run.final[last]).toBe(10001);
      const report = transformReport(model);
      expect(formatText(report)).toMatch(/a1 = x \+ 1|a\[1:10000\]/);
      expect(formatLatex(model.system, report).length).toBeGreaterThan(0);
      expect(model.source.length).toBeGreaterThan(0);
    },
    60000,
  );

  it('1e5 at events from one loop: n counts each', () => {
    const src =
      "parameter N = 100000\ndiscrete n = 0\nx' = 1\nx(0) = 0\nfor i in 1:N\n  event e[i] at i/(N+1) do n := n + 1 end\nend\noutput n\n";
    const run = simulate(compileModel(src), { to: 1 });
    expect(run.status).toBe('ok');
    expect(run.final.n).toBe(100000);
  }, 60000);
});
