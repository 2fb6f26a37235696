/**
 * Expressions, one method per precedence level, lowest first, in the mathjs style:
 *   if-then-else < or < and < not < comparison (non-associative) < + - < * / < unary + -
 *   < ^ (right associative; its exponent may carry a sign: 2^-1) < primary.
 * `if` may also start an operand (`1 + if c then a else b`); its else-branch then extends
 * as far as an expression can, as in ML. Also here: what statements and expressions share
 * (names, variables, index lists and ranges), the builtin functions with their number of
 * arguments, and the depth guard on the trees handed to later stages.
 */
import type { BinaryOp, CallNode, Expr, IfNode, IndexRange, Span, VariableRef } from '../expression/ast.js';
import { BUILTIN_FUNCTIONS, REDUCTIONS } from '../expression/ast.js';
import type { Token } from './lexer.js';
import { TokenStream } from './parser-tokens.js';

export const FUNCTIONS: ReadonlyMap<string, number> = new Map(Object.entries(BUILTIN_FUNCTIONS));
const FUNCTION_LIST = [...FUNCTIONS.keys()].join(', ');

/** How to call the functions whose arguments are not a single x. */
const SIGNATURES: ReadonlyMap<string, string> = new Map([
  ['atan2', 'atan2(y, x)'],
  ['min', 'min(a, b)'],
  ['max', 'max(a, b)'],
  ['step', 'step(u)'],
  ['delta', 'delta(u)'],
]);

/** Names from other languages for functions that exist here under another name. */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ['ln', 'log'],
  ['sgn', 'sign'],
  ['arcsin', 'asin'],
  ['arccos', 'acos'],
  ['arctan', 'atan'],
  ['heaviside', 'step'],
  ['Heaviside', 'step'],
  ['dirac', 'delta'],
  ['Dirac', 'delta'],
  ['DiracDelta', 'delta'],
]);

const COMPARISONS: ReadonlySet<string> = new Set(['<', '<=', '>', '>=', '==', '!=']);
/** Words that end or structure an expression: finding one where an operand belongs means the operand is missing, not misnamed. */
const STRUCTURAL_KEYWORDS: ReadonlySet<string> = new Set([
  'then',
  'else',
  'do',
  'end',
  'and',
  'or',
  'in',
  'for',
  'while',
]);

/** Deepest expression tree handed to later stages, whose tree walks are recursive. */
const MAX_TREE_DEPTH = 1000;

export class ExpressionParser extends TokenStream {
  /** the depth of each node above a leaf (a Map, not a WeakMap: it lives as long as the parse) */
  private readonly depths = new Map<Expr, number>();

  standaloneExpression(): Expr {
    this.skipSeparators();
    if (this.tok.kind === 'eof')
      throw this.expected(
        'an expression',
        'Write a column name or an expression of the columns, as in x or 0.5*m*v^2.',
      );
    const e = this.expression();
    this.skipSeparators();
    if (this.peekKind() !== 'eof')
      throw this.expected('the end of the expression', 'Write one expression; separate several with commas.');
    return e;
  }

  /** `NAME in A:B` (the loop variable and its inclusive range), after `what`. */
  protected indexRange(what: string, hint: string): IndexRange {
    const v = this.plainName(`a loop variable after ${what}`, hint);
    if (!this.isKeyword('in')) throw this.expected(`'in' after the loop variable '${v.text}'`, hint, '', false);
    this.advance();
    const from = this.expression();
    if (!this.isOp(':'))
      throw this.expected(`':' between the first and last index, as in ${v.text} in 1:N`, hint, '', false);
    this.advance();
    const to = this.expression();
    return { variable: v.text, variableSpan: v.span, from, to, span: this.spanFrom(v.span) };
  }

  /** `[E, E, ...]` after an array's name: the index expressions. The `]` token's primes are returned with them. */
  protected indexList(owner: Token): { indices: Expr[]; primes: number } {
    const open = this.advance();
    const indices: Expr[] = [];
    const hint = `Write the index in brackets, as in ${owner.text}[i] or ${owner.text}[i + 1].`;
    if (this.isOp(']')) throw this.errorHere(`expected an index inside the brackets of '${owner.text}[]'`, hint);
    for (;;) {
      indices.push(this.expression());
      if (!this.isOp(',')) break;
      this.advance();
    }
    if (!this.isOp(']')) {
      if (this.tok.kind === 'eof') throw this.errorAt(open.span, "this '[' is never closed", "Add the matching ']'.");
      throw this.expected(`']' to close the '[' at ${open.span.line}:${open.span.column}`, hint);
    }
    const close = this.advance();
    return { indices, primes: close.primes };
  }

  /** A name without primes that the statement declares. `noFunction` refuses builtin function names, which a call would shadow. */
  protected plainName(what: string, hint: string, noFunction = true): Token {
    const t = this.tok;
    if (t.kind === 'keyword') throw this.reservedWord(t);
    if (t.kind !== 'name') throw this.expected(what, hint);
    if (t.primes > 0) {
      throw this.errorAt(
        t.span,
        `expected a plain name, found '${this.display(t)}'`,
        `Primes mark derivatives; write the name without them, as in ${t.text}.`,
      );
    }
    if (noFunction && FUNCTIONS.has(t.text)) throw this.functionAsName(t);
    return this.advance();
  }

  /** A variable with optional primes, as in `output` and on the left of an action. */
  protected variable(what: string, hint: string): VariableRef {
    const t = this.tok;
    if (t.kind === 'keyword') throw this.reservedWord(t);
    if (t.kind !== 'name') throw this.expected(what, hint);
    if (FUNCTIONS.has(t.text)) throw this.functionAsName(t);
    this.advance();
    if (!this.isOp('[')) return { name: t.text, order: t.primes, span: t.span };
    this.primesBeforeIndex(t);
    const { indices, primes } = this.indexList(t);
    return { name: t.text, order: primes, span: this.spanFrom(t.span), indices };
  }

  /** `x'[i]`: the primes of an element's derivative go after the brackets. */
  private primesBeforeIndex(t: Token): void {
    if (t.primes === 0) return;
    throw this.errorAt(
      t.span,
      `primes before an index: write ${t.text}[…]${"'".repeat(t.primes)}`,
      `The derivative of an array element x[i] is written x[i]'.`,
    );
  }

  // -------------------------------------------------------------------------
  // Expressions, lowest precedence first

  protected expression(): Expr {
    this.enter();
    const e = this.isKeyword('if') ? this.ifExpression() : this.orLevel();
    this.leave();
    return e;
  }

  private ifExpression(): IfNode {
    const ifToken = this.advance();
    const shape = 'Write if C then A else B; both branches need a value.';
    const condition = this.expression();
    if (!this.isKeyword('then')) throw this.expected("'then' after the condition of 'if'", shape);
    this.advance();
    const then = this.expression();
    if (!this.isKeyword('else')) throw this.expected("'else' after the then-branch of 'if'", shape);
    this.advance();
    const otherwise = this.expression();
    return this.measured(
      { kind: 'if', condition, then, otherwise, span: this.spanFrom(ifToken.span) },
      [condition, then, otherwise],
      ifToken.span,
    );
  }

  // (the levels test the current token's fields directly: isOp and isKeyword were a dozen
  // calls per operand, a fifth of the parse of a large model)
  private orLevel(): Expr {
    let left = this.andLevel();
    while (this.tok.kind === 'keyword' && this.tok.text === 'or') {
      const op = this.advance();
      const right = this.andLevel();
      left = this.binary('or', left, right, op.span);
    }
    return left;
  }

  private andLevel(): Expr {
    let left = this.notLevel();
    while (this.tok.kind === 'keyword' && this.tok.text === 'and') {
      const op = this.advance();
      const right = this.notLevel();
      left = this.binary('and', left, right, op.span);
    }
    return left;
  }

  private notLevel(): Expr {
    if (!(this.tok.kind === 'keyword' && this.tok.text === 'not')) return this.comparison();
    const not = this.advance();
    this.enter();
    const operand = this.notLevel();
    this.leave();
    return this.measured(
      { kind: 'unary', op: 'not', operand, span: this.join(not.span, operand.span) },
      [operand],
      not.span,
    );
  }

  /** Non-associative: `a < b < c` reads differently in mathematics and in C, so it is refused. */
  private comparison(): Expr {
    const left = this.additive();
    if (!(this.tok.kind === 'operator' && COMPARISONS.has(this.tok.text))) return left;
    const op = this.advance();
    const right = this.additive();
    const again = this.tok;
    if (again.kind === 'operator' && COMPARISONS.has(again.text)) {
      throw this.errorAt(
        again.span,
        'comparisons cannot be chained',
        `Combine two comparisons with and, as in a ${op.text} b and b ${again.text} c.`,
      );
    }
    return this.binary(op.text as BinaryOp, left, right, op.span);
  }

  private additive(): Expr {
    let left = this.multiplicative();
    while (this.tok.kind === 'operator' && (this.tok.text === '+' || this.tok.text === '-')) {
      const op = this.advance();
      const right = this.multiplicative();
      left = this.binary(op.text as BinaryOp, left, right, op.span);
    }
    return left;
  }

  private multiplicative(): Expr {
    let left = this.unary();
    while (this.tok.kind === 'operator' && (this.tok.text === '*' || this.tok.text === '/')) {
      const op = this.advance();
      const right = this.unary();
      left = this.binary(op.text as BinaryOp, left, right, op.span);
    }
    return left;
  }

  private unary(): Expr {
    if (!(this.tok.kind === 'operator' && (this.tok.text === '-' || this.tok.text === '+'))) return this.power();
    const op = this.advance();
    this.enter();
    const operand = this.unary();
    this.leave();
    return this.measured(
      { kind: 'unary', op: op.text === '-' ? '-' : '+', operand, span: this.join(op.span, operand.span) },
      [operand],
      op.span,
    );
  }

  /** Right associative (`2^3^2` is `2^9`); the exponent goes through `unary` so that `2^-1` reads as 2^(-1). */
  private power(): Expr {
    const base = this.primary();
    if (!(this.tok.kind === 'operator' && this.tok.text === '^')) return base;
    const op = this.advance();
    this.enter();
    const exponent = this.unary();
    this.leave();
    return this.binary('^', base, exponent, op.span);
  }

  private primary(): Expr {
    const t = this.tok;
    if (t.kind === 'number') {
      this.advance();
      return { kind: 'number', value: t.value, span: t.span };
    }
    if (t.kind === 'name') {
      if (this.isOp('(', this.peek())) return this.call();
      if (this.isOp('[', this.peek()) && !FUNCTIONS.has(t.text)) return this.element();
      this.advance();
      if (FUNCTIONS.has(t.text)) {
        const shown = this.display(t);
        const call = t.primes > 0 ? `${shown}(u)` : (SIGNATURES.get(t.text) ?? `${t.text}(x)`);
        throw this.errorAt(
          t.span,
          `'${shown}' is a function and needs its argument in parentheses`,
          `Call it as ${call}.`,
        );
      }
      if (t.primes > 0) return { kind: 'derivative', name: t.text, order: t.primes, span: t.span };
      return { kind: 'name', name: t.text, span: t.span };
    }
    if (this.isOp('(')) {
      const open = this.advance();
      const inner = this.expression();
      this.closeParen(open, 'Close the parenthesis, or add an operator such as * between the operands.');
      return this.measured({ ...inner, span: this.spanFrom(open.span) }, [inner], open.span, 0);
    }
    if (this.isKeyword('if')) {
      this.enter();
      const e = this.ifExpression();
      this.leave();
      return e;
    }
    const p = this.previous;
    if (t.kind === 'keyword' && !STRUCTURAL_KEYWORDS.has(t.text) && p !== undefined && p.kind === 'operator') {
      throw this.reservedWord(t);
    }
    const after = p === undefined || p.kind === 'newline' ? '' : ` after ${this.describe(p)}`;
    throw this.expected(`an expression${after}`, 'Write a number, a name or a parenthesised expression here.');
  }

  /** `x[i]`, `x[i, j]'`: an array element or its derivative. */
  private element(): Expr {
    const t = this.advance();
    this.primesBeforeIndex(t);
    const { indices, primes } = this.indexList(t);
    const span = this.spanFrom(t.span);
    const node: Expr =
      primes > 0
        ? { kind: 'derivative', name: t.text, order: primes, span, indices }
        : { kind: 'name', name: t.text, span, indices };
    return this.measured(node, indices, t.span);
  }

  /** `sum(i in A:B, EXPR)` or `prod(...)`, after the name and '('. */
  private reduction(nameToken: Token, open: Token): CallNode {
    const name = nameToken.text;
    const hint = `Write ${name}(i in 1:N, EXPR), as in ${name}(i in 1:N, x[i]).`;
    const over = this.indexRange(`'${name}('`, hint);
    if (!this.isOp(','))
      throw this.expected(
        `',' and the expression to ${name === 'sum' ? 'add up' : 'multiply'} after the range`,
        hint,
        '',
        false,
      );
    this.advance();
    const body = this.expression();
    this.closeParen(open, hint);
    return this.measured(
      {
        kind: 'call',
        name,
        derivativeOrder: 0,
        args: [body],
        over,
        span: this.spanFrom(nameToken.span),
        nameSpan: nameToken.span,
      },
      [body],
      nameToken.span,
    );
  }

  private call(): CallNode {
    const nameToken = this.advance();
    const open = this.advance();
    const name = nameToken.text;
    const shown = this.display(nameToken);
    if (REDUCTIONS.has(name) && nameToken.primes === 0) {
      if (this.tok.kind === 'name' && this.isKeyword('in', this.peek())) return this.reduction(nameToken, open);
      throw this.errorAt(
        nameToken.span,
        `${name} ${name === 'sum' ? 'adds up' : 'multiplies'} over a range: write ${name}(i in A:B, EXPR)`,
        `For example ${name}(i in 1:N, x[i]).`,
      );
    }
    const arity = FUNCTIONS.get(name);
    if (arity === undefined) {
      if (this.variableNames.has(name) || nameToken.primes > 0) {
        throw this.errorAt(
          nameToken.span,
          `'${shown}' is not a function`,
          `Write ${shown}*(…) for a product; a condition such as ${shown}(0) = 1 must start its own statement.`,
        );
      }
      const alias = ALIASES.get(name) ?? closestFunction(name);
      const guess = alias !== undefined ? `Did you mean ${alias}? ` : '';
      throw this.errorAt(
        nameToken.span,
        `unknown function '${name}'`,
        `${guess}The functions are ${FUNCTION_LIST}; for a product write ${name}*(…).`,
      );
    }
    if (nameToken.primes > 0 && name !== 'delta') {
      throw this.errorAt(
        nameToken.span,
        `'${shown}' is not a function: only delta takes primes`,
        `Write the derivative of ${name} out; primes on a call are only for delta'(u), delta''(u), ....`,
      );
    }
    const args: Expr[] = [];
    const signature = nameToken.primes > 0 ? `${shown}(u)` : (SIGNATURES.get(name) ?? `${name}(x)`);
    if (!this.isOp(')')) {
      for (;;) {
        args.push(this.expression());
        if (!this.isOp(',')) break;
        this.advance();
      }
    }
    this.closeParen(open, `Call it as ${signature}.`);
    if (args.length !== arity) {
      throw this.errorAt(
        nameToken.span,
        `${shown} takes ${arity} argument${arity === 1 ? '' : 's'}, got ${args.length}`,
        `Call it as ${signature}.`,
      );
    }
    return this.measured(
      {
        kind: 'call',
        name,
        derivativeOrder: nameToken.primes,
        args,
        span: this.spanFrom(nameToken.span),
        nameSpan: nameToken.span,
      },
      args,
      nameToken.span,
    );
  }

  private binary(op: BinaryOp, left: Expr, right: Expr, opSpan: Span): Expr {
    // (measured without a list of the two children: the commonest node of all)
    const node: Expr = { kind: 'binary', op, left, right, span: this.join(left.span, right.span) };
    return this.recorded(node, Math.max(this.depthOf(left), this.depthOf(right)) + 1, opSpan);
  }

  /**
   * Records the depth of `node` (`extra` above its deepest child) and refuses trees deeper than
   * {@link MAX_TREE_DEPTH}: later stages walk the tree recursively, and so does JSON.stringify.
   */
  private measured<T extends Expr>(node: T, children: readonly Expr[], at: Span, extra = 1): T {
    let depth = 0;
    for (const c of children) depth = Math.max(depth, this.depthOf(c));
    return this.recorded(node, depth + extra, at);
  }

  /** The depth of a node the parser made (a plain number or name is a leaf, depth 1, and never in the map). */
  private depthOf(c: Expr): number {
    const leaf = c.kind === 'number' || ((c.kind === 'name' || c.kind === 'derivative') && !c.indices);
    return leaf ? 1 : (this.depths.get(c) ?? 1);
  }

  /** Records `node` at `depth`, or refuses it past {@link MAX_TREE_DEPTH} (see measured). */
  private recorded<T extends Expr>(node: T, depth: number, at: Span): T {
    if (depth > MAX_TREE_DEPTH) {
      throw this.errorAt(
        at,
        'this expression is too long or nested too deeply',
        `Split it into named variables (N = EXPR), one per line; one expression may be at most ${MAX_TREE_DEPTH} operations deep.`,
      );
    }
    this.depths.set(node, depth);
    return node;
  }
}

/** The builtin function nearest to a misspelt name (edit distance at most 2), if any. */
function closestFunction(name: string): string | undefined {
  let best: string | undefined;
  // Short names are all close to each other; only a one-letter slip is a likely typo there.
  let bestDistance = name.length <= 4 ? 2 : 3;
  if (name.length < 2) return undefined;
  for (const f of FUNCTIONS.keys()) {
    const d = editDistance(name.toLowerCase(), f);
    if (d < bestDistance) {
      best = f;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}
