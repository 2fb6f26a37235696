/**
 * Text kept on disk while a document is written: a part of a JSON document that is produced
 * alongside another but written after it (the ledger of a run after its rows, the failures
 * of a batch after its rows), so that neither is held in memory. The file lives in a
 * temporary directory (temporary.ts) that goes away when the spool is copied, discarded, or
 * the process ends.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { StreamOut } from './out-file.js';
import { removeTemporary, temporaryDir } from './temporary.js';

export class Spool {
  private readonly dir: string;
  private readonly path: string;
  private readonly file: StreamOut;
  /** pieces written so far */
  count = 0;

  constructor(prefix: string) {
    this.dir = temporaryDir(prefix);
    this.path = join(this.dir, 'spool.txt');
    this.file = new StreamOut(this.path, `the temporary file of the ${prefix}`);
  }

  write(text: string): void {
    this.count++;
    this.file.write(text);
  }

  /** Copies everything written into `out`, in pieces, and removes the file (unless `keep`: it is copied again). */
  copyInto(out: StreamOut, keep = false): void {
    this.file.close();
    const fd = openSync(this.path, 'r');
    const chunk = Buffer.alloc(1 << 16);
    const decoder = new TextDecoder('utf-8');
    try {
      // (streaming decode: a character may straddle two chunks)
      for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0;)
        out.write(decoder.decode(chunk.subarray(0, n), { stream: true }));
      out.write(decoder.decode());
    } finally {
      closeSync(fd);
      if (!keep) removeTemporary(this.dir);
    }
  }

  discard(): void {
    this.file.abandon();
    removeTemporary(this.dir);
  }
}
