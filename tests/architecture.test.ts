/**
 * The folders of src/ are the pipeline, bottom to top; a file may import only from its own
 * folder or from folders below it, so the list can be read in order and no two folders
 * depend on each other. The entries at the top of src/ (index.ts, node.ts) may import anything.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The pipeline, bottom to top (README.md, "Architecture"). */
export const LAYERS = [
  'expression', // expression trees, their algebra, evaluation, the model error type
  'language', // text to ModelAst: lexer, parser, arrays written out, while rules
  'analysis', // names, states and orders, conditions, dependency order
  'transform', // the delta rules and the u-plus-step form: the printable first-order system
  'structure', // components, their closed forms, clock groups, what events read and write
  'codegen', // the first-order system compiled to JavaScript; the stage entry points
  'report', // every form as text, LaTeX and JSON
  'integrators', // one Stepper contract, one file per family
  'driver', // the hybrid driver: events, firing, arming, switching, contacts, Zeno, output
  'analytic', // the analytic path: closed-form segments on local clocks, certified roots, an event calendar
  'shooting', // Newton shooting for boundary value problems
  'batch', // sweeps and Monte Carlo: values, reports, chunks, statistics, worker threads
  'files', // reading model files from disk (Node.js)
  'cli', // the command line
] as const;

const SRC = resolve(__dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The folder of src/ that holds a file ('' for the entries at the top). */
function layerOf(file: string): string {
  const rel = relative(SRC, file).split(/[\\/]/);
  return rel.length > 1 ? rel[0] : '';
}

/** Every relative import of a file (static, type-only, re-exports and import()), resolved. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|^import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)].map((m) => m[1]);
  return specs.map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
}

const files = sourceFiles(SRC);

describe('architecture: the folders of src/ are the pipeline', () => {
  it('every folder of src/ is in the list, and every listed folder exists', () => {
    const folders = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
    expect([...folders].sort()).toEqual([...LAYERS].sort());
  });

  it("the README's architecture table lists the folders in the pipeline's order", () => {
    const readme = readFileSync(resolve(__dirname, '../README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `src\/([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(rows).toEqual([...LAYERS]);
  });

  it('every relative import resolves to a file', () => {
    const missing = files.flatMap((f) =>
      importsOf(f)
        .filter((t) => !files.includes(t))
        .map((t) => `${relative(SRC, f)} -> ${relative(SRC, t)}`),
    );
    expect(missing).toEqual([]);
  });

  it('no file imports from a folder above its own', () => {
    const rank = (layer: string) => (layer === '' ? LAYERS.length : LAYERS.indexOf(layer as (typeof LAYERS)[number]));
    const upward: string[] = [];
    for (const f of files) {
      for (const t of importsOf(f)) {
        if (rank(layerOf(t)) > rank(layerOf(f))) upward.push(`${relative(SRC, f)} imports ${relative(SRC, t)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('no cycle between folders', () => {
    const edges = new Map<string, Set<string>>();
    for (const f of files) {
      for (const t of importsOf(f)) {
        const a = layerOf(f),
          b = layerOf(t);
        if (a !== b) (edges.get(a) ?? edges.set(a, new Set()).get(a)!).add(b);
      }
    }
    // depth-first search for a back edge
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (node: string, path: string[]): void => {
      state.set(node, 'open');
      for (const next of edges.get(node) ?? []) {
        if (state.get(next) === 'open') cycles.push([...path, node, next].join(' -> '));
        else if (!state.has(next)) visit(next, [...path, node]);
      }
      state.set(node, 'done');
    };
    for (const node of edges.keys()) if (!state.has(node)) visit(node, []);
    expect(cycles).toEqual([]);
  });

  it('the checker sees an upward import when there is one', () => {
    // a guard on the guard: the parser of import lines finds what the rules are about
    const driver = files.find((f) => f.endsWith('driver/simulator.ts'))!;
    expect(importsOf(driver).some((t) => layerOf(t) === 'integrators')).toBe(true);
  });
});
