/**
 * Stopping a batch or a run from outside: a signal (SIGINT, SIGTERM) sets a flag in shared
 * memory that every thread reads between runs and, through a run's progress callback and
 * ledger, within a long one. Reading it is one atomic load: cheap enough to do often.
 */

/** A run or batch was stopped by a signal; `signal` is its number (2 SIGINT, 15 SIGTERM). */
export class Interrupted extends Error {
  constructor(readonly signal: number) {
    super(`interrupted by ${signalName(signal)}`);
  }
}

export function signalName(signal: number): string {
  return signal === 2 ? 'SIGINT' : signal === 15 ? 'SIGTERM' : `signal ${signal}`;
}

/** The flag: [0] is 0, or the number of the signal that asked to stop. */
export type InterruptFlag = Int32Array;

export function interruptFlag(): InterruptFlag {
  return new Int32Array(new SharedArrayBuffer(4));
}

/** Throws {@link Interrupted} when the flag is set. */
export function checkInterrupt(flag: InterruptFlag | undefined): void {
  if (flag !== undefined) {
    const signal = Atomics.load(flag, 0);
    if (signal !== 0) throw new Interrupted(signal);
  }
}
