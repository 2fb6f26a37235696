/**
 * The simulator callers get (`new Simulator(model)` of the library, shooting, sweeps, the
 * command line): the analytic path (engine.ts) where every part of the model has a closed
 * form between events and the run allows it, the stepper (driver/simulator.ts) otherwise.
 *
 * - method `auto` (the default) takes the analytic path when it can, silently;
 * - method `analytic` takes it or refuses the run with a SimulationInputError (exit 2 on the
 *   command line) that names the part and why;
 * - any stepper by name (dopri5, rodas, ...) takes the stepper.
 *
 * What keeps a run off the analytic path besides the model: contacts held as constraints
 * (zeno = continue: the held motion is integrated by the stepper) and a range that runs
 * backwards. `stats.method` says which path integrated a run.
 */
import type { CompiledModel } from '../codegen/compile.js';
import { resolveSettings } from '../driver/settings.js';
import { Simulator as StepperSimulator } from '../driver/simulator.js';
import { SimulationInputError, type SimulateOptions, type SimulationResult } from '../driver/types.js';
import { structureOf } from '../structure/structure.js';
import { AnalyticSimulator } from './engine.js';

export class Simulator {
  readonly model: CompiledModel;
  private stepper: StepperSimulator | null = null;
  private analytic: AnalyticSimulator | null = null;
  /** why the model has no closed form (empty: it has one) */
  private readonly obstacles: readonly string[];

  constructor(model: CompiledModel) {
    this.model = model;
    this.obstacles = structureOf(model.system).obstacles;
  }

  run(options: SimulateOptions = {}): SimulationResult {
    const m = this.model;
    const method = options?.method ?? (m.system.options.get('method')?.value as string | undefined) ?? 'auto';
    if (method !== 'auto' && method !== 'analytic') return this.stepperRun(options);
    const asked = method === 'analytic';
    if (this.obstacles.length > 0) {
      if (asked) throw refused(m, `not every part has a closed form: ${this.obstacles.join('; ')}`);
      return this.stepperRun(options);
    }
    const settings = resolveSettings(m, options);
    if (settings.zeno === 'continue') {
      if (asked)
        throw refused(
          m,
          `zeno = continue holds contacts as constraints, which the stepper integrates (use method auto)`,
        );
      return this.stepperRun(options);
    }
    const result = (this.analytic ??= new AnalyticSimulator(m)).run(options, settings);
    if (result) return result;
    if (asked) throw refused(m, `its range runs backwards, and the analytic path runs forwards only (use method auto)`);
    return this.stepperRun(options);
  }

  private stepperRun(options: SimulateOptions): SimulationResult {
    return (this.stepper ??= new StepperSimulator(this.model)).run(options);
  }
}

function refused(m: CompiledModel, why: string): SimulationInputError {
  return new SimulationInputError(`method analytic cannot run ${m.system.model}: ${why}`, {
    option: 'method',
    value: 'analytic',
    allowed: 'auto or a stepper for this model',
  });
}

/** One run of a compiled model, by the path it qualifies for. For repeated runs keep a {@link Simulator}. */
export function simulateCompiled(model: CompiledModel, options: SimulateOptions = {}): SimulationResult {
  return new Simulator(model).run(options);
}
