/**
 * Statistics of a reported value over the runs of a Monte Carlo batch, taken as the runs come
 * (one pass, constant memory, whatever the number of runs): count, mean and sum of squared
 * deviations by Welford's update (stable where the naive sum of squares cancels), extremes.
 * The 95% interval of the mean is the normal approximation mean ± Z975·sd/√n; no quantiles
 * are kept. Runs are added in the order of their index, so that a batch gives the same
 * numbers bit for bit whether one thread, many workers or merged shards computed it.
 */
export interface Statistics {
  mean: number;
  sd: number;
  ci95: [number, number];
  min: number;
  max: number;
  n: number;
}

/**
 * The standard normal's 0.975 quantile, sqrt(2) erfinv(0.95) = 1.95996398454005423552...
 * (mpmath, 40 digits), rounded to the nearest double (1.959963984540054, the literal used
 * before, is the double one ulp below). docs/cli.md states this value.
 */
export const Z975 = 1.9599639845400543;

export class StatisticsAccumulator {
  private n = 0;
  private mean = 0;
  private m2 = 0;
  private min = Infinity;
  private max = -Infinity;

  /** Adds one value; a value that is not finite is left out. */
  add(x: number): void {
    if (!Number.isFinite(x)) return;
    this.n++;
    const d = x - this.mean;
    this.mean += d / this.n;
    this.m2 += d * (x - this.mean);
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
  }

  result(): Statistics {
    const n = this.n;
    if (n === 0) return { mean: NaN, sd: NaN, ci95: [NaN, NaN], min: NaN, max: NaN, n };
    // (one value has no sample deviation: 0 would claim the mean exactly known, a 95% interval
    // of zero width; NaN, null in JSON, as SciPy's sem and Python's stdev refuse it)
    const sd = n > 1 ? Math.sqrt(this.m2 / (n - 1)) : NaN;
    const half = (Z975 * sd) / Math.sqrt(n);
    return { mean: this.mean, sd, ci95: [this.mean - half, this.mean + half], min: this.min, max: this.max, n };
  }
}

/**
 * Mean, sample standard deviation (NaN for one value), a normal-approximation 95% interval of
 * the mean, extremes. Non-finite values are left out.
 */
export function statistics(values: readonly number[]): Statistics {
  const acc = new StatisticsAccumulator();
  for (const x of values) acc.add(x);
  return acc.result();
}
