/**
 * After an instant's actions: a right-hand side they made non-finite (`k := 0` under
 * `x' = 1/k`) is found at that instant, where the stepper finds it, and not at the end of the
 * range, where the closed form has carried the Infinity. Only the groups whose motion the
 * fired events' actions changed are judged (EventPlan.changes: their states, or a step or
 * discrete variable their equations read), and only where one of their right-hand sides can
 * turn non-finite from finite values (EventPlan.finiteRisk: a division, a power, a function):
 * a sum of products is finite while what it reads is. An instant of a counter, a bounce or a
 * collision costs nothing; one that may divide by what it set costs one call of the
 * right-hand side.
 */
import type { CompiledModel } from '../codegen/compile.js';
import type { Workspace } from '../driver/workspace.js';

export class FiniteAfter {
  private readonly dydt: Float64Array;

  constructor(
    private readonly model: CompiledModel,
    /** per clock group, its state slots */
    private readonly groupStates: readonly Int32Array[],
    /** per event, whether a right-hand side it changes can turn non-finite (EventPlan.finiteRisk) */
    private readonly risky: (k: number) => boolean,
  ) {
    this.dydt = new Float64Array(model.nStates);
  }

  /** Whether every changed state's right-hand side is finite at t (changes: per fired event, its groups). */
  check(t: number, ws: Workspace, fired: readonly number[], changes: (k: number) => Int32Array): boolean {
    let any = false;
    for (let j = 0; j < fired.length && !any; j++) any = this.risky(fired[j]);
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
