/**
 * The samples of one watched function inside an accepted step (crossings.ts scans them for
 * its first crossing). Step ends alone miss a function that turns back inside the step
 * (scipy#9228): so the step's midpoint is sampled too, and where the cubic Hermite model
 * built from the values and rates at the ends disagrees with a sample, the interval is halved
 * (to depth MAX_REFINE). Preallocated: no allocation per step.
 */

import type { Stepper } from '../integrators/stepper.js';
import type { Workspace } from './workspace.js';

/**
 * Watched function k on the dense output of the stepper's last step, at its local time s,
 * with y as scratch for the states the function reads (the crossings and their noise ask it).
 */
export function valueOnStep(ws: Workspace, stepper: Stepper, k: number, s: number, y: Float64Array): number {
  const m = ws.model;
  stepper.interpolateSome(s, m.watchStates[k], y);
  return m.watchOne[k](ws.origin.abs(s), y, ws.p, ws.d, ws.sw);
}

/** halvings of a step when sampling watched functions: at most 2^MAX_REFINE pieces */
export const MAX_REFINE = 6;
/**
 * Halvings where a piece the model still fails on could reach zero: its unresolved part, or
 * its rates times its length, as large as the function's distance from zero there. A function quiet for a while, whose steps
 * grew long, that then turns fast (sin(1000 t) from t = 1 on) has dozens of periods in one
 * step; 64 pieces for 50 periods lost crossings (429 of 437, status ok), and a crossing found
 * in a later piece is not the first.
 */
export const MAX_REFINE_NEAR_ZERO = 12;

/** The watched function being sampled: its value at s, and its rate there (read after the value). */
export interface SampledFunction {
  at(s: number): number;
  readonly rate: number;
  /**
   * the rounding of its rate at s, and of the rate the cubic through a piece h long infers
   * from its values there (a miss within it says nothing)
   */
  rateNoise(s: number, h: number): number;
}

export class StepSamples {
  // (room for MAX_REFINE; grown, up to MAX_REFINE_NEAR_ZERO's, by a step that needs it: a
  // Simulator is made per run, and 200 KB zeroed for each was most of a short run's set-up)
  t = new Float64Array(2 ** (MAX_REFINE + 1) + 2);
  g = new Float64Array(2 ** (MAX_REFINE + 1) + 2);
  r = new Float64Array(2 ** (MAX_REFINE + 1) + 2);
  /** how many samples are held */
  n = 0;

  clear(): void {
    this.n = 0;
  }

  push(t: number, g: number, r: number): void {
    if (this.n === this.t.length) this.grow();
    this.t[this.n] = t;
    this.g[this.n] = g;
    this.r[this.n] = r;
    this.n++;
  }

  private grow(): void {
    const size = Math.min(2 * this.t.length, 2 ** (MAX_REFINE_NEAR_ZERO + 1) + 2);
    const t = new Float64Array(size),
      g = new Float64Array(size),
      r = new Float64Array(size);
    t.set(this.t);
    g.set(this.g);
    r.set(this.r);
    this.t = t;
    this.g = g;
    this.r = r;
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
    // (near zero: closer than the unresolved part, or than its rates carry it across the
    // piece: samples that alias a fast oscillation can agree with the model by chance)
    const miss = Math.abs(gm - predicted);
    const near = Math.min(Math.abs(ga), Math.abs(gb), Math.abs(gm));
    const reach = Math.abs(h) * Math.max(Math.abs(ra), Math.abs(rb), Math.abs(rm));
    const limit = miss >= near || reach >= near ? MAX_REFINE_NEAR_ZERO : MAX_REFINE;
    // The rate at the midpoint too, against the cubic's there, over an eighth of the piece:
    // samples one or two periods apart of tan(10 x), starting at a zero, are 0, 1e-15 and
    // 3e-15 with a rate of 10 at all three, which the values fit, while the cubic's rate at the
    // midpoint is -5; two poles and two crossings hid between them. (A smooth function's
    // cubic misses its rate at the midpoint by O(h^4) only: its error is symmetric there.)
    // (A miss within the rounding is none: x - 0.5 t along x' = 0.5 sits at zero with values
    // of 1e-20 that are rounding, and halving its step found noise to count as crossings.)
    const rateMiss = Math.abs(rm - (1.5 * (gb - ga)) / h + 0.25 * (ra + rb));
    const rateMissed = (rateMiss * Math.abs(h)) / 8 > 0.05 * scale && rateMiss > 16 * f.rateNoise(tm, h);
    const resolved = !(miss > 0.05 * scale || rateMissed) || depth >= limit || ra !== ra;
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
