/**
 * Semantic analysis: from the statements of a model to what they declare and mean.
 *
 * It decides which names are parameters, unknowns, discrete and algebraic variables,
 * situations, events and states; gives each state its order and its equation, solved for the
 * highest derivative (which must enter linearly); matches initial and boundary conditions to
 * state levels; orders algebraic variables by dependency; and checks every name an
 * expression uses. Every problem is a {@link ModelError} at the offending text.
 */
import type {
  ConditionStatement,
  EquationStatement,
  EventStatement,
  Expr,
  ModelAst,
  OptionStatement,
  Span,
  VariableRef,
} from '../expression/ast.js';
import { ErrorReporter, type ModelError } from '../expression/errors.js';
import { MissingValue, evaluate } from '../expression/evaluate.js';
import {
  constantValue,
  differentiate,
  div,
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
import { writeOutRules } from '../language/rules.js';

export type NameKind =
  'independent' | 'parameter' | 'unknown' | 'discrete' | 'situation' | 'event' | 'algebraic' | 'state' | 'constant';

export interface ParameterInfo {
  name: string;
  value: Expr;
  unknown: boolean;
  span: Span;
}
export interface DiscreteInfo {
  name: string;
  value: Expr;
  span: Span;
}
export interface SituationInfo {
  name: string;
  condition: Expr;
  span: Span;
}
export interface AlgebraicInfo {
  name: string;
  expr: Expr;
  span: Span;
}

export interface StateInfo {
  name: string;
  /** highest derivative in the model */
  order: number;
  equation: EquationStatement;
  /** y^(n) = solved; may still contain delta terms */
  solved: Expr;
  /** initial value of y^(i) for i = 0..order-1 */
  initial: Expr[];
  initialSpans: Span[];
}

export interface OptionValue {
  name: string;
  value: number | string;
  span: Span;
}

export interface AnalysedModel {
  file: string;
  source: string;
  name: string;
  independent: { name: string; from: Expr | null; to: Expr | null; span: Span | null };
  parameters: ParameterInfo[];
  discretes: DiscreteInfo[];
  situations: SituationInfo[];
  /** in dependency order; variables defined with a delta are not here (they were substituted) */
  algebraics: AlgebraicInfo[];
  states: StateInfo[];
  events: EventStatement[];
  boundaryConditions: ConditionStatement[];
  /** null: record everything */
  outputs: VariableRef[] | null;
  options: Map<string, OptionValue>;
  kinds: Map<string, NameKind>;
  reporter: ErrorReporter;
}

/** (a Map: a user's option name must never reach Object.prototype, as `constructor` would) */
const OPTION_WORDS: ReadonlyMap<string, readonly string[]> = new Map([
  ['method', ['euler', 'rk4', 'dopri5', 'dop853', 'rodas', 'radau5', 'auto', 'analytic']],
  ['locate', ['exact', 'before', 'after']],
  ['deltaRule', ['left', 'marcus']],
  ['zeno', ['stop', 'continue']],
]);
const OPTION_NUMBERS = new Set(['rtol', 'atol', 'step', 'maxEvents', 'maxSteps']);
/** options that count something: whole numbers */
const OPTION_COUNTS = new Set(['maxEvents', 'maxSteps']);

/** Characters a model name can never contain: placeholders built from them cannot collide. */
const PLACEHOLDER = '#delta';

export function analyse(ast: ModelAst): AnalysedModel {
  return new Analyser(writeOutRules(ast)).run();
}

class Analyser {
  private readonly r: ErrorReporter;
  private readonly kinds = new Map<string, NameKind>();
  private readonly declaredAt = new Map<string, Span>();
  private modelName = 'Model';
  private independent: AnalysedModel['independent'] = { name: 't', from: null, to: null, span: null };
  private readonly parameters: ParameterInfo[] = [];
  private readonly discretes: DiscreteInfo[] = [];
  private readonly situations: SituationInfo[] = [];
  private readonly events: EventStatement[] = [];
  private readonly options = new Map<string, OptionValue>();
  private outputs: VariableRef[] | null = null;
  private readonly equations: EquationStatement[] = [];
  private readonly conditions: ConditionStatement[] = [];

  constructor(private readonly ast: ModelAst) {
    this.r = new ErrorReporter(ast.file, ast.source);
  }

  private fail(span: Span | null, what: string, hint: string): ModelError {
    return this.r.at(span, what, hint);
  }

  run(): AnalysedModel {
    this.collectDeclarations();
    if (this.equations.length === 0) {
      const last = this.ast.statements.at(-1);
      throw this.fail(
        last?.span ?? null,
        'the model has no equations',
        "Write at least one differential equation, e.g. y' = -y, with its initial condition y(0) = 1.",
      );
    }
    const { algebraicStatements, differential } = this.classifyEquations();
    const orders = this.stateOrders(differential);
    for (const [n] of orders) this.kinds.set(n, 'state');
    const deltaAlgebraics = new Map<string, Expr>();
    const algebraics = this.orderAlgebraics(algebraicStatements, deltaAlgebraics);
    const states = this.solveStates(differential, orders, deltaAlgebraics);
    this.checkReferences(states, algebraics, orders, deltaAlgebraics);
    const boundaryConditions = this.attachConditions(states);
    return {
      file: this.ast.file,
      source: this.ast.source,
      name: this.modelName,
      independent: this.independent,
      parameters: this.parameters,
      discretes: this.discretes,
      situations: this.situations,
      algebraics,
      states,
      events: this.events,
      boundaryConditions,
      outputs: this.outputs,
      options: this.options,
      kinds: this.kinds,
      reporter: this.r,
    };
  }

  // -------------------------------------------------------------------------

  private declare(n: string, kind: NameKind, span: Span): void {
    const earlier = this.declaredAt.get(n);
    if (earlier || (n === this.independent.name && kind !== 'independent')) {
      const where = earlier ? ` (line ${earlier.line})` : ' (the independent variable)';
      throw this.fail(
        span,
        `'${n}' is already declared${where}`,
        'Give each parameter, variable, situation and event its own name.',
      );
    }
    if (n === 'pi')
      throw this.fail(span, "'pi' is the built-in constant and cannot be redeclared", 'Choose another name.');
    this.kinds.set(n, kind);
    this.declaredAt.set(n, span);
  }

  private collectDeclarations(): void {
    let sawIndependent = false;
    const parameterValues = new Map<string, number>();
    for (const s of this.ast.statements) {
      switch (s.kind) {
        case 'model':
          this.modelName = s.name;
          break;
        case 'independent':
          if (sawIndependent)
            throw this.fail(
              s.span,
              'a second independent statement',
              'A model has one independent variable; remove this line.',
            );
          sawIndependent = true;
          this.independent = { name: s.name, from: s.from, to: s.to, span: s.span };
          this.declare(s.name, 'independent', s.nameSpan);
          break;
        case 'parameter':
        case 'unknown':
          for (const d of s.declarations) {
            this.checkConstant(d.value, 'a parameter value');
            this.declare(d.name, s.kind, d.nameSpan);
            this.checkFinite(d.name, d.value, parameterValues);
            this.parameters.push({ name: d.name, value: d.value, unknown: s.kind === 'unknown', span: d.span });
          }
          break;
        case 'discrete':
          for (const d of s.declarations) {
            this.checkConstant(d.value, 'the initial value of a discrete variable');
            this.declare(d.name, 'discrete', d.nameSpan);
            this.discretes.push({ name: d.name, value: d.value, span: d.span });
          }
          break;
        case 'situation':
          this.declare(s.name, 'situation', s.nameSpan);
          this.situations.push({ name: s.name, condition: s.condition, span: s.span });
          break;
        case 'event':
          this.declare(s.name, 'event', s.nameSpan);
          this.events.push(s);
          break;
        case 'option':
          this.readOption(s);
          break;
        case 'output':
          this.outputs = [...(this.outputs ?? []), ...s.variables];
          break;
        case 'equation':
          this.equations.push(s);
          break;
        case 'condition':
          this.conditions.push(s);
          break;
      }
    }
    if (!sawIndependent) this.kinds.set('t', 'independent');
  }

  /**
   * A parameter's value (after checkConstant) must be a finite number: 1/0, 1e300*1e300 or
   * sqrt(-1) is reported here, at the value, and not later as a right-hand side that is not
   * finite at the first step. Records the value in `values` for the parameters after it.
   */
  private checkFinite(name: string, value: Expr, values: Map<string, number>): void {
    const v = evaluate(value, (k) => values.get(k));
    if (!Number.isFinite(v)) {
      throw this.fail(
        value.span,
        `the value of parameter '${name}' is ${v}`,
        'Give a finite value: check for a division by zero, an overflow or the root or logarithm of a negative number.',
      );
    }
    values.set(name, v);
  }

  /** Parameter values may use earlier parameters and pi only. */
  private checkConstant(e: Expr, what: string): void {
    walk(e, (node) => {
      if (node.kind === 'derivative')
        throw this.fail(node.span, `${what} cannot use a derivative`, 'Use numbers and parameters declared earlier.');
      if (node.kind === 'call' && node.name === 'delta')
        throw this.fail(node.span, `${what} cannot contain a delta`, 'Deltas belong in differential equations.');
      if (node.kind === 'name' && node.name !== 'pi') {
        const kind = this.kinds.get(node.name);
        if (kind !== 'parameter' && kind !== 'unknown') {
          throw this.fail(
            node.span,
            kind ? `${what} cannot use the ${kind} '${node.name}'` : `unknown name '${node.name}' in ${what}`,
            'Use numbers and parameters declared earlier (on this line or above).',
          );
        }
      }
    });
  }

  private readOption(s: OptionStatement): void {
    const words = OPTION_WORDS.get(s.name);
    if (words) {
      const v = s.value.kind === 'name' ? s.value.name : null;
      if (v === null || !words.includes(v)) {
        throw this.fail(
          s.value.span,
          `option ${s.name} must be one of ${words.join(', ')}`,
          `Write e.g. option ${s.name} = ${words[0]}.`,
        );
      }
      this.options.set(s.name, { name: s.name, value: v, span: s.span });
      return;
    }
    if (!OPTION_NUMBERS.has(s.name)) {
      const all = [...OPTION_WORDS.keys(), ...OPTION_NUMBERS].join(', ');
      throw this.fail(s.nameSpan, `unknown option '${s.name}'`, `The options are ${all}.`);
    }
    let v: number;
    try {
      v = evaluate(s.value, () => undefined);
    } catch {
      throw this.fail(s.value.span, `option ${s.name} needs a number`, `Write e.g. option ${s.name} = 1e-8.`);
    }
    if (!(v > 0) || !Number.isFinite(v) || (OPTION_COUNTS.has(s.name) && !Number.isInteger(v))) {
      throw this.fail(
        s.value.span,
        `option ${s.name} must be a positive ${OPTION_COUNTS.has(s.name) ? 'whole number' : 'number'}, got ${v}`,
        'Give a positive value.',
      );
    }
    this.options.set(s.name, { name: s.name, value: v, span: s.span });
  }

  // -------------------------------------------------------------------------

  /**
   * `N = EXPR` is an algebraic variable when N is a new plain name whose derivative never
   * occurs; any other equation must contain a derivative and is a differential equation.
   */
  private classifyEquations(): { algebraicStatements: EquationStatement[]; differential: EquationStatement[] } {
    const differentiated = new Set<string>();
    for (const q of this.equations) {
      for (const side of [q.lhs, q.rhs])
        walk(side, (n) => {
          if (n.kind === 'derivative') differentiated.add(n.name);
        });
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
      let hasDerivative = false;
      for (const side of [q.lhs, q.rhs])
        walk(side, (n) => {
          if (n.kind === 'derivative') hasDerivative = true;
        });
      if (!hasDerivative) {
        if (q.lhs.kind === 'name' && this.kinds.has(q.lhs.name)) {
          throw this.fail(
            q.lhs.span,
            `'${q.lhs.name}' is a ${this.kinds.get(q.lhs.name)} and cannot be defined by an equation`,
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
    return { algebraicStatements, differential };
  }

  private stateOrders(differential: EquationStatement[]): Map<string, number> {
    const orders = new Map<string, number>();
    for (const q of differential) {
      for (const side of [q.lhs, q.rhs]) {
        walk(side, (n) => {
          if (n.kind !== 'derivative') return;
          const kind = this.kinds.get(n.name);
          if (kind !== undefined && kind !== 'state') {
            throw this.fail(
              n.span,
              `'${n.name}' is a ${kind}; only states have derivatives`,
              `Use a new name for the state, or remove the prime from ${n.name}.`,
            );
          }
          if (n.name === 'pi') throw this.fail(n.span, "'pi' is a constant and has no derivative", 'Remove the prime.');
          orders.set(n.name, Math.max(orders.get(n.name) ?? 0, n.order));
        });
      }
    }
    return orders;
  }

  /** Orders algebraic variables by dependency; those defined with a delta go to `withDelta`. */
  private orderAlgebraics(statements: EquationStatement[], withDelta: Map<string, Expr>): AlgebraicInfo[] {
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

  private solveStates(
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
          if ([...references(x.args[0])].some((k) => k.startsWith(PLACEHOLDER))) {
            throw this.fail(
              hidden[
                Number([...references(x.args[0])].find((k) => k.startsWith(PLACEHOLDER))!.slice(PLACEHOLDER.length))
              ].span,
              'a delta inside the argument of a delta',
              'A delta argument must be an ordinary function; deltas enter equations linearly.',
            );
          }
          if (references(x).has(key))
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
    if (references(a).has(key)) {
      throw this.fail(
        q.span,
        `the equation is not linear in ${key}`,
        `Write it so that ${key} appears linearly, e.g. ${key} = f(...).`,
      );
    }
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
    if (lhs.kind === 'derivative' && refKey(lhs.name, lhs.order) === key && !references(rhs).has(key))
      solved = hide(rhs);
    return mapExpr(solved, (x) =>
      x.kind === 'name' && x.name.startsWith(PLACEHOLDER)
        ? hidden[Number(x.name.slice(PLACEHOLDER.length))]
        : undefined,
    );
  }

  // -------------------------------------------------------------------------

  private checkReferences(
    states: StateInfo[],
    algebraics: AlgebraicInfo[],
    orders: Map<string, number>,
    deltaAlgebraics: Map<string, Expr>,
  ): void {
    const check = (e: Expr, context: string, allowDelta: boolean, allowEvent = false) => {
      walk(e, (n) => {
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
                ? `'${n.name}' is a ${kind}; only states have derivatives`
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
      });
    };
    for (const s of states) this.checkDeltaArguments(s.solved, check);
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
  ): void {
    const visit = (x: Expr): void => {
      if (x.kind === 'call' && x.name === 'delta') {
        check(x.args[0], 'a delta argument', false, true);
        return;
      }
      if (x.kind === 'name' || x.kind === 'derivative' || x.kind === 'number') {
        check(x, 'an equation', true);
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

  // -------------------------------------------------------------------------

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

  private attachConditions(states: StateInfo[]): ConditionStatement[] {
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
            ? `'${c.target.name}' is a ${kind}, not a state: it takes no initial or boundary condition`
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
