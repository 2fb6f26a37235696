/**
 * Expressions to JavaScript: each name becomes its array slot (`y[3]`, `p[0]`, `d[1]`, `t`) or
 * the local of a named value, numbers are printed from doubles, relations and `step`/`sign`
 * read their locked switch (`sw[k]`) where asked, and only whitelisted Math functions are
 * called, so no text of the model reaches the generated code. Also: the degree of an
 * expression in the states (is a watched function affine?) and a bound on the magnitudes its
 * evaluation adds up (the scale of its rounding).
 */
import type { Expr } from '../expression/ast.js';
import { differentiateAlong, firstReference, sub, substitute, walk } from '../expression/expr.js';
import type { FirstOrderSystem } from '../transform/system.js';
import { switchKey } from '../transform/transform.js';
import { foldSum, MIN_SUM_TERMS } from './loops.js';

/** the ulps that magnitudes are taken times where they bound a rounding (emit-flow's ULPS) */
const MAGNITUDE_ULPS = literal(8 * Number.EPSILON);

/**
 * Running error bounds (Higham, Accuracy and Stability of Numerical Algorithms, 3.3): for a
 * computed value v of an operation on computed operands va, vb whose own errors (against the
 * same expression in exact arithmetic on the same inputs) are at most ea, eb, a bound on
 * v's error: the operation's rounding, at most half an ulp of v in round-to-nearest (U |v|,
 * U = 2^-53, plus 2^-1074 where an underflowing product or quotient loses to the subnormal
 * grid), plus what the operands' errors become through it (a sum passes them on, a product
 * takes them times the other factor, a function times its slope over the operand's interval).
 * The library functions exp, log, sin, cos and pow are taken within 1 ulp of their exact
 * value (EPS |v|: fdlibm's documented accuracy, which V8 and SpiderMonkey use); sinh, cosh,
 * tanh and atan within 2. Each helper is a rigorous bound given those; the caller multiplies
 * the whole by 1 + 1e-9 for the rounding of the bound's own arithmetic.
 */
const U = literal(2 ** -53),
  EPS = literal(Number.EPSILON);
export const RUNNING_ERROR_HELPERS: readonly string[] = [
  `const reAdd = (vp, ea, eb) => ea + eb + ${U} * Math.abs(vp);`,
  `const reMul = (vp, va, ea, vb, eb) => Math.abs(va) * eb + Math.abs(vb) * ea + ea * eb + ${U} * Math.abs(vp) + 5e-324;`,
  // |a'/b' - a/b| <= (ea + |a'/b'| eb) / (|b'| - eb); unbounded where b' is within its error of 0
  `const reDiv = (vp, va, ea, vb, eb) => { const b = Math.abs(vb) - eb; return b > 0 ? (ea + Math.abs(vp) * (1 + ${EPS}) * eb) / b + ${U} * Math.abs(vp) + 5e-324 : Infinity; };`,
  // x^n for a whole n >= 2 computed with r roundings: n (|x'| + e)^(n-1) e by the mean value theorem
  `const rePowN = (vp, va, ea, n, r) => n * Math.pow(Math.abs(va) + ea, n - 1) * ea + r * ${U} * Math.abs(vp) + 5e-324;`,
  // x^p, p a constant: |p| max(xi^(p-1)) e over [x' - e, x' + e] where that lies above 0; else the fallback
  `const rePowP = (vp, va, ea, p, fallback) => va - ea > 0 ? Math.abs(p) * Math.max(Math.pow(va - ea, p - 1), Math.pow(va + ea, p - 1)) * ea + ${EPS} * Math.abs(vp) + 5e-324 : fallback;`,
  // |sqrt x' - sqrt x| <= min(e / sqrt x', sqrt e); sqrt is correctly rounded
  `const reSqrt = (vp, va, ea) => (ea === 0 ? 0 : Math.min(va > 0 ? ea / Math.sqrt(va) : Infinity, Math.sqrt(ea))) + ${U} * Math.abs(vp);`,
  // |e^x' - e^x| <= e^x' (e^e - 1)
  `const reExp = (vp, ea) => Math.abs(vp) * (1 + ${EPS}) * (${EPS} + Math.expm1(ea)) + 5e-324;`,
  // |log x' - log x| <= -log(1 - e/x')
  `const reLog = (vp, va, ea) => (ea === 0 ? 0 : va > ea ? -Math.log1p(-ea / va) : Infinity) + ${EPS} * Math.abs(vp) + 5e-324;`,
  // a function of slope at most L over the operand's interval, within k ulps
  `const reLip = (vp, ea, L, k) => L * ea + k * ${EPS} * Math.abs(vp) + 5e-324;`,
];

/**
 * What every generated source defines before the emitted code, which calls these by name:
 * small powers as products, and the magnitudes of a product and of a whole power (see
 * productMagnitude). As functions, each operand's text appears once: written out, the
 * magnitude of a product named each factor's three times, and a product of 16 factors came
 * to 3^15 copies ("Invalid string length").
 */
export const PRELUDE: readonly string[] = [
  '"use strict";',
  'const sq = (x) => x * x;',
  'const cube = (x) => x * x * x;',
  // (a watched function standing for a jump at its switch: off zero, on the jump's side, where it is exactly zero)
  'const onSide = (va, vb) => (va === 0 ? vb * 5e-324 : va);',
  `const magProduct = (va, ma, vb, mb) => Math.min(ma * mb, (va + ${MAGNITUDE_ULPS} * ma) * mb + vb * ma + va * vb);`,
  `const magPower = (vp, va, ma, k) => Math.min(vp + ma, k * ma * Math.pow(va + ${MAGNITUDE_ULPS} * ma, k - 1) + vp);`,
  ...RUNNING_ERROR_HELPERS,
];

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

export function literal(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '(-Infinity)';
  const s = String(v);
  return v < 0 || Object.is(v, -0) ? `(${s})` : s;
}

/**
 * How relations, `step` and `sign` read: `direct` on the values given; `locked` their locked
 * switch where the right-hand side has one; `before` as locked, and the others (relations only
 * actions read) at their left limit: at their zero, within its rounding, the side the flow
 * comes from (an action at the instant x reaches 0.5 reads `x < 0.5` as true, as every value
 * it reads is the one before the instant). `before` needs `t` and `dir` in scope.
 */
export type Mode = 'locked' | 'direct' | 'before';

/**
 * The generated helper of `before` relations: a number with the sign of a - b just before the
 * instant. At zero within 4 times 8 ulps of the magnitudes g adds up (the driver's band for
 * zero before its running bound, Emitter.rounding, and as wide or wider where states are
 * summed), or within the rounding of t at its rate, the side the motion
 * comes from (the run's direction `dir`); elsewhere, and where the rate is zero, the
 * comparison itself (NaN where it has none).
 */
export const LEFT_SIDE_HELPER = `const leftSide = (a, b, r, m, t, dir) => {
  const g = a - b;
  if (r !== 0 && r === r && Math.abs(g) <= ${literal(32 * Number.EPSILON)} * m + ${literal(4 * Number.EPSILON)} * Math.abs(t * r)) return -dir * r;
  return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
};`;

export class Emitter {
  private readonly slot = new Map<string, string>();
  private readonly named = new Map<string, { index: number; expr: Expr }>();
  private readonly switchIndex = new Map<string, number>();
  /** the named values' definitions and the states' right-hand sides, for the rates of `before` relations */
  private namedExprs: Map<string, Expr> | undefined;
  private rhsOf: Map<string, Expr> | undefined;
  private readonly system: FirstOrderSystem;

  constructor(system: FirstOrderSystem, stateNames: string[], discreteNames: string[], paramNames: string[]) {
    this.system = system;
    stateNames.forEach((n, i) => this.slot.set(n, `y[${i}]`));
    discreteNames.forEach((n, i) => this.slot.set(n, `d[${i}]`));
    paramNames.forEach((n, i) => this.slot.set(n, `p[${i}]`));
    this.slot.set(system.independent, 't');
    system.namedValues.forEach((v, i) => this.named.set(v.name, { index: i, expr: v.expr }));
    system.switching.forEach((s, i) => this.switchIndex.set(switchKey(s), i));
  }

  /** `const vK = ...;` lines for the named values `exprs` need, in dependency order. */
  prelude(exprs: Expr[], mode: Mode): string {
    if (this.named.size === 0) return '';
    // (named values are plain names: a derivative never is one)
    const needed: { index: number; expr: Expr }[] = [];
    const seen = new Set<string>();
    // (with a stack: a chain of 1e4 named values, a2 = a1 + 1, ..., is 1e4 deep)
    const pending = exprs.slice();
    const visit = (n: Expr) => {
      if (n.kind !== 'name' || seen.has(n.name)) return;
      const v = this.named.get(n.name);
      if (v === undefined) return;
      seen.add(n.name);
      needed.push(v);
      pending.push(v.expr);
    };
    for (let e = pending.pop(); e !== undefined; e = pending.pop()) walk(e, visit);
    if (needed.length === 0) return '';
    // in definition order (the named values are ordered by dependency), without scanning all
    // of them for every small function of a model with a thousand; (a plain loop: the array
    // methods here went back and forth between an empty and a filled list's map, 1935
    // deoptimisations on a row of 1024 spheres)
    needed.sort((a, b) => a.index - b.index);
    let lines = '';
    for (const v of needed) lines += this.namedValue(v.index, v.expr, mode);
    return lines;
  }

  /** The statement(s) of named value `vK`: a long sum as loops that add its terms (loops.ts). */
  private namedValue(index: number, e: Expr, mode: Mode): string {
    const terms = sumTerms(e);
    if (terms !== null) {
      // (built in sK: vK is a const, declared once the sum is complete)
      const folded = foldSum(
        `s${index}`,
        terms.map((t) => this.expr(t, mode)),
      );
      if (folded !== null) return `${folded}  const v${index} = s${index};\n`;
    }
    return `  const v${index} = ${this.expr(e, mode)};\n`;
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
            return this.productMagnitude(e.left, e.right, mode);
          case '/':
            return `(${m(e.left)} / Math.abs(${this.expr(e.right, mode)}))`;
          case '^':
            return this.powerMagnitude(e, mode);
          default:
            return '0';
        }
      case 'if':
        return `(${this.expr(e.condition, mode)} !== 0 ? ${m(e.then)} : ${m(e.otherwise)})`;
      default:
        return `(Math.abs(${this.expr(e, mode)})${e.kind === 'call' ? e.args.map((a) => ` + ${m(a)}`).join('') : ''})`;
    }
  }

  /**
   * Code for a bound on the rounding of e as evaluated (EVENTS.md 1): its running error bound
   * (RUNNING_ERROR_HELPERS), the error of each computed operation on top of what its operands'
   * errors become through it. Numbers, parameters and discrete variables are exact inputs and
   * carry none. A state and the independent variable carry 8 ulps of their value, as in the
   * magnitudes' bound: they are sums a stepper accumulated, many ulps off the exact flow's
   * values by rounding alone (radau5 ends x' = 3 on [0, 1] at 3 - 8 ulps, and a delta(x - 3)
   * there must still count: tests/range-ends; x = u + S lifted onto zero by a delta's jump is
   * u's residue, 19 ulps of 0.5 on dop853: tests/round10-zerorate). Half an ulp, the rounding
   * of their last operation, lost both. So u - exp(k eps) is bounded by 9 eps (u's 8 ulps
   * and exp's one), where 8 ulps of the magnitudes it adds, |u| + |c|, made 16 eps: c is an
   * exact function of exact inputs and the subtraction is exact. What has no bound here
   * (tan, asin, acos, atan2, the jumps of step and sign, a power with a varying exponent)
   * takes the magnitudes' bound, 8 ulps of magnitude(e), as before.
   */
  rounding(e: Expr, mode: Mode): string {
    return `(${literal(1 + 1e-9)} * ${this.runningError(e, mode)})`;
  }

  private runningError(e: Expr, mode: Mode): string {
    const r = (a: Expr) => this.runningError(a, mode),
      x = (a: Expr) => this.expr(a, mode);
    const fallback = () => `(${MAGNITUDE_ULPS} * ${this.magnitude(e, mode)})`;
    switch (e.kind) {
      case 'number':
        return '0';
      case 'name': {
        const named = this.named.get(e.name);
        if (named) {
          // (a long sum is added left to right by loops, not as written: a bound for any order,
          // n U sum |t_i| plus the terms' own errors)
          const terms = sumTerms(named.expr);
          if (terms !== null && terms.length > 0)
            return `(${terms.map(r).join(' + ')} + ${literal(terms.length * 2 ** -53 * (1 + 1e-6))} * (${terms.map((t) => `Math.abs(${x(t)})`).join(' + ')}))`;
          return r(named.expr);
        }
        const s = this.slot.get(e.name);
        return s === 't' || s?.startsWith('y[') ? `(${MAGNITUDE_ULPS} * Math.abs(${s}))` : '0';
      }
      case 'unary':
        return e.op === 'not' ? '0' : r(e.operand);
      case 'binary':
        switch (e.op) {
          case '+':
          case '-':
            return `reAdd(${x(e)}, ${r(e.left)}, ${r(e.right)})`;
          case '*':
            return `reMul(${x(e)}, ${x(e.left)}, ${r(e.left)}, ${x(e.right)}, ${r(e.right)})`;
          case '/':
            return `reDiv(${x(e)}, ${x(e.left)}, ${r(e.left)}, ${x(e.right)}, ${r(e.right)})`;
          case '^': {
            const p = e.right;
            if (p.kind !== 'number') return fallback();
            const n = p.value;
            // (as power() computes them: sq, cube, sq(sq), sqrt, 1/b, b, Math.pow)
            if (n === 1) return r(e.left);
            if (n === 0.5) return `reSqrt(${x(e)}, ${x(e.left)}, ${r(e.left)})`;
            if (n === 2 || n === 3 || n === 4)
              return `rePowN(${x(e)}, ${x(e.left)}, ${r(e.left)}, ${n}, ${n === 2 ? 1 : 2})`;
            if (Number.isInteger(n) && n > 4) return `rePowN(${x(e)}, ${x(e.left)}, ${r(e.left)}, ${n}, 2)`;
            return `rePowP(${x(e)}, ${x(e.left)}, ${r(e.left)}, ${literal(n)}, ${fallback()})`;
          }
          default:
            // relations and logic: exact 0 or 1
            return '0';
        }
      case 'if':
        return `(${x(e.condition)} !== 0 ? ${r(e.then)} : ${r(e.otherwise)})`;
      case 'call': {
        const a = e.args;
        switch (e.name) {
          case 'exp':
            return `reExp(${x(e)}, ${r(a[0])})`;
          case 'log':
            return `reLog(${x(e)}, ${x(a[0])}, ${r(a[0])})`;
          case 'sqrt':
            return `reSqrt(${x(e)}, ${x(a[0])}, ${r(a[0])})`;
          case 'sin':
          case 'cos':
            return `reLip(${x(e)}, ${r(a[0])}, 1, 1)`;
          case 'atan':
          case 'tanh':
            return `reLip(${x(e)}, ${r(a[0])}, 1, 2)`;
          case 'sinh':
          case 'cosh':
            return `reLip(${x(e)}, ${r(a[0])}, Math.cosh(Math.abs(${x(a[0])}) + ${r(a[0])}), 2)`;
          case 'abs':
            return r(a[0]);
          case 'min':
          case 'max':
            return `Math.max(${a.map(r).join(', ')})`;
          default:
            return fallback();
        }
      }
      default:
        return fallback();
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
            if (mode !== 'direct') {
              const primitive = ({ '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' } as const)[e.op];
              const k = this.switchIndex.get(switchKey({ primitive, g: sub(e.left, e.right) }));
              if (k !== undefined) return `sw[${k}]`;
              if (mode === 'before') return `(${this.leftSide(e.left, e.right)} ${e.op} 0 ? 1 : 0)`;
            }
            return `(${a} ${e.op} ${b} ? 1 : 0)`;
          }
        }
      }
      case 'if':
        return `(${x(e.condition)} !== 0 ? ${x(e.then)} : ${x(e.otherwise)})`;
      case 'call': {
        if ((e.name === 'step' || e.name === 'sign') && mode !== 'direct') {
          const k = this.switchIndex.get(switchKey({ primitive: e.name, g: e.args[0] }));
          if (k !== undefined) return `sw[${k}]`;
          if (mode === 'before') {
            const zero: Expr = { kind: 'number', value: 0, span: e.span };
            const side = this.leftSide(e.args[0], zero);
            return e.name === 'step' ? `(${side} >= 0 ? 1 : 0)` : `Math.sign(${side})`;
          }
        }
        if (e.name === 'step') return `(${x(e.args[0])} >= 0 ? 1 : 0)`;
        const fn = MATH[e.name];
        if (!fn) throw new Error('internal: a function outside the whitelist reached the compiler');
        return `${fn}(${e.args.map(x).join(', ')})`;
      }
    }
  }

  /** `leftSide(...)` of the relation between a and b (see LEFT_SIDE_HELPER), in mode `before`. */
  private leftSide(a: Expr, b: Expr): string {
    const g = sub(a, b);
    const m = (e: Expr) => this.expr(e, 'before');
    return `leftSide(${m(a)}, ${m(b)}, ${m(this.rateOf(g))}, ${this.magnitude(g, 'before')}, t, dir)`;
  }

  /**
   * dg/dt along the flow: the chain rule through the states' right-hand sides, with every named
   * value written out (the body's prelude has only the named values its own expressions read).
   */
  private rateOf(g: Expr): Expr {
    const sys = this.system;
    const named = (this.namedExprs ??= new Map(sys.namedValues.map((v) => [v.name, v.expr])));
    const rhs = (this.rhsOf ??= new Map(sys.equations.map((q) => [q.state, q.rhs])));
    const inline = (e: Expr): Expr => {
      for (let i = 0; i <= named.size && firstReference(e, (k) => named.has(k)) !== undefined; i++)
        e = substitute(e, named);
      return e;
    };
    return inline(differentiateAlong(inline(g), (key) => (key === sys.independent ? 1 : rhs.get(key))));
  }

  /**
   * The magnitude of a*b: m(a)·m(b), or, where that is less, the first-order propagation
   * (|a| + U m(a))·m(b) + |b|·m(a) + |ab| (U: the 8 ulps the magnitudes are taken times).
   * Both bound its rounding; the second is far smaller where both factors cancel inside,
   * (x - 1)*(x - 1) near x = 1, whose rounding is 4 ulps of |x - 1|, not 4.
   */
  private productMagnitude(a: Expr, b: Expr, mode: Mode): string {
    const ma = this.magnitude(a, mode),
      mb = this.magnitude(b, mode);
    return `magProduct(Math.abs(${this.expr(a, mode)}), ${ma}, Math.abs(${this.expr(b, mode)}), ${mb})`;
  }

  /**
   * The magnitude of a^p: |a^p| + m(a) (the argument's rounding with a slope of order one);
   * for a whole exponent n >= 2, where it is less, the first-order propagation
   * n·m(a)·(|a| + U m(a))^(n-1) + |a|^n: a triple zero, (x - 1)^3 or x^3 at x = 0, has a
   * rounding of the order of its value, where |a^p| + m(a) called it zero 4e-6 from the root.
   */
  private powerMagnitude(e: Expr & { kind: 'binary' }, mode: Mode): string {
    const base = e.left,
      exponent = e.right;
    const mb = this.magnitude(base, mode);
    const vp = `Math.abs(${this.expr(e, mode)})`;
    if (exponent.kind !== 'number' || !Number.isInteger(exponent.value) || exponent.value < 2) return `(${vp} + ${mb})`;
    return `magPower(${vp}, Math.abs(${this.expr(base, mode)}), ${mb}, ${literal(exponent.value)})`;
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

/** The terms of e, a tree of `+` with at least MIN_SUM_TERMS of them, left to right; null otherwise. */
function sumTerms(e: Expr): Expr[] | null {
  if (e.kind !== 'binary' || e.op !== '+') return null;
  // (with a stack: a sum written out term by term is a chain as deep as it is long)
  const terms: Expr[] = [];
  const pending: Expr[] = [e];
  for (let x = pending.pop(); x !== undefined; x = pending.pop()) {
    if (x.kind === 'binary' && x.op === '+') pending.push(x.right, x.left);
    else terms.push(x);
  }
  return terms.length >= MIN_SUM_TERMS ? terms : null;
}
