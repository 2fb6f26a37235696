/**
 * Accumulators: a variable that every assignment of the model only adds to (`hits := hits + 1`,
 * `lost := lost - v'`). Events at one instant that each add to it all count, and the order of
 * two such additions does not matter (MODEL-LANGUAGE: actions).
 */
import type { Expr } from '../expression/ast.js';
import { references } from '../expression/expr.js';
import type { FirstOrderSystem } from '../transform/system.js';

/** The targets that every assignment of the model writes by adding to them (see addedTo). */
export function accumulatorsOf(system: FirstOrderSystem): Set<string> {
  const adding = new Set<string>(),
    other = new Set<string>();
  for (const ev of system.events)
    for (const a of ev.actions) {
      if (a.kind !== 'assign') continue;
      if (addedTo(a.target, a.value)) adding.add(a.target);
      else other.add(a.target);
    }
  for (const t of other) adding.delete(t);
  return adding;
}

/**
 * What an assignment `v := v + term` (or `term + v`, or `v - term`) adds to its own target,
 * and how; null for any other assignment. The term must not read v again.
 */
export function addedTo(target: string, value: Expr): { term: Expr; op: '+=' | '-=' } | null {
  if (value.kind !== 'binary' || (value.op !== '+' && value.op !== '-')) return null;
  const isTarget = (e: Expr) => e.kind === 'name' && e.name === target;
  let term: Expr | null = null;
  if (isTarget(value.left)) term = value.right;
  else if (value.op === '+' && isTarget(value.right)) term = value.left;
  if (term === null || references(term).has(target)) return null;
  return { term, op: value.op === '-' && term === value.right ? '-=' : '+=' };
}
