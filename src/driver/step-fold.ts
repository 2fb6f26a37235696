/**
 * The jumps of a delta folded back into the state they belong to, at each restart.
 *
 * The u-plus-step form integrates u = y − S, with S the sum of the jumps so far: a dose into
 * a compartment that eliminates it, every hour for 1000 hours, leaves S = 1000 beside y = 0.17
 * and u = −999.8. The steppers measure their error relative to the state they integrate, u,
 * so at rtol 1e-6 they allowed 1e-3 of error in y (A = 0.1754 for 0.1746 under the default
 * method, A = −446 for 0.17 at rtol 1e-3, status ok). After an instant u := u + S, S := 0:
 * the right-hand side reads y as the sum u + S, whose value this is to the bit (u + 0 is u),
 * and the steps that follow are held to rtol of y itself, as if the user had written the
 * jump as an action on y. The analytic path folds the same way, only the slots an instant's
 * events wrote (its closed forms had y to ulp(S) only: A = 0.00206114 for 0.00206115 after
 * 100 doses of 1e6 that decay by e^-40 in between).
 */
import type { Workspace } from './workspace.js';

/** per step variable (d slot), the state it is added to (−1: none) */
export function stepStates(ws: Workspace): Int32Array {
  const m = ws.model;
  // (a map, not indexOf per variable: a row of 16384 spheres has 16384 of each, 0.8 s squared)
  const slot = new Map(m.stateNames.map((name, i) => [name, i]));
  return Int32Array.from(m.system.stepVariables, (sv) => slot.get(sv.state) ?? -1);
}

/** Moves every step variable's value into its state (ws.y, ws.d). */
export function foldSteps(ws: Workspace, states: Int32Array): void {
  const y = ws.y,
    d = ws.d;
  for (let k = 0; k < states.length; k++) {
    const s = states[k];
    if (s < 0 || d[k] === 0) continue;
    y[s] = y[s] + d[k];
    d[k] = 0;
  }
}

/**
 * Moves the step variables among `slots` (d slots an instant's actions wrote) into their
 * states; `bring(s)` first brings state s to the instant (the analytic path's clocks).
 */
export function foldSlots(ws: Workspace, states: Int32Array, slots: Int32Array, bring: (s: number) => void): void {
  const y = ws.y,
    d = ws.d;
  for (let i = 0; i < slots.length; i++) {
    const k = slots[i];
    if (k >= states.length) continue;
    const s = states[k];
    if (s < 0 || d[k] === 0) continue;
    bring(s);
    y[s] = y[s] + d[k];
    d[k] = 0;
  }
}
