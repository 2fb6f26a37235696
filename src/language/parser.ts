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
 * The parser is a chain of classes, one job per file, each calling only down the chain:
 * the token stream, spans and errors (`parser-tokens.ts`) < expressions, one method per
 * precedence level (`parser-expressions.ts`) < events and their actions (`parser-events.ts`)
 * < the other statements, `for` blocks and the entry points (this file).
 */
import type {
  ArrayDeclaration,
  ConditionStatement,
  Declaration,
  EquationStatement,
  Expr,
  ForStatement,
  IndependentStatement,
  ModelAst,
  ModelStatement,
  OptionStatement,
  OutputStatement,
  SituationStatement,
  Statement,
  VariableRef,
} from '../expression/ast.js';
import { REDUCTIONS } from '../expression/ast.js';
import type { ExpandOptions } from './array-expressions.js';
import { expandArrays } from './arrays.js';
import { tokenize } from './lexer.js';
import type { Token } from './lexer.js';
import { EventParser } from './parser-events.js';
import { FUNCTIONS } from './parser-expressions.js';

/**
 * Parses a model file and writes its arrays out; throws a {@link ModelError} (with
 * file:line:col, the line, a caret and a hint) on bad input. `options.set` gives values of
 * structural parameters (those that ranges and indices use) to expand with.
 */
export function parseModel(source: string, file: string, options: ExpandOptions = {}): ModelAst {
  const tokens = tokenize(source, file);
  const ast = new Parser(tokens, source, file).parse();
  // Every array, index, loop and sum comes with a '[' or the word in: without either the
  // model has none, and expandArrays would walk every expression to find that out.
  return mayUseArrays(tokens) ? expandArrays(ast, options) : ast;
}

function mayUseArrays(tokens: readonly Token[]): boolean {
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if ((t.kind === 'operator' && t.text === '[') || (t.kind === 'keyword' && t.text === 'in')) return true;
  }
  return false;
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

/** Statements that say something about the whole model, not about one element: never inside a `for` block. */
const WHOLE_MODEL_KEYWORDS: ReadonlySet<string> = new Set([
  'model',
  'independent',
  'parameter',
  'unknown',
  'discrete',
  'option',
]);

const DECLARATION_HINTS: ReadonlyMap<string, string> = new Map([
  ['parameter', 'Give each parameter a value, as in parameter g = 9.81, m = 1.'],
  ['unknown', 'Give each unknown a starting guess, as in unknown H = 5.'],
  ['discrete', 'Give each discrete variable an initial value, as in discrete n = 0.'],
]);

type DeclarationKind = 'parameter' | 'unknown' | 'discrete';

class Parser extends EventParser {
  private modelToken: Token | null = null;

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
}
