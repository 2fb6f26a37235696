/**
 * What shooting says when the conditions themselves are at fault (issue 21, item 14): a
 * boundary condition outside the range is a ModelError at its line, one left out by the
 * caller's range names the flag, two conditions on one value at one point name each other,
 * and a singular Jacobian says which conditions or unknowns make it so.
 */
import { describe, expect, it } from 'vitest';
import { ModelError, shoot, SimulationInputError } from '../src/index.js';
import { ensureCliBuilt, runCli } from './helpers.js';
import { tempModel, thrown } from './api-helpers.js';

const LINE = "independent x from 0 to 2\nunknown a = 0, b = 0\ny' = a*x + b\ny(0) = 0\n";

describe('boundary conditions against the range', () => {
  it('a condition outside the model range: a ModelError at its line and column', () => {
    const err = thrown(ModelError, () => shoot(`${LINE}y(1) = 1\ny(3) = 1`));
    expect(err.message).toBe(
      "<model>:6:1: y(3) = 1 is at x = 3, outside the range 0 to 2\n  y(3) = 1\n  ^\nA boundary condition must lie within the range: move it, or widen 'independent x from ... to ...'.",
    );
  });

  it("a condition the caller's range leaves out names the option (the flag on the command line, exit 2)", () => {
    const source = `${LINE}y(1) = 1\ny(2) = 3`;
    expect(thrown(SimulationInputError, () => shoot(source, { to: 1.5 })).message).toBe(
      'to 1.5: the run from 0 to 1.5 leaves out y(2) = 3 (line 6), at x = 2; a boundary condition must lie within the range',
    );
    // solvable over the model's own range: y = a x^2/2 + b x, so a/2 + b = 1 and 2a + 2b = 3
    const r = shoot(source, { rtol: 1e-10, atol: 1e-12 });
    expect(r.converged).toBe(true);
    expect(r.unknowns.a).toBeCloseTo(1, 8);
    expect(r.unknowns.b).toBeCloseTo(0.5, 8);
    ensureCliBuilt();
    const file = tempModel('line.delta', `${source}\n`);
    const cli = runCli(['shoot', file, '--to', '1.5']);
    expect(cli.status).toBe(2);
    expect(cli.stderr).toBe(
      'deltastep: --to 1.5: the run from 0 to 1.5 leaves out y(2) = 3 (line 6), at x = 2; a boundary condition must lie within the range\n',
    );
  });

  it('a run that stops before a condition says where it ended, why, and the condition with its line', () => {
    const r = shoot(
      "independent t from 0 to 3\nunknown v = 1\nevent s when y - 0.5 rises do stop end\ny' = v\ny(0) = 0\ny(2) = 0.8",
    );
    expect(r.converged).toBe(false);
    expect(r.message).toMatch(
      /^the first guess does not simulate: the run ended at t = 0\.5\d* \(stopped: stopped by event s at t = 0\.5\d*\), before t = 2, where y\(2\) = 0\.8 \(line 6\) is to hold\. Try another guess\.$/,
    );
  });
});

describe('conditions that cannot determine the unknowns', () => {
  it('two conditions on one value at one point: a ModelError at the second, naming the first', () => {
    const source = "independent x from 0 to 2\nunknown a = 0, b = 0\ny' = a\nz' = b\ny(0) = 0; z(0) = 0\n";
    expect(thrown(ModelError, () => shoot(`${source}y(1) = 1\ny(1) = 3`)).message).toBe(
      '<model>:7:1: y(1) = 3 contradicts y(1) = 1 (line 6): both are conditions on y at x = 1\n  y(1) = 3\n  ^\nEach boundary condition must fix something the others do not: remove one, or make it a condition on another value or point.',
    );
    expect(thrown(ModelError, () => shoot(`${source}y(1) = 1\ny(1) = 1`)).what).toBe(
      'y(1) = 1 repeats y(1) = 1 (line 6): both are conditions on y at x = 1',
    );
  });

  it('conditions that fix one combination of the unknowns: named, contradicting or repeating', () => {
    // y = (a + b) x: y(1) and y(2) both fix a + b
    const source = "independent x from 0 to 2\nunknown a = 0, b = 0\ny' = a + b\ny(0) = 0\ny(1) = 1\n";
    for (const jacobian of ['broyden', 'central'] as const) {
      const contradict = shoot(`${source}y(2) = 3`, { jacobian });
      expect(contradict.converged).toBe(false);
      expect(contradict.status).toBe('singular');
      expect(contradict.message).toBe(
        'the Jacobian is singular at iteration 0: y(1) = 1 and y(2) = 3 depend on the unknowns (a, b) in the same way: together they fix only one combination of them, and they contradict each other: no unknowns satisfy both. Replace one with a condition on something else',
      );
      expect(shoot(`${source}y(2) = 2`, { jacobian }).message).toMatch(
        /in the same way: .*, and one repeats the other\./,
      );
    }
  });

  it('an unknown no condition depends on, and a condition no unknown moves', () => {
    const free = shoot("independent t from 0 to 1\nunknown q = 1, v = 0\ny' = v\ny(0) = 0\ny(1) = 2\ny(0.5) = 1");
    expect(free.status).toBe('singular');
    expect(free.message).toMatch(/: no boundary condition depends on q: shooting cannot determine it;/);
    const fixed = shoot(
      "independent t from 0 to 1\nunknown v = 0, w = 0\ny' = v + w\nz' = 1\ny(0) = 0; z(0) = 0\ny(1) = 2\nz(1) = 3",
    );
    expect(fixed.status).toBe('singular');
    expect(fixed.message).toMatch(
      /: z\(1\) = 3 does not depend on any unknown \(v, w\): it holds or fails whatever the unknowns are$/,
    );
  });
});
