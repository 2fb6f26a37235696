/**
 * A batch shared between threads through a bounded ring of chunks, so that memory does not
 * grow with the batch (a million runs take as little as a hundred).
 *
 * Chunk c (runs c·chunkSize onwards) lives in slot c mod slots. The main thread publishes
 * chunks in order, writing their parameters into their slot, at most `slots` ahead of the
 * first chunk it has not yet consumed; every thread (the main one and the workers) claims the
 * next published chunk with one compare-and-swap, runs it, writes its results into the slot
 * and marks the slot done with the chunk's number. The main thread consumes done chunks in
 * order (writes them out, adds them to the statistics) and frees their slots for the next
 * ones. No thread waits for another to hand it work, a thread busy with a long chunk never
 * starves the others, and the results come out in the order of the runs whichever thread
 * computed them.
 *
 * Everything lives in SharedArrayBuffers; the messages of runs (why one failed or stopped)
 * are UTF-8 in a fixed space per run, cut at MESSAGE_BYTES.
 */
import type { Simulator } from '../analytic/index.js';
import type { InterruptFlag } from './interrupt.js';
import type { ReportExpr } from './report.js';
import { runChunk, statusCode, type BatchOptions, type BatchStatus } from './run.js';

/** The room for one run's message; a longer one is cut, with a mark. */
export const MESSAGE_BYTES = 1024;

/** Indices of {@link SharedRing.counters}. */
export const NEXT = 0,
  PUBLISHED = 1,
  STOP = 2,
  DONE = 3;

export interface SharedRing {
  /** runs of the batch (or of the slice this process runs) */
  count: number;
  chunkSize: number;
  chunks: number;
  slots: number;
  names: number;
  reports: number;
  /** slot s, run k: value of name j at [(s·chunkSize + k)·names + j] */
  parameters: Float64Array;
  /** slot s, run k: report j at [(s·chunkSize + k)·reports + j] */
  values: Float64Array;
  /** slot s, run k: status code (statusCode; 0: not run) at [s·chunkSize + k] */
  status: Uint8Array;
  messageBytes: Uint8Array;
  /** bytes of each run's message; -1: none */
  messageLength: Int32Array;
  /** per slot: the number + 1 of the chunk whose results it holds complete, 0 while none */
  done: Int32Array;
  /** [next chunk to claim, chunks published, stop (1: claim no more), chunks done (for waking)] */
  counters: Int32Array;
}

export function sharedRing(
  count: number,
  chunkSize: number,
  slots: number,
  names: number,
  reports: number,
): SharedRing {
  const shared = (bytes: number) => new SharedArrayBuffer(Math.max(bytes, 8));
  const runs = slots * chunkSize;
  return {
    count,
    chunkSize,
    chunks: Math.ceil(count / chunkSize),
    slots,
    names,
    reports,
    parameters: new Float64Array(shared(runs * names * 8)),
    values: new Float64Array(shared(runs * reports * 8)),
    status: new Uint8Array(shared(runs)),
    messageBytes: new Uint8Array(shared(runs * MESSAGE_BYTES)),
    messageLength: new Int32Array(shared(runs * 4)),
    done: new Int32Array(shared(slots * 4)),
    counters: new Int32Array(shared(16)),
  };
}

/** Runs in chunk c. */
export function chunkRuns(r: SharedRing, c: number): number {
  return Math.min(r.chunkSize, r.count - c * r.chunkSize);
}

/**
 * Claims the next published chunk: its number, -1 when none is published yet (wait and try
 * again), -2 when there will be none (all claimed, or stopped).
 */
export function claimChunk(r: SharedRing): number {
  for (;;) {
    if (Atomics.load(r.counters, STOP) !== 0) return -2;
    const next = Atomics.load(r.counters, NEXT);
    if (next >= r.chunks) return -2;
    if (next >= Atomics.load(r.counters, PUBLISHED)) return -1;
    if (Atomics.compareExchange(r.counters, NEXT, next, next + 1) === next) return next;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CUT = encoder.encode(' ... (cut)');

/** Runs chunk c (claimed) and writes its results into its slot, then marks the slot done. */
export function runRingChunk(
  r: SharedRing,
  c: number,
  simulator: Simulator,
  report: readonly ReportExpr[],
  options: BatchOptions,
  names: readonly string[],
  interrupt?: InterruptFlag,
): void {
  const slot = c % r.slots,
    runs = chunkRuns(r, c),
    base = slot * r.chunkSize;
  const m = r.names,
    nr = r.reports;
  const result = runChunk(
    simulator,
    report,
    options,
    names,
    r.parameters.subarray(base * m, (base + runs) * m),
    undefined,
    interrupt,
  );
  r.values.set(result.values, base * nr);
  for (let k = 0; k < runs; k++) {
    const s = result.status[k] as BatchStatus | undefined;
    r.status[base + k] = s === undefined ? 0 : statusCode(s);
    writeMessage(r, base + k, s === undefined ? null : result.message[k]);
  }
  Atomics.store(r.done, slot, c + 1);
  Atomics.add(r.counters, DONE, 1);
  Atomics.notify(r.counters, DONE);
}

function writeMessage(r: SharedRing, at: number, message: string | null): void {
  if (message === null) {
    r.messageLength[at] = -1;
    return;
  }
  const room = r.messageBytes.subarray(at * MESSAGE_BYTES, (at + 1) * MESSAGE_BYTES);
  const { written, read } = encoder.encodeInto(message, room);
  if (read < message.length) {
    // cut at a character (encodeInto never splits one) and say so
    let end = Math.min(written, MESSAGE_BYTES - CUT.length);
    while (end > 0 && (room[end] & 0xc0) === 0x80) end--;
    room.set(CUT, end);
    r.messageLength[at] = end + CUT.length;
  } else r.messageLength[at] = written;
}

/** The message of run k of slot `slot`, or null. */
export function ringMessage(r: SharedRing, slot: number, k: number): string | null {
  const at = slot * r.chunkSize + k,
    n = r.messageLength[at];
  if (n < 0) return null;
  // (a copy: TextDecoder does not read shared memory)
  return decoder.decode(r.messageBytes.slice(at * MESSAGE_BYTES, at * MESSAGE_BYTES + n));
}

/** Stops every thread from claiming more chunks (those running finish, or see the interrupt). */
export function stopRing(r: SharedRing): void {
  Atomics.store(r.counters, STOP, 1);
  Atomics.notify(r.counters, PUBLISHED);
}
