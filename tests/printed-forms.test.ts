/**
 * Every printed form of a delta term against the algebra (issue 20, item 15): the `from:` and
 * `delta term:` lines, the JSON `source`/`deltaSources`, the ledger's `source`, the text and
 * LaTeX actions. Many generated models (signs, factors, divisions, derivatives of delta,
 * scaled arguments, several deltas per equation and per instant) are transformed and run;
 * each printed term is parsed back with the library's parser and its jump worked out by the
 * scaling rule, delta^(m)(a t - b) = delta^(m)(t - b/a) / (|a| a^m), and compared with the
 * jumps the compiled system made (the ledger) and with the printed increments. Array models
 * fold: their folded text and LaTeX, written out again, are checked the same way.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, formatLatex, formatText, simulate, transformReport } from '../src/index.js';
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

/*
 * Folded forms. In an array model, `transform` folds copies inside an event (`for j in 1:3:
 * S[j] := S[j] + a`; `a*delta(t - kick) in the equation of y[j], for j in 1:3`) and events
 * into loops (`for i in 1:N:` around the events of a sum over j). Written out again, the text
 * and the LaTeX must make the jumps the run made.
 */

/** Elements as plain names for the evaluator: `b[3]` -> `b__3`. */
const plainNames = (s: string) => s.replace(/([A-Za-z_]\w*)\[(\d+)\]/g, '$1__$2');

/** Integer arithmetic as the folding writes it in an index or a range end (3+1, 2*3-1, 5-3). */
function arith(e: string): number {
  if (!/^-?\d+(?:[+\-*]\d+)*$/.test(e)) throw new Error(`not integer arithmetic: ${e}`);
  return e
    .replace(/(?<=\d)-/g, '+-')
    .split('+')
    .map((t) => t.split('*').reduce((a, b) => a * Number(b), 1))
    .reduce((a, b) => a + b, 0);
}

/** A template line with the loop variable `v` at `value`, its indices worked out. */
function instance(line: string, v: string, value: number): string {
  return line
    .replace(new RegExp(`(?<![\\w\\\\])${v}(?!\\w)`, 'g'), String(value))
    .replace(/\[([-+*\d]+)\]/g, (_, e: string) => `[${arith(e)}]`);
}

/** A range end as printed (`3`, `N`, `N-1`) at the parameters' values. */
const rangeEnd = (e: string, params: Record<string, number>) =>
  arith(e.replace(/[()]/g, '').replace(/[A-Za-z_]\w*/g, (n) => String(params[n])));

/**
 * Loops written out, inner ones too: `for v in A:B: LINE` and `for v in A:B:` over the lines
 * indented below it (text), `\item[] for $v = A, \dots, B$:` over the items below it (LaTeX).
 */
function unfoldLoops(lines: readonly string[], params: Record<string, number>): string[] {
  const out: string[] = [];
  for (let k = 0; k < lines.length; k++) {
    const head =
      /^(\s*)for (\w+) in ([^\s:]+):([^\s:]+):(?: (.*))?$/.exec(lines[k]) ??
      /^(\s*)\\item\[\] for \$(\w+) = ([^,$]+), \\dots, ([^$]+)\$:()$/.exec(lines[k]);
    if (!head) {
      out.push(lines[k]);
      continue;
    }
    const [, indent, v, a, b, same] = head;
    const body: string[] = [];
    if (same) body.push(indent + same);
    else while (k + 1 < lines.length && lines[k + 1].startsWith(`${indent}  `)) body.push(lines[++k].slice(2));
    for (let x = rangeEnd(a, params); x <= rangeEnd(b, params); x++)
      out.push(
        ...unfoldLoops(
          body.map((l) => instance(l, v, x)),
          params,
        ),
      );
  }
  return out;
}

interface WrittenOut {
  /** the delta terms, each with the variable of its equation where the printout names it */
  terms: { text: string; equation?: string }[];
  actions: { target: string; value: number }[];
}

/** The events section of the folded text, written out again: each event's delta terms and actions. */
function textEvents(text: string, params: Record<string, number>): Map<string, WrittenOut> {
  const all = text.split('\n');
  const from = all.indexOf('events (processed in this order at one instant)') + 1;
  const section = all.slice(from, all.indexOf('', from));
  const events = new Map<string, WrittenOut>();
  let current: { name: string; entry: WrittenOut } | undefined;
  for (const line of unfoldLoops(section, params)) {
    const head = /^ {2}(\S.*?) {2}\[\w+\]/.exec(line);
    if (head) {
      current = { name: head[1], entry: { terms: [], actions: [] } };
      events.set(current.name, current.entry);
      continue;
    }
    const body = line.trim();
    const term = /^(from|delta term): (.*)$/.exec(body);
    if (term) {
      // (the `from:` line of an event of the model's is its statement, of a delta's own its first term)
      if (term[1] === 'from' && !current!.name.startsWith('delta(')) continue;
      const folded = /^(.*) in the equation of (\S+), for (\w+) in ([^\s:]+):(\S+)$/.exec(term[2]);
      if (!folded) current!.entry.terms.push({ text: term[2] });
      else
        for (let x = rangeEnd(folded[4], params); x <= rangeEnd(folded[5], params); x++)
          current!.entry.terms.push({
            text: instance(folded[1], folded[3], x),
            equation: instance(folded[2], folded[3], x),
          });
      continue;
    }
    const [target, rhs] = body.split(' := ');
    current!.entry.actions.push({ target, value: valueOf(plainNames(rhs), params) });
  }
  return events;
}

/** LaTeX as the evaluator reads it, for the increments of these models: names, products, fractions. */
function latexText(latex: string): string {
  return latex
    .replace(/\\mathit\{([^{}]*)\}/g, '$1')
    .replace(/\\frac\{([^{}]*)\}\{([^{}]*)\}/g, '($1)/($2)')
    .replace(/\\left\(/g, '(')
    .replace(/\\right\)/g, ')')
    .replace(/ \\, /g, '*');
}

/** The events of the folded LaTeX, written out again: each event's actions. */
function latexEvents(latex: string, params: Record<string, number>): Map<string, WrittenOut['actions']> {
  const all = latex.split('\n');
  const items = all.slice(all.indexOf('\\begin{itemize}') + 1, all.indexOf('\\end{itemize}'));
  const events = new Map<string, WrittenOut['actions']>();
  for (const item of unfoldLoops(items, params)) {
    const name = /\\item \\texttt\{(.*?)\} /.exec(item)![1];
    const actions: WrittenOut['actions'] = [];
    // formulas of actions, each run of plain ones alone, a loop's with its range
    for (const part of item
      .slice(item.indexOf(': $'))
      .matchAll(/\$([^$]*)\$(?: for \$(\w+) = ([^,$]+), \\dots, ([^$]+)\$)?/g)) {
      const [, formula, v, a, b] = part;
      if (formula === '\\text{(no action)}') continue;
      const copies = v
        ? Array.from({ length: rangeEnd(b, params) - rangeEnd(a, params) + 1 }, (_, k) =>
            instance(formula, v, rangeEnd(a, params) + k),
          )
        : [formula];
      for (const copy of copies)
        for (const action of copy.split(',\\ ')) {
          const [target, rhs] = latexText(action).split(' \\leftarrow ');
          actions.push({ target, value: valueOf(plainNames(rhs), params) });
        }
    }
    events.set(name, actions);
  }
  return events;
}

/**
 * An array model of N elements y[i]' = -y[i] + (a kick) + (delayed deltas), written in runs:
 * equations alike in a loop, others one by one. The kicks act at one event; the delayed deltas,
 * d after each tick[j], come from a sum over j in every equation of a run (one event per j, a
 * term in each of those equations) or from tick[i] alone. Also which equation each term of each
 * event is in, in order.
 */
function arrayModel(seed: number): { text: string; equations: Map<string, string[]> } {
  const r = rng(seed);
  const n = 3 + Math.floor(r() * 5);
  const runs = (pool: readonly string[]) => {
    const out: string[] = [];
    while (out.length < n) {
      const choice = pick(r, pool);
      for (let k = 1 + Math.floor(r() * 4); k > 0 && out.length < n; k--) out.push(choice);
    }
    return out;
  };
  const kick = runs(['', 'a*delta(t - kick)', '2*a*delta(t - kick)', 'b[i]*delta(t - kick)', '-a*delta(t - kick)']);
  const delayed = runs([
    '',
    'sum(j in 1:N, w*delta(t - tick[j] - d))',
    'sum(j in 1:N, b[j]*delta(t - tick[j] - d))',
    'w*delta(t - tick[i] - d)',
  ]);
  const b = Array.from({ length: n }, () => pick(r, [0.3, 0.7, 1.1, -0.4, 2]));
  const lines = [
    `independent t from 0 to 3`,
    `parameter N = ${n}, a = ${pick(r, [0.5, -1.5])}, w = ${pick(r, [0.1, 3])}, d = 0.25`,
    `parameter b[1:N] = [${b.join(', ')}]`,
    `event kick at 1`,
    `for i in 1:N`,
    `  event tick[i] at 0.3*i + 0.05`,
    `  y[i](0) = 0`,
    `end`,
  ];
  for (let i = 1; i <= n;) {
    let last = i;
    while (last < n && kick[last] === kick[i - 1] && delayed[last] === delayed[i - 1]) last++;
    const rhs = ['-y[i]', kick[i - 1], delayed[i - 1]].filter(Boolean).join(' + ');
    if (last > i) lines.push(`for i in ${i}:${last}`, `  y[i]' = ${rhs}`, `end`);
    else lines.push(`y[${i}]' = ${rhs.replace(/(?<!\w)i(?!\w)/g, String(i))}`);
    i = last + 1;
  }
  const equations = new Map<string, string[]>();
  const elements = Array.from({ length: n }, (_, k) => k + 1);
  equations.set(
    'kick',
    elements.filter((i) => kick[i - 1]).map((i) => `y[${i}]`),
  );
  for (const j of elements) {
    const from = elements.filter((i) => delayed[i - 1].startsWith('sum') || (delayed[i - 1] && i === j));
    if (from.length)
      equations.set(
        `delta(t - tick[${j}] - d)`,
        from.map((i) => `y[${i}]`),
      );
  }
  return { text: lines.join('\n'), equations };
}

function checkArrayModel(seed: number): void {
  const { text, equations } = arrayModel(seed);
  const context = `array model, seed ${seed}:\n${text}`;
  const model = compileModel(text);
  const params = Object.fromEntries(
    model.system.parameters.map((p) => [plainNames(p.name), evaluate(p.value, (k) => (k === 'N' ? NaN : undefined))]),
  );
  for (const p of transformReport(model).parameters) params[plainNames(p.name)] = p.value;
  const report = transformReport(model);
  const folded = formatText(report);
  const printed = textEvents(folded, params);
  const latex = latexEvents(formatLatex(model.system, report), params);
  const run = simulate(model, { rtol: 1e-12, atol: 1e-12 });
  expect(run.status, context).toBe('ok');
  const variableOf = new Map(report.stepVariables.map((s) => [plainNames(s.name), s.variable]));
  expect([...printed.keys()], context).toEqual(report.events.map((e) => e.name));
  for (const [name, want] of equations) {
    const entry = printed.get(name)!;
    const what = `${context}\n${folded}\n${name}`;
    // the terms: as many as the equations hold, each folded one naming its own
    expect(entry.terms.length, what).toBe(want.length);
    entry.terms.forEach((t, k) => {
      if (t.equation) expect(t.equation, what).toBe(want[k]);
    });
    const sum = (into: Map<string, number>, key: string, value: number) => into.set(key, (into.get(key) ?? 0) + value);
    const fromTerms = new Map<string, number>();
    entry.terms.forEach((t, k) => sum(fromTerms, want[k], valueOf(plainNames(t.text), params)));
    const fromActions = new Map<string, number>();
    for (const a of entry.actions) sum(fromActions, variableOf.get(plainNames(a.target))!, a.value);
    const ledger = run.events.find((e) => e.name === name)!.jumps as Record<string, number>;
    for (const key of new Set([...fromTerms.keys(), ...fromActions.keys(), ...Object.keys(ledger)])) {
      const value = ledger[key] ?? 0;
      const scale = 1e-12 * Math.max(1, Math.abs(value));
      expect(Math.abs((fromTerms.get(key) ?? 0) - value), `${what}: ${key} from the terms`).toBeLessThanOrEqual(scale);
      expect(Math.abs((fromActions.get(key) ?? 0) - value), `${what}: ${key} from the actions`).toBeLessThanOrEqual(
        scale,
      );
    }
    // the LaTeX's actions, written out, are the text's
    expect(
      latex.get(name)!.map((a) => [a.target, a.value]),
      `${what}\n${formatLatex(model.system, report)}`,
    ).toEqual(entry.actions.map((a) => [a.target, expect.closeTo(a.value, 12)]));
  }
}

describe('folded forms of array models against the jumps', () => {
  it('40 generated array models: the folded text and LaTeX, written out, make the jumps the run made', () => {
    const seen = { terms: 0, actions: 0, events: 0 };
    for (let seed = 1; seed <= 40; seed++) {
      checkArrayModel(seed);
      const text = formatText(transformReport(compileModel(arrayModel(seed).text)));
      if (/ in the equation of /.test(text)) seen.terms++;
      if (/^ {6,}for \w+ in \S+: S\[/m.test(text)) seen.actions++;
      if (/^ {2}for i in \S+:\n {4}delta\(/m.test(text)) seen.events++;
    }
    // (most of them fold delta terms and actions inside an event, and events into a loop)
    expect(seen).toEqual({ terms: 31, actions: 31, events: 38 });
  });
});
