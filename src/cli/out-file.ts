/**
 * Where results go: the standard output or a file, written in pieces through a 64 KB buffer
 * with fs.writeSync, and what to say when that fails.
 *
 * A failed write is the output's problem, not the model's or the numerics': it is an
 * {@link OutputError} (exit code 5) whose message says what is really wrong, from the error
 * code ("no space left on device", "read-only file system", "permission denied", a directory
 * that does not exist, a file system such as /proc that takes no new files). A closed pipe on
 * the standard output (`deltastep ... | head`) is {@link ClosedPipe}: the program ends quietly,
 * as Unix tools do when their reader has gone (exit code 141, what a shell reports for a tool
 * ended by SIGPIPE).
 */
import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  openSync,
  statfsSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, extname, resolve } from 'node:path';

/** Exit codes of the output (docs/cli.md): 5 a write failed; 141 the reader of the standard output went away. */
export const OUTPUT_EXIT = { output: 5, closedPipe: 141 } as const;

/**
 * Writing an output failed; the message says which output and why. Exit code 5, or 2 when the
 * file could not even be created (`opening`): the command line named a place that takes no file.
 */
export class OutputError extends Error {
  constructor(
    message: string,
    readonly opening = false,
  ) {
    super(message);
  }
}

/** The reader of the standard output (or of a FIFO given as --out) has gone: end quietly. */
export class ClosedPipe extends Error {}

/** Kinds of file systems that take no new files, by statfs magic number. */
const SPECIAL_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, "the kernel's process file system (proc)"],
  [0x62656572, "the kernel's sysfs"],
  [0x64626720, "the kernel's debugfs"],
  [0x73636673, "the kernel's securityfs"],
  [0x27e0eb, "the kernel's cgroup file system"],
  [0x63677270, "the kernel's cgroup2 file system"],
]);

function exists(path: string): 'dir' | 'other' | null {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'other';
  } catch {
    return null;
  }
}

/** The nearest ancestor of `path` that exists, and what it is. */
function nearestExisting(path: string): { at: string; kind: 'dir' | 'other' } {
  let at = resolve(path);
  for (;;) {
    const kind = exists(at);
    if (kind) return { at, kind };
    const up = dirname(at);
    if (up === at) return { at, kind: 'dir' };
    at = up;
  }
}

/** Why a file could not be opened or written, in words, from the error's code. */
export function describeFileError(err: unknown, path: string): string {
  const e = err as NodeJS.ErrnoException;
  const dir = dirname(resolve(path));
  switch (e.code) {
    case 'ENOENT': {
      const near = nearestExisting(dir);
      if (near.at !== dir) return `the directory ${dir} does not exist`;
      let special: string | undefined;
      try {
        special = SPECIAL_FILE_SYSTEMS.get(statfsSync(dir).type);
      } catch {
        special = undefined;
      }
      return special
        ? `${dir} is ${special}, where no files can be created`
        : `${dir} does not allow a new file to be created there`;
    }
    case 'ENOTDIR': {
      const near = nearestExisting(path);
      return near.kind === 'other' ? `${near.at} is a file, not a directory` : 'a part of the path is not a directory';
    }
    case 'EISDIR':
      return `${path} is a directory; give a file name`;
    case 'EACCES':
    case 'EPERM':
      return exists(path) === 'other'
        ? `permission denied: you may not write ${path}`
        : `permission denied: you may not create files in ${dir}`;
    case 'EROFS':
      return `${dir} is on a read-only file system`;
    case 'ENOSPC':
      return 'no space left on device';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EFBIG':
      return 'the file is larger than its file system allows';
    case 'EIO':
      return 'input/output error on the device';
    case 'ENAMETOOLONG':
      return 'the file name is too long';
    case 'ELOOP':
      return 'too many symbolic links in the path';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files';
    case 'ETXTBSY':
    case 'EBUSY':
      return `${path} is busy`;
    case 'ENXIO':
      return `${path} has no reader (a FIFO that nobody reads)`;
    default:
      // the system's words without Node's "ECODE: ..., write" frame
      return (e.message ?? String(err)).replace(/^[A-Z]+: /, '').replace(/, \w+( '[^']*')?$/, '');
  }
}

/** The message of an output that failed: `cannot write --out f.json: no space left on device`. */
function outputError(err: unknown, what: string, path: string | undefined, note = '', opening = false): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EPIPE') return new ClosedPipe(`${what}: the reader went away`);
  return new OutputError(
    `cannot write ${what}: ${path === undefined ? describeFileError(err, '.') : describeFileError(err, path)}${note}`,
    opening,
  );
}

/** The kinds of plot file that --plot writes. */
export const PLOT_EXTENSIONS = ['.svg', '.png', '.html'] as const;

/** A usage error about an output path, found before anything runs. */
export class OutputPathError extends Error {}

/**
 * Checks, before anything runs, that an output can be written at `path` without creating
 * it (a run that fails must not leave an empty file): the directory exists, is one, takes
 * files and lets us write; an existing file is not a directory and is writable; a plot has a
 * known extension. Throws OutputError (opening: exit 2) with the message a write would give.
 */
export function checkWritable(path: string, flag: string): void {
  if (path.trim() === '') return;
  if (flag === '--plot') {
    const ext = extname(path).toLowerCase();
    if (!(PLOT_EXTENSIONS as readonly string[]).includes(ext))
      throw new OutputPathError(
        `--plot ${path}: the extension '${ext || '(none)'}' is not a kind of plot; use ${PLOT_EXTENSIONS.join(', ')}`,
      );
  }
  const fail = (code: string) => {
    throw outputError(Object.assign(new Error(code), { code }), `${flag} ${path}`, path, '', true);
  };
  const kind = exists(path);
  if (kind === 'dir') fail('EISDIR');
  const dir = dirname(resolve(path));
  const dirKind = exists(dir);
  if (dirKind === null) fail('ENOENT');
  if (dirKind === 'other') fail('ENOTDIR');
  let special = false;
  try {
    special = SPECIAL_FILE_SYSTEMS.has(statfsSync(dir).type);
  } catch {
    /* no statfs: the write will tell */
  }
  if (special && kind === null) fail('ENOENT');
  try {
    accessSync(kind === null ? dir : path, constants.W_OK);
  } catch (err) {
    fail((err as NodeJS.ErrnoException).code ?? 'EACCES');
  }
}

/**
 * What a path names: its device and inode when it is a file (a link or another spelling
 * alike), where it resolves when it does not exist yet, and null for a device, a FIFO or a
 * terminal, which writing does not destroy (`simulate /dev/stdin --out /dev/stdout` at a
 * terminal names one device twice).
 */
function identity(path: string): string | null {
  try {
    const s = statSync(path);
    return s.isFile() ? `inode ${s.dev}:${s.ino}` : null;
  } catch {
    return `path ${resolve(path)}`;
  }
}

/**
 * The outputs must not be an input or each other: an output is opened (emptied) before the
 * inputs it would replace are read, or written over by the other output. `--out` on a shard
 * that merge reads destroyed that shard (the incomplete output was then removed), `--out` on
 * the model file replaced the model with its rows, and `--out x.svg --plot x.svg` left only
 * the plot, each with exit code 0 or a message about something else.
 */
export function checkDistinct(
  inputs: readonly string[],
  outputs: readonly { flag: string; path: string }[],
  what: string,
): void {
  const given = outputs.filter((o) => o.path.trim() !== '');
  for (const [j, o] of given.entries()) {
    const id = identity(o.path);
    if (id === null) continue;
    // (an input that does not exist is said where it is read)
    const input = id.startsWith('inode') ? inputs.find((i) => identity(i) === id) : undefined;
    if (input !== undefined)
      throw new OutputPathError(
        `${o.flag} ${o.path} is ${input === o.path ? '' : `${input}, `}${what}: writing there would destroy it; give ${o.flag} another path`,
      );
    const other = given.slice(0, j).find((p) => identity(p.path) === id);
    if (other)
      throw new OutputPathError(
        `${other.flag} ${other.path} and ${o.flag} ${o.path} are the same file: one would write over the other; give them different paths`,
      );
  }
}

/** Sleeps this thread for `ms` (a pipe that is full for the moment: wait for its reader). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Text written in pieces to stdout or a file through a 64 KB buffer (fs.writeSync), so a long
 * run's rows never pile up in memory as one string. A write that fails throws OutputError
 * (or ClosedPipe); an incomplete regular file that this writer created is removed, since it
 * could be taken for a complete one.
 */
export class StreamOut {
  private fd: number;
  private readonly owned: boolean;
  private buffer = '';
  private failed = false;
  /** what to call this output in a message */
  readonly what: string;

  /** `flag`: how the path was given (--out, --plot), for messages */
  constructor(
    readonly path: string | undefined,
    flag = '--out',
  ) {
    this.what = path === undefined ? 'the standard output' : `${flag} ${path}`;
    if (path === undefined) {
      this.fd = 1;
      this.owned = false;
      return;
    }
    try {
      this.fd = openSync(path, 'w');
    } catch (err) {
      throw outputError(err, this.what, path, '', true);
    }
    this.owned = true;
  }

  write(text: string): void {
    this.buffer += text;
    if (this.buffer.length >= 1 << 16) this.flush();
  }

  flush(): void {
    if (this.failed) return;
    let rest = Buffer.from(this.buffer, 'utf8');
    this.buffer = '';
    while (rest.length > 0) {
      let n: number;
      try {
        n = writeSync(this.fd, rest);
      } catch (err) {
        // a pipe that is full for the moment (stdout to a slow reader): wait and try again
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') {
          pause(1);
          continue;
        }
        throw this.fail(err);
      }
      rest = rest.subarray(n);
    }
  }

  close(): void {
    try {
      this.flush();
    } finally {
      if (this.owned && !this.failed) {
        this.failed = true;
        closeSync(this.fd);
      }
    }
  }

  /** Closes without writing what is left, and removes the file when it is an incomplete one of ours. */
  abandon(): void {
    if (!this.owned || this.failed) return;
    this.failed = true;
    this.removeIfRegular();
  }

  private fail(err: unknown): Error {
    this.failed = true;
    this.buffer = '';
    const removed = this.owned && this.removeIfRegular();
    return outputError(err, this.what, this.path, removed ? ' (the incomplete file was removed)' : '');
  }

  /** Closes our file and removes it if it is a regular file (never /dev/full or a FIFO). */
  private removeIfRegular(): boolean {
    let regular: boolean;
    try {
      regular = fstatSync(this.fd).isFile();
    } catch {
      regular = false;
    }
    try {
      closeSync(this.fd);
    } catch {
      /* already gone */
    }
    this.fd = -1;
    if (!regular || this.path === undefined) return false;
    try {
      unlinkSync(this.path);
      return true;
    } catch {
      return false;
    }
  }
}

/** Writes a whole text (with a final newline) to stdout or a file. */
export function emit(text: string, out: string | undefined, flag = '--out'): void {
  const s = new StreamOut(out, flag);
  try {
    s.write(text.endsWith('\n') ? text : `${text}\n`);
    s.close();
  } catch (err) {
    s.abandon();
    throw err;
  }
}

/** Writes bytes (a PNG, an SVG) to a file in one piece, with the same messages as {@link StreamOut}. */
export function writeWhole(path: string, data: string | Uint8Array, flag: string): void {
  const what = `${flag} ${path}`;
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (err) {
    throw outputError(err, what, path, '', true);
  }
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
    closeSync(fd);
  } catch (err) {
    let removed = false;
    try {
      const regular = fstatSync(fd).isFile();
      closeSync(fd);
      if (regular) {
        unlinkSync(path);
        removed = true;
      }
    } catch {
      /* leave it */
    }
    throw outputError(err, what, path, removed ? ' (the incomplete file was removed)' : '');
  }
}
