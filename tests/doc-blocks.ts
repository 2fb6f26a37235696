/**
 * Runnable code blocks of the documentation, and the checks of what they show.
 *
 * The convention (README.md and docs/*.md; see tests/docs.test.ts):
 * - a block tagged `ts` or `js` is run: the blocks of one document form one module, in order
 *   (imports shared, each block in its own scope), with `deltastep` and `deltastep/node`
 *   the built package. A line `EXPR; // => VALUE` checks EXPR against VALUE, a JavaScript
 *   value: numbers to the digits shown (half a unit in the last place; whole numbers
 *   exactly), objects by the keys shown;
 * - a block tagged `console` is a terminal session: each `$ deltastep ...` (or
 *   `$ npx deltastep ...`) line runs the built command line, and the lines after it up to
 *   the next `$` are its output (stdout, then stderr), a line `...` standing for any number
 *   of lines and a trailing `   <- note` ignored;
 * - a block tagged `delta` with `file=NAME` in its info string is a model file that the
 *   document's sessions use, written as NAME into the directory they run in (which also
 *   holds the project's examples/ and tests/);
 * - any other block (untagged, `json`, `sh`) is shown, not run.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

export interface Block {
  lang: string;
  info: string;
  body: string;
  /** 1-based line of the opening fence */
  line: number;
}

export function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)(.*)$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    blocks.push({ lang: open[1], info: open[2].trim(), body: body.join('\n'), line: start + 1 });
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------
// Terminal sessions

export interface Session {
  command: string;
  expected: string[];
  line: number;
}

export function sessionsOf(block: Block): Session[] {
  const sessions: Session[] = [];
  block.body.split('\n').forEach((text, k) => {
    if (text.startsWith('$ ')) sessions.push({ command: text.slice(2), expected: [], line: block.line + 1 + k });
    else if (sessions.length > 0) sessions[sessions.length - 1].expected.push(text);
  });
  return sessions;
}

/** Whether `actual` shows what `expected` shows: line by line, `...` for any lines, notes dropped. */
export function outputMatches(expected: readonly string[], actual: string): boolean {
  const trim = (lines: string[]) => {
    while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
    return lines;
  };
  const want = trim(expected.map((l) => l.replace(/\s{2,}<- .*$/, '').trimEnd()));
  const got = trim(actual.split('\n').map((l) => l.trimEnd()));
  const memo = new Map<number, boolean>();
  const match = (i: number, j: number): boolean => {
    const key = i * (got.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let ok: boolean;
    if (i === want.length) ok = j === got.length;
    else if (want[i].trim() === '...') {
      ok = false;
      for (let k = j; k <= got.length && !ok; k++) ok = match(i + 1, k);
    } else ok = j < got.length && want[i] === got[j] && match(i + 1, j + 1);
    memo.set(key, ok);
    return ok;
  };
  return match(0, 0);
}

/**
 * A directory to run a document's sessions in: its model files, links to the project's
 * examples/ and tests/, and `deltastep` and `npx` on the PATH as the built command line.
 */
export function sessionDirectory(root: string, models: readonly Block[]): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'deltastep-docs-'));
  for (const folder of ['examples', 'tests']) symlinkSync(join(root, folder), join(dir, folder));
  for (const m of models) {
    const name = /(?:^|\s)file=(\S+)/.exec(m.info)?.[1];
    if (name) writeFileSync(join(dir, name), `${m.body}\n`);
  }
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  const cli = join(root, 'dist', 'cli.js');
  writeFileSync(join(bin, 'deltastep'), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\n[ "$1" = deltastep ] && shift\nexec "${process.execPath}" "${cli}" "$@"\n`,
  );
  chmodSync(join(bin, 'deltastep'), 0o755);
  chmodSync(join(bin, 'npx'), 0o755);
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, XDG_CACHE_HOME: join(dir, '.cache') };
  return { dir, env };
}

export function runSession(command: string, dir: string, env: NodeJS.ProcessEnv): string {
  const r = spawnSync('sh', ['-c', command], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
  return `${r.stdout}${r.stderr}`;
}

// ---------------------------------------------------------------------------------------
// TypeScript and JavaScript blocks

export interface CheckFailure {
  line: number;
  expression: string;
  expected: string;
  actual: string;
}

/**
 * One module of a document's ts/js blocks: imports hoisted and pointed at the build, each
 * block in its own scope, each `EXPR; // => VALUE` a call of `__docCheck`.
 */
export function moduleOf(blocks: readonly Block[], root: string): string {
  const imports: string[] = [];
  const bodies: string[] = [];
  for (const b of blocks) {
    const lines = b.body.split('\n').map((text, k) => {
      if (/^import\s/.test(text)) {
        imports.push(
          text
            .replace(/(['"])deltastep\/node\1/, `'${pathToFileURL(join(root, 'dist', 'node.js')).href}'`)
            .replace(/(['"])deltastep\1/, `'${pathToFileURL(join(root, 'dist', 'index.js')).href}'`),
        );
        return '';
      }
      const check = /^(\s*)(.+?);?\s*\/\/ => (.*)$/.exec(text);
      if (!check) return text;
      return `${check[1]}__docCheck(${b.line + 1 + k}, ${JSON.stringify(check[2])}, () => (${check[2]}), ${JSON.stringify(check[3])});`;
    });
    bodies.push(`{\n${lines.join('\n')}\n}`);
  }
  const source = `${imports.join('\n')}\nconst __docCheck = globalThis.__docCheck;\n${bodies.join('\n')}\n`;
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}

/** A number shown in the documentation, to be met to its last digit. */
class Shown {
  constructor(readonly text: string) {}
  tolerance(): number {
    const m = /^-?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(this.text)!;
    if (m[2] === undefined && m[3] === undefined) return 0;
    return 0.5 * 10 ** (Number(m[3] ?? 0) - (m[2]?.length ?? 0));
  }
}

/** VALUE of `// => VALUE`, its numbers kept as shown. */
export function shownValue(text: string): unknown {
  // numbers outside string literals become Shown
  const parts = text.split(/("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/);
  const code = parts
    .map((p, i) =>
      i % 2 === 1 ? p : p.replace(/(?<![\w$.])-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/g, (n) => `__shown('${n}')`),
    )
    .join('');
  return new Function('__shown', `return (${code});`)((n: string) => new Shown(n)) as unknown;
}

/** Whether `actual` is what `expected` shows (objects: the keys shown; numbers: the digits shown). */
export function agrees(actual: unknown, expected: unknown): boolean {
  if (expected instanceof Shown)
    return typeof actual === 'number' && Math.abs(actual - Number(expected.text)) <= expected.tolerance();
  if (Array.isArray(expected))
    return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => agrees(actual[i], e));
  if (typeof expected === 'object' && expected !== null)
    return (
      typeof actual === 'object' &&
      actual !== null &&
      Object.entries(expected).every(([k, v]) => agrees((actual as Record<string, unknown>)[k], v))
    );
  return Object.is(actual, expected);
}
