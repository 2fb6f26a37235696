/**
 * After an instant's actions: a right-hand side they made non-finite (`k := 0` under
 * `x' = 1/k`) is found at that instant, where the stepper finds it, and not at the end of the
 * range, where the closed form has carried the Infinity. Only the groups whose motion the
 * fired events' actions changed are judged (EventPlan.changes: their states, or a step or
 * discrete variable their equations read): a closed form's right-hand side is a polynomial in
 * t and its states with coefficients of parameters and discrete values, finite until one of
 * those changes. An instant that changes none (a detector, a counter) costs nothing, and one
 * that does costs one call of the right-hand side.
 */
import type { CompiledModel } from '../codegen/compile.js';
import type { Workspace } from '../driver/workspace.js';

export class FiniteAfter {
  private readonly dydt: Float64Array;

  constructor(
    private readonly model: CompiledModel,
    /** per clock group, its state slots */
    private readonly groupStates: readonly Int32Array[],
  ) {
    this.dydt = new Float64Array(model.nStates);
  }

  /** Whether every changed state's right-hand side is finite at t (changes: per fired event, its groups). */
  check(t: number, ws: Workspace, fired: readonly number[], changes: (k: number) => Int32Array): boolean {
    let any = false;
    for (let j = 0; j < fired.length && !any; j++) any = changes(fired[j]).length > 0;
    if (!any) return true;
    const f = this.dydt;
    this.model.rhs(t, ws.y, ws.p, ws.d, ws.sw, f);
    for (let j = 0; j < fired.length; j++) {
      const groups = changes(fired[j]);
      for (let a = 0; a < groups.length; a++) {
        const slots = this.groupStates[groups[a]];
        for (let b = 0; b < slots.length; b++) if (!Number.isFinite(f[slots[b]])) return false;
      }
    }
    return true;
  }
}
