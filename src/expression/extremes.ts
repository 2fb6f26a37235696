/**
 * The largest and smallest of a list of numbers. Math.max(...list) passes the list as
 * arguments, and V8 takes about 1e5 of them: the states of a row of 1e5 spheres overflowed the
 * stack ("internal error: Maximum call stack size exceeded"). These loop.
 */

/** The largest value of `values`; `empty` when there is none. */
export function maxOf(values: ArrayLike<number>, empty = -Infinity): number {
  if (values.length === 0) return empty;
  let m = values[0];
  for (let i = 1; i < values.length; i++) if (values[i] > m || values[i] !== values[i]) m = values[i];
  return m;
}

/** The smallest value of `values`; `empty` when there is none. */
export function minOf(values: ArrayLike<number>, empty = Infinity): number {
  if (values.length === 0) return empty;
  let m = values[0];
  for (let i = 1; i < values.length; i++) if (values[i] < m || values[i] !== values[i]) m = values[i];
  return m;
}
