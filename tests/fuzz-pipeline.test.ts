import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileModel } from '../src/codegen/stages.js';
import { ModelError } from '../src/expression/errors.js';
import { transformReport } from '../src/report/print.js';
import { FAMILY_MODELS } from './fuzz-models.js';

/**
 * The whole front end (parse, analyse, transform with its delta rules and root finding,
 * compile) answers any text with a compiled model or a ModelError at file:line:col: never
 * another exception (an "internal" error would reach the user as a crash), never a hang.
 * tests/fuzz.test.ts does the same for the parser alone, on far more inputs.
 */

const MODELS_DIR = fileURLToPath(new URL('./fixtures/reference/models/', import.meta.url));
const SEED = 7_2026;

// the reference models, and one of each family the simulation fuzzer generates (arrays and sums,
// while rules, a contact under option zeno, coincident events, kinked event functions, stiff)
const MODELS: readonly string[] = [
  ...readdirSync(MODELS_DIR)
    .filter((f) => f.endsWith('.delta'))
    .sort()
    .map((f) => readFileSync(`${MODELS_DIR}${f}`, 'utf8')),
  ...FAMILY_MODELS,
];

/** Replacements that keep a model parseable more often than random characters do. */
const TOKENS: readonly string[] = [
  "y'",
  "y''",
  'x',
  't',
  'e',
  'pi',
  'n',
  'delta(t - 1)',
  "delta'(t - 1)",
  'delta(x)',
  'delta(t - bounce)',
  'sin(pi*t)',
  '(t - 1)^2',
  '0',
  '1',
  '-1',
  '2.5',
  '+',
  '-',
  '*',
  '/',
  '^',
  '(',
  ')',
  ' = ',
  '\n',
  'if t < 1 then 1 else 0',
  'step(t - 2)',
  'event q when x rises do x := 1 end',
  'stop',
  'h',
  "h'",
  'constructor',
  '__proto__',
  'unknown',
  'discrete',
  'situation s = t > 1',
  'option deltaRule = marcus',
  'x[i]',
  'x[i+1]',
  'x[N]',
  '[',
  ']',
  'for i in 1:N',
  'for i in 2:N-1',
  'end',
  'sum(i in 1:N, x[i])',
  'prod(j in 1:0, 2)',
  'parameter v[1:N] = [i/N for i in 1:N]',
  ' while x < 1',
  ' while not s',
  'G = x while t > 1',
  'option zeno = continue',
  'option zeno = stop',
  'option method = radau5',
  'max(h, 0)',
  'min(x - 1, 0)',
  'abs(h)',
  'sqrt(max(h, 0))',
  'step(-h)',
  ' falls',
  ' crosses',
  '1e8',
  '3000',
];

function frontEnd(text: string): void {
  try {
    transformReport(compileModel(text, 'fuzz.delta'));
  } catch (err) {
    if (!(err instanceof ModelError)) throw err;
    expect(err.message).toMatch(/^fuzz\.delta:\d+:\d+: /);
  }
}

describe('the front end on mutated models', () => {
  it('token substitutions, insertions and deletions give a model or a ModelError', () => {
    const mutation = fc.tuple(fc.nat(), fc.constantFrom(...TOKENS), fc.integer({ min: 0, max: 2 }));
    fc.assert(
      fc.property(fc.constantFrom(...MODELS), fc.array(mutation, { minLength: 1, maxLength: 4 }), (model, edits) => {
        let text = model;
        for (const [at, token, kind] of edits) {
          const i = at % (text.length + 1);
          text =
            kind === 0
              ? text.slice(0, i) + token + text.slice(i)
              : kind === 1
                ? text.slice(0, i) + text.slice(i + token.length)
                : text.slice(0, i) + token + text.slice(i + token.length);
        }
        frontEnd(text);
      }),
      { seed: SEED, numRuns: 600 },
    );
  });

  it('lines of different models spliced together give a model or a ModelError', () => {
    const lines = MODELS.flatMap((m) => m.split('\n'));
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...lines), { minLength: 1, maxLength: 12 }), (picked) =>
        frontEnd(picked.join('\n')),
      ),
      { seed: SEED, numRuns: 400 },
    );
  });
});

describe('what the fuzzer found', () => {
  it('a highest derivative that cancels is a model error, not a crash in the compiler', () => {
    expect(() =>
      compileModel("independent t from 0 to 5\ny'' = y'' - y + 2*delta(t - 1)\ny(0) = 0; y'(0) = 0", 'f.delta'),
    ).toThrow(
      "f.delta:2:1: y'' cancels out of this equation, so it does not determine y''\n  y'' = y'' - y + 2*delta(t - 1)\n  ^\nWrite the equation so that y'' remains after collecting terms, e.g. y'' = f(...).",
    );
  });
});
