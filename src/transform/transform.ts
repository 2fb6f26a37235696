/**
 * The symbolic stage: an analysed model becomes a first-order system in u-plus-step form.
 *
 * For a state y of order n, each level y^(i) (i < n) is a continuous state. A level that some
 * delta term makes jump is written y^(i) = u + S: u is the continuous state (its name `uK`
 * says it stands for `y^(i) - SK`), S a step variable changed only by event actions
 * `S := S + g(t-)`. Every delta term becomes such an action on a time event (its argument's
 * roots), on a named event (`delta(t - E)`), or on a state event (a state argument's
 * crossings), following the rules in `delta-rules.ts`.
 *
 * The transformer is a chain of classes, each level using only those below it:
 * Representation (`representation.ts`) < DeltaEvents (`delta-events.ts`) < EventBuilder
 * (`events.ts`) < Transformer (`transform.ts`, the steps in order).
 */
import type { Expr, Span } from '../expression/ast.js';
import type { AnalysedModel } from '../analysis/analyse.js';
import { add, firstReference, name, refKey, references, substitute, sub, toText, walk } from '../expression/expr.js';
import { classifyArgument, splitLinear } from './delta-rules.js';
import { originOf } from '../language/array-origins.js';
import { isHiddenName } from '../language/rules.js';
import { EventBuilder } from './events.js';
import { splitElement } from './representation.js';
import type {
  FirstOrderSystem,
  OutputColumn,
  SwitchingFunction,
  SystemEquation,
  SystemState,
  StepVariable,
} from './system.js';

export function transform(model: AnalysedModel): FirstOrderSystem {
  return new Transformer(model).run();
}
class Transformer extends EventBuilder {
  run(): FirstOrderSystem {
    const m = this.model;
    // 1. Delta terms of every equation, and which levels they make jump.
    const splits = m.states.map((s) => ({ state: s, ...splitLinear(s.solved, this.r) }));
    const jumpingLevels = new Set<string>();
    for (const { state, terms } of splits) {
      for (const term of terms) {
        this.argumentClass.set(term, classifyArgument(term, this.t, m.kinds, this.r));
        const lowest = state.order - 1 - term.order;
        if (lowest < 0) {
          throw this.r.at(
            term.call.span,
            `${term.source} in the equation of ${refKey(state.name, state.order)} would make ${state.name} itself a delta: the solution is not a function`,
            `A delta with ${term.order} prime(s) needs an equation for a derivative of order ${term.order + 1} or higher; integrate the equation by hand, or remove the prime.`,
          );
        }
        // Leibniz: delta^(m) makes y^(n-1-m) jump, and y^(n-m) ... y^(n-1) through g', g'' unless g is constant.
        const top = firstReference(term.weight, () => true) === undefined ? lowest : state.order - 1;
        for (let level = lowest; level <= top; level++) jumpingLevels.add(refKey(state.name, level));
      }
    }

    // 2. States and step variables.
    const states: SystemState[] = [];
    const stepVariables: StepVariable[] = [];
    for (const s of m.states) {
      for (let i = 0; i < s.order; i++) {
        const key = refKey(s.name, i);
        if (jumpingLevels.has(key)) {
          const element = splitElement(s.name);
          const { u, S } = element
            ? this.elementStepNames(element.base, element.index, i)
            : { u: this.freshName('u'), S: this.freshName('S') };
          states.push({
            name: u,
            standsFor: `${key} - ${S}`,
            variable: key,
            stepVariable: S,
            initial: s.initial[i],
            initialAt: s.initialAt[i],
            span: s.equation.span,
          });
          stepVariables.push({ name: S, variable: key, state: u });
          this.levelSlot.set(key, u);
          this.stepOfLevel.set(key, S);
          this.representation.set(key, add(name(u), name(S)));
        } else {
          states.push({
            name: key,
            standsFor: key,
            variable: key,
            stepVariable: null,
            initial: s.initial[i],
            initialAt: s.initialAt[i],
            span: s.equation.span,
          });
          this.levelSlot.set(key, key);
          this.representation.set(key, name(key));
        }
      }
    }
    for (const d of m.discretes) this.representation.set(d.name, name(d.name));
    for (const p of m.parameters) this.representation.set(p.name, name(p.name));
    for (const a of m.algebraics) this.representation.set(a.name, name(a.name));
    for (const s of m.situations) this.representation.set(s.name, name(s.name));

    // 3. Highest derivatives: their regular parts, in terms of lower levels (coupled systems resolved by substitution).
    const regular = new Map<string, Expr>();
    for (const sp of splits) regular.set(refKey(sp.state.name, sp.state.order), sp.regular);
    for (let pass = 0; pass <= m.states.length; pass++) {
      let changed = false;
      for (const [key, f] of regular) {
        // (only the highest derivatives f uses, other than its own: one lookup per name, not a map per equation)
        const uses = [...references(f)].filter((k) => k !== key && regular.has(k));
        if (uses.length === 0) continue;
        const next = substitute(f, new Map(uses.map((k) => [k, regular.get(k)!])));
        if (toText(next) !== toText(f)) {
          regular.set(key, next);
          changed = true;
        }
      }
      if (!changed) break;
      if (pass === m.states.length) {
        throw this.r.at(
          m.states[0].equation.span,
          'the equations are coupled through their highest derivatives in a cycle',
          'Solve the system for its highest derivatives by hand, one equation each.',
        );
      }
    }
    for (const [key, f] of regular) this.representation.set(key, this.toSystem(f, false));

    // 4. Equations of the first-order system.
    const equations: SystemEquation[] = [];
    for (const s of m.states) {
      for (let i = 0; i < s.order; i++) {
        const slot = this.levelSlot.get(refKey(s.name, i))!;
        const rhs = this.representation.get(refKey(s.name, i + 1))!;
        equations.push({ state: slot, rhs, span: s.equation.span });
        this.rhsOfSlot.set(slot, rhs);
      }
    }

    // 5. Algebraic variables and situations, in one dependency order.
    this.namedValues = this.orderNamedValues();
    for (const v of this.namedValues) this.namedByName.set(v.name, v.expr);

    // 6. Events: the model's own, then the delta terms attached to them or to new ones.
    const events = this.buildEvents(splits);
    for (const ev of events) if (ev.conditionRate) ev.conditionRate = this.totalDerivative(ev.conditionRate);
    const switching = this.collectSwitching(equations);
    const structural =
      (m.parameters[0] && originOf(m.parameters[0].span)?.expansion.structural) ??
      (m.states[0] && originOf(m.states[0].equation.span)?.expansion.structural);

    return {
      model: m.name,
      file: m.file,
      source: m.source,
      independent: this.t,
      range: { from: m.independent.from, to: m.independent.to },
      parameters: m.parameters,
      states,
      stepVariables,
      discretes: m.discretes.map((d) => ({ name: d.name, initial: d.value, span: d.span })),
      namedValues: this.namedValues,
      equations,
      events,
      switching,
      outputs: this.outputs(),
      representation: this.representation,
      boundaryConditions: m.boundaryConditions.map((c) => ({
        // (a condition written in a loop is one text for all its elements: its label is the
        // element's, written out, or shoot's residuals, a record by label, keep only one)
        label: originOf(c.span)?.loops.length
          ? `${refKey(c.target.name, c.target.order)}(${toText(c.at)}) = ${toText(c.value)}`
          : m.source.slice(c.span.start, c.span.end).trim(),
        variable: refKey(c.target.name, c.target.order),
        at: c.at,
        value: c.value,
        span: c.span,
      })),
      options: m.options,
      warnings: this.warnings,
      ...(structural ? { structural } : {}),
    };
  }

  private collectSwitching(equations: SystemEquation[]): SwitchingFunction[] {
    const found = new Map<string, SwitchingFunction>();
    // Each expression as the compiler will see it: named values stay names, scanned once each.
    const scanned = new Set<string>();
    const scan = (e: Expr): void =>
      walk(e, (n) => {
        if (n.kind === 'name' && this.namedByName.has(n.name) && !scanned.has(n.name)) {
          scanned.add(n.name);
          scan(this.namedByName.get(n.name)!);
        }
        let sw: SwitchingFunction | null = null;
        if (n.kind === 'binary' && (n.op === '<' || n.op === '<=' || n.op === '>' || n.op === '>=')) {
          const primitive = ({ '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' } as const)[n.op];
          const g = sub(n.left, n.right);
          sw = { g, rate: this.totalDerivative(g), primitive, source: toText(n) };
        } else if (n.kind === 'call' && (n.name === 'step' || n.name === 'sign')) {
          sw = { g: n.args[0], rate: this.totalDerivative(n.args[0]), primitive: n.name, source: toText(n) };
        }
        // A relation of constants between events (parameters, discrete and step variables)
        // never switches along a motion: its value changes only at events, where every path
        // restarts and reads it anew, so it is no switching function. It is compiled as the
        // comparison itself, with the run's values (a sweep's new parameters included), and
        // the analytic path, which treats those names as constants, keeps its closed forms.
        if (sw && this.moves(sw.g)) found.set(switchKey(sw), sw);
      });
    for (const q of equations) scan(q.rhs);
    return [...found.values()];
  }

  /** Whether e moves between events: it reads t or a state, directly or through named values. */
  private moves(e: Expr): boolean {
    let moving = this.movingNamed;
    if (!moving) {
      // once, in dependency order (the order of namedValues): no recursion down a long chain
      const set = new Set<string>();
      for (const v of this.namedValues)
        if (firstReference(v.expr, (k) => k === this.t || this.rhsOfSlot.has(k) || set.has(k)) !== undefined)
          set.add(v.name);
      moving = this.movingNamed = set;
    }
    return firstReference(e, (k) => k === this.t || this.rhsOfSlot.has(k) || moving.has(k)) !== undefined;
  }
  private movingNamed: Set<string> | undefined;

  private outputs(): OutputColumn[] {
    const m = this.model;
    const columns: OutputColumn[] = [];
    if (m.outputs) {
      for (const v of m.outputs) {
        const key = refKey(v.name, v.order);
        columns.push({ name: key, expr: this.representation.get(key) ?? name(key) });
      }
      return columns;
    }
    for (const s of m.states)
      for (let i = 0; i < s.order; i++)
        columns.push({ name: refKey(s.name, i), expr: this.representation.get(refKey(s.name, i))! });
    // (not the values rules with while hold: they show in their variables)
    for (const d of m.discretes) if (!isHiddenName(d.name)) columns.push({ name: d.name, expr: name(d.name) });
    for (const a of m.algebraics) columns.push({ name: a.name, expr: name(a.name) });
    return columns;
  }
}

/** The identity of a switching function: its primitive and its function, as text. */
export function switchKey(sw: Pick<SwitchingFunction, 'primitive' | 'g'>): string {
  return `${sw.primitive}|${toText(sw.g)}`;
}
export type { Span };
