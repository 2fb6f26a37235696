/**
 * The names an expression depends on through the parameters it uses: a range's end `L = N + 1`
 * moves with N, an initial value `y'(0) = p1` computed from an unknown. One walk for the
 * command line's batches (which ends and conditions a varied parameter moves) and shooting
 * (which unknowns a state's initial value is computed from).
 */
import type { Expr } from '../expression/ast.js';
import { references } from '../expression/expr.js';
import type { ParameterInfo } from './analyse.js';

/**
 * Every name `exprs` use, directly or through the definitions of the parameters they use,
 * followed for the parameters `follow` accepts (by default all of them).
 */
export function namesReached(
  parameters: readonly ParameterInfo[],
  exprs: readonly Expr[],
  follow: (q: ParameterInfo) => boolean = () => true,
): Set<string> {
  const byName = new Map(parameters.map((q) => [q.name, q]));
  const used = new Set<string>();
  const todo: string[] = [];
  for (const e of exprs) todo.push(...references(e));
  for (let n = todo.pop(); n !== undefined; n = todo.pop()) {
    if (used.has(n)) continue;
    used.add(n);
    const q = byName.get(n);
    if (q && follow(q)) todo.push(...references(q.value));
  }
  return used;
}
