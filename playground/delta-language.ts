/**
 * The .delta language for CodeMirror: a stream tokenizer after the lexer's rules
 * (src/language/lexer.ts): `#` and `//` comments, numbers with exponents, names with their
 * primes, `:=` and the other operators. Keywords and functions come from the library's
 * entry when the page is built (KEYWORDS, BUILTIN_FUNCTIONS), so that the highlighting follows
 * the language; `delta` has a tag of its own.
 */
import { HighlightStyle, StreamLanguage, syntaxHighlighting, type StringStream } from '@codemirror/language';
import { Tag, tags } from '@lezer/highlight';
import WORDS from 'virtual:language';

/** `delta(...)`: the point of the language, shown apart from the other functions. */
export const deltaTag = Tag.define();

const KEYWORDS = new Set(WORDS.keywords);
const FUNCTIONS = new Set([...WORDS.functions, 'sum', 'prod']);
const CONSTANTS = new Set(['e', 'pi']);

function token(stream: StringStream): string | null {
  if (stream.eatSpace()) return null;
  if (stream.match('#') || stream.match('//')) {
    stream.skipToEnd();
    return 'comment';
  }
  if (stream.match(/^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/)) return 'number';
  const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/) as RegExpMatchArray | null;
  if (word) {
    const name = word[0];
    if (KEYWORDS.has(name)) return 'keyword';
    const primes = stream.match(/^'+/);
    if (!primes && name === 'delta' && stream.match(/^\s*\(/, false)) return 'delta';
    if (!primes && FUNCTIONS.has(name) && stream.match(/^\s*\(/, false)) return 'function';
    if (!primes && CONSTANTS.has(name)) return 'constant';
    return primes ? 'derivative' : 'variableName';
  }
  // (primes after `]`: the derivative of an array element, x[i]')
  if (stream.match(/^'+/)) return 'derivative';
  if (stream.match(/^(:=|<=|>=|==|!=|[-+*/^=<>])/)) return 'operator';
  if (stream.match(/^[()[\]]/)) return 'bracket';
  if (stream.match(/^[,;:]/)) return 'punctuation';
  // the playground's check marks what the lexer refuses (a stray character) with its message
  stream.next();
  return 'invalid';
}

export const deltaLanguage = StreamLanguage.define<null>({
  name: 'delta',
  startState: () => null,
  token,
  tokenTable: {
    delta: deltaTag,
    function: tags.function(tags.variableName),
    constant: tags.constant(tags.variableName),
    derivative: tags.special(tags.variableName),
  },
  languageData: { commentTokens: { line: '#' } },
});

/** Colours on white, readable and apart: keywords blue, delta bold red, numbers green. */
export const deltaHighlighting = syntaxHighlighting(
  HighlightStyle.define([
    { tag: tags.keyword, color: '#1d4ed8', fontWeight: '600' },
    { tag: deltaTag, color: '#c2410c', fontWeight: '700' },
    { tag: tags.number, color: '#047857' },
    { tag: tags.comment, color: '#6b7280', fontStyle: 'italic' },
    { tag: tags.function(tags.variableName), color: '#7c3aed' },
    { tag: tags.constant(tags.variableName), color: '#0e7490' },
    { tag: tags.special(tags.variableName), color: '#111827', fontWeight: '600' },
    { tag: tags.variableName, color: '#111827' },
    { tag: tags.operator, color: '#4b5563' },
    { tag: [tags.bracket, tags.punctuation], color: '#6b7280' },
    { tag: tags.invalid, color: '#dc2626', textDecoration: 'underline wavy' },
  ]),
);
