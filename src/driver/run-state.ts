/**
 * What one stepper run carries besides the workspace (RunState), and the parts of its start
 * and end that need nothing of the Simulator: the parameter values and initial state (with
 * `init`), the empty result record, the states kept at probe times, the stats, a failure.
 */
import type { StopQueue } from './stop-queue.js';
import type { RunSettings } from './settings.js';
import type { Stepper } from '../integrators/stepper.js';
import type { LocateMode, SimulationResult } from './types.js';
import type { Recorder } from './recorder.js';
import { sharedRhs, type Workspace } from './workspace.js';
import type { CompiledModel } from '../codegen/compile.js';

/** What one run carries besides the workspace: settings, stop queue, counters. */
export interface RunState {
  readonly stepper: Stepper;
  readonly result: SimulationResult;
  readonly locate: LocateMode;
  readonly maxEvents: number;
  readonly maxSteps: number;
  /** scheduled events in the order of integration, and the next one due */
  readonly queue: StopQueue;
  /** probe times in the order of integration, the next one, and the states kept there */
  readonly probes: number[];
  pi: number;
  readonly probeOut: NonNullable<SimulationResult['probes']>;
  eventCount: number;
  readonly t0: number;
  readonly tEnd: number;
  /** the absolute time of ws.y */
  t: number;
  /** the stepper has landed on tEnd and what is due there has been done */
  ended: boolean;
  readonly progress: ((t: number) => void) | undefined;
}

/**
 * The run's parameter values (`set` over the model's) and its initial state in ws.y, ws.d,
 * with `init` over the model's initial values; the shared right-hand side reads them.
 */
export function startValues(ws: Workspace, settings: RunSettings, set: RunSettings['set']): Float64Array {
  const m = ws.model,
    sys = m.system;
  const p = m.parameters(set);
  ws.p = p;
  const { y, d, sw } = ws;
  const ctx = sharedRhs(m).ctx;
  ctx.p = p;
  ctx.d = d;
  ctx.sw = sw;
  y.fill(0);
  m.initial(p, y, d);
  // (settings.ts checked that each is a state or a discrete variable)
  for (const [key, value] of settings.init) {
    const state = sys.states.find((s) => s.variable === key);
    if (state) y[m.stateNames.indexOf(state.name)] = value;
    else d[m.discreteNames.indexOf(key)] = value;
  }
  return p;
}

/** A run's result before its first row: status ok, no rows or events yet. */
export function emptyResult(m: CompiledModel, warnings: SimulationResult['warnings']): SimulationResult {
  const sys = m.system;
  return {
    model: sys.model,
    independent: sys.independent,
    status: 'ok',
    message: null,
    columns: [sys.independent, ...m.outputNames],
    rows: [],
    events: [],
    final: {},
    stats: { steps: 0, rejected: 0, rhsEvaluations: 0, events: 0 },
    warnings,
  };
}

/** Keeps the state (ws.y, ws.d) for the probes at t. */
export function takeProbes(rs: RunState, ws: Workspace, t: number): void {
  while (rs.pi < rs.probes.length && rs.probes[rs.pi] === t) {
    rs.probeOut.push({ t, y: ws.y.slice(0, ws.model.nStates), d: ws.d.slice() });
    rs.pi++;
  }
}

/** The stepper's counters and the run's events into the result's stats. */
export function finishStats(rs: RunState): void {
  const st = rs.stepper.stats;
  rs.result.stats = {
    steps: st.steps,
    rejected: st.rejected,
    rhsEvaluations: st.rhsEvaluations,
    events: rs.eventCount,
  };
  // CLI.md: stats.method names what integrated the run; auto reports the method in use
  rs.result.stats.method = st.method ?? rs.stepper.method;
  if (st.switches !== undefined) rs.result.stats.switches = st.switches;
  if (st.methodReason !== undefined) rs.result.stats.methodReason = st.methodReason;
  // the implicit methods' costs (rodas, radau5; auto once it used one)
  if (st.jacobians !== undefined) rs.result.stats.jacobians = st.jacobians;
  if (st.factorizations !== undefined) rs.result.stats.factorizations = st.factorizations;
  if (st.newtonIterations !== undefined) rs.result.stats.newtonIterations = st.newtonIterations;
}

/** Marks a failed run: keeps what was computed and adds the state (t, y, d) where it failed. */
export function failRun(
  ws: Workspace,
  recorder: Recorder,
  result: SimulationResult,
  message: string,
  t: number,
  y: Float64Array,
  d: Float64Array,
): SimulationResult {
  result.status = 'failed';
  result.message = message;
  recorder.endRow(t, y, d);
  ws.model.outputs(t, y, ws.p, d, ws.sw, ws.outPost);
  result.final = recorder.values(t, ws.outPost);
  return result;
}

/** The scheduled events due at `at`, taken off the queue into `due` (emptied first), in queue order. */
export function takeDue(rs: RunState, at: number, due: number[]): number[] {
  due.length = 0;
  rs.queue.takeDue(at, due);
  return due;
}
