/**
 * Equations: which are definitions of algebraic variables and which are differential; the
 * order of each state (its highest derivative anywhere); algebraic variables in dependency
 * order (those defined with a delta are substituted where used); and each state's equation
 * solved for its highest derivative, which must enter linearly.
 *
 * The analysis is a chain of classes, each level using only those below it: Declarations
 * (`declarations.ts`) < EquationAnalyser (`equations.ts`) < ReferenceChecker
 * (`references.ts`) < ConditionAnalyser (`conditions.ts`) < Analyser (`analyse.ts`, which
 * runs them in order).
 */
import type { EquationStatement, Expr, Span } from '../expression/ast.js';
import {
  constantValue,
  differentiate,
  div,
  firstReference,
  mapExpr,
  neg,
  num,
  refKey,
  references,
  simplify,
  substitute,
  sub,
  walk,
} from '../expression/expr.js';
import type { AlgebraicInfo, StateInfo } from './analyse.js';
import { Declarations, kindPhrase } from './declarations.js';

/** Characters a model name can never contain: placeholders built from them cannot collide. */
export const PLACEHOLDER = '#delta';

export class EquationAnalyser extends Declarations {
  /**
   * `N = EXPR` is an algebraic variable when N is a new plain name whose derivative never
   * occurs; any other equation must contain a derivative and is a differential equation.
   */
  protected classifyEquations(): {
    algebraicStatements: EquationStatement[];
    differential: EquationStatement[];
    derivatives: Map<EquationStatement, Expr[]>;
  } {
    // (one walk of each equation: the derivatives it has, in the order of the text, for
    // stateOrders too)
    const differentiated = new Set<string>();
    const derivatives = new Map<EquationStatement, Expr[]>();
    for (const q of this.equations) {
      const found: Expr[] = [];
      const see = (n: Expr) => {
        if (n.kind === 'derivative') {
          differentiated.add(n.name);
          found.push(n);
        }
      };
      walk(q.lhs, see);
      walk(q.rhs, see);
      derivatives.set(q, found);
    }
    const algebraicStatements: EquationStatement[] = [];
    const differential: EquationStatement[] = [];
    for (const q of this.equations) {
      const isNewName = q.lhs.kind === 'name' && !this.kinds.has(q.lhs.name) && !differentiated.has(q.lhs.name);
      if (isNewName && q.lhs.kind === 'name') {
        if (q.lhs.name === 'pi')
          throw this.fail(q.lhs.span, "'pi' is the built-in constant and cannot be redefined", 'Choose another name.');
        this.declare(q.lhs.name, 'algebraic', q.lhs.span);
        algebraicStatements.push(q);
        continue;
      }
      if (derivatives.get(q)!.length === 0) {
        if (q.lhs.kind === 'name' && this.kinds.has(q.lhs.name)) {
          throw this.fail(
            q.lhs.span,
            `'${q.lhs.name}' is ${kindPhrase(this.kinds.get(q.lhs.name))} and cannot be defined by an equation`,
            'Use a new name for an algebraic variable, or set a state with an initial condition.',
          );
        }
        throw this.fail(
          q.span,
          'this equation has no derivative and does not define a new name',
          "Write a differential equation (y' = ...) or a definition N = EXPR with a new name N.",
        );
      }
      differential.push(q);
    }
    return { algebraicStatements, differential, derivatives };
  }

  protected stateOrders(
    differential: EquationStatement[],
    derivatives: Map<EquationStatement, Expr[]>,
  ): Map<string, number> {
    const orders = new Map<string, number>();
    for (const q of differential) {
      for (const n of derivatives.get(q)!) {
        if (n.kind !== 'derivative') continue;
        const kind = this.kinds.get(n.name);
        if (kind !== undefined && kind !== 'state') {
          throw this.fail(
            n.span,
            `'${n.name}' is ${kindPhrase(kind)}; only states have derivatives`,
            `Use a new name for the state, or remove the prime from ${n.name}.`,
          );
        }
        if (n.name === 'pi') throw this.fail(n.span, "'pi' is a constant and has no derivative", 'Remove the prime.');
        orders.set(n.name, Math.max(orders.get(n.name) ?? 0, n.order));
      }
    }
    return orders;
  }

  /** Orders algebraic variables by dependency; those defined with a delta go to `withDelta`. */
  protected orderAlgebraics(statements: EquationStatement[], withDelta: Map<string, Expr>): AlgebraicInfo[] {
    const defs = new Map<string, EquationStatement>();
    for (const q of statements) if (q.lhs.kind === 'name') defs.set(q.lhs.name, q);
    const ordered: AlgebraicInfo[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (n: string, path: string[]): void => {
      if (state.get(n) === 'done') return;
      const q = defs.get(n)!;
      if (state.get(n) === 'visiting') {
        const cycle = [...path.slice(path.indexOf(n)), n];
        throw this.fail(
          q.lhs.span,
          `algebraic variables depend on each other in a cycle: ${cycle.join(' -> ')}`,
          'Break the cycle: one of these variables must be a state (with a derivative) or defined without the others.',
        );
      }
      state.set(n, 'visiting');
      for (const dep of references(q.rhs)) if (defs.has(dep)) visit(dep, [...path, n]);
      state.set(n, 'done');
      // A definition with a delta (directly or through another) is substituted where used.
      const expanded = substitute(q.rhs, withDelta);
      let hasDelta = false;
      walk(expanded, (x) => {
        if (x.kind === 'call' && x.name === 'delta') hasDelta = true;
      });
      if (hasDelta) withDelta.set(n, expanded);
      else ordered.push({ name: n, expr: q.rhs, span: q.span });
    };
    for (const n of defs.keys()) visit(n, []);
    return ordered;
  }

  // -------------------------------------------------------------------------

  protected solveStates(
    differential: EquationStatement[],
    orders: Map<string, number>,
    deltaAlgebraics: Map<string, Expr>,
  ): StateInfo[] {
    const owner = new Map<string, EquationStatement>();
    const states: StateInfo[] = [];
    for (const q of differential) {
      const lhs = substitute(q.lhs, deltaAlgebraics);
      const rhs = substitute(q.rhs, deltaAlgebraics);
      const highest: string[] = [];
      for (const side of [lhs, rhs]) {
        walk(side, (n) => {
          if (n.kind === 'derivative' && n.order === orders.get(n.name) && !highest.includes(n.name))
            highest.push(n.name);
        });
      }
      const free = highest.filter((n) => !owner.has(n));
      if (highest.length === 0) {
        throw this.fail(
          q.span,
          'this equation contains no highest derivative of any state',
          "Each state needs one equation for its highest derivative, e.g. y'' = ... when y'' is the highest derivative of y used anywhere.",
        );
      }
      if (free.length === 0) {
        const n = highest[0];
        throw this.fail(
          q.span,
          `a second equation for ${refKey(n, orders.get(n)!)}`,
          `Each state has exactly one equation; the first for ${n} is on line ${owner.get(n)!.span.line}.`,
        );
      }
      if (highest.length > 1) {
        const list = highest.map((n) => refKey(n, orders.get(n)!)).join(' and ');
        throw this.fail(
          q.span,
          `this equation contains the highest derivatives ${list}`,
          'Write one equation per state, each solved-for derivative appearing in its own equation only.',
        );
      }
      const n = free[0];
      owner.set(n, q);
      states.push({
        name: n,
        order: orders.get(n)!,
        equation: q,
        solved: this.solveFor(q, lhs, rhs, n, orders.get(n)!),
        initial: [],
        initialSpans: [],
        initialAt: [],
      });
    }
    for (const [n, order] of orders) {
      if (!owner.has(n)) {
        let at: Span | null = null;
        for (const q of differential)
          walk(q.lhs, (x) => {
            if (at === null && x.kind === 'derivative' && x.name === n) at = x.span;
          });
        throw this.fail(at, `no equation for ${refKey(n, order)}`, `Add an equation that gives ${refKey(n, order)}.`);
      }
    }
    return states;
  }

  /**
   * Solves lhs = rhs for y^(n). The equation must be linear in it: E = lhs - rhs = a y^(n) + b
   * with a free of y^(n), so y^(n) = -b/a. Delta calls are hidden behind placeholders while
   * differentiating: they are coefficients here, their rules apply later.
   */
  private solveFor(q: EquationStatement, lhs: Expr, rhs: Expr, n: string, order: number): Expr {
    const key = refKey(n, order);
    const hidden: Expr[] = [];
    const hide = (e: Expr) =>
      mapExpr(e, (x) => {
        if (x.kind === 'call' && x.name === 'delta') {
          // bottom-up: an inner delta is already a placeholder here
          // (the first reference found, without a set of all of them: two per delta of a large model)
          const inner = firstReference(x.args[0], (k) => k.startsWith(PLACEHOLDER));
          if (inner !== undefined) {
            throw this.fail(
              hidden[Number(inner.slice(PLACEHOLDER.length))].span,
              'a delta inside the argument of a delta',
              'A delta argument must be an ordinary function; deltas enter equations linearly.',
            );
          }
          if (firstReference(x, (k) => k === key) !== undefined)
            throw this.fail(
              x.span,
              `the argument of this delta contains ${key}, the derivative its equation is solved for`,
              'A delta argument may depend on the independent variable, parameters and lower derivatives.',
            );
          hidden.push(x);
          return { kind: 'name', name: `${PLACEHOLDER}${hidden.length - 1}`, span: x.span };
        }
        return undefined;
      });
    const E = sub(hide(lhs), hide(rhs), q.span);
    const a = differentiate(E, key);
    if (firstReference(a, (k) => k === key) !== undefined) {
      throw this.fail(
        q.span,
        `the equation is not linear in ${key}`,
        `Write it so that ${key} appears linearly, e.g. ${key} = f(...).`,
      );
    }
    // (a delta in the coefficient of y^(n) would end up in a denominator once solved: say so
    // where it stands, not as "a delta in a denominator" the user did not write)
    const inCoefficient = firstReference(a, (k) => k.startsWith(PLACEHOLDER));
    if (inCoefficient !== undefined)
      throw this.fail(
        hidden[Number(inCoefficient.slice(PLACEHOLDER.length))].span,
        `a delta in the coefficient of ${key}, the derivative this equation is solved for, is not linear`,
        `Deltas must enter linearly, as terms g*delta(u) beside ${key}: ${key} = f + g*delta(u).`,
      );
    if (constantValue(simplify(a)) === 0) {
      throw this.fail(
        q.span,
        `${key} cancels out of this equation, so it does not determine ${key}`,
        `Write the equation so that ${key} remains after collecting terms, e.g. ${key} = f(...).`,
      );
    }
    const b = simplify(substitute(E, new Map([[key, num(0)]])));
    let solved = simplify(div(neg(b, q.span), simplify(a), q.span));
    // A lone y^(n) on the left reads best unchanged: y'' = f stays f.
    if (
      lhs.kind === 'derivative' &&
      refKey(lhs.name, lhs.order) === key &&
      firstReference(rhs, (k) => k === key) === undefined
    )
      solved = hide(rhs);
    return mapExpr(solved, (x) =>
      x.kind === 'name' && x.name.startsWith(PLACEHOLDER)
        ? hidden[Number(x.name.slice(PLACEHOLDER.length))]
        : undefined,
    );
  }
}
