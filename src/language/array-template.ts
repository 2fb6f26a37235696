/**
 * Reading a template without writing it out: whether it uses arrays at all, which names are
 * arrays, and walks over its expressions and the names in them.
 */
import type { Expr, Statement } from '../expression/ast.js';

export function usesArrays(statements: readonly Statement[]): boolean {
  let found = false;
  const exprHas = (e: Expr): boolean => {
    switch (e.kind) {
      case 'name':
      case 'derivative':
        return e.indices !== undefined;
      case 'unary':
        return exprHas(e.operand);
      case 'binary':
        return exprHas(e.left) || exprHas(e.right);
      case 'call':
        return e.over !== undefined || e.args.some(exprHas);
      case 'if':
        return exprHas(e.condition) || exprHas(e.then) || exprHas(e.otherwise);
      default:
        return false;
    }
  };
  for (const s of statements) {
    forEachExpr(s, (e) => {
      if (!found && exprHas(e)) found = true;
    });
    if (s.kind === 'for' || (s.kind === 'event' && s.indices) || (s.kind === 'situation' && s.indices)) found = true;
    if (
      (s.kind === 'parameter' || s.kind === 'unknown' || s.kind === 'discrete') &&
      s.declarations.some((d) => d.array)
    )
      found = true;
    if ((s.kind === 'output' && s.variables.some((v) => v.indices)) || (s.kind === 'condition' && s.target.indices))
      found = true;
    if (s.kind === 'event') for (const a of s.actions ?? []) if (a.kind === 'assign' && a.target.indices) found = true;
    if (found) return true;
  }
  return false;
}

/** Calls `f` on every top-level expression of a statement (not inside nested `for` bodies). */
function forEachExpr(s: Statement, f: (e: Expr) => void): void {
  switch (s.kind) {
    case 'independent':
      if (s.from) f(s.from);
      if (s.to) f(s.to);
      break;
    case 'parameter':
    case 'unknown':
    case 'discrete':
      for (const d of s.declarations) f(d.value);
      break;
    case 'situation':
      f(s.condition);
      break;
    case 'option':
      f(s.value);
      break;
    case 'event': {
      const t = s.trigger;
      if (t.kind === 'when') f(t.expr);
      else if (t.kind === 'at') t.times.forEach(f);
      else {
        f(t.period);
        if (t.from) f(t.from);
      }
      for (const a of s.actions ?? []) if (a.kind === 'assign') f(a.value);
      break;
    }
    case 'equation':
      f(s.lhs);
      f(s.rhs);
      if (s.while) f(s.while);
      break;
    case 'condition':
      f(s.at);
      f(s.value);
      break;
    default:
      break;
  }
}

export function walkNames(e: Expr, f: (n: string) => void): void {
  switch (e.kind) {
    case 'name':
      f(e.name);
      for (const x of e.indices ?? []) walkNames(x, f);
      break;
    case 'derivative':
      for (const x of e.indices ?? []) walkNames(x, f);
      break;
    case 'unary':
      walkNames(e.operand, f);
      break;
    case 'binary':
      walkNames(e.left, f);
      walkNames(e.right, f);
      break;
    case 'call':
      e.args.forEach((a) => walkNames(a, f));
      if (e.over) {
        walkNames(e.over.from, f);
        walkNames(e.over.to, f);
      }
      break;
    case 'if':
      walkNames(e.condition, f);
      walkNames(e.then, f);
      walkNames(e.otherwise, f);
      break;
    default:
      break;
  }
}

/** Every name used with an index or declared with a range, anywhere in the template. */
export function collectArrayNames(statements: readonly Statement[], into: Set<string>): void {
  const visit = (e: Expr): void => {
    switch (e.kind) {
      case 'name':
      case 'derivative':
        if (e.indices) {
          into.add(e.name);
          e.indices.forEach(visit);
        }
        break;
      case 'unary':
        visit(e.operand);
        break;
      case 'binary':
        visit(e.left);
        visit(e.right);
        break;
      case 'call':
        e.args.forEach(visit);
        break;
      case 'if':
        visit(e.condition);
        visit(e.then);
        visit(e.otherwise);
        break;
      default:
        break;
    }
  };
  for (const s of statements) {
    if (s.kind === 'for') {
      collectArrayNames(s.body, into);
      continue;
    }
    forEachExpr(s, visit);
    if ((s.kind === 'event' || s.kind === 'situation') && s.indices) into.add(s.name);
    if (s.kind === 'parameter' || s.kind === 'unknown' || s.kind === 'discrete')
      for (const d of s.declarations) if (d.array) into.add(d.name);
    if (s.kind === 'output') for (const v of s.variables) if (v.indices) into.add(v.name);
    if (s.kind === 'condition' && s.target.indices) into.add(s.target.name);
    if (s.kind === 'event')
      for (const a of s.actions ?? []) if (a.kind === 'assign' && a.target.indices) into.add(a.target.name);
  }
}
