/**
 * State events are located where a function crosses zero. A condition with no such function
 * of its own is given one that is continuous and has its sign everywhere: the truth function
 * of a condition of relations, and the argument of the switch of a function that jumps across
 * zero (`step(x) - 0.5` stands as x). A function that jumps has no zero to stand at: its side
 * at an instant tells nothing of where it goes, so a ball bouncing on such a jump was taken
 * for a persisting contact, and its crossings were found by bisection alone.
 */
import type { Expr } from '../expression/ast.js';
import { call, mapExpr, neg, num, sub, walk } from '../expression/expr.js';
import { numericValue } from '../expression/evaluate.js';

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

/** Relations, and with the words that join them, what makes a condition a truth value. */
const RELATIONS = new Set(['<', '<=', '>', '>=', '==', '!=']);
const LOGIC = new Set([...RELATIONS, 'and', 'or']);
/** Functions with kinks or flat parts (max(h, 0) sits at zero), beside the switches. */
const KINKS = new Set(['max', 'min', 'abs']);

/** Whether a condition is a truth value: a relation, joined by and, or, not, or a situation. */
export function isBoolean(e: Expr, kinds: ReadonlyMap<string, string>): boolean {
  if (e.kind === 'binary') return LOGIC.has(e.op);
  if (e.kind === 'unary') return e.op === 'not';
  if (e.kind === 'name') return kinds.get(e.name) === 'situation';
  return false;
}

/** Whether e has a switch in it: a relation, an if, step or sign (flat pieces with jumps between). */
export function hasSwitch(e: Expr): boolean {
  let found = false;
  walk(e, (n) => {
    if (n.kind === 'if' || (n.kind === 'call' && (n.name === 'step' || n.name === 'sign'))) found = true;
    if (n.kind === 'binary' && RELATIONS.has(n.op)) found = true;
  });
  return found;
}

/** Whether e has no switch, truth value or kink: its zeros are crossings or touches, never plateaus. */
function smooth(e: Expr): boolean {
  if (hasSwitch(e)) return false;
  let ok = true;
  walk(e, (n) => {
    if (
      (n.kind === 'call' && KINKS.has(n.name)) ||
      (n.kind === 'binary' && LOGIC.has(n.op)) ||
      (n.kind === 'unary' && n.op === 'not')
    )
      ok = false;
  });
  return ok;
}

/**
 * A continuous function with the sign of e, where e jumps across zero at its one switch and is
 * made of numbers elsewhere: `step(u) - 0.5` is u, `0.5 - step(u)` is -u, `sign(u)` is u,
 * `if x < 0 then -1 else 1` is x (the truth function of its one relation, or its negative),
 * with `zeroSide`, e's sign where the stand-in is exactly zero (step(0) = 1; an if at
 * equality takes its relation's branch; 0 where e is zero there too): an action that sets x
 * := 0 leaves step(x) - 0.5 at +0.5, no crossing (codegen/emit-flow.ts, onSide). The
 * switch's argument or relation must be smooth (no max, min, abs or switch in it, which could
 * rest at zero where the jump never comes). Null for anything else: a function that does not
 * change sign at its switch, or has more than one.
 */
export function jumpStandIn(e: Expr): { stand: Expr; zeroSide: number } | null {
  const switches: Expr[] = [];
  walk(e, (n) => {
    if (n.kind === 'if' || (n.kind === 'call' && (n.name === 'step' || n.name === 'sign'))) switches.push(n);
  });
  if (switches.length !== 1) return null;
  const s = switches[0];
  // e's value with the switch standing at v: null unless numbers alone are left around it
  const valueAt = (v: number) => numericValue(mapExpr(e, (n) => (n === s ? num(v) : undefined)));
  // (and e's value where the stand-in is exactly zero: step(0) = 1, sign(0) = 0, an if at
  // equality takes the branch its relation gives there)
  let stand: Expr, whereTrue: number | null, whereFalse: number | null, atZero: number | null;
  if (s.kind === 'call') {
    if (s.args.length !== 1 || !smooth(s.args[0])) return null;
    stand = s.args[0];
    // (step is 1 from its zero on, sign 1 above it: both positive where the argument is)
    whereTrue = valueAt(1);
    whereFalse = valueAt(s.name === 'step' ? 0 : -1);
    atZero = s.name === 'step' ? whereTrue : valueAt(0);
  } else if (s.kind === 'if') {
    const a = numericValue(s.then),
      b = numericValue(s.otherwise);
    // (one relation: at its zero, <= and >= hold, < and > do not)
    const c = s.condition;
    if (a === null || b === null || c.kind !== 'binary' || !['<', '<=', '>', '>='].includes(c.op)) return null;
    if (!smooth(c.left) || !smooth(c.right)) return null;
    const w = truthFunction(c, () => undefined);
    if (w === null) return null;
    stand = w;
    whereTrue = valueAt(a);
    whereFalse = valueAt(b);
    atZero = c.op === '<=' || c.op === '>=' ? whereTrue : whereFalse;
  } else return null;
  if (whereTrue === null || whereFalse === null || atZero === null) return null;
  const zeroSide = Math.sign(atZero);
  if (whereTrue > 0 && whereFalse < 0) return { stand, zeroSide };
  if (whereTrue < 0 && whereFalse > 0) return { stand: neg(stand, e.span), zeroSide };
  return null;
}
