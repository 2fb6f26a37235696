/**
 * The Taylor coefficients in t of a polynomial segment, as expressions: e, Le, L²e/2, ...,
 * where L is the Lie derivative along the flow (∂/∂t + Σ f_y ∂/∂y). The closed forms of the
 * analytic path are written from them (codegen/closed-form.ts).
 *
 * Symbolic derivatives of products grow with each order by the number of moving factors: the
 * event function x1*x2*...*x10 with every x_i' = 1 is of degree 10, and its coefficients
 * took more than a minute and 2 GB to write out (x1*...*x16: out of memory). A coefficient
 * that outgrows LIE_BUDGET nodes stops the series: that part is integrated numerically, and
 * `transform` says why.
 */
import type { Expr } from '../expression/ast.js';
import { add, differentiate, div, mul, num, references, simplify } from '../expression/expr.js';
import type { FirstOrderSystem } from '../transform/system.js';
import { inlineNamed } from './linear.js';

/** the most nodes one Taylor coefficient may have (a product of 16 moving factors has millions) */
export const LIE_BUDGET = 20000;

export class LieSeries {
  private readonly equations = new Map<string, Expr>();
  private readonly rhs = new Map<string, Expr>();
  private readonly named: Map<string, Expr>;

  constructor(private readonly sys: FirstOrderSystem) {
    this.named = new Map(sys.namedValues.map((v) => [v.name, v.expr]));
    for (const q of sys.equations) this.equations.set(q.state, q.rhs);
  }

  /** e with every algebraic variable replaced by its definition (the derivatives must see the states they hide). */
  inline(e: Expr): Expr {
    // (as deep as there are named values: analysis rejects cycles, so all of them go in)
    return inlineNamed(e, this.named, this.named.size) ?? e;
  }

  /** the coefficients e, Le, L²e/2, ..., L^D e/D!, or null when one outgrows LIE_BUDGET nodes */
  taylor(e: Expr, degree: number): Expr[] | null {
    const out: Expr[] = [e];
    let l = e;
    let factorial = 1;
    for (let k = 1; k <= degree; k++) {
      l = this.lie(l);
      if (tooLarge(l)) return null;
      factorial *= k;
      out.push(factorial === 1 ? l : div(l, num(factorial)));
    }
    return out;
  }

  /** L e = ∂e/∂t + Σ ∂e/∂y f_y over the states e reads */
  private lie(e: Expr): Expr {
    let out = differentiate(e, this.sys.independent);
    for (const k of references(e)) {
      const f = this.rhsOf(k);
      if (f) out = add(out, mul(differentiate(e, k), f));
    }
    return simplify(out);
  }

  /** state k's right-hand side with the named values inlined (on first use: a row of spheres reads few per event) */
  private rhsOf(k: string): Expr | undefined {
    let f = this.rhs.get(k);
    if (f === undefined) {
      const q = this.equations.get(k);
      if (q === undefined) return undefined;
      f = this.inline(q);
      this.rhs.set(k, f);
    }
    return f;
  }
}

/** whether e has more than LIE_BUDGET nodes (counted as a tree, shared parts each time; stops at the budget) */
function tooLarge(e: Expr): boolean {
  let count = 0;
  const stack: Expr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (++count > LIE_BUDGET) return true;
    switch (x.kind) {
      case 'binary':
        stack.push(x.left, x.right);
        break;
      case 'unary':
        stack.push(x.operand);
        break;
      case 'call':
        for (const a of x.args) stack.push(a);
        break;
      case 'if':
        stack.push(x.condition, x.then, x.otherwise);
        break;
      default:
        break;
    }
  }
  return false;
}
