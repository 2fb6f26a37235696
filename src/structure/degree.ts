/**
 * The degree in t of an expression of the transformed system along a motion between events:
 * step variables, discrete variables and parameters are constants there, the independent
 * variable has degree 1, and each state has the degree of its own closed form (given by the
 * caller, Infinity where it has none). A sum takes the larger degree, a product the sum of
 * its factors', a power a whole constant exponent times its base's; anything else that moves
 * (a quotient by a moving value, a function of one, a relation on one) is not a polynomial
 * in t: Infinity, and `obstacle` names the smallest such part for a message.
 */
import type { Expr } from '../expression/ast.js';
import { constantValue } from '../expression/expr.js';

export interface DegreeScope {
  /** the degree in t of a name: 0 for constants between events, 1 for the independent variable, a state's own */
  nameDegree(name: string): number;
  /** a named value's definition (algebraic variables are read through), or undefined */
  named(name: string): Expr | undefined;
}

/** Exponents above this are not expanded: the closed form's degree would be absurd. */
const MAX_EXPONENT = 64;

export class PolynomialDegree {
  private readonly memo = new Map<string, number>();

  constructor(private readonly scope: DegreeScope) {}

  /** The degree of e in t (Infinity: not a polynomial in t). */
  of(e: Expr): number {
    const d = (a: Expr) => this.of(a);
    switch (e.kind) {
      case 'number':
        return 0;
      case 'name':
        return this.nameDegree(e.name);
      case 'derivative':
        return Infinity;
      case 'unary':
        if (e.op === 'not') return d(e.operand) === 0 ? 0 : Infinity;
        return d(e.operand);
      case 'binary': {
        const a = d(e.left),
          b = d(e.right);
        switch (e.op) {
          case '+':
          case '-':
            return Math.max(a, b);
          case '*':
            return a + b;
          case '/':
            return b === 0 ? a : Infinity;
          case '^': {
            if (a === 0 && b === 0) return 0;
            const n = constantValue(e.right);
            return n !== null && Number.isInteger(n) && n >= 0 && n <= MAX_EXPONENT ? a * n : Infinity;
          }
          default:
            // relations and logic: constant between events only if what they compare is
            return a === 0 && b === 0 ? 0 : Infinity;
        }
      }
      case 'call':
        return e.args.every((x) => d(x) === 0) ? 0 : Infinity;
      case 'if':
        return d(e.condition) === 0 ? Math.max(d(e.then), d(e.otherwise)) : Infinity;
    }
  }

  /**
   * The smallest part of e that is not a polynomial in t (a function of a moving value, a
   * quotient by one, a relation on one), or null when e is one.
   */
  obstacle(e: Expr): Expr | null {
    if (this.of(e) < Infinity) return null;
    const inner = (xs: Expr[]): Expr | null => {
      for (const x of xs) {
        const o = this.obstacle(x);
        if (o) return o;
      }
      return null;
    };
    switch (e.kind) {
      case 'unary':
        return inner([e.operand]) ?? e;
      case 'binary':
        return inner([e.left, e.right]) ?? e;
      case 'call':
        return inner(e.args) ?? e;
      case 'if':
        return inner([e.condition, e.then, e.otherwise]) ?? e;
      case 'name': {
        const def = this.scope.named(e.name);
        return def ? (this.obstacle(def) ?? e) : e;
      }
      default:
        return e;
    }
  }

  private nameDegree(n: string): number {
    const def = this.scope.named(n);
    if (!def) return this.scope.nameDegree(n);
    let v = this.memo.get(n);
    if (v === undefined) {
      v = this.of(def);
      this.memo.set(n, v);
    }
    return v;
  }
}
