/**
 * The names every expression uses: each declared, of a kind that may stand there (an event
 * only as delta(t - E), a variable defined with a delta only in differential equations,
 * derivatives only of states and up to their order, constants where constants belong), and
 * what actions assign to and outputs record.
 *
 * The analysis is a chain of classes, each level using only those below it: Declarations
 * (`declarations.ts`) < EquationAnalyser (`equations.ts`) < ReferenceChecker
 * (`references.ts`) < ConditionAnalyser (`conditions.ts`) < Analyser (`analyse.ts`, which
 * runs them in order).
 */
import type { Expr, VariableRef } from '../expression/ast.js';
import { refKey, walk } from '../expression/expr.js';
import type { AlgebraicInfo, StateInfo } from './analyse.js';
import { EquationAnalyser, PLACEHOLDER } from './equations.js';
import { kindPhrase } from './declarations.js';

export class ReferenceChecker extends EquationAnalyser {
  protected checkReferences(
    states: StateInfo[],
    algebraics: AlgebraicInfo[],
    orders: Map<string, number>,
    deltaAlgebraics: Map<string, Expr>,
  ): void {
    const checkNode = (n: Expr, context: string, allowDelta: boolean, allowEvent: boolean) => {
      if (n.kind === 'name') {
        if (n.name === 'pi' || n.name.startsWith(PLACEHOLDER)) return;
        if (deltaAlgebraics.has(n.name) && !allowDelta) {
          throw this.fail(
            n.span,
            `'${n.name}' is defined with a delta and can only be used in differential equations`,
            'Use it in an equation, or define the regular part under another name.',
          );
        }
        const kind = this.kinds.get(n.name);
        if (kind === undefined) {
          throw this.fail(
            n.span,
            `unknown name '${n.name}' in ${context}`,
            `Declare it (parameter ${n.name} = VALUE), define it (${n.name} = EXPR), or check the spelling.`,
          );
        }
        if (kind === 'event' && !allowEvent) {
          throw this.fail(
            n.span,
            `'${n.name}' is an event; it can only appear as delta(t - ${n.name})`,
            'Use the event inside a delta, or refer to a variable instead.',
          );
        }
      } else if (n.kind === 'derivative') {
        const order = orders.get(n.name);
        if (order === undefined) {
          const kind = this.kinds.get(n.name);
          throw this.fail(
            n.span,
            kind
              ? `'${n.name}' is ${kindPhrase(kind)}; only states have derivatives`
              : `derivative of '${n.name}', which is not a state`,
            kind
              ? `Remove the prime from ${n.name}.`
              : `A state is a variable with a differential equation (${n.name}' = ...); add one or check the spelling.`,
          );
        }
        if (n.order > order)
          throw this.fail(
            n.span,
            `${refKey(n.name, n.order)} is beyond the highest derivative ${refKey(n.name, order)} of ${n.name}`,
            `Use derivatives up to ${refKey(n.name, order)}.`,
          );
      } else if (n.kind === 'call' && n.name === 'delta' && !allowDelta) {
        throw this.fail(
          n.span,
          `a delta cannot appear in ${context}`,
          'Deltas belong in differential equations; use an event with an action for a reset.',
        );
      }
    };
    const check = (e: Expr, context: string, allowDelta: boolean, allowEvent = false) =>
      walk(e, (n) => checkNode(n, context, allowDelta, allowEvent));
    for (const s of states) this.checkDeltaArguments(s.solved, check, checkNode);
    for (const a of algebraics) check(a.expr, `the definition of ${a.name}`, false);
    for (const s of this.situations) check(s.condition, `situation ${s.name}`, false);
    for (const ev of this.events) {
      const t = ev.trigger;
      if (t.kind === 'when') check(t.expr, `the condition of event ${ev.name}`, false);
      else if (t.kind === 'at') for (const x of t.times) this.checkConstant(x, `the time of event ${ev.name}`);
      else {
        this.checkConstant(t.period, `the period of event ${ev.name}`);
        if (t.from) this.checkConstant(t.from, `the start of event ${ev.name}`);
      }
      for (const act of ev.actions ?? []) {
        if (act.kind !== 'assign') continue;
        this.checkTarget(act.target, orders);
        check(act.value, `an action of event ${ev.name}`, false);
      }
    }
    for (const v of this.outputs ?? []) {
      const kind = this.kinds.get(v.name);
      // (an impulse has no value at an instant: the compiled system has no slot for it)
      if (v.order === 0 && deltaAlgebraics.has(v.name))
        throw this.fail(
          v.span,
          `cannot output ${v.name}: it is defined with a delta, an impulse that has no value at an instant`,
          `Output what the impulse changes (the states of the equations that use ${v.name}), or define its regular part under another name and output that.`,
        );
      if (v.order > 0 ? (orders.get(v.name) ?? -1) < v.order : kind === undefined || kind === 'event') {
        throw this.fail(
          v.span,
          `cannot output ${refKey(v.name, v.order)}: ${kind === 'event' ? 'it is an event' : 'no such variable'}`,
          'Output states, their derivatives, algebraic and discrete variables, parameters.',
        );
      }
    }
    for (const n of [this.independent.from, this.independent.to]) if (n) this.checkConstant(n, 'the range');
  }

  /** The solved equations: deltas allowed, and an event name only as `delta(t - E)`. */
  private checkDeltaArguments(
    e: Expr,
    check: (e: Expr, context: string, allowDelta: boolean, allowEvent?: boolean) => void,
    checkNode: (n: Expr, context: string, allowDelta: boolean, allowEvent: boolean) => void,
  ): void {
    const visit = (x: Expr): void => {
      if (x.kind === 'call' && x.name === 'delta') {
        check(x.args[0], 'a delta argument', false, true);
        return;
      }
      // (a leaf is checked as it is: a walk of its own per leaf was most of this check)
      if (x.kind === 'name' || x.kind === 'derivative' || x.kind === 'number') {
        checkNode(x, 'an equation', true, false);
        return;
      }
      switch (x.kind) {
        case 'unary':
          visit(x.operand);
          break;
        case 'binary':
          visit(x.left);
          visit(x.right);
          break;
        case 'call':
          x.args.forEach(visit);
          break;
        case 'if':
          visit(x.condition);
          visit(x.then);
          visit(x.otherwise);
          break;
      }
    };
    visit(e);
  }

  private checkTarget(target: VariableRef, orders: Map<string, number>): void {
    const kind = this.kinds.get(target.name);
    if (kind === 'state') {
      const order = orders.get(target.name)!;
      if (target.order >= order) {
        throw this.fail(
          target.span,
          `cannot reset ${refKey(target.name, target.order)}: it is the highest derivative of ${target.name}, given by its equation`,
          `Reset a state level below it (${order === 1 ? target.name : `${target.name} ... ${refKey(target.name, order - 1)}`}).`,
        );
      }
      return;
    }
    if (kind === 'discrete' && target.order === 0) return;
    throw this.fail(
      target.span,
      kind
        ? `cannot assign to the ${kind} '${target.name}'`
        : `cannot assign to '${refKey(target.name, target.order)}': no such state or discrete variable`,
      "Actions assign to states (y := ..., y' := ...) and discrete variables.",
    );
  }
}
