/**
 * The symbolic stage: an analysed model becomes a first-order system in u-plus-step form.
 *
 * For a state y of order n, each level y^(i) (i < n) is a continuous state. A level that some
 * delta term makes jump is written y^(i) = u + S: u is the continuous state (its name `uK`
 * says it stands for `y^(i) - SK`), S a step variable changed only by event actions
 * `S := S + g(t-)`. Every delta term becomes such an action on a time event (its argument's
 * roots), on a named event (`delta(t - E)`), or on a state event (a state argument's
 * crossings), following the rules in `delta-rules.ts`.
 */
import type { EquationStatement, EventStatement, Expr, Span } from '../expression/ast.js';
import type { AnalysedModel, StateInfo } from '../analysis/analyse.js';
import {
  add,
  call,
  constantValue,
  differentiate,
  differentiateAlong,
  div,
  mapExpr,
  mul,
  name,
  neg,
  num,
  refKey,
  references,
  simplify,
  substitute,
  sub,
  toText,
  walk,
} from '../expression/expr.js';
import {
  classifyArgument,
  leibnizCoefficients,
  linearTimeArgument,
  scalingFactor,
  splitLinear,
  type DeltaTerm,
} from './delta-rules.js';
import { exactRootCandidates } from './algebra.js';
import { originOf } from '../language/array-origins.js';
import { isHiddenName } from '../language/rules.js';
import type {
  ActionSpec,
  EventSpec,
  JumpAction,
  FirstOrderSystem,
  NamedValue,
  OutputColumn,
  SwitchingFunction,
  SystemEquation,
  SystemState,
  StepVariable,
} from './system.js';

/** `increment` = weight x scaling (1/|u'|); `weight` alone decides whether deltaRule matters. */
interface PendingJump {
  level: string;
  increment: Expr;
  weight: Expr;
  source: string;
}

export function transform(model: AnalysedModel): FirstOrderSystem {
  return new Transformer(model).run();
}

class Transformer {
  private readonly r: AnalysedModel['reporter'];
  private readonly t: string;
  private readonly warnings: string[] = [];
  private readonly usedNames = new Set<string>();
  /** the next number to try for each prefix of {@link freshName} */
  private readonly nextNumber = new Map<string, number>();
  /** names of arrays (`x` of `x[3]`) and plain names: an array's u and S must not collide with either */
  private readonly usedBases = new Set<string>();
  /** `x|1` (the level x[k]' of array x) -> the bases of its u and S arrays */
  private readonly arrayStepNames = new Map<string, { u: string; S: string }>();
  /** user key -> system expression */
  private readonly representation = new Map<string, Expr>();
  /** user key of a state level -> its slot name */
  private readonly levelSlot = new Map<string, string>();
  private readonly stepOfLevel = new Map<string, string>();
  private readonly rhsOfSlot = new Map<string, Expr>();
  private namedValues: NamedValue[] = [];
  private readonly namedByName = new Map<string, Expr>();

  constructor(private readonly model: AnalysedModel) {
    this.r = model.reporter;
    this.t = model.independent.name;
    for (const n of model.kinds.keys()) {
      this.usedNames.add(n);
      this.usedBases.add(splitElement(n)?.base ?? n);
    }
  }

  /** `prefix1`, `prefix2`, ...: the first not yet used (counting on from the last one given). */
  private freshName(prefix: string): string {
    for (let k = this.nextNumber.get(prefix) ?? 1; ; k++) {
      const candidate = `${prefix}${k}`;
      if (!this.usedNames.has(candidate) && !this.usedBases.has(candidate)) {
        this.usedNames.add(candidate);
        this.nextNumber.set(prefix, k + 1);
        return candidate;
      }
    }
  }

  /**
   * The u and S slots of a jumping level of an array element: `u[3]`, `S[3]` for the first
   * array (`u_x[3]`, `S_x[3]` for the next, ...), so that the template reads `x[i]' = u[i] + S[i]`.
   */
  private elementStepNames(base: string, index: string, level: number): { u: string; S: string } {
    const key = `${base}|${level}`;
    let names = this.arrayStepNames.get(key);
    if (!names) {
      const suffixes = ['', `_${base}`, `_${base}${level}`];
      for (let k = 2; !names; k++) {
        const suffix = suffixes.shift() ?? `_${base}${level}_${k}`;
        const u = `u${suffix}`,
          S = `S${suffix}`;
        if (!this.usedBases.has(u) && !this.usedBases.has(S) && !this.usedNames.has(u) && !this.usedNames.has(S))
          names = { u, S };
      }
      this.usedBases.add(names.u);
      this.usedBases.add(names.S);
      this.arrayStepNames.set(key, names);
    }
    return { u: `${names.u}[${index}]`, S: `${names.S}[${index}]` };
  }

  run(): FirstOrderSystem {
    const m = this.model;
    // 1. Delta terms of every equation, and which levels they make jump.
    const splits = m.states.map((s) => ({ state: s, ...splitLinear(s.solved, this.r) }));
    const jumpingLevels = new Set<string>();
    for (const { state, terms } of splits) {
      for (const term of terms) {
        classifyArgument(term, this.t, m.kinds, this.r);
        const lowest = state.order - 1 - term.order;
        if (lowest < 0) {
          throw this.r.at(
            term.call.span,
            `${term.source} in the equation of ${refKey(state.name, state.order)} would make ${state.name} itself a delta: the solution is not a function`,
            `A delta with ${term.order} prime(s) needs an equation for a derivative of order ${term.order + 1} or higher; integrate the equation by hand, or remove the prime.`,
          );
        }
        // Leibniz: delta^(m) makes y^(n-1-m) jump, and y^(n-m) ... y^(n-1) through g', g'' unless g is constant.
        const top = references(term.weight).size === 0 ? lowest : state.order - 1;
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
        label: m.source.slice(c.span.start, c.span.end).trim(),
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

  /**
   * A user expression in system terms: derivatives and jumping levels by their representation.
   * `keepHighest`: leave y^(n) alone (only while the regular parts are being resolved).
   */
  private toSystem(e: Expr, keepHighest: boolean): Expr {
    return mapExpr(e, (n) => {
      if (n.kind === 'derivative' || (n.kind === 'name' && this.levelSlot.has(n.name))) {
        const key = n.kind === 'derivative' ? refKey(n.name, n.order) : n.name;
        const rep = this.representation.get(key);
        if (rep && !(keepHighest && !this.levelSlot.has(key))) return { ...rep, span: n.span } as Expr;
      }
      return undefined;
    });
  }

  private orderNamedValues(): NamedValue[] {
    const m = this.model;
    const defs = new Map<string, NamedValue>();
    for (const a of m.algebraics)
      defs.set(a.name, { name: a.name, expr: this.toSystem(a.expr, false), isSituation: false, span: a.span });
    for (const s of m.situations)
      defs.set(s.name, { name: s.name, expr: this.toSystem(s.condition, false), isSituation: true, span: s.span });
    const ordered: NamedValue[] = [];
    const mark = new Map<string, number>();
    const visit = (n: string, path: string[]) => {
      if (mark.get(n) === 2) return;
      if (mark.get(n) === 1) {
        const cycle = [...path.slice(path.indexOf(n)), n];
        const span =
          m.algebraics.find((a) => a.name === n)?.span ?? m.situations.find((s) => s.name === n)?.span ?? null;
        throw this.r.at(
          span,
          `these definitions depend on each other in a cycle: ${cycle.join(' -> ')}`,
          'Break the cycle: define one of them without the others.',
        );
      }
      mark.set(n, 1);
      for (const dep of references(defs.get(n)!.expr)) if (defs.has(dep)) visit(dep, [...path, n]);
      mark.set(n, 2);
      ordered.push(defs.get(n)!);
    };
    for (const n of defs.keys()) visit(n, []);
    return ordered;
  }

  /** e with every algebraic variable and situation replaced by its definition (for differentiation). */
  private inlineNamed(e: Expr): Expr {
    // (done when no name left is one to replace: comparing the printed text before and after
    // each substitution was a fifth of the transform of a row of 1024 spheres)
    let out = e;
    for (let i = 0; i <= this.namedValues.length; i++) {
      let named = false;
      for (const k of references(out))
        if (this.namedByName.has(k)) {
          named = true;
          break;
        }
      if (!named) return out;
      out = substitute(out, this.namedByName);
    }
    return out;
  }

  /** d e / d t along the flow: the chain rule through the states (steps and discretes are constant between events). */
  totalDerivative(e: Expr): Expr {
    // (one pass along the flow: t' = 1, a state's rate its right-hand side)
    return differentiateAlong(this.inlineNamed(e), (key) => (key === this.t ? 1 : this.rhsOfSlot.get(key)));
  }

  // -------------------------------------------------------------------------

  private buildEvents(splits: { state: StateInfo; terms: DeltaTerm[] }[]): EventSpec[] {
    const m = this.model;
    const events: EventSpec[] = m.events.map((ev) => this.userEvent(ev));
    const byName = new Map(events.map((e) => [e.name, e]));
    const jumpsOf = new Map<EventSpec, PendingJump[]>();
    // (every term once, also where two terms read alike: the printed terms add up to the jumps)
    const listed = new Set<DeltaTerm>();
    const addJump = (ev: EventSpec, jump: PendingJump, term: DeltaTerm) => {
      if (!jumpsOf.has(ev)) jumpsOf.set(ev, []);
      jumpsOf.get(ev)!.push(jump);
      if (!listed.has(term)) ev.deltaSources.push(jump.source);
      listed.add(term);
    };
    const deltaEvents = new Map<string, EventSpec>();

    for (const { state, terms } of splits) {
      const q = state.equation;
      for (const term of terms) {
        const cls = classifyArgument(term, this.t, m.kinds, this.r);
        const weight = this.toSystem(term.weight, false);
        let ev: EventSpec;
        let coefficients: Expr[];
        if (cls.kind === 'event') {
          ev = byName.get(cls.event)!;
          coefficients = leibnizCoefficients(weight, term.order, (g) => this.totalDerivative(g));
        } else if (cls.kind === 'time') {
          const argText = toText(term.argument);
          // An argument without the independent variable has no roots to sit at, or (t - t)
          // is zero everywhere: no meaning either way.
          if (
            !references(simplify(term.argument)).has(this.t) ||
            constantValue(simplify(differentiate(term.argument, this.t))) === 0
          ) {
            const zero =
              constantValue(simplify(term.argument)) === 0 || references(simplify(term.argument)).has(this.t);
            throw this.r.at(
              term.call.span,
              zero
                ? `the argument of delta(${argText}) is identically zero, so the delta has no instant to sit at`
                : `the argument of delta(${argText}) does not depend on ${this.t}: it is zero nowhere (or everywhere)`,
              `A delta's argument must cross zero at the instants it acts, as in delta(${this.t} - 1).`,
            );
          }
          const linear = linearTimeArgument(term.argument, this.t);
          if (!linear && term.order > 0) {
            throw this.r.at(
              term.call.span,
              'a derivative of a delta needs an argument linear in the independent variable',
              `Write delta'(a*${this.t} - b), or rewrite the term with delta(u) only.`,
            );
          }
          ev = deltaEvents.get(argText) ?? this.timeDeltaEvent(term, q, linear?.root ?? null);
          deltaEvents.set(argText, ev);
          // 1/|u'| at the root: constant for a linear argument, evaluated at the event time otherwise.
          const scale = linear
            ? scalingFactor(linear.slope, term.order)
            : div(num(1), call('abs', [differentiate(term.argument, this.t)]));
          coefficients = leibnizCoefficients(weight, term.order, (g) => this.totalDerivative(g)).map((c) =>
            mul(c, scale),
          );
        } else {
          const argText = toText(term.argument);
          ev = deltaEvents.get(argText) ?? this.stateDeltaEvent(term, q);
          deltaEvents.set(argText, ev);
          const u = this.toSystem(term.argument, false);
          coefficients = [div(weight, call('abs', [this.totalDerivative(u)]))];
        }
        // coefficient j (of delta^(m-j)) makes level n-1-m+j jump
        coefficients.forEach((c, j) => {
          if (constantValue(c) === 0) return; // g' of a constant weight: no jump
          const level = refKey(state.name, state.order - 1 - term.order + j);
          addJump(ev, { level, increment: simplify(c), weight, source: this.termSource(term, q) }, term);
        });
      }
    }
    for (const ev of deltaEvents.values()) events.push(ev);
    for (const [ev, jumps] of jumpsOf) this.attachJumps(ev, jumps);
    // The order of the file decides the order of processing at one instant; in an array
    // model, the order of the file written out (copies of one statement share its text).
    const position = (s: Span): number => {
      const o = originOf(s);
      return o ? o.ordinal * (m.source.length + 1) + s.start : s.start;
    };
    return events.sort((a, b) => position(a.span) - position(b.span));
  }

  /** a situation's condition as written (for truthFunction) */
  private readonly situationOf = (n: string): Expr | undefined =>
    this.model.kinds.get(n) === 'situation' ? this.model.situations.find((q) => q.name === n)?.condition : undefined;

  private userEvent(ev: EventStatement): EventSpec {
    const trig = ev.trigger;
    const source = this.model.source.slice(ev.span.start, ev.span.end).trim();
    const actions: ActionSpec[] = [];
    for (const a of ev.actions ?? []) {
      if (a.kind === 'stop') {
        actions.push({ kind: 'stop' });
        continue;
      }
      const key = refKey(a.target.name, a.target.order);
      const value = this.toSystem(a.value, false);
      const step = this.stepOfLevel.get(key);
      const slot = this.levelSlot.get(key) ?? a.target.name;
      // y' := v on a level y' = u + S sets u so that u + S = v.
      actions.push({ kind: 'assign', target: slot, value: step ? sub(value, name(step)) : value, variable: key });
    }
    const base = { name: ev.name, source, actions, deltaSources: [], span: ev.span };
    if (trig.kind === 'when') {
      // A condition of relations is located as the continuous function that is positive
      // exactly where it holds (see truthFunction): it has a rate, so a step cannot hide two
      // flips, and a flip is located like any crossing. Only == and != stay truth values.
      const truth = isBoolean(trig.expr, this.model.kinds) ? truthFunction(trig.expr, this.situationOf) : null;
      const boolean = truth === null && isBoolean(trig.expr, this.model.kinds);
      const condition = this.toSystem(truth ?? trig.expr, false);
      return {
        ...base,
        kind: 'state',
        schedule: null,
        condition,
        conditionRate: boolean ? null : condition,
        direction: trig.direction,
        booleanCondition: boolean,
        ...(truth ? { truthOf: this.toSystem(trig.expr, false) } : {}),
        ...(ev.locate ? { locate: ev.locate } : {}),
      };
    }
    if (trig.kind === 'at')
      return {
        ...base,
        kind: 'time',
        schedule: { kind: 'at', times: trig.times },
        condition: null,
        conditionRate: null,
        direction: null,
        booleanCondition: false,
      };
    return {
      ...base,
      kind: 'periodic',
      schedule: { kind: 'every', period: trig.period, from: trig.from },
      condition: null,
      conditionRate: null,
      direction: null,
      booleanCondition: false,
    };
  }

  /** The delta term as the user wrote it: the term of its equation `q` holding this call. */
  private termSource(term: DeltaTerm, q: EquationStatement): string {
    for (const side of [q.lhs, q.rhs]) {
      // (each side split once: an equation of a row of spheres has several delta terms)
      let terms = this.sideTerms.get(side);
      if (terms === undefined) {
        try {
          terms = splitLinear(side, this.r).terms;
        } catch {
          terms = null; /* the solved form was checked already; fall back to it */
        }
        this.sideTerms.set(side, terms);
      }
      const found = terms?.find((t) => t.call.span.start === term.call.span.start);
      if (found) return found.source;
    }
    return term.source;
  }

  /** the delta terms of each side of an equation as written (null: it does not split) */
  private readonly sideTerms = new Map<Expr, DeltaTerm[] | null>();

  private timeDeltaEvent(term: DeltaTerm, q: EquationStatement, exactRoot: Expr | null): EventSpec {
    const candidates = exactRoot ? [] : exactRootCandidates(term.argument, this.t);
    if (!exactRoot)
      this.warnings.push(
        `roots of ${toText(term.argument)} (line ${term.call.span.line}): ${candidates.length > 0 ? 'exact candidates from the algebra, checked and completed' : 'found'} numerically over the whole range`,
      );
    return {
      name: `delta(${toText(term.argument)})`,
      kind: 'time',
      source: this.termSource(term, q),
      schedule: { kind: 'roots', argument: term.argument, exactRoot, candidates },
      condition: null,
      conditionRate: null,
      direction: null,
      booleanCondition: false,
      actions: [],
      deltaSources: [],
      span: term.call.span,
    };
  }

  private stateDeltaEvent(term: DeltaTerm, q: EquationStatement): EventSpec {
    return {
      name: `delta(${toText(term.argument)})`,
      kind: 'state',
      source: this.termSource(term, q),
      schedule: null,
      condition: this.toSystem(term.argument, false),
      conditionRate: this.toSystem(term.argument, false),
      direction: 'crosses',
      booleanCondition: false,
      actions: [],
      deltaSources: [],
      span: term.call.span,
    };
  }

  /**
   * Adds the step actions S := S + increment. Rule 5: increments read the values before the
   * event; where one reads a level that the same event makes jump, `deltaRule` decides.
   */
  private attachJumps(ev: EventSpec, jumps: PendingJump[]): void {
    const jumpedSlots = new Set<string>();
    for (const j of jumps) {
      jumpedSlots.add(this.stepOfLevel.get(j.level)!);
      jumpedSlots.add(this.levelSlot.get(j.level)!);
    }
    // Rule 3's 1/|du/dt| is by definition taken before the crossing: only the weight itself can be ambiguous.
    const ambiguous = jumps.filter((j) => [...references(this.inlineNamed(j.weight))].some((k) => jumpedSlots.has(k)));
    const rule = (this.model.options.get('deltaRule')?.value as string | undefined) ?? 'left';
    const asJump = (j: PendingJump): JumpAction => ({
      kind: 'jump',
      target: this.stepOfLevel.get(j.level)!,
      increment: j.increment,
      variable: j.level,
    });
    if (ambiguous.length > 0) {
      const levels = [...new Set(ambiguous.map((j) => j.level))].join(', ');
      const what =
        rule === 'marcus'
          ? 'the flow of the pulse over unit time (Marcus), y+ = phi(1; y-)'
          : 'its value just before the event (left limit), y+ = y- + g(y-)';
      this.warnings.push(
        `deltaRule ${rule} at ${ev.name}: the weight of ${ambiguous
          .map((j) => j.source)
          .filter((s, i, a) => a.indexOf(s) === i)
          .join(', ')} depends on ${levels}, which the same delta makes jump; the weight uses ${what}.`,
      );
    }
    if (rule === 'marcus' && ambiguous.length > 0) {
      ev.actions.push({
        kind: 'marcus',
        jumps: jumps.map((j) => ({ target: this.stepOfLevel.get(j.level)!, rate: j.increment, variable: j.level })),
      });
    } else {
      // Jumps go before the user's own actions so that a `stop` never hides them; all read pre-event values anyway.
      ev.actions.unshift(...jumps.map(asJump));
    }
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
        if (sw) found.set(switchKey(sw), sw);
      });
    for (const q of equations) scan(q.rhs);
    return [...found.values()];
  }

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

/** `x[3]` -> base `x`, index `3` (`a[2,1]` -> `a`, `2,1`); null for a plain name. */
function splitElement(n: string): { base: string; index: string } | null {
  const open = n.indexOf('[');
  if (open <= 0 || !n.endsWith(']')) return null;
  return { base: n.slice(0, open), index: n.slice(open + 1, -1) };
}

/**
 * A continuous function positive exactly where the condition holds and negative where it
 * does not: a < b is b - a, a > b is a - b, `and` the smaller of two, `or` the larger, `not`
 * the negative; a situation stands for its condition. Null for what has no such function
 * (==, !=, a number, if): those are located on their truth value.
 */
export function truthFunction(e: Expr, situation: (n: string) => Expr | undefined, depth = 0): Expr | null {
  if (depth > 200) return null;
  const f = (x: Expr) => truthFunction(x, situation, depth + 1);
  const s = e.span;
  if (e.kind === 'binary') {
    if (e.op === '<' || e.op === '<=') return sub(e.right, e.left, s);
    if (e.op === '>' || e.op === '>=') return sub(e.left, e.right, s);
    if (e.op === 'and' || e.op === 'or') {
      const a = f(e.left),
        b = f(e.right);
      return a && b ? call(e.op === 'and' ? 'min' : 'max', [a, b], s) : null;
    }
    return null;
  }
  if (e.kind === 'unary' && e.op === 'not') {
    const a = f(e.operand);
    return a && neg(a, s);
  }
  if (e.kind === 'name') {
    const c = situation(e.name);
    return c ? f(c) : null;
  }
  return null;
}

function isBoolean(e: Expr, kinds: ReadonlyMap<string, string>): boolean {
  if (e.kind === 'binary') return ['<', '<=', '>', '>=', '==', '!=', 'and', 'or'].includes(e.op);
  if (e.kind === 'unary') return e.op === 'not';
  if (e.kind === 'name') return kinds.get(e.name) === 'situation';
  return false;
}

export type { Span };
