/**
 * The parameter values and the initial state of an analytic run, from its resolved settings
 * (driver/settings.ts checked every name). The parameters of a sweep (a value no other
 * parameter is defined from) are written over the defaults without evaluating the model's
 * expressions again: a C12 sweep is 200 runs of a few microseconds each, and set-up must not
 * dominate them.
 */
import type { CompiledModel } from '../codegen/compile.js';
import { references } from '../expression/expr.js';

/** Per model: the default parameter values, the parameters another one's value reads, each one's slot. */
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
 */
export function parameterValues(m: CompiledModel, set: ReadonlyMap<string, number>, p: Float64Array): Float64Array {
  const defaults = defaultsOf(m);
  p.set(defaults.values);
  if (set.size === 0) return p;
  let plain = true;
  for (const [k, v] of set) {
    if (defaults.readByOthers.has(k)) plain = false;
    p[defaults.index.get(k)!] = v;
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
    if (state) y[m.stateNames.indexOf(state.name)] = value;
    else d[m.discreteNames.indexOf(key)] = value;
  }
}
