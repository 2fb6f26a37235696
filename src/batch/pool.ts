/**
 * Running a batch on threads: this one and, when the batch is long enough to pay for them, a
 * pool of worker threads (tinypool, loading dist/sweep-worker.js), all claiming chunks of runs
 * from one shared batch (run.ts).
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
import type { SimulateOptions } from '../driver/index.js';
import { Simulator } from '../analytic/index.js';
import { BatchInputError, type ReportExpr } from './report.js';
import { runChunk, runNextChunk, sharedBatch, sharedResult, type ChunkResult } from './run.js';
import type { ChunkReply, ChunkTask } from './sweep-worker.js';

/** One batch (or the slice of it that this process runs): a model and its runs' parameters. */
export interface Job {
  file: string;
  /** the model text: workers compile it themselves */
  source: string;
  model: CompiledModel;
  report: ReportExpr[];
  options: SimulateOptions;
  names: string[];
  /** run k's value of names[j] at [k * names.length + j] */
  parameters: Float64Array;
  count: number;
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

function workerFile(): URL {
  // Next to the command-line bundle in dist/; tsup builds it from src/batch/sweep-worker.ts.
  const url = new URL('./sweep-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(url)))
    throw new Error(`the worker file ${fileURLToPath(url)} is missing: run 'npm run build', or use --workers 1`);
  return url;
}

/** Runs a job on at most `settings.threads` threads: this one and up to threads - 1 pool threads. */
export async function execute(job: Job, settings: PoolSettings): Promise<ChunkResult> {
  const threads = Math.min(settings.threads, Math.ceil(job.count / MIN_RUNS_PER_THREAD));
  if (threads <= 1)
    return runChunk(new Simulator(job.model), job.report, job.options, job.names, job.parameters, (done) =>
      settings.progress.update(done),
    );
  return executeShared(job, threads, settings);
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Slot states of the workers, in a shared Int32Array. */
const CLAIMED = 2;

interface Workers {
  slots: Int32Array;
  replies: Promise<void>[];
  destroy(): Promise<void>;
}

async function executeShared(job: Job, threads: number, settings: PoolSettings): Promise<ChunkResult> {
  const Tinypool = await settings.loadPool();
  const chunkSize = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.ceil(job.count / (threads * CHUNKS_PER_THREAD))));
  const batch = sharedBatch(job.parameters, job.count, job.report.length, chunkSize);
  const messages = new Map<number, string>();
  const state: { failure: unknown; abandoned: boolean } = { failure: null, abandoned: false };
  const stopAll = () => Atomics.store(batch.counters, 0, 1 << 30);

  const startWorkers = (n: number): Workers => {
    const slots = new Int32Array(new SharedArrayBuffer(4 * n));
    const pool = new Tinypool({ filename: workerFile().href, minThreads: n, maxThreads: n });
    const replies = Array.from({ length: n }, (_, slot) => {
      const task: ChunkTask = {
        file: job.file,
        source: job.source,
        report: job.report.map((r) => r.label).join(', '),
        options: job.options,
        names: job.names,
        batch,
        slots,
        slot,
      };
      return (pool.run(task) as Promise<ChunkReply>).then(
        (reply) => {
          if (!reply.ok) {
            state.failure ??= new BatchInputError(reply.message);
            stopAll();
          } else for (const [i, m] of reply.messages) messages.set(i, m);
        },
        (err: unknown) => {
          // A worker still starting when the batch is done is terminated: not a failure.
          if (!state.abandoned) {
            state.failure ??= err;
            stopAll();
          }
        },
      );
    });
    return { slots, replies, destroy: () => pool.destroy() };
  };

  let workers: Workers | null = null;
  try {
    if (settings.eager) workers = startWorkers(threads - 1);
    const simulator = new Simulator(job.model);
    const t0 = performance.now();
    while (state.failure === null && runNextChunk(simulator, job.report, job.options, job.names, batch, messages) > 0) {
      const finished = Atomics.load(batch.counters, 1);
      settings.progress.update(finished);
      if (workers === null) {
        const elapsed = performance.now() - t0;
        if (elapsed > WATCH_MS && (elapsed / finished) * (job.count - finished) > WORKER_COST_MS)
          workers = startWorkers(threads - 1);
      }
      // tinypool hands a worker its task from this thread's event loop: let it, until each has started.
      if (workers?.slots.some((s) => s === 0)) await yieldToEventLoop();
    }
    while (state.failure === null && Atomics.load(batch.counters, 1) < job.count) {
      await sleep(5);
      settings.progress.update(Atomics.load(batch.counters, 1));
    }
    if (workers) {
      // The workers that ran chunks reply at once now (nothing is left to claim): their messages.
      const w = workers;
      await Promise.all(w.replies.filter((_, slot) => Atomics.load(w.slots, slot) === CLAIMED));
    }
    if (state.failure !== null) throw state.failure;
  } finally {
    state.abandoned = true;
    stopAll();
    await workers?.destroy();
  }
  return sharedResult(batch, messages);
}
