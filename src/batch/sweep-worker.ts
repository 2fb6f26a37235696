/**
 * The worker thread of `sweep` and `montecarlo` (loaded by tinypool from dist/sweep-worker.js).
 *
 * A worker gets one task per batch: the model as its source text, and the batch's shared ring
 * (ring.ts). It compiles the model once (cached by file and text, with one Simulator and its
 * work arrays, for every later batch in the same worker), then claims published chunks of
 * runs until none are left, writing the results into the ring: no message per run or per
 * chunk, which would cost more than a run of a small model. When no chunk is published yet
 * (the main thread has not consumed the oldest), it sleeps until one is.
 */
import { compileModel } from '../codegen/stages.js';
// workers compile as the main thread does: with exact roots where a delta argument has them
import '../transform/exact-roots.js';
import type { SimulateOptions } from '../driver/index.js';
import type { BatchOptions } from './run.js';
import { Simulator } from '../analytic/index.js';
import type { InterruptFlag } from './interrupt.js';
import { parseReport, type ReportExpr } from './report.js';
import { claimChunk, PUBLISHED, runRingChunk, type SharedRing } from './ring.js';

export interface ChunkTask {
  file: string;
  source: string;
  /** the --report text (parsed here: an AST does not need to cross threads) */
  report: string;
  options: BatchOptions;
  names: string[];
  ring: SharedRing;
  /** this worker's state at [slot]: 1 once it has its task (the main thread stops yielding to hand out tasks when every worker has one) */
  slots: Int32Array;
  slot: number;
  interrupt?: InterruptFlag;
}

/**
 * What a worker gives back: nothing but whether it could work. Runs fail one by one inside
 * the ring; what comes back here stops the batch (a model file changed since the main thread
 * checked it), as a message, because an error's class does not survive the trip between threads.
 */
export type ChunkReply = { ok: true } | { ok: false; message: string };

interface Compiled {
  simulator: Simulator;
  reports: Map<string, ReportExpr[]>;
}

const cache = new Map<string, Compiled>();

/** (`set`: the batch's --set, which may give a structural parameter, N, its value) */
function compiled(file: string, source: string, set: SimulateOptions['set']): Compiled {
  const key = `${file}\u0000${source}\u0000${JSON.stringify(set instanceof Map ? [...set] : (set ?? null))}`;
  let c = cache.get(key);
  if (!c) {
    c = { simulator: new Simulator(compileModel(source, file, { set })), reports: new Map() };
    cache.set(key, c);
  }
  return c;
}

export default function runTask(task: ChunkTask): ChunkReply {
  Atomics.store(task.slots, task.slot, 1);
  try {
    const c = compiled(task.file, task.source, task.options.set);
    let report = c.reports.get(task.report);
    if (!report) {
      report = parseReport(task.report);
      c.reports.set(task.report, report);
    }
    const ring = task.ring;
    for (;;) {
      const published = Atomics.load(ring.counters, PUBLISHED);
      const chunk = claimChunk(ring);
      if (chunk === -2) break;
      // none published yet: sleep until the main thread publishes more (or stops the batch)
      if (chunk === -1) Atomics.wait(ring.counters, PUBLISHED, published, 50);
      else runRingChunk(ring, chunk, c.simulator, report, task.options, task.names, task.interrupt);
    }
    return { ok: true };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
