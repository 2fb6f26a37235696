/**
 * The lexer of the `.delta` model language (see docs/language.md, "Lexical rules").
 *
 * Contract:
 * 1. `tokenize(source, file)` returns the whole token list, ending with one `eof` token, or
 *    throws a {@link ModelError} at the first character it cannot read.
 * 2. Every token lies on one line; its span gives offsets into `source` and the 1-based line
 *    and column (UTF-16 code units) of its first character. Line breaks are `\n`, `\r\n` and
 *    `\r`, counted as in {@link ModelError}.
 * 3. A name token carries the primes written directly after it (`y''` is one token with
 *    `text` "y" and `primes` 2); its span covers the primes. So does `]`, for the derivative of
 *    an array element (`x[i]'`: the `]` token has `primes` 1).
 * 4. Keywords ({@link KEYWORDS}) come out as `keyword` tokens; `e` and `pi` are names.
 * 5. `newline` tokens separate statements. None is emitted where the line continues: inside
 *    parentheses or brackets, after a binary operator, `,`, `=`, `:=`, or one of the words
 *    `and or not if then else`. Consecutive line breaks give one token; comments
 *    (`#`, `//`) and blank lines give none.
 */
import type { Span } from '../expression/ast.js';
import { KEYWORDS } from '../expression/ast.js';
import { ModelError } from '../expression/errors.js';

export type TokenKind = 'number' | 'name' | 'keyword' | 'operator' | 'newline' | 'eof';

export interface Token {
  kind: TokenKind;
  /** the name (without primes), keyword, operator or number as written; '' for newline and eof */
  text: string;
  /** the value of a number token; 0 for other kinds */
  value: number;
  /** how many primes follow a name (`y''`: 2); 0 for other kinds */
  primes: number;
  span: Span;
}

/** Operators, longest first so that `:=`, `<=`, `==` win over their prefixes. */
const OPERATORS: readonly string[] = [
  ':=',
  '<=',
  '>=',
  '==',
  '!=',
  '+',
  '-',
  '*',
  '/',
  '^',
  '(',
  ')',
  '[',
  ']',
  ':',
  ',',
  ';',
  '=',
  '<',
  '>',
];

/** After one of these a line break does not end the statement: the expression is unfinished. */
const TWO_CHARACTER: ReadonlySet<string> = new Set(OPERATORS.filter((op) => op.length === 2));
const ONE_CHARACTER: ReadonlySet<string> = new Set(OPERATORS.filter((op) => op.length === 1));
const CONTINUING_OPERATORS: ReadonlySet<string> = new Set([
  '+',
  '-',
  '*',
  '/',
  '^',
  ',',
  '=',
  ':=',
  '<',
  '<=',
  '>',
  '>=',
  '==',
  '!=',
]);
const CONTINUING_KEYWORDS: ReadonlySet<string> = new Set(['and', 'or', 'not', 'if', 'then', 'else', 'while']);

/** Hints for characters that users bring from other languages. */
const CHARACTER_HINTS: ReadonlyMap<string, string> = new Map([
  ['{', 'Use ( ) for grouping; the actions of an event go between do and end.'],
  ['}', 'Use ( ) for grouping; the actions of an event go between do and end.'],
  ['!', "Write != for 'not equal' and not for negation."],
  ['&', 'Write and to combine conditions.'],
  ['|', 'Write or to combine conditions.'],
  ['"', 'The language has no strings; write a bare word, as in option method = dop853.'],
  ['.', 'A number needs a digit after the point, as in .5 or 0.5.'],
  ['%', 'There is no % operator; use the functions listed in the model language description.'],
  // Characters that come in when an equation is pasted from a typeset document.
  ['\u00a0', 'This is a non-breaking space; replace it with an ordinary space.'],
  ['\u2212', 'This is a typographic minus; write the ASCII -.'],
  ['\u00d7', 'Write * for a product.'],
  ['\u00b7', 'Write * for a product.'],
  ['\u2019', "This is a typographic apostrophe; write the ASCII ' for a derivative, as in y'."],
]);

// (on character codes: the characters as strings, one per position, were a third of the
// lexer's time on a 186 KB model; charCodeAt past the end gives NaN, which is none of these)
function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isNameStart(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
}

function isNamePart(code: number): boolean {
  return isNameStart(code) || isDigit(code);
}

/**
 * The value of src[start, end) when it is a run of at most 15 digits (exact in a double, as
 * Number gives it), else null. (Most numbers of a large model are such indices and counts,
 * and Number's parse of the text was a fifth of the lexer's time.)
 */
function wholeNumber(src: string, start: number, end: number): number | null {
  if (end - start > 15) return null;
  let v = 0;
  for (let p = start; p < end; p++) {
    const c = src.charCodeAt(p);
    if (!isDigit(c)) return null;
    v = v * 10 + (c - 48);
  }
  return v;
}

/** The operator at src[pos] (two characters before one), or undefined. */
function operatorAt(src: string, pos: number): string | undefined {
  // (every two-character operator ends in =)
  if (src.charCodeAt(pos + 1) === 61) {
    const two = src.slice(pos, pos + 2);
    if (TWO_CHARACTER.has(two)) return two;
  }
  const one = src[pos];
  return ONE_CHARACTER.has(one) ? one : undefined;
}

/** A character as a user can recognise it in a message: printable ASCII as is, anything else with its code point. */
function showCharacter(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code > 0x20 && code < 0x7f) return `'${ch}'`;
  const invisible =
    code < 0x20 ||
    (code >= 0x7f && code <= 0xa0) ||
    (code >= 0x2000 && code <= 0x200f) ||
    (code >= 0xd800 && code <= 0xdfff) ||
    code === 0xfeff;
  if (invisible) {
    return hex; // invisible: the code point is all one can show
  }
  return `'${ch}' (${hex})`;
}

/** Splits `source` into tokens; throws a {@link ModelError} at the first unreadable character. */
export function tokenize(source: string, file: string): Token[] {
  return new Lexer(source, file).run();
}

class Lexer {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  /** open parentheses and brackets; never below zero, so that a stray ')' is the parser's to report */
  private depth = 0;
  private readonly tokens: Token[] = [];

  constructor(
    private readonly source: string,
    private readonly file: string,
  ) {}

  run(): Token[] {
    this.rejectBinary();
    const src = this.source;
    // A byte-order mark is an editor's artefact, not part of the model.
    if (src.charCodeAt(0) === 0xfeff) this.pos = 1;
    const n = src.length;
    while (this.pos < n) {
      const c = src.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 12 || c === 11) {
        let p = this.pos + 1;
        for (let d = src.charCodeAt(p); d === 32 || d === 9 || d === 12 || d === 11; d = src.charCodeAt(++p));
        this.pos = p;
      } else if (c === 10 || c === 13) {
        this.lineBreak();
      } else if (c === 35 /* # */ || (c === 47 /* / */ && src.charCodeAt(this.pos + 1) === 47)) {
        while (this.pos < n && src.charCodeAt(this.pos) !== 10 && src.charCodeAt(this.pos) !== 13) this.pos++;
      } else if (isDigit(c) || (c === 46 /* . */ && isDigit(src.charCodeAt(this.pos + 1)))) {
        this.number();
      } else if (isNameStart(c)) {
        this.word();
      } else if (c === 39 /* ' */) {
        throw this.error(
          this.pos,
          1,
          "unexpected prime (')",
          "A prime must follow a name directly, as in y' or delta'(u); write the derivative of an expression out.",
        );
      } else {
        this.operatorOrStray();
      }
    }
    const end = this.span(this.pos, this.pos);
    this.tokens.push({ kind: 'eof', text: '', value: 0, primes: 0, span: end });
    return this.tokens;
  }

  /** NUL bytes and U+FFFD (what a decoder makes of invalid UTF-8) mean the file is not text at all. */
  private rejectBinary(): void {
    const src = this.source;
    // (the first NUL or U+FFFD, by the string's own search)
    const nul = src.indexOf('\0'),
      bad = src.indexOf('\ufffd');
    const i = nul < 0 ? bad : bad < 0 ? nul : Math.min(nul, bad);
    if (i >= 0) {
      const code = src.charCodeAt(i);
      const { line, column } = positionOf(src, i);
      const what =
        code === 0
          ? 'this file is not a text model: it contains a NUL byte'
          : 'this file is not a text model: it contains bytes that are not valid UTF-8 (U+FFFD)';
      throw new ModelError(
        this.file,
        src,
        { start: i, line, column },
        what,
        'Give deltastep a .delta text file saved as UTF-8.',
      );
    }
  }

  private lineBreak(): void {
    const start = this.pos;
    if (this.source[this.pos] === '\r' && this.source[this.pos + 1] === '\n') this.pos += 2;
    else this.pos += 1;
    const last = this.tokens[this.tokens.length - 1];
    const continues =
      last === undefined ||
      last.kind === 'newline' ||
      this.depth > 0 ||
      (last.kind === 'operator' && CONTINUING_OPERATORS.has(last.text)) ||
      (last.kind === 'keyword' && CONTINUING_KEYWORDS.has(last.text));
    if (!continues) {
      this.tokens.push({ kind: 'newline', text: '', value: 0, primes: 0, span: this.span(start, this.pos) });
    }
    this.line++;
    this.lineStart = this.pos;
  }

  private number(): void {
    const src = this.source;
    const start = this.pos;
    while (isDigit(src.charCodeAt(this.pos))) this.pos++;
    if (src.charCodeAt(this.pos) === 46) {
      this.pos++;
      while (isDigit(src.charCodeAt(this.pos))) this.pos++;
    }
    if (src[this.pos] === 'e' || src[this.pos] === 'E') {
      let p = this.pos + 1;
      if (src[p] === '+' || src[p] === '-') p++;
      if (isDigit(src.charCodeAt(p))) {
        this.pos = p;
        while (isDigit(src.charCodeAt(this.pos))) this.pos++;
      } else {
        const bad = this.malformedEnd(this.pos + 1);
        const text = src.slice(start, bad);
        const mantissa = src.slice(start, this.pos);
        const rest = src.slice(this.pos, bad);
        throw this.error(
          start,
          bad - start,
          `malformed number '${text}': the exponent has no digits`,
          `Write the exponent with digits, as in ${mantissa}e-3; for a product write ${mantissa}*${rest}.`,
        );
      }
    }
    if (src[this.pos] === '.') {
      const bad = this.malformedEnd(this.pos);
      throw this.error(
        start,
        bad - start,
        `malformed number '${src.slice(start, bad)}'`,
        'A number has at most one decimal point and an optional exponent, as in 1.25 or 2.5e-3.',
      );
    }
    const text = src.slice(start, this.pos);
    const value = wholeNumber(src, start, this.pos) ?? Number(text);
    if (!Number.isFinite(value)) {
      throw this.error(
        start,
        this.pos - start,
        `the number ${text} is too large for double precision (at most about 1.8e308)`,
        'Write a smaller number, or rescale the model (other units).',
      );
    }
    this.tokens.push({ kind: 'number', text, value, primes: 0, span: this.span(start, this.pos) });
  }

  /** The end of the run of characters that belong to a botched number, to show all of it. */
  private malformedEnd(from: number): number {
    let p = from;
    while (p < this.source.length && (isNamePart(this.source.charCodeAt(p)) || this.source[p] === '.')) p++;
    return p;
  }

  private word(): void {
    const src = this.source;
    const start = this.pos;
    // (a local position: the field at every character was most of this loop's work)
    let p = start;
    while (p < src.length && isNamePart(src.charCodeAt(p))) p++;
    const text = src.slice(start, p);
    const nameEnd = p;
    while (src.charCodeAt(p) === 39) p++;
    this.pos = p;
    const primes = p - nameEnd;
    if (KEYWORDS.has(text)) {
      if (primes > 0) {
        throw this.error(
          nameEnd,
          1,
          `a prime cannot follow the reserved word '${text}'`,
          `Primes mark derivatives of variables (y') and of delta (delta'(u)); '${text}' is a reserved word, not a variable.`,
        );
      }
      this.tokens.push({ kind: 'keyword', text, value: 0, primes: 0, span: this.span(start, this.pos) });
      return;
    }
    this.tokens.push({ kind: 'name', text, value: 0, primes, span: this.span(start, this.pos) });
  }

  private operatorOrStray(): void {
    const src = this.source;
    // (the two-character operators first, then one table look-up: scanning the 20 operators
    // with startsWith for each was a tenth of the parse of a 3000-line model)
    const op = operatorAt(src, this.pos);
    if (op !== undefined) {
      if (op === '(' || op === '[') this.depth++;
      else if ((op === ')' || op === ']') && this.depth > 0) this.depth--;
      const start = this.pos;
      this.pos += op.length;
      let primes = 0;
      if (op === ']')
        while (src[this.pos] === "'") {
          this.pos++;
          primes++;
        }
      this.tokens.push({ kind: 'operator', text: op, value: 0, primes, span: this.span(start, this.pos) });
      return;
    }
    const ch = String.fromCodePoint(src.codePointAt(this.pos) ?? 0);
    const isLetter = /\p{L}/u.test(ch);
    const hint =
      CHARACTER_HINTS.get(ch) ??
      (isLetter
        ? 'Names use the ASCII letters a-z and A-Z, digits and _; spell the letter out (alpha, mu, ...).'
        : 'Remove it: a model uses names, numbers, + - * / ^ ( ) , ; = := < <= > >= == != and # comments.');
    throw this.error(this.pos, ch.length, `unexpected character ${showCharacter(ch)}`, hint);
  }

  private span(start: number, end: number): Span {
    return { start, end, line: this.line, column: start - this.lineStart + 1 };
  }

  private error(start: number, length: number, what: string, hint: string): ModelError {
    return new ModelError(this.file, this.source, this.span(start, start + length), what, hint);
  }
}

/** 1-based line and column of `offset`, counting line breaks as {@link ModelError} does. */
export function positionOf(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    const c = source[i];
    if (c === '\n' || (c === '\r' && source[i + 1] !== '\n')) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
