/**
 * Which path `simulate` takes, decided once for the simulator (analytic/simulator.ts,
 * analytic/engine.ts) and for `transform`, which prints it (segments.ts): the analytic path
 * where every part has a closed form and the run allows it, the stepper otherwise. Here, and
 * not in analytic/, because the report comes before the simulator in the pipeline.
 *
 * Before a run: {@link stepperCause} (a stepper by name, firstStep or maxStep under auto, a part
 * without a closed form, contacts held as constraints). At the start of a run, with its values:
 * {@link rangeRefusal} (a range that runs backwards; linear event functions too stiff to scan).
 */
import type { CompiledModel } from '../codegen/compile.js';
import { structureOf } from '../structure/structure.js';

/** The options of a run that choose its path (a part of SimulateOptions, named as there). */
export interface PathOptions {
  readonly method?: unknown;
  readonly firstStep?: unknown;
  readonly maxStep?: unknown;
  readonly step?: unknown;
  readonly zeno?: unknown;
}

/** Why a run takes the stepper before it starts; null: it can take the analytic path. */
export type StepperCause = 'method' | 'stepBounds' | 'obstacles' | 'zeno';

/** The method a run asks for: the caller's, the model's option, or auto. */
export function methodOf(model: CompiledModel, options: PathOptions): unknown {
  return options.method ?? model.system.options.get('method')?.value ?? 'auto';
}

/**
 * Why a run with these options takes the stepper (`obstacles`: why the model has no closed
 * form, structure.ts), in the order the simulator judges them; null when it may take the
 * analytic path. Options are not validated here (resolveSettings does that).
 */
export function stepperCause(
  model: CompiledModel,
  obstacles: readonly string[],
  options: PathOptions,
): StepperCause | null {
  const method = methodOf(model, options);
  if (method !== 'auto' && method !== 'analytic') return 'method';
  // firstStep and maxStep bound a stepper's steps: asked for, auto takes the stepper (method
  // analytic refuses them: driver/settings.ts, checkStepBounds). So does step, the caller's or
  // the model's option step: for an adaptive method it is maxStep under another name (cli.md),
  // and auto with --step 0.01 stayed on the analytic path where --max-step 0.01 took dopri5.
  if (
    method === 'auto' &&
    (options.firstStep !== undefined ||
      options.maxStep !== undefined ||
      (options.step ?? model.system.options.get('step')?.value) !== undefined)
  )
    return 'stepBounds';
  if (obstacles.length > 0) return 'obstacles';
  if ((options.zeno ?? model.system.options.get('zeno')?.value) === 'continue') return 'zeno';
  return null;
}

export const BACKWARDS = 'its range runs backwards, and the analytic path runs forwards only (use method auto)';

/** Windows a linear event's scan may need over the whole range before the stepper is the better choice. */
const MAX_WINDOWS = 1e5;

/**
 * Why a run from t0 to tEnd with parameters p and discrete values d cannot take the analytic
 * path; null when it can. A range that runs backwards; or a linear event function that cannot
 * be scanned in reasonable time (issue 24): along a block that is no pure rotation, its
 * crossings are found on windows of width about 1/(2||D A D⁻¹||) (codegen/linear-event.ts), so
 * a stiff block (a fast decay beside a slow input, y1' = -1e8 (y1 - y2)), or a slow one over a
 * very long range, needs ||D A D⁻¹|| times the range of them, where a stiff integrator takes a
 * few hundred steps. Judged with the constants at the start (events may change them later;
 * the scan's budget and maxSteps bound what follows).
 */
export function rangeRefusal(
  m: CompiledModel,
  p: Float64Array,
  y: Float64Array,
  d: Float64Array,
  t0: number,
  tEnd: number,
): string | null {
  if (tEnd < t0) return BACKWARDS;
  const overflow = tEnd > t0 ? (overflowingGroup(m, p, y, d, t0) ?? underflowingEvent(m, p, y, d, t0)) : null;
  if (overflow !== null) return `${overflow}: the stepper integrates it (use method auto)`;
  const linear = m.closedForm().linear;
  for (let k = 0; k < linear.length; k++) {
    const stiff = stiffScan(m, k, p, d, tEnd - t0);
    if (stiff !== null) return `${stiff}: the stepper integrates it (use method auto)`;
  }
  return null;
}

/**
 * Why a polynomial group's closed form cannot be evaluated in doubles from the start, or null:
 * a Taylor coefficient beyond their range, which the smallest step there is shows as a value
 * that is not finite (a finite coefficient times its powers stays finite; an infinite one
 * makes Infinity or NaN). b' = 2 B t / T with B = 1e200, T = 1e-150 has the coefficient
 * B/T = 1e350 of t^2, though b stays below 8e50 over [0, 3e-150]: the analytic path failed
 * "b is Infinity" where a stepper integrates it exactly. A group whose right-hand side is not
 * finite at the start (y' = 1/T, T = 1e-320), or whose values leave doubles later (h'' = -g,
 * g = 1e200, to t = 1e200), is the analytic path's to report, as it does.
 */
function overflowingGroup(
  m: CompiledModel,
  p: Float64Array,
  y: Float64Array,
  d: Float64Array,
  t0: number,
): string | null {
  const { advance, rangeLost: guards } = m.closedForm();
  if (advance.every((step) => step === null)) return null;
  const groups = structureOf(m.system).groups;
  const rate = new Float64Array(y.length),
    moved = new Float64Array(y.length);
  m.rhs(t0, y, p, d, new Float64Array(Math.max(1, m.nSwitch)), rate);
  moved.set(y);
  for (let g = 0; g < advance.length; g++) {
    const step = advance[g],
      states = groups[g].states;
    if (step === null || !states.every((i) => Number.isFinite(y[i]) && Number.isFinite(rate[i]))) continue;
    step(t0, Number.MIN_VALUE, moved, p, d);
    const i = states.find((s) => !Number.isFinite(moved[s]));
    // (the step wrote this group's states only: restoring them keeps the check O(N) in all, not
    // a whole copy per group, which took 0.4 s for the row of 16384 spheres)
    for (const s of states) moved[s] = y[s];
    if (i !== undefined)
      return `the closed form of ${m.system.states[i].name} has a coefficient beyond double precision (a parameter large for its time scale)`;
    const lost = guards[g]?.(t0, y, p, d) ?? -1;
    if (lost >= 0) return underflowMessage(m, states[lost]);
  }
  return null;
}

/**
 * Why an event function's Taylor coefficients cannot be evaluated in doubles at the start
 * (CompiledClosedForm.eventRangeLost: one underflowed, so its crossings would be those of
 * another polynomial), or null. After an instant: analytic/finite-after.ts, functionLost.
 */
function underflowingEvent(
  m: CompiledModel,
  p: Float64Array,
  y: Float64Array,
  d: Float64Array,
  t0: number,
): string | null {
  const events = m.closedForm().eventRangeLost;
  for (let k = 0; k < events.length; k++) if ((events[k]?.(t0, y, p, d) ?? -1) >= 0) return eventUnderflowMessage(m, k);
  return null;
}

/** As underflowMessage, for the Taylor coefficients of event k's function (CompiledClosedForm.eventRangeLost). */
export function eventUnderflowMessage(m: CompiledModel, k: number): string {
  return `the function of event ${m.events[k].name} has a Taylor coefficient below double precision (it underflows: a parameter small, or large, for its time scale)`;
}

/**
 * What a run is told where a closed form's coefficient lost range below the normal doubles
 * (CompiledClosedForm.rangeLost): b' = 2 B t/T, B = 1e-200, T = 1e150 has the coefficient
 * B/T = 1e-350 of t^2, 0 in doubles, and the analytic path gave b = 0 over [0, 1e160]
 * where b = 1e-30 (status ok). Also after an instant (analytic/finite-after.ts).
 */
export function underflowMessage(m: CompiledModel, state: number): string {
  return `the closed form of ${m.system.states[state].name} has a coefficient below double precision (it underflows: a parameter small, or large, for its time scale)`;
}

/**
 * Why linear event k's scan over a span of time would take too many windows with the
 * constants p and d (its block stiff: see rangeRefusal), or null. The analytic engine asks
 * again where a scan runs out of its windows after an event changed the block's constants.
 */
export function stiffScan(m: CompiledModel, k: number, p: Float64Array, d: Float64Array, span: number): string | null {
  const f = m.closedForm().linear[k];
  if (!f) return null;
  const block = f.block;
  block.update(p, d);
  const windows = 2 * block.normBalanced * span;
  if (block.rotationFrequency() === 0 && windows > MAX_WINDOWS)
    return `the function of event ${m.events[k].name} moves on a time scale of ${(1 / block.normBalanced).toPrecision(3)} (a stiff linear block), ${windows.toPrecision(3)} windows over the range`;
  return null;
}

/**
 * What `transform` says of a model's path, for a run with the model's own options and values
 * (no caller's options): null when simulate takes the analytic path, else why it does not.
 */
export function transformPathNote(model: CompiledModel, obstacles: readonly string[]): string | null {
  const sys = model.system;
  const cause = stepperCause(model, obstacles, {});
  const line = (name: string) => `${sys.file}:${sys.options.get(name)!.span.line}`;
  if (cause === 'obstacles') return null; // (said by the lines above: which parts are numerical)
  if (cause === 'method') return `option method = ${String(methodOf(model, {}))} (${line('method')}) chooses a stepper`;
  if (cause === 'stepBounds')
    return `option step = ${String(sys.options.get('step')!.value)} (${line('step')}) bounds the steps of a stepper, which method auto then takes`;
  if (cause === 'zeno')
    return `option zeno = continue (${line('zeno')}) holds contacts as constraints, which the stepper integrates`;
  if (!sys.range.to) return null;
  const p = model.parameters();
  const y = new Float64Array(Math.max(1, model.nStates)),
    d = new Float64Array(model.nDiscrete);
  model.initial(p, y, d);
  const t0 = sys.range.from ? model.parametersExpr(sys.range.from, p) : 0;
  const tEnd = model.parametersExpr(sys.range.to, p);
  return Number.isFinite(t0) && Number.isFinite(tEnd) ? rangeRefusal(model, p, y, d, t0, tEnd) : null;
}
