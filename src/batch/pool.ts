/**
 * Running a batch on threads: this one and, when the batch is long enough to pay for them, a
 * pool of worker threads (tinypool, loading dist/sweep-worker.js), all claiming chunks of runs
 * from one bounded ring (ring.ts). This thread publishes the chunks' parameters in order and
 * hands every chunk, in the order of the runs, to a consumer that writes it out as it comes:
 * memory does not grow with the batch.
 *
 * This thread works too: it has the model compiled already and starts at once, while a worker
 * first loads the bundle and compiles (about 0.1 s), then warms up its JIT (the first thousand
 * C12 runs in a thread are several times slower than the rest). So unless asked for threads
 * (`eager`), workers start only once this thread's own progress says the batch will outlast
 * that cost, and a short batch never starts a pool.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CompiledModel } from '../codegen/compile.js';
import { Simulator } from '../analytic/index.js';
import type { InterruptFlag } from './interrupt.js';
import { BatchInputError, type ReportExpr } from './report.js';
import {
  chunkRuns,
  claimChunk,
  DONE,
  NEXT,
  PUBLISHED,
  ringMessage,
  runRingChunk,
  sharedRing,
  stopRing,
  type SharedRing,
} from './ring.js';
import type { ChunkReply, ChunkTask } from './sweep-worker.js';
import { statusCode, type BatchOptions } from './run.js';

/** One batch (or the slice of it that this process runs): a model and how to make its runs' parameters. */
export interface Job {
  file: string;
  /** the model text: workers compile it themselves */
  source: string;
  model: CompiledModel;
  report: ReportExpr[];
  options: BatchOptions;
  names: string[];
  count: number;
  /**
   * Writes the parameters of runs `first .. first+runs-1` (run k's value of names[j] at
   * [k * names.length + j]); called in the order of the runs.
   */
  fill(out: Float64Array, first: number, runs: number): void;
}

/** The results of consecutive runs, valid only during the call that receives them. */
export interface ChunkView {
  /** index of the first run (from the start of the job) */
  first: number;
  runs: number;
  /** run k's value of names[j] at [k * names + j] */
  parameters: Float64Array;
  /** run k's report j at [k * reports + j] */
  values: Float64Array;
  /** run k's status code (see statusCode; 0: the run did not start, the batch was interrupted) */
  status: Uint8Array;
  message(k: number): string | null;
}

export interface ChunkConsumer {
  chunk(view: ChunkView): void;
}

/** The part of a progress bar the pool drives. */
export interface PoolProgress {
  update(done: number): void;
}

/** The worker pool's class: tinypool, loaded by the caller (the command line lends its import()). */
export type PoolClass = typeof import('tinypool').Tinypool;

export interface PoolSettings {
  /** threads at most, this one included */
  threads: number;
  /** start the workers at once (--workers N), instead of once the batch proves long */
  eager: boolean;
  progress: PoolProgress;
  loadPool: () => Promise<PoolClass>;
  /** set by a signal: every thread stops, and the chunks done so far are still consumed */
  interrupt?: InterruptFlag;
}

/** Runs per thread at least: below that, a worker's start-up costs more than it saves. */
const MIN_RUNS_PER_THREAD = 64;
/** How long this thread runs alone before it judges whether workers would pay off. */
const WATCH_MS = 50;
/** What a worker costs before it is as fast as this thread: start-up, compilation, JIT warm-up. */
const WORKER_COST_MS = 300;
/** Chunks per thread: small enough that uneven runs (many collisions near e = 0.17) balance
 * and the bar moves, large enough that claiming one costs nothing next to its runs. */
const CHUNKS_PER_THREAD = 32;
const MIN_CHUNK = 4;
const MAX_CHUNK = 256;
/** This thread returns to its event loop at least this often (signals, the pool's messages). */
const YIELD_MS = 25;

function workerFile(): URL {
  // Next to the command-line bundle in dist/; tsup builds it from src/batch/sweep-worker.ts.
  const url = new URL('./sweep-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(url)))
    throw new Error(`the worker file ${fileURLToPath(url)} is missing: run 'npm run build', or use --workers 1`);
  return url;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type WaitAsync = (a: Int32Array, i: number, v: number, t: number) => { async: boolean; value: unknown };
const waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;

/** Waits until a chunk is done (any thread) or `ms` have passed. */
async function waitForDone(r: SharedRing, ms: number): Promise<void> {
  const seen = Atomics.load(r.counters, DONE);
  if (waitAsync) {
    const w = waitAsync(r.counters, DONE, seen, ms);
    // (a pending waitAsync does not keep the event loop alive: a timer does)
    const alive = setTimeout(() => undefined, ms);
    if (w.async) await w.value;
    clearTimeout(alive);
  } else await sleep(1);
}

/** Slot states of the workers, in a shared Int32Array: 1 once a worker has its task. */
const STARTED = 1;

interface Workers {
  slots: Int32Array;
  destroy(): Promise<void>;
}

/**
 * Runs a job on at most `settings.threads` threads and hands every chunk of results, in order,
 * to `consumer`; returns the number of runs handed over (all of them unless interrupted).
 * A consumer that throws (an output that failed) stops the batch.
 */
export async function execute(job: Job, consumer: ChunkConsumer, settings: PoolSettings): Promise<number> {
  const threads = Math.max(1, Math.min(settings.threads, Math.ceil(job.count / MIN_RUNS_PER_THREAD)));
  const chunkSize = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.ceil(job.count / (threads * CHUNKS_PER_THREAD))));
  const ring = sharedRing(
    job.count,
    chunkSize,
    threads <= 1 ? 2 : 2 * threads + 2,
    job.names.length,
    job.report.length,
  );
  const state: { failure: unknown; abandoned: boolean } = { failure: null, abandoned: false };
  let written = 0,
    published = 0,
    handed = 0;
  const m = ring.names,
    nr = ring.reports;

  const publish = () => {
    while (published < ring.chunks && published < written + ring.slots) {
      const base = (published % ring.slots) * chunkSize;
      job.fill(
        ring.parameters.subarray(base * m, (base + chunkRuns(ring, published)) * m),
        published * chunkSize,
        chunkRuns(ring, published),
      );
      published++;
    }
    Atomics.store(ring.counters, PUBLISHED, published);
    Atomics.notify(ring.counters, PUBLISHED);
  };
  // Interrupted, the runs handed over are the first ones, each complete: the consumer gets
  // nothing from the first run that a signal stopped or kept from starting on (a later chunk
  // that another thread finished would leave a gap).
  let cut = false;
  const consume = () => {
    while (!cut && written < published && Atomics.load(ring.done, written % ring.slots) === written + 1) {
      const slot = written % ring.slots,
        base = slot * chunkSize;
      let runs = chunkRuns(ring, written);
      for (let k = 0; k < runs; k++)
        if (ring.status[base + k] === 0 || ring.status[base + k] === INTERRUPTED) {
          runs = k;
          cut = true;
        }
      consumer.chunk({
        first: written * chunkSize,
        runs,
        parameters: ring.parameters.subarray(base * m, (base + runs) * m),
        values: ring.values.subarray(base * nr, (base + runs) * nr),
        status: ring.status.subarray(base, base + runs),
        message: (k) => ringMessage(ring, slot, k),
      });
      if (cut) {
        handed += runs;
        break;
      }
      written++;
      handed = Math.min(job.count, written * chunkSize);
      settings.progress.update(handed);
      publish();
    }
  };
  const interrupted = () => settings.interrupt !== undefined && Atomics.load(settings.interrupt, 0) !== 0;

  const startWorkers = async (n: number): Promise<Workers> => {
    const Tinypool = await settings.loadPool();
    const slots = new Int32Array(new SharedArrayBuffer(4 * n));
    const pool = new Tinypool({ filename: workerFile().href, minThreads: n, maxThreads: n });
    for (let slot = 0; slot < n; slot++) {
      const task: ChunkTask = {
        file: job.file,
        source: job.source,
        report: job.report.map((r) => r.label).join(', '),
        options: job.options,
        names: job.names,
        ring,
        slots,
        slot,
        interrupt: settings.interrupt,
      };
      (pool.run(task) as Promise<ChunkReply>).then(
        (reply) => {
          if (!reply.ok) {
            state.failure ??= new BatchInputError(reply.message);
            stopRing(ring);
          }
        },
        (err: unknown) => {
          // A worker still starting when the batch is done is terminated: not a failure.
          if (!state.abandoned) {
            state.failure ??= err;
            stopRing(ring);
          }
        },
      );
    }
    return { slots, destroy: () => pool.destroy() };
  };

  let workers: Workers | null = null;
  try {
    publish();
    if (settings.eager && threads > 1) workers = await startWorkers(threads - 1);
    const simulator = new Simulator(job.model);
    const t0 = performance.now();
    let lastYield = t0,
      mine = 0;
    while (written < ring.chunks && !interrupted()) {
      if (state.failure !== null) throw state.failure;
      consume();
      const c = claimChunk(ring);
      if (c >= 0) {
        runRingChunk(ring, c, simulator, job.report, job.options, job.names, settings.interrupt);
        mine += chunkRuns(ring, c);
        const now = performance.now();
        if (
          workers === null &&
          threads > 1 &&
          now - t0 > WATCH_MS &&
          ((now - t0) / mine) * (job.count - mine) > WORKER_COST_MS
        )
          workers = await startWorkers(threads - 1);
        // tinypool hands a worker its task from this thread's event loop: let it, until each
        // has started; and let signals and timers in now and then
        if (workers?.slots.some((s) => s !== STARTED) || now - lastYield > YIELD_MS) {
          await yieldToEventLoop();
          lastYield = performance.now();
        }
      } else if (written < ring.chunks) await waitForDone(ring, YIELD_MS);
    }
    if (state.failure !== null) throw state.failure;
    if (interrupted()) {
      // every chunk claimed stops at its next run (or within it): wait for them, then hand them over
      stopRing(ring);
      while (!claimedAreDone(ring, written)) await waitForDone(ring, YIELD_MS);
      consume();
    }
  } finally {
    state.abandoned = true;
    stopRing(ring);
    await workers?.destroy();
  }
  return handed;
}

/** The status code of a run that a signal stopped midway. */
const INTERRUPTED = statusCode('interrupted');

/** Whether every chunk claimed from `from` on is done. */
function claimedAreDone(r: SharedRing, from: number): boolean {
  const claimed = Math.min(Atomics.load(r.counters, NEXT), r.chunks);
  for (let c = from; c < claimed; c++) if (Atomics.load(r.done, c % r.slots) !== c + 1) return false;
  return true;
}
