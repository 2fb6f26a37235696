/**
 * Where the transform gets exact roots of delta arguments: a solver plugged in by
 * `exact-roots.ts` (nerdamer-prime, 0.15 s to load), so that a program that never meets a
 * nonlinear delta argument in the independent variable never loads it. The library entry
 * plugs it in at once; the command line only for models that need it. Without a solver the
 * roots are found numerically alone (exact roots are only candidates anyway, checked there).
 */
import type { Expr } from '../expression/ast.js';

export type ExactRootSolver = (argument: Expr, independent: string) => Expr[];

let solver: ExactRootSolver | null = null;

export function useExactRoots(s: ExactRootSolver): void {
  solver = s;
}

export function exactRootCandidates(argument: Expr, independent: string): Expr[] {
  return solver ? solver(argument, independent) : [];
}

/**
 * Whether a model's delta arguments include one in the independent variable that is not
 * simply `t - E` or `E - t` (E free of t): only those need the algebra's exact roots.
 */
export function needsExactRoots(
  deltaArguments: readonly Expr[],
  independent: string,
  refs: (e: Expr) => Set<string>,
): boolean {
  return deltaArguments.some((u) => {
    if (!refs(u).has(independent)) return false;
    if (u.kind === 'binary' && u.op === '-') {
      const [a, b] = [u.left, u.right];
      const isT = (e: Expr) => e.kind === 'name' && e.name === independent;
      if ((isT(a) && !refs(b).has(independent)) || (isT(b) && !refs(a).has(independent))) return false;
    }
    return true;
  });
}
