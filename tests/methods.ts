import type { MethodName } from '../src/index.js';

/**
 * Every stepper with the settings the event tests run it at: dopri5 and radau5 at tight
 * tolerances (where event times are compared to 1e-12), the others at their defaults.
 */
export const EVERY_STEPPER: [MethodName, { rtol?: number; atol?: number }][] = [
  ['auto', {}],
  ['dopri5', { rtol: 1e-10, atol: 1e-12 }],
  ['dop853', {}],
  ['rodas', {}],
  ['radau5', { rtol: 1e-10, atol: 1e-12 }],
  ['rk4', {}],
];
