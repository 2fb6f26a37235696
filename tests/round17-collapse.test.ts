/**
 * Round 17: "its zero was located here, by its value" (round 16) must not take a function that
 * sits within its rounding of zero only because the arithmetic cannot tell, in an inelastic
 * collapse written in absolute positions.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileModel, simulate, Simulator, type SimulateOptions } from '../src/index.js';

const EXAMPLES = new URL('../examples/', import.meta.url);
const example = (file: string) => readFileSync(new URL(file, EXAMPLES), 'utf8');

describe('C12 in absolute positions near the critical e, with rows and ledger values', () => {
  // Exact counts (rational arithmetic, tests/fixtures/lead/c12_exact_counts.py): 1263 at e =
  // 0.1715763, 115 at 0.172. In absolute positions the gaps fall below the rounding of x (about
  // 1.4e-14 at x = 3) near t = 9.85, and the run must say "precision ran out". With rows or
  // ledger values (the command line's default), the analytic path lends every output group at
  // each instant, and LocatedResidues.located then read x3 - x4 (within its rounding, at a rate
  // of 1e-11) as "at the zero c12's location found": event iteration fired the collapse at one
  // instant, c12, c23, c12 + c34, ..., until the velocities agreed to rounding, and ended ok with
  // n = 64 (e = 0.1715763) and 63 (e = 0.172), status ok. Without rows it said "precision ran
  // out" (events-core.test.ts), as the steppers do.
  const sim = new Simulator(compileModel(example('c12_task_a.delta')));
  const options: SimulateOptions[] = [
    {},
    { record: false },
    { eventValues: false },
    { record: false, eventValues: false },
  ];
  for (const [e, n] of [
    [0.1715763, 1263],
    [0.172, 115],
  ])
    for (const o of options)
      it(`e = ${e}, ${JSON.stringify(o)}: precision ran out, never ok with a wrong count`, () => {
        const run = sim.run({ ...o, set: { e } });
        expect(run.stats.method).toBe('analytic');
        expect(run.status).toBe('failed');
        expect(run.message).toMatch(
          /^precision ran out at t = [\d.]+: after c\d\d(, c\d\d)*, the function of event c\d\d/,
        );
        expect(run.final.n).toBeLessThan(n);
      });
  it('where the positions resolve every gap, the count and velocities are exact (e = 0.5: 6; 89/512 ...)', () => {
    const run = sim.run({ set: { e: 0.5 } });
    expect(run.status).toBe('ok');
    expect(run.final.n).toBe(6);
    const exact = [89 / 512, 99 / 512, 27 / 128, 27 / 64];
    ["x1'", "x2'", "x3'", "x4'"].forEach((v, i) => expect(Math.abs(run.final[v] - exact[i]), v).toBeLessThan(1e-14));
  });
});

describe("a function with x's zero and a cancelling expression is still at that zero", () => {
  // round16-zeros' model (seed 606): e2 (`x' crosses`) fires at t0 = 0.18867968536970380 and
  // x := 0 leaves x = x' = 0 at rest until the kick at t = 1 sets x' to 1, back to the side it
  // came from: e1 never fires, x'(1) = 1 exactly. The functions below have x''s zeros, with a
  // rounding from their own terms (x' + 1 - 1: 3.5e-15) far above the location's residue: their
  // zeros are placed by value and rate (2.7e-15 of t at a rate of -1.3), within the location's
  // span, so they are the same zero (LocatedResidues.located, SAME_ZERO_SPANS).
  const model = (e1: string) => `independent t from 0 to 1
event e1 when ${e1} do x := x - 0.5; x' := -x' end
event e2 when x' crosses do x := 0 end
x'' = -4*x - 0.5*x' + delta(t - 1)
x(0) = 0.3; x'(0) = 0.25
output x, x'
`;
  for (const e1 of ["x' + 1 - 1 rises", "(x' + 3) - 3 rises", "x'*1e10 rises"])
    for (const method of ['auto', 'dopri5', 'dop853', 'rodas', 'radau5'] as const)
      it(`${e1}, ${method}: e2 once, e1 never, x'(1) = 1`, () => {
        const r = simulate(model(e1), { method });
        expect(r.status, r.message ?? '').toBe('ok');
        expect(r.events.map((e) => e.name)).toEqual(['e2', 'delta(t - 1)']);
        expect(Math.abs(r.final["x'"] - 1)).toBeLessThan(1e-12);
      });
});
