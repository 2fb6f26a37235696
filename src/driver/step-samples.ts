/**
 * The samples of one watched function inside an accepted step (crossings.ts scans them for
 * its first crossing). Step ends alone miss a function that turns back inside the step
 * (scipy#9228): so the step's midpoint is sampled too, and where the cubic Hermite model
 * built from the values and rates at the ends disagrees with a sample, the interval is halved
 * (to depth MAX_REFINE). Preallocated: no allocation per step.
 */

/** halvings of a step when sampling watched functions: at most 2^MAX_REFINE pieces */
export const MAX_REFINE = 6;

/** The watched function being sampled: its value at s, and its rate there (read after the value). */
export interface SampledFunction {
  at(s: number): number;
  readonly rate: number;
}

export class StepSamples {
  readonly t = new Float64Array(2 ** (MAX_REFINE + 1) + 2);
  readonly g = new Float64Array(2 ** (MAX_REFINE + 1) + 2);
  readonly r = new Float64Array(2 ** (MAX_REFINE + 1) + 2);
  /** how many samples are held */
  n = 0;

  clear(): void {
    this.n = 0;
  }

  push(t: number, g: number, r: number): void {
    this.t[this.n] = t;
    this.g[this.n] = g;
    this.r[this.n] = r;
    this.n++;
  }

  /** Appends the samples of (ta, tb] (tm its midpoint), halving where the Hermite model fails. */
  refine(
    f: SampledFunction,
    ta: number,
    ga: number,
    ra: number,
    tm: number,
    gm: number,
    rm: number,
    tb: number,
    gb: number,
    rb: number,
    depth: number,
  ): void {
    const h = tb - ta;
    const predicted = 0.5 * (ga + gb) + (h * (ra - rb)) / 8;
    const scale = Math.max(Math.abs(ga), Math.abs(gb), Math.abs(gm));
    const resolved = !(Math.abs(gm - predicted) > 0.05 * scale) || depth >= MAX_REFINE || ra !== ra;
    if (resolved) {
      this.push(tm, gm, rm);
      this.push(tb, gb, rb);
      return;
    }
    const t1 = ta + 0.5 * (tm - ta),
      t2 = tm + 0.5 * (tb - tm);
    const g1 = f.at(t1),
      r1 = f.rate;
    this.refine(f, ta, ga, ra, t1, g1, r1, tm, gm, rm, depth + 1);
    const g2 = f.at(t2),
      r2 = f.rate;
    this.refine(f, tm, gm, rm, t2, g2, r2, tb, gb, rb, depth + 1);
  }
}
