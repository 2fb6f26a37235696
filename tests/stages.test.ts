/**
 * The stages compose (issue 22, item 5): each exported stage function takes the model's text
 * or an earlier stage's output, and parse -> analyseModel -> transformModel -> compileModel ->
 * simulate gives bit for bit what simulate(text) gives, for every example model, an array
 * model written out for another N, and shooting.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  analyseModel,
  compileModel,
  parse,
  shoot,
  simulate,
  SimulationInputError,
  transformModel,
  transformReport,
} from '../src/index.js';
import { ROOT } from './helpers.js';
import { thrown } from './api-helpers.js';

const EXAMPLES = readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.delta'));

// a row of N decaying cells kicked at t = 1, each counting its passages of 0.5
const ROW = `independent t from 0 to 3
parameter N = 3
parameter r[1:N] = [0.5*i for i in 1:N]
discrete n[1:N] = 0
for i in 1:N
  event half[i] when x[i] - 0.5 falls do n[i] := n[i] + 1 end
  x[i]' = -r[i]*x[i] + delta(t - 1)
  x[i](0) = 1
end`;

describe('parse -> analyseModel -> transformModel -> compileModel -> simulate is simulate(text), bit for bit', () => {
  it.each(EXAMPLES)('examples/%s', (file) => {
    const text = readFileSync(join(ROOT, 'examples', file), 'utf8');
    const ast = parse(text, file);
    const composed = compileModel(transformModel(analyseModel(ast)));
    expect(JSON.stringify(simulate(composed))).toBe(JSON.stringify(simulate(compileModel(text, file))));
    expect(JSON.stringify(simulate(composed))).toBe(JSON.stringify(simulate(text)));
    // a stage is pure: the same syntax tree analysed again gives the same model
    expect(JSON.stringify(simulate(compileModel(analyseModel(ast))))).toBe(JSON.stringify(simulate(text)));
    // and any earlier stage will do as the input of a later one, simulate's included
    expect(transformReport(compileModel(ast))).toEqual(transformReport(composed));
    expect(JSON.stringify(simulate(transformModel(ast)))).toBe(JSON.stringify(simulate(text)));
  });

  it('an array model written out for another N at parse', () => {
    const set = { N: 6 };
    const composed = compileModel(transformModel(analyseModel(parse(ROW, '<model>', { set }))));
    const fromText = simulate(ROW, { set });
    expect(fromText.columns).toContain('x[6]');
    expect(JSON.stringify(simulate(composed, { set }))).toBe(JSON.stringify(fromText));
  });

  it('shooting from the composed stages', () => {
    const text = readFileSync(join(ROOT, 'examples', 'rope.delta'), 'utf8');
    const composed = compileModel(transformModel(analyseModel(parse(text))));
    expect(JSON.stringify(shoot(composed))).toBe(JSON.stringify(shoot(text)));
  });
});

describe('what a stage does not take is an input error that says what it takes', () => {
  it.each([
    [() => parse(null as never), "parse takes the model's text (a string), got null"],
    [
      () => compileModel(null as never),
      "compileModel takes the model's text or what parse, analyseModel or transformModel gives, got null",
    ],
    [() => analyseModel(42 as never), "analyseModel takes the model's text or what parse gives, got number"],
    [
      () => analyseModel(analyseModel("y' = 1\ny(0) = 0") as never),
      "analyseModel takes the model's text or what parse gives, got an AnalysedModel (from analyseModel)",
    ],
    [
      () => transformModel(transformModel("y' = 1\ny(0) = 0") as never),
      "transformModel takes the model's text or what parse or analyseModel gives, got a FirstOrderSystem (from transformModel)",
    ],
    [
      () => compileModel(compileModel("y' = 1\ny(0) = 0") as never),
      "compileModel takes the model's text or what parse, analyseModel or transformModel gives, got a CompiledModel (from compileModel)",
    ],
  ])('%#', (run, message) => {
    expect(thrown(SimulationInputError, run).message).toBe(message);
  });

  it('set with an earlier stage (already written out) is refused, not ignored', () => {
    const ast = parse(ROW);
    expect(thrown(SimulationInputError, () => compileModel(ast, '<model>', { set: { N: 6 } })).message).toBe(
      'compileModel: set writes an array model out when its text is parsed; give it to parse(text, file, { set }) (or to compileModel with the text)',
    );
  });
});
