/**
 * Exact roots of a delta argument u(t), where the algebra can give them (nerdamer-prime's
 * `solve`). They are *candidates*: nerdamer is weak on transcendental equations (for
 * sin(pi*t) it returns a scatter of integers, some missing), so the numeric stage checks each
 * one (u(r) = 0 to rounding) and completes the list by bracketing over the whole range
 * (`time-roots.ts`). Where a candidate and a bracketed root agree, the candidate's
 * exact value wins.
 *
 * Model names never reach nerdamer: they are renamed to v0, v1, ... (nerdamer has its own
 * meaning for `e`, for instance) and renamed back in the result.
 */
import nerdamer from 'nerdamer-prime/all';
import type { Expr } from '../expression/ast.js';
import { mapExpr, references, toText, walk } from '../expression/expr.js';
import { parseModel, splitExpressionList } from '../language/parser.js';
import { useExactRoots } from './algebra.js';

/** Functions whose inverse the algebra may know; anything else is left to the numeric scan. */
const SOLVABLE = new Set(['sin', 'cos', 'tan', 'exp', 'log', 'sqrt']);

/**
 * The highest power the algebra is asked to solve: its time grows steeply with the degree
 * (t^8 - 1 in 0.2 s, t^12 - 1 in 25 s, t^20 - 1 in 100 s, a transform that looked hung);
 * the numeric scan finds the roots of higher powers.
 */
const MAX_POWER = 8;

// importing this module plugs the solver in (see algebra.ts)
useExactRoots(nerdamerRoots);

export function nerdamerRoots(u: Expr, independent: string): Expr[] {
  let solvable = true;
  walk(u, (n) => {
    if (n.kind === 'if' || (n.kind === 'call' && !SOLVABLE.has(n.name)) || n.kind === 'derivative') solvable = false;
    // (a power higher than MAX_POWER, or one not written as a number)
    if (n.kind === 'binary' && n.op === '^' && !(n.right.kind === 'number' && Math.abs(n.right.value) <= MAX_POWER))
      solvable = false;
  });
  if (!solvable) return [];
  const names = [...references(u)];
  const alias = new Map<string, string>();
  names.forEach((n, i) => alias.set(n, n === independent ? 'x' : n === 'pi' ? 'pi' : `v${i}`));
  const back = new Map([...alias].map(([k, v]) => [v, k]));
  const renamed = mapExpr(u, (n) => (n.kind === 'name' ? { ...n, name: alias.get(n.name) ?? n.name } : undefined));
  let solutions: string[];
  try {
    const result = nerdamer.solve(toText(renamed), 'x').toString();
    solutions = splitList(result);
  } catch {
    return [];
  }
  const out: Expr[] = [];
  for (const text of solutions) {
    try {
      const ast = parseModel(`r = ${text}`, '<algebra>');
      const st = ast.statements[0];
      if (!st || st.kind !== 'equation') continue;
      let usable = true;
      const expr = mapExpr(st.rhs, (n) => {
        if (n.kind !== 'name') return undefined;
        const original = back.get(n.name);
        if (original === undefined || original === independent) {
          usable = false;
          return undefined;
        }
        return { ...n, name: original };
      });
      if (usable) out.push(expr);
    } catch {
      // a form our language cannot express (complex roots, nerdamer-only functions): skip it
    }
  }
  return out;
}

/** "[1/2,-sqrt(a)]" -> ["1/2", "-sqrt(a)"], splitting on top-level commas only. */
function splitList(text: string): string[] {
  return splitExpressionList(text.trim().replace(/^\[/, '').replace(/\]$/, '')).filter((p) => p.length > 0);
}
