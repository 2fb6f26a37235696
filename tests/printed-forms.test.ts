/**
 * Every printed form of a delta term against the algebra (issue 20, item 15): the `from:` and
 * `delta term:` lines, the JSON `source`/`deltaSources`, the ledger's `source`, the text and
 * LaTeX actions. Many generated models (signs, factors, divisions, derivatives of delta,
 * scaled arguments, several deltas per equation and per instant) are transformed and run;
 * each printed term is parsed back with the library's parser and its jump worked out by the
 * scaling rule, delta^(m)(a t - b) = delta^(m)(t - b/a) / (|a| a^m), and compared with the
 * jumps the compiled system made (the ledger) and with the printed increments.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, formatLatex, simulate, transformReport } from '../src/index.js';
import type { Expr } from '../src/expression/ast.js';
import { evaluate } from '../src/expression/evaluate.js';
import { mapExpr, walk } from '../src/expression/expr.js';
import { parseExpression } from '../src/language/parser.js';

/** A small seeded generator (mulberry32), so that a failure names its model. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

/** One delta term of the generated model, as text: a delta (or delta') at one of a few instants, with a factor. */
function deltaTerm(r: () => number, order: number, times: readonly number[]): string {
  const time = pick(r, times);
  const slope = pick(r, [1, 1, 2, -1, 'a']);
  const arg = slope === 1 ? `t - ${time}` : slope === -1 ? `${time} - t` : `${slope}*t - ${slope}*${time}`;
  const d = `delta${"'".repeat(order)}(${arg})`;
  const c = pick(r, [2, 3, 0.5, 7]);
  return pick(r, [
    d,
    `${c}*${d}`,
    `a*${d}`,
    `${c}*${d}/a`,
    `${d}*b`,
    `${c}*(1 - ${d})`,
    `-(${c}*${d})`,
    `${d}/(a + b)`,
  ]);
}

/** the instants of the deltas of y'' and of z' (apart, so that an event's terms are of one equation) */
const Y_TIMES = [1, 1.5, 2];
const Z_TIMES = [1.25, 2.75];

/** `y'' = ...` with delta and delta' terms, and `z' = ...` with delta terms. */
function generatedModel(seed: number): string {
  const r = rng(seed);
  const sum = (n: number, maxOrder: number, times: readonly number[]) => {
    let s = pick(r, ['1', 'b', '0.25*t']);
    for (let k = 0; k < n; k++) s += ` ${pick(r, ['+', '-'])} ${deltaTerm(r, Math.floor(r() * (maxOrder + 1)), times)}`;
    return s;
  };
  return [
    `parameter a = ${pick(r, [1.5, 3, -2])}, b = ${pick(r, [0.75, 2.5, -1.25])}`,
    `y'' = ${sum(1 + Math.floor(r() * 4), 1, Y_TIMES)}`,
    `z' = ${sum(1 + Math.floor(r() * 3), 0, Z_TIMES)}`,
    `y(0) = 0; y'(0) = 0; z(0) = 0`,
  ].join('\n');
}

/** The value of printed text at the model's parameters (and delta calls as 1, S as 0). */
function valueOf(text: string, params: Record<string, number>): number {
  const e = mapExpr(parseExpression(text, 'printed'), (n) =>
    n.kind === 'call' && n.name === 'delta' ? { kind: 'number', value: 1, span: n.span } : undefined,
  );
  return evaluate(e, (k) => params[k] ?? (k.startsWith('S') ? 0 : undefined));
}

/** The jumps a printed delta term makes, by level below the equation's order n: {m: ..., value}. */
function jumpOfSource(source: string, n: number, params: Record<string, number>): { level: number; value: number } {
  const e = parseExpression(source, 'printed');
  const calls: Extract<Expr, { kind: 'call' }>[] = [];
  walk(e, (x) => {
    if (x.kind === 'call' && x.name === 'delta') calls.push(x);
  });
  expect(calls).toHaveLength(1);
  const [call] = calls;
  const u = (t: number) => evaluate(call.args[0], (k) => (k === 't' ? t : params[k]));
  const slope = u(1) - u(0);
  const m = call.derivativeOrder;
  return { level: n - 1 - m, value: valueOf(source, params) / (Math.abs(slope) * slope ** m) };
}

function checkModel(seed: number): void {
  const text = generatedModel(seed);
  const context = `seed ${seed}:\n${text}`;
  const model = compileModel(text);
  const params = Object.fromEntries(model.system.parameters.map((p) => [p.name, evaluate(p.value, () => undefined)]));
  const report = transformReport(model);
  const latex = formatLatex(model.system, report);
  const run = simulate(model, { to: 3, rtol: 1e-12, atol: 1e-12 });
  expect(run.status, context).toBe('ok');
  const levelKey = (state: string, level: number) => state + "'".repeat(level);
  const stepOf = new Map(report.stepVariables.map((s) => [s.name, s.variable]));
  for (const ev of report.events) {
    const entries = run.events.filter((e) => e.name === ev.name);
    expect(entries.length, context).toBe(1);
    const [entry] = entries;
    expect(entry.source, context).toBe(ev.source);
    expect(ev.deltaSources[0], context).toBe(ev.source);
    // the jumps the printed terms make, by variable (y', y, z)
    const expected = new Map<string, number>();
    const onY = Y_TIMES.includes(entry.t);
    for (const s of ev.deltaSources) {
      const j = jumpOfSource(s, onY ? 2 : 1, params);
      const key = levelKey(onY ? 'y' : 'z', j.level);
      expected.set(key, (expected.get(key) ?? 0) + j.value);
    }
    // the printed increments S := S + X, by the variable their step variable stands for
    const printed = new Map<string, number>();
    for (const a of ev.actions) {
      const [target, rhs] = a.split(' := ');
      const variable = stepOf.get(target)!;
      printed.set(variable, (printed.get(variable) ?? 0) + valueOf(rhs, params));
    }
    const jumps = entry.jumps as Record<string, number>;
    for (const key of new Set([...expected.keys(), ...printed.keys(), ...Object.keys(jumps)])) {
      const want = expected.get(key) ?? 0;
      const scale = 1e-12 * Math.max(1, Math.abs(want));
      expect(Math.abs((jumps[key] ?? 0) - want), `${context}\n${ev.name} ${key} ledger`).toBeLessThanOrEqual(scale);
      expect(Math.abs((printed.get(key) ?? 0) - want), `${context}\n${ev.name} ${key} printed`).toBeLessThanOrEqual(
        scale,
      );
    }
    // LaTeX: the same actions, each with the sign of its text form
    const item = latex.split('\n').find((l) => l.includes(`\\texttt{${ev.name}}`))!;
    expect(item, context).not.toMatch(/\+ -/);
    const signs = ev.actions.map((a) => /^(\w+) := \1 ([-+]) /.exec(a)?.[2] ?? '+');
    const latexSigns = [...item.matchAll(/\\leftarrow S_\{\d+\} ([-+]) /g)].map((x) => x[1]);
    expect(latexSigns, `${context}\n${item}`).toEqual(signs);
  }
}

describe('printed delta terms and increments against the jumps (issue 20, item 15)', () => {
  it('1 - 2*delta(t - 1) prints its term with the minus in every form', () => {
    const model = compileModel(`y'' = 1 - 2*delta(t - 1)\ny(0) = 0; y'(0) = 0`);
    const report = transformReport(model);
    const [ev] = report.events;
    expect(ev.source).toBe('-2*delta(t - 1)');
    expect(ev.deltaSources).toEqual(['-2*delta(t - 1)']);
    expect(ev.actions).toEqual(['S1 := S1 - 2']);
    expect(formatLatex(model.system, report)).toContain('$S_{1} \\leftarrow S_{1} - 2$');
    expect(simulate(model, { to: 2 }).events[0].source).toBe('-2*delta(t - 1)');
  });

  it.each([
    ['1 - a*delta(t - 1)', '-a*delta(t - 1)', 'S_{1} - a'],
    ["1 - delta'(t - 1)", "-delta'(t - 1)", 'S_{1} - 1'],
    ['1 - 2*delta(t - 1)/a', '-2*delta(t - 1)/a', 'S_{1} - \\frac{2}{a}'],
    ['1 - 3*t*delta(t - 1)/a', '-3*t*delta(t - 1)/a', 'S_{1} - \\frac{3 \\, t}{a}'],
    ['2*(1 - delta(t - 1))', '-2*delta(t - 1)', 'S_{1} - 2'],
    ['-(3 - 2*delta(t - 1))', '2*delta(t - 1)', 'S_{1} + 2'],
    ['-(2*delta(t - 1))', '-(2*delta(t - 1))', 'S_{1} - 2'],
    ['1 - (b - delta(t - 1))', 'delta(t - 1)', 'S_{1} + 1'],
  ])("y'' = %s prints %s", (rhs, source, latex) => {
    const model = compileModel(`parameter a = 3, b = 1\ny'' = ${rhs}\ny(0) = 0; y'(0) = 0`);
    const report = transformReport(model);
    expect(report.events[0].source).toBe(source);
    expect(formatLatex(model.system, report)).toContain(`\\leftarrow ${latex}$`);
  });

  it('an increment that is a sum prints with its parentheses', () => {
    const model = compileModel(`parameter a = 3, b = 1\ny'' = 1 - (a + b)*delta(t - 1)\ny(0) = 0; y'(0) = 0`);
    const report = transformReport(model);
    expect(report.events[0].actions).toEqual(['S1 := S1 - (a + b)']);
    expect(formatLatex(model.system, report)).toContain('S_{1} \\leftarrow S_{1} - \\left(a + b\\right)$');
  });

  it('200 generated models: every printed term and increment makes the jump the run made', () => {
    for (let seed = 1; seed <= 200; seed++) checkModel(seed);
  });
});
