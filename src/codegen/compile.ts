/**
 * Compiles a first-order system once to plain JavaScript functions over Float64Arrays.
 *
 * Signature of the hot functions: `(t, y, p, d, sw, out)`, where y holds the continuous
 * states, p the parameters, d the step and discrete variables, sw the locked values of the
 * switching primitives (relations, step, sign) and out the result array.
 *
 * Security: the generated source contains only what this file emits: array slots
 * (`y[3]`), numbers printed from doubles, operators, and a fixed whitelist of Math
 * functions. No identifier or text of the model reaches it, so a model named
 * `constructor` or `process` is an ordinary variable and a model cannot run code.
 *
 * This file holds the compiled model's record and assembles it; the parts come from
 * `emitter.ts` (expressions to code), `program.ts` (the source in parts), `emit-flow.ts`
 * (right-hand side, watched functions, rates, bounds), `emit-events.ts` (actions),
 * `emit-values.ts` (outputs, initial values, schedules), `event-dependencies.ts` (what each
 * event reads, writes and moves) and `constraints.ts` (held functions, compiled on first use).
 */
import type { Expr } from '../expression/ast.js';
import { evaluate } from '../expression/evaluate.js';
import { compileJacobian, type CompiledJacobian } from './jacobian.js';
import { compileClosedForm, type CompiledClosedForm } from './closed-form.js';
import { structureOf, type SystemStructure } from '../structure/structure.js';
import type { FirstOrderSystem, SwitchingFunction } from '../transform/system.js';
import { constraintBuilder } from './constraints.js';
import { Emitter } from './emitter.js';
import { emitEventActions } from './emit-events.js';
import { watchedFunctions } from './emit-flow.js';
import { flowProgram } from './flow-program.js';
import { emitValues } from './emit-values.js';
import { eventDependencies } from './event-dependencies.js';
import { PRELUDE_PARTS, programOf } from './program.js';

export type HotFunction = (
  t: number,
  y: Float64Array,
  p: Float64Array,
  d: Float64Array,
  sw: Float64Array,
  out: Float64Array,
) => void;
export type ScalarFunction = (t: number, y: Float64Array, p: Float64Array, d: Float64Array, sw: Float64Array) => number;

/**
 * A watched function: a state event's or a switching function. `affine`: it is affine in
 * the states and the independent variable (parameters and discrete variables are constants
 * between events), so along a motion the stepper integrates exactly (a polynomial of low
 * degree) it has no bump between step ends that its end values and rates do not show; the
 * simulator may then skip sampling inside a step (see Simulator.needsSamples).
 */
export type WatchEntry = ({ kind: 'event'; event: number } | { kind: 'switch'; index: number }) & {
  affine: boolean;
  /**
   * The first watched function with the same zeros (the same expression, or `b - a` for
   * `a - b`): where an event of one fires, the zero of the other is located too.
   */
  zeroOf: number;
};

export interface CompiledSchedule {
  kind: 'roots' | 'at' | 'every' | 'delay';
  /** roots: u(t) and du/dt; at: the times; every: period and start (from p); delay: the event it follows and the delay (from p) */
  u?: ScalarFunction;
  /** roots: the magnitude u's terms add up to (its rounding scale: u is zero to rounding within a few ulps of it) */
  uBound?: ScalarFunction;
  dudt?: ScalarFunction;
  /** roots: the magnitude du/dt's terms add up to, and the second and third derivatives of u */
  dudtBound?: ScalarFunction;
  d2udt?: ScalarFunction;
  d3udt?: ScalarFunction;
  exactRoot?: ScalarFunction | null;
  candidates?: ScalarFunction[];
  times?: ScalarFunction[];
  period?: ScalarFunction;
  from?: ScalarFunction | null;
  after?: number;
  delay?: ScalarFunction;
}

export interface CompiledEvent {
  index: number;
  name: string;
  kind: 'time' | 'state' | 'periodic';
  source: string;
  /** a delta's own event: its function (or its roots) is the delta's argument */
  fromDelta: boolean;
  /** -1 for time events */
  watchIndex: number;
  direction: 'rises' | 'falls' | 'crosses' | null;
  /**
   * writes the post-event values into yOut, dOut (which the caller pre-fills with y, d); with
   * `sc`, also the magnitude each written value is summed from, into sc at its slot in
   * `written` (an addition's adds to what sc holds; see driver/action-residue.ts); `tr`: for a
   * delta root's event, the exact root minus t, a fraction of an ulp of t (Workspace.actionShift),
   * which its weight 1/|u'| is corrected for; 0 or absent elsewhere
   */
  apply: (
    t: number,
    y: Float64Array,
    p: Float64Array,
    d: Float64Array,
    sw: Float64Array,
    yOut: Float64Array,
    dOut: Float64Array,
    dir: number,
    sc?: Float64Array,
    tr?: number,
  ) => void;
  /** the slots its assignments and jumps write: a state's index, or nStates plus a d slot's */
  written: Int32Array;
  /** Marcus rule: d slots that flow, and their rates */
  marcus: { targets: Int32Array; rate: HotFunction } | null;
  stops: boolean;
  schedule: CompiledSchedule | null;
  /** the model's `locate` for this event, or null: the run's --locate decides */
  locate: 'exact' | 'before' | 'after' | null;
  /** user variables this event's actions change */
  changes: string[];
  /**
   * the watched functions whose values its actions can change (they read a slot it writes):
   * the only ones event iteration must look at after it
   */
  moves: Int32Array;
  /**
   * the watched functions whose values or rates its actions can change: those event
   * iteration looks at for a function left at zero and turned across (Newton's cradle)
   */
  touches: Int32Array;
  /**
   * the slots its condition, the condition's rate and its actions read, and the slots its
   * actions write, of those whose values depend on the order of events (states, step
   * variables, what conditions read, discrete variables but accumulators that only their
   * additions read): two events whose sets meet do not commute, so their order matters
   */
  reads: ReadonlySet<string>;
  writes: ReadonlySet<string>;
}

/**
 * The constraint a watched function held at zero defines (option zeno = continue): with R its
 * rate along the flow, `grad` writes dR/dy for the states in `idx` (out[j] for idx[j]) and
 * `dt` is the explicit dR/dt; with them the force that keeps R at zero is exact.
 */
export interface ConstraintFunctions {
  idx: Int32Array;
  grad: (t: number, y: Float64Array, p: Float64Array, d: Float64Array, sw: Float64Array, out: Float64Array) => void;
  dt: ScalarFunction;
}

export interface CompiledModel {
  system: FirstOrderSystem;
  stateNames: string[];
  discreteNames: string[];
  paramNames: string[];
  nStates: number;
  nDiscrete: number;
  nSwitch: number;
  rhs: HotFunction;
  /** event and switching functions, in `watchInfo` order */
  watch: HotFunction;
  /** the same under the locked switches (see Switching.lock) */
  watchLocked: HotFunction;
  /** d/dt of each watched function along the flow; NaN where unknown */
  watchRate: HotFunction;
  /**
   * A bound on the rounding of each watched function as evaluated: its running error bound
   * (Emitter.rounding; its rate's: the sum of the magnitudes of the terms it adds, times 8
   * ulps). Zero is judged on this scale, the function's own (EVENTS.md, 1): a gap of 1e-300
   * kept as a state is not zero.
   */
  watchBound: HotFunction;
  rateBound: HotFunction;
  /** watched function k alone, its rate alone and its rounding bound alone: what the root finder refines */
  watchOne: ScalarFunction[];
  rateOne: ScalarFunction[];
  boundOne: ScalarFunction[];
  /** the magnitudes watched function k adds up: the scale of its terms (Emitter.magnitude) */
  sizeOne: ScalarFunction[];
  rateBoundOne: ScalarFunction[];
  /** per watched function: the states it or its rate reads (what the root finder interpolates) */
  watchStates: Int32Array[];
  watchInfo: WatchEntry[];
  events: CompiledEvent[];
  switching: SwitchingFunction[];
  outputNames: string[];
  outputs: HotFunction;
  /**
   * The outputs at an instant: relations at their zero that only outputs read are taken on
   * the side the motion comes from for `dir` (the run's direction: before the instant's
   * events, the left limits as the actions read them; also grid rows and the end of the
   * range) or goes on to for -dir (after them); see emit-values.ts.
   */
  outputsAtInstant: (...args: [...Parameters<HotFunction>, dir: number]) => void;
  initial: (p: Float64Array, y0: Float64Array, d0: Float64Array) => void;
  boundary: { label: string; variable: string; value: ScalarFunction; at: ScalarFunction; state: ScalarFunction }[];
  /** the constraint of watched function k (see ConstraintFunctions), compiled on first use; null without a known rate */
  constraintOf(k: number): ConstraintFunctions | null;
  /** parameter values: defaults with overrides by name; parameters may use earlier ones */
  parameters(overrides?: ReadonlyMap<string, number>): Float64Array;
  /** a set-up value (range end, option) from parameters; tree-evaluated, never in a loop */
  parametersExpr(e: Expr, p: Float64Array): number;
  /** the exact Jacobian ∂rhs/∂y and ∂rhs/∂t (jacobian.ts), compiled on first use: only implicit methods need it */
  jacobian(): CompiledJacobian;
  /** the closed forms of the analytic path (closed-form.ts), compiled on first use */
  closedForm(): CompiledClosedForm;
  /** the generated JavaScript, as shown by `transform --format js` (with the Jacobian) */
  readonly source: string;
}

export function compile(system: FirstOrderSystem): CompiledModel {
  const stateNames = system.states.map((s) => s.name);
  const discreteNames = [...system.stepVariables.map((s) => s.name), ...system.discretes.map((d) => d.name)];
  const paramNames = system.parameters.map((p) => p.name);
  const em = new Emitter(system, stateNames, discreteNames, paramNames);
  let jacobian: CompiledJacobian | undefined;
  let closedForm: CompiledClosedForm | undefined;
  let paramSlot: Map<string, number> | undefined;
  const stateSlot = new Map(stateNames.map((sn, i) => [sn, i]));
  const discreteSlot = new Map(discreteNames.map((dn, i) => [dn, i]));
  const slotIndex = (n: string): { array: 'y' | 'd'; index: number } => {
    const i = stateSlot.get(n);
    if (i !== undefined) return { array: 'y', index: i };
    return { array: 'd', index: discreteSlot.get(n) ?? -1 };
  };

  const watched = watchedFunctions(system, em);
  const { watchInfo, watchExprs, rateExprs } = watched;
  // (the flow's functions are written and compiled on first use: flow-program.ts)
  const flow = flowProgram(system, em, stateSlot, watched);
  const program = programOf(em);
  const { parts, families, fn } = program;
  const eventMeta = emitEventActions(system, em, program, slotIndex);
  const { scheduleIndex, bcIndex } = emitValues(system, program);

  const members = `outputs, outputsAtInstant, initial, apply: ${families.get('apply')}, rate: ${eventMeta.some((meta) => meta.marcusTargets) ? `[${eventMeta.map((meta, i) => (meta.marcusTargets ? `rate${i}` : 'null')).join(', ')}]` : `new Array(${eventMeta.length}).fill(null)`}, scalar: ${families.get('scalar')}`;
  // the whole program as transform --format js shows it: the flow's parts first
  const source = () => {
    const f = flow.text();
    return [
      ...parts.slice(0, PRELUDE_PARTS),
      ...f.parts,
      ...parts.slice(PRELUDE_PARTS),
      `return { ${f.members}, ${members} };`,
    ].join('\n\n');
  };

  const made = new Function([...parts, `return { ${members} };`].join('\n\n'))() as {
    outputs: HotFunction;
    outputsAtInstant: CompiledModel['outputsAtInstant'];
    initial: CompiledModel['initial'];
    apply: CompiledEvent['apply'][];
    rate: (HotFunction | null)[];
    scalar: ScalarFunction[];
  };
  const deps = eventDependencies(system, stateNames, stateSlot, watchInfo, watchExprs, rateExprs);
  const { watchStates } = deps;
  // Constraints of held functions, compiled only when a run needs one (zeno = continue).
  const constraints = new Map<number, ConstraintFunctions | null>();
  const buildConstraint = constraintBuilder(system, stateNames, rateExprs, deps.namedExpr, fn);
  const events = compiledEvents(system, made, scheduleIndex, eventMeta, deps);

  return {
    system,
    stateNames,
    discreteNames,
    paramNames,
    nStates: stateNames.length,
    nDiscrete: discreteNames.length,
    nSwitch: system.switching.length,
    get rhs() {
      return flow.rhs();
    },
    get watch() {
      return flow.arrays().watch;
    },
    get watchLocked() {
      return flow.arrays().watchLocked;
    },
    get watchRate() {
      return flow.arrays().watchRate;
    },
    get watchBound() {
      return flow.arrays().watchBound;
    },
    get rateBound() {
      return flow.arrays().rateBound;
    },
    get watchOne() {
      return flow.families().watchOne;
    },
    get rateOne() {
      return flow.families().rateOne;
    },
    get boundOne() {
      return flow.families().boundOne;
    },
    get sizeOne() {
      return flow.families().sizeOne;
    },
    get rateBoundOne() {
      return flow.families().rateBoundOne;
    },
    watchStates,
    watchInfo,
    events,
    switching: system.switching,
    outputNames: system.outputs.map((o) => o.name),
    outputs: made.outputs,
    outputsAtInstant: made.outputsAtInstant,
    initial: made.initial,
    boundary: system.boundaryConditions.map((bc, i) => ({
      label: bc.label,
      variable: bc.variable,
      value: made.scalar[bcIndex[i].value],
      at: made.scalar[bcIndex[i].at],
      state: made.scalar[bcIndex[i].state],
    })),
    constraintOf: (k) => {
      if (!constraints.has(k)) constraints.set(k, buildConstraint(k));
      return constraints.get(k)!;
    },
    parameters: (overrides) => parameterValues(system, overrides),
    parametersExpr: (e, p) => {
      // (each name's slot once per model: a run's range is evaluated at every run of a sweep)
      paramSlot ??= new Map(system.parameters.map((q, i) => [q.name, i]));
      const slots = paramSlot;
      return evaluate(e, (k) => {
        const i = slots.get(k);
        return i === undefined ? undefined : p[i];
      });
    },
    jacobian: () => (jacobian ??= compileJacobian(system, stateNames, em)),
    closedForm: () => (closedForm ??= compileClosedForm(system, structureOf(system), em)),
    // a getter, so that compiling a model does not differentiate it: only printing does
    get source() {
      const st = structureOf(system);
      const closed = st.closedForm ? `\n\n${closedFormHeader(system, st)}\n\n${this.closedForm().source}` : '';
      return `${source()}\n\n// Jacobian (compiled on first use by the implicit methods)\n\n${this.jacobian().source}${closed}`;
    },
  };
}

/** The compiled events: their functions from the generated source, with what each reads, writes and moves. */
function compiledEvents(
  system: FirstOrderSystem,
  made: { apply: CompiledEvent['apply'][]; rate: (HotFunction | null)[]; scalar: ScalarFunction[] },
  scheduleIndex: ReturnType<typeof emitValues>['scheduleIndex'],
  eventMeta: ReturnType<typeof emitEventActions>,
  deps: ReturnType<typeof eventDependencies>,
): CompiledEvent[] {
  const { watchOfEvent, moves, touches, eventReads, writtenSlots, ordered } = deps;
  return system.events.map((ev, i) => {
    const si = scheduleIndex[i];
    let schedule: CompiledSchedule | null = null;
    if (si) {
      const f = (k: number) => made.scalar[k];
      schedule =
        si.kind === 'roots'
          ? {
              kind: 'roots',
              u: f(si.u!),
              uBound: f(si.uBound!),
              dudt: f(si.dudt!),
              dudtBound: f(si.dudtBound!),
              d2udt: f(si.d2udt!),
              d3udt: f(si.d3udt!),
              exactRoot: si.exactRoot === null ? null : f(si.exactRoot!),
              candidates: si.candidates!.map(f),
            }
          : si.kind === 'at'
            ? { kind: 'at', times: si.times!.map(f) }
            : si.kind === 'delay'
              ? { kind: 'delay', after: si.after!, delay: f(si.delay!) }
              : { kind: 'every', period: f(si.period!), from: si.from === null ? null : f(si.from!) };
    }
    const meta = eventMeta[i];
    return {
      index: i,
      name: ev.name,
      kind: ev.kind,
      source: ev.source,
      fromDelta: ev.fromDelta,
      watchIndex: watchOfEvent.get(i) ?? -1,
      direction: ev.direction,
      apply: made.apply[i],
      written: Int32Array.from(meta.written),
      marcus: meta.marcusTargets ? { targets: Int32Array.from(meta.marcusTargets), rate: made.rate[i]! } : null,
      stops: meta.stops,
      schedule,
      locate: ev.locate ?? null,
      changes: meta.changes,
      moves: moves[i],
      touches: touches[i],
      reads: eventReads[i],
      writes: orderedOnly(writtenSlots[i], ordered),
    };
  });
}

/** The names of `names` that are in `ordered`, in their order. */
function orderedOnly(names: ReadonlySet<string>, ordered: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const k of names) if (ordered.has(k)) out.add(k);
  return out;
}

/** Parameter values in declaration order; each may use the ones before it. Set-up only. */
export function parameterValues(system: FirstOrderSystem, overrides?: ReadonlyMap<string, number>): Float64Array {
  const values = new Map<string, number>();
  const out = new Float64Array(system.parameters.length);
  system.parameters.forEach((p, i) => {
    const v = overrides?.has(p.name) ? overrides.get(p.name)! : evaluate(p.value, (k) => values.get(k));
    values.set(p.name, v);
    out[i] = v;
  });
  return out;
}

/** parts listed by name in the closed forms' header at most; the rest are counted */
const HEADER_PARTS = 8;

/**
 * The header of the closed forms in the generated source: which parts each array advances. It
 * said "every part is a polynomial in the independent variable" also where linear blocks are
 * advanced by exp(A h) (matrix[k]), which the source then showed without a word.
 */
function closedFormHeader(system: FirstOrderSystem, st: SystemStructure): string {
  // (slots, not names: the generated source holds no text of the model, tests/transform.test.ts)
  const names = (states: readonly number[]) => states.map((i) => `y[${i}]`).join(', ');
  const listed = (what: string, parts: string[]) =>
    parts.length === 0
      ? []
      : [
          `// ${what}:`,
          ...parts.slice(0, HEADER_PARTS).map((p, k) => `//   [${k}] ${p}`),
          ...(parts.length > HEADER_PARTS ? [`//   ... and ${parts.length - HEADER_PARTS} more`] : []),
        ];
  const polynomial = st.groups.filter((g) => g.degree >= 0);
  const linear = st.groups.filter((g) => g.linear !== null);
  const coefficients = system.events.flatMap((ev, i) =>
    ev.kind === 'state' && ev.condition && st.events[i].degree >= 0 && st.events[i].taylor !== null
      ? [`event ${i}: degree ${st.events[i].degree}`]
      : [],
  );
  const gradients = system.events.flatMap((ev, i) =>
    st.events[i].linear ? [`event ${i}: c and the constant of its function, c·(the block's states) + constant`] : [],
  );
  return [
    '// Closed forms of the analytic path (every part in closed form; h is the time advanced from t)',
    ...listed(
      'advance[k]: a clock group of polynomials, by their Taylor coefficients in h',
      polynomial.map((g) => `${names(g.states)}: degree ${g.degree}`),
    ),
    ...listed(
      "matrix[k]: a linear block's A and b, y' = A y + b, advanced by exp(A h)",
      linear.map((g) => names(g.linear!.states)),
    ),
    ...listed(
      "coefficients[k]: a state event's function, a polynomial in h (its coefficients and their rounding)",
      coefficients,
    ),
    ...listed("gradient[k]: a state event's function affine in a linear block's states", gradients),
  ].join('\n');
}
