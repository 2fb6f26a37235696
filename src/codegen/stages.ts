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

/** What a caller got wrong, in structured form besides the message. */
export interface InputErrorDetail {
  /** the option (or the command line's flag) at fault */
  option: string;
  value: unknown;
  /** what is allowed, in words */
  allowed: string;
  /** for an unknown option: the known one nearest to it */
  nearest?: string;
}

/**
 * The caller asked for something the library cannot do as asked: an option of the wrong type
 * or range, an unknown option, a name the model does not have, a model that is not a model.
 * (Here, at the bottom of the stages, so that every stage can raise it.)
 */
export class SimulationInputError extends Error {
  readonly option?: string;
  readonly value?: unknown;
  readonly allowed?: string;
  readonly nearest?: string;

  constructor(message: string, detail?: InputErrorDetail) {
    super(message);
    this.name = 'SimulationInputError';
    if (detail) {
      this.option = detail.option;
      this.value = detail.value;
      this.allowed = detail.allowed;
      if (detail.nearest !== undefined) this.nearest = detail.nearest;
    }
  }
}

/** Model text, or a clear error for anything else (null, a number, a file name's Buffer). */
function text(source: unknown, stage: string): string {
  if (typeof source === 'string') return source;
  const got = source === null ? 'null' : Array.isArray(source) ? 'an array' : typeof source;
  throw new SimulationInputError(`${stage} needs the model's text (a string), got ${got}`, {
    option: 'source',
    value: source,
    allowed: 'a string',
  });
}

export function parse(source: string, file = '<model>', options: ExpandOptions = {}): ModelAst {
  return parseModel(text(source, 'parse'), file, options);
}

export function analyseModel(source: string, file = '<model>', options: ExpandOptions = {}): AnalysedModel {
  return analyse(parseModel(text(source, 'analyseModel'), file, options));
}

export function transformModel(source: string, file = '<model>', options: ExpandOptions = {}): FirstOrderSystem {
  return transform(analyse(parseModel(text(source, 'transformModel'), file, options)));
}

export function compileModel(source: string, file = '<model>', options: ExpandOptions = {}): CompiledModel {
  return compile(transform(analyse(parseModel(text(source, 'compileModel'), file, options))));
}
