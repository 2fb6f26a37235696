// What the scripts of bench/stiff share: the library (as built, or bundled from src/ for this
// run), and order statistics.
import { existsSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url);
const DIST = new URL('dist/index.js', ROOT);
// (under node_modules/, where neither git nor the linters look, and whence the bundle's
// dependencies resolve)
const FROM_SOURCE = new URL('node_modules/.cache/deltastep-bench/stiff.js', ROOT);

/** dist/index.js, or a message and exit 1 when it has not been built */
export async function loadDist() {
  if (!existsSync(DIST)) {
    console.error('bench/stiff: dist/index.js is missing; run `npm run build` first');
    process.exit(1);
  }
  return import(DIST.href);
}

/**
 * The library bundled from src/ as it is now, by esbuild (the bundler tsup runs for dist/,
 * same target), into node_modules/.cache/: the run measures the working tree, whatever dist/
 * holds, and does not rebuild dist/ under other work in the same checkout.
 */
export async function loadFromSource() {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [new URL('src/index.ts', ROOT).pathname],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: FROM_SOURCE.pathname,
    logLevel: 'warning',
  });
  return import(FROM_SOURCE.href);
}

/** the q-quantile of xs, interpolated between order statistics (q = 0.5: the median) */
export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  const x = q * (s.length - 1),
    lo = Math.floor(x),
    hi = Math.ceil(x);
  return s[lo] + (s[hi] - s[lo]) * (x - lo);
}

export const median = (xs) => quantile(xs, 0.5);
