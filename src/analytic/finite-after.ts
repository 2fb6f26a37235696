/**
 * After an instant's actions: a right-hand side they made non-finite (`k := 0` under
 * `x' = 1/k`) is found at that instant, where the stepper finds it, and not at the end of the
 * range, where the closed form has carried the Infinity. Only the groups the fired events
 * touched are judged: they alone are at the instant (the others wait on their own clocks, and
 * their right-hand sides did not change).
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

  /** Whether every touched state's right-hand side is finite at t (touch: per fired event, its groups). */
  check(t: number, ws: Workspace, fired: readonly number[], touch: (k: number) => Int32Array): boolean {
    const f = this.dydt;
    this.model.rhs(t, ws.y, ws.p, ws.d, ws.sw, f);
    for (let j = 0; j < fired.length; j++) {
      const groups = touch(fired[j]);
      for (let a = 0; a < groups.length; a++) {
        const slots = this.groupStates[groups[a]];
        for (let b = 0; b < slots.length; b++) if (!Number.isFinite(f[slots[b]])) return false;
      }
    }
    return true;
  }
}
