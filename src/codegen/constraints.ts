/**
 * The constraint a watched function held at zero defines (option zeno = continue): the
 * gradient of its rate along the flow in the states it reads and the rate's explicit time
 * derivative, derived symbolically with the named values inlined and compiled on their own,
 * only when a run needs one.
 */
import type { Expr } from '../expression/ast.js';
import { differentiate, references, simplify, substitute } from '../expression/expr.js';
import type { FirstOrderSystem } from '../transform/system.js';
import type { ConstraintFunctions } from './compile.js';
import type { Program } from './program.js';
import { PRELUDE } from './emitter.js';

/** Compiles the constraint of watched function k (null without a known rate). */
export function constraintBuilder(
  system: FirstOrderSystem,
  stateNames: string[],
  rateExprs: (Expr | null)[],
  namedExpr: Map<string, Expr>,
  fn: Program['fn'],
): (k: number) => ConstraintFunctions | null {
  return (k: number): ConstraintFunctions | null => {
    const rate = rateExprs[k];
    if (!rate) return null;
    // the named values inlined, so that the derivatives see every state they hide
    let r = rate;
    for (let guard = 0; guard <= system.namedValues.length && [...references(r)].some((n) => namedExpr.has(n)); guard++)
      r = substitute(r, namedExpr);
    const reads = references(r);
    const idx = Int32Array.from(stateNames.flatMap((sn, i) => (reads.has(sn) ? [i] : [])));
    const grads = [...idx].map((i) => simplify(differentiate(r, stateNames[i])));
    const dt = simplify(differentiate(r, system.independent));
    const src = [
      ...PRELUDE,
      fn('grad(t, y, p, d, sw, out)', grads, 'locked', (e) =>
        grads.map((g, j) => `  out[${j}] = ${e.expr(g, 'locked')};\n`).join(''),
      ),
      fn('dt(t, y, p, d, sw)', [dt], 'locked', (e) => `  return ${e.expr(dt, 'locked')};\n`),
      'return { grad, dt };',
    ].join('\n\n');

    const made = new Function(src)() as Pick<ConstraintFunctions, 'grad' | 'dt'>;
    return { idx, grad: made.grad, dt: made.dt };
  };
}
