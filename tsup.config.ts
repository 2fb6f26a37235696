import { defineConfig } from 'tsup';

// The library (ESM + CJS + declarations) and the command line with its worker, which
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
    entry: { cli: 'src/cli/main.ts', 'sweep-worker': 'src/cli/sweep-worker.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
  },
]);
