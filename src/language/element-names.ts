/**
 * The names of array elements, and how messages show them: `x[3]`, `a[2,1]`; an array's
 * elements as a range (`x[1] to x[64]`) or the first few; names listed with arrays folded;
 * why a name given from outside (`--set`, `--init`, an API map) is none of the model's.
 */
import { didYouMean as didYouMeanOf } from '../expression/suggest.js';

/** The name of an element: `x[3]`, `a[2,1]`. */
export function elementName(base: string, indices: readonly number[]): string {
  return `${base}[${indices.join(',')}]`;
}

export function compareTuples(a: readonly number[], b: readonly number[]): number {
  for (let k = 0; k < Math.min(a.length, b.length); k++) if (a[k] !== b[k]) return a[k] - b[k];
  return a.length - b.length;
}

/** `its elements are x[1] to x[64]` (one index, contiguous) or the first few. */
export function describeElements(base: string, tuples: readonly number[][]): string {
  const sorted = [...tuples].sort(compareTuples);
  const first = elementName(base, sorted[0]);
  const last = elementName(base, sorted[sorted.length - 1]);
  if (sorted.length === 1) return `its only element is ${first}`;
  const oneIndex = sorted.every((t) => t.length === 1);
  if (oneIndex && sorted[sorted.length - 1][0] - sorted[0][0] === sorted.length - 1)
    return `its elements are ${first} to ${last}`;
  const shown = sorted
    .slice(0, 4)
    .map((t) => elementName(base, t))
    .join(', ');
  return `its elements are ${shown}${sorted.length > 4 ? `, ... ${last} (${sorted.length} in all)` : ''}`;
}

/**
 * Names listed for a message, each array in one entry where its first element stands:
 * `N, m, v0[1] to v0[64], x[1] to x[64], x[1]' to x[64]'` (elements with one index and the
 * same primes; a run without gaps as `first to last`, otherwise every element).
 */
export function compactNames(names: readonly string[]): string {
  const groups = new Map<string, { base: string; primes: string; indices: number[] }>();
  const order: string[] = [];
  for (const n of names) {
    const m = /^([A-Za-z_]\w*)\[(-?\d+)\]('*)$/.exec(n);
    if (!m) {
      order.push(n);
      continue;
    }
    const key = `\0${m[1]}[${m[3]}`;
    let g = groups.get(key);
    if (!g) {
      g = { base: m[1], primes: m[3], indices: [] };
      groups.set(key, g);
      order.push(key);
    }
    g.indices.push(Number(m[2]));
  }
  return order
    .map((o) => {
      const g = groups.get(o);
      if (!g) return o;
      const name = (k: number) => `${elementName(g.base, [k])}${g.primes}`;
      const sorted = [...new Set(g.indices)].sort((a, b) => a - b);
      const run = sorted.length === g.indices.length && sorted[sorted.length - 1] - sorted[0] === sorted.length - 1;
      return run && sorted.length > 2
        ? `${name(sorted[0])} to ${name(sorted[sorted.length - 1])}`
        : g.indices.map(name).join(', ');
    })
    .join(', ');
}

/**
 * Why `key` (from `--set`, `--init` or an API map) is none of `names`, for a message that
 * begins with `'key'` and the given `prefix` (' in --init' or ''): an index past the array's
 * elements, an index on a name that is not an array, an array named without an index, or an
 * unknown name (with a did-you-mean and the names, arrays folded).
 */
export function missingNameMessage(
  key: string,
  names: readonly string[],
  what: string,
  listed: string,
  prefix = '',
): string {
  const written = key.replace(/\s+/g, '');
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[([^\]]*)\])?('*)$/.exec(written);
  if (m && !names.includes(written)) {
    const [, base, index, primes] = m;
    // the elements of `base` with as many primes (x[2]' for --init x[2]'=...)
    const tuples: number[][] = [];
    const plain: string[] = [];
    for (const n of names) {
      const e = /^([A-Za-z_][A-Za-z0-9_]*)\[([-\d,]+)\]('*)$/.exec(n);
      if (e && e[1] === base && e[3] === primes) {
        tuples.push(e[2].split(',').map(Number));
        plain.push(n);
      }
    }
    if (index !== undefined && tuples.length > 0) {
      return `'${key}'${prefix} is not an element of ${base}: ${describeElements(base, tuples)}`;
    }
    if (index !== undefined && names.includes(`${base}${primes}`)) {
      return `'${key}'${prefix}: ${base} is not an array; write ${base}${primes}=VALUE`;
    }
    if (index === undefined && tuples.length > 0) {
      return `'${key}'${prefix}: ${base} is an array; name one element, as in ${plain[0]}=VALUE (its elements are ${compactNames(plain)})`;
    }
  }
  return `'${key}'${prefix} is not ${what}${didYouMeanOf(key, names)}; ${listed}: ${compactNames(names) || '(none)'}`;
}
