import { defineConfig } from 'tsup';

// The library (ESM + CJS + declarations); the command line; and the sweep worker, which
// worker threads load by path, so it must be its own file in dist/.
export default defineConfig([
  {
    // index runs anywhere (no node: module); node adds what needs Node.js (readModelFile)
    entry: { index: 'src/index.ts', node: 'src/node.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
  },
  {
    // cli.js is the executable: a small launcher that loads cli-bundle.cjs through V8's code
    // cache (see src/cli/launch.ts)
    entry: { cli: 'src/cli/launch.ts', 'sweep-worker': 'src/batch/sweep-worker.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
  },
  {
    // The command line as one CommonJS file, commander included: one script for the code
    // cache. The heavy dependencies (nerdamer, ml-matrix, vega, tinypool) stay outside and
    // load only where a command needs them, as the dynamic imports in the code say.
    entry: { 'cli-bundle': 'src/cli/main.ts' },
    format: ['cjs'],
    splitting: false,
    shims: true,
    noExternal: ['commander'],
    target: 'node20',
  },
  {
    // dist/deltastep.browser.js: the library as one ES module for browsers, every dependency
    // inside but nerdamer: `nerdamer-prime/all` is a stand-in there that answers once
    // src/browser.ts has loaded the real one, dist/deltastep.algebra.js (a model with a
    // nonlinear delta argument only)
    entry: { 'deltastep.browser': 'src/browser.ts' },
    format: ['esm'],
    platform: 'browser',
    noExternal: [/.*/],
    splitting: false,
    minify: true,
    sourcemap: true,
    dts: true,
    target: 'es2022',
    esbuildOptions(options) {
      options.alias = { 'nerdamer-prime/all': './src/browser-nerdamer.ts' };
    },
  },
  {
    entry: { 'deltastep.algebra': 'src/browser-algebra.ts' },
    format: ['esm'],
    platform: 'browser',
    noExternal: [/.*/],
    splitting: false,
    minify: true,
    sourcemap: true,
    target: 'es2022',
  },
]);
