import type { CompiledModel } from '../codegen/compile.js';
import type { JacobianFunctions } from '../integrators/stepper.js';
import { sharedRhs } from './workspace.js';

/**
 * The compiled model's exact Jacobian as the implicit steppers want it: with the stepper's t
 * counted from the run's time origin (as the shared right-hand side does) and the run's
 * parameters, step and discrete variables and locked switches from the same context. Null for
 * a model without states (the stepper's one dummy state).
 *
 * A contact held as a constraint adds a force the symbolic Jacobian does not know: while one
 * is held, dfdy declines and the stepper falls back to finite differences.
 */
export function modelJacobian(model: CompiledModel, n: number): JacobianFunctions | null {
  if (model.nStates !== n || n === 0) return null;
  const jac = model.jacobian();
  const { ctx } = sharedRhs(model);
  const dfdt = jac.dfdt;
  return {
    dfdy: (t, y, out) => {
      if (ctx.contact !== null) return false;
      jac.jac(ctx.tHi + (ctx.tLo + t), y, ctx.p, ctx.d, ctx.sw, out);
      return true;
    },
    dfdyBand:
      jac.jacBand === null
        ? null
        : (t, y, out) => {
            if (ctx.contact !== null) return false;
            jac.jacBand!(ctx.tHi + (ctx.tLo + t), y, ctx.p, ctx.d, ctx.sw, out);
            return true;
          },
    dfdt: jac.timeDependent ? (t, y, out) => dfdt(ctx.tHi + (ctx.tLo + t), y, ctx.p, ctx.d, ctx.sw, out) : null,
    lower: jac.lower,
    upper: jac.upper,
  };
}
