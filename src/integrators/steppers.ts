import { AutoStepper } from './auto.js';
import { Dop853Stepper } from './dop853.js';
import { Dopri5Stepper } from './dopri5.js';
import { EulerStepper } from './euler.js';
import { Radau5Stepper } from './radau5.js';
import { RodasStepper } from './rodas.js';
import { Rk4Stepper } from './rk4.js';
import type { MethodName, Rhs, Stepper, StepperOptions } from './stepper.js';

import { METHODS } from './stepper.js';

export { METHODS };

/**
 * A stepper of the given method for states of dimension n (all work arrays are allocated
 * here, once). Options: `rtol`, `atol`, `hMax` for the adaptive methods; `hFixed` (or a
 * finite `hMax`) for rk4, whose step is min(hFixed, hMax). Throws an `Error` for an unknown
 * method and a `RangeError` for invalid options. Call `reset(t, y)` before the first step.
 * rodas, radau5 and auto use `options.jacobian` when given (finite differences otherwise);
 * auto makes its implicit stepper, and asks for the Jacobian, only when the problem first
 * looks stiff.
 */
export function createStepper(method: MethodName, n: number, f: Rhs, options: StepperOptions): Stepper {
  switch (method) {
    case 'euler':
      return new EulerStepper(n, f, options);
    case 'rk4':
      return new Rk4Stepper(n, f, options);
    case 'dopri5':
      return new Dopri5Stepper(n, f, options);
    case 'dop853':
      return new Dop853Stepper(n, f, options);
    case 'rodas':
      return new RodasStepper(n, f, options);
    case 'radau5':
      return new Radau5Stepper(n, f, options);
    case 'auto':
      return new AutoStepper(n, f, options);
    default: {
      const name: string = method;
      throw new Error(`unknown integration method '${name}'; expected one of ${METHODS.join(', ')}`);
    }
  }
}
