/**
 * User text (flag values, file paths) echoed in a message, with the characters that would act
 * on the terminal instead of showing written out as `\u{001B}`: C0 and C1 controls and DEL
 * (an ESC, a line feed, a tab), the line and paragraph separators and the bidirectional
 * controls (which reorder what follows: U+202E shows `abc` as `cba`). A message is then one
 * line that reads as typed. The set and the form are those of the model error's source echo
 * (src/expression/errors.ts).
 */

/** what is escaped: controls, DEL, C1, the Arabic letter mark, LRM/RLM, LS/PS, the embeddings, overrides and isolates */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_BUT_NEWLINE =
  // eslint-disable-next-line no-control-regex -- the same, the line feed aside
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `\u{001B}`: one form for every character, as the model error writes its source */
const written = (c: string): string => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`;

/** `text` with every control and bidirectional character written out (`\u{001B}`, `\u{202E}`). */
export function escapeText(text: string): string {
  return text.replace(UNSAFE, written);
}

/** The same, line feeds kept: for a message of several lines (a model error with its caret). */
export function escapeLines(text: string): string {
  return text.replace(UNSAFE_BUT_NEWLINE, written);
}
