/**
 * A simulation does not impose a model's boundary conditions: its `unknown`s act as
 * parameters with their guesses as values (the model language's rule), so `simulate`, a
 * sweep or a Monte Carlo run of a boundary value problem reports a trajectory that misses the
 * conditions, with status ok. The rope of examples/rope.delta swept over its load position
 * gave y(10) = 20 where the model says y(10) = 8, and nothing said why. This is the warning
 * that says it; shooting sets every unknown, so its runs never carry it.
 */
import type { CompiledModel } from '../codegen/compile.js';

/** How many conditions the warning lists by their text before it counts the rest. */
const LISTED = 3;

/**
 * The warning for a run of `model` whose unknowns are not all given by the caller (`set`), or
 * null: the model has no boundary conditions, or every unknown has a value from the caller
 * (a run of values found by shooting, or set by hand: the caller chose them).
 */
export function unimposedConditions(model: CompiledModel, set: ReadonlyMap<string, number>): string | null {
  const sys = model.system;
  const bcs = sys.boundaryConditions;
  if (bcs.length === 0) return null;
  const guessed = sys.parameters.filter((q) => q.unknown && !set.has(q.name));
  const unknowns = sys.parameters.filter((q) => q.unknown);
  if (unknowns.length > 0 && guessed.length === 0) return null;
  const shown = bcs.slice(0, LISTED).map((bc) => `${bc.label} (line ${bc.span.line})`);
  if (bcs.length > LISTED) shown.push(`${bcs.length - LISTED} more`);
  const conditions = `${bcs.length === 1 ? 'the boundary condition' : 'the boundary conditions'} ${shown.join(', ')}`;
  if (guessed.length === 0)
    return `${conditions} ${bcs.length === 1 ? 'is' : 'are'} not imposed by a simulation, and the model has no unknowns for shooting to solve for: the run shows where the initial values lead`;
  const p = model.parameters(set);
  const values = guessed.map((q) => `${q.name} = ${p[model.paramNames.indexOf(q.name)]}`).join(', ');
  return `${conditions} ${bcs.length === 1 ? 'is' : 'are'} not imposed by a simulation: the unknowns keep their guesses (${values}), so the run need not meet ${bcs.length === 1 ? 'it' : 'them'}; shoot solves for the unknowns (the shoot command, sweep or montecarlo --shoot, or shoot() of the library)`;
}
