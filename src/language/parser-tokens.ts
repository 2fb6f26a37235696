/**
 * The token stream under the parser: the position and lookahead, spans, and the errors with
 * their hints ("expected X, found Y", two operands without an operator, a line break that a
 * continuation swallowed), and the guard on nesting.
 *
 * The parser is a chain of classes, one job per file, each calling only down the chain (as
 * Babel's parser is built): TokenStream (this file) < ExpressionParser
 * (`parser-expressions.ts`) < EventParser (`parser-events.ts`) < Parser (`parser.ts`, the
 * other statements and the entry points).
 */
import type { Span } from '../expression/ast.js';
import { ModelError } from '../expression/errors.js';
import type { Token } from './lexer.js';

const CONTINUING_KEYWORDS: ReadonlySet<string> = new Set(['and', 'or', 'not', 'if', 'then', 'else', 'while']);

/** Deep enough for any model a person writes; shallow enough that recursion cannot exhaust the stack. */
const MAX_NESTING = 200;

export class TokenStream {
  protected i = 0;
  /** index of the first token of the statement or action being parsed */
  protected statementStart = 0;
  private nesting = 0;
  private variables: Set<string> | null = null;
  /**
   * The current token, tokens[i] (a field that advance moves: as a getter it was a call at
   * every look, several per token of every precedence level)
   */
  protected tok: Token;

  constructor(
    protected readonly tokens: Token[],
    protected readonly source: string,
    protected readonly file: string,
  ) {
    this.tok = tokens[0];
  }

  /**
   * Names the file uses as variables (bare or primed): `y(` with such a y is a forgotten `*`,
   * not an unknown function. (Worked out when first asked, by that message only: a pass over
   * every token of a large model for it was a seventh of the parse.)
   */
  protected get variableNames(): ReadonlySet<string> {
    if (this.variables === null) {
      const names = new Set<string>();
      const tokens = this.tokens;
      for (let k = 0; k < tokens.length; k++) {
        const t = tokens[k];
        if (t.kind !== 'name') continue;
        const next = tokens[k + 1];
        if ((t.primes > 0 && t.text !== 'delta') || !(next.kind === 'operator' && next.text === '(')) names.add(t.text);
      }
      this.variables = names;
    }
    return this.variables;
  }

  /** (a method, so that the narrowing of `this.tok` before a parse does not hold after it) */
  protected peekKind(): Token['kind'] {
    return this.tok.kind;
  }

  /** The first token after the `]` that matches the `[` at token index k (or the eof token). */
  protected afterBrackets(k: number): Token {
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

  protected get previous(): Token | undefined {
    return this.i > 0 ? this.tokens[this.i - 1] : undefined;
  }

  protected peek(k = 1): Token {
    return this.tokens[Math.min(this.i + k, this.tokens.length - 1)];
  }

  protected advance(): Token {
    const t = this.tok;
    if (t.kind !== 'eof') this.tok = this.tokens[++this.i];
    return t;
  }

  protected isOp(text: string, t: Token = this.tok): boolean {
    return t.kind === 'operator' && t.text === text;
  }

  protected isKeyword(text: string, t: Token = this.tok): boolean {
    return t.kind === 'keyword' && t.text === text;
  }

  protected atStatementEnd(): boolean {
    const t = this.tok;
    return t.kind === 'newline' || t.kind === 'eof' || this.isOp(';');
  }

  protected skipSeparators(): void {
    while (this.tok.kind === 'newline' || this.isOp(';')) this.advance();
  }

  // -------------------------------------------------------------------------
  // Spans and errors

  /** The span from `first` to the end of the last consumed token. */
  protected spanFrom(first: Span): Span {
    const last = this.previous;
    const end = last !== undefined && last.span.end > first.start ? last.span.end : first.end;
    return { start: first.start, end, line: first.line, column: first.column };
  }

  protected join(a: Span, b: Span): Span {
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

  protected errorAt(span: Span, what: string, hint: string): ModelError {
    return new ModelError(this.file, this.source, span, what, hint);
  }

  /** An error at the current token; explains a line continuation when that is what swallowed the line break. */
  protected errorHere(what: string, hint: string): ModelError {
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

  protected describe(t: Token): string {
    switch (t.kind) {
      case 'eof':
        return 'the end of the file';
      case 'newline':
        return 'the end of the line';
      default:
        return `'${this.display(t)}'`;
    }
  }

  protected display(t: Token): string {
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
  protected expected(what: string, hint: string, listHint = '', guessOperator = true): ModelError {
    const t = this.tok;
    const p = this.previous;
    // Across a swallowed line break the likelier mistake is an unclosed parenthesis or a dangling operator.
    const sameLine = p !== undefined && p.span.line === t.span.line;
    if (guessOperator && sameLine && TokenStream.endsOperand(p) && TokenStream.startsOperand(t) && p !== undefined) {
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

  protected reservedWord(t: Token): ModelError {
    return this.errorAt(
      t.span,
      `'${t.text}' is a reserved word and cannot be used as a name`,
      `Choose another name, such as ${t.text}_ or ${t.text}1.`,
    );
  }

  protected enter(): void {
    if (++this.nesting > MAX_NESTING) {
      throw this.errorHere(
        'this expression is nested too deeply',
        'Split it into named variables (N = EXPR), one per line.',
      );
    }
  }

  protected leave(): void {
    this.nesting--;
  }

  protected functionAsName(t: Token): ModelError {
    return this.errorAt(
      t.span,
      `'${t.text}' is a built-in function and cannot be used as a name`,
      `Choose another name, such as ${t.text}_ or ${t.text}1.`,
    );
  }

  protected closeParen(open: Token, hint: string): void {
    if (this.isOp(')')) {
      this.advance();
      return;
    }
    if (this.tok.kind === 'eof') {
      throw this.errorAt(open.span, "this '(' is never closed", "Add the matching ')'.");
    }
    throw this.expected(`')' to close the '(' at ${open.span.line}:${open.span.column}`, hint);
  }
}
