/** Statistics of a reported value over the runs of a Monte Carlo batch. */
export interface Statistics {
  mean: number;
  sd: number;
  ci95: [number, number];
  min: number;
  max: number;
  n: number;
}

/** Mean, sample standard deviation, a normal-approximation 95% interval of the mean, extremes. Non-finite values are left out. */
export function statistics(values: readonly number[]): Statistics {
  const xs = values.filter(Number.isFinite);
  const n = xs.length;
  if (n === 0) return { mean: NaN, sd: NaN, ci95: [NaN, NaN], min: NaN, max: NaN, n };
  // Loops, not Math.min(...xs): a spread of a million samples overflows the stack.
  let mean = 0,
    min = Infinity,
    max = -Infinity;
  for (const x of xs) {
    mean += x;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  mean /= n;
  let ss = 0;
  for (const x of xs) ss += (x - mean) ** 2;
  const sd = n > 1 ? Math.sqrt(ss / (n - 1)) : 0;
  const half = (1.959963984540054 * sd) / Math.sqrt(n);
  return { mean, sd, ci95: [mean - half, mean + half], min, max, n };
}
