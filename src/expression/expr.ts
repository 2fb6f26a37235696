/**
 * Algebra on expression trees: construction, printing (text, LaTeX), substitution,
 * partial derivatives and light simplification.
 *
 * The symbolic stage works on the parser's own nodes so that every derived expression keeps
 * a span pointing back at the text it came from; an error raised about a weight, a root or a
 * derivative can then show the user's own line. Exact root finding is delegated to
 * nerdamer-prime (see `roots.ts`); everything here is structural and predictable.
 */
import type { BinaryOp, Expr, Span } from './ast.js';

export const NO_SPAN: Span = Object.freeze({ start: 0, end: 0, line: 1, column: 1 });

// ---------------------------------------------------------------------------
// Construction (with folding of the trivial cases, so derived expressions stay readable)

export function num(value: number, span: Span = NO_SPAN): Expr {
  if (value < 0) return { kind: 'unary', op: '-', operand: { kind: 'number', value: -value, span }, span };
  return { kind: 'number', value, span };
}

export function name(n: string, span: Span = NO_SPAN): Expr {
  return { kind: 'name', name: n, span };
}

/** The numeric value of a constant expression (numbers and unary minus only), else null. */
export function constantValue(e: Expr): number | null {
  if (e.kind === 'number') return e.value;
  if (e.kind === 'unary' && e.op === '-') {
    const v = constantValue(e.operand);
    return v === null ? null : -v;
  }
  if (e.kind === 'unary' && e.op === '+') return constantValue(e.operand);
  return null;
}

export function add(a: Expr, b: Expr, span: Span = a.span): Expr {
  const va = constantValue(a),
    vb = constantValue(b);
  if (va === 0) return b;
  if (vb === 0) return a;
  if (va !== null && vb !== null) return num(va + vb, span);
  if (vb !== null && vb < 0) return { kind: 'binary', op: '-', left: a, right: num(-vb, b.span), span };
  if (b.kind === 'unary' && b.op === '-') return { kind: 'binary', op: '-', left: a, right: b.operand, span };
  return { kind: 'binary', op: '+', left: a, right: b, span };
}

export function sub(a: Expr, b: Expr, span: Span = a.span): Expr {
  const va = constantValue(a),
    vb = constantValue(b);
  if (vb === 0) return a;
  if (va === 0) return neg(b, span);
  if (va !== null && vb !== null) return num(va - vb, span);
  if (b.kind === 'unary' && b.op === '-') return add(a, b.operand, span);
  return { kind: 'binary', op: '-', left: a, right: b, span };
}

export function neg(a: Expr, span: Span = a.span): Expr {
  const va = constantValue(a);
  if (va !== null) return num(-va, span);
  if (a.kind === 'unary' && a.op === '-') return a.operand;
  return { kind: 'unary', op: '-', operand: a, span };
}

export function mul(a: Expr, b: Expr, span: Span = a.span): Expr {
  const va = constantValue(a),
    vb = constantValue(b);
  if (va === 0 || vb === 0) return num(0, span);
  if (va === 1) return b;
  if (vb === 1) return a;
  if (va === -1) return neg(b, span);
  if (vb === -1) return neg(a, span);
  if (va !== null && vb !== null) return num(va * vb, span);
  // Keep a minus sign outside, so that printed forms read -g*x rather than (-g)*x.
  if (a.kind === 'unary' && a.op === '-') return neg(mul(a.operand, b, span), span);
  if (b.kind === 'unary' && b.op === '-') return neg(mul(a, b.operand, span), span);
  return { kind: 'binary', op: '*', left: a, right: b, span };
}

export function div(a: Expr, b: Expr, span: Span = a.span): Expr {
  const va = constantValue(a),
    vb = constantValue(b);
  if (va === 0) return num(0, span);
  if (vb === 1) return a;
  if (vb === -1) return neg(a, span);
  if (va !== null && vb !== null && vb !== 0 && Number.isInteger(va / vb)) return num(va / vb, span);
  if (a.kind === 'unary' && a.op === '-') return neg(div(a.operand, b, span), span);
  return { kind: 'binary', op: '/', left: a, right: b, span };
}

export function pow(a: Expr, b: Expr, span: Span = a.span): Expr {
  const vb = constantValue(b);
  if (vb === 0) return num(1, span);
  if (vb === 1) return a;
  const va = constantValue(a);
  if (va !== null && vb !== null) return num(va ** vb, span);
  return { kind: 'binary', op: '^', left: a, right: b, span };
}

export function call(fn: string, args: Expr[], span: Span = args[0]?.span ?? NO_SPAN): Expr {
  return { kind: 'call', name: fn, derivativeOrder: 0, args, span, nameSpan: span };
}

// ---------------------------------------------------------------------------
// Inspection

/** Visits every node, parents before children. */
export function walk(e: Expr, visit: (node: Expr) => void): void {
  visit(e);
  switch (e.kind) {
    case 'unary':
      walk(e.operand, visit);
      break;
    case 'binary':
      walk(e.left, visit);
      walk(e.right, visit);
      break;
    case 'call':
      for (const a of e.args) walk(a, visit);
      break;
    case 'if':
      walk(e.condition, visit);
      walk(e.then, visit);
      walk(e.otherwise, visit);
      break;
    default:
      break;
  }
}

/** The key under which a variable reference is known: `y`, `y'`, `y''`. */
export function refKey(n: string, order: number): string {
  return n + "'".repeat(order);
}

/** Keys (`y`, `y'`, ...) of every name and derivative that occurs in e. Function names are not included. */
export function references(e: Expr, into: Set<string> = new Set()): Set<string> {
  walk(e, (node) => {
    if (node.kind === 'name') into.add(node.name);
    else if (node.kind === 'derivative') into.add(refKey(node.name, node.order));
  });
  return into;
}

/**
 * The key (as {@link references} gives it) of the first name or derivative of e, in the order
 * of a walk, that `accept` takes; undefined when none does. Stops there: no set is built.
 */
export function firstReference(e: Expr, accept: (key: string) => boolean): string | undefined {
  switch (e.kind) {
    case 'name':
      return accept(e.name) ? e.name : undefined;
    case 'derivative': {
      const key = refKey(e.name, e.order);
      return accept(key) ? key : undefined;
    }
    case 'unary':
      return firstReference(e.operand, accept);
    case 'binary':
      return firstReference(e.left, accept) ?? firstReference(e.right, accept);
    case 'call':
      for (const a of e.args) {
        const k = firstReference(a, accept);
        if (k !== undefined) return k;
      }
      return undefined;
    case 'if':
      return (
        firstReference(e.condition, accept) ?? firstReference(e.then, accept) ?? firstReference(e.otherwise, accept)
      );
    default:
      return undefined;
  }
}

/**
 * Rebuilds e bottom-up; `replace` may return a new node for any node (children already rebuilt) or undefined to keep it.
 * A node none of whose children changed is kept as it is, not copied: trees are never mutated,
 * and copying every node of every substitution was most of the allocation of a large model.
 */
export function mapExpr(e: Expr, replace: (node: Expr) => Expr | undefined): Expr {
  let rebuilt: Expr = e;
  switch (e.kind) {
    case 'unary': {
      const operand = mapExpr(e.operand, replace);
      if (operand !== e.operand) rebuilt = { ...e, operand };
      break;
    }
    case 'binary': {
      const left = mapExpr(e.left, replace),
        right = mapExpr(e.right, replace);
      if (left !== e.left || right !== e.right) rebuilt = { ...e, left, right };
      break;
    }
    case 'call': {
      let args: Expr[] | null = null;
      for (let k = 0; k < e.args.length; k++) {
        const a = mapExpr(e.args[k], replace);
        if (a !== e.args[k]) (args ??= e.args.slice())[k] = a;
      }
      if (args) rebuilt = { ...e, args };
      break;
    }
    case 'if': {
      const condition = mapExpr(e.condition, replace),
        then = mapExpr(e.then, replace),
        otherwise = mapExpr(e.otherwise, replace);
      if (condition !== e.condition || then !== e.then || otherwise !== e.otherwise)
        rebuilt = { ...e, condition, then, otherwise };
      break;
    }
    default:
      break;
  }
  return replace(rebuilt) ?? rebuilt;
}

/** Replaces variable references by key (`y`, `y'`) with the given expressions. */
export function substitute(e: Expr, by: ReadonlyMap<string, Expr>): Expr {
  if (by.size === 0) return e;
  return mapExpr(e, (node) => {
    if (node.kind === 'name') return by.get(node.name);
    if (node.kind === 'derivative') return by.get(refKey(node.name, node.order));
    return undefined;
  });
}

// ---------------------------------------------------------------------------
// Printing

const PRECEDENCE: Record<BinaryOp, number> = {
  or: 1,
  and: 2,
  '<': 4,
  '<=': 4,
  '>': 4,
  '>=': 4,
  '==': 4,
  '!=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '^': 8,
};

function precedenceOf(e: Expr): number {
  switch (e.kind) {
    case 'binary':
      return PRECEDENCE[e.op];
    case 'unary':
      return e.op === 'not' ? 3 : 7;
    case 'if':
      return 0;
    default:
      return 9;
  }
}

export function formatNumber(v: number): string {
  if (Number.isInteger(v) && Math.abs(v) < 1e21) return String(v);
  return String(v);
}

/** The expression in the model language's own syntax, with the fewest parentheses that keep its meaning. */
export function toText(e: Expr): string {
  switch (e.kind) {
    case 'number':
      return formatNumber(e.value);
    case 'name':
      return e.name;
    case 'derivative':
      return refKey(e.name, e.order);
    case 'unary': {
      const inner = wrap(e.operand, precedenceOf(e.operand) <= precedenceOf(e));
      return e.op === 'not' ? `not ${inner}` : `${e.op}${inner}`;
    }
    case 'binary': {
      const p = PRECEDENCE[e.op];
      // ^ is right-associative; - and / are not associative on the right.
      const leftNeeds = e.op === '^' ? precedenceOf(e.left) <= p : precedenceOf(e.left) < p;
      const rightNeeds =
        e.op === '^'
          ? precedenceOf(e.right) < p
          : precedenceOf(e.right) < p ||
            (precedenceOf(e.right) === p && (e.op === '-' || e.op === '/' || e.op === '*'));
      const op =
        e.op === 'and' || e.op === 'or' ? ` ${e.op} ` : e.op === '+' || e.op === '-' || p === 4 ? ` ${e.op} ` : e.op;
      return `${wrap(e.left, leftNeeds)}${op}${wrap(e.right, rightNeeds)}`;
    }
    case 'call':
      return `${e.name}${"'".repeat(e.derivativeOrder)}(${e.args.map(toText).join(', ')})`;
    case 'if':
      return `if ${toText(e.condition)} then ${toText(e.then)} else ${toText(e.otherwise)}`;
  }
}

function wrap(e: Expr, needed: boolean): string {
  return needed ? `(${toText(e)})` : toText(e);
}

const LATEX_FUNCTIONS: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
  sin: '\\sin',
  cos: '\\cos',
  tan: '\\tan',
  asin: '\\arcsin',
  acos: '\\arccos',
  atan: '\\arctan',
  sinh: '\\sinh',
  cosh: '\\cosh',
  tanh: '\\tanh',
  exp: '\\exp',
  log: '\\ln',
  min: '\\min',
  max: '\\max',
  sign: '\\operatorname{sign}',
  atan2: '\\operatorname{atan2}',
  step: '\\sigma',
  delta: '\\delta',
});

/** A LaTeX name: `x1` as `x_{1}`, Greek-letter names as their symbols, long names upright. */
export function latexName(n: string, order = 0): string {
  const primes = order === 0 ? '' : order <= 3 ? "'".repeat(order) : `^{(${order})}`;
  const greek = new Set([
    'alpha',
    'beta',
    'gamma',
    'delta',
    'epsilon',
    'theta',
    'lambda',
    'mu',
    'nu',
    'xi',
    'pi',
    'rho',
    'sigma',
    'tau',
    'phi',
    'chi',
    'psi',
    'omega',
    'Gamma',
    'Delta',
    'Theta',
    'Lambda',
    'Xi',
    'Pi',
    'Sigma',
    'Phi',
    'Psi',
    'Omega',
  ]);
  const m = /^([A-Za-z]+)_?(\d+)$/.exec(n);
  const escape = (s: string) => s.replace(/_/g, '\\_');
  let base: string;
  if (greek.has(n)) base = `\\${n}`;
  else if (m) base = `${m[1].length === 1 ? m[1] : `\\mathrm{${m[1]}}`}_{${m[2]}}`;
  else base = n.length === 1 ? n : `\\mathit{${escape(n)}}`;
  return base + primes;
}

/**
 * A number in LaTeX. In math mode `1e-7` reads as 1 times e minus 7 (and e is a model's
 * restitution coefficient as often as not), so a power of ten is written as one: `10^{-7}`,
 * `2.5 \times 10^{21}`; Infinity as `\infty`.
 */
export function latexNumber(v: number): string {
  if (Number.isNaN(v)) return '\\mathrm{NaN}';
  if (!Number.isFinite(v)) return v > 0 ? '\\infty' : '-\\infty';
  const text = formatNumber(v);
  const m = /^(-?)([\d.]+)e([+-])(\d+)$/.exec(text);
  if (!m) return text;
  const power = `10^{${m[3] === '-' ? '-' : ''}${m[4]}}`;
  return `${m[1]}${m[2] === '1' ? power : `${m[2]} \\times ${power}`}`;
}

export function toLatex(e: Expr): string {
  switch (e.kind) {
    case 'number':
      return latexNumber(e.value);
    case 'name':
      return latexName(e.name);
    case 'derivative':
      return latexName(e.name, e.order);
    case 'unary':
      if (e.op === 'not') return `\\lnot ${latexWrap(e.operand, precedenceOf(e.operand) <= 3)}`;
      return `${e.op}${latexWrap(e.operand, precedenceOf(e.operand) <= precedenceOf(e))}`;
    case 'binary': {
      const p = PRECEDENCE[e.op];
      if (e.op === '/') return `\\frac{${toLatex(e.left)}}{${toLatex(e.right)}}`;
      // (a base written as a power of ten, 10^{-3}, needs its parentheses as a sum does)
      if (e.op === '^')
        return `${latexWrap(e.left, precedenceOf(e.left) <= p || (e.left.kind === 'number' && /[\^\\]/.test(latexNumber(e.left.value))))}^{${toLatex(e.right)}}`;
      const ops: Partial<Record<BinaryOp, string>> = {
        '*': ' \\, ',
        '<=': ' \\le ',
        '>=': ' \\ge ',
        '!=': ' \\ne ',
        and: ' \\land ',
        or: ' \\lor ',
        '==': ' = ',
      };
      const op = ops[e.op] ?? ` ${e.op} `;
      // (a negated right operand of a product or a sum in parentheses: `2 \, -a` reads 2 - a)
      const rightNeeds =
        precedenceOf(e.right) < p ||
        (precedenceOf(e.right) === p && (e.op === '-' || e.op === '*')) ||
        (e.right.kind === 'unary' && e.right.op === '-' && (e.op === '*' || e.op === '+' || e.op === '-'));
      const left = latexWrap(e.left, precedenceOf(e.left) < p),
        right = latexWrap(e.right, rightNeeds);
      // (a factor that starts with a digit after another factor: `2 \, 3^{x}` reads 23^x)
      return `${left}${e.op === '*' && /^[\d.]/.test(right) ? ' \\cdot ' : op}${right}`;
    }
    case 'call': {
      if (e.name === 'sqrt') return `\\sqrt{${toLatex(e.args[0])}}`;
      if (e.name === 'abs') return `\\left|${toLatex(e.args[0])}\\right|`;
      const fn = LATEX_FUNCTIONS[e.name] ?? `\\operatorname{${e.name}}`;
      const primes = e.derivativeOrder <= 3 ? "'".repeat(e.derivativeOrder) : `^{(${e.derivativeOrder})}`;
      return `${fn}${primes}\\left(${e.args.map(toLatex).join(', ')}\\right)`;
    }
    case 'if':
      return `\\begin{cases} ${toLatex(e.then)} & \\text{if } ${toLatex(e.condition)} \\\\ ${toLatex(e.otherwise)} & \\text{otherwise} \\end{cases}`;
  }
}

function latexWrap(e: Expr, needed: boolean): string {
  return needed ? `\\left(${toLatex(e)}\\right)` : toLatex(e);
}

// ---------------------------------------------------------------------------
// Calculus

/**
 * The partial derivative of e with respect to the variable with key `x` (`t`, `y`, `y'`, `S1`).
 * Relations and `if` conditions are piecewise constant, so they differentiate to 0 and `if`
 * distributes over its branches; `step` and `sign` have derivative 0 away from their jumps
 * (which the integrator never steps across). Returns null where a derivative is not defined
 * as a function (a delta, or abs/min/max whose kink the caller must treat separately is fine:
 * abs' = sign).
 */
export function differentiate(e: Expr, x: string): Expr {
  return differentiateAlong(e, (key) => (key === x ? 1 : undefined));
}

/**
 * The derivative of e along a direction: `seed(key)` is the derivative of the variable with
 * that key (a number or an expression; undefined for 0). With seed = the right-hand sides of
 * the states, it is the derivative along the flow in one pass over e (Lie derivative): the sum
 * over the states of d e/d x times x' would differentiate e once per state, quadratic in the
 * terms of a sum of 1e5 of them. Linear in the size of e; a subtree free of every seeded key
 * folds to 0 through the constructors.
 */
export function differentiateAlong(e: Expr, seed: (key: string) => Expr | number | undefined): Expr {
  const d = (a: Expr) => differentiateAlong(a, seed);
  const s = e.span;
  const leaf = (key: string): Expr => {
    const v = seed(key);
    return v === undefined ? num(0, s) : typeof v === 'number' ? num(v, s) : v;
  };
  switch (e.kind) {
    case 'number':
      return num(0, s);
    case 'name':
      return leaf(e.name);
    case 'derivative':
      return leaf(refKey(e.name, e.order));
    case 'unary':
      if (e.op === 'not') return num(0, s);
      return e.op === '-' ? neg(d(e.operand), s) : d(e.operand);
    case 'binary': {
      const { left: a, right: b } = e;
      switch (e.op) {
        case '+':
          return add(d(a), d(b), s);
        case '-':
          return sub(d(a), d(b), s);
        case '*':
          return add(mul(d(a), b, s), mul(a, d(b), s), s);
        case '/': {
          const da = d(a),
            db = d(b);
          if (constantValue(da) === 0 && constantValue(db) === 0) return num(0, s);
          // (a divisor that does not move: a'/b, without b^2, which overflows for b beyond
          // 1.3e154 and sent x/T with T = 1e200 from its closed form to the stepper)
          if (constantValue(db) === 0) return div(da, b, s);
          return div(sub(mul(da, b, s), mul(a, db, s), s), pow(b, num(2), s), s);
        }
        case '^': {
          const da = d(a),
            db = d(b);
          const vb = constantValue(b);
          if (vb !== null || constantValue(db) === 0) {
            // a^c: c a^(c-1) a'
            if (constantValue(da) === 0) return num(0, s);
            const cm1 = vb !== null ? num(vb - 1, s) : sub(b, num(1), s);
            return mul(mul(b, pow(a, cm1, s), s), da, s);
          }
          // a^b = exp(b log a)
          return mul(e, add(mul(db, call('log', [a], s), s), div(mul(b, da, s), a, s), s), s);
        }
        default:
          return num(0, s); // relations and logic: piecewise constant
      }
    }
    case 'if': {
      const then = d(e.then),
        otherwise = d(e.otherwise);
      if (constantValue(then) === 0 && constantValue(otherwise) === 0) return num(0, s);
      return { ...e, then, otherwise };
    }
    case 'call':
      return differentiateCall(e, d);
  }
}

function differentiateCall(e: Extract<Expr, { kind: 'call' }>, d: (a: Expr) => Expr): Expr {
  const s = e.span;
  const [a, b] = e.args;
  const da = d(a);
  // (a function of arguments that do not move does not move: also one with no rule, a delta)
  if (e.args.every((arg, k) => constantValue(k === 0 ? da : d(arg)) === 0)) return num(0, s);
  const chain = (outer: Expr) => mul(outer, da, s);
  switch (e.name) {
    case 'sin':
      return chain(call('cos', [a], s));
    case 'cos':
      return neg(chain(call('sin', [a], s)), s);
    case 'tan':
      return chain(div(num(1), pow(call('cos', [a], s), num(2)), s));
    case 'asin':
      return chain(div(num(1), call('sqrt', [sub(num(1), pow(a, num(2)), s)], s), s));
    case 'acos':
      return neg(chain(div(num(1), call('sqrt', [sub(num(1), pow(a, num(2)), s)], s), s)), s);
    case 'atan':
      return chain(div(num(1), add(num(1), pow(a, num(2)), s), s));
    case 'sinh':
      return chain(call('cosh', [a], s));
    case 'cosh':
      return chain(call('sinh', [a], s));
    case 'tanh':
      return chain(div(num(1), pow(call('cosh', [a], s), num(2)), s));
    case 'exp':
      return chain(e);
    case 'log':
      return div(da, a, s);
    case 'sqrt':
      return div(da, mul(num(2), e, s), s);
    case 'abs':
      return chain(call('sign', [a], s));
    case 'sign':
    case 'step':
      return num(0, s);
    case 'atan2': {
      // d atan2(a, b) = (b a' - a b') / (a^2 + b^2)
      const db = d(b);
      return div(sub(mul(b, da, s), mul(a, db, s), s), add(pow(a, num(2)), pow(b, num(2)), s), s);
    }
    case 'min':
    case 'max': {
      const db = d(b);
      const cond: Expr = { kind: 'binary', op: e.name === 'min' ? '<=' : '>=', left: a, right: b, span: s };
      return { kind: 'if', condition: cond, then: da, otherwise: db, span: s };
    }
    default:
      throw new Error(`internal: no derivative rule for ${e.name}`);
  }
}

/**
 * Rebuilds e bottom-up through the folding constructors: `m*0` -> 0, `0 - -g` -> g,
 * `(2*0 - 1)` -> -1. Structural only: no expansion, no reordering.
 */
export function simplify(e: Expr): Expr {
  switch (e.kind) {
    case 'unary': {
      const a = simplify(e.operand);
      return e.op === '-' ? neg(a, e.span) : e.op === '+' ? a : { ...e, operand: a };
    }
    case 'binary': {
      const a = simplify(e.left),
        b = simplify(e.right);
      switch (e.op) {
        case '+':
          return add(a, b, e.span);
        case '-':
          return sub(a, b, e.span);
        case '*':
          return mul(a, b, e.span);
        case '/':
          return div(a, b, e.span);
        case '^':
          return pow(a, b, e.span);
        default:
          return { ...e, left: a, right: b };
      }
    }
    case 'call':
      return { ...e, args: e.args.map(simplify) };
    case 'if':
      return { ...e, condition: simplify(e.condition), then: simplify(e.then), otherwise: simplify(e.otherwise) };
    default:
      return e;
  }
}
