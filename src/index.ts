/**
 * deltastep: simulate models with point abstractions. Write the Dirac delta where the physics
 * puts it; the symbolic stage turns it into steps and exact events.
 *
 * The pipeline, each stage printable: `parse` -> `analyseModel` -> `transformModel` ->
 * `compileModel`; then `simulate` (or a reusable `Simulator`) and `shoot`.
 *
 * ```ts
 * import { compileModel, simulate } from 'deltastep';
 * const model = compileModel(`y'' = -y + 2*delta(t - 1); y(0) = 0; y'(0) = 0`);
 * const run = simulate(model, { to: 5, rtol: 1e-10, atol: 1e-12 });
 * ```
 */
import type { CompiledModel } from './codegen/compile.js';
// the library finds exact roots of nonlinear delta arguments from the start (algebra.ts)
import './transform/exact-roots.js';
import { compileModel, isCompiledModel, type StageInput } from './codegen/stages.js';
import { SimulationInputError, type SimulateOptions, type SimulationResult } from './driver/index.js';
import { Simulator } from './analytic/index.js';
import { checkOptions } from './driver/settings.js';
import { checkShootOptions, shoot as shootCompiled, type ShootOptions, type ShootResult } from './shooting/newton.js';

export {
  parse,
  analyseModel,
  transformModel,
  compileModel,
  type ExpandOptions,
  type StageInput,
} from './codegen/stages.js';
export { ModelError } from './expression/errors.js';
// the language's reserved words and functions, for editors that highlight models (the playground)
export { KEYWORDS, BUILTIN_FUNCTIONS } from './expression/ast.js';
export type { ModelAst, Expr, Statement, Span } from './expression/ast.js';
export type { AnalysedModel } from './analysis/analyse.js';
export type { FirstOrderSystem, EventSpec, SystemState, StepVariable, ActionSpec } from './transform/system.js';
export type { CompiledModel, CompiledEvent } from './codegen/compile.js';
export { transformReport, formatText, formatLatex, type TransformReport } from './report/print.js';
export { SimulationInputError } from './driver/index.js';
export { Simulator } from './analytic/index.js';
export type {
  SimulateOptions,
  SimulationResult,
  EventRecord,
  RunStatus,
  LocateMode,
  RunStats,
  DenseSolution,
  DenseSide,
} from './driver/index.js';
export { createStepper, METHODS } from './integrators/steppers.js';
export type { Stepper, MethodName, StepOutcome } from './integrators/stepper.js';
export { ShootInputError } from './shooting/newton.js';
export type { ShootOptions, ShootResult, ShootStatus, ShootIteration } from './shooting/newton.js';

/**
 * Model text, the output of a stage, or a compiled model (compile once and pass that when
 * running many times).
 */
export type ModelInput = StageInput | CompiledModel;

/**
 * Model text is compiled with `set`, so that a structural parameter (`N` of `for i in 1:N`)
 * writes an array model out anew; a compiled model is used as it is.
 */
function compiled(model: unknown, set: SimulateOptions['set'], caller: string): CompiledModel {
  if (typeof model === 'string') return compileModel(model, '<model>', { set });
  if (isCompiled(model)) return model;
  // an earlier stage's output is written out already: `set` is the run's, not the stage's
  if (isStage(model)) return compileModel(model);
  const got = model === null ? 'null' : typeof model;
  throw new SimulationInputError(
    `${caller} needs a model: its text (a string) or what compileModel gives, got ${got}`,
    { option: 'model', value: model, allowed: 'model text or a CompiledModel' },
  );
}

/** The output of parse, analyseModel or transformModel (they carry the model's text). */
function isStage(model: unknown): model is StageInput {
  const m = model as { source?: unknown } | null;
  return typeof m === 'object' && m !== null && typeof m.source === 'string' && !isCompiled(model);
}

function isCompiled(model: unknown): model is CompiledModel {
  return isCompiledModel(model);
}

/** Integrates a model over its range with exact events. */
export function simulate(model: ModelInput, options: SimulateOptions = {}): SimulationResult {
  // (the options are checked before the text is compiled with their `set`)
  checkOptions(options);
  return new Simulator(compiled(model, options.set, 'simulate')).run(options);
}

/** Finds the unknowns so that the boundary conditions hold (Newton shooting), and simulates the solution. */
export function shoot(model: ModelInput, options: ShootOptions = {}): ShootResult {
  checkShootOptions(options);
  return shootCompiled(compiled(model, options.set, 'shoot'), options);
}
