/**
 * SIGINT and SIGTERM during a run: the run stops where it is, the document is finished with
 * what was computed and the status `interrupted`, temporary files go, and the program exits
 * with 130 or 143 (128 + the signal), as CLI.md promises.
 *
 * A run is synchronous JavaScript: while it computes, the main thread's event loop never runs,
 * so a `process.on('SIGTERM')` listener would be called only after the run (and Node's default
 * action, ending the process at once, would leave half a JSON document and a temporary
 * directory). So a small watcher thread takes the signals: its own event loop is free, it sets
 * a flag in shared memory (batch/interrupt.ts), and the run reads that flag at every row,
 * ledger entry and progress call (every few thousand steps), and a batch between runs. Node
 * lets a worker thread listen to signals only through its internal signal handle
 * (process.binding('signal_wrap')); where that is not available, the main thread's listener
 * sets the same flag, and a run then sees it at its end.
 *
 * transform and shoot write their output only at their end: a signal ends them as Node does,
 * at once, and leaves nothing half-written.
 *
 * The launcher starts the watcher for the commands that compute, before it loads the command
 * line (launch.ts), so that it is listening by the time a run starts; this module imports
 * nothing of the pipeline, for the launcher's sake.
 */
import { Worker } from 'node:worker_threads';

/** The exit code of a run stopped by `signal`: 128 + its number (130 SIGINT, 143 SIGTERM). */
export function signalExit(signal: number): number {
  return 128 + signal;
}

/** The commands whose runs a signal interrupts (the others end as Node ends them). */
export const INTERRUPTIBLE = new Set(['simulate', 'sweep', 'montecarlo', 'merge']);

// The watcher, as the source of a worker: it listens on its own event loop and sets the flag.
const WATCHER = `
const { workerData } = require('node:worker_threads');
const flag = workerData;
try {
  // (the handle is Node's own: its deprecation notice is not the user's business)
  process.noDeprecation = true;
  const { Signal } = process.binding('signal_wrap');
  for (const n of [2, 15]) {
    const s = new Signal();
    s.onsignal = () => {
      Atomics.compareExchange(flag, 0, 0, n);
      Atomics.notify(flag, 0);
    };
    s.start(n);
  }
  Atomics.store(flag, 1, 1);
} catch {
  Atomics.store(flag, 1, -1);
}
Atomics.notify(flag, 1);
`;

/** The flag is shared by the launcher and the command line's bundle (two module instances). */
const SHARED = Symbol.for('deltastep.interrupt');

/**
 * Starts taking SIGINT and SIGTERM (once per process) and gives the flag they set: [0] is 0,
 * or the number of the signal; [1] is 1 once the watcher listens, -1 if it cannot.
 */
export function watchSignals(): Int32Array {
  const shared = (globalThis as Record<symbol, unknown>)[SHARED] as Int32Array | undefined;
  if (shared) return shared;
  const f = new Int32Array(new SharedArrayBuffer(8));
  (globalThis as Record<symbol, unknown>)[SHARED] = f;
  const onSignal = (name: NodeJS.Signals) => {
    Atomics.compareExchange(f, 0, 0, name === 'SIGINT' ? 2 : 15);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    // (no stdout or stderr of its own: their port would keep the program alive)
    const watcher = new Worker(WATCHER, { eval: true, workerData: f });
    // the watcher never keeps the program alive, and its failure only means the fallback
    watcher.unref();
    watcher.on('error', () => undefined);
  } catch {
    // no worker threads: the main thread's listener alone
    Atomics.store(f, 1, -1);
  }
  return f;
}

type WaitAsync = (a: Int32Array, i: number, v: number, t: number) => { async: boolean; value: unknown };

/**
 * Waits (at most `ms`) until the watcher listens, so that a run started now sees a signal at
 * once; usually it already does (it starts with the process). Waiting also lets the main
 * thread's listener take a signal that came before.
 */
export async function signalsReady(ms = 200): Promise<void> {
  const f = watchSignals();
  const waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;
  if (Atomics.load(f, 1) === 0 && waitAsync) {
    const w = waitAsync(f, 1, 0, ms);
    // (a pending waitAsync does not keep the event loop alive: a timer does)
    const alive = setTimeout(() => undefined, ms);
    if (w.async) await w.value;
    clearTimeout(alive);
  }
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/** The signal that interrupted this process, or 0 (no signal, or not watching). */
export function interruptedBy(): number {
  const shared = (globalThis as Record<symbol, unknown>)[SHARED] as Int32Array | undefined;
  return shared ? Atomics.load(shared, 0) : 0;
}

/** `interrupted by SIGINT` and the like. */
export function interruptedText(signal: number): string {
  return `interrupted by ${signal === 2 ? 'SIGINT' : signal === 15 ? 'SIGTERM' : `signal ${signal}`}`;
}
