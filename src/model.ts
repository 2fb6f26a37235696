/**
 * The pipeline, stage by stage: text -> ModelAst -> AnalysedModel -> FirstOrderSystem ->
 * CompiledModel. Each stage is pure and its result printable; these helpers run them in order.
 */
import { analyse, type AnalysedModel } from './symbolic/analyse.js';
import type { ModelAst } from './symbolic/ast.js';
import { parseModel } from './symbolic/parser.js';
import { compile, type CompiledModel } from './transform/compile.js';
import type { FirstOrderSystem } from './transform/system.js';
import { transform } from './transform/transform.js';

export function parse(source: string, file = '<model>'): ModelAst {
  return parseModel(source, file);
}

export function analyseModel(source: string, file = '<model>'): AnalysedModel {
  return analyse(parseModel(source, file));
}

export function transformModel(source: string, file = '<model>'): FirstOrderSystem {
  return transform(analyseModel(source, file));
}

export function compileModel(source: string, file = '<model>'): CompiledModel {
  return compile(transformModel(source, file));
}
