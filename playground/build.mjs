// Builds the playground into one self-contained HTML file, dist/playground/index.html: the
// page's script, the worker's script (the library inside: src/index.ts through worker.ts),
// the styles and KaTeX's fonts (woff2, as data: URLs) all inline, so that it opens from
// file:// and from any static server without fetching anything.
//
//   node playground/build.mjs            (npm run build runs it after tsup)
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/** The examples shown first in the menu, with their titles; the others follow by file name. */
const FEATURED = [
  ['bouncing_ball.delta', 'Bouncing ball: a Zeno accumulation'],
  ['rope.delta', "Hohmann's rope with a point load (shoot)"],
  ['c12_task_a.delta', 'ARGESIM C12: four spheres in a row'],
  ['c12_task_b.delta', 'ARGESIM C12 b: relative coordinates'],
  ['iderk_553.delta', 'IDERKSolve 5.5.3: a wall and a brake'],
  ['iderk_554.delta', 'IDERKSolve 5.5.4: impulses where sin(pi t) = 0'],
];

/** examples/*.delta as { file, title, text }: featured first, then by file name (titled by their model). */
export function readExamples() {
  const dir = join(root, 'examples');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.delta'))
    .sort();
  const titled = new Map(FEATURED);
  const order = [...FEATURED.map(([f]) => f).filter((f) => files.includes(f)), ...files.filter((f) => !titled.has(f))];
  return order.map((file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const model = /^model\s+(\w+)/m.exec(text)?.[1];
    return { file, title: titled.get(file) ?? `${model ?? file} (${file})`, text };
  });
}

const examplesPlugin = {
  name: 'examples',
  setup(b) {
    b.onResolve({ filter: /^virtual:examples$/ }, (a) => ({ path: a.path, namespace: 'examples' }));
    b.onLoad({ filter: /.*/, namespace: 'examples' }, () => ({
      contents: JSON.stringify(readExamples()),
      loader: 'json',
    }));
  },
};

/**
 * The language's words for the editor's highlighting, from the library's entry (built by
 * tsup before this runs): the page's own script then carries no library code at all (the
 * worker does), where importing src/index.ts would bring the whole library and nerdamer.
 */
const languagePlugin = {
  name: 'language',
  setup(b) {
    b.onResolve({ filter: /^virtual:language$/ }, (a) => ({ path: a.path, namespace: 'language' }));
    b.onLoad({ filter: /.*/, namespace: 'language' }, async () => {
      const lib = await import(pathToFileURL(join(root, 'dist', 'index.js')).href);
      if (!lib.KEYWORDS || !lib.BUILTIN_FUNCTIONS) throw new Error('dist/index.js is out of date: run tsup first');
      const words = { keywords: [...lib.KEYWORDS], functions: Object.keys(lib.BUILTIN_FUNCTIONS) };
      return { contents: JSON.stringify(words), loader: 'json' };
    });
  },
};

async function bundle(entry, plugins = []) {
  const result = await build({
    entryPoints: [join(here, entry)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    plugins,
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

/** KaTeX's stylesheet with its fonts inline: woff2 only (every browser that runs the page reads it). */
function katexCss() {
  const dir = join(root, 'node_modules', 'katex', 'dist');
  const css = readFileSync(join(dir, 'katex.min.css'), 'utf8');
  return css.replace(/src:([^;}]*)/g, (_, sources) => {
    const woff2 = /url\((fonts\/[^)]+\.woff2)\)/.exec(sources);
    if (!woff2) throw new Error(`katex.min.css: a font without woff2: ${sources}`);
    const data = readFileSync(join(dir, woff2[1])).toString('base64');
    return `src:url(data:font/woff2;base64,${data}) format("woff2")`;
  });
}

/**
 * Script text for inside <script>: `</script` and `<!--` would end or confuse the element.
 * They can only occur in strings, regular expressions and comments of the minified code,
 * where `<\/` and `\x3C!--` read the same.
 */
function inlineScript(code) {
  return code.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '\\x3C!--');
}

/** Writes dist/playground/index.html (or into `outDir`); returns its size and the parts'. */
export async function buildPlayground(outDir = join(root, 'dist', 'playground')) {
  const [worker, main] = await Promise.all([bundle('worker.ts'), bundle('main.ts', [examplesPlugin, languagePlugin])]);
  const style = [katexCss(), ...['style.css', 'results.css'].map((f) => readFileSync(join(here, f), 'utf8'))].join(
    '\n',
  );
  const parts = {
    '/*STYLE*/': style.replace(/<\/style/gi, '<\\/style'),
    '/*WORKER*/': inlineScript(worker),
    '/*SCRIPT*/': inlineScript(main),
  };
  let html = readFileSync(join(here, 'index.html'), 'utf8');
  for (const [mark, text] of Object.entries(parts)) {
    const [before, after, ...rest] = html.split(mark);
    if (after === undefined || rest.length) throw new Error(`index.html must hold ${mark} once`);
    html = before + text + after;
  }
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'index.html');
  writeFileSync(file, html);
  const kb = (s) => Math.round(Buffer.byteLength(s) / 1024);
  return {
    file,
    kb: kb(html),
    gzipKb: Math.round(gzipSync(html).length / 1024),
    parts: { worker: kb(worker), page: kb(main), style: kb(style) },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await buildPlayground(process.argv[2]);
  console.log(
    `playground: ${r.file} (${r.kb} KB, ${r.gzipKb} KB gzipped; worker ${r.parts.worker} KB, page ${r.parts.page} KB, styles and fonts ${r.parts.style} KB)`,
  );
  // the browser module (tsup wrote it just before): what a page loads, as docs/playground.md reports it
  for (const name of ['deltastep.browser.js', 'deltastep.algebra.js']) {
    const path = join(root, 'dist', name);
    if (!existsSync(path)) continue;
    const code = readFileSync(path);
    console.log(
      `browser module: dist/${name} (${Math.round(code.length / 1024)} KB, ${Math.round(gzipSync(code).length / 1024)} KB gzipped)`,
    );
  }
}
