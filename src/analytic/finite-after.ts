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
 *
 * First, what the actions wrote must be finite itself (`m := sqrt(m - 1)` at m = 0 is NaN),
 * as the stepper requires after every instant: a NaN that only an event function or a later
 * action reads never reaches a right-hand side, and the run went on to end ok, the events
 * whose functions read it never firing. Judged on the slots the fired events write, at
 * O(written) per instant.
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

  /**
   * Whether every value the fired events' actions wrote is finite: per event, the state slots
   * it writes (its jumps folded in, step-fold.ts) and its step and discrete slots.
   */
  written(ws: Workspace, fired: readonly number[], slots: (k: number) => { y: Int32Array; d: Int32Array }): boolean {
    for (let j = 0; j < fired.length; j++) {
      const { y, d } = slots(fired[j]);
      for (let a = 0; a < y.length; a++) if (!Number.isFinite(ws.y[y[a]])) return false;
      for (let a = 0; a < d.length; a++) if (!Number.isFinite(ws.d[d[a]])) return false;
    }
    return true;
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
