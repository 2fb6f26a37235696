/**
 * A tree-walking evaluator for set-up values only: parameter defaults, range ends, the
 * times of `at` events, option values. The integration loop never comes here; it runs the
 * compiled functions of `transform/compile.ts`.
 */
import type { Expr } from './ast.js';
import { references } from './expr.js';

/** Looked up by a user's name: no prototype, so `constructor` or `toString` is not found. */
export const BUILTIN_IMPLEMENTATIONS: Readonly<Record<string, (...args: number[]) => number>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, (...args: number[]) => number>, {
    sin: Math.sin,
    cos: Math.cos,
    tan: Math.tan,
    asin: Math.asin,
    acos: Math.acos,
    atan: Math.atan,
    atan2: Math.atan2,
    sinh: Math.sinh,
    cosh: Math.cosh,
    tanh: Math.tanh,
    exp: Math.exp,
    log: Math.log,
    sqrt: Math.sqrt,
    abs: Math.abs,
    sign: Math.sign,
    min: Math.min,
    max: Math.max,
    step: (u: number) => (u >= 0 ? 1 : 0),
  }),
);

/** Thrown when an expression needs a value that `lookup` does not have; `key` names it. */
export class MissingValue extends Error {
  constructor(
    readonly key: string,
    readonly node: Expr,
  ) {
    super(`no value for ${key}`);
  }
}

/**
 * Evaluates e; `lookup(key)` gives the value of a name or derivative key (`y`, `y'`) or
 * undefined. `pi` is built in. Booleans are 1 and 0.
 */
export function evaluate(e: Expr, lookup: (key: string) => number | undefined): number {
  const ev = (x: Expr): number => evaluate(x, lookup);
  switch (e.kind) {
    case 'number':
      return e.value;
    case 'name': {
      const v = lookup(e.name);
      if (v !== undefined) return v;
      if (e.name === 'pi') return Math.PI;
      throw new MissingValue(e.name, e);
    }
    case 'derivative': {
      const key = e.name + "'".repeat(e.order);
      const v = lookup(key);
      if (v === undefined) throw new MissingValue(key, e);
      return v;
    }
    case 'unary': {
      const v = ev(e.operand);
      return e.op === '-' ? -v : e.op === '+' ? v : v === 0 ? 1 : 0;
    }
    case 'binary': {
      const a = ev(e.left);
      if (e.op === 'and') return a !== 0 && ev(e.right) !== 0 ? 1 : 0;
      if (e.op === 'or') return a !== 0 || ev(e.right) !== 0 ? 1 : 0;
      const b = ev(e.right);
      switch (e.op) {
        case '+':
          return a + b;
        case '-':
          return a - b;
        case '*':
          return a * b;
        case '/':
          return a / b;
        case '^':
          return a ** b;
        case '<':
          return a < b ? 1 : 0;
        case '<=':
          return a <= b ? 1 : 0;
        case '>':
          return a > b ? 1 : 0;
        case '>=':
          return a >= b ? 1 : 0;
        case '==':
          return a === b ? 1 : 0;
        case '!=':
          return a !== b ? 1 : 0;
      }
      break;
    }
    case 'if':
      return ev(e.condition) !== 0 ? ev(e.then) : ev(e.otherwise);
    case 'call': {
      if (e.name === 'delta') throw new MissingValue('delta', e);
      const fn = BUILTIN_IMPLEMENTATIONS[e.name];
      return fn(...e.args.map(ev));
    }
  }
  return NaN;
}

/** The value of an expression of numbers alone (1/0 is Infinity, 0/0 NaN), else null. */
export function numericValue(e: Expr): number | null {
  for (const n of references(e)) if (n !== 'pi') return null;
  try {
    return evaluate(e, () => undefined);
  } catch {
    return null;
  }
}
