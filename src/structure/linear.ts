/**
 * Linear segments (issue 24): a component whose right-hand sides are affine in states with
 * coefficients that are constant between events (parameters, step and discrete variables),
 *
 *     x' = A x + b,
 *
 * has the segment x(h) = exp(A h) x0 + ∫_0^h exp(A s) b ds. The test is symbolic and exact:
 * every partial derivative of every right-hand side by a state must read no state and not the
 * independent variable, and so must what is left with the states at zero (b). Both are then
 * functions of the constants only, which the compiler emits as the block's matrix.
 *
 * A state event whose function is affine in the states of one linear block (a threshold
 * `V - Vth`, a wall `x - wall`) has the gradient and constant part found the same way: along
 * the segment it is a sum of exponentials times polynomials and sines, whose crossings the
 * analytic path isolates with a certificate.
 */
import type { Expr } from '../expression/ast.js';
import {
  add,
  constantValue,
  div,
  mul,
  name,
  neg,
  num,
  references,
  simplify,
  sub,
  substitute,
  toText,
} from '../expression/expr.js';
import type { FirstOrderSystem } from '../transform/system.js';
import type { Component } from './structure.js';

/** The largest linear block kept in closed form (its matrix exponential costs n³ per segment). */
export const MAX_LINEAR = 16;

export interface LinearSystem {
  /** the block's states (system order) */
  states: number[];
  /** matrix[i][j] = ∂ rhs(states[i]) / ∂ states[j], constant between events */
  matrix: Expr[][];
  /** the right-hand sides with every state of the block at zero */
  inhomogeneous: Expr[];
}

export interface LinearFunction {
  /** the states it reads (system order) and its partial derivative by each */
  states: number[];
  gradient: Expr[];
  /** its value with those states at zero */
  constant: Expr;
}

/** Named values nested deeper than this are not inlined (a chain of 1e4 of them would be 1e4 deep): not linear here. */
const MAX_INLINE = 32;

/**
 * Inlines the named values (algebraic variables) of an expression, so that the affine form
 * sees the states they hide; null when they nest deeper than `depth` (MAX_INLINE).
 */
export function inlineNamed(e: Expr, named: ReadonlyMap<string, Expr>, depth = MAX_INLINE): Expr | null {
  let out = e;
  for (let guard = 0; guard <= depth; guard++) {
    const refs = references(out);
    if (![...refs].some((k) => named.has(k))) return out;
    out = substitute(out, named);
  }
  return null;
}

/** An affine form: a coefficient per state (absent: 0) and what is left. */
interface Affine {
  coef: Map<string, Expr>;
  rest: Expr;
}

/**
 * The affine form of e in the states `allowed` (names), or why it has none. `moving` names
 * every state and the independent variable: a coefficient that reads one is not constant.
 * Decomposed by the structure of e (sums, products and quotients by constants, `if` on a
 * constant condition), so that the matrix reads as the model was written: -(V - EL)/tau
 * gives -1/tau and EL/tau.
 */
export function affineForm(
  e: Expr,
  allowed: readonly string[],
  moving: (name: string) => boolean,
): { gradient: Expr[]; constant: Expr } | { obstacle: string } {
  for (const k of references(e))
    if (moving(k) && !allowed.includes(k)) return { obstacle: `it reads ${k}, which is not part of a linear block` };
  const still = (x: Expr) => ![...references(x)].some(moving);
  const f = affine(e, new Set(allowed), still);
  if (typeof f === 'string') return { obstacle: f };
  return { gradient: allowed.map((x) => simplify(f.coef.get(x) ?? num(0))), constant: simplify(f.rest) };
}

function affine(e: Expr, states: ReadonlySet<string>, still: (x: Expr) => boolean): Affine | string {
  if (still(e)) return { coef: new Map(), rest: e };
  const map = (a: Affine, op: (x: Expr) => Expr): Affine => ({
    coef: new Map([...a.coef].map(([k, v]) => [k, op(v)])),
    rest: op(a.rest),
  });
  const join = (a: Affine, b: Affine, op: (x: Expr, y: Expr) => Expr): Affine => {
    const coef = new Map<string, Expr>();
    for (const k of new Set([...a.coef.keys(), ...b.coef.keys()]))
      coef.set(k, op(a.coef.get(k) ?? num(0), b.coef.get(k) ?? num(0)));
    return { coef, rest: op(a.rest, b.rest) };
  };
  switch (e.kind) {
    case 'name':
      if (states.has(e.name)) return { coef: new Map([[e.name, num(1)]]), rest: num(0) };
      return `${e.name} moves`;
    case 'unary': {
      if (e.op === 'not') return `${toText(e)} is not linear`;
      const a = affine(e.operand, states, still);
      return typeof a === 'string' || e.op === '+' ? a : map(a, (x) => neg(x));
    }
    case 'binary': {
      const { left, right } = e;
      if (e.op === '+' || e.op === '-') {
        const a = affine(left, states, still),
          b = affine(right, states, still);
        if (typeof a === 'string') return a;
        if (typeof b === 'string') return b;
        return join(a, b, e.op === '+' ? (x, y) => add(x, y) : (x, y) => sub(x, y));
      }
      if (e.op === '*' && (still(left) || still(right))) {
        const [c, v] = still(left) ? [left, right] : [right, left];
        const a = affine(v, states, still);
        return typeof a === 'string' ? a : map(a, (x) => (still(left) ? mul(c, x) : mul(x, c)));
      }
      if (e.op === '/' && still(right)) {
        const a = affine(left, states, still);
        return typeof a === 'string' ? a : map(a, (x) => div(x, right));
      }
      if (e.op === '^' && constantValue(right) === 1) return affine(left, states, still);
      return `${toText(e)} is not linear in ${[...states].join(', ')}`;
    }
    case 'if': {
      if (!still(e.condition)) return `${toText(e.condition)} moves`;
      const a = affine(e.then, states, still),
        b = affine(e.otherwise, states, still);
      if (typeof a === 'string') return a;
      if (typeof b === 'string') return b;
      return join(a, b, (x, y) => (x === y ? x : { ...e, then: x, otherwise: y }));
    }
    default:
      return `${toText(e)} is not linear in ${[...states].join(', ')}`;
  }
}

/**
 * Whether a component the polynomial test refused is linear (components come in dependency
 * order, so those it reads are classified). On success its kind becomes 'linear' and its
 * reason null; otherwise it keeps the polynomial test's reason.
 */
export function classifyLinear(
  stateIndex: ReadonlyMap<string, number>,
  c: Component,
  inlined: (s: number) => Expr | null,
  componentOf: Int32Array,
  components: readonly Component[],
  moving: (name: string) => boolean,
): void {
  if (c.states.length > MAX_LINEAR) return;
  const own = new Set(c.states);
  for (const s of c.states) {
    const rhs = inlined(s);
    if (!rhs) return;
    const allowed: string[] = [];
    for (const k of references(rhs)) {
      const x = stateIndex.get(k);
      if (x === undefined) continue;
      // (a polynomial input joins the block, if it is affine itself: linearGroups decides)
      if (!own.has(x) && components[componentOf[x]].kind === 'numeric') return;
      allowed.push(k);
    }
    if ('obstacle' in affineForm(rhs, allowed, moving)) return;
  }
  c.kind = 'linear';
  c.reason = null;
}

/**
 * The matrix of each clock group of linear components (all of a group's components are then
 * linear: a polynomial one reads none, and a linear one reads no polynomial one). A group of
 * more than MAX_LINEAR states goes to the stepper, with the reason.
 */
export function linearGroups(
  sys: FirstOrderSystem,
  groups: { states: number[]; linear: LinearSystem | null }[],
  components: Component[],
  inlined: (s: number) => Expr | null,
  moving: (name: string) => boolean,
): void {
  // (an expression that is never affine: stands for a right-hand side too deep to inline)
  const t0 = name(sys.independent);
  const byGroup = groups.map(() => [] as Component[]);
  for (const c of components) byGroup[c.group].push(c);
  groups.forEach((g, gi) => {
    const mine = byGroup[gi];
    if (!mine.some((c) => c.kind === 'linear')) return;
    const names = g.states.map((s) => sys.states[s].name);
    // polynomial inputs (v' = -g read by a spring, a ramp v' = 1 driving a circuit) join the
    // block when their right-hand sides are affine too (not when they read t itself)
    const input = mine.find(
      (c) => c.kind === 'polynomial' && c.states.some((s) => 'obstacle' in affineForm(inlined(s) ?? t0, names, moving)),
    );
    const numeric = mine.some((c) => c.kind === 'numeric');
    if (numeric || input || g.states.length > MAX_LINEAR) {
      for (const c of mine)
        if (c.kind === 'linear') {
          c.kind = 'numeric';
          c.reason =
            g.states.length > MAX_LINEAR
              ? `a linear block of ${g.states.length} states, above ${MAX_LINEAR}: integrated numerically`
              : input
                ? `it is linear, but reads ${input.states.map((s) => sys.states[s].name).join(', ')}, a polynomial in ${sys.independent} not affine in the states: not yet in closed form`
                : `it is linear, but shares its clock with parts integrated numerically`;
        }
      return;
    }
    for (const c of mine) {
      c.kind = 'linear';
      c.degree = -1;
    }
    const matrix: Expr[][] = [];
    const inhomogeneous: Expr[] = [];
    for (const s of g.states) {
      const f = affineForm(inlined(s)!, names, moving);
      if ('obstacle' in f) throw new Error(`internal: ${names.join(', ')} classified linear, but ${f.obstacle}`);
      matrix.push(f.gradient);
      inhomogeneous.push(f.constant);
    }
    g.linear = { states: g.states.slice(), matrix, inhomogeneous };
  });
}

/**
 * A state event's function that reads a linear block: its affine form in that block's states,
 * or why it has none (it reads another part too, or is not affine in them).
 */
export function linearCondition(
  condition: Expr,
  readGroups: readonly number[],
  groups: readonly { states: number[]; linear: LinearSystem | null }[],
  named: ReadonlyMap<string, Expr>,
  sys: FirstOrderSystem,
  moving: (name: string) => boolean,
): LinearFunction | string {
  const text = toText(condition);
  if (readGroups.length > 1)
    return `its function ${text} reads more than one part (${readGroups.length} clock groups): not yet in closed form`;
  const g = groups[readGroups[0]];
  const names = g.states.map((s) => sys.states[s].name);
  const e = inlineNamed(condition, named);
  if (!e) return `its function ${text} reads named values nested too deep to see whether it is affine`;
  const f = affineForm(e, names, moving);
  if ('obstacle' in f) return `its function ${text} is not affine in ${names.join(', ')} (${f.obstacle})`;
  return { states: g.states.slice(), gradient: f.gradient, constant: f.constant };
}
