/**
 * Text from a user (a model's line, a file name, a flag's value) echoed in a message must not
 * change how a terminal shows the rest: control characters (C0, DEL, C1: an ESC sequence, a
 * line feed, a tab), the line and paragraph separators, and the bidirectional embeddings,
 * overrides, isolates and marks that reorder what follows (U+202E shows `abc` as `cba`). They
 * are written out as `\u{202E}`, one form everywhere, so a message is one line that reads as
 * typed; the source line under a caret masks them instead, one character each.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_BUT_NEWLINE =
  // eslint-disable-next-line no-control-regex -- the same, the line feed aside
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const written = (c: string): string => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`;

/** `text` with every control and bidirectional character written out (`\u{001B}`, `\u{202E}`). */
export function escapeText(text: string): string {
  return text.replace(UNSAFE, written);
}

/** The same, line feeds kept: for a message of several lines (a model error with its caret). */
export function escapeLines(text: string): string {
  return text.replace(UNSAFE_BUT_NEWLINE, written);
}

/** The text with each such character (and a tab) replaced by one character, so that a caret under it stays aligned. */
export function maskText(text: string): string {
  return text.replace(/\t/g, ' ').replace(UNSAFE, '?');
}
