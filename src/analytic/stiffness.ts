/**
 * Whether a run's linear event functions can be scanned in reasonable time (issue 24). Along a
 * block that is no pure rotation, a function's crossings are found on windows of width about
 * 1/(2||D A D⁻¹||) (codegen/linear-event.ts): a stiff block (a fast decay beside a slow input,
 * y1' = -1e8 (y1 - y2)) needs ||D A D⁻¹|| times the range of them, where a stiff integrator takes
 * a few hundred steps. Such a run goes to the stepper under `auto`; `method analytic` refuses
 * it with this reason. Judged with the constants at the start (events may change them later;
 * the scan's budget and maxSteps bound what follows).
 */
import type { CompiledModel } from '../codegen/compile.js';

/** Windows a linear event's scan may need over the whole range before the stepper is the better choice. */
const MAX_WINDOWS = 1e5;

/** Why the linear events of m cannot be scanned over span with the constants p, d; null when they can. */
export function scanTooLong(m: CompiledModel, p: Float64Array, d: Float64Array, span: number): string | null {
  const linear = m.closedForm().linear;
  for (let k = 0; k < linear.length; k++) {
    const f = linear[k];
    if (!f) continue;
    const block = f.block;
    block.update(p, d);
    const windows = 2 * block.normBalanced * span;
    if (block.rotationFrequency() === 0 && windows > MAX_WINDOWS)
      return `the function of event ${m.events[k].name} moves on a time scale of ${(1 / block.normBalanced).toPrecision(3)} (a stiff linear block), ${windows.toPrecision(3)} windows over the range: the stepper integrates it (use method auto)`;
  }
  return null;
}
