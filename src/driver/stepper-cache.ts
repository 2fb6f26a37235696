/**
 * The stepper of a Simulator, made once and reused while a run's settings stay the same: its
 * work arrays are allocated when it is made (a sweep of 2000 runs makes one), and an implicit
 * method's Jacobian is compiled only if it is ever needed (auto: when a run first looks stiff).
 */
import { createStepper } from '../integrators/steppers.js';
import type { MethodName, Stepper } from '../integrators/stepper.js';
import { modelJacobian } from './model-jacobian.js';
import { sharedRhs, type Workspace } from './workspace.js';

export class StepperCache {
  private stepper: Stepper | null = null;
  private key = '';

  constructor(private readonly ws: Workspace) {}

  /** The stepper for these settings. */
  get(method: MethodName, rtol: number, atol: number, hMax: number, hFixed: number, denseOutput: boolean): Stepper {
    const key = `${method}|${rtol}|${atol}|${hMax}|${hFixed}|${denseOutput}`;
    if (this.stepper && this.key === key) return this.stepper;
    const m = this.ws.model,
      n = this.ws.y.length;
    const jacobian = () => modelJacobian(m, n);
    this.stepper = createStepper(method, n, sharedRhs(m).f, { rtol, atol, hMax, hFixed, jacobian, denseOutput });
    this.key = key;
    return this.stepper;
  }
}
