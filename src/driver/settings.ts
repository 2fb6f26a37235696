/**
 * Run settings: every option of a run resolved and validated once, at the boundary
 * (STYLE.md, convention 12), for the library and the command line alike.
 *
 * - {@link checkOptions} judges what a caller passed: every key known, every value of its
 *   type and range. A problem is a {@link SimulationInputError} that names the option (or the
 *   command line's flag), the value, what is allowed and, for an unknown key, the nearest
 *   known one. The command line parses its strings to numbers and comes through here too.
 * - {@link resolveSettings} lays the caller's options over the model's `option` statements
 *   over the defaults, and checks what only the combination tells: `locate before|after`
 *   needs a fixed-step method, `firstStep` and `maxStep` an adaptive one, and a relative
 *   tolerance below what double precision can deliver is raised to the smallest meaningful
 *   one, with a warning. A model option that is
 *   wrong on its own is a ModelError at its line; a conflict between the caller's options and
 *   the model's names both.
 * - range.ts gives the range of a run, with the same naming of options.
 */
import type { CompiledModel } from '../codegen/compile.js';
import type { Span } from '../expression/ast.js';
import { ModelError } from '../expression/errors.js';
import { references, toText } from '../expression/expr.js';
import { didYouMean } from '../expression/suggest.js';
import { METHODS, type MethodName } from '../integrators/stepper.js';
import { missingNameMessage } from '../language/element-names.js';
import { DEFAULT_MAX_DENSE_BYTES } from './dense-store.js';
import {
  DEFAULTS,
  SimulationInputError,
  type LocateMode,
  type RunMethod,
  type SimulateOptions,
  type SimulationSink,
} from './types.js';

/** How options are named in messages: as the library's keys or as the command line's flags. */
export type Naming = 'library' | 'flags';

/** The command line's flag for each option that has one. */
const FLAGS: ReadonlyMap<string, string> = new Map([
  ['from', '--from'],
  ['to', '--to'],
  ['set', '--set'],
  ['init', '--init'],
  ['method', '--method'],
  ['rtol', '--rtol'],
  ['atol', '--atol'],
  ['step', '--step'],
  ['firstStep', '--first-step'],
  ['maxStep', '--max-step'],
  ['locate', '--locate'],
  ['maxEvents', '--max-events'],
  ['maxSteps', '--max-steps'],
  ['maxRows', '--max-rows'],
  ['outputStep', '--output-step'],
  ['eventsOnly', '--events-only'],
  ['outputTimes', '--output-times'],
  ['zeno', '--zeno'],
  ['jacobian', '--jacobian'],
]);

export function optionLabel(key: string, naming: Naming): string {
  return naming === 'flags' ? (FLAGS.get(key) ?? key) : key;
}

/** What one option takes. */
export interface OptionSpec {
  /** what is allowed, as a phrase that ends "... must be " */
  readonly allowed: string;
  ok(value: unknown): boolean;
  /** the words of an option that takes one of them */
  readonly words?: readonly string[];
  /** for a value that holds others (set, init): which part is wrong, "e is '0.5'" */
  culprit?(value: unknown): string | undefined;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export const finiteNumber: OptionSpec = { allowed: 'a finite number', ok: isNumber };
export const positiveNumber: OptionSpec = {
  allowed: 'a positive number, such as 1e-8',
  ok: (v) => isNumber(v) && v > 0,
};
export const count: OptionSpec = {
  allowed: 'a whole number of at least 1',
  ok: (v) => isNumber(v) && Number.isInteger(v) && v >= 1,
};
export const flag: OptionSpec = { allowed: 'true or false', ok: (v) => typeof v === 'boolean' };
const callable: OptionSpec = { allowed: 'a function', ok: (v) => typeof v === 'function' };

/** One of `words`; `described` says what each means, where a list of words would not. */
export function oneOf(words: readonly string[], described?: string): OptionSpec {
  return {
    allowed: described ?? `one of ${words.join(', ')}`,
    ok: (v) => typeof v === 'string' && words.includes(v),
    words,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map);

/** Values by name: a Map or a plain object, every value a finite number. */
const entriesOf = (v: unknown): [unknown, unknown][] | null =>
  v instanceof Map ? [...(v as Map<unknown, unknown>).entries()] : isRecord(v) ? Object.entries(v) : null;
const numbersByName: OptionSpec = {
  allowed: 'values by name, as a Map or an object of finite numbers ({ e: 0.5 })',
  ok: (v) => {
    // (no copy of the entries: sweeps check their parameter map once per run)
    if (v instanceof Map) {
      for (const [k, x] of v as Map<unknown, unknown>) if (typeof k !== 'string' || !isNumber(x)) return false;
      return true;
    }
    if (!isRecord(v)) return false;
    for (const k in v) if (Object.hasOwn(v, k) && !isNumber(v[k])) return false;
    return true;
  },
  culprit: (v) => {
    const bad = entriesOf(v)?.find(([k, x]) => !(typeof k === 'string' && isNumber(x)));
    return bad ? `${typeof bad[0] === 'string' ? bad[0] : show(bad[0])} is ${show(bad[1])}` : undefined;
  },
};

const numberList: OptionSpec = {
  allowed: 'an array of finite numbers',
  // (a Float64Array, what a numeric caller holds, as well as a plain array)
  ok: (v) => (Array.isArray(v) || v instanceof Float64Array) && Array.prototype.every.call(v, isNumber),
};

/** A list of times as a plain array (a typed array copied: the run sorts and filters it). */
function listOf(v: readonly number[] | Float64Array | undefined): readonly number[] | undefined {
  return v instanceof Float64Array ? Array.from(v) : v;
}

const sink: OptionSpec = {
  allowed: 'an object with a row(row) method and an optional event(record) method',
  ok: (v) => {
    if (typeof v !== 'object' || v === null) return false;
    const s = v as Partial<SimulationSink>;
    return typeof s.row === 'function' && (s.event === undefined || typeof s.event === 'function');
  },
};

/** Every option of a run (SimulateOptions), in the order the documentation lists them. */
const RUN_OPTIONS: ReadonlyMap<string, OptionSpec> = new Map([
  ['from', finiteNumber],
  ['to', finiteNumber],
  ['set', numbersByName],
  ['init', numbersByName],
  ['method', oneOf([...METHODS, 'analytic'])],
  ['rtol', positiveNumber],
  ['atol', positiveNumber],
  ['step', positiveNumber],
  ['firstStep', positiveNumber],
  ['maxStep', positiveNumber],
  ['locate', oneOf(['exact', 'before', 'after'])],
  ['maxSteps', count],
  ['maxEvents', count],
  ['maxRows', count],
  ['record', flag],
  ['sink', sink],
  ['outputStep', positiveNumber],
  ['eventsOnly', flag],
  ['outputTimes', numberList],
  ['eventValues', flag],
  [
    'zeno',
    oneOf(
      ['stop', 'continue'],
      'stop (end the run at an accumulation of events or a persisting contact) or continue (hold the contact as a constraint)',
    ),
  ],
  ['probes', numberList],
  ['progress', callable],
  ['dense', flag],
  ['maxDenseBytes', count],
]);

/** Other tools' names for options, so that an unknown key can point at ours. */
const FOREIGN_NAMES: ReadonlyMap<string, string> = new Map([
  ['t_eval', 'outputTimes'],
  ['teval', 'outputTimes'],
  ['max_step', 'maxStep'],
  ['hmax', 'maxStep'],
  ['dtmax', 'maxStep'],
  ['first_step', 'firstStep'],
  ['h0', 'firstStep'],
  ['dt', 'firstStep'],
  ['dense_output', 'dense'],
  ['reltol', 'rtol'],
  ['abstol', 'atol'],
  ['t0', 'from'],
  ['tend', 'to'],
  ['t_end', 'to'],
  ['tf', 'to'],
  ['params', 'set'],
  ['parameters', 'set'],
  ['y0', 'init'],
  ['initial', 'init'],
  ['solver', 'method'],
]);

/**
 * A value as a message shows it: strings quoted, so that '1e-6' reads as text (on the
 * command line every value is text, and shown as written).
 */
function show(v: unknown, naming: Naming = 'library'): string {
  if (typeof v === 'string') return naming === 'flags' ? v : `'${v}'`;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v);
  if (typeof v === 'function') return 'a function';
  if (Array.isArray(v)) return 'an array';
  if (v instanceof Map) return 'a Map';
  return 'an object';
}

function inputError(
  naming: Naming,
  key: string,
  value: unknown,
  allowed: string,
  text?: string,
  nearest?: string,
): SimulationInputError {
  const label = optionLabel(key, naming);
  const message = text ?? `${label} must be ${allowed}, got ${show(value, naming)}`;
  return new SimulationInputError(message, { option: label, value, allowed, nearest });
}

/** The known option nearest to an unknown key: same letters in another case, another tool's name, or a near spelling. */
function nearestOption(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const sameLetters = known.find((k) => k.toLowerCase() === lower);
  if (sameLetters) return sameLetters;
  const foreign = FOREIGN_NAMES.get(lower);
  if (foreign && known.includes(foreign)) return foreign;
  const near = /did you mean (.*)\?/.exec(didYouMean(key, known));
  return near ? near[1] : undefined;
}

/** A word option given in another case ('Exact') or close to a word ('middle' is not). */
function wordHint(spec: OptionSpec, value: unknown): string {
  const words = spec.words;
  if (typeof value !== 'string' || !words) return '';
  const lower = value.toLowerCase();
  const same = words.find((w) => w.toLowerCase() === lower);
  if (same) return ` (did you mean ${same}? the words are lower case)`;
  return didYouMean(value, words);
}

/** Names of a command line's flags for the combined checks: "--output-step and --events-only". */
function both(a: string, b: string, naming: Naming): string {
  return `${optionLabel(a, naming)} and ${optionLabel(b, naming)}`;
}

/**
 * Checks what a caller passed, key by key; `extra` adds the options of a caller built on a run
 * (shoot: jacobian, maxIterations). Undefined values mean "the default" and pass.
 */
export function checkOptions(
  options: unknown,
  naming: Naming = 'library',
  extra: ReadonlyMap<string, OptionSpec> = new Map(),
): void {
  if (options === undefined) return;
  if (!isRecord(options))
    throw new SimulationInputError(
      `the options must be an object such as { to: 5, rtol: 1e-8 }, got ${show(options)}`,
      {
        option: 'options',
        value: options,
        allowed: 'an object',
      },
    );
  for (const key of Object.keys(options)) {
    const value = options[key];
    const spec = RUN_OPTIONS.get(key) ?? extra.get(key);
    if (!spec) {
      const known = [...RUN_OPTIONS.keys(), ...extra.keys()];
      const nearest = nearestOption(key, known);
      throw inputError(
        naming,
        key,
        value,
        `one of ${known.join(', ')}`,
        `unknown option '${key}'${nearest ? ` (the nearest is ${nearest})` : ''}; the options are ${known.join(', ')}`,
        nearest,
      );
    }
    if (value === undefined || spec.ok(value)) continue;
    const hint = wordHint(spec, value);
    const part = spec.culprit?.(value);
    throw inputError(
      naming,
      key,
      value,
      spec.allowed,
      `${optionLabel(key, naming)} must be ${spec.allowed}, got ${part ?? show(value, naming)}${hint}`,
    );
  }
  const o = options as SimulateOptions;
  if (o.outputTimes !== undefined && (o.outputStep !== undefined || o.eventsOnly))
    throw inputError(
      naming,
      'outputTimes',
      o.outputTimes,
      'not both',
      `${both('outputTimes', o.eventsOnly ? 'eventsOnly' : 'outputStep', naming)} exclude each other: choose one`,
    );
  if (o.outputStep !== undefined && o.eventsOnly)
    throw inputError(
      naming,
      'outputStep',
      o.outputStep,
      'not both',
      `${both('outputStep', 'eventsOnly', naming)} exclude each other: choose one`,
    );
  if (o.firstStep !== undefined && o.maxStep !== undefined && o.firstStep > o.maxStep)
    throw inputError(
      naming,
      'firstStep',
      o.firstStep,
      `at most ${optionLabel('maxStep', naming)} (${o.maxStep})`,
      `${optionLabel('firstStep', naming)} ${o.firstStep} is longer than ${optionLabel('maxStep', naming)} ${o.maxStep}: the first step is one of the steps that ${optionLabel('maxStep', naming)} bounds; give a ${optionLabel('firstStep', naming)} of at most ${o.maxStep}`,
    );
}

/** Everything a run needs to know, resolved: the caller's options over the model's over the defaults. */
export interface RunSettings {
  method: RunMethod;
  rtol: number;
  atol: number;
  /** the fixed step of rk4 and euler, the largest step of the others; undefined: not given */
  step: number | undefined;
  /** adaptive methods: the first step to try (undefined: Hairer's heuristic) and the largest step (undefined: none) */
  firstStep: number | undefined;
  maxStep: number | undefined;
  locate: LocateMode;
  maxEvents: number;
  maxSteps: number;
  maxRows: number;
  outputStep: number;
  eventsOnly: boolean;
  outputTimes: readonly number[] | undefined;
  record: boolean;
  eventValues: boolean;
  zeno: 'stop' | 'continue';
  set: Map<string, number>;
  init: Map<string, number>;
  probes: readonly number[] | undefined;
  progress: ((t: number) => void) | undefined;
  sink: SimulationSink | undefined;
  /** keep the solution as a function of t (result.sol), within maxDenseBytes */
  dense: boolean;
  maxDenseBytes: number;
  /** what was changed to make the run meaningful (a tolerance raised), for the result */
  warnings: string[];
}

/**
 * The smallest relative tolerance that double precision can deliver: below it the error
 * estimate is rounding, and the step size controller chases noise (SciPy raises rtol to the
 * same 100 eps, `scipy/integrate/_ivp/common.py`, validate_tol).
 */
export const MIN_RTOL = 100 * Number.EPSILON;

const FIXED_STEP: readonly MethodName[] = ['rk4', 'euler'];

/** compiled models whose own options have been judged (a model is immutable once compiled) */
const modelsChecked = new WeakSet<CompiledModel>();

export function asMap(x: SimulateOptions['set']): Map<string, number> {
  if (!x) return new Map();
  return x instanceof Map ? new Map(x) : new Map(Object.entries(x));
}

/**
 * Resolves and validates a run's settings. Throws a SimulationInputError for what the caller
 * got wrong and a ModelError (at the option's line) for what the model got wrong.
 */
export function resolveSettings(
  model: CompiledModel,
  options: SimulateOptions,
  naming: Naming = 'library',
): RunSettings {
  checkOptions(options, naming);
  const sys = model.system;
  const modelOption = sys.options;
  const err = (span: Span, what: string, hint: string) => new ModelError(sys.file, sys.source, span, what, hint);
  const fromModel = <T>(name: string): T | undefined => modelOption.get(name)?.value as T | undefined;

  // The model's options were read by the analysis (names, words, positive numbers); what
  // they are as a run's settings is judged here, with the caller's, by the same specs,
  // once per compiled model.
  if (!modelsChecked.has(model)) {
    for (const [name, o] of modelOption) {
      const spec = RUN_OPTIONS.get(name);
      if (spec && !spec.ok(o.value))
        throw err(o.span, `option ${name} must be ${spec.allowed}, got ${show(o.value)}`, `Give ${spec.allowed}.`);
    }
    modelsChecked.add(model);
  }
  const warnings: string[] = [];
  const method = options.method ?? fromModel<RunMethod>('method') ?? DEFAULTS.method;
  let rtol = options.rtol ?? fromModel<number>('rtol') ?? DEFAULTS.rtol;
  if (rtol < MIN_RTOL) {
    // (in words that read the same from the library and the command line)
    const where = options.rtol !== undefined ? '' : ` (option rtol, ${sys.file}:${modelOption.get('rtol')!.span.line})`;
    warnings.push(
      `the relative tolerance ${rtol}${where} is below what double precision can deliver; the run uses ${MIN_RTOL.toPrecision(3)} (100 times the machine epsilon)`,
    );
    rtol = MIN_RTOL;
  }
  const locate = options.locate ?? fromModel<LocateMode>('locate') ?? DEFAULTS.locate;
  checkLocate(model, options, method, locate, naming);
  checkStepBounds(model, options, method, naming);
  const set = asMap(options.set),
    init = asMap(options.init);
  checkNames(model, set, init, naming);
  checkDerivedParameters(model, set);
  if (method !== 'analytic' && method !== 'auto') checkRangeLength(model, options, set);
  const step = options.step ?? fromModel<number>('step');
  return {
    method,
    rtol,
    atol: options.atol ?? fromModel<number>('atol') ?? DEFAULTS.atol,
    step,
    firstStep: options.firstStep,
    // (the caller's maxStep over the model's option step, which means the same for an adaptive method)
    maxStep: options.maxStep ?? step,
    locate,
    maxEvents: options.maxEvents ?? fromModel<number>('maxEvents') ?? DEFAULTS.maxEvents,
    maxSteps: options.maxSteps ?? fromModel<number>('maxSteps') ?? DEFAULTS.maxSteps,
    maxRows: options.maxRows ?? DEFAULTS.maxRows,
    outputStep: options.outputStep ?? 0,
    eventsOnly: options.eventsOnly ?? false,
    outputTimes: listOf(options.outputTimes),
    record: options.record ?? true,
    eventValues: options.eventValues ?? true,
    zeno: options.zeno ?? fromModel<'stop' | 'continue'>('zeno') ?? 'stop',
    set,
    init,
    probes: listOf(options.probes),
    progress: options.progress,
    sink: options.sink,
    dense: options.dense ?? false,
    maxDenseBytes: options.maxDenseBytes ?? DEFAULT_MAX_DENSE_BYTES,
    warnings,
  };
}

/**
 * A stepper counts time from the start of the range in one double (time-origin.ts), so a range
 * longer than the largest double (--from -1e308 --to 1e308) has an end it cannot reach: its
 * fixed step (a thousandth of the range) overflowed to Infinity and the adaptive ones stopped
 * at once. Refused with what to write; the analytic path, which has no such clock, runs it.
 */
export function checkRangeLength(model: CompiledModel, o: SimulateOptions, set: ReadonlyMap<string, number>): void {
  const { from, to } = model.system.range;
  const p = (o.from === undefined && from) || (o.to === undefined && to) ? model.parameters(set) : undefined;
  const t0 = o.from ?? (from ? model.parametersExpr(from, p!) : 0);
  const tEnd = o.to ?? (to ? model.parametersExpr(to, p!) : NaN);
  if (!Number.isFinite(t0) || !Number.isFinite(tEnd) || Number.isFinite(tEnd - t0)) return;
  const x = model.system.independent;
  throw new SimulationInputError(
    `the range of ${x} from ${t0} to ${tEnd} is longer than the largest number of double precision (about 1.8e308), and a stepper counts ${x} from the start of the range: give a range shorter than that, or method analytic where the model has closed forms`,
    { option: 'to', value: tEnd, allowed: 'an end less than 1.8e308 from the start' },
  );
}

/** How a message names the method of a run: as the caller gave it, as the model's option, or as the default. */
function methodText(model: CompiledModel, options: SimulateOptions, method: RunMethod, naming: Naming): string {
  if (options.method !== undefined) return `${optionLabel('method', naming)} ${method}`;
  const option = model.system.options.get('method');
  return option
    ? `option method = ${method} (${model.system.file}:${option.span.line})`
    : `the default method ${method}`;
}

/**
 * `firstStep` and `maxStep` bound the steps of an adaptive method. rk4 and euler take every
 * step of their fixed `step`, and the analytic path takes none (it goes from event to event
 * in closed form): both refuse them rather than ignore them. (With method auto, asking for
 * either takes the stepper: analytic/simulator.ts.)
 */
function checkStepBounds(model: CompiledModel, options: SimulateOptions, method: RunMethod, naming: Naming): void {
  const key = options.firstStep !== undefined ? 'firstStep' : options.maxStep !== undefined ? 'maxStep' : null;
  // (step is maxStep for an adaptive method, and auto takes its stepper for it as for maxStep:
  // method analytic refuses it as it refuses maxStep; the model's option step, with method
  // analytic, is the refusal simulator.ts makes at the option's line)
  const stepperKey = key ?? (options.step !== undefined ? 'step' : null);
  if (method === 'analytic' && stepperKey !== null) {
    const label = optionLabel(stepperKey, naming);
    throw inputError(
      naming,
      stepperKey,
      options[stepperKey],
      'given with a stepper only',
      `${label} ${stepperKey === 'step' ? 'sets' : 'bounds'} the steps of a stepper, and ${methodText(model, options, method, naming)} takes none (it goes from event to event in closed form): drop ${label}, or choose a stepper (${optionLabel('method', naming)} auto or dopri5, ...)`,
    );
  }
  if (key === null) return;
  const label = optionLabel(key, naming);
  const value = options[key];
  if ((FIXED_STEP as readonly RunMethod[]).includes(method))
    throw inputError(
      naming,
      key,
      value,
      'given with an adaptive method only',
      `${label} bounds the steps of an adaptive method, and ${methodText(model, options, method, naming)} takes steps of one fixed size: set that size with ${optionLabel('step', naming)}, or choose an adaptive method (dopri5, dop853, rodas, radau5, auto)`,
    );
  const { step, maxStep, firstStep } = options;
  if (step !== undefined && maxStep !== undefined && step !== maxStep)
    throw inputError(
      naming,
      'maxStep',
      maxStep,
      `the same as ${optionLabel('step', naming)}`,
      `${both('step', 'maxStep', naming)} both set the largest step of ${method} (${step} and ${maxStep}): give one`,
    );
  // (the model's option step is the largest step of an adaptive method too)
  const modelStep = model.system.options.get('step');
  if (firstStep !== undefined && maxStep === undefined && (step ?? modelStep?.value) !== undefined) {
    const largest = (step ?? modelStep!.value) as number;
    const where =
      step !== undefined ? optionLabel('step', naming) : `option step (${model.system.file}:${modelStep!.span.line})`;
    if (firstStep > largest)
      throw inputError(
        naming,
        'firstStep',
        firstStep,
        `at most the largest step (${largest})`,
        `${label} ${firstStep} is longer than the largest step of ${method}, ${largest} (${where}): give a ${label} of at most ${largest}`,
      );
  }
}

/** Every name in set is a parameter or unknown, and not a structural one at another value; every name in init a state or a discrete variable. */
function checkNames(
  model: CompiledModel,
  set: ReadonlyMap<string, number>,
  init: ReadonlyMap<string, number>,
  naming: Naming,
): void {
  const sys = model.system;
  for (const k of set.keys()) {
    if (!model.paramNames.includes(k))
      throw new SimulationInputError(
        missingNameMessage(k, model.paramNames, `a parameter or unknown of ${sys.model}`, 'they are'),
      );
  }
  // A structural parameter (N of `for i in 1:N`) shapes the model: it is set when the model
  // is written out (compileModel(source, file, { set })), not at run time.
  if (sys.structural && set.size > 0) {
    const own = model.parameters();
    for (const [k, v] of set) {
      const at = sys.structural.includes(k) ? model.paramNames.indexOf(k) : -1;
      if (at >= 0 && v !== own[at])
        throw new SimulationInputError(
          `'${k}' sets the shape of ${sys.model} (a range or an index uses it): this compiled model is written out for ${k} = ${own[at]}; compile the model with ${k} = ${v} (compileModel(source, file, { set: { ${k}: ${v} } }))`,
        );
    }
  }
  for (const key of init.keys()) {
    if (sys.states.some((s) => s.variable === key)) continue;
    if (model.discreteNames.indexOf(key) >= sys.stepVariables.length) continue;
    // (init takes the states and the discrete variables: both are listed)
    const names = [...sys.states.map((s) => s.variable), ...model.discreteNames.slice(sys.stepVariables.length)];
    const label = optionLabel('init', naming);
    throw new SimulationInputError(
      missingNameMessage(key, names, `a state or discrete variable of ${sys.model}`, 'they are', ` in ${label}`),
    );
  }
}

/** Per model: the parameters whose values another parameter's value reads. */
const READ_BY_PARAMETERS = new WeakMap<CompiledModel, ReadonlySet<string>>();

/**
 * A parameter defined from a set one (`b = sqrt(a)` with a set to -1) takes a new value in
 * the run, and it must be a finite number as the model's own values must be (analysis checks
 * those, and `--set` on simulate, applied where the model is compiled, is a model error at
 * b). Unchecked, NaN went on into an event function (`x - b` never crosses) or a condition
 * (`if b > 2` takes its else) and the run, every run of a sweep with it, ended ok. Evaluated
 * only when a set name is read by another parameter: a plain sweep pays nothing.
 */
function checkDerivedParameters(model: CompiledModel, set: ReadonlyMap<string, number>): void {
  if (set.size === 0) return;
  const params = model.system.parameters;
  let read = READ_BY_PARAMETERS.get(model);
  if (!read) {
    const names = new Set<string>();
    for (const q of params) references(q.value, names);
    READ_BY_PARAMETERS.set(model, (read = names));
  }
  let derived = false;
  for (const k of set.keys()) if (read.has(k)) derived = true;
  if (!derived) return;
  const values = model.parameters(set);
  const at = values.findIndex((v) => !Number.isFinite(v));
  if (at < 0) return;
  const q = params[at];
  const given = [...set].map(([k, v]) => `${k} = ${v}`).join(', ');
  throw new SimulationInputError(
    `parameter ${q.name} = ${toText(q.value)} is ${values[at]} for ${given} (${model.system.file}:${q.span.line}), as the run sets them: give values for which every parameter is a finite number`,
    { option: 'set', value: given, allowed: `values for which ${q.name} is a finite number` },
  );
}

/**
 * `locate before|after` places an event at a grid point next to its sign change, as
 * fixed-step tools do (IDERKSolve's jumpstep 0/1). With an adaptive method the grid is the
 * step size controller's choice, so the physics would depend on the tolerance: refused.
 */
function checkLocate(
  model: CompiledModel,
  options: SimulateOptions,
  method: RunMethod,
  locate: LocateMode,
  naming: Naming,
): void {
  if ((FIXED_STEP as readonly RunMethod[]).includes(method)) return;
  const sys = model.system;
  const gridEvent = sys.events.find((ev) => ev.locate !== undefined && ev.locate !== 'exact');
  if (locate === 'exact' && gridEvent === undefined) return;
  const methodText =
    options.method !== undefined
      ? `${optionLabel('method', naming)} ${method}`
      : sys.options.has('method')
        ? `option method = ${method}`
        : `the default method ${method}`;
  const fix = `use ${optionLabel('method', naming)} rk4 or euler (with a fixed step) or locate exact`;
  const why = `places events at the grid points of a fixed-step method, and ${methodText} is adaptive (its grid depends on the tolerance)`;
  if (locate !== 'exact') {
    if (options.locate !== undefined)
      throw inputError(
        naming,
        'locate',
        locate,
        'exact with an adaptive method',
        `${optionLabel('locate', naming)} ${locate} ${why}: ${fix}`,
      );
    const span = sys.options.get('locate')!.span;
    if (options.method !== undefined)
      throw inputError(
        naming,
        'method',
        method,
        'rk4 or euler with the model option locate',
        `option locate = ${locate} (${sys.file}:${span.line}) ${why}: ${fix}`,
      );
    throw new ModelError(
      sys.file,
      sys.source,
      span,
      `option locate = ${locate} ${why}`,
      `Add option method = rk4 (or euler) and option step, or write option locate = exact.`,
    );
  }
  const ev = gridEvent!;
  const what = `event ${ev.name} (locate ${ev.locate}) ${why}`;
  if (options.method !== undefined)
    throw inputError(
      naming,
      'method',
      method,
      'rk4 or euler for this model',
      `${what}, at ${sys.file}:${ev.span.line}: ${fix}`,
    );
  throw new ModelError(
    sys.file,
    sys.source,
    ev.span,
    what,
    'Add option method = rk4 (or euler) and option step, or remove locate from the event.',
  );
}
