import type { Span } from './ast.js';
import { escapeText, maskText } from './terminal-text.js';

/**
 * The one error type of the front end and the symbolic stage: something is wrong with the
 * model text. Its message is the whole report a user sees:
 *
 * ```
 * ball.delta:2:11: expected an expression after '*'
 *   y' = -y + * 2
 *             ^
 * Write a number, a name or a parenthesised expression here.
 * ```
 *
 * `what` is the first line without the position, `hint` the last line (what to do).
 */
export class ModelError extends Error {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly what: string;
  readonly hint: string;
  readonly sourceLine: string;

  constructor(
    file: string,
    source: string,
    span: Pick<Span, 'start' | 'line' | 'column' | 'context'> | null,
    what: string,
    hint: string,
  ) {
    // (text written out from a for block names its loop values: `(where i = 3)`)
    const where = span?.context ? ` (where ${span.context})` : '';
    const line = span?.line ?? 1;
    const column = span?.column ?? 1;
    const sourceLine = lineOf(source, line);
    const caret = ' '.repeat(Math.max(0, column - 1)) + '^';
    const shown = sourceLine.length > 0 ? `\n  ${sourceLine}\n  ${caret}` : '';
    super(`${escapeText(file)}:${line}:${column}: ${escapeText(what)}${where}${shown}${hint ? `\n${hint}` : ''}`);
    this.name = 'ModelError';
    this.file = file;
    this.line = line;
    this.column = column;
    this.what = what;
    this.hint = hint;
    this.sourceLine = sourceLine;
  }
}

function lineOf(source: string, line: number): string {
  const lines = source.split(/\r\n|\r|\n/);
  const text = lines[line - 1] ?? '';
  // Tabs would misalign the caret; control and bidirectional characters would garble a terminal.
  return maskText(text);
}

/** Binds a file name and its text so that stages can raise errors at a span in one call. */
export class ErrorReporter {
  constructor(
    readonly file: string,
    readonly source: string,
  ) {}

  /** Builds (does not throw) the error at `span`. */
  at(span: Pick<Span, 'start' | 'line' | 'column'> | null, what: string, hint: string): ModelError {
    return new ModelError(this.file, this.source, span, what, hint);
  }
}
