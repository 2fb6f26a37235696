/** Small helpers of the settings, range, shooting and documentation tests. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished } from 'vitest';

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

/** A model file in a temporary directory that is removed when the test finishes. */
export function tempModel(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'deltastep-test-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}
