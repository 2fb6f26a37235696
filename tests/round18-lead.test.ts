/**
 * Round 18, the lead's finds.
 *
 * A quotient by a constant differentiates to a'/b (expression/expr.ts): the quotient rule's
 * (a'b - ab')/b^2 squared the divisor, which overflows beyond 1.3e154, so event functions and
 * closed forms with a large constant divisor lost their rate or coefficient and went to the
 * stepper (round 17's range guards), or, before those guards, gave n = 0 with status ok.
 */
import { describe, expect, it } from 'vitest';
import type { Expr } from '../src/expression/ast.js';
import { differentiate, toText } from '../src/expression/expr.js';
import { ModelError } from '../src/expression/errors.js';
import { compileModel, shoot, simulate } from '../src/index.js';
import { parseModel } from '../src/language/parser.js';
import { evalText } from './helpers.js';

const expr = (text: string): Expr => {
  const st = parseModel(`r = ${text}`, 'x.delta').statements[0];
  if (st.kind !== 'equation') throw new Error('not an expression');
  return st.rhs;
};

describe('a quotient by a constant', () => {
  // hit when x/T = 5e-101, T = 1e200, x = t: at t = 5e99 exactly (powers of ten: the
  // crossing of x/T - 5e-101 = 0 is x = 5e-101 * 1e200 to one rounding)
  const plain = `independent t from 0 to 1e100
discrete n = 0
parameter T = 1e200
event hit when x/T - 5e-101 rises do n := n + 1 end
x' = 1
x(0) = 0`;
  it('x/T with T = 1e200 stays on the analytic path and crosses at 5e99', () => {
    const r = simulate(plain, { method: 'auto', rtol: 1e-12, atol: 1e-300 });
    expect(r.status, r.message ?? undefined).toBe('ok');
    expect(r.stats.method).toBe('analytic');
    expect(r.final.n).toBe(1);
    expect(Math.abs(r.events[0].t - 5e99)).toBeLessThanOrEqual(4 * Number.EPSILON * 5e99);
  });
  it('d(x/y): 1/y along x, -x/y^2 along y (the quotient rule where the divisor moves)', () => {
    // at x = 3, y = 2: 0.5 and -0.75, exact in doubles
    expect(evalText(toText(differentiate(expr('x/y'), 'x')), { x: 3, y: 2 })).toBe(0.5);
    expect(toText(differentiate(expr('x/y'), 'x'))).not.toMatch(/\^/);
    expect(evalText(toText(differentiate(expr('x/y'), 'y')), { x: 3, y: 2 })).toBe(-0.75);
  });
});

describe('shoot through the library: as many conditions as unknowns, or an error at its line', () => {
  // (the command line named the line; the library said only the counts)
  const text = `independent x from 0 to 1
unknown a = 1, b = 2
y'' = a + b
y(0) = 0; y'(0) = 0
y(1) = 1`;
  it('two unknowns, one condition: a ModelError at b (line 2, column 16)', () => {
    let err: unknown;
    try {
      shoot(compileModel(text, 'two.delta'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ModelError);
    const m = err as ModelError;
    expect([m.file, m.line, m.column]).toEqual(['two.delta', 2, 16]);
    expect(m.message).toMatch(/2 unknown\(s\) but 1 boundary condition\(s\)/);
  });
});

describe('a start past the end of the range without an end (reported by layers19)', () => {
  // x' = 1 on [0, 5]; from 6 with x(6) = 6 and no end: the rules give 6 back to 5 (x = 5
  // there, exactly), status ok, every row in reverse. Right, but a user who forgot --to
  // sees no sign of it: the result says so.
  const text = `independent t from 0 to 5
x' = 1
x(0) = 0`;
  it.each(['auto', 'dopri5', 'rk4'] as const)('%s: backwards to 5, with a warning saying why', (method) => {
    const r = simulate(text, { method, from: 6, init: { x: 6 } });
    expect(r.status).toBe('ok');
    expect(Math.abs(r.final.x - 5)).toBeLessThanOrEqual(8 * Number.EPSILON * 5);
    expect(r.warnings.some((w) => /starts at t = 6, beyond the model's end 5, so it runs backwards/.test(w))).toBe(
      true,
    );
  });
  it('no warning where the end is given, or the start stays before it', () => {
    for (const options of [
      { from: 6, to: 7, init: { x: 6 } },
      { from: 2, init: { x: 2 } },
      { from: 6, to: 5, init: { x: 6 } },
    ]) {
      const r = simulate(text, { method: 'dopri5', ...options });
      expect(r.status).toBe('ok');
      expect(r.warnings.filter((w) => /runs backwards/.test(w))).toEqual([]);
    }
  });
});

describe('steps that shrink below the ulp of t near a singularity (reported by layers19)', () => {
  // x' = 1/(c - t), x(0) = 0: x = -log(1 - t/c), which no step passes at t = c = 1. The
  // steppers fail there, clearly; the message advised counting t from the start of the range,
  // which already was 0 (and would give t no more digits near 1).
  const text = `independent t from 0 to 2
parameter c = 1
x' = 1/(c - t)
x(0) = 0`;
  it.each(['dopri5', 'rodas'] as const)('%s: fails near t = 1 naming a singularity, not the origin of t', (method) => {
    const r = simulate(text, { method });
    expect(r.status).toBe('failed');
    expect(r.message).not.toMatch(/count t from the start/);
    expect(r.message).toMatch(/would give it no more digits there: the steps shrink toward t = 0\.9999999/);
    expect(r.message).toMatch(/as they do at a singularity of the solution/);
    // what it computed is kept, and right where the solution is not yet steep: at the last
    // row before t = 0.9, x = -log(1 - t) to the tolerances (rtol 1e-6 over a few hundred steps)
    const row = r.rows.filter(([t]) => t <= 0.9).pop()!;
    expect(Math.abs(row[1] + Math.log1p(-row[0]))).toBeLessThan(1e-4 * Math.abs(row[1]));
  });
});
