/**
 * Temporary directories of the command line (the ledger of a streamed JSON run, the failures
 * of a streamed batch), each removed when its writer is done and, whatever happens, when the
 * process exits: an error, a closed pipe or a signal leaves none behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const live = new Set<string>();
let hooked = false;

/** A new directory `deltastep-PREFIX-XXXXXX` under the system's temporary directory. */
export function temporaryDir(prefix: string): string {
  if (!hooked) {
    hooked = true;
    process.on('exit', removeTemporaries);
  }
  const dir = mkdtempSync(join(tmpdir(), `deltastep-${prefix}-`));
  live.add(dir);
  return dir;
}

export function removeTemporary(dir: string): void {
  live.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}

/** Removes every temporary directory still there (at exit, after an error or a signal). */
export function removeTemporaries(): void {
  for (const dir of [...live]) {
    try {
      removeTemporary(dir);
    } catch {
      /* nothing more can be done at exit */
    }
  }
}
