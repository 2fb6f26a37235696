/** The analytic path's own failure messages (the others are the stepper's: driver/diagnosis.ts). */
import type { CompiledModel } from '../codegen/compile.js';
import { toText } from '../expression/expr.js';

/** A crossing predicted within rounding of a double root of event k's function has come due at t. */
export function touchesZeroMessage(m: CompiledModel, k: number, t: number): string {
  const ev = m.system.events[k];
  const condition = ev.condition ? toText(ev.condition) : ev.name;
  return `precision ran out at ${m.system.independent} = ${t}: the function of event ${ev.name} (${condition}) touches zero within its own rounding there, so whether it crosses cannot be resolved in double precision; write the model so that this quantity is computed without cancellation (for bodies in a row: the gaps between them as states, in relative coordinates)`;
}

/** More instants (or resumed scans of linear events, predict.ts) than maxSteps by t. */
export function stepsMessage(m: CompiledModel, maxSteps: number, t: number): string {
  return `more than ${maxSteps} steps by ${m.system.independent} = ${t}: the analytic path takes one step per instant; raise maxSteps (--max-steps) or shorten the range`;
}
