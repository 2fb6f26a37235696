/**
 * The parser of the `.delta` model language (see docs/language.md): text -> {@link ModelAst}.
 *
 * Contract:
 * 1. `parseModel(source, file)` returns the statements in file order or throws a
 *    {@link ModelError} at the first thing it cannot read; it never throws anything else.
 *    A file with only comments and blank lines gives an empty statement list.
 * 2. Every node carries a span from its first token to its last (a parenthesised
 *    expression's span includes the parentheses).
 * 3. The parser checks syntax only, plus what the text alone decides: reserved words,
 *    function names and their number of arguments, primes on functions other than delta,
 *    `model` first and once. Meaning (declared names, states, the range) is the analysis' job.
 * 4. Arrays (`for` blocks, `x[i]`, `v[1:N] = [...]`, `sum(i in A:B, EXPR)`) are parsed into a
 *    template; `parseModel` writes them out (`arrays.ts`) before returning, and keeps the
 *    template in `ModelAst.template`. `parseTemplate` returns the template alone.
 *
 * Expressions have one function per precedence level, lowest first, in the mathjs style:
 *   if-then-else < or < and < not < comparison (non-associative) < + - < * / < unary + -
 *   < ^ (right associative; its exponent may carry a sign: 2^-1) < primary.
 * `if` may also start an operand (`1 + if c then a else b`); its else-branch then extends
 * as far as an expression can, as in ML.
 */
import type {
  Action,
  ArrayDeclaration,
  EventLocate,
  AtTrigger,
  Declaration,
  Direction,
  EventStatement,
  EveryTrigger,
  Expr,
  ForStatement,
  IndependentStatement,
  IndexRange,
  ModelAst,
  ModelStatement,
  OptionStatement,
  OutputStatement,
  SituationStatement,
  Span,
  Statement,
  StateTrigger,
  Trigger,
  VariableRef,
  ConditionStatement,
  EquationStatement,
  CallNode,
  IfNode,
  BinaryOp,
} from '../expression/ast.js';
import { BUILTIN_FUNCTIONS, REDUCTIONS } from '../expression/ast.js';
import { expandArrays, type ExpandOptions } from './arrays.js';
import { ModelError } from '../expression/errors.js';
import { tokenize } from './lexer.js';
import type { Token } from './lexer.js';

/**
 * Parses a model file and writes its arrays out; throws a {@link ModelError} (with
 * file:line:col, the line, a caret and a hint) on bad input. `options.set` gives values of
 * structural parameters (those that ranges and indices use) to expand with.
 */
export function parseModel(source: string, file: string, options: ExpandOptions = {}): ModelAst {
  return expandArrays(parseTemplate(source, file), options);
}

/** The model as written: `for` blocks and indexed names kept (see {@link parseModel}). */
export function parseTemplate(source: string, file: string): ModelAst {
  const tokens = tokenize(source, file);
  return new Parser(tokens, source, file).parse();
}

/**
 * One expression on its own (a `--variables` entry, say): the same grammar as in a model,
 * with `file` naming where the text came from in errors. Anything after the expression is
 * an error, so `x y` is not read as `x`.
 */
export function parseExpression(text: string, file: string): Expr {
  return new Parser(tokenize(text, file), text, file).standaloneExpression();
}

/**
 * A list of expressions written on the command line (`"n, max(a, b), x[2,1]"`) cut at the
 * commas outside parentheses and brackets, each part trimmed.
 */
export function splitExpressionList(text: string): string[] {
  const parts: string[] = [];
  let depth = 0,
    start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}

const FUNCTIONS: ReadonlyMap<string, number> = new Map(Object.entries(BUILTIN_FUNCTIONS));
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
const DIRECTIONS: ReadonlySet<string> = new Set(['rises', 'falls', 'crosses']);
const STATEMENT_KEYWORDS: ReadonlySet<string> = new Set([
  'model',
  'independent',
  'parameter',
  'unknown',
  'discrete',
  'situation',
  'output',
  'option',
  'event',
  'for',
]);
/** Statements that say something about the whole model, not about one element: never inside a `for` block. */
const WHOLE_MODEL_KEYWORDS: ReadonlySet<string> = new Set([
  'model',
  'independent',
  'parameter',
  'unknown',
  'discrete',
  'option',
]);
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
const CONTINUING_KEYWORDS: ReadonlySet<string> = new Set(['and', 'or', 'not', 'if', 'then', 'else', 'while']);

/** Deep enough for any model a person writes; shallow enough that recursion cannot exhaust the stack. */
const MAX_NESTING = 200;
/** Deepest expression tree handed to later stages, whose tree walks are recursive. */
const MAX_TREE_DEPTH = 1000;

const DECLARATION_HINTS: ReadonlyMap<string, string> = new Map([
  ['parameter', 'Give each parameter a value, as in parameter g = 9.81, m = 1.'],
  ['unknown', 'Give each unknown a starting guess, as in unknown H = 5.'],
  ['discrete', 'Give each discrete variable an initial value, as in discrete n = 0.'],
]);

type DeclarationKind = 'parameter' | 'unknown' | 'discrete';

class Parser {
  private i = 0;
  /** index of the first token of the statement or action being parsed */
  private statementStart = 0;
  private nesting = 0;
  private readonly depths = new WeakMap<Expr, number>();
  private modelToken: Token | null = null;
  /** Names the file uses as variables (bare or primed): `y(` with such a y is a forgotten `*`, not an unknown function. */
  private readonly variableNames = new Set<string>();

  constructor(
    private readonly tokens: Token[],
    private readonly source: string,
    private readonly file: string,
  ) {
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k];
      if (t.kind !== 'name') continue;
      const next = tokens[k + 1];
      if ((t.primes > 0 && t.text !== 'delta') || !(next.kind === 'operator' && next.text === '(')) {
        this.variableNames.add(t.text);
      }
    }
  }

  parse(): ModelAst {
    const statements: Statement[] = [];
    for (;;) {
      this.skipSeparators();
      if (this.tok.kind === 'eof') break;
      this.statementStart = this.i;
      statements.push(this.statement(statements.length));
      this.endOfStatement('Put one statement per line, or separate statements on one line with ;.');
    }
    return { file: this.file, source: this.source, statements };
  }

  /** (a method, so that the narrowing of `this.tok` before a parse does not hold after it) */
  private peekKind(): Token['kind'] {
    return this.tok.kind;
  }

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

  /** `for i in A:B` NEWLINE statements `end`; blocks nest. */
  private forStatement(): ForStatement {
    const kw = this.advance();
    const range = this.indexRange("'for'", 'Write for i in 1:N, then the statements, then end.');
    if (!this.atStatementEnd()) {
      throw this.expected(
        'a new line after the range of the for block',
        'Start the statements of the block on the next line, or after ;.',
        '',
        false,
      );
    }
    const body: Statement[] = [];
    for (;;) {
      this.skipSeparators();
      if (this.isKeyword('end')) {
        this.advance();
        return { kind: 'for', range, body, span: this.spanFrom(kw.span) };
      }
      const t = this.tok;
      if (t.kind === 'eof') {
        throw this.errorAt(
          kw.span,
          `the 'for' block over ${range.variable} has no 'end'`,
          'Close the block with end after its last statement.',
        );
      }
      if (t.kind === 'keyword' && WHOLE_MODEL_KEYWORDS.has(t.text)) {
        const hint =
          t.text === 'parameter' || t.text === 'discrete' || t.text === 'unknown'
            ? `Declare the array before the block, as in ${t.text} v[1:N] = [1, 2, 3] or ${t.text} v[1:N] = 0.`
            : 'Move it out of the block: it says something about the whole model.';
        throw this.errorAt(t.span, `'${t.text}' cannot stand inside a for block`, hint);
      }
      this.statementStart = this.i;
      body.push(this.statement(-1));
      if (!this.isKeyword('end'))
        this.endOfStatement('Put one statement per line, or separate statements on one line with ;.');
    }
  }

  /** `NAME in A:B` (the loop variable and its inclusive range), after `what`. */
  private indexRange(what: string, hint: string): IndexRange {
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
  private indexList(owner: Token): { indices: Expr[]; primes: number } {
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

  /** The first token after the `]` that matches the `[` at token index k (or the eof token). */
  private afterBrackets(k: number): Token {
    let depth = 0;
    for (let j = k; j < this.tokens.length; j++) {
      const t = this.tokens[j];
      if (t.kind === 'eof' || t.kind === 'newline') return t;
      if (this.isOp('[', t)) depth++;
      else if (this.isOp(']', t) && --depth === 0) return this.tokens[j + 1];
    }
    return this.tokens[this.tokens.length - 1];
  }

  // -------------------------------------------------------------------------
  // Token access

  private get tok(): Token {
    return this.tokens[this.i];
  }

  private get previous(): Token | undefined {
    return this.i > 0 ? this.tokens[this.i - 1] : undefined;
  }

  private peek(k = 1): Token {
    return this.tokens[Math.min(this.i + k, this.tokens.length - 1)];
  }

  private advance(): Token {
    const t = this.tokens[this.i];
    if (t.kind !== 'eof') this.i++;
    return t;
  }

  private isOp(text: string, t: Token = this.tok): boolean {
    return t.kind === 'operator' && t.text === text;
  }

  private isKeyword(text: string, t: Token = this.tok): boolean {
    return t.kind === 'keyword' && t.text === text;
  }

  private atStatementEnd(): boolean {
    const t = this.tok;
    return t.kind === 'newline' || t.kind === 'eof' || this.isOp(';');
  }

  private skipSeparators(): void {
    while (this.tok.kind === 'newline' || this.isOp(';')) this.advance();
  }

  // -------------------------------------------------------------------------
  // Spans and errors

  /** The span from `first` to the end of the last consumed token. */
  private spanFrom(first: Span): Span {
    const last = this.previous;
    const end = last !== undefined && last.span.end > first.start ? last.span.end : first.end;
    return { start: first.start, end, line: first.line, column: first.column };
  }

  private join(a: Span, b: Span): Span {
    return { start: a.start, end: b.end, line: a.line, column: a.column };
  }

  /** Where to point for the current token: the end of a line or file is shown just after the last real token. */
  private here(): Span {
    const t = this.tok;
    const p = this.previous;
    if ((t.kind === 'eof' || t.kind === 'newline') && p !== undefined) {
      const column = p.span.column + (p.span.end - p.span.start);
      return { start: p.span.end, end: p.span.end, line: p.span.line, column };
    }
    return t.span;
  }

  private errorAt(span: Span, what: string, hint: string): ModelError {
    return new ModelError(this.file, this.source, span, what, hint);
  }

  /** An error at the current token; explains a line continuation when that is what swallowed the line break. */
  private errorHere(what: string, hint: string): ModelError {
    return this.errorAt(this.here(), what, hint + this.continuationNote());
  }

  /**
   * When a line break was swallowed inside the current statement (the line ended inside
   * parentheses or after an operator), an error further on often stems from that; say so.
   */
  private continuationNote(): string {
    const t = this.tok;
    if (t.kind === 'eof' || t.kind === 'newline') return '';
    for (let k = this.i; k > this.statementStart; k--) {
      const a = this.tokens[k - 1];
      const b = this.tokens[k];
      if (a.kind === 'newline' || b.kind === 'newline' || b.span.line <= a.span.line) continue;
      const endsWithOperator =
        (a.kind === 'operator' && a.text !== ')') || (a.kind === 'keyword' && CONTINUING_KEYWORDS.has(a.text));
      const why = endsWithOperator ? `ends with '${a.text}'` : 'ends inside parentheses';
      return ` (Line ${a.span.line} ${why}, so line ${b.span.line} continues it.)`;
    }
    return '';
  }

  private describe(t: Token): string {
    switch (t.kind) {
      case 'eof':
        return 'the end of the file';
      case 'newline':
        return 'the end of the line';
      default:
        return `'${this.display(t)}'`;
    }
  }

  private display(t: Token): string {
    return t.kind === 'name' ? t.text + "'".repeat(t.primes) : t.text;
  }

  private static endsOperand(t: Token | undefined): boolean {
    return t !== undefined && (t.kind === 'number' || t.kind === 'name' || (t.kind === 'operator' && t.text === ')'));
  }

  private static startsOperand(t: Token): boolean {
    return t.kind === 'number' || t.kind === 'name' || (t.kind === 'operator' && t.text === '(');
  }

  /**
   * "expected X, found Y" at the current token. Two operands side by side (`2x`, `a b`,
   * `2 (x + 1)`) are reported as a missing operator instead, since that is what they are.
   */
  private expected(what: string, hint: string, listHint = '', guessOperator = true): ModelError {
    const t = this.tok;
    const p = this.previous;
    // Across a swallowed line break the likelier mistake is an unclosed parenthesis or a dangling operator.
    const sameLine = p !== undefined && p.span.line === t.span.line;
    if (guessOperator && sameLine && Parser.endsOperand(p) && Parser.startsOperand(t) && p !== undefined) {
      const left = p.kind === 'operator' ? '(…)' : this.display(p);
      const right = t.kind === 'operator' ? '(…)' : this.display(t);
      return this.errorHere(
        `missing operator between '${this.display(p)}' and '${this.display(t)}'`,
        `Write ${left}*${right} for a product${listHint}.`,
      );
    }
    if (this.isOp(')')) {
      return this.errorHere("unmatched ')'", "Remove it, or add the '(' it should close.");
    }
    const found = t.kind === 'eof' || t.kind === 'newline' ? '' : `, found ${this.describe(t)}`;
    return this.errorHere(`expected ${what}${found}`, hint);
  }

  private reservedWord(t: Token): ModelError {
    return this.errorAt(
      t.span,
      `'${t.text}' is a reserved word and cannot be used as a name`,
      `Choose another name, such as ${t.text}_ or ${t.text}1.`,
    );
  }

  private enter(): void {
    if (++this.nesting > MAX_NESTING) {
      throw this.errorHere(
        'this expression is nested too deeply',
        'Split it into named variables (N = EXPR), one per line.',
      );
    }
  }

  private leave(): void {
    this.nesting--;
  }

  // -------------------------------------------------------------------------
  // Statements

  private statement(index: number): Statement {
    const t = this.tok;
    if (t.kind === 'keyword') {
      switch (t.text) {
        case 'model':
          return this.modelStatement(index);
        case 'independent':
          return this.independentStatement();
        case 'parameter':
        case 'unknown':
        case 'discrete':
          return this.declarationStatement(t.text);
        case 'situation':
          return this.situationStatement();
        case 'output':
          return this.outputStatement();
        case 'option':
          return this.optionStatement();
        case 'event':
          return this.eventStatement();
        case 'for':
          return this.forStatement();
        case 'stop':
          throw this.errorAt(
            t.span,
            "'stop' is an event action, not a statement",
            'Put it inside an event block, as in event done when x falls do stop end.',
          );
        case 'end':
          throw this.errorAt(
            t.span,
            "'end' without a matching 'do' or 'for'",
            "Remove it, or open the block with do after the event's trigger or with for i in A:B.",
          );
        case 'if':
        case 'not':
          return this.equationStatement();
        default: {
          const next = this.peek();
          if (this.isOp('=', next) || this.isOp('(', next) || this.isOp(':=', next)) throw this.reservedWord(t);
          throw this.errorAt(
            t.span,
            `a statement cannot start with '${t.text}'`,
            "Start it with model, independent, parameter, unknown, discrete, situation, output, option or event, or write an equation such as y' = -y.",
          );
        }
      }
    }
    if (t.kind === 'name' && this.isOp('(', this.peek()) && !FUNCTIONS.has(t.text) && !REDUCTIONS.has(t.text)) {
      return this.conditionStatement();
    }
    if (t.kind === 'name' && this.isOp('[', this.peek()) && this.isOp('(', this.afterBrackets(this.i + 1))) {
      return this.conditionStatement();
    }
    return this.equationStatement();
  }

  private endOfStatement(hint: string, listHint = ''): void {
    if (this.atStatementEnd()) return;
    if (this.isOp('=')) {
      throw this.errorHere(
        "a statement has only one '='",
        'Split it into two statements, on two lines or separated by ;.',
      );
    }
    if (this.isOp(':=')) {
      throw this.errorHere(
        "':=' is only used in event actions",
        "Write = for an equation, or put the assignment inside an event's do ... end block.",
      );
    }
    throw this.expected('the end of the statement', hint, listHint);
  }

  private modelStatement(index: number): ModelStatement {
    const kw = this.advance();
    if (this.modelToken !== null) {
      throw this.errorAt(
        kw.span,
        'the model is named twice',
        `Keep one model NAME line, at the top of the file (the first is on line ${this.modelToken.span.line}).`,
      );
    }
    this.modelToken = kw;
    if (index > 0) {
      throw this.errorAt(
        kw.span,
        "'model' must be the first statement",
        'Move model NAME to the top of the file; only comments and blank lines may come before it.',
      );
    }
    const name = this.plainName("a name after 'model'", 'Name the model, as in model BouncingBall.', false);
    return { kind: 'model', name: name.text, nameSpan: name.span, span: this.spanFrom(kw.span) };
  }

  private independentStatement(): IndependentStatement {
    const kw = this.advance();
    const rangeHint = 'Write the whole range, as in independent t from 0 to 10, or leave the range out.';
    const name = this.plainName(
      "a name after 'independent'",
      'Name the independent variable, as in independent t from 0 to 10.',
    );
    let from: Expr | null = null;
    let to: Expr | null = null;
    if (this.isKeyword('from')) {
      this.advance();
      from = this.expression();
      if (!this.isKeyword('to')) throw this.expected("'to' and the end of the range", rangeHint);
      this.advance();
      to = this.expression();
    } else if (this.isKeyword('to')) {
      throw this.errorHere("expected 'from' and the start of the range before 'to'", rangeHint);
    } else if (!this.atStatementEnd()) {
      throw this.expected("'from' or the end of the statement", rangeHint);
    }
    return { kind: 'independent', name: name.text, nameSpan: name.span, from, to, span: this.spanFrom(kw.span) };
  }

  private declarationStatement(kind: DeclarationKind): Statement {
    const kw = this.advance();
    const hint = DECLARATION_HINTS.get(kind) ?? '';
    const declarations: Declaration[] = [];
    for (;;) {
      const after = declarations.length === 0 ? `'${kind}'` : "','";
      const name = this.plainName(`a name after ${after}`, hint);
      const array = this.isOp('[') ? this.arrayRange(name, kind) : null;
      if (!this.isOp('=')) {
        throw this.expected(`'=' and a value after '${name.text}${array ? '[…]' : ''}'`, hint, '', false);
      }
      this.advance();
      let value: Expr;
      if (this.isOp('[')) {
        if (!array) {
          throw this.errorHere(
            `a list of values needs an array: '${name.text}' has no index range`,
            `Give the range after the name, as in ${kind} ${name.text}[1:N] = [...].`,
          );
        }
        value = this.arrayValue(name, array);
      } else {
        value = this.expression();
      }
      const d: Declaration = { name: name.text, nameSpan: name.span, value, span: this.spanFrom(name.span) };
      if (array) d.array = array;
      declarations.push(d);
      if (!this.isOp(',')) break;
      this.advance();
    }
    this.endOfStatement(
      `Separate the declarations with commas: ${kind} a = 1, b = 2.`,
      ', or separate declarations with a comma',
    );
    return { kind, declarations, span: this.spanFrom(kw.span) };
  }

  /** `[A:B]` after the name of an array declaration; `values` and `each` are filled by {@link arrayValue}. */
  private arrayRange(name: Token, kind: DeclarationKind): ArrayDeclaration {
    const open = this.advance();
    const hint = `Give the index range of the array, as in ${kind} ${name.text}[1:N] = ....`;
    const from = this.expression();
    if (!this.isOp(':')) throw this.expected(`':' in the index range of '${name.text}'`, hint, '', false);
    this.advance();
    const to = this.expression();
    if (!this.isOp(']'))
      throw this.expected(`']' to close the '[' at ${open.span.line}:${open.span.column}`, hint, '', false);
    this.advance();
    return { from, to, span: this.spanFrom(open.span), values: null, each: null };
  }

  /** `[a, b, c]` or `[EXPR for i in A:B]`; returns the first element (or the body) as the declaration's value. */
  private arrayValue(name: Token, array: ArrayDeclaration): Expr {
    const open = this.advance();
    const hint = `Write the values as a list, as in ${name.text}[1:3] = [0.1, 0.2, 0.3], or as [EXPR for i in 1:N].`;
    if (this.isOp(']')) throw this.errorHere(`the list of values of '${name.text}' is empty`, hint);
    const first = this.expression();
    if (this.isKeyword('for')) {
      this.advance();
      array.each = this.indexRange("'for'", hint);
      if (!this.isOp(']'))
        throw this.expected(
          `']' to close the comprehension opened at ${open.span.line}:${open.span.column}`,
          hint,
          '',
          false,
        );
      this.advance();
      return first;
    }
    const values = [first];
    while (this.isOp(',')) {
      this.advance();
      values.push(this.expression());
    }
    if (!this.isOp(']')) {
      if (this.tok.kind === 'eof') throw this.errorAt(open.span, "this '[' is never closed", "Add the matching ']'.");
      throw this.expected(`',' or ']' in the list of values of '${name.text}'`, hint);
    }
    this.advance();
    array.values = values;
    return first;
  }

  private situationStatement(): SituationStatement {
    const kw = this.advance();
    const hint = 'Name a condition, as in situation braking = h < R and v < 0.';
    const name = this.plainName("a name after 'situation'", hint);
    const indices = this.isOp('[') ? this.indexList(name).indices : null;
    if (!this.isOp('='))
      throw this.expected(`'=' and a condition after '${name.text}${indices ? '[…]' : ''}'`, hint, '', false);
    this.advance();
    const condition = this.expression();
    const s: SituationStatement = {
      kind: 'situation',
      name: name.text,
      nameSpan: name.span,
      condition,
      span: this.spanFrom(kw.span),
    };
    if (indices) s.indices = indices;
    return s;
  }

  private outputStatement(): OutputStatement {
    const kw = this.advance();
    const variables: VariableRef[] = [];
    for (;;) {
      const after = variables.length === 0 ? "'output'" : "','";
      variables.push(this.variable(`a name after ${after}`, "List what to record, as in output h, h', n."));
      if (!this.isOp(',')) break;
      this.advance();
    }
    if (!this.atStatementEnd()) {
      throw this.expected(
        "',' or the end of the statement",
        "Separate the names with commas, as in output h, h', n.",
        '',
        false,
      );
    }
    return { kind: 'output', variables, span: this.spanFrom(kw.span) };
  }

  private optionStatement(): OptionStatement {
    const kw = this.advance();
    const hint = 'Set an option, as in option method = dop853 or option rtol = 1e-8.';
    // Option names may coincide with functions (`option step = 0.01`), so only reserved words are refused.
    const name = this.plainName("an option name after 'option'", hint, false);
    if (!this.isOp('=')) throw this.expected(`'=' and a value after '${name.text}'`, hint, '', false);
    this.advance();
    // `option zeno = stop`: the action keyword is also an option's word
    if (this.isKeyword('stop')) {
      const t = this.advance();
      return {
        kind: 'option',
        name: name.text,
        nameSpan: name.span,
        value: { kind: 'name', name: 'stop', span: t.span },
        span: this.spanFrom(kw.span),
      };
    }
    const value = this.expression();
    return { kind: 'option', name: name.text, nameSpan: name.span, value, span: this.spanFrom(kw.span) };
  }

  private eventStatement(): EventStatement {
    const kw = this.advance();
    const triggerHint = 'Write event hit when x1 - x2 rises, event kick at 1, 2 or event tick every 0.5.';
    const name = this.plainName("a name after 'event'", triggerHint);
    const indices = this.isOp('[') ? this.indexList(name).indices : null;
    const start = this.tok;
    let trigger: Trigger;
    if (this.isKeyword('when')) {
      this.advance();
      const expr = this.expression();
      const d = this.tok;
      if (d.kind !== 'keyword' || !DIRECTIONS.has(d.text)) {
        const found = d.kind === 'eof' || d.kind === 'newline' ? '' : `, found ${this.describe(d)}`;
        throw this.errorHere(
          `expected 'rises', 'falls' or 'crosses' after the condition of event '${name.text}'${found}`,
          'Say how the expression crosses zero: rises (upward), falls (downward) or crosses (either way).',
        );
      }
      this.advance();
      const when: StateTrigger = {
        kind: 'when',
        expr,
        direction: d.text as Direction,
        span: this.spanFrom(start.span),
      };
      trigger = when;
    } else if (this.isKeyword('at')) {
      this.advance();
      const times: Expr[] = [this.expression()];
      while (this.isOp(',')) {
        this.advance();
        times.push(this.expression());
      }
      const at: AtTrigger = { kind: 'at', times, span: this.spanFrom(start.span) };
      trigger = at;
    } else if (this.isKeyword('every')) {
      this.advance();
      const period = this.expression();
      let from: Expr | null = null;
      if (this.isKeyword('from')) {
        this.advance();
        from = this.expression();
      }
      const every: EveryTrigger = { kind: 'every', period, from, span: this.spanFrom(start.span) };
      trigger = every;
    } else {
      const found = this.atStatementEnd() ? '' : `, found ${this.describe(this.tok)}`;
      throw this.errorHere(`expected 'when', 'at' or 'every' after the event name '${name.text}'${found}`, triggerHint);
    }
    let locate: { mode: EventLocate; span: Span } | null = null;
    if (this.tok.kind === 'name' && this.tok.text === 'locate') locate = this.eventLocate(name.text, trigger);
    let actions: Action[] | null = null;
    if (this.isKeyword('do')) {
      actions = this.actionBlock(name.text);
    } else if (!this.atStatementEnd()) {
      throw this.expected(
        "'do' or the end of the statement after the trigger",
        'Write the actions between do and end, as in do y := -0.9*y end.',
        trigger.kind === 'at' ? ', or separate the times with commas' : '',
      );
    }
    const ev: EventStatement = {
      kind: 'event',
      name: name.text,
      nameSpan: name.span,
      trigger,
      actions,
      span: this.spanFrom(kw.span),
    };
    if (indices) ev.indices = indices;
    if (locate) {
      ev.locate = locate.mode;
      ev.locateSpan = locate.span;
    }
    return ev;
  }

  /** `locate exact|before|after` after a state event's trigger. */
  private eventLocate(eventName: string, trigger: Trigger): { mode: EventLocate; span: Span } {
    const kw = this.advance();
    if (trigger.kind !== 'when') {
      throw this.errorAt(
        kw.span,
        `'locate' applies to state events (when ... rises/falls/crosses), not to the ${trigger.kind} event '${eventName}'`,
        'A time event is always hit exactly; remove locate, or write the event with when.',
      );
    }
    const m = this.tok;
    if (m.kind !== 'name' || !['exact', 'before', 'after'].includes(m.text)) {
      const found = m.kind === 'eof' || m.kind === 'newline' ? '' : `, found ${this.describe(m)}`;
      throw this.errorHere(
        `expected exact, before or after after 'locate' in event '${eventName}'${found}`,
        'exact (the default) places the event at the crossing; before and after at the start or end of the step that crosses, as fixed-step tools do.',
      );
    }
    this.advance();
    return { mode: m.text as EventLocate, span: this.spanFrom(kw.span) };
  }

  private actionBlock(eventName: string): Action[] {
    const doToken = this.advance();
    const actions: Action[] = [];
    const blockLine = doToken.span.line;
    for (;;) {
      this.skipSeparators();
      const t = this.tok;
      if (this.isKeyword('end')) {
        this.advance();
        return actions;
      }
      if (t.kind === 'eof') {
        throw this.errorAt(
          doToken.span,
          `the 'do' block of event '${eventName}' has no 'end'`,
          'Close the actions with end, as in do y := -0.9*y end.',
        );
      }
      this.statementStart = this.i;
      if (this.isKeyword('stop')) {
        this.advance();
        actions.push({ kind: 'stop', span: t.span });
      } else {
        if (t.kind === 'keyword' && STATEMENT_KEYWORDS.has(t.text)) {
          throw this.errorAt(
            t.span,
            `'${t.text}' cannot stand inside the do ... end block of event '${eventName}'`,
            `Close the block opened on line ${blockLine} with end first.`,
          );
        }
        const target = this.variable(
          "a variable to assign, 'stop' or 'end'",
          "An action reads y := EXPR, y' := EXPR or stop; the block ends with end.",
        );
        if (!this.isOp(':=')) {
          const later =
            target.span.line > doToken.span.line
              ? ` If this line is not an action, the block opened by 'do' on line ${blockLine} is missing its end.`
              : '';
          const found = this.atStatementEnd() || this.isKeyword('end') ? '' : `, found ${this.describe(this.tok)}`;
          throw this.errorHere(
            `expected ':=' after '${target.name}${"'".repeat(target.order)}'${found}`,
            `An action assigns with :=, as in y := -0.9*y.${later}`,
          );
        }
        this.advance();
        const value = this.expression();
        actions.push({ kind: 'assign', target, value, span: this.spanFrom(target.span) });
      }
      if (!this.atStatementEnd() && !this.isKeyword('end') && this.tok.kind !== 'eof') {
        throw this.expected(
          "';', a new line or 'end' after the action",
          'Separate actions with ; or new lines, and close the block with end.',
        );
      }
    }
  }

  private conditionStatement(): ConditionStatement {
    const name = this.tok;
    const target = this.variable('a state', 'A condition reads y(0) = VALUE.');
    const open = this.advance();
    const at = this.expression();
    this.closeParen(open, 'Write the point of the condition in parentheses, as in y(0) = 1.');
    const written = this.source.slice(target.span.start, target.span.end);
    const shown = `${written}(…)`;
    if (!this.isOp('=')) {
      // `y(0) 1` lacks its '=', not a product operator.
      throw this.expected(
        `'=' after '${shown}'`,
        `A condition reads ${written}(0) = VALUE; for a product write ${written}*(…).`,
        '',
        false,
      );
    }
    this.advance();
    const value = this.expression();
    return { kind: 'condition', target, at, value, span: this.spanFrom(name.span) };
  }

  private equationStatement(): EquationStatement {
    const first = this.tok;
    const lhs = this.expression();
    if (!this.isOp('=')) {
      if (this.isOp(':=')) {
        throw this.errorHere(
          "':=' is only used in event actions",
          "Write = for an equation, or put the assignment inside an event's do ... end block.",
        );
      }
      if (lhs.kind === 'binary' && lhs.op === '==' && this.atStatementEnd()) {
        const op = this.tokens.find((t) => t.span.start >= lhs.left.span.end && this.isOp('==', t));
        throw this.errorAt(
          op?.span ?? lhs.span,
          "an equation is written with '=', not '=='",
          "'==' compares two values inside a condition; write y' = -y for an equation.",
        );
      }
      if (this.atStatementEnd()) {
        throw this.errorHere(
          "expected '=': this line is not a statement",
          "Write an equation such as y' = -y, or start the line with a keyword such as parameter or event.",
        );
      }
      throw this.expected("'=' after the left-hand side", "Write an equation such as y' = -y.");
    }
    this.advance();
    const rhs = this.expression();
    if (this.isKeyword('while')) {
      // a rule that holds only in a situation (rules.ts gives it its meaning)
      this.advance();
      const condition = this.expression();
      return { kind: 'equation', lhs, rhs, span: this.spanFrom(first.span), while: condition };
    }
    return { kind: 'equation', lhs, rhs, span: this.spanFrom(first.span) };
  }

  /** A name without primes that the statement declares. `noFunction` refuses builtin function names, which a call would shadow. */
  private plainName(what: string, hint: string, noFunction = true): Token {
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
  private variable(what: string, hint: string): VariableRef {
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

  private functionAsName(t: Token): ModelError {
    return this.errorAt(
      t.span,
      `'${t.text}' is a built-in function and cannot be used as a name`,
      `Choose another name, such as ${t.text}_ or ${t.text}1.`,
    );
  }

  private closeParen(open: Token, hint: string): void {
    if (this.isOp(')')) {
      this.advance();
      return;
    }
    if (this.tok.kind === 'eof') {
      throw this.errorAt(open.span, "this '(' is never closed", "Add the matching ')'.");
    }
    throw this.expected(`')' to close the '(' at ${open.span.line}:${open.span.column}`, hint);
  }

  // -------------------------------------------------------------------------
  // Expressions, lowest precedence first

  private expression(): Expr {
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

  private orLevel(): Expr {
    let left = this.andLevel();
    while (this.isKeyword('or')) {
      const op = this.advance();
      const right = this.andLevel();
      left = this.binary('or', left, right, op.span);
    }
    return left;
  }

  private andLevel(): Expr {
    let left = this.notLevel();
    while (this.isKeyword('and')) {
      const op = this.advance();
      const right = this.notLevel();
      left = this.binary('and', left, right, op.span);
    }
    return left;
  }

  private notLevel(): Expr {
    if (!this.isKeyword('not')) return this.comparison();
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
    while (this.isOp('+') || this.isOp('-')) {
      const op = this.advance();
      const right = this.multiplicative();
      left = this.binary(op.text as BinaryOp, left, right, op.span);
    }
    return left;
  }

  private multiplicative(): Expr {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/')) {
      const op = this.advance();
      const right = this.unary();
      left = this.binary(op.text as BinaryOp, left, right, op.span);
    }
    return left;
  }

  private unary(): Expr {
    if (!(this.isOp('-') || this.isOp('+'))) return this.power();
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
    if (!this.isOp('^')) return base;
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
    return this.measured(
      { kind: 'binary', op, left, right, span: this.join(left.span, right.span) },
      [left, right],
      opSpan,
    );
  }

  /**
   * Records the depth of `node` (`extra` above its deepest child) and refuses trees deeper than
   * {@link MAX_TREE_DEPTH}: later stages walk the tree recursively, and so does JSON.stringify.
   */
  private measured<T extends Expr>(node: T, children: readonly Expr[], at: Span, extra = 1): T {
    let depth = 0;
    for (const c of children) depth = Math.max(depth, this.depths.get(c) ?? 1);
    depth += extra;
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
