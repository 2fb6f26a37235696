/**
 * Round 17: what a Simulator carries from one run to the next. Every run of one Simulator
 * (compiled code, work arrays, steppers, propagators, plans, recorder reused) must give what a
 * fresh Simulator's run of the same settings gives, bit for bit: the reuse is an optimisation,
 * never an input. Where the answer has a closed form it is checked as well.
 */
import { describe, expect, it } from 'vitest';
import { compileModel, Simulator, type SimulateOptions } from '../src/index.js';

const same = (sim: Simulator, options: SimulateOptions) => {
  const text = (o: SimulateOptions) => JSON.stringify(sim.run(o));
  const mine = text(options);
  expect(mine).toBe(JSON.stringify(new Simulator(sim.model).run(options)));
  return JSON.parse(mine) as ReturnType<Simulator['run']>;
};

describe('auto: the statistics of an implicit method a run did not use', () => {
  // Van der Pol with mu = 100 is stiff: auto switches to rodas and reports its jacobians and
  // factorizations. With mu = 1 it is not: a fresh Simulator's run stays on dopri5 and its
  // stats have no jacobians or factorizations (the docs: "with an implicit method"). On the
  // same Simulator the implicit stepper made by the first run stayed, and the second run
  // reported jacobians: 0, factorizations: 0, as if it had used it: one Simulator's run
  // differed from a fresh one's.
  const vdp = compileModel(`independent t from 0 to 3
parameter mu = 100
x'' = mu*(1 - x^2)*x' - x
x(0) = 2; x'(0) = 0
output x, x'`);

  it.each(['auto'] as const)('%s: a non-stiff run after a stiff one reports what a fresh run does', (method) => {
    const sim = new Simulator(vdp);
    const stiff = same(sim, { method, set: { mu: 100 } });
    expect(stiff.stats.method).toBe('rodas');
    expect(stiff.stats.jacobians).toBeGreaterThan(0);
    const mild = same(sim, { method, set: { mu: 1 } });
    expect(mild.stats.switches).toBe(0);
    expect(mild.stats).not.toHaveProperty('jacobians');
    expect(mild.stats).not.toHaveProperty('factorizations');
    // and the stiff one again: its counts are its own, not added to the first run's
    same(sim, { method, set: { mu: 100 } });
  });

  it('radau5 under auto at a tight tolerance: newtonIterations only where radau5 stepped', () => {
    const sim = new Simulator(vdp);
    const stiff = same(sim, { set: { mu: 100 }, rtol: 1e-8 });
    expect(stiff.stats.method).toBe('radau5');
    expect(stiff.stats.newtonIterations).toBeGreaterThan(0);
    const mild = same(sim, { set: { mu: 1 }, rtol: 1e-8 });
    expect(mild.stats).not.toHaveProperty('newtonIterations');
  });
});
