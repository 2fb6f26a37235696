/**
 * The pipeline, stage by stage: text -> ModelAst -> AnalysedModel -> FirstOrderSystem ->
 * CompiledModel. Each stage is pure and its result printable; these helpers run them in order.
 * `options.set` gives parameter values to write an array model out with: a structural
 * parameter (one that a range or an index uses, such as N) changes the model's shape, so it
 * is set here, before the model is written out, and not at run time.
 */
import { analyse, type AnalysedModel } from '../analysis/analyse.js';
import type { ModelAst } from '../expression/ast.js';
import type { ExpandOptions } from '../language/arrays.js';
import { parseModel } from '../language/parser.js';
import { compile, type CompiledModel } from './compile.js';
import type { FirstOrderSystem } from '../transform/system.js';
import { transform } from '../transform/transform.js';

export type { ExpandOptions };

export function parse(source: string, file = '<model>', options: ExpandOptions = {}): ModelAst {
  return parseModel(source, file, options);
}

export function analyseModel(source: string, file = '<model>', options: ExpandOptions = {}): AnalysedModel {
  return analyse(parseModel(source, file, options));
}

export function transformModel(source: string, file = '<model>', options: ExpandOptions = {}): FirstOrderSystem {
  return transform(analyseModel(source, file, options));
}

export function compileModel(source: string, file = '<model>', options: ExpandOptions = {}): CompiledModel {
  return compile(transformModel(source, file, options));
}
