/**
 * Round 14, the steppers' dense output at its rounding: a continuous extension that is exact
 * in exact arithmetic where f is constant (every one here is) gives that motion to a few ulps,
 * whatever its coefficients' rounding.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

describe("dop853's dense output where f is constant", () => {
  // x' = -9.81 from 14: x = 14 - 9.81 t, every step's stages equal, and rows inside the steps
  // of [0, 3] read from the extension. Its rows of d sum to zero exactly, and to up to 5e-14
  // in doubles (they reach 528 in size): summed with the stages as they stand, the rows were
  // off by 2.7e-14 (15 ulps of 14), and a ball's velocity read at each bounce lost 4e-13, the
  // same at every flight (round12-stiff, the elastic ball). Taken as differences from the
  // first stage, a constant f adds nothing to them.
  const times = [0.3, 0.7, 1.1, 1.7, 2.3, 2.9];
  it('x = 14 - 9.81 t at rows inside its steps to 4 ulps of 14', () => {
    const r = simulate(`independent t from 0 to 3\nx' = -9.81\nx(0) = 14`, {
      method: 'dop853',
      rtol: 1e-10,
      atol: 1e-14,
      outputTimes: times,
    });
    expect(r.rows.map((row) => row[0])).toEqual(times);
    // (the steps are longer than the rows' spacing: the rows are the extension's)
    expect(r.stats.steps).toBeLessThan(2 * times.length);
    const ulp14 = 2 ** -49;
    for (const [t, x] of r.rows) expect(Math.abs(x - (14 - 9.81 * t)), `t = ${t}`).toBeLessThanOrEqual(4 * ulp14);
  });
});
