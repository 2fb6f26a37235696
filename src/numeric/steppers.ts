import { Dop853Stepper } from './dop853.js';
import { Dopri5Stepper } from './dopri5.js';
import { Rk4Stepper } from './rk4.js';
import type { MethodName, Rhs, Stepper, StepperOptions } from './stepper.js';

/** the integration methods, in order of increasing order */
export const METHODS: readonly MethodName[] = Object.freeze(['rk4', 'dopri5', 'dop853'] as const);

/**
 * A stepper of the given method for states of dimension n (all work arrays are allocated
 * here, once). Options: `rtol`, `atol`, `hMax` for the adaptive methods; `hFixed` (or a
 * finite `hMax`) for rk4, whose step is min(hFixed, hMax). Throws an `Error` for an unknown
 * method and a `RangeError` for invalid options. Call `reset(t, y)` before the first step.
 */
export function createStepper(method: MethodName, n: number, f: Rhs, options: StepperOptions): Stepper {
  switch (method) {
    case 'rk4':
      return new Rk4Stepper(n, f, options);
    case 'dopri5':
      return new Dopri5Stepper(n, f, options);
    case 'dop853':
      return new Dop853Stepper(n, f, options);
    default: {
      const name: string = method;
      throw new Error(`unknown integration method '${name}'; expected one of ${METHODS.join(', ')}`);
    }
  }
}
