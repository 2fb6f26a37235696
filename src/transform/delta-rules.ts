/**
 * The delta identities, one named rule each (MODEL-LANGUAGE.md, "What a delta means").
 *
 * - `splitLinear`: an expression is regular part + sum of g_k * delta^(m_k)(u_k); deltas
 *   must enter linearly (no delta inside a function, squared, or times another delta).
 * - `classifyArgument`: time argument (rule 1), event time `t - E` or, delayed, `t - E - D`
 *   (rule 2), state argument (rule 3).
 * - `linearTimeArgument` (scaling rule): u = a t + b has the single root -b/a and
 *   delta^(m)(u) = delta^(m)(t - r) / (|a| a^m).
 * - `leibnizCoefficients` (rule 4): g delta^(m)(t - r) = sum_j (-1)^j C(m,j) g^(j)(r) delta^(m-j)(t - r).
 */
import type { CallNode, Expr } from '../expression/ast.js';
import type { ErrorReporter } from '../expression/errors.js';
import {
  add,
  constantValue,
  differentiate,
  div,
  mul,
  neg,
  num,
  pow,
  references,
  simplify,
  substitute,
  sub,
  toText,
  walk,
} from '../expression/expr.js';

export interface DeltaTerm {
  /** the weight g (no delta in it) */
  weight: Expr;
  /** derivative order of the delta: 0 for delta, 1 for delta' */
  order: number;
  argument: Expr;
  call: CallNode;
  /** the term as written, with the sign it has in its sum (`-2*delta(t - 1)` in `1 - 2*delta(t - 1)`) */
  written: Expr;
  /** `written` as text, for the ledger and `transform` */
  source: string;
}

/**
 * -w for a term as written: the minus on the leftmost factor of a product or quotient, so that
 * `2*delta(t - 1)` reads `-2*delta(t - 1)` (the same value as -(2*delta(t - 1))), and a written
 * minus taken off rather than doubled. Iterative along the left spine of the product.
 */
export function negateWritten(w: Expr): Expr {
  const spine: Expr[] = [];
  let e = w;
  while (e.kind === 'binary' && (e.op === '*' || e.op === '/')) {
    spine.push(e);
    e = e.left;
  }
  let out: Expr = e.kind === 'unary' && e.op === '-' ? e.operand : { kind: 'unary', op: '-', operand: e, span: e.span };
  for (let i = spine.length - 1; i >= 0; i--) out = { ...(spine[i] as Extract<Expr, { kind: 'binary' }>), left: out };
  return out;
}

export interface LinearSplit {
  regular: Expr;
  terms: DeltaTerm[];
}

/**
 * Adds to `into` every node of e that has a delta call in it (e itself included), and says
 * whether e has one. One walk for the whole split: asking each level of a sum whether its
 * sides have a delta walked every subtree again at each level above it.
 */
function markDeltas(e: Expr, into: Set<Expr>): boolean {
  let found = false;
  switch (e.kind) {
    case 'call':
      found = e.name === 'delta';
      for (const a of e.args) found = markDeltas(a, into) || found;
      break;
    case 'unary':
      found = markDeltas(e.operand, into);
      break;
    case 'binary':
      found = markDeltas(e.left, into);
      found = markDeltas(e.right, into) || found;
      break;
    case 'if':
      found = markDeltas(e.condition, into);
      found = markDeltas(e.then, into) || found;
      found = markDeltas(e.otherwise, into) || found;
      break;
    default:
      break;
  }
  if (found) into.add(e);
  return found;
}

function firstDelta(e: Expr): CallNode | null {
  let found: CallNode | null = null;
  walk(e, (n) => {
    if (!found && n.kind === 'call' && n.name === 'delta') found = n;
  });
  return found;
}

/** Rule "linearity": regular part and delta terms of e, or a ModelError at the offending delta. */
export function splitLinear(e: Expr, r: ErrorReporter): LinearSplit {
  const withDelta = new Set<Expr>();
  if (!markDeltas(e, withDelta)) return { regular: e, terms: [] };
  const s = split(e, r, withDelta);
  // (each term's text once, at the top: printed at every level of the sum, it was a fifth
  // of the transform of a row of 1024 spheres)
  return s.terms.length === 0 ? s : { ...s, terms: s.terms.map((t) => ({ ...t, source: toText(t.written) })) };
}

/**
 * splitLinear without the terms' texts (`source` is filled in at the top); `withDelta` holds
 * the nodes of e that have a delta in them (markDeltas).
 */
function split(e: Expr, r: ErrorReporter, withDelta: ReadonlySet<Expr>): LinearSplit {
  const hasDelta = (x: Expr) => withDelta.has(x);
  if (!hasDelta(e)) return { regular: e, terms: [] };
  // f applied to the regular part and to each weight, and each term as written in e (one
  // copy of each term per level: a copy for the weight, then one for the written form, made
  // two objects per term at every level of every equation)
  const scale = (s: LinearSplit, f: (w: Expr) => Expr, written: (t: DeltaTerm) => Expr): LinearSplit => ({
    regular: f(s.regular),
    terms: s.terms.map((t) => ({ ...t, weight: f(t.weight), written: written(t) })),
  });
  switch (e.kind) {
    case 'call':
      if (e.name === 'delta') {
        if (hasDelta(e.args[0]))
          throw r.at(
            firstDelta(e.args[0])!.span,
            'a delta inside the argument of a delta',
            'A delta argument must be an ordinary function; deltas enter equations linearly.',
          );
        return {
          regular: num(0, e.span),
          terms: [
            {
              weight: num(1, e.span),
              order: e.derivativeOrder,
              argument: e.args[0],
              call: e,
              written: e,
              source: '',
            },
          ],
        };
      }
      throw r.at(
        firstDelta(e)!.span,
        `a delta inside ${e.name}(...) is not linear`,
        `Deltas must enter linearly: write g*delta(u) as a term of the equation, not inside ${e.name}.`,
      );
    case 'unary':
      if (e.op === '-') {
        // -(J*delta(t - hit)) is one term as written; in -(a - J*delta(...)) the term turns sign
        return scale(
          split(e.operand, r, withDelta),
          (w) => neg(w),
          (t) => (t.written === e.operand ? e : negateWritten(t.written)),
        );
      }
      if (e.op === '+') return split(e.operand, r, withDelta);
      break;
    case 'binary': {
      const l = hasDelta(e.left),
        rt = hasDelta(e.right);
      if (e.op === '+' || e.op === '-') {
        const a = split(e.left, r, withDelta),
          b = split(e.right, r, withDelta);
        return {
          regular: e.op === '+' ? add(a.regular, b.regular, e.span) : sub(a.regular, b.regular, e.span),
          // (a term after a minus is written with it: 1 - 2*delta(t - 1) has the term -2*delta(t - 1))
          terms: [
            ...a.terms,
            ...b.terms.map((t) =>
              e.op === '-' ? { ...t, weight: neg(t.weight), written: negateWritten(t.written) } : t,
            ),
          ],
        };
      }
      if (e.op === '*') {
        if (l && rt)
          throw r.at(
            firstDelta(e.right)!.span,
            'a product of two deltas',
            'Deltas must enter linearly; a product of deltas has no meaning as a function.',
          );
        const side = l ? e.left : e.right;
        const parts = split(side, r, withDelta);
        const other = l ? e.right : e.left;
        return scale(
          parts,
          (w) => (l ? mul(w, other, e.span) : mul(other, w, e.span)),
          (t) => factorWritten(e, side, t.written),
        );
      }
      if (e.op === '/' && l && !rt) {
        return scale(
          split(e.left, r, withDelta),
          (w) => div(w, e.right, e.span),
          (t) => factorWritten(e, e.left, t.written),
        );
      }
      if (e.op === '/' && rt)
        throw r.at(
          firstDelta(e.right)!.span,
          'a delta in a denominator is not linear',
          'Deltas must enter linearly: multiply through, or move the delta to a term of its own.',
        );
      if (e.op === '^')
        throw r.at(
          firstDelta(e)!.span,
          'a power of a delta is not linear',
          'Deltas must enter linearly: delta(u)^2 has no meaning as a function.',
        );
      break;
    }
    default:
      break;
  }
  throw r.at(
    firstDelta(e)!.span,
    `a delta inside ${e.kind === 'if' ? 'an if expression' : 'a relation or logical expression'} is not linear`,
    'Deltas must enter linearly, as terms g*delta(u) of the equation.',
  );
}

/**
 * The term as written in the product or quotient e of `side` (the factor with the delta) and
 * the other factor: e itself where the whole factor is the term (`2*delta(t - 1)`), else the
 * other factor times the term alone (`2*(1 - delta(t - 1))` has the term `2*(-delta(t - 1))`,
 * printed `-2*delta(t - 1)`: the minus taken outside).
 */
function factorWritten(e: Extract<Expr, { kind: 'binary' }>, side: Expr, term: Expr): Expr {
  if (term === side) return e;
  const negative = term.kind === 'unary' && term.op === '-';
  const bare = negative ? term.operand : term;
  const product: Expr = side === e.left ? { ...e, left: bare } : { ...e, right: bare };
  return negative ? negateWritten(product) : product;
}

export type ArgumentClass =
  | { kind: 'time' }
  | { kind: 'event'; event: string }
  /** `t - E - D`: each occurrence of E acts again D later (D of parameters, positive) */
  | { kind: 'delayed'; event: string; delay: Expr }
  | { kind: 'state' };

/** Rules 1-3: what the argument of a delta depends on. */
export function classifyArgument(
  term: DeltaTerm,
  independent: string,
  kinds: ReadonlyMap<string, string>,
  r: ErrorReporter,
): ArgumentClass {
  const refs = references(term.argument);
  const events: string[] = [];
  for (const n of refs) if (kinds.get(n) === 'event') events.push(n);
  if (events.length > 0) {
    const u = term.argument;
    const isDifference =
      u.kind === 'binary' &&
      u.op === '-' &&
      ((u.left.kind === 'name' &&
        u.left.name === independent &&
        u.right.kind === 'name' &&
        kinds.get(u.right.name) === 'event') ||
        (u.right.kind === 'name' &&
          u.right.name === independent &&
          u.left.kind === 'name' &&
          kinds.get(u.left.name) === 'event'));
    if (isDifference) return { kind: 'event', event: events[0] };
    const delay = events.length === 1 ? delayOf(u, independent, events[0], kinds) : null;
    if (delay === null)
      throw r.at(
        term.call.span,
        `an event name can only be used as delta(${independent} - ${events[0]}), or delayed as delta(${independent} - ${events[0]} - D) with D made of parameters`,
        `Write delta(${independent} - ${events[0]}) for an impulse at each occurrence of ${events[0]}, delta(${independent} - ${events[0]} - d) for one d later.`,
      );
    const value = constantValue(delay);
    if (value === 0) return { kind: 'event', event: events[0] };
    if (value !== null && !(value > 0))
      throw r.at(
        term.call.span,
        `the delay of delta(${toText(u)}) after ${events[0]} is ${toText(delay)}: an impulse cannot act before the event that causes it`,
        `Write a positive delay, as in delta(${independent} - ${events[0]} - 2).`,
      );
    return { kind: 'delayed', event: events[0], delay };
  }
  // (a key with primes is a derivative, state-like; any other is a name as declared)
  let stateLike = false;
  for (const n of refs) {
    if (n.endsWith("'")) stateLike = true;
    else {
      const k = kinds.get(n);
      stateLike = k === 'state' || k === 'discrete' || k === 'algebraic' || k === 'situation';
    }
    if (stateLike) break;
  }
  if (stateLike) {
    if (term.order > 0) {
      throw r.at(
        term.call.span,
        'a derivative of a delta whose argument depends on the state is not supported',
        "Use delta(u) with a state argument, or a time argument for delta'.",
      );
    }
    return { kind: 'state' };
  }
  return { kind: 'time' };
}

/**
 * Rule 2, delayed: D where u = t - E - D (or its negative, as delta(E - t) is delta(t - E))
 * with D free of t and E and made of parameters and numbers only (constant over a run), else
 * null. u must have slope ±1 in t and the opposite in E, so that its root is t = E + D without
 * a scale (delta(2*(t - E - D)) is not this form).
 */
function delayOf(u: Expr, independent: string, event: string, kinds: ReadonlyMap<string, string>): Expr | null {
  const slope = constantValue(simplify(differentiate(u, independent)));
  if ((slope !== 1 && slope !== -1) || constantValue(simplify(differentiate(u, event))) !== -slope) return null;
  const at0 = substitute(
    u,
    new Map([
      [independent, num(0)],
      [event, num(0)],
    ]),
  );
  const delay = simplify(slope === 1 ? neg(at0) : at0);
  for (const n of references(delay)) {
    const k = kinds.get(n);
    if (k !== 'parameter' && k !== 'unknown' && k !== 'constant' && n !== 'pi') return null;
  }
  return delay;
}

/**
 * Scaling rule: if u is linear in the independent variable, u = a t + b with a free of t,
 * returns a and the root -b/a; otherwise null.
 */
export function linearTimeArgument(u: Expr, independent: string): { slope: Expr; root: Expr } | null {
  const a = simplify(differentiate(u, independent));
  if (references(a).has(independent)) return null;
  const b = simplify(substitute(u, new Map([[independent, num(0)]])));
  const va = constantValue(a),
    vb = constantValue(b);
  // Exact rational roots print as fractions (1/2), not as rounded decimals.
  const root =
    va !== null && vb !== null && Number.isInteger(va) && Number.isInteger(vb)
      ? va < 0
        ? div(num(vb), num(-va))
        : div(num(-vb), num(va))
      : simplify(div(neg(b), a));
  return { slope: a, root };
}

/** Binomial coefficient C(m, j) for the small m of delta derivatives. */
export function binomial(m: number, j: number): number {
  let c = 1;
  for (let i = 1; i <= j; i++) c = (c * (m - j + i)) / i;
  return c;
}

/**
 * Rule 4 (Leibniz): the coefficient of delta^(m-j)(t - r) in g delta^(m)(t - r), for j = 0..m:
 * (-1)^j C(m, j) g^(j). `derive` gives the total derivative with respect to the independent
 * variable (the chain rule through the states).
 */
export function leibnizCoefficients(weight: Expr, m: number, derive: (e: Expr) => Expr): Expr[] {
  const out: Expr[] = [];
  let g = weight;
  for (let j = 0; j <= m; j++) {
    const c = binomial(m, j) * (j % 2 === 0 ? 1 : -1);
    out.push(mul(num(c), g));
    if (j < m) g = derive(g);
  }
  return out;
}

/** 1/(|a| a^m): the factor of delta^(m)(a (t - r)) relative to delta^(m)(t - r). */
export function scalingFactor(slope: Expr, m: number): Expr {
  const c = constantValue(slope);
  if (c !== null) {
    const factor = Math.abs(c) * c ** m;
    const magnitude = Math.abs(factor);
    const positive = Number.isInteger(magnitude) ? div(num(1), num(magnitude)) : num(1 / magnitude);
    return factor < 0 ? neg(positive) : positive;
  }
  const abs: Expr = {
    kind: 'call',
    name: 'abs',
    derivativeOrder: 0,
    args: [slope],
    span: slope.span,
    nameSpan: slope.span,
  };
  return m === 0 ? div(num(1), abs) : div(num(1), mul(abs, pow(slope, num(m))));
}
