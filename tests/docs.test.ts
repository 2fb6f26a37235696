/**
 * The documentation a user of the package reads stands inside the project: every relative
 * link of README.md, docs/ and examples/README.md resolves to a file of the repository, none
 * points outside it, the runnable API example gives its closed-form numbers, and every
 * runnable block of README.md and docs/ runs and shows today's output. Runnable: blocks
 * tagged `ts` or `js` (a line `EXPR; // => VALUE` checks a value) and `console` (a
 * terminal session, `$ deltastep ...` and its output, `...` for lines left out), with the
 * models of `delta file=NAME` blocks; the details are in tests/doc-blocks.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  agrees,
  blocksOf,
  moduleOf,
  outputMatches,
  runSession,
  sessionDirectory,
  sessionsOf,
  shownValue,
  type CheckFailure,
} from './doc-blocks.js';
import { ROOT, ensureCliBuilt } from './helpers.js';

const documents = [
  'README.md',
  'examples/README.md',
  'bench/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('documentation inside the project', () => {
  it.each(documents)('%s: every relative link resolves inside the repository', (doc) => {
    // (code is not prose: `x[i](0) = 1` in a model is no link)
    const text = readFileSync(join(ROOT, doc), 'utf8')
      .replace(/```[\s\S]*?```/g, '')
      .replace(/`[^`\n]*`/g, '');
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1])
      .filter((l) => !/^(https?:|mailto:|#)/.test(l));
    for (const link of links) {
      const target = resolve(dirname(join(ROOT, doc)), link.split('#')[0]);
      expect(relative(ROOT, target).startsWith('..'), `${doc}: ${link} leaves the repository`).toBe(false);
      expect(existsSync(target), `${doc}: ${link} does not exist`).toBe(true);
    }
  });

  it("no user document sends the reader to the developers' contract directory beside the project", () => {
    for (const doc of ['README.md', 'examples/README.md', ...documents.filter((d) => d.startsWith('docs/'))]) {
      expect(readFileSync(join(ROOT, doc), 'utf8'), doc).not.toMatch(new RegExp(['\\.\\.', 'shar' + 'ed'].join('/')));
    }
  });

  it('docs/examples/api-example.mjs runs and every number it checks is right', () => {
    ensureCliBuilt();
    const r = spawnSync(process.execPath, [join(ROOT, 'docs', 'examples', 'api-example.mjs')], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/FAIL/);
    expect(r.stdout.match(/^ok /gm)?.length).toBe(7);
  });
});

const runnable = ['README.md', ...documents.filter((d) => d.startsWith('docs/'))].map((doc) => ({
  doc,
  blocks: blocksOf(readFileSync(join(ROOT, doc), 'utf8')),
}));

describe('runnable blocks run and show what they print today', () => {
  const withCode = runnable.filter(({ blocks }) => blocks.some((b) => b.lang === 'ts' || b.lang === 'js'));
  it.each(withCode)('$doc: the ts and js blocks run, and every // => holds', async ({ blocks }) => {
    ensureCliBuilt();
    const code = blocks.filter((b) => b.lang === 'ts' || b.lang === 'js');
    const dir = mkdtempSync(join(tmpdir(), 'deltastep-docs-'));
    const file = join(dir, 'blocks.mjs');
    writeFileSync(file, moduleOf(code, ROOT));
    const failures: CheckFailure[] = [];
    let checks = 0;
    (globalThis as { __docCheck?: unknown }).__docCheck = (
      line: number,
      expression: string,
      value: () => unknown,
      expected: string,
    ) => {
      checks++;
      const actual = value();
      if (!agrees(actual, shownValue(expected)))
        failures.push({ line, expression, expected, actual: JSON.stringify(actual) });
    };
    try {
      await import(pathToFileURL(file).href);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(failures).toEqual([]);
    expect(checks).toBeGreaterThan(0);
  });

  const withSessions = runnable.filter(({ blocks }) => blocks.some((b) => b.lang === 'console'));
  it.each(withSessions)('$doc: every console session prints what it shows', ({ blocks }) => {
    ensureCliBuilt();
    const { dir, env } = sessionDirectory(
      ROOT,
      blocks.filter((b) => b.lang === 'delta'),
    );
    try {
      for (const block of blocks.filter((b) => b.lang === 'console'))
        for (const session of sessionsOf(block)) {
          const output = runSession(session.command, dir, env);
          expect(outputMatches(session.expected, output), `line ${session.line}: $ ${session.command}\n${output}`).toBe(
            true,
          );
        }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the conventions themselves: wildcard lines, notes, digits shown, keys shown', () => {
    expect(outputMatches(['a', '...', 'd   <- a note'], 'a\nb\nc\nd\n')).toBe(true);
    expect(outputMatches(['a', 'd'], 'a\nb\nd')).toBe(false);
    expect(outputMatches(['a', '...'], 'a')).toBe(true);
    expect(agrees(-1.5136049906, shownValue('-1.51360499'))).toBe(true);
    expect(agrees(-1.51361, shownValue('-1.51360499'))).toBe(false);
    expect(agrees(2.0000001, shownValue('2'))).toBe(false);
    expect(agrees({ t: 1, name: 'x', extra: 3 }, shownValue("{ t: 1, name: 'x' }"))).toBe(true);
    expect(agrees({ t: 1, name: 'y' }, shownValue("{ t: 1, name: 'x' }"))).toBe(false);
    expect(agrees([1, 2], shownValue('[1, 2.0]'))).toBe(true);
  });
});
