/**
 * The worker thread of `sweep` and `montecarlo` (loaded by tinypool from dist/sweep-worker.js).
 *
 * A worker gets one task per batch: the model as its source text, and the batch's shared
 * arrays. It compiles the model once (cached by file and text, with one Simulator and its
 * work arrays, for every later batch in the same worker), then claims contiguous chunks of
 * runs until none are left, writing the results into the shared arrays: no message per
 * run or per chunk, which would cost more than a run of a small model.
 */
import { compileModel } from '../codegen/stages.js';
// workers compile as the main thread does: with exact roots where a delta argument has them
import '../transform/exact-roots.js';
import { BatchInputError, parseReport, runNextChunk, type ReportExpr, type SharedBatch } from './index.js';
import { SimulationInputError, type SimulateOptions } from '../driver/index.js';
import { Simulator } from '../analytic/index.js';

export interface ChunkTask {
  file: string;
  source: string;
  /** the --report text (parsed here: an AST does not need to cross threads) */
  report: string;
  options: SimulateOptions;
  names: string[];
  batch: SharedBatch;
  /**
   * this worker's state at [slot]: 1 once it has its task (the main thread stops yielding to
   * hand out tasks when every worker has one), 2 once it has claimed a chunk (the main thread
   * then waits for its reply, which carries the messages of its runs)
   */
  slots: Int32Array;
  slot: number;
}

/**
 * What a worker gives back: the messages of its runs by index. Input problems (which the
 * main thread checks first, so only a model file changed meanwhile could cause them) come
 * back as a message, because an error's class does not survive the trip between threads.
 */
export type ChunkReply = { ok: true; messages: [number, string][] } | { ok: false; message: string };

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
    const messages = new Map<number, string>();
    const claim = () => Atomics.store(task.slots, task.slot, 2);
    while (runNextChunk(c.simulator, report, task.options, task.names, task.batch, messages, claim) > 0) {
      /* next chunk */
    }
    return { ok: true, messages: [...messages] };
  } catch (err) {
    // Stop the other threads: the batch cannot complete.
    Atomics.store(task.batch.counters, 0, 1 << 30);
    // (runs fail one by one in runChunk: what arrives here stops the batch, such as a model
    // file changed since the main thread checked it; an error's class does not cross threads)
    if (err instanceof BatchInputError || err instanceof SimulationInputError || err instanceof Error)
      return { ok: false, message: err.message };
    return { ok: false, message: String(err) };
  }
}
