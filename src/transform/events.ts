/**
 * Events of the system: the model's own (a condition of relations located on its truth
 * function, `at` and `every` schedules, actions in system terms), then every delta term
 * attached to a named event, to the time event of its argument's roots or to the state event
 * of its crossings, scaled by 1/|u'| and spread over levels by Leibniz's rule; in the order of
 * the file (written out, for array models).
 *
 * The transformer is a chain of classes, each level using only those below it:
 * Representation (`representation.ts`) < DeltaEvents (`delta-events.ts`) < EventBuilder
 * (`events.ts`) < Transformer (`transform.ts`, the steps in order).
 */
import type { EventStatement, Expr, Span } from '../expression/ast.js';
import type { StateInfo } from '../analysis/analyse.js';
import {
  call,
  constantValue,
  differentiate,
  div,
  mul,
  name,
  neg,
  num,
  refKey,
  references,
  simplify,
  sub,
  substitute,
  toText,
} from '../expression/expr.js';
import { numericValue } from '../expression/evaluate.js';
import { hasSwitch, isBoolean, jumpStandIn, truthFunction } from './condition-functions.js';
import { originOf } from '../language/array-origins.js';
import { DeltaEvents, type PendingJump } from './delta-events.js';
import {
  classifyArgument,
  leibnizCoefficients,
  linearTimeArgument,
  scalingFactor,
  type ArgumentClass,
  type DeltaTerm,
} from './delta-rules.js';
import type { ActionSpec, EventSpec } from './system.js';

export class EventBuilder extends DeltaEvents {
  /** each delta term's argument class, as the first step of the transform found it */
  protected readonly argumentClass = new Map<DeltaTerm, ArgumentClass>();

  /** named variables and constant names, for rootMultiplicity */
  private evenContext(): EvenContext {
    const m = this.model;
    return {
      definition: (n) => (m.kinds.get(n) === 'algebraic' ? m.algebraics.find((a) => a.name === n)?.expr : undefined),
      constant: (n) => n === 'pi' || ['parameter', 'unknown', 'constant'].includes(m.kinds.get(n) ?? ''),
    };
  }

  protected buildEvents(splits: { state: StateInfo; terms: DeltaTerm[] }[]): EventSpec[] {
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
        // (classified once, in the transform's first step)
        const cls = this.argumentClass.get(term) ?? classifyArgument(term, this.t, m.kinds, this.r);
        const weight = this.toSystem(term.weight, false);
        let ev: EventSpec;
        let coefficients: Expr[];
        /** a delta on the state: its 1/|du/dt|, read before the crossing */
        let scale: Expr | undefined;
        if (cls.kind === 'event' || cls.kind === 'delayed') {
          if (cls.kind === 'event') ev = byName.get(cls.event)!;
          else {
            // one event per source and delay, however the argument is written (t - E - d, t - (E + d))
            const key = `delay: ${cls.event} + ${toText(cls.delay)}`;
            ev = deltaEvents.get(key) ?? this.delayedDeltaEvent(term, q, cls.event, cls.delay);
            deltaEvents.set(key, ev);
          }
          // u = t - E - D or its negative (classifyArgument): delta' is odd, so
          // delta'(E - t) = -delta'(t - E), as the scaling rule has it for a time argument
          // (the sign was dropped: delta'(E - t) jumped by +1, delta'(1 - t) by -1)
          const coefficientsAtE = leibnizCoefficients(weight, term.order, (g) => this.totalDerivative(g));
          const backwards = constantValue(simplify(differentiate(term.argument, this.t))) === -1;
          coefficients = backwards && term.order % 2 === 1 ? coefficientsAtE.map((c) => neg(c)) : coefficientsAtE;
        } else if (cls.kind === 'time') {
          const argText = toText(term.argument);
          // An argument without the independent variable has no roots to sit at, or (t - t)
          // is zero everywhere: no meaning either way.
          if (
            !references(simplify(term.argument)).has(this.t) ||
            constantValue(simplify(differentiate(term.argument, this.t))) === 0
          ) {
            // (step(t - 1) - 0.5 depends on t but is flat wherever it has a slope: it jumps
            // across zero, where 1/|u'| has no value; a smooth one, t - t, is a constant)
            const steps = references(simplify(term.argument)).has(this.t) && hasSwitch(term.argument);
            const simplified = simplify(substitute(term.argument, new Map([[this.t, num(0)]])));
            throw this.r.at(
              term.call.span,
              steps
                ? `the argument of delta(${argText}) is piecewise constant in ${this.t} (its derivative is zero wherever it has one): it jumps across zero instead of crossing it, so the weight 1/|d/d${this.t} (${argText})| has no value`
                : constantValue(simplified) === 0
                  ? `the argument of delta(${argText}) is identically zero, so the delta has no instant to sit at`
                  : `the argument of delta(${argText}) does not depend on ${this.t}: it is zero nowhere (or everywhere)`,
              steps
                ? `For an impulse where a switch flips, write the instant itself, as in delta(${this.t} - 1), or an event with an action.`
                : `A delta's argument must cross zero at the instants it acts, as in delta(${this.t} - 1).`,
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
          // u^2, u^4, abs(u): zero only where it touches zero, never crossing (seen in the text;
          // a state that turns at zero is found by the run, driver/delta-touch.ts)
          const multiplicity = rootMultiplicity(term.argument, this.evenContext());
          if (multiplicity % 2 === 0)
            throw this.r.at(
              term.call.span,
              `the argument of delta(${argText}) touches zero without crossing it (a root of even multiplicity): the delta has no weight there, since 1/|d/d${this.t} (${argText})| is infinite`,
              `Write the delta of a quantity that crosses zero where the impulse acts, as delta(x) instead of delta(x^2).`,
            );
          if (multiplicity > 2)
            throw this.r.at(
              term.call.span,
              `the argument of delta(${argText}) crosses zero with zero rate (a root of multiplicity ${multiplicity}): the delta has no weight there, since 1/|d/d${this.t} (${argText})| is infinite`,
              `Write the delta of a quantity that crosses zero with a rate where the impulse acts, as delta(x) instead of delta(x^${multiplicity}).`,
            );
          const u = this.toSystem(term.argument, false);
          const du = this.totalDerivative(u);
          // sign(x - 1), step(x - 1) - 0.5, n - 1 for a discrete n, x - x: flat along every
          // motion, so never crossing zero, only jumping across it (or sitting on it)
          if (constantValue(simplify(du)) === 0)
            throw this.r.at(
              term.call.span,
              hasSwitch(term.argument)
                ? `the argument of delta(${argText}) is piecewise constant along the motion (its rate is zero wherever it has one): it jumps across zero instead of crossing it, so the weight 1/|d/d${this.t} (${argText})| has no value`
                : `the argument of delta(${argText}) does not move with the motion (its rate d/d${this.t} (${argText}) is zero): it never crosses zero, so the delta has no instant with a weight 1/|d/d${this.t} (${argText})|`,
              'Write the delta of a quantity that moves through zero where the impulse acts, as delta(x - 1), or an event with an action for an impulse where a switch flips.',
            );
          ev = deltaEvents.get(argText) ?? this.stateDeltaEvent(term, q);
          deltaEvents.set(argText, ev);
          const rate = call('abs', [du]);
          scale = div(num(1), rate);
          coefficients = [div(weight, rate)];
        }
        // coefficient j (of delta^(m-j)) makes level n-1-m+j jump
        coefficients.forEach((c, j) => {
          if (constantValue(c) === 0) return; // g' of a constant weight: no jump
          const level = refKey(state.name, state.order - 1 - term.order + j);
          const increment = simplify(c);
          // (a weight such as 1/0, seen in the text: the jump would be infinite or NaN, and the
          // run failed at its end on "S1 is Infinity")
          const value = numericValue(c);
          if (value !== null && !Number.isFinite(value))
            throw this.r.at(
              term.call.span,
              `the weight of ${this.termSource(term, q)} is ${value}, not a finite number, so the jump of ${level} it makes has no value`,
              'Give the delta a finite weight (a division by zero, or a number too large for double precision, makes it infinite).',
            );
          const jump: PendingJump = { level, increment, weight, source: this.termSource(term, q) };
          if (scale) {
            jump.scale = simplify(scale);
            jump.scaled = simplify(weight);
          }
          addJump(ev, jump, term);
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
    const base = { name: ev.name, source, actions, deltaSources: [], fromDelta: false, span: ev.span };
    if (trig.kind === 'when') {
      // A condition of relations is located as the continuous function that is positive
      // exactly where it holds (see truthFunction): it has a rate, so a step cannot hide two
      // flips, and a flip is located like any crossing. Only == and != stay truth values. A
      // function that jumps across zero at a switch (step(x) - 0.5) stands as the switch's
      // argument (x), with its sign (condition-functions.ts).
      const jump = isBoolean(trig.expr, this.model.kinds) ? null : jumpStandIn(trig.expr);
      const truth = jump
        ? jump.stand
        : isBoolean(trig.expr, this.model.kinds)
          ? truthFunction(trig.expr, this.situationOf)
          : null;
      const boolean = truth === null && isBoolean(trig.expr, this.model.kinds);
      const condition = this.toSystem(truth ?? trig.expr, false);
      // (the fields of base written out, and the optional ones added: spreading objects was
      // most of this function's time for the 1025 events of a row of spheres)
      const spec: EventSpec = {
        name: base.name,
        source,
        actions,
        deltaSources: base.deltaSources,
        fromDelta: false,
        span: ev.span,
        kind: 'state',
        schedule: null,
        condition,
        conditionRate: boolean ? null : condition,
        direction: trig.direction,
        booleanCondition: boolean,
      };
      if (truth) spec.truthOf = this.toSystem(trig.expr, false);
      if (jump && jump.zeroSide !== 0) spec.zeroSide = jump.zeroSide;
      if (ev.locate) spec.locate = ev.locate;
      return spec;
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
}

/** What rootMultiplicity looks up: a named variable's definition, and whether a name is constant over a run. */
interface EvenContext {
  definition: (n: string) => Expr | undefined;
  constant: (n: string) => boolean;
}

/**
 * The multiplicity that an argument visibly gives every root it has: even where it is zero only
 * at roots of even multiplicity (u^2k, abs(u) as 2, u*u), odd n >= 3 where it crosses with
 * zero rate (u^3: 1/|d/dt (x^3)| is infinite at x = 0 as at a touch), 1 otherwise; powers of
 * powers multiply ((x^2)^3 is 6: a touch, not a crossing of multiplicity 3), also scaled or
 * negated by a constant factor (-x^2, 2*x^2, x^2/3, 3*abs(x)) and through a named variable (sq
 * = x^2, delta(sq)). Those were found only by the run, as touches (delta(x^3) with x = t - 1
 * ran on the analytic path to y = 4.6e34 with status ok).
 */
function rootMultiplicity(e: Expr, context: EvenContext, depth = 0): number {
  if (depth > 64) return 1;
  const inner = (x: Expr) => rootMultiplicity(x, context, depth + 1);
  const constant = (x: Expr) => {
    for (const n of references(x)) if (!context.constant(n)) return false;
    return true;
  };
  if (e.kind === 'name') {
    const definition = context.definition(e.name);
    return definition !== undefined ? inner(definition) : 1;
  }
  if (e.kind === 'unary') return inner(e.operand);
  if (e.kind === 'binary' && e.op === '^' && e.right.kind === 'number') {
    const n = e.right.value;
    if (!(Number.isInteger(n) && n >= 2)) return 1;
    const base = inner(e.left);
    // (only the parity and a readable size matter: x^1e300 is even, and no product overflows)
    const m = n * base;
    return n % 2 === 0 || base % 2 === 0 ? Math.min(m, 1e6) : m <= 1e6 ? m : 1e6 + 1;
  }
  if (e.kind === 'binary' && e.op === '*') {
    if (toText(e.left) === toText(e.right)) return Math.min(2 * inner(e.left), 1e6);
    if (constant(e.left) && constantValue(simplify(e.left)) !== 0) return inner(e.right);
    if (constant(e.right) && constantValue(simplify(e.right)) !== 0) return inner(e.left);
    return 1;
  }
  if (e.kind === 'binary' && e.op === '/') return constant(e.right) ? inner(e.left) : 1;
  return e.kind === 'call' && e.name === 'abs' && e.args.length === 1 ? 2 : 1;
}
