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
 * (zeno = continue: the held motion is integrated by the stepper), a range that runs
 * backwards, and `firstStep`, `maxStep` or `step` (the caller's or the model's option step:
 * they bound a stepper's steps, and the analytic path takes none; method analytic refuses
 * them). `stats.method` says which path integrated a run.
 */
import type { CompiledModel } from '../codegen/compile.js';
import { requireCompiled } from '../codegen/stages.js';
import { asMap, checkRangeLength, resolveSettings } from '../driver/settings.js';
import { Simulator as StepperSimulator } from '../driver/simulator.js';
import { enterRun, leaveRun } from '../driver/workspace.js';
import {
  DISCARD_SINK,
  SimulationInputError,
  type SimulateOptions,
  type SimulationResult,
  type SimulationSink,
} from '../driver/types.js';
import { methodOf, stepperCause } from '../report/path.js';
import { unimposedConditions } from '../report/unimposed.js';
import { structureOf } from '../structure/structure.js';
import { ModelError } from '../expression/errors.js';
import { AnalyticSimulator } from './engine.js';

export class Simulator {
  readonly model: CompiledModel;
  private stepper: StepperSimulator | null = null;
  private analytic: AnalyticSimulator | null = null;
  /** why the model has no closed form (empty: it has one) */
  private readonly obstacles: readonly string[];
  /** a run of this simulator is in progress (a callback of it may start another) */
  private running = false;

  constructor(model: CompiledModel) {
    requireCompiled('new Simulator(model)', model);
    this.model = model;
    this.obstacles = structureOf(model.system).obstacles;
  }

  run(options: SimulateOptions = {}): SimulationResult {
    // A run started inside one of this simulator's own (from its sink or progress callback)
    // would overwrite the work arrays the outer run goes on with after the callback: it runs
    // on a simulator of its own.
    if (this.running) return new Simulator(this.model).run(options);
    const outer = enterRun(this.model);
    this.running = true;
    try {
      const result = this.runOnce(options);
      if (this.model.boundary.length > 0) {
        const unimposed = unimposedConditions(this.model, asMap(options.set));
        if (unimposed !== null) result.warnings.push(unimposed);
      }
      return result;
    } finally {
      this.running = false;
      leaveRun(this.model, outer);
    }
  }

  /**
   * Throws what every run with these options throws before its first step, whatever the
   * parameters: method analytic asked for a model, or with an option, that the analytic path
   * cannot take. A batch asks once before its runs, as simulate's run does (a usage error,
   * exit 2); each of its runs failed alone, exit 3.
   */
  checkPath(options: SimulateOptions = {}): void {
    if (methodOf(this.model, options ?? {}) !== 'analytic') return;
    const cause = stepperCause(this.model, this.obstacles, options ?? {});
    // (asked by the model's option method = analytic: a refusal is a model error at that line)
    const byModel = options?.method === undefined;
    if (cause === 'obstacles')
      throw refused(this.model, `not every part has a closed form: ${listed(this.obstacles)}`, byModel);
    // (the model's option step sets a stepper's steps, as the caller's step does, which
    // resolveSettings refuses with method analytic: it was silently ignored)
    const step = this.model.system.options.get('step');
    if (step && options?.step === undefined)
      throw refused(
        this.model,
        `option step = ${String(step.value)} (${this.model.system.file}:${step.span.line}) sets the steps of a stepper, and the analytic path takes none (drop it, or use method auto, which then takes its stepper)`,
        byModel,
      );
    if (cause === 'zeno')
      throw refused(
        this.model,
        `zeno = continue holds contacts as constraints, which the stepper integrates (use method auto)`,
        byModel,
      );
  }

  private runOnce(options: SimulateOptions): SimulationResult {
    const m = this.model;
    // (the decision transform prints too: report/path.ts)
    const cause = stepperCause(m, this.obstacles, options ?? {});
    if (cause === 'method' || cause === 'stepBounds') return this.stepperRun(options);
    const asked = methodOf(m, options ?? {}) === 'analytic';
    const byModel = asked && options?.method === undefined;
    this.checkPath(options);
    if (cause === 'obstacles') return this.stepperRun(options);
    const settings = resolveSettings(m, options);
    if (cause === 'zeno') return this.stepperRun(options);
    // (a block an event made stiff, found mid-run: the stepper takes the whole run again; a
    // batch's sink keeps nothing, so its runs are taken again too. Where rows already reached
    // the caller's sink (every run of the command line streams), the stepper goes on from
    // where the analytic path stopped: a streamed run failed where simulate() was ok)
    const replayable = settings.sink === undefined || settings.sink === DISCARD_SINK;
    const engine = (this.analytic ??= new AnalyticSimulator(m));
    engine.handsOver = !asked && !replayable;
    // (a streamed run that may be handed over: the ledger entries it wrote are counted, so
    // that the stepper's own entries for the same events are not written again: stepperAfter)
    const written = { events: 0 };
    const sink = settings.sink;
    const result = engine.run(
      options,
      engine.handsOver && sink ? { ...settings, sink: counted(sink, written) } : settings,
    );
    if (result && engine.stepperNeeded && !asked)
      return replayable
        ? this.stepperRun(options)
        : this.stepperAfter(options, sink as SimulationSink, engine.handOverAt, written.events);
    if (result) return result;
    if (asked) throw refused(m, this.analytic.refusal ?? 'it cannot take the analytic path', byModel);
    return this.stepperRun(options);
  }

  /**
   * The stepper's run of the whole range into a sink that already has the analytic path's
   * rows and ledger entries up to tHand, the instant whose actions asked for the stepper, and
   * `events` ledger entries: it writes only what comes after. The stepper integrates from the
   * start (its state at tHand is its own, within its tolerances of the closed form's), so that
   * its events, arming and zeno detection see the whole run; the rows and ledger up to the
   * hand-over are the closed form's. The ledger is cut by count: the stepper's first `events`
   * entries are those already written (the same events in the same order), wherever the
   * stepper placed them. Cut by time, a state event at the hand-over's own instant, which the
   * stepper located a few ulps after tHand (go when c - 5e159 rises, c' = 1: 5.000000000000001e159),
   * was written twice, and its rows with it: the stepper writes an instant's row before its
   * entries, so rows after tHand wait (a few: those of that instant) until the last entry
   * already written has come, and then those up to its time are dropped as the instant's.
   */
  private stepperAfter(
    options: SimulateOptions,
    sink: SimulationSink,
    tHand: number,
    events: number,
  ): SimulationResult {
    let skip = events,
      cut = tHand;
    const held: number[][] = [];
    const release = () => {
      for (const r of held) if (r[0] > cut) sink.row(r);
      held.length = 0;
    };
    const rest: SimulationSink = {
      row(row) {
        if (row[0] <= cut) return;
        if (skip === 0) sink.row(row);
        // (a stepper that has not reached the last entry by a few rows disagrees with the
        // closed form's ledger: its rows go on rather than pile up)
        else if (held.length < MAX_HELD) held.push(Array.from(row));
        else {
          skip = 0;
          release();
          sink.row(row);
        }
      },
      event(record) {
        if (skip > 0) {
          if (--skip === 0) {
            cut = Math.max(cut, record.t);
            release();
          }
          return;
        }
        if (record.t >= cut) sink.event?.(record);
      },
    };
    try {
      return this.stepperRun({ ...options, sink: rest });
    } finally {
      release();
    }
  }

  private stepperRun(options: SimulateOptions): SimulationResult {
    // (a stepper by name is checked by resolveSettings; auto is judged here, once it takes the stepper)
    if (methodOf(this.model, options) === 'auto') checkRangeLength(this.model, options, asMap(options.set));
    return (this.stepper ??= new StepperSimulator(this.model)).run(options);
  }
}

/** rows after the hand-over held back while the stepper's ledger catches up with the closed form's (stepperAfter) */
const MAX_HELD = 64;

/** sink, counting the ledger entries written through it into written.events */
function counted(sink: SimulationSink, written: { events: number }): SimulationSink {
  return {
    row: (row) => sink.row(row),
    event: (record) => {
      written.events++;
      sink.event?.(record);
    },
  };
}

function refused(m: CompiledModel, why: string, byModel: boolean): Error {
  const sys = m.system;
  const option = sys.options.get('method');
  if (byModel && option)
    return new ModelError(
      sys.file,
      sys.source,
      option.span,
      `option method = analytic cannot run ${sys.model}: ${why}`,
      'Write option method = auto: it takes the analytic path where the model allows it.',
    );
  return new SimulationInputError(`method analytic cannot run ${sys.model}: ${why}`, {
    option: 'method',
    value: 'analytic',
    allowed: 'auto or a stepper for this model',
  });
}

/** The first few obstacles and how many more (a row of a thousand cycles is not a message). */
function listed(obstacles: readonly string[]): string {
  const shown = obstacles.slice(0, 3).join('; ');
  return obstacles.length > 3 ? `${shown}; and ${obstacles.length - 3} more` : shown;
}

/** One run of a compiled model, by the path it qualifies for. For repeated runs keep a {@link Simulator}. */
export function simulateCompiled(model: CompiledModel, options: SimulateOptions = {}): SimulationResult {
  return new Simulator(model).run(options);
}
