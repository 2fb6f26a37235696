/**
 * The pipeline, stage by stage: text -> ModelAst -> AnalysedModel -> FirstOrderSystem ->
 * CompiledModel. Each stage is pure and its result printable; these helpers run them in order.
 * `options.set` gives parameter values to write an array model out with: a structural
 * parameter (one that a range or an index uses, such as N) changes the model's shape, so it
 * is set here, before the model is written out, and not at run time.
 */
import { analyse, type AnalysedModel } from '../analysis/analyse.js';
import type { ModelAst } from '../expression/ast.js';
import type { ExpandOptions } from '../language/array-expressions.js';
import { missingNameMessage } from '../language/element-names.js';
import { parseModel } from '../language/parser.js';
import { setParameterValues } from '../language/set-values.js';
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

/** Any stage's input: the text, or the output of an earlier stage. */
export type StageInput = string | ModelAst | AnalysedModel | FirstOrderSystem;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const isSystem = (x: unknown): x is FirstOrderSystem =>
  isObject(x) && Array.isArray(x.stepVariables) && Array.isArray(x.equations);
const isAnalysed = (x: unknown): x is AnalysedModel => isObject(x) && x.kinds instanceof Map && Array.isArray(x.states);
const isAst = (x: unknown): x is ModelAst => isObject(x) && Array.isArray(x.statements) && typeof x.source === 'string';

/** What a stage was given, for the message when it is not what it takes. */
function describe(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (isSystem(x)) return 'a FirstOrderSystem (from transformModel)';
  if (isAnalysed(x)) return 'an AnalysedModel (from analyseModel)';
  if (isObject(x) && hasRhs(x)) return 'a CompiledModel (from compileModel)';
  return typeof x;
}

function wrongInput(stage: string, takes: string, x: unknown): SimulationInputError {
  return new SimulationInputError(`${stage} takes ${takes}, got ${describe(x)}`, {
    option: 'source',
    value: x,
    allowed: takes,
  });
}

/**
 * `set` writes an array model out (a structural N): it acts where the text is parsed. Given
 * with an earlier stage's output, which is written out already, it would be silently ignored.
 */
function noSet(stage: string, options: ExpandOptions): void {
  const set = options.set;
  const given = set instanceof Map ? set.size > 0 : set !== undefined && Object.keys(set).length > 0;
  if (given)
    throw new SimulationInputError(
      `${stage}: set writes an array model out when its text is parsed; give it to parse(text, file, { set }) (or to ${stage} with the text)`,
      { option: 'set', value: set, allowed: 'set with model text only' },
    );
}

/**
 * The pipeline's stages. Each takes the model's text or the output of any earlier stage
 * (`analyseModel(parse(text))`, `transformModel(analysed)`, `compileModel(system)`) and gives
 * the same result either way; `file` and `options` apply to text (an earlier stage's output
 * carries its own file and is written out already).
 */
export function parse(source: string, file = '<model>', options: ExpandOptions = {}): ModelAst {
  if (typeof source !== 'string') throw wrongInput('parse', "the model's text (a string)", source);
  return parseText('parse', source, file, options);
}

/** The text parsed, its arrays written out and its parameters given `options.set`, for `stage`. */
function parseText(stage: string, source: string, file: unknown, options: unknown): ModelAst {
  const set = checkStageArguments(stage, file, options);
  const { ast, unknown, declared } = setParameterValues(
    parseModel(source, file as string, options as ExpandOptions),
    set,
  );
  if (unknown.length > 0) {
    const name = ast.statements.find((st) => st.kind === 'model')?.name ?? 'Model';
    throw new SimulationInputError(
      missingNameMessage(unknown[0], declared, `a parameter or unknown of ${name}`, 'they are'),
      {
        option: 'set',
        value: unknown[0],
        allowed: declared.length > 0 ? declared.join(', ') : 'no name: the model has no parameters',
      },
    );
  }
  return ast;
}

/**
 * The library's boundary for a stage given text: `file` a string, `options` an object whose
 * only key is `set`, a map or plain object of finite numbers by name. Returns `set` as a map.
 */
function checkStageArguments(stage: string, file: unknown, options: unknown): ReadonlyMap<string, number> {
  if (typeof file !== 'string')
    throw new SimulationInputError(`${stage}: file must be a string (the name messages show), got ${describe(file)}`, {
      option: 'file',
      value: file,
      allowed: 'a string',
    });
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new SimulationInputError(`${stage}: options must be an object ({ set }), got ${describe(options)}`, {
      option: 'options',
      value: options,
      allowed: 'an object with the key set',
    });
  for (const key of Object.keys(options))
    if (key !== 'set')
      throw new SimulationInputError(
        `${stage}: unknown option '${key}' (the nearest is set); the only option here is set, the parameter values to write the model with`,
        { option: key, value: (options as Record<string, unknown>)[key], allowed: 'set', nearest: 'set' },
      );
  const set = (options as ExpandOptions).set;
  if (set === undefined) return NO_VALUES;
  const entries =
    set instanceof Map
      ? [...set.entries()]
      : typeof set === 'object' && set !== null && !Array.isArray(set)
        ? Object.entries(set)
        : null;
  if (entries === null)
    throw new SimulationInputError(
      `${stage}: set must be numbers by name ({ e: 0.5 } or a Map), got ${describe(set)}`,
      {
        option: 'set',
        value: set,
        allowed: 'numbers by name',
      },
    );
  for (const [k, v] of entries)
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new SimulationInputError(
        `${stage}: set must give finite numbers; ${k} is ${typeof v === 'number' ? v : `'${String(v)}' (${typeof v})`}`,
        {
          option: 'set',
          value: v,
          allowed: 'finite numbers',
        },
      );
  return new Map(entries as [string, number][]);
}

const NO_VALUES: ReadonlyMap<string, number> = new Map();

export function analyseModel(source: string | ModelAst, file = '<model>', options: ExpandOptions = {}): AnalysedModel {
  if (typeof source === 'string') return analyse(parseText('analyseModel', source, file, options));
  if (!isAst(source)) throw wrongInput('analyseModel', "the model's text or what parse gives", source);
  noSet('analyseModel', options);
  return analyse(source);
}

export function transformModel(
  source: string | ModelAst | AnalysedModel,
  file = '<model>',
  options: ExpandOptions = {},
): FirstOrderSystem {
  if (typeof source === 'string') return transform(analyse(parseText('transformModel', source, file, options)));
  if (!isAst(source) && !isAnalysed(source))
    throw wrongInput('transformModel', "the model's text or what parse or analyseModel gives", source);
  noSet('transformModel', options);
  return transform(isAnalysed(source) ? source : analyse(source));
}

export function compileModel(source: StageInput, file = '<model>', options: ExpandOptions = {}): CompiledModel {
  if (typeof source === 'string') return compile(transform(analyse(parseText('compileModel', source, file, options))));
  if (!isAst(source) && !isAnalysed(source) && !isSystem(source))
    throw wrongInput('compileModel', "the model's text or what parse, analyseModel or transformModel gives", source);
  noSet('compileModel', options);
  return compile(isSystem(source) ? source : transformModel(source));
}

/** Whether x is what compileModel gives (checked at the library's boundary, as every stage's input is). */
export function isCompiledModel(x: unknown): x is CompiledModel {
  const m = x as Partial<CompiledModel> | null;
  return typeof m === 'object' && m !== null && hasRhs(m) && isSystem(m.system);
}

/**
 * Whether x has a right-hand side: a function, or compile's getter, which is not called here
 * (it writes and compiles the flow, which the analytic path never needs: flow-program.ts).
 */
function hasRhs(x: object): boolean {
  return (
    typeof Object.getOwnPropertyDescriptor(x, 'rhs')?.get === 'function' ||
    typeof (x as { rhs?: unknown }).rhs === 'function'
  );
}

/** Throws unless x is a compiled model: `caller` takes what compileModel gives. */
export function requireCompiled(caller: string, x: unknown): asserts x is CompiledModel {
  if (!isCompiledModel(x))
    throw new SimulationInputError(
      `${caller} takes what compileModel gives (compile the text first: compileModel(text)), got ${typeof x === 'string' ? 'a string' : describe(x)}`,
      { option: 'model', value: x, allowed: 'a CompiledModel' },
    );
}
