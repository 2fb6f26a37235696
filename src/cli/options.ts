/**
 * The command line's shared flags (CLI.md), validated once at the boundary: every problem is a
 * {@link CliError} (exit code 2) that names the flag, the value and what to write instead.
 */
import type { SimulateOptions, LocateMode } from '../numeric/simulate.js';
import type { MethodName } from '../numeric/stepper.js';
import { METHODS } from '../numeric/steppers.js';

/** The command line is wrong: exit code 2. */
export class CliError extends Error {}

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
  locate?: string;
  format?: string;
  out?: string;
  plot?: string;
  workers?: string;
  quiet?: boolean;
}

export function parseNumber(flag: string, text: string): number {
  const v = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(v)) throw new CliError(`${flag} needs a number, got '${text}'`);
  return v;
}

function positive(flag: string, text: string): number {
  const v = parseNumber(flag, text);
  if (!(v > 0)) throw new CliError(`${flag} must be positive, got ${text}`);
  return v;
}

/** `NAME=VALUE` pairs (from --set, or comma-separated in one --init), names kept as written (`y'`). */
export function parseAssignments(flag: string, text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of text.split(',')) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*'*)\s*=\s*(.+?)\s*$/.exec(part);
    if (!m) throw new CliError(`${flag} '${text}': write NAME=VALUE${flag === '--init' ? ",NAME=VALUE (y' for a derivative)" : ''}`);
    out.set(m[1], parseNumber(`${flag} ${m[1]}`, m[2]));
  }
  return out;
}

export function simulateOptions(flags: SharedFlags): SimulateOptions {
  const o: SimulateOptions = {};
  if (flags.from !== undefined) o.from = parseNumber('--from', flags.from);
  if (flags.to !== undefined) o.to = parseNumber('--to', flags.to);
  if (flags.set?.length) {
    const set = new Map<string, number>();
    for (const s of flags.set) for (const [k, v] of parseAssignments('--set', s)) set.set(k, v);
    o.set = set;
  }
  if (flags.method !== undefined) {
    if (!(METHODS as readonly string[]).includes(flags.method)) throw new CliError(`--method ${flags.method}: the methods are ${METHODS.join(', ')}`);
    o.method = flags.method as MethodName;
  }
  if (flags.rtol !== undefined) o.rtol = positive('--rtol', flags.rtol);
  if (flags.atol !== undefined) o.atol = positive('--atol', flags.atol);
  if (flags.step !== undefined) o.step = positive('--step', flags.step);
  if (flags.locate !== undefined) {
    if (!['exact', 'before', 'after'].includes(flags.locate)) throw new CliError(`--locate ${flags.locate}: write exact, before or after`);
    o.locate = flags.locate as LocateMode;
  }
  return o;
}

/** One option set per --init (or one without). */
export function initRuns(flags: SharedFlags): (Map<string, number> | undefined)[] {
  if (!flags.init?.length) return [undefined];
  return flags.init.map((s) => parseAssignments('--init', s));
}

export function formatFlag(flags: SharedFlags, allowed: readonly string[], fallback: string): string {
  const f = flags.format ?? fallback;
  if (!allowed.includes(f)) throw new CliError(`--format ${f}: write one of ${allowed.join(', ')}`);
  return f;
}

export function workersFlag(flags: SharedFlags, fallback: number): number {
  if (flags.workers === undefined) return fallback;
  const v = parseNumber('--workers', flags.workers);
  if (!Number.isInteger(v) || v < 1) throw new CliError(`--workers must be a whole number of at least 1, got ${flags.workers}`);
  return v;
}
