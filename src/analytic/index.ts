/**
 * The analytic path's public face: the Simulator that chooses between it and the stepper
 * (simulator.ts); the engine, the calendar and the roots stay inside the folder.
 */
export { Simulator, simulateCompiled } from './simulator.js';
