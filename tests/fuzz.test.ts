import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModelError } from '../src/expression/errors.js';
import { parseModel } from '../src/language/parser.js';
import { FAMILY_MODELS } from './fuzz-models.js';

/**
 * The front end's robustness contract: on any text, `parseModel` returns a tree or throws a
 * ModelError whose message starts with file:line:col. Never another exception, never a hang.
 * Seeds are fixed so that a failure reproduces; sizes are bounded so that the suite takes seconds.
 */

const MODELS_DIR = fileURLToPath(new URL('./fixtures/reference/models/', import.meta.url));
const SEED = 20240611;

const VALID_MODELS: readonly string[] = [
  ...readdirSync(MODELS_DIR)
    .filter((f) => f.endsWith('.delta') && f !== 'reject_syntax.delta')
    .sort()
    .map((f) => readFileSync(`${MODELS_DIR}${f}`, 'utf8')),
  `model BouncingBall
parameter g = 9.81, e = 0.8
event bounce when h falls
h'' = -g - (1 + e)*h'*delta(t - bounce)
h(0) = 10; h'(0) = 0
`,
  `independent t from 0 to 5
parameter m1 = 1, m2 = 2, e = 0.8
discrete n = 0
situation close = x2 - x1 < 0.1 and not n > 3
output x1, x1', n
option method = dop853
event hit when x1 - x2 rises do n := n + 1; x1' := x1' -
  J/m1
  stop
end
event kick at 1, 2 do x2 := x2 + 1 end
event tick every 0.5 from 1
J = (1 + e)*m1*m2/(m1 + m2)*(x1' - x2')
m1*x1'' = -J*delta(t - hit) + delta'(t - 1) + if close then 1 else -2^-1
m2*x2'' =  J*delta(t - hit)
x1(0) = 0; x1'(0) = 1; x2(0) = 1; x2'(0) = 0
`,
  // arrays and sums, while rules, option zeno, coincident events, kinks, stiff (fuzz-models.ts)
  ...FAMILY_MODELS,
];

/** Everything a model can contain, as the lexer sees it, plus some near misses. */
const VOCABULARY: readonly string[] = [
  'model',
  'independent',
  'from',
  'to',
  'parameter',
  'unknown',
  'discrete',
  'situation',
  'output',
  'option',
  'event',
  'when',
  'rises',
  'falls',
  'crosses',
  'at',
  'every',
  'do',
  'end',
  'stop',
  'if',
  'then',
  'else',
  'and',
  'or',
  'not',
  'for',
  'in',
  'while',
  'sum',
  'prod',
  'x[i]',
  '[',
  ']',
  ':',
  '1:N',
  'max',
  'sqrt',
  'abs',
  'locate',
  'zeno',
  'continue',
  'x',
  'y',
  "y'",
  "y''",
  't',
  'e',
  'pi',
  'n',
  'constructor',
  '__proto__',
  'sin',
  'atan2',
  'min',
  'delta',
  "delta'",
  "delta''",
  'step',
  'foo',
  "sin'",
  '0',
  '1',
  '2.5',
  '.5',
  '1e-3',
  '2E+4',
  '1e',
  '1.2.3',
  '+',
  '-',
  '*',
  '/',
  '^',
  '(',
  ')',
  ',',
  ';',
  '=',
  ':=',
  '<',
  '<=',
  '>',
  '>=',
  '==',
  '!=',
  "'",
  '\n',
  '\r\n',
  '#c\n',
  '//c\n',
  ' ',
  '\t',
  '$',
  '{',
  '@',
  'é',
  '\u0000',
  '\uFFFD',
];

/** The characters of the language and its likely neighbours, for character-level strings. */
const CHARACTERS: readonly string[] = [...new Set(VOCABULARY.join('').split(''))];

function checkParse(source: string): void {
  let ast;
  try {
    ast = parseModel(source, 'fuzz.delta');
  } catch (err) {
    if (!(err instanceof ModelError)) throw err;
    expect(err.message).toMatch(/^[^:]+:\d+:\d+: /);
    const lines = source.split(/\r\n|\r|\n/).length;
    expect(err.line).toBeGreaterThanOrEqual(1);
    expect(err.line).toBeLessThanOrEqual(lines);
    expect(err.column).toBeGreaterThanOrEqual(1);
    expect(err.hint.length).toBeGreaterThan(0);
    return;
  }
  expect(Array.isArray(ast.statements)).toBe(true);
  checkSpans(ast.statements, source.length);
}

/** Every span in the tree lies inside the source and is not inverted. */
function checkSpans(node: unknown, length: number): void {
  if (Array.isArray(node)) {
    for (const child of node) checkSpans(child, length);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'span' || key === 'nameSpan') && value !== null && typeof value === 'object') {
      const s = value as { start: number; end: number; line: number; column: number };
      if (!(s.start >= 0 && s.start <= s.end && s.end <= length && s.line >= 1 && s.column >= 1)) {
        throw new Error(`bad span ${JSON.stringify(s)} in a source of length ${length}`);
      }
    } else {
      checkSpans(value, length);
    }
  }
}

/** A mutation of a text: delete, insert, duplicate or swap a character or a token-sized piece. */
type Mutation = {
  op: 'delete' | 'insert' | 'duplicate' | 'swap';
  at: number;
  other: number;
  piece: string;
  width: number;
};

const mutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom('delete', 'insert', 'duplicate', 'swap'),
  at: fc.nat(),
  other: fc.nat(),
  piece: fc.constantFrom(...VOCABULARY),
  width: fc.integer({ min: 1, max: 6 }),
});

function mutate(text: string, m: Mutation): string {
  const n = text.length;
  if (n === 0) return m.piece;
  const at = m.at % n;
  const end = Math.min(n, at + m.width);
  switch (m.op) {
    case 'delete':
      return text.slice(0, at) + text.slice(end);
    case 'insert':
      return text.slice(0, at) + m.piece + text.slice(at);
    case 'duplicate':
      return text.slice(0, end) + text.slice(at, end) + text.slice(end);
    case 'swap': {
      const b = m.other % n;
      const [i, j] = at < b ? [at, b] : [b, at];
      if (i === j) return text;
      return text.slice(0, i) + text[j] + text.slice(i + 1, j) + text[i] + text.slice(j + 1);
    }
  }
}

/** Token-level mutation: split on token-ish boundaries, then move whole pieces around. */
function tokensOf(text: string): string[] {
  return text.match(/[A-Za-z_][A-Za-z0-9_]*'*|\d*\.?\d+(?:[eE][+-]?\d+)?|:=|<=|>=|==|!=|\s+|#[^\n]*|./g) ?? [];
}

describe('the parser never fails other than with a ModelError', () => {
  it('on random strings of any code points', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 120 }), checkParse), { seed: SEED, numRuns: 1000 });
  });

  it('on random strings over the language characters', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...CHARACTERS), { maxLength: 160 }).map((cs) => cs.join('')),
        checkParse,
      ),
      { seed: SEED, numRuns: 1500 },
    );
  });

  it('on random token sequences', () => {
    const sequence = fc
      .tuple(fc.array(fc.constantFrom(...VOCABULARY), { maxLength: 60 }), fc.constantFrom(' ', ''))
      .map(([tokens, glue]) => tokens.join(glue));
    fc.assert(fc.property(sequence, checkParse), { seed: SEED, numRuns: 2000 });
  });

  it('on statement-shaped token sequences', () => {
    // Starting lines with real statement openers reaches deeper into each statement's parser.
    const opener = fc.constantFrom(
      'model M',
      'independent t',
      'parameter a =',
      'event e when',
      'event e at',
      'event e every',
      "y'' =",
      'y(0) =',
      'output',
      'option method =',
      'situation s =',
      'discrete n =',
      'event e when x rises do',
      'for i in 1:N',
      'x[i] =',
      'G = x while',
      'parameter v[1:N] =',
      'option zeno =',
    );
    const line = fc
      .tuple(opener, fc.array(fc.constantFrom(...VOCABULARY), { maxLength: 12 }))
      .map(([o, rest]) => `${o} ${rest.join(' ')}`);
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 6 }).map((ls) => ls.join('\n')),
        checkParse,
      ),
      { seed: SEED, numRuns: 1500 },
    );
  });

  it('on the valid models mutated character by character', () => {
    const mutated = fc
      .tuple(fc.constantFrom(...VALID_MODELS), fc.array(mutation, { minLength: 1, maxLength: 4 }))
      .map(([model, ms]) => ms.reduce(mutate, model));
    fc.assert(fc.property(mutated, checkParse), { seed: SEED, numRuns: 1500 });
  });

  it('on the valid models mutated token by token', () => {
    const mutated = fc
      .tuple(fc.constantFrom(...VALID_MODELS), fc.array(mutation, { minLength: 1, maxLength: 4 }))
      .map(([model, ms]) => {
        let tokens = tokensOf(model);
        for (const m of ms) {
          const n = tokens.length;
          const at = m.at % Math.max(1, n);
          const b = m.other % Math.max(1, n);
          tokens = [...tokens];
          if (m.op === 'delete') tokens.splice(at, m.width);
          else if (m.op === 'insert') tokens.splice(at, 0, m.piece);
          else if (m.op === 'duplicate') tokens.splice(at, 0, ...tokens.slice(at, at + m.width));
          else if (n > 1) [tokens[at], tokens[b]] = [tokens[b], tokens[at]];
        }
        return tokens.join('');
      });
    fc.assert(fc.property(mutated, checkParse), { seed: SEED, numRuns: 1500 });
  });

  it('still parses every unmutated model', () => {
    for (const model of VALID_MODELS) expect(parseModel(model, 'ok.delta').statements.length).toBeGreaterThan(0);
  });

  it('on long inputs', () => {
    // (an array model's x and another's plain x are one name: the array models stay out)
    const big = VALID_MODELS.filter((m) => !m.includes('['))
      .join('\n')
      .replace(/^model .*$/gm, '')
      .repeat(50);
    expect(parseModel(big, 'big.delta').statements.length).toBeGreaterThan(500);
    checkParse(`y = ${'('.repeat(100000)}`);
    checkParse(`y = ${'1 + '.repeat(20000)}1`);
    checkParse(`y = ${'-'.repeat(100000)}1`);
    checkParse('#'.repeat(100000));
  });
});
