/**
 * Compiles a first-order system once to plain JavaScript functions over Float64Arrays.
 *
 * Signature of the hot functions: `(t, y, p, d, sw, out)`, where y holds the continuous
 * states, p the parameters, d the step and discrete variables, sw the locked values of the
 * switching primitives (relations, step, sign) and out the result array.
 *
 * Security: the generated source contains only what this file emits: array slots
 * (`y[3]`), numbers printed from doubles, operators, and a fixed whitelist of Math
 * functions. No identifier or text of the model reaches it, so a model named
 * `constructor` or `process` is an ordinary variable and a model cannot run code.
 */
import type { Expr } from '../expression/ast.js';
import { foldFunctions, foldStatements } from './loops.js';
import { evaluate } from '../expression/evaluate.js';
import { differentiate, references, simplify, sub, substitute } from '../expression/expr.js';
import { compileJacobian, type CompiledJacobian } from './jacobian.js';
import { compileClosedForm, type CompiledClosedForm } from './closed-form.js';
import { structureOf } from '../structure/structure.js';
import type { AssignAction, FirstOrderSystem, JumpAction, SwitchingFunction } from '../transform/system.js';
import { switchKey } from '../transform/transform.js';

export type HotFunction = (
  t: number,
  y: Float64Array,
  p: Float64Array,
  d: Float64Array,
  sw: Float64Array,
  out: Float64Array,
) => void;
export type ScalarFunction = (t: number, y: Float64Array, p: Float64Array, d: Float64Array, sw: Float64Array) => number;

/**
 * A watched function: a state event's or a switching function. `affine`: it is affine in
 * the states and the independent variable (parameters and discrete variables are constants
 * between events), so along a motion the stepper integrates exactly (a polynomial of low
 * degree) it has no bump between step ends that its end values and rates do not show; the
 * simulator may then skip sampling inside a step (see Simulator.needsSamples).
 */
export type WatchEntry = ({ kind: 'event'; event: number } | { kind: 'switch'; index: number }) & { affine: boolean };

export interface CompiledSchedule {
  kind: 'roots' | 'at' | 'every';
  /** roots: u(t) and du/dt; at: the times; every: period and start (from p) */
  u?: ScalarFunction;
  dudt?: ScalarFunction;
  exactRoot?: ScalarFunction | null;
  candidates?: ScalarFunction[];
  times?: ScalarFunction[];
  period?: ScalarFunction;
  from?: ScalarFunction | null;
}

export interface CompiledEvent {
  index: number;
  name: string;
  kind: 'time' | 'state' | 'periodic';
  source: string;
  /** -1 for time events */
  watchIndex: number;
  direction: 'rises' | 'falls' | 'crosses' | null;
  /** writes the post-event values into yOut, dOut (which the caller pre-fills with y, d) */
  apply: (
    t: number,
    y: Float64Array,
    p: Float64Array,
    d: Float64Array,
    sw: Float64Array,
    yOut: Float64Array,
    dOut: Float64Array,
    dir: number,
  ) => void;
  /** Marcus rule: d slots that flow, and their rates */
  marcus: { targets: Int32Array; rate: HotFunction } | null;
  stops: boolean;
  schedule: CompiledSchedule | null;
  /** the model's `locate` for this event, or null: the run's --locate decides */
  locate: 'exact' | 'before' | 'after' | null;
  /** user variables this event's actions change */
  changes: string[];
  /**
   * the watched functions whose values its actions can change (they read a slot it writes):
   * the only ones event iteration must look at after it
   */
  moves: Int32Array;
  /**
   * the watched functions whose values or rates its actions can change: those event
   * iteration looks at for a function left at zero and turned across (Newton's cradle)
   */
  touches: Int32Array;
  /**
   * the slots its condition, the condition's rate and its actions read, and the slots its
   * actions write, of those that can change when an event fires (states, step variables and
   * what conditions read): two events whose sets meet do not commute, so their order matters
   */
  reads: ReadonlySet<string>;
  writes: ReadonlySet<string>;
}

/**
 * The constraint a watched function held at zero defines (option zeno = continue): with R its
 * rate along the flow, `grad` writes dR/dy for the states in `idx` (out[j] for idx[j]) and
 * `dt` is the explicit dR/dt; with them the force that keeps R at zero is exact.
 */
export interface ConstraintFunctions {
  idx: Int32Array;
  grad: (t: number, y: Float64Array, p: Float64Array, d: Float64Array, sw: Float64Array, out: Float64Array) => void;
  dt: ScalarFunction;
}

export interface CompiledModel {
  system: FirstOrderSystem;
  stateNames: string[];
  discreteNames: string[];
  paramNames: string[];
  nStates: number;
  nDiscrete: number;
  nSwitch: number;
  rhs: HotFunction;
  /** event and switching functions, in `watchInfo` order */
  watch: HotFunction;
  /** the same under the locked switches (see Switching.lock) */
  watchLocked: HotFunction;
  /** d/dt of each watched function along the flow; NaN where unknown */
  watchRate: HotFunction;
  /**
   * A bound on the rounding of each watched function as evaluated (and of its rate): the
   * sum of the magnitudes of the terms it adds, times a few ulps. Zero is judged on this
   * scale, the function's own (EVENTS.md, 1): a gap of 1e-300 kept as a state is not zero.
   */
  watchBound: HotFunction;
  rateBound: HotFunction;
  /** watched function k alone, its rate alone and its rounding bound alone: what the root finder refines */
  watchOne: ScalarFunction[];
  rateOne: ScalarFunction[];
  boundOne: ScalarFunction[];
  rateBoundOne: ScalarFunction[];
  /** per watched function: the states it or its rate reads (what the root finder interpolates) */
  watchStates: Int32Array[];
  watchInfo: WatchEntry[];
  events: CompiledEvent[];
  switching: SwitchingFunction[];
  outputNames: string[];
  outputs: HotFunction;
  initial: (p: Float64Array, y0: Float64Array, d0: Float64Array) => void;
  boundary: { label: string; variable: string; value: ScalarFunction; at: ScalarFunction; state: ScalarFunction }[];
  /** the constraint of watched function k (see ConstraintFunctions), compiled on first use; null without a known rate */
  constraintOf(k: number): ConstraintFunctions | null;
  /** parameter values: defaults with overrides by name; parameters may use earlier ones */
  parameters(overrides?: ReadonlyMap<string, number>): Float64Array;
  /** a set-up value (range end, option) from parameters; tree-evaluated, never in a loop */
  parametersExpr(e: Expr, p: Float64Array): number;
  /** the exact Jacobian ∂rhs/∂y and ∂rhs/∂t (jacobian.ts), compiled on first use: only implicit methods need it */
  jacobian(): CompiledJacobian;
  /** the closed forms of the analytic path (closed-form.ts), compiled on first use */
  closedForm(): CompiledClosedForm;
  /** the generated JavaScript, as shown by `transform --format js` (with the Jacobian) */
  readonly source: string;
}

const MATH: Readonly<Record<string, string>> = {
  sin: 'Math.sin',
  cos: 'Math.cos',
  tan: 'Math.tan',
  asin: 'Math.asin',
  acos: 'Math.acos',
  atan: 'Math.atan',
  atan2: 'Math.atan2',
  sinh: 'Math.sinh',
  cosh: 'Math.cosh',
  tanh: 'Math.tanh',
  exp: 'Math.exp',
  log: 'Math.log',
  sqrt: 'Math.sqrt',
  abs: 'Math.abs',
  sign: 'Math.sign',
  min: 'Math.min',
  max: 'Math.max',
};

function literal(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '(-Infinity)';
  const s = String(v);
  return v < 0 || Object.is(v, -0) ? `(${s})` : s;
}

type Mode = 'locked' | 'direct';

/** lines per part of a generated function that writes an array (see outFn in compile) */
const OUT_CHUNK = 256;

class Emitter {
  private readonly slot = new Map<string, string>();
  private readonly named = new Map<string, { index: number; expr: Expr }>();
  private readonly switchIndex = new Map<string, number>();

  constructor(system: FirstOrderSystem, stateNames: string[], discreteNames: string[], paramNames: string[]) {
    stateNames.forEach((n, i) => this.slot.set(n, `y[${i}]`));
    discreteNames.forEach((n, i) => this.slot.set(n, `d[${i}]`));
    paramNames.forEach((n, i) => this.slot.set(n, `p[${i}]`));
    this.slot.set(system.independent, 't');
    system.namedValues.forEach((v, i) => this.named.set(v.name, { index: i, expr: v.expr }));
    system.switching.forEach((s, i) => this.switchIndex.set(switchKey(s), i));
  }

  /** `const vK = ...;` lines for the named values `exprs` need, in dependency order. */
  prelude(exprs: Expr[], mode: Mode): string {
    const needed = new Set<string>();
    // (with a stack: a chain of 1e4 named values, a2 = a1 + 1, ..., is 1e4 deep)
    const pending = [...exprs];
    for (let e = pending.pop(); e !== undefined; e = pending.pop())
      for (const k of references(e)) {
        if (this.named.has(k) && !needed.has(k)) {
          needed.add(k);
          pending.push(this.named.get(k)!.expr);
        }
      }
    // in definition order (the named values are ordered by dependency), without scanning all
    // of them for every small function of a model with a thousand
    return [...needed]
      .map((k) => this.named.get(k)!)
      .sort((a, b) => a.index - b.index)
      .map((v) => `  const v${v.index} = ${this.expr(v.expr, mode)};\n`)
      .join('');
  }

  /**
   * The degree of e as a polynomial in the states and the independent variable: 0 constant
   * between events (numbers, parameters, discrete variables), 1 affine, Infinity for anything
   * else (products of states, functions of states, conditions on states).
   */
  degree(e: Expr): number {
    const deg = (a: Expr) => this.degree(a);
    switch (e.kind) {
      case 'number':
        return 0;
      case 'name': {
        const named = this.named.get(e.name);
        if (named) return deg(named.expr);
        const s = this.slot.get(e.name);
        if (s === undefined) return e.name === 'pi' ? 0 : Infinity;
        return s === 't' || s.startsWith('y[') ? 1 : 0;
      }
      case 'derivative':
        return Infinity;
      case 'unary':
        return e.op === '-' || e.op === '+' ? deg(e.operand) : deg(e.operand) === 0 ? 0 : Infinity;
      case 'binary': {
        const a = deg(e.left),
          b = deg(e.right);
        switch (e.op) {
          case '+':
          case '-':
            return Math.max(a, b);
          case '*':
            return a + b <= 1 ? a + b : Infinity;
          case '/':
            return b === 0 ? a : Infinity;
          default:
            return a === 0 && b === 0 ? 0 : Infinity;
        }
      }
      case 'call':
        return e.args.every((a) => deg(a) === 0) ? 0 : Infinity;
      case 'if':
        return deg(e.condition) === 0 && deg(e.then) === 0 && deg(e.otherwise) === 0 ? 0 : Infinity;
    }
  }

  /**
   * Code for a bound on the magnitudes that the evaluation of e adds up: |c| for a number,
   * |v| for a variable, m(a) + m(b) for a sum, m(a)·m(b) for a product, m(a)/|b| for a
   * quotient, and for a function value |f(a)| + m(a) (the argument's rounding, passed on
   * with a slope of order one). Times a few ulps, it bounds the rounding of the computed
   * value, relative to its own terms rather than to the largest state.
   */
  magnitude(e: Expr, mode: Mode): string {
    const m = (a: Expr) => this.magnitude(a, mode);
    switch (e.kind) {
      case 'number':
        return literal(Math.abs(e.value));
      case 'name': {
        const named = this.named.get(e.name);
        if (named) return m(named.expr);
        return `Math.abs(${this.expr(e, mode)})`;
      }
      case 'unary':
        return e.op === 'not' ? '0' : m(e.operand);
      case 'binary':
        switch (e.op) {
          case '+':
          case '-':
            return `(${m(e.left)} + ${m(e.right)})`;
          case '*':
            return `(${m(e.left)} * ${m(e.right)})`;
          case '/':
            return `(${m(e.left)} / Math.abs(${this.expr(e.right, mode)}))`;
          case '^':
            return `(Math.abs(${this.expr(e, mode)}) + ${m(e.left)})`;
          default:
            return '0';
        }
      case 'if':
        return `(${this.expr(e.condition, mode)} !== 0 ? ${m(e.then)} : ${m(e.otherwise)})`;
      default:
        return `(Math.abs(${this.expr(e, mode)})${e.kind === 'call' ? e.args.map((a) => ` + ${m(a)}`).join('') : ''})`;
    }
  }

  expr(e: Expr, mode: Mode): string {
    const x = (a: Expr) => this.expr(a, mode);
    switch (e.kind) {
      case 'number':
        return literal(e.value);
      case 'name': {
        const named = this.named.get(e.name);
        if (named) return `v${named.index}`;
        const s = this.slot.get(e.name);
        if (s) return s;
        if (e.name === 'pi') return literal(Math.PI);
        throw new Error(`internal: no slot for a name in the compiled system`);
      }
      case 'derivative':
        throw new Error('internal: derivative left in a system expression');
      case 'unary':
        if (e.op === '-') return `(-${x(e.operand)})`;
        if (e.op === '+') return x(e.operand);
        return `(${x(e.operand)} === 0 ? 1 : 0)`;
      case 'binary': {
        const a = x(e.left),
          b = x(e.right);
        switch (e.op) {
          case '+':
          case '-':
          case '*':
          case '/':
            return `(${a} ${e.op} ${b})`;
          case '^':
            return this.power(e.left, e.right, mode);
          case 'and':
            return `(${a} !== 0 && ${b} !== 0 ? 1 : 0)`;
          case 'or':
            return `(${a} !== 0 || ${b} !== 0 ? 1 : 0)`;
          case '==':
            return `(${a} === ${b} ? 1 : 0)`;
          case '!=':
            return `(${a} !== ${b} ? 1 : 0)`;
          default: {
            if (mode === 'locked') {
              const primitive = ({ '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' } as const)[e.op];
              const k = this.switchIndex.get(switchKey({ primitive, g: sub(e.left, e.right) }));
              if (k !== undefined) return `sw[${k}]`;
            }
            return `(${a} ${e.op} ${b} ? 1 : 0)`;
          }
        }
      }
      case 'if':
        return `(${x(e.condition)} !== 0 ? ${x(e.then)} : ${x(e.otherwise)})`;
      case 'call': {
        if ((e.name === 'step' || e.name === 'sign') && mode === 'locked') {
          const k = this.switchIndex.get(switchKey({ primitive: e.name, g: e.args[0] }));
          if (k !== undefined) return `sw[${k}]`;
        }
        if (e.name === 'step') return `(${x(e.args[0])} >= 0 ? 1 : 0)`;
        const fn = MATH[e.name];
        if (!fn) throw new Error('internal: a function outside the whitelist reached the compiler');
        return `${fn}(${e.args.map(x).join(', ')})`;
      }
    }
  }

  /** Small integer powers as products: Math.pow is many times slower than a multiplication. */
  private power(base: Expr, exponent: Expr, mode: Mode): string {
    const b = this.expr(base, mode);
    if (exponent.kind === 'number') {
      const n = exponent.value;
      if (n === 2) return `sq(${b})`;
      if (n === 3) return `cube(${b})`;
      if (n === 0.5) return `Math.sqrt(${b})`;
      if (n === 1) return b;
      if (n === 4) return `sq(sq(${b}))`;
    }
    if (
      exponent.kind === 'unary' &&
      exponent.op === '-' &&
      exponent.operand.kind === 'number' &&
      exponent.operand.value === 1
    )
      return `(1 / ${b})`;
    return `Math.pow(${b}, ${this.expr(exponent, mode)})`;
  }
}

export function compile(system: FirstOrderSystem): CompiledModel {
  const stateNames = system.states.map((s) => s.name);
  const discreteNames = [...system.stepVariables.map((s) => s.name), ...system.discretes.map((d) => d.name)];
  const paramNames = system.parameters.map((p) => p.name);
  const em = new Emitter(system, stateNames, discreteNames, paramNames);
  let jacobian: CompiledJacobian | undefined;
  let closedForm: CompiledClosedForm | undefined;
  const stateSlot = new Map(stateNames.map((sn, i) => [sn, i]));
  const discreteSlot = new Map(discreteNames.map((dn, i) => [dn, i]));
  const slotIndex = (n: string): { array: 'y' | 'd'; index: number } => {
    const i = stateSlot.get(n);
    if (i !== undefined) return { array: 'y', index: i };
    return { array: 'd', index: discreteSlot.get(n) ?? -1 };
  };

  const parts: string[] = ['"use strict";', 'const sq = (x) => x * x;', 'const cube = (x) => x * x * x;'];
  const fn = (header: string, exprs: Expr[], mode: Mode, body: (e: Emitter) => string) =>
    `function ${header} {\n${em.prelude(exprs, mode)}${body(em)}}`;
  /**
   * A function `name(t, y, p, d, sw, out)` writing one slot of out per item. Long ones are
   * cut into parts of OUT_CHUNK lines that it calls in turn: V8 does not optimise a function
   * past about 60 KB of bytecode, and the rates of 1025 watched functions ran 70 times slower
   * in one piece than in four.
   */
  const outFn = (name: string, items: { deps: Expr[]; line: (e: Emitter) => string }[], mode: Mode): string => {
    // The elements of an array model as loops (loops.ts), cut into parts only if still long.
    // (The emitter is pure: the lines come out the same before or after the prelude.)
    const lines = items.map((it) => it.line(em));
    const folded = foldStatements(lines);
    if (folded.length <= OUT_CHUNK)
      return fn(
        `${name}(t, y, p, d, sw, out)`,
        items.flatMap((it) => it.deps),
        mode,
        () => folded.join(''),
      );
    const body = (start: number, end: number) => () => foldStatements(lines.slice(start, end)).join('');
    const pieces: string[] = [];
    const calls: string[] = [];
    for (let start = 0, c = 0; start < items.length; start += OUT_CHUNK, c++) {
      const slice = items.slice(start, start + OUT_CHUNK);
      pieces.push(
        fn(
          `${name}Part${c}(t, y, p, d, sw, out)`,
          slice.flatMap((it) => it.deps),
          mode,
          body(start, start + OUT_CHUNK),
        ),
      );
      calls.push(`  ${name}Part${c}(t, y, p, d, sw, out);\n`);
    }
    return [...pieces, `function ${name}(t, y, p, d, sw, out) {\n${calls.join('')}}`].join('\n\n');
  };

  // Right-hand side: switching primitives locked, so no step sees a discontinuity.
  parts.push(
    outFn(
      'rhs',
      system.equations.map((q, i) => ({
        deps: [q.rhs],
        line: (e) => `  out[${stateSlot.get(q.state) ?? i}] = ${e.expr(q.rhs, 'locked')};\n`,
      })),
      'locked',
    ),
  );

  // Watched functions: state events, then switching functions.
  const watchInfo: WatchEntry[] = [];
  const watchExprs: Expr[] = [];
  system.events.forEach((ev, i) => {
    if (ev.kind !== 'state' || !ev.condition) return;
    const g: Expr = ev.booleanCondition
      ? {
          kind: 'if',
          condition: ev.condition,
          then: { kind: 'number', value: 1, span: ev.span },
          otherwise: { kind: 'unary', op: '-', operand: { kind: 'number', value: 1, span: ev.span }, span: ev.span },
          span: ev.span,
        }
      : ev.condition;
    watchInfo.push({ kind: 'event', event: i, affine: em.degree(g) <= 1 });
    watchExprs.push(g);
  });
  system.switching.forEach((s, i) => {
    watchInfo.push({ kind: 'switch', index: i, affine: em.degree(s.g) <= 1 });
    watchExprs.push(s.g);
  });
  parts.push(
    outFn(
      'watch',
      watchExprs.map((w, i) => ({ deps: [w], line: (e) => `  out[${i}] = ${e.expr(w, 'direct')};\n` })),
      'direct',
    ),
  );
  // Their rates of change along the flow (NaN where none is known, e.g. a boolean condition).
  const rateExprs: (Expr | null)[] = watchInfo.map((w) =>
    w.kind === 'event' ? system.events[w.event].conditionRate : system.switching[w.index].rate,
  );
  parts.push(
    outFn(
      'watchRate',
      rateExprs.map((r, i) => ({
        deps: r ? [r] : [],
        line: (e) => `  out[${i}] = ${r ? e.expr(r, 'locked') : 'NaN'};\n`,
      })),
      'locked',
    ),
  );
  // Rounding bounds (EVENTS.md, 1): 8 ulps of the magnitudes each function adds up.
  const ULPS = literal(8 * Number.EPSILON);
  parts.push(
    outFn(
      'watchBound',
      watchExprs.map((w, i) => ({ deps: [w], line: (e) => `  out[${i}] = ${ULPS} * ${e.magnitude(w, 'direct')};\n` })),
      'direct',
    ),
  );
  // the watched functions under the locked branches, for setting the switches at an instant
  // (a switching function that reads a relation at its own zero takes the branch chosen there;
  // without switching functions nothing is locked and it is watch itself)
  parts.push(
    system.switching.length === 0
      ? 'const watchLocked = watch;'
      : outFn(
          'watchLocked',
          watchExprs.map((w, i) => ({ deps: [w], line: (e) => `  out[${i}] = ${e.expr(w, 'locked')};\n` })),
          'locked',
        ),
  );
  parts.push(
    outFn(
      'rateBound',
      rateExprs.map((r, i) => ({
        deps: r ? [r] : [],
        line: (e) => `  out[${i}] = ${r ? `${ULPS} * ${e.magnitude(r, 'locked')}` : 'NaN'};\n`,
      })),
      'locked',
    ),
  );
  // Each watched function and its rate alone, for the root finder: refining one crossing
  // costs one function, not all N of a row of N spheres.
  /**
   * One function per element (the evaluator of each watched function, each event's actions),
   * written as factories where elements differ only in their slots (loops.ts): a row of 1024
   * spheres needs one source text per family, not 1025. Returns the list's expression.
   */
  const families = new Map<string, string>();
  const family = (prefix: string, params: string, bodies: (e: Emitter) => string[]): void => {
    const { definitions, list } = foldFunctions(prefix, params, bodies(em));
    if (definitions) parts.push(definitions);
    families.set(prefix, list);
  };
  // (the named values a body computes are renamed in the order it uses them, local0, local1,
  // ...: v12 in one element's body and v13 in the next would keep them from folding)
  const bodyOf = (exprs: Expr[], mode: Mode, line: string) => {
    const local = new Map<string, string>();
    return `${em.prelude(exprs, mode)}${line}`.replace(/\bv\d+\b/g, (v) => {
      let name = local.get(v);
      if (!name) {
        name = `local${local.size}`;
        local.set(v, name);
      }
      return name;
    });
  };
  family('watch', 't, y, p, d, sw', (e) =>
    watchExprs.map((w) => bodyOf([w], 'direct', `  return ${e.expr(w, 'direct')};\n`)),
  );
  family('watchRate', 't, y, p, d, sw', (e) =>
    rateExprs.map((r) => bodyOf(r ? [r] : [], 'locked', `  return ${r ? e.expr(r, 'locked') : 'NaN'};\n`)),
  );
  family('watchBound', 't, y, p, d, sw', (e) =>
    watchExprs.map((w) => bodyOf([w], 'direct', `  return ${ULPS} * ${e.magnitude(w, 'direct')};\n`)),
  );
  family('rateBound', 't, y, p, d, sw', (e) =>
    rateExprs.map((r) =>
      bodyOf(r ? [r] : [], 'locked', `  return ${r ? `${ULPS} * ${e.magnitude(r, 'locked')}` : 'NaN'};\n`),
    ),
  );

  // Event actions: every right-hand side reads the pre-event values, then all assignments happen.
  const accumulators = accumulatorsOf(system);
  const eventMeta: { stops: boolean; marcusTargets: number[] | null; changes: string[] }[] = [];
  const applyBodies: string[] = [];
  system.events.forEach((ev, i) => {
    // Assignments set a slot; jumps add to it (deltas at one instant all count), reversed
    // when the run goes backwards (dir = -1) so that integrating back undoes the step.
    // A variable that every assignment only adds to (`hits := hits + 1`, `E := E - loss`)
    // accumulates: two events at one instant that each count both count, as two deltas'
    // jumps do. (Where a plain assignment also writes it, the last in file order wins.)
    const writes = ev.actions.filter((a): a is AssignAction | JumpAction => a.kind === 'assign' || a.kind === 'jump');
    const marcus = ev.actions.find((a) => a.kind === 'marcus');
    const added = writes.map((a) =>
      a.kind === 'assign' && accumulators.has(a.target) ? addedTo(a.target, a.value) : null,
    );
    const values = writes.map((a, k) => (a.kind === 'assign' ? (added[k]?.term ?? a.value) : a.increment));
    // Locked: a relation of the right-hand side reads the branch of the step that ended at
    // the instant, its left limit, like every other value an action reads (at the instant
    // itself h < R may already read false: a rule's value held there would be the stale one).
    applyBodies.push(
      bodyOf(
        values,
        'locked',
        ((e: Emitter) => {
          const lines = values.map((v, k) => `  const x${k} = ${e.expr(v, 'locked')};\n`);
          writes.forEach((a, k) => {
            const s = slotIndex(a.target);
            const target = `${s.array === 'y' ? 'yOut' : 'dOut'}[${s.index}]`;
            const op = a.kind === 'jump' ? '+= dir *' : added[k] ? added[k].op : '=';
            lines.push(`  ${target} ${op} x${k};\n`);
          });
          return lines.join('');
        })(em),
      ),
    );
    const rates = marcus?.kind === 'marcus' ? marcus.jumps.map((j) => j.rate) : [];
    // (the rates of a Marcus flow; events without one share a function that does nothing)
    if (marcus?.kind === 'marcus')
      parts.push(
        fn(`rate${i}(t, y, p, d, sw, out)`, rates, 'direct', (e) =>
          rates.map((r, k) => `  out[${k}] = ${e.expr(r, 'direct')};\n`).join(''),
        ),
      );
    const changes = new Set<string>();
    for (const a of ev.actions) {
      if (a.kind === 'assign' || a.kind === 'jump') changes.add(a.variable);
      if (a.kind === 'marcus') a.jumps.forEach((j) => changes.add(j.variable));
    }
    eventMeta.push({
      stops: ev.actions.some((a) => a.kind === 'stop'),
      marcusTargets: marcus?.kind === 'marcus' ? marcus.jumps.map((j) => slotIndex(j.target).index) : null,
      changes: [...changes],
    });
  });
  family('apply', 't, y, p, d, sw, yOut, dOut, dir', () => applyBodies);

  const outputExprs = system.outputs.map((o) => o.expr);
  // (locked, as the actions: the row before an instant shows the left limits)
  parts.push(
    outFn(
      'outputs',
      outputExprs.map((o, i) => ({ deps: [o], line: (e) => `  out[${i}] = ${e.expr(o, 'locked')};\n` })),
      'locked',
    ),
  );

  // Initial values use parameters only (the analysis checked that).
  parts.push(
    fn('initial(p, y0, d0)', [], 'direct', (e) => {
      const lines = system.states.map((s, i) => `  y0[${i}] = ${e.expr(s.initial, 'direct')};\n`);
      system.stepVariables.forEach((_, i) => lines.push(`  d0[${i}] = 0;\n`));
      system.discretes.forEach((dv, i) =>
        lines.push(`  d0[${system.stepVariables.length + i}] = ${e.expr(dv.initial, 'direct')};\n`),
      );
      return `  const t = NaN;\n${foldStatements(lines).join('')}`;
    }),
  );

  // Scalar functions: schedules and boundary conditions.
  const scalars: Expr[] = [];
  const scalar = (e: Expr): number => {
    scalars.push(e);
    return scalars.length - 1;
  };
  const scheduleIndex = system.events.map((ev) => {
    const s = ev.schedule;
    if (!s) return null;
    if (s.kind === 'roots') {
      return {
        kind: s.kind,
        u: scalar(s.argument),
        dudt: scalar(differentiate(s.argument, system.independent)),
        exactRoot: s.exactRoot ? scalar(s.exactRoot) : null,
        candidates: s.candidates.map(scalar),
      };
    }
    if (s.kind === 'at') return { kind: s.kind, times: s.times.map(scalar) };
    return { kind: s.kind, period: scalar(s.period), from: s.from ? scalar(s.from) : null };
  });
  const bcIndex = system.boundaryConditions.map((bc) => ({
    value: scalar(bc.value),
    at: scalar(bc.at),
    state: scalar(system.representation.get(bc.variable)!),
  }));
  // (as a family: 1e5 `at` times of one loop are one factory, not 1e5 functions, which V8
  // cannot even parse in one source)
  family('scalar', 't, y, p, d, sw', (e) =>
    scalars.map((s) => bodyOf([s], 'direct', `  return ${e.expr(s, 'direct')};\n`)),
  );

  parts.push(
    `return { rhs, watch, watchLocked, watchRate, watchBound, rateBound, watchOne: ${families.get('watch')}, rateOne: ${families.get('watchRate')}, boundOne: ${families.get('watchBound')}, rateBoundOne: ${families.get('rateBound')}, outputs, initial, apply: ${families.get('apply')}, rate: ${eventMeta.some((meta) => meta.marcusTargets) ? `[${eventMeta.map((meta, i) => (meta.marcusTargets ? `rate${i}` : 'null')).join(', ')}]` : `new Array(${eventMeta.length}).fill(null)`}, scalar: ${families.get('scalar')} };`,
  );
  const source = parts.join('\n\n');

  const made = new Function(source)() as {
    rhs: HotFunction;
    watch: HotFunction;
    watchLocked: HotFunction;
    watchRate: HotFunction;
    watchBound: HotFunction;
    rateBound: HotFunction;
    watchOne: ScalarFunction[];
    rateOne: ScalarFunction[];
    boundOne: ScalarFunction[];
    rateBoundOne: ScalarFunction[];
    outputs: HotFunction;
    initial: CompiledModel['initial'];
    apply: CompiledEvent['apply'][];
    rate: (HotFunction | null)[];
    scalar: ScalarFunction[];
  };

  // Which watched functions read which names, through the named values they use.
  const namedExpr = new Map(system.namedValues.map((v) => [v.name, v.expr]));
  const readsOf = (e: Expr): Set<string> => {
    const out = new Set<string>();
    const visit = (x: Expr) => {
      for (const k of references(x))
        if (!out.has(k)) {
          out.add(k);
          const nx = namedExpr.get(k);
          if (nx) visit(nx);
        }
    };
    visit(e);
    return out;
  };
  const watchReads = watchExprs.map(readsOf);
  const writtenSlots = system.events.map((ev) => {
    const slots = new Set<string>();
    for (const a of ev.actions) {
      if (a.kind === 'assign' || a.kind === 'jump') slots.add(a.target);
      if (a.kind === 'marcus') a.jumps.forEach((j) => slots.add(j.target));
    }
    return slots;
  });
  const rateReads = rateExprs.map((r) => (r ? readsOf(r) : new Set<string>()));
  const watchStates = watchReads.map((reads, k) =>
    Int32Array.from(
      new Set([...reads, ...rateReads[k]].flatMap((name) => (stateSlot.has(name) ? [stateSlot.get(name)!] : []))),
    ).sort(),
  );
  // Constraints of held functions, compiled only when a run needs one (zeno = continue).
  const constraints = new Map<number, ConstraintFunctions | null>();
  const buildConstraint = (k: number): ConstraintFunctions | null => {
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
      '"use strict";',
      'const sq = (x) => x * x;',
      'const cube = (x) => x * x * x;',
      fn('grad(t, y, p, d, sw, out)', grads, 'locked', (e) =>
        grads.map((g, j) => `  out[${j}] = ${e.expr(g, 'locked')};\n`).join(''),
      ),
      fn('dt(t, y, p, d, sw)', [dt], 'locked', (e) => `  return ${e.expr(dt, 'locked')};\n`),
      'return { grad, dt };',
    ].join('\n\n');

    const made = new Function(src)() as Pick<ConstraintFunctions, 'grad' | 'dt'>;
    return { idx, grad: made.grad, dt: made.dt };
  };
  const watchOfEvent = new Map(watchInfo.flatMap((w, k) => (w.kind === 'event' ? [[w.event, k] as const] : [])));
  // What can change when or whether an event fires: the states, the step variables and the
  // names any watched function or rate reads (a counter that only outputs read cannot).
  const dynamic = new Set<string>([...stateNames, ...system.stepVariables.map((sv) => sv.name)]);
  for (const r of [...watchReads, ...rateReads]) for (const k of r) dynamic.add(k);
  const eventReads = system.events.map((ev, i) => {
    const reads = new Set<string>();
    const w = watchOfEvent.get(i);
    if (w !== undefined) {
      for (const k of watchReads[w]) reads.add(k);
      for (const k of rateReads[w]) reads.add(k);
    }
    for (const a of ev.actions) {
      if (a.kind === 'assign') for (const k of readsOf(a.value)) reads.add(k);
      if (a.kind === 'jump') for (const k of readsOf(a.increment)) reads.add(k);
      if (a.kind === 'marcus')
        a.jumps.forEach((j) => {
          for (const k of readsOf(j.rate)) reads.add(k);
        });
    }
    return new Set([...reads].filter((k) => dynamic.has(k)));
  });
  // (through an index from name to the functions that read it: events x functions was
  // 2 million set look-ups at N = 1024)
  const readers = new Map<string, number[]>();
  watchReads.forEach((reads, k) => {
    for (const name of reads) {
      const list = readers.get(name);
      if (list) list.push(k);
      else readers.set(name, [k]);
    }
  });
  const rateReaders = new Map<string, number[]>();
  rateReads.forEach((reads, k) => {
    for (const name of reads) {
      const list = rateReaders.get(name);
      if (list) list.push(k);
      else rateReaders.set(name, [k]);
    }
  });
  const functionsReading = (slots: ReadonlySet<string>, indexes: Map<string, number[]>[]): Int32Array => {
    const ks = new Set<number>();
    for (const sl of slots) for (const index of indexes) for (const k of index.get(sl) ?? []) ks.add(k);
    return Int32Array.from(ks).sort();
  };
  const moves = writtenSlots.map((slots) => functionsReading(slots, [readers]));
  const touches = writtenSlots.map((slots) => functionsReading(slots, [readers, rateReaders]));

  const events: CompiledEvent[] = system.events.map((ev, i) => {
    const si = scheduleIndex[i];
    let schedule: CompiledSchedule | null = null;
    if (si) {
      const f = (k: number) => made.scalar[k];
      schedule =
        si.kind === 'roots'
          ? {
              kind: 'roots',
              u: f(si.u!),
              dudt: f(si.dudt!),
              exactRoot: si.exactRoot === null ? null : f(si.exactRoot!),
              candidates: si.candidates!.map(f),
            }
          : si.kind === 'at'
            ? { kind: 'at', times: si.times!.map(f) }
            : { kind: 'every', period: f(si.period!), from: si.from === null ? null : f(si.from!) };
    }
    const meta = eventMeta[i];
    return {
      index: i,
      name: ev.name,
      kind: ev.kind,
      source: ev.source,
      watchIndex: watchOfEvent.get(i) ?? -1,
      direction: ev.direction,
      apply: made.apply[i],
      marcus: meta.marcusTargets ? { targets: Int32Array.from(meta.marcusTargets), rate: made.rate[i]! } : null,
      stops: meta.stops,
      schedule,
      locate: ev.locate ?? null,
      changes: meta.changes,
      moves: moves[i],
      touches: touches[i],
      reads: eventReads[i],
      writes: new Set([...writtenSlots[i]].filter((k) => dynamic.has(k))),
    };
  });

  return {
    system,
    stateNames,
    discreteNames,
    paramNames,
    nStates: stateNames.length,
    nDiscrete: discreteNames.length,
    nSwitch: system.switching.length,
    rhs: made.rhs,
    watch: made.watch,
    watchLocked: made.watchLocked,
    watchRate: made.watchRate,
    watchBound: made.watchBound,
    rateBound: made.rateBound,
    watchOne: made.watchOne,
    rateOne: made.rateOne,
    boundOne: made.boundOne,
    rateBoundOne: made.rateBoundOne,
    watchStates,
    watchInfo,
    events,
    switching: system.switching,
    outputNames: system.outputs.map((o) => o.name),
    outputs: made.outputs,
    initial: made.initial,
    boundary: system.boundaryConditions.map((bc, i) => ({
      label: bc.label,
      variable: bc.variable,
      value: made.scalar[bcIndex[i].value],
      at: made.scalar[bcIndex[i].at],
      state: made.scalar[bcIndex[i].state],
    })),
    constraintOf: (k) => {
      if (!constraints.has(k)) constraints.set(k, buildConstraint(k));
      return constraints.get(k)!;
    },
    parameters: (overrides) => parameterValues(system, overrides),
    parametersExpr: (e, p) => {
      const values = new Map(system.parameters.map((q, i) => [q.name, p[i]]));
      return evaluate(e, (k) => values.get(k));
    },
    jacobian: () => (jacobian ??= compileJacobian(system, stateNames, em)),
    closedForm: () => (closedForm ??= compileClosedForm(system, structureOf(system), em)),
    // a getter, so that compiling a model does not differentiate it: only printing does
    get source() {
      const closed = structureOf(system).closedForm
        ? `\n\n// Closed forms of the analytic path (every part is a polynomial in the independent variable)\n\n${this.closedForm().source}`
        : '';
      return `${source}\n\n// Jacobian (compiled on first use by the implicit methods)\n\n${this.jacobian().source}${closed}`;
    },
  };
}

/** Parameter values in declaration order; each may use the ones before it. Set-up only. */
export function parameterValues(system: FirstOrderSystem, overrides?: ReadonlyMap<string, number>): Float64Array {
  const values = new Map<string, number>();
  const out = new Float64Array(system.parameters.length);
  system.parameters.forEach((p, i) => {
    const v = overrides?.has(p.name) ? overrides.get(p.name)! : evaluate(p.value, (k) => values.get(k));
    values.set(p.name, v);
    out[i] = v;
  });
  return out;
}

/** The targets that every assignment of the model writes by adding to them (see addedTo). */
function accumulatorsOf(system: FirstOrderSystem): Set<string> {
  const adding = new Set<string>(),
    other = new Set<string>();
  for (const ev of system.events)
    for (const a of ev.actions) {
      if (a.kind !== 'assign') continue;
      if (addedTo(a.target, a.value)) adding.add(a.target);
      else other.add(a.target);
    }
  for (const t of other) adding.delete(t);
  return adding;
}

/**
 * What an assignment `v := v + term` (or `term + v`, or `v - term`) adds to its own target,
 * and how; null for any other assignment. The term must not read v again.
 */
function addedTo(target: string, value: Expr): { term: Expr; op: '+=' | '-=' } | null {
  if (value.kind !== 'binary' || (value.op !== '+' && value.op !== '-')) return null;
  const isTarget = (e: Expr) => e.kind === 'name' && e.name === target;
  let term: Expr | null = null;
  if (isTarget(value.left)) term = value.right;
  else if (value.op === '+' && isTarget(value.right)) term = value.left;
  if (term === null || references(term).has(target)) return null;
  return { term, op: value.op === '-' && term === value.right ? '-=' : '+=' };
}
