/**
 * The command line's shared flags (CLI.md), validated once at the boundary: every problem is a
 * {@link CliError} (exit code 2) that names the flag, the value and what to write instead.
 */
import type { CompiledModel } from '../codegen/compile.js';
import type { SimulateOptions, LocateMode } from '../driver/index.js';
import { resolveRange } from '../driver/range.js';
import { checkOptions, resolveSettings } from '../driver/settings.js';
import { parseOutputTimes } from './output-times.js';
import { escapeText } from '../expression/terminal-text.js';
import type { MethodName } from '../integrators/stepper.js';

/**
 * The command line is wrong: exit code 2. A message is one line, and what it echoes has its
 * controls written out when it is shown (escape.ts), but a message of `lines` (its echoed
 * parts written out already) keeps its line feeds.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly lines = false,
  ) {
    super(message);
  }
}

export const EXIT = { ok: 0, model: 1, usage: 2, numerics: 3, zeno: 4 } as const;

export interface SharedFlags {
  from?: string;
  to?: string;
  set?: string[];
  init?: string[];
  method?: string;
  rtol?: string;
  atol?: string;
  step?: string;
  firstStep?: string;
  maxStep?: string;
  locate?: string;
  format?: string;
  out?: string;
  plot?: string;
  workers?: string;
  quiet?: boolean;
  outputStep?: string;
  outputTimes?: string;
  eventsOnly?: boolean;
  maxSteps?: string;
  maxEvents?: string;
  maxRows?: string;
  zeno?: string;
}

/**
 * Commander's parser for a flag that takes one value: the same flag twice with two values is a
 * usage error (commander keeps the last one: `--to 5 ... --to 3` ran to 3 without a word, as
 * `--set e=0.5 --set e=0.6` once did); twice with the same value is that value.
 */
export function once(flag: string): (value: string, previous: unknown) => string {
  return (value, previous) => {
    if (typeof previous === 'string' && previous !== value)
      throw new CliError(
        `${flag} is given twice (${flag} ${previous} and ${flag} ${value}); give it once, with the value you mean`,
      );
    return value;
  };
}

/**
 * Commander's parser for a flag whose values add up (`--lower H=0 --lower p1=-2`, `--report y
 * --report "y'"`): joined by `separator`, as if given in one flag, whose own checks then refuse
 * a name given twice. (The last one alone was kept: the first bound was dropped.)
 */
export function joined(separator: string): (value: string, previous: unknown) => string {
  return (value, previous) => (typeof previous === 'string' ? `${previous}${separator}${value}` : value);
}

/** a decimal number as a person writes it: no hexadecimal, no Infinity, no blanks inside */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function parseNumber(flag: string, text: string): number {
  const t = text.trim();
  if (!DECIMAL.test(t))
    throw new CliError(`${flag} needs a decimal number such as 10, 0.5 or 1e-8, got '${escapeText(text)}'`);
  const v = Number(t);
  if (!Number.isFinite(v))
    throw new CliError(`${flag} ${escapeText(text)} is out of the range of double precision numbers`);
  return v;
}

/**
 * `NAME=VALUE` pairs (from --set, or comma-separated in one --init), names kept as written
 * (`y'`); an array element is `NAME[INDEX]` (`v0[3]`, `x[2]'`, `a[2,1]`), its index a whole
 * number, spaces dropped. A rule's held value, `G.held` or `G[2].held`, is a discrete variable
 * that a run from another start needs (--from names it as missing), so it is a name here too.
 */
export function parseAssignments(flag: string, text: string): Map<string, number> {
  const out = new Map<string, number>();
  const written = new Map<string, string>();
  // commas inside an element's brackets (a[2,1]) do not separate pairs
  for (const part of text.split(/,(?![^[\]]*\])/)) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[([^\]]*)\])?\s*(\.held|'*)\s*=\s*(.+?)\s*$/.exec(part);
    if (!m)
      throw new CliError(
        `${flag} '${escapeText(text)}': write NAME=VALUE${flag === '--init' ? ",NAME=VALUE (y' for a derivative)" : ''}, or NAME[INDEX]=VALUE for an element of an array`,
      );
    let name = m[1];
    if (m[2] !== undefined) {
      const indices = m[2].split(',').map((k) => k.trim());
      if (!indices.every((k) => /^-?\d+$/.test(k)))
        throw new CliError(
          `${flag} '${escapeText(part.trim())}': the index of ${m[1]} must be a whole number, as in ${m[1]}[1]`,
        );
      name += `[${indices.map(Number).join(',')}]`;
    }
    name += m[3];
    // (a name given twice would be last-wins, silently)
    const before = written.get(name);
    if (before !== undefined) throw twice(flag, name, before, part.trim());
    written.set(name, part.trim());
    out.set(name, parseNumber(`${flag} ${name}`, m[4]));
  }
  return out;
}

/** A usage error: `flag` gives `name` twice (as `a` and as `b`). */
function twice(flag: string, name: string, a: string, b: string): CliError {
  return new CliError(
    `${flag} gives ${name} twice (${escapeText(a)} and ${escapeText(b)}); give each name one value${flag === '--init' ? ' per --init' : ''}`,
  );
}

/** The --set values of every --set flag together; a name in two of them is a usage error. */
export function parseSets(texts: readonly string[]): Map<string, number> {
  const set = new Map<string, number>();
  const written = new Map<string, string>();
  for (const text of texts)
    for (const [k, v] of parseAssignments('--set', text)) {
      const before = written.get(k);
      if (before !== undefined) throw twice('--set', k, before, `${k}=${v}`);
      written.set(k, `${k}=${v}`);
      set.set(k, v);
    }
  return set;
}

/**
 * The run's options from the flags: numbers parsed here, then every value judged by the same
 * checks as the library's options (driver/settings.ts), whose messages name the flags.
 */
export function simulateOptions(flags: SharedFlags): SimulateOptions {
  const o: SimulateOptions = {};
  const number = (flag: string, text: string | undefined) => (text === undefined ? undefined : parseNumber(flag, text));
  o.from = number('--from', flags.from);
  o.to = number('--to', flags.to);
  if (flags.set?.length) o.set = parseSets(flags.set);
  o.method = flags.method as MethodName | undefined;
  o.rtol = number('--rtol', flags.rtol);
  o.atol = number('--atol', flags.atol);
  o.step = number('--step', flags.step);
  o.firstStep = number('--first-step', flags.firstStep);
  o.maxStep = number('--max-step', flags.maxStep);
  o.locate = flags.locate as LocateMode | undefined;
  o.outputStep = number('--output-step', flags.outputStep);
  if (flags.outputTimes !== undefined) o.outputTimes = parseOutputTimes(flags.outputTimes);
  if (flags.eventsOnly) o.eventsOnly = true;
  o.maxSteps = number('--max-steps', flags.maxSteps);
  o.maxEvents = number('--max-events', flags.maxEvents);
  o.maxRows = number('--max-rows', flags.maxRows);
  o.zeno = flags.zeno as SimulateOptions['zeno'];
  if (flags.out !== undefined && flags.out.trim() === '')
    throw new CliError('--out needs a file name; leave it out to write to the standard output');
  // (undefined: not given; dropped so that the options read as what was asked)
  for (const key of Object.keys(o) as (keyof SimulateOptions)[]) if (o[key] === undefined) delete o[key];
  checkOptions(o, 'flags');
  return o;
}

/**
 * The checks that need the model (a flag against the model's options, --from against where
 * the model states its initial values), before anything runs; the run's warnings (a
 * tolerance raised) come with its result.
 */
export function checkRunOptions(model: CompiledModel, options: SimulateOptions): void {
  const settings = resolveSettings(model, options, 'flags');
  resolveRange(model, model.parameters(settings.set), options, 'flags');
}

/** One option set per --init (or one without). */
export function initRuns(flags: SharedFlags): (Map<string, number> | undefined)[] {
  if (!flags.init?.length) return [undefined];
  return flags.init.map((s) => parseAssignments('--init', s));
}

export function formatFlag(flags: SharedFlags, allowed: readonly string[], fallback: string): string {
  const f = flags.format ?? fallback;
  if (!allowed.includes(f)) throw new CliError(`--format ${escapeText(f)}: write one of ${allowed.join(', ')}`);
  return f;
}

export function workersFlag(flags: SharedFlags, fallback: number): number {
  if (flags.workers === undefined) return fallback;
  const v = parseNumber('--workers', flags.workers);
  if (!Number.isInteger(v) || v < 1)
    throw new CliError(`--workers must be a whole number of at least 1, got ${escapeText(flags.workers)}`);
  return v;
}
