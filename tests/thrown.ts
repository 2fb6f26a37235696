import { expect } from 'vitest';

/** The error `run` throws, checked to be of `kind` (a test fails if nothing is thrown). */
export function thrown<E extends Error>(kind: new (...args: never[]) => E, run: () => unknown): E {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(kind);
    return err as E;
  }
  throw new Error(`expected a ${kind.name}`);
}
