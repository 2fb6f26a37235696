/**
 * The documentation a user of the package reads stands inside the project: every relative
 * link of README.md, docs/ and examples/README.md resolves to a file of the repository, none
 * points outside it, and the runnable API example gives its closed-form numbers.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
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
