/**
 * The simulator's public face: the driver and its types live in `simulate/`, one job per file
 * (simulator: the step loop; crossings: finding and re-arming watched functions; firing: the
 * actions of an instant; switching: locked relations and sliding; recorder: rows and ledger;
 * diagnosis: why a failing run cannot go on, in the user's words;
 * time-origin: the absolute time in two doubles; workspace: the shared typed arrays).
 */
export { Simulator, simulateCompiled } from './simulator.js';
export { DISCARD_SINK, SimulationInputError } from './types.js';
export type {
  LocateMode,
  RunStatus,
  SimulateOptions,
  SimulationSink,
  ValueRecord,
  EventRecord,
  RunStats,
  SimulationResult,
  DenseSolution,
  DenseSide,
} from './types.js';
