/**
 * What one run of the analytic path carries besides the engine's arrays: its range and
 * limits, the result being written, probes and the current time in two doubles.
 */
import type { SimulationResult } from '../driver/types.js';

/** The range and limits of a run. */
export interface Limits {
  t0: number;
  tEnd: number;
  maxSteps: number;
  maxEvents: number;
  maxRows: number;
  outputStep: number;
}

/** One run's state. */
export interface Run {
  readonly s: Limits;
  readonly result: SimulationResult;
  readonly probes: number[];
  pi: number;
  readonly probeOut: NonNullable<SimulationResult['probes']>;
  readonly gridRows: boolean;
  readonly needOutputs: boolean;
  instants: number;
  eventCount: number;
  /** the current time: hi + lo */
  hi: number;
  lo: number;
  /** crossings predicted past this time are looked at as the end's (range-ends.ts) */
  readonly endGuard: number;
  readonly progress: ((t: number) => void) | undefined;
}
