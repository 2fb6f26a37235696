/**
 * Conditions: each initial condition attached to its state level (those at the start of the
 * range), the others kept as boundary conditions; every state level below the highest needs
 * one initial condition, and a condition's value is a constant expression.
 *
 * The analysis is a chain of classes, each level using only those below it: Declarations
 * (`declarations.ts`) < EquationAnalyser (`equations.ts`) < ReferenceChecker
 * (`references.ts`) < ConditionAnalyser (`conditions.ts`) < Analyser (`analyse.ts`, which
 * runs them in order).
 */
import type { ConditionStatement, Expr } from '../expression/ast.js';
import { MissingValue, evaluate } from '../expression/evaluate.js';
import { refKey, walk } from '../expression/expr.js';
import type { StateInfo } from './analyse.js';
import { ReferenceChecker } from './references.js';
import { kindPhrase } from './declarations.js';

export class ConditionAnalyser extends ReferenceChecker {
  private rangeStart(): number {
    if (!this.independent.from) return 0;
    return this.constantValueOf(this.independent.from);
  }

  /** the parameters' values, computed once: every condition asks (a model may have thousands of both) */
  private parameterValues: Map<string, number> | null = null;

  private constantValueOf(e: Expr): number {
    let values = this.parameterValues;
    if (values === null) {
      const known = new Map<string, number>();
      for (const p of this.parameters) {
        try {
          known.set(
            p.name,
            evaluate(p.value, (k) => known.get(k)),
          );
        } catch {
          /* reported elsewhere */
        }
      }
      values = this.parameterValues = known;
    }
    const lookup = values;
    try {
      return evaluate(e, (k) => lookup.get(k));
    } catch (err) {
      if (err instanceof MissingValue)
        throw this.fail(err.node.span, `'${err.key}' has no value here`, 'Use numbers and parameters.');
      throw err;
    }
  }

  protected attachConditions(states: StateInfo[]): ConditionStatement[] {
    const start = this.rangeStart();
    const byName = new Map(states.map((s) => [s.name, s]));
    const boundary: ConditionStatement[] = [];
    for (const c of this.conditions) {
      const s = byName.get(c.target.name);
      const key = refKey(c.target.name, c.target.order);
      if (!s) {
        const kind = this.kinds.get(c.target.name);
        throw this.fail(
          c.target.span,
          kind
            ? `'${c.target.name}' is ${kindPhrase(kind)}, not a state: it takes no initial or boundary condition`
            : `condition for '${c.target.name}', which is not a state`,
          kind === 'parameter' || kind === 'unknown'
            ? 'Give its value in the declaration.'
            : `A state is a variable with a differential equation (${c.target.name}' = ...).`,
        );
      }
      if (c.target.order >= s.order) {
        throw this.fail(
          c.target.span,
          `${key} is the highest derivative of ${s.name}: it is given by its equation, not by a condition`,
          `Give conditions for ${Array.from({ length: s.order }, (_, i) => refKey(s.name, i)).join(', ')}.`,
        );
      }
      this.checkConditionValue(c);
      const at = this.constantValueOf(c.at);
      if (at === start) {
        if (s.initial[c.target.order]) {
          throw this.fail(
            c.span,
            `a second initial condition for ${key}`,
            `The first is on line ${s.initialSpans[c.target.order].line}; remove one.`,
          );
        }
        s.initial[c.target.order] = c.value;
        s.initialSpans[c.target.order] = c.span;
        s.initialAt[c.target.order] = c.at;
      } else {
        boundary.push(c);
      }
    }
    for (const s of states) {
      for (let i = 0; i < s.order; i++) {
        if (!s.initial[i]) {
          const key = refKey(s.name, i);
          throw this.fail(
            s.equation.span,
            `missing initial condition ${key}(${start})`,
            `Add a line ${key}(${start}) = VALUE (use an unknown if the value is to be found by shooting).`,
          );
        }
      }
    }
    return boundary;
  }

  private checkConditionValue(c: ConditionStatement): void {
    walk(c.value, (n) => {
      if (n.kind === 'name' && n.name !== 'pi') {
        const kind = this.kinds.get(n.name);
        if (kind !== 'parameter' && kind !== 'unknown') {
          throw this.fail(
            n.span,
            kind ? `a condition's value cannot use the ${kind} '${n.name}'` : `unknown name '${n.name}' in a condition`,
            'Use numbers, parameters and unknowns.',
          );
        }
      } else if (n.kind === 'derivative' || (n.kind === 'call' && n.name === 'delta')) {
        throw this.fail(
          n.span,
          "a condition's value must be a constant expression",
          'Use numbers, parameters and unknowns.',
        );
      }
    });
  }
}
