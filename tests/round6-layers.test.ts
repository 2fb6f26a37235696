/**
 * Wrong answers with status ok found at the command line's and the library's layers in the
 * sixth round, each against its exact answer or the single run it must equal.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileModel, Simulator, simulate, SimulationInputError } from '../src/index.js';
import { ensureCliBuilt, runCli } from './helpers.js';

describe('a parameter defined from a set one is checked as the model checks its own', () => {
  // b = sqrt(a) with a set to -1 is NaN: the model's own value would be a model error at b,
  // and --set a=-1 on simulate is one; through the library's set (and so every sweep and
  // Monte Carlo run) the NaN went on to the event function x - b, which then never crosses:
  // status ok, n = 0; in a condition (if b > 2) it took the else branch
  const text = `independent t from 0 to 1
parameter a = 1, b = sqrt(a)
discrete n = 0
event e when x - b rises do n := n + 1 end
x' = 2
x(0) = 0`;

  it('the library: a SimulationInputError naming b, its value and the set value, on every method', () => {
    const sim = new Simulator(compileModel(text));
    for (const method of ['auto', 'analytic', 'dopri5', 'rk4'] as const) {
      let err: unknown;
      try {
        sim.run({ set: { a: -1 }, method, step: 0.1 });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(SimulationInputError);
      expect((err as Error).message).toMatch(/parameter b .*NaN.*a = -1/);
    }
    // log(0) = -Infinity is no number either; nor is b in a condition
    expect(() => simulate(compileModel(text.replace('sqrt(a)', 'log(a)')), { set: { a: 0 } })).toThrow(/-Infinity/);
    const switched = text.replace("x' = 2", "x' = if b > 2 then 1 else 2");
    expect(() => simulate(compileModel(switched), { set: { a: -1 } })).toThrow(/parameter b .*NaN/);
    // a value that makes b finite runs: b = 0.5, x' = 2, x crosses 0.5 at t = 0.25
    const r = sim.run({ set: { a: 0.25 } });
    expect(r.status).toBe('ok');
    expect(r.final.n).toBe(1);
  });

  it('a sweep lists the run as failed with that message (it was ok, n = 0)', () => {
    ensureCliBuilt();
    const file = join(tmpdir(), `round6-derived-${process.pid}.delta`);
    writeFileSync(file, text);
    const r = runCli(['sweep', file, '--vary', 'a=-1:0.25:3', '--report', 'n', '--format', 'json', '--workers', '1']);
    expect(r.status).toBe(3);
    const out = JSON.parse(r.stdout) as { rows: number[][]; status: string[] };
    expect(out.status).toEqual(['failed', 'failed', 'ok']);
    // a = 0.25: b = 0.5, reached at t = 0.25 (x' = 2)
    expect(out.rows[2]).toEqual([0.25, 1]);
    expect(r.stderr).toMatch(/parameter b/);
  });
});
