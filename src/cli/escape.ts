/**
 * User text (flag values, file paths) echoed in a message, with the characters that would act
 * on the terminal instead of showing written out: C0 and C1 controls and DEL as `\x1b` (a line
 * feed, return and tab as `\n`, `\r`, `\t`), the line and paragraph separators and the
 * bidirectional controls (which reorder what follows: U+202E shows `abc` as `cba`) as
 * `\u{202E}`. A message is then one line that reads as typed. (The model-source echo of
 * ModelError, src/expression/errors.ts, should use the same set.)
 */

/** what is escaped: controls, DEL, C1, the Arabic letter mark, LRM/RLM, LS/PS, the embeddings, overrides and isolates */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_BUT_NEWLINE =
  // eslint-disable-next-line no-control-regex -- the same, the line feed aside
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED = new Map([
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
]);

const written = (c: string): string => {
  const named = NAMED.get(c);
  if (named !== undefined) return named;
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16).toUpperCase()}}`;
};

/** `text` with every control and bidirectional character written out (`\x1b`, `\u{202E}`). */
export function escapeText(text: string): string {
  return text.replace(UNSAFE, written);
}

/** The same, line feeds kept: for a message of several lines (a model error with its caret). */
export function escapeLines(text: string): string {
  return text.replace(UNSAFE_BUT_NEWLINE, written);
}
