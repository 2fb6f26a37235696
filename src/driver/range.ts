/**
 * The range of a run: where it starts and ends. A run starts where the model states its
 * initial values, unless the caller gives every initial value at another start, and it goes
 * backwards only through events it can undo exactly (MODEL-LANGUAGE: initial values belong to
 * the instant where they are stated).
 */
import type { CompiledModel } from '../codegen/compile.js';
import { references, toText } from '../expression/expr.js';
import type { EventSpec, SystemState } from '../transform/system.js';
import { asMap, optionLabel, type Naming } from './settings.js';
import { SimulationInputError, type SimulateOptions } from './types.js';

/** A run's range: from t0 to tEnd (tEnd < t0: backwards). */
export interface RunRange {
  t0: number;
  tEnd: number;
  /** where the model states its initial values (t0 unless the caller started elsewhere): the phase of its periodic events */
  modelStart: number;
}

/**
 * The range of a run, for parameters p. A run starts where the model states its initial
 * values (the start of its range) unless the caller gives every initial value (every state
 * and every discrete variable) at another start: initial values belong to the instant where
 * they are stated. A run backwards in the independent variable must undo each event it
 * meets; a model with an event it cannot undo exactly is refused (see {@link undoable}).
 */
export function resolveRange(
  model: CompiledModel,
  p: Float64Array,
  options: SimulateOptions,
  naming: Naming = 'library',
): RunRange {
  const sys = model.system;
  const modelStart = sys.range.from ? model.parametersExpr(sys.range.from, p) : 0;
  const t0 = options.from ?? modelStart;
  const tEnd = options.to ?? (sys.range.to ? model.parametersExpr(sys.range.to, p) : NaN);
  const x = sys.independent;
  if (!Number.isFinite(tEnd))
    throw new SimulationInputError(
      `no end of the range: give 'independent ${x} from A to B' in the model or --to on the command line`,
    );
  if (!Number.isFinite(t0)) throw new SimulationInputError(`the start of the range is not a finite number`);
  if (t0 !== modelStart) checkStart(model, options, t0, tEnd, modelStart, naming);
  else checkStatedAt(model, p, options, t0, naming);
  if (tEnd < t0) checkBackwards(model, t0, tEnd, naming);
  return { t0, tEnd, modelStart };
}

/**
 * A word for a run that a start alone turned backwards: the caller moved the start past the
 * model's end without giving an end, so the run goes back to that end (`--from 6` on a model
 * of 0 to 5). That is the range the rules give, but one a user who forgot `--to` would not
 * see, status ok with every row in reverse.
 */
export function reversedByStart(model: CompiledModel, options: SimulateOptions, range: RunRange): string | null {
  if (options.from === undefined || options.to !== undefined) return null;
  const forward = Math.sign(range.tEnd - range.modelStart),
    actual = Math.sign(range.tEnd - range.t0);
  if (forward === 0 || actual === 0 || forward === actual) return null;
  const x = model.system.independent;
  return `the run starts at ${x} = ${range.t0}, beyond the model's end ${range.tEnd}, so it runs backwards to it; give the end (to, --to) to run the other way`;
}

/** per model: the states whose initial value is stated where a parameter can move it off the start of the range */
const MOVABLE = new WeakMap<CompiledModel, readonly SystemState[]>();

function movableStates(model: CompiledModel): readonly SystemState[] {
  let movable = MOVABLE.get(model);
  if (!movable) {
    const sys = model.system;
    const from = sys.range.from ? toText(sys.range.from) : '0';
    const fromMoves = sys.range.from ? references(sys.range.from).size > 0 : false;
    movable = sys.states.filter(
      (s) =>
        s.initialAt !== undefined && toText(s.initialAt) !== from && (fromMoves || references(s.initialAt).size > 0),
    );
    MOVABLE.set(model, movable);
  }
  return movable;
}

/**
 * The model's initial values hold where they are stated: `x(1) = 0` was taken as an initial
 * condition because the range started at T0 = 1, and a run with T0 set to 2 (a sweep, a
 * library run of the compiled model) started at 2 with x = 0 there, status ok (simulate
 * --set T0=2 is a model error: the condition is no longer at the start). Refused unless the
 * caller gives that value at the start itself.
 */
function checkStatedAt(
  model: CompiledModel,
  p: Float64Array,
  options: SimulateOptions,
  t0: number,
  naming: Naming,
): void {
  const movable = movableStates(model);
  if (movable.length === 0) return;
  const sys = model.system,
    x = sys.independent;
  const given = asMap(options.init);
  for (const s of movable) {
    if (given.has(s.variable)) continue;
    const at = model.parametersExpr(s.initialAt!, p);
    if (at === t0) continue;
    const line = s.initialAt!.span?.line;
    const from = sys.range.from ? toText(sys.range.from) : '0';
    throw new SimulationInputError(
      `${s.variable}(${toText(s.initialAt!)})${line ? ` (line ${line})` : ''} states ${s.variable} at ${x} = ${at}, and with this run's parameters the range starts at ${x} = ${t0} (from ${from}): a run starts where the model states its initial values. State them at the start of the range (${s.variable}(${from}) = ...), or give every initial value there with ${optionLabel('init', naming)}`,
      { option: 'set', value: t0, allowed: `parameters for which the range starts at ${x} = ${at}` },
    );
  }
}

/** A start other than the model's: only with every initial value given there. */
function checkStart(
  model: CompiledModel,
  options: SimulateOptions,
  t0: number,
  tEnd: number,
  modelStart: number,
  naming: Naming,
) {
  const sys = model.system;
  const given = asMap(options.init);
  const needed = [...sys.states.map((s) => s.variable), ...sys.discretes.map((d) => d.name)];
  const missing = needed.filter((k) => !given.has(k));
  const x = sys.independent;
  const from = optionLabel('from', naming),
    init = optionLabel('init', naming);
  if (missing.length > 0) {
    const line = sys.states[0]?.initial.span?.line;
    throw new SimulationInputError(
      `${from} ${t0}: ${sys.model} states its initial values at ${x} = ${modelStart}${line ? ` (line ${line})` : ''}, and a run starts where they hold. To start at ${x} = ${t0}, give every initial value there with ${init} (missing: ${missing.join(', ')}), or make ${x} = ${t0} the start of the model's range`,
      { option: from, value: t0, allowed: `${modelStart}, or any start with every initial value in ${init}` },
    );
  }
  // A delayed delta's impulses on their way at t0 (from occurrences of its event in the last
  // D before t0) are part of the state there, and no init can give them: the run would lose
  // them silently and not continue the one from the model's start. (A run backwards meets
  // them before their cause: it fails where the delay is scheduled.)
  const delayed = tEnd >= t0 ? sys.events.find((ev) => ev.schedule?.kind === 'delay') : undefined;
  if (delayed?.schedule?.kind === 'delay')
    throw new SimulationInputError(
      `${from} ${t0}: ${delayed.source} (line ${delayed.span.line}) acts a delay after each ${delayed.schedule.event}, so impulses of occurrences before ${x} = ${t0} may be on their way there, and ${init} cannot give them. Start at ${x} = ${modelStart}, where ${sys.model} states its initial values, or make ${x} = ${t0} the start of the model's range`,
      { option: from, value: t0, allowed: `${modelStart}: ${sys.model} has a delayed delta` },
    );
}

/** Backwards, every event must be one the run can undo exactly. */
function checkBackwards(model: CompiledModel, t0: number, tEnd: number, naming: Naming) {
  const sys = model.system;
  for (const ev of sys.events) {
    const why = undoable(ev);
    if (why === null) continue;
    const x = sys.independent;
    throw new SimulationInputError(
      `a run backwards in ${x} (from ${t0} to ${tEnd}) must undo each event it meets, and ${ev.name} (line ${ev.span.line}: ${ev.source}) cannot be undone exactly: ${why}. Run forwards, from the instant where the model states its initial values`,
      { option: optionLabel('to', naming), value: tEnd, allowed: `at least ${t0} for this model` },
    );
  }
}

/**
 * Why an event's actions have no inverse that a backward run applies exactly, or null when
 * they do. Undone exactly: `stop`; a delta's jump S := S + w, undone by S := S - w when w does
 * not read S (the driver subtracts it going backwards, solving for the values before where w
 * reads another jump of the instant); a Marcus flow, run
 * backwards in its pulse time. An assignment (h' := -e*h', n := n + 1) is not inverted, nor a
 * Marcus flow whose factor is held from before the crossing (a delta on the state whose
 * 1/|du/dt| reads a level the flow moves: v' = -v*delta(x - 1), v+ = v- exp(-1/|v-|)). Going
 * backwards the run reaches it from after the crossing: the factor there is 1/|v+|, and the
 * flow run back with it gives v- = v+ exp(1/|v+|), not the v- whose image is v+ (from
 * x = 1.6065, v = 1.2131 at t = 1 back to t = 0: v = 2.766, not 2). Undone exactly, the factor
 * would be solved for: the one whose backward flow ends where it is read.
 */
export function undoable(ev: EventSpec): string | null {
  const written = new Set<string>();
  for (const a of ev.actions) {
    if (a.kind === 'assign' || a.kind === 'jump') written.add(a.target);
  }
  // (a jump whose weight reads another jump of the event, x'' = z delta(t - 1) beside z' =
  // delta(t - 1), is undone by the driver's passes, Firing.undoTogether: solved link by link,
  // or the run fails where the weights read each other in a cycle. Its own target, or beside
  // a Marcus flow, is an equation the passes do not solve)
  const flows = ev.actions.some((a) => a.kind === 'marcus');
  for (const a of ev.actions) {
    if (a.kind === 'assign') return `it assigns ${a.variable}, and deltastep does not invert assignments`;
    if (
      a.kind === 'jump' &&
      [...references(a.increment)].some((name) => name === a.target || (flows && written.has(name)))
    )
      return `the jump of ${a.variable} depends on a value the same event changes (undoing it means solving for the value before)`;
    if (a.kind === 'marcus') {
      const held = a.jumps.find((j) => j.frozen !== undefined);
      if (held)
        return `its Marcus flow of ${held.variable} holds the weight's 1/|du/dt| from before the crossing, and du/dt reads what the flow moves (going backwards, before the crossing is after it: undoing it means solving for the value before)`;
    }
  }
  return null;
}
