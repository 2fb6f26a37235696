/**
 * Watched functions that share their zeros: a thermostat's `T - 20 rises` beside `T - 20
 * falls`, or `x - 1` beside `1 - x`. Where an event of one fires, the zero of the others is
 * located too, so event iteration may fire them at that instant (driver/firing.ts).
 */
import type { Expr } from '../expression/ast.js';
import { toText } from '../expression/expr.js';

/** For each function, the index of the first one with the same zeros (itself when none before). */
export function firstWithSameZeros(functions: readonly Expr[]): number[] {
  const first = new Map<string, number>();
  return functions.map((g, k) => {
    // (a - b and b - a: the operands' texts in a fixed order)
    const key = g.kind === 'binary' && g.op === '-' ? [toText(g.left), toText(g.right)].sort().join(' ~ ') : toText(g);
    const seen = first.get(key);
    if (seen !== undefined) return seen;
    first.set(key, k);
    return k;
  });
}
