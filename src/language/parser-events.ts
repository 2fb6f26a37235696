/**
 * Events: `event NAME[indices] when EXPR rises|falls|crosses`, `at T1, T2` or `every P from
 * T0`, an optional `locate exact|before|after`, and the actions between `do` and `end`
 * (`y := EXPR`, `y' := EXPR`, `stop`). The level of the parser chain (see `parser-tokens.ts`)
 * between expressions (`parser-expressions.ts`) and the other statements (`parser.ts`).
 */
import type {
  Action,
  AtTrigger,
  Direction,
  EventLocate,
  EventStatement,
  EveryTrigger,
  Expr,
  Span,
  StateTrigger,
  Trigger,
} from '../expression/ast.js';
import { ExpressionParser } from './parser-expressions.js';

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

export class EventParser extends ExpressionParser {
  protected eventStatement(): EventStatement {
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
}
