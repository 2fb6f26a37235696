// What the scripts of bench/stiff share: the library as built, and order statistics.
import { existsSync } from 'node:fs';

const DIST = new URL('../../dist/index.js', import.meta.url);

/** dist/index.js, or a message and exit 1 when it has not been built */
export async function loadDist() {
  if (!existsSync(DIST)) {
    console.error('bench/stiff: dist/index.js is missing; run `npm run build` first');
    process.exit(1);
  }
  return import(DIST.href);
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
