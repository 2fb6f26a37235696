/**
 * Rules that hold only in a situation: `EQUATION while CONDITION`, the meaning a rule table
 * gives them (Shpakov's rule-based models): a rule that is not active does not run.
 *
 * - A named variable defined by rules, `Fy = 60000*(R - h) while braking` and
 *   `Fy = 45000*(R - h) while speedup`, is the first active rule's value; while none is
 *   active it keeps the value it had when the last one stopped (0 before any rule ran, as the
 *   variables of a rule table start). Written out: a hidden discrete variable `Fy.held`, the
 *   definition `Fy = if braking then ... else if speedup then ... else Fy.held`, and per rule
 *   an event `Fy.hold1`, `Fy.hold2` when its condition falls, setting `Fy.held` to its value.
 * - A differential equation `w' = M/J while h < R` integrates only while its condition holds:
 *   otherwise the highest derivative is zero (the integral stops, the value stays).
 *
 * Written out here, before the analysis, so that everything after it (switching functions,
 * event location, transform's printout) sees ordinary statements. The hidden names contain a
 * `.`, which a model cannot write, so they cannot collide with the user's names, and they
 * are left out of the default outputs.
 */
import type {
  DiscreteStatement,
  EquationStatement,
  EventStatement,
  Expr,
  ModelAst,
  Span,
  Statement,
} from '../expression/ast.js';
import { ErrorReporter } from '../expression/errors.js';
import { mapExpr, refKey, simplify, walk } from '../expression/expr.js';

/** The suffix of the hidden discrete variable that holds a rule variable's last value. */
const HELD = '.held';

/** Whether `name` is one of the variables this pass makes (left out of default outputs). */
export function isHiddenName(name: string): boolean {
  return name.includes('.');
}

/** The model with its `while` rules written out (the same object when it has none). */
export function writeOutRules(ast: ModelAst): ModelAst {
  if (!ast.statements.some((s) => s.kind === 'equation' && s.while)) return ast;
  const r = new ErrorReporter(ast.file, ast.source);
  const groups = new Map<string, EquationStatement[]>();
  const plainDefinition = new Map<string, EquationStatement>();
  for (const s of ast.statements) {
    if (s.kind !== 'equation') continue;
    if (s.while) {
      walk(s.rhs, (n) => {
        if (n.kind === 'call' && n.name === 'delta')
          throw r.at(
            n.span,
            'a delta cannot stand in a rule with while',
            'A delta acts at an instant, not while a situation lasts; write it in an equation of its own.',
          );
      });
      if (isDifferential(s)) continue;
      if (s.lhs.kind !== 'name') {
        throw r.at(
          s.lhs.span,
          'a rule with while defines one named variable or a differential equation',
          "Write NAME = EXPR while CONDITION, or y' = EXPR while CONDITION.",
        );
      }
      const list = groups.get(s.lhs.name) ?? [];
      list.push(s);
      groups.set(s.lhs.name, list);
    } else if (s.lhs.kind === 'name' && !isDifferential(s)) {
      plainDefinition.set(s.lhs.name, s);
    }
  }
  for (const [n, rules] of groups) {
    const plain = plainDefinition.get(n);
    if (plain) {
      throw r.at(
        plain.span,
        `'${n}' is defined without while here and by rules with while (line ${rules[0].span.line})`,
        `A variable defined by rules gets every definition with while; write this one as ${n} = ... while CONDITION, or remove it.`,
      );
    }
  }
  const out: Statement[] = [];
  const written = new Set<string>();
  for (const s of ast.statements) {
    if (s.kind !== 'equation' || !s.while) {
      out.push(s);
      continue;
    }
    if (isDifferential(s)) {
      out.push(integralWhile(s, r));
      continue;
    }
    const n = (s.lhs as { name: string }).name;
    if (written.has(n)) continue;
    written.add(n);
    out.push(...ruleVariable(n, groups.get(n)!));
  }
  return { ...ast, statements: out };
}

function isDifferential(s: EquationStatement): boolean {
  let found = false;
  const see = (n: Expr) => {
    if (n.kind === 'derivative') found = true;
  };
  walk(s.lhs, see);
  walk(s.rhs, see);
  return found;
}

/**
 * `L = R while C` for a differential equation: the highest derivative y^(n) is zero while C
 * does not hold. With E = L - R = a y^(n) + b (linear in y^(n), as every equation is), y^(n) = 0
 * is E = b, so the equation becomes `L = if C then R else R + (L - R) at y^(n) = 0`.
 */
function integralWhile(s: EquationStatement, r: ErrorReporter): EquationStatement {
  let top: { name: string; order: number; span: Span } | null = null;
  let clash: Span | null = null;
  const see = (n: Expr) => {
    if (n.kind !== 'derivative') return;
    if (!top || n.order > top.order) {
      top = { name: n.name, order: n.order, span: n.span };
      clash = null;
    } else if (n.order === top.order && n.name !== top.name) clash = n.span;
  };
  walk(s.lhs, see);
  walk(s.rhs, see);
  const highest = top as { name: string; order: number; span: Span } | null;
  if (!highest) throw new Error('integralWhile: no derivative');
  if (clash) {
    throw r.at(
      clash,
      `this rule with while has two highest derivatives (${highest.name}${"'".repeat(highest.order)} and this one)`,
      'Which integral stops is not clear: write one differential equation per rule.',
    );
  }
  const key = refKey(highest.name, highest.order);
  const atZero = (e: Expr) =>
    mapExpr(e, (n) =>
      n.kind === 'derivative' && refKey(n.name, n.order) === key
        ? { kind: 'number', value: 0, span: n.span }
        : undefined,
    );
  const sp = s.span;
  let onRight = false;
  walk(s.rhs, (n) => {
    if (n.kind === 'derivative' && refKey(n.name, n.order) === key) onRight = true;
  });
  // (with y^(n) on the left only, as written mostly, R - R cancels: what is left is L at y^(n) = 0)
  const inactive: Expr = simplify(
    onRight
      ? {
          kind: 'binary',
          op: '+',
          left: s.rhs,
          right: { kind: 'binary', op: '-', left: atZero(s.lhs), right: atZero(s.rhs), span: sp },
          span: sp,
        }
      : atZero(s.lhs),
  );
  return {
    kind: 'equation',
    lhs: s.lhs,
    rhs: { kind: 'if', condition: s.while!, then: s.rhs, otherwise: inactive, span: sp },
    span: sp,
  };
}

/**
 * The statements of a variable defined by rules: its held value, its definition, and per rule
 * an event when that rule stops that holds the rule's own value there. (The rule's expression,
 * not the variable: at the instant its condition already reads false, so the variable would
 * give the old held value; the expression, continuous there, gives the left limit.)
 */
function ruleVariable(n: string, rules: EquationStatement[]): Statement[] {
  const first = rules[0].span;
  const held = n + HELD;
  let value: Expr = { kind: 'name', name: held, span: first };
  for (let k = rules.length - 1; k >= 0; k--) {
    value = { kind: 'if', condition: rules[k].while!, then: rules[k].rhs, otherwise: value, span: rules[k].span };
  }
  const declaration: DiscreteStatement = {
    kind: 'discrete',
    span: first,
    declarations: [{ name: held, nameSpan: first, value: { kind: 'number', value: 0, span: first }, span: first }],
  };
  const definition: EquationStatement = { kind: 'equation', lhs: rules[0].lhs, rhs: value, span: first };
  // Rule k holds its value where it stops giving the variable's value: where its condition
  // stops holding while no earlier rule's does (`C2 and not C1` falls). Where rules stop at
  // one instant only the first of them, the one that gave the value, holds it (G = 3*x and
  // G = 5*x while x < 1 keep 3; with `C2 falls` both fired, and the last in file won).
  const governs = (k: number): Expr => {
    let c: Expr = rules[k].while!;
    for (let j = 0; j < k; j++) {
      const sp = rules[k].span;
      c = {
        kind: 'binary',
        op: 'and',
        left: c,
        right: { kind: 'unary', op: 'not', operand: rules[j].while!, span: sp },
        span: sp,
      };
    }
    return c;
  };
  const holds = rules.map((q, k): EventStatement => ({
    kind: 'event',
    name: rules.length === 1 ? `${n}.hold` : `${n}.hold${k + 1}`,
    nameSpan: q.span,
    span: q.span,
    trigger: { kind: 'when', expr: governs(k), direction: 'falls', span: q.span },
    actions: [{ kind: 'assign', target: { name: held, order: 0, span: q.span }, value: q.rhs, span: q.span }],
  }));
  return [declaration, definition, ...holds];
}
