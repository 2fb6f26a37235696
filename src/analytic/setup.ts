/**
 * The set-up of an analytic run from its resolved settings (driver/settings.ts, shared with
 * the stepper): parameter values, initial values with `init` overrides, and the range. The
 * parameters of a sweep (a value no other parameter is defined from) are written over the
 * defaults without evaluating the model's expressions again: a C12 sweep is 200 runs of a
 * few microseconds each, and set-up must not dominate them.
 */
import type { CompiledModel } from '../codegen/compile.js';
import type { Expr } from '../expression/ast.js';
import { constantValue, references } from '../expression/expr.js';
import { SimulationInputError } from '../driver/types.js';
import { missingNameMessage } from '../language/arrays.js';

/** Per model: the default parameter values, and the parameters another one's value reads. */
interface ParameterDefaults {
  values: Float64Array;
  readByOthers: Set<string>;
  index: Map<string, number>;
}
const DEFAULTS_OF = new WeakMap<CompiledModel, ParameterDefaults>();

function defaultsOf(m: CompiledModel): ParameterDefaults {
  let d = DEFAULTS_OF.get(m);
  if (!d) {
    const readByOthers = new Set<string>();
    for (const q of m.system.parameters) for (const k of references(q.value)) readByOthers.add(k);
    d = { values: m.parameters(), readByOthers, index: new Map(m.paramNames.map((n, i) => [n, i])) };
    DEFAULTS_OF.set(m, d);
  }
  return d;
}

/**
 * The parameter values of a run, into p: the defaults with the overrides written over them
 * where no other parameter is defined from an overridden one, else all evaluated anew.
 * Unknown names and a structural parameter (N of `for i in 1:N`) changed are refused.
 */
export function parameterValues(m: CompiledModel, set: ReadonlyMap<string, number>, p: Float64Array): Float64Array {
  const defaults = defaultsOf(m);
  p.set(defaults.values);
  if (set.size === 0) return p;
  let plain = true;
  for (const [k, v] of set) {
    const at = defaults.index.get(k);
    if (at === undefined)
      throw new SimulationInputError(
        missingNameMessage(k, m.paramNames, `a parameter or unknown of ${m.system.model}`, 'they are'),
      );
    if (defaults.readByOthers.has(k)) plain = false;
    if (m.system.structural?.includes(k) && v !== defaults.values[at])
      throw new SimulationInputError(
        `'${k}' sets the shape of ${m.system.model} (a range or an index uses it): this compiled model is written out for ${k} = ${defaults.values[at]}; compile the model with ${k} = ${v} (compileModel(source, file, { set: { ${k}: ${v} } }))`,
      );
    p[at] = v;
  }
  if (!plain) p.set(m.parameters(set));
  return p;
}

/** The initial state into y and d: the model's, with `init` overriding states and discrete variables by name. */
export function initialState(
  m: CompiledModel,
  p: Float64Array,
  init: ReadonlyMap<string, number>,
  y: Float64Array,
  d: Float64Array,
): void {
  const sys = m.system;
  y.fill(0);
  m.initial(p, y, d);
  for (const [key, value] of init) {
    const state = sys.states.find((s) => s.variable === key);
    if (!state) {
      const discrete = m.discreteNames.indexOf(key);
      if (discrete >= sys.stepVariables.length) {
        d[discrete] = value;
        continue;
      }
      const states = sys.states.map((s) => s.variable);
      throw new SimulationInputError(
        missingNameMessage(key, states, `a state of ${sys.model}`, 'the states are', ' in --init'),
      );
    }
    y[m.stateNames.indexOf(state.name)] = value;
  }
}

/** The range of a run: the options' ends over the model's, checked finite. */
export function runRange(
  m: CompiledModel,
  from: number | undefined,
  to: number | undefined,
  p: Float64Array,
): { t0: number; tEnd: number } {
  const sys = m.system;
  const t0 = from ?? rangeEnd(m, sys.range.from, p, 0);
  const tEnd = to ?? rangeEnd(m, sys.range.to, p, NaN);
  if (!Number.isFinite(tEnd))
    throw new SimulationInputError(
      `no end of the range: give 'independent ${sys.independent} from A to B' in the model or --to on the command line`,
    );
  if (!Number.isFinite(t0)) throw new SimulationInputError(`the start of the range is not a finite number`);
  return { t0, tEnd };
}

/** A range end: a number as written, or evaluated from the parameters. */
function rangeEnd(m: CompiledModel, e: Expr | null, p: Float64Array, otherwise: number): number {
  if (!e) return otherwise;
  const c = constantValue(e);
  return c !== null ? c : m.parametersExpr(e, p);
}
