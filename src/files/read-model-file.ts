/**
 * Reading a model file from disk, with limits: the command line's, and the Node entry's
 * (`deltastep/node`). Kept apart from the library core, which runs in a browser.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ModelError } from '../expression/errors.js';

/** the largest model file read (a 3000-line model of 1024 spheres is about 120 KB) */
export const MAX_MODEL_BYTES = 4 * 1024 * 1024;

/**
 * Reads a model file as text. A missing file, a directory, a file over MAX_MODEL_BYTES (or an
 * endless device such as /dev/zero), and bytes that are not UTF-8 text are model errors with
 * the position of the problem and what to do (never an exception from fs, never a hang).
 */
export function readModelFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new ModelError(path, '', null, fileProblem(err), 'Give the path of a .delta model file.');
  }
  let bytes: Buffer;
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory())
      throw new ModelError(
        path,
        '',
        null,
        'this is a directory, not a model file',
        'Give the path of a .delta model file.',
      );
    if (stat.isFile() && stat.size > MAX_MODEL_BYTES) throw tooLarge(path);
    // at most one byte over the limit, whatever the file is (a device or a pipe may not end)
    const buffer = Buffer.alloc(MAX_MODEL_BYTES + 1);
    let length = 0;
    for (let n; length < buffer.length && (n = readSync(fd, buffer, length, buffer.length - length, null)) > 0;)
      length += n;
    if (length > MAX_MODEL_BYTES) throw tooLarge(path);
    bytes = buffer.subarray(0, length);
  } catch (err) {
    if (err instanceof ModelError) throw err;
    throw new ModelError(path, '', null, fileProblem(err), 'Give the path of a .delta model file.');
  } finally {
    closeSync(fd);
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) {
    const before = bytes.subarray(0, bad).toString('utf8');
    const line = before.split('\n').length,
      column = before.length - before.lastIndexOf('\n');
    // (the line shown is the text before the bad byte; the caret stands where it is)
    throw new ModelError(
      path,
      before,
      { start: before.length, line, column },
      `byte 0x${bytes[bad].toString(16).padStart(2, '0')} is not UTF-8 text`,
      'A model is a text file saved as UTF-8; check that this is the right file, or save it again as UTF-8.',
    );
  }
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text;
}

function tooLarge(path: string): ModelError {
  return new ModelError(
    path,
    '',
    null,
    `the file is larger than ${MAX_MODEL_BYTES / (1024 * 1024)} MB, the largest model deltastep reads`,
    'A model is a text file of equations; for many bodies write it with arrays or generate a smaller one.',
  );
}

function fileProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT'
    ? 'no such file'
    : code === 'EISDIR'
      ? 'this is a directory, not a model file'
      : code === 'EACCES'
        ? 'permission denied'
        : `cannot read the file (${code ?? 'unknown error'})`;
}

/** The offset of the first byte that is not part of a well-formed UTF-8 sequence, or -1. */
function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length;) {
    const c = b[i];
    const n = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0) return i;
    for (let k = 1; k <= n; k++) if (i + k >= b.length || (b[i + k] & 0xc0) !== 0x80) return i;
    // overlong forms and surrogates
    if (
      (c === 0xe0 && b[i + 1] < 0xa0) ||
      (c === 0xed && b[i + 1] >= 0xa0) ||
      (c === 0xf0 && b[i + 1] < 0x90) ||
      (c === 0xf4 && b[i + 1] >= 0x90)
    )
      return i;
    i += n + 1;
  }
  return -1;
}
