/**
 * The 813 runs of a reset at a zero located at the instant (helper 20's find): x = v t
 * reaches th at t1 = th/v, where e0 (x - th crosses) turns it back and sends e2 (x - th
 * falls) across; e2 moves x to th + 0.5, a reset after which e0 does not fire again, and x
 * falls back to th at t2 = t1 + 0.5/v, where both fire from the values before. Shared by
 * tests/round3-analytic.test.ts (the analytic path) and tests/round3-driver.test.ts (the
 * steppers).
 */
import { expect } from 'vitest';
import { compileModel, Simulator, type SimulateOptions } from '../src/index.js';

export const RESIDUE_MODEL = `independent t from 0 to 5
parameter v = 0.1, th = 0.3
discrete n = 0
event e0 when x - th crosses do n := n + 1; x' := -x' end
event e2 when x - th falls do x := x + 0.5 end
x'' = 0
x(0) = 0; x'(0) = v
`;

/**
 * Runs the grid v, th in {0.1, ..., 3} (crossings near the end of the range left out) and
 * checks each against the closed form to `tolerance`; returns how many ran (813).
 */
export function residueRuns(options: SimulateOptions, tolerance: number): number {
  const sim = new Simulator(compileModel(RESIDUE_MODEL));
  let runs = 0;
  for (let a = 1; a <= 30; a++)
    for (let b = 1; b <= 30; b++) {
      const v = a / 10,
        th = b / 10;
      const t1 = th / v,
        t2 = t1 + 0.5 / v;
      if (t1 >= 4.9 || Math.abs(t2 - 5) < 0.01) continue;
      const r = sim.run({ ...options, set: { v, th }, record: false, eventValues: false });
      expect(r.status).toBe('ok');
      if (t2 < 5) {
        expect(r.final.n).toBe(2);
        expect(Math.abs(r.final.x - (th + 0.5 + v * (5 - t2)))).toBeLessThan(tolerance);
      } else {
        expect(r.final.n).toBe(1);
        expect(Math.abs(r.final.x - (th + 0.5 - v * (5 - t1)))).toBeLessThan(tolerance);
      }
      runs++;
    }
  return runs;
}
