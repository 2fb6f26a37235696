#!/usr/bin/env node
/**
 * The `deltastep` executable. It loads the command line, built as one CommonJS bundle
 * (cli-bundle.cjs beside this file), through V8's code cache: Node 20 has no compile cache
 * of its own, and compiling the command line's code on every start took about as long as
 * Node's own start-up (issue 15: start-up within 1.5 times `node -e 0`).
 *
 * The cache is a file per Node version, bundle and command under $XDG_CACHE_HOME/deltastep
 * (or ~/.cache/deltastep), readable by its owner only; it is written after the first run and
 * whenever V8 rejects it, and only the newest files are kept. Any failure to read or write it only means compiling as usual.
 * DELTASTEP_NO_CACHE=1 turns it off.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { lendImport } from './import-module.js';
import { INTERRUPTIBLE, watchSignals } from './signals.js';

interface CommandLine {
  main(argv: string[]): Promise<number>;
  reportError(err: unknown): number;
}

const here = dirname(fileURLToPath(import.meta.url));
const bundle = join(here, 'cli-bundle.cjs');

/** FNV-1a of a string, for a cache name that tells installs apart without loading crypto. */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16);
}

/**
 * The cache of this bundle for this command. V8 caches what a run compiled, and a command
 * compiles only its own code (V8 compiles a function when it is first called), so each
 * command has its own: `--help` wrote a cache without the simulator that `simulate` then
 * compiled on every run.
 */
function cacheFile(): string | null {
  if (process.env.DELTASTEP_NO_CACHE === '1') return null;
  try {
    const st = statSync(bundle);
    const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
    const command = /^[a-z]+$/.test(process.argv[2] ?? '') ? process.argv[2] : 'other';
    return join(base, 'deltastep', `cli-${process.version}-${fnv(`${bundle}|${st.size}|${st.mtimeMs}`)}-${command}.v8`);
  } catch {
    return null;
  }
}

/** At most this many cache files are kept (the newest): each build and command writes one. */
const MAX_CACHE_FILES = 16;

function pruneCache(dir: string): void {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.v8'))
    .map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs }));
  files.sort((a, b) => b.at - a.at);
  for (const { f } of files.slice(MAX_CACHE_FILES)) unlinkSync(join(dir, f));
}

function load(): { commandLine: CommandLine; saveCache: () => void } {
  const source = readFileSync(bundle, 'utf8').replace(/^#!.*/, '');
  const cache = cacheFile();
  let cachedData: Buffer | undefined;
  if (cache)
    try {
      cachedData = readFileSync(cache);
    } catch {
      /* first run: no cache yet */
    }
  const script = new Script(Module.wrap(source), { filename: bundle, cachedData });
  const mod = new Module(bundle);
  mod.filename = bundle;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(here);
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: Module,
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(mod.exports, mod.exports, Module.createRequire(bundle), mod, bundle, here);
  const saveCache = () => {
    if (!cache || (cachedData && !script.cachedDataRejected)) return;
    try {
      // one level at a time: a recursive mkdir spins forever on some file systems (/proc)
      for (const dir of [dirname(dirname(cache)), dirname(cache)]) {
        try {
          mkdirSync(dir, { mode: 0o700 });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
      }
      // written whole and renamed, so that a process starting meanwhile reads all or nothing
      const partial = `${cache}.${process.pid}`;
      writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
      renameSync(partial, cache);
      pruneCache(dirname(cache));
    } catch {
      /* a read-only home: no cache, as before */
    }
  };
  return { commandLine: mod.exports as CommandLine, saveCache };
}

/**
 * V8 starts optimising a function once it has run about 66 KB of its bytecode (the interrupt
 * budget). The command line's set-up (parse, analysis, transform, code generation of a model)
 * runs each function over every element once and is over before most of that optimised code
 * is ready: for a row of 1024 spheres the compiler threads took 0.85 s of CPU beside a 0.55 s
 * run, and on two cores they competed with it. With four times the budget only what keeps
 * running gets optimised (0.34 s; the run 1.13 s -> 0.90 s elapsed, a stepper's run of 256
 * spheres 1.65 s -> 1.20 s). Tiers compute the same doubles, so results are unchanged. A budget
 * given to node itself (NODE_OPTIONS, node --interrupt-budget=...) is left as it is.
 */
function tuneOptimisation(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('--interrupt-budget'));
  if (!given) setFlagsFromString('--interrupt-budget=270336');
}

tuneOptimisation();

/** Whether a path is a FIFO (statSync does not open it, so it never waits for a writer). */
function isFifo(path: string): boolean {
  try {
    return statSync(path).isFIFO();
  } catch {
    return false;
  }
}

// A run is interrupted by a signal through a watcher thread (signals.ts): start it now, so that
// it listens (it takes a few tens of milliseconds) by the time the command line is loaded. Not
// when a FIFO is named: opening it waits for its writer in a call no listener can interrupt,
// so Ctrl-C did nothing; the command starts the watcher once it has read its model.
if (INTERRUPTIBLE.has(process.argv[2] ?? '') && !process.argv.slice(3).some(isFifo)) watchSignals();

// A script run through vm cannot import() (Node 20 has no stable hook for it): the packages
// the command line imports (vega for plots, tinypool for sweeps) come through this module's.
lendImport((specifier) => import(specifier));

let loaded: ReturnType<typeof load>;
try {
  loaded = load();
} catch (err) {
  process.stderr.write(
    `deltastep: cannot load the command line (${bundle}): ${err instanceof Error ? err.message : String(err)}; run npm run build\n`,
  );
  process.exit(3);
}
const { commandLine, saveCache } = loaded;
commandLine
  .main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.exitCode = commandLine.reportError(err);
    },
  )
  .finally(saveCache);
