/**
 * The library's layer (round 8): messages about kinds of names, and what numeric callers pass.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileModel, Simulator } from '../src/index.js';
import { ensureCliBuilt, runCli } from './helpers.js';

describe('messages name a kind of name with its article', () => {
  // (the helpers of round 8: "'E' is a algebraic", "'t' is a independent")
  const messageOf = (source: string): string => {
    try {
      compileModel(source, 'm.delta');
    } catch (err) {
      return (err as Error).message;
    }
    return '';
  };
  it('an algebraic variable, the independent variable, a discrete variable', () => {
    expect(messageOf("independent t from 0 to 1\nE = 2\nx' = 1\nx(0) = 0\nE(0) = 1")).toMatch(
      /'E' is an algebraic variable, not a state/,
    );
    expect(messageOf("independent t from 0 to 1\nx' = t'\nx(0) = 0")).toMatch(
      /'t' is the independent variable; only states/,
    );
    expect(messageOf("independent t from 0 to 1\ndiscrete n = 0\nn = 2\nx' = 1\nx(0) = 0")).toMatch(
      /'n' is a discrete variable and cannot be defined by an equation/,
    );
  });
});

describe('outputTimes and probes as a Float64Array', () => {
  // (a numeric caller's times come as a typed array; it was refused: "got an object")
  it('gives the rows and probes a plain array gives', () => {
    const m = compileModel("independent t from 0 to 2\nx' = 1\nx(0) = 0", 'm.delta');
    const typed = new Simulator(m).run({ outputTimes: Float64Array.from([1.5, 0.5]), probes: new Float64Array([1]) });
    const plain = new Simulator(m).run({ outputTimes: [1.5, 0.5], probes: [1] });
    expect(typed.status).toBe('ok');
    expect(typed.rows).toEqual(plain.rows);
    expect(typed.rows.map((r) => r[0])).toEqual([0.5, 1.5]);
    expect(typed.probes?.[0].y[0]).toBe(1);
  });
});

describe('values that are not finite in the outputs (docs/cli.md)', () => {
  // JSON has no Infinity or NaN: null there; CSV writes them out
  it('null in JSON, Infinity and NaN in CSV', () => {
    ensureCliBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'ds-r8-'));
    const file = join(dir, 'inf.delta');
    writeFileSync(
      file,
      "independent t from 0 to 1\ndiscrete k = 0\nr = 1/k\nq = sqrt(k - 1)\nx' = 1\nx(0) = 0\noutput x, r, q\n",
    );
    const json = JSON.parse(runCli(['simulate', file, '--format', 'json', '--quiet']).stdout);
    expect(json.final).toEqual({ t: 1, x: 1, r: null, q: null });
    const csv = runCli(['simulate', file, '--format', 'csv', '--quiet']).stdout.trim().split('\n');
    expect(csv[0]).toBe('t,x,r,q');
    expect(csv[csv.length - 1]).toBe('1,1,Infinity,NaN');
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('a model written out past what the heap holds', () => {
  // (helper 36: --set N=1e7 on the language's row ran out of memory after 70 s with a native
  // stack trace; N = 1e5 overflowed the stack in Math.max(...states), "internal error")
  const row = (n: number) => `independent t from 0 to 1
parameter N = ${n}
for i in 1:N
  event c[i] when x[i+1] - x[i] falls
  x[i]' = v[i]; v[i]' = 0; x[i](0) = i; v[i](0) = 0
end
x[N+1]' = 0; x[N+1](0) = N + 1`;
  it('is refused with a message that names the limit and how to raise it', async () => {
    const { setHeapBudget } = await import('../src/language/array-expressions.js');
    setHeapBudget(48 * 2 ** 20); // 16384 elements
    try {
      expect(() => compileModel(row(4000), 'm.delta')).toThrow(
        /more than 16384 elements \(statements, loop values, terms of sums\): .* more than the 48 MB of memory this process has[\s\S]*--max-old-space-size/,
      );
    } finally {
      setHeapBudget(4 * 2 ** 30);
    }
    expect(compileModel(row(4000), 'm.delta').nStates).toBe(8001);
  });
  it('the largest and smallest of 1e6 numbers without spreading them into arguments', async () => {
    const { maxOf, minOf } = await import('../src/expression/extremes.js');
    const values = Float64Array.from({ length: 1e6 }, (_, i) => Math.sin(i));
    expect(() => Math.max(...values)).toThrow(RangeError);
    expect(maxOf(values)).toBe(values.reduce((a, b) => Math.max(a, b)));
    expect(minOf(values)).toBe(values.reduce((a, b) => Math.min(a, b)));
    expect(maxOf([1, NaN, 3])).toBeNaN();
    expect(maxOf([])).toBe(-Infinity);
  });
});
