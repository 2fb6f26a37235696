/**
 * The dense solution a run returns with `dense: true` (`result.sol`): a function of the
 * independent variable over the run's range, over a store that knows the states (the
 * stepper's, dense-steps.ts; the analytic path's, analytic/dense-clocks.ts). Its arguments
 * are checked here, once per call; the stores assume them valid.
 */
import type { CompiledModel } from '../codegen/compile.js';
import type { DenseBudget } from './dense-store.js';
import { SimulationInputError, type DenseSide, type DenseSolution, type ValueRecord } from './types.js';

/** What a dense solution reads its values from. */
export interface DenseSource {
  /** where the run started */
  readonly from: number;
  /** where the covered range ends (the run's last time, or where the budget ran out) */
  end(): number;
  /**
   * Writes the output values at t (within the range) into out (length: the model's outputs);
   * at a jump, the limit from below when `left`, from above otherwise.
   */
  outputsAt(t: number, left: boolean, out: Float64Array): void;
  readonly budget: DenseBudget;
}

/** The callable `sol` over a store. */
export function denseSolution(model: CompiledModel, source: DenseSource): DenseSolution {
  const independent = model.system.independent;
  const names = model.outputNames;
  const columns = Object.freeze([independent, ...names]);
  // (a model may call a variable __proto__: then records need no prototype)
  const plain = !columns.includes('__proto__');
  const out = new Float64Array(names.length);

  const check = (t: unknown, side: unknown, what: string): boolean => {
    if (side !== undefined && side !== 'left' && side !== 'right')
      throw new SimulationInputError(
        `${what}: the side must be 'left' (the limit from below, before a jump) or 'right' (from above, the default), got ${typeof side === 'string' ? `'${side}'` : String(side)}`,
      );
    const from = source.from,
      to = source.end();
    if (typeof t !== 'number' || !(t >= Math.min(from, to) && t <= Math.max(from, to)))
      throw new SimulationInputError(
        `${what}: ${independent} must be a number from ${from} to ${to} (the range of the solution), got ${typeof t === 'number' ? t : typeof t}`,
      );
    return side === 'left';
  };

  const sol = ((t: number, side?: DenseSide): ValueRecord => {
    source.outputsAt(t, check(t, side, `sol(${String(t)})`), out);
    const v: ValueRecord = plain ? {} : (Object.create(null) as ValueRecord);
    v[independent] = t;
    for (let i = 0; i < names.length; i++) v[names[i]] = out[i];
    return v;
  }) as DenseSolution;
  const into = (t: number, row: Float64Array, side?: DenseSide): Float64Array => {
    const left = check(t, side, `sol.into(${String(t)})`);
    if (!(row instanceof Float64Array) || row.length < columns.length)
      throw new SimulationInputError(
        `sol.into: the row must be a Float64Array of at least ${columns.length} values (${columns.join(', ')})`,
      );
    source.outputsAt(t, left, out);
    row[0] = t;
    row.set(out, 1);
    return row;
  };
  Object.defineProperties(sol, {
    into: { value: into },
    columns: { value: columns, enumerable: true },
    from: { value: source.from, enumerable: true },
    to: { get: () => source.end(), enumerable: true },
    bytes: { get: () => source.budget.bytes, enumerable: true },
  });
  return sol;
}
