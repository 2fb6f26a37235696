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
  /** the states a closed form is tried on (overflowing) */
  private readonly moved: Float64Array;
  /** whether the state `overflowing` last returned has a coefficient that underflowed (else one that overflowed) */
  below = false;

  constructor(
    private readonly model: CompiledModel,
    /** per clock group, its state slots */
    private readonly groupStates: readonly Int32Array[],
    /** per event, whether a right-hand side it changes can turn non-finite (EventPlan.finiteRisk) */
    private readonly risky: (k: number) => boolean,
  ) {
    this.dydt = new Float64Array(model.nStates);
    this.moved = new Float64Array(Math.max(1, model.nStates));
  }

  /**
   * A state of a changed polynomial group whose closed form the values after the actions put
   * beyond doubles, or -1. The check of the start (report/path.ts, overflowingGroup) sees only
   * the values there: an event that sets B := 1e200 under b' = 2 B t / T, T = 1e-150, makes
   * the coefficient B/T = 1e350 of t^2 where the motion stays below 1e51, and the analytic
   * path failed later, "precision ran out" within a rounding of Infinity. As there: a step of
   * Number.MIN_VALUE from each group's values (a finite coefficient times its powers stays
   * finite; an infinite one gives Infinity or NaN), where its rates are finite (a rate that is
   * not is the instant's own failure, `check`). Then, below: a coefficient that underflowed
   * (CompiledClosedForm.rangeLost; `below` tells which). Only events with
   * EventPlan.coefficientRisk ask: a coefficient that is a sum neither overflows from finite
   * terms nor loses range by underflow.
   */
  overflowing(
    t: number,
    ws: Workspace,
    fired: readonly number[],
    changes: (k: number) => Int32Array,
    risky: (k: number) => boolean,
  ): number {
    const { advance, rangeLost: guards } = this.model.closedForm();
    const moved = this.moved;
    for (let j = 0; j < fired.length; j++) {
      if (!risky(fired[j])) continue;
      const groups = changes(fired[j]);
      for (let a = 0; a < groups.length; a++) {
        const step = advance[groups[a]];
        if (step === null) continue;
        const slots = this.groupStates[groups[a]];
        // (a group's closed form reads its own states, p and d: the rest of moved is not read)
        for (let b = 0; b < slots.length; b++) moved[slots[b]] = ws.y[slots[b]];
        step(t, Number.MIN_VALUE, moved, ws.p, ws.d);
        let over = false;
        for (let b = 0; b < slots.length; b++) {
          if (Number.isFinite(moved[slots[b]])) continue;
          over = true;
          const f = this.dydt;
          this.model.rhs(t, ws.y, ws.p, ws.d, ws.sw, f);
          if (slots.every((s) => Number.isFinite(f[s]) && Number.isFinite(ws.y[s]))) {
            this.below = false;
            return slots[b];
          }
          break;
        }
        // (and below: a coefficient that underflowed, B := 1e-200 under b' = 2 B t/T with
        // T = 1e150, leaves no trace in the step; its range guard finds it, closed-form.ts.
        // Only a polynomial group has one: a linear block's (exp of a matrix, null) was called
        // where an event wrote it beside a polynomial group it scaled, a TypeError thrown out
        // of simulate(); nothing of its closed form is a coefficient that the guard bounds)
        const guard = guards[groups[a]];
        const lost = over || guard === null ? -1 : guard(t, ws.y, ws.p, ws.d);
        if (lost >= 0) {
          this.below = true;
          return slots[lost];
        }
      }
    }
    return -1;
  }

  /**
   * An event whose function's Taylor coefficients the values after the actions made lose range
   * (CompiledClosedForm.eventRangeLost), or -1: B := 1e-200 under an event x*B/T - c with
   * T = 1e200 makes its rate 1e-400, 0 in doubles, and its crossing was never found. Only the
   * events each fired event repredicts and whose coefficients are more than sums
   * (EventPlan.functionRisk) are judged: nothing for an instant of sums.
   */
  functionLost(t: number, ws: Workspace, fired: readonly number[], risk: (k: number) => Int32Array): number {
    const guards = this.model.closedForm().eventRangeLost;
    for (let j = 0; j < fired.length; j++) {
      const events = risk(fired[j]);
      for (let a = 0; a < events.length; a++) {
        const guard = guards[events[a]];
        if (guard !== null && guard(t, ws.y, ws.p, ws.d) >= 0) return events[a];
      }
    }
    return -1;
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
