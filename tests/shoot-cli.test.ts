/**
 * Shooting from the command line and from the library give the same answers for the same
 * question: `--init` overrides the model's initial values in both (issue 21, item 1), checked
 * against the rope's exact two-catenary solution; and shooting says "converged" only when the
 * residual is within the tolerance (issue 20, item 9).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shoot } from '../src/index.js';
import { ensureCliBuilt, expectWithin, modelPath, runCli } from './helpers.js';
import { exactRope, ropeModel } from './rope-exact.js';
import { tempModel } from './api-helpers.js';

const R1 = modelPath('rope_r1.delta');
const TIGHT = ['--rtol', '1e-10', '--atol', '1e-12'];

interface ShootJson {
  converged: boolean;
  unknowns: Record<string, number>;
}

function shootCli(args: string[]): ShootJson {
  ensureCliBuilt();
  const r = runCli(['shoot', ...args, '--format', 'json']);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ShootJson;
}

describe('shoot --init', () => {
  it('solves from the given initial value: CLI, library and the model written with it agree, and are exact', () => {
    const exact = exactRope({ w: 1, F: 5, a: 4, L: 10, y0: 7, yL: 8, S: 12 }, [-1, 5]);
    const cli = shootCli([R1, '--init', 'y=7', ...TIGHT]);
    const source = readFileSync(R1, 'utf8');
    const library = shoot(source, { init: { y: 7 }, rtol: 1e-10, atol: 1e-12 });
    const written = shoot(source.replace('y(0) = 8;', 'y(0) = 7;'), { rtol: 1e-10, atol: 1e-12 });
    expect(cli.converged).toBe(true);
    // one computation three ways: the same numbers to the last bit
    expect(cli.unknowns).toEqual(library.unknowns);
    expect(library.unknowns).toEqual(written.unknowns);
    expect(Math.abs(cli.unknowns.p1 - exact.p1)).toBeLessThan(1e-8);
    expect(Math.abs(cli.unknowns.H - exact.H)).toBeLessThan(1e-8 * exact.H);
    // and not the answer from y = 8 (p1 = -1.1107)
    expect(cli.unknowns.p1).toBeCloseTo(-0.9751, 4);
  });

  it('a second --init is a usage error (one shooting problem per run)', () => {
    ensureCliBuilt();
    const r = runCli(['shoot', R1, '--init', 'y=7', '--init', 'y=6']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'deltastep: --init was given 2 times; shoot solves for one set of initial values: run shoot once per --init\n',
    );
  });
});

describe('converged means the residual is within the tolerance (issue 20, item 9)', () => {
  // x(1) = |u| + 0.01 > 0 for every u: the residual's minimum is 0.01, at u = 0
  const NO_SOLUTION = "independent t from 0 to 1\nunknown u = 1\nx' = abs(u) + 0.01\nx(0) = 0\nx(1) = 0";

  it('no solution: not converged, and the message says the residual it reached', () => {
    for (const options of [{}, { rtol: 1e-10, atol: 1e-12 }, { jacobian: 'central' as const }]) {
      const r = shoot(NO_SOLUTION, options);
      expect(r.converged).toBe(false);
      expect(['stalled', 'failed']).toContain(r.status);
      expectWithin(r.residuals['x(1) = 0'], 0.01, 1e-8, 'the residual reached');
      expect(r.message).toMatch(/1\.00e-2/);
    }
    expect(shoot(NO_SOLUTION).message).toBe(
      'the iteration stalled at iteration 2: the residual of x(1) = 0 is 1.00e-2, above its tolerance 1.0e-6, and no step along the Newton direction reduces it. The boundary conditions may have no solution near u = -3.469446951953614e-18 (the residual has a minimum that is not zero there); if one is expected, try another guess',
    );
  });

  it('the command line: exit 3 and the message on stderr, the JSON says converged false', () => {
    ensureCliBuilt();
    const file = tempModel('nosolution.delta', `${NO_SOLUTION}\n`);
    const r = runCli(['shoot', file, '--format', 'json']);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(
      /: shooting did not converge: the iteration stalled at iteration 2: the residual of x\(1\) = 0 is 1\.00e-2/,
    );
    const out = JSON.parse(r.stdout) as { converged: boolean; status: string };
    expect(out).toMatchObject({ converged: false, status: 'stalled' });
  });

  it('every converged result has every residual within 10 atol + rtol max(1, |value|)', () => {
    const ropes = [
      { w: 1, F: 5, a: 4, L: 10, y0: 8, yL: 8, S: 12 },
      { w: 3, F: 10, a: 6, L: 10, y0: 2, yL: 0, S: 12.5 },
      { w: 1, F: 4, a: 1, L: 8, y0: 1, yL: 1, S: 10 },
    ];
    for (const rope of ropes)
      for (const tol of [{}, { rtol: 1e-8, atol: 1e-10 }, { rtol: 1e-10, atol: 1e-12 }])
        for (const jacobian of ['broyden', 'central'] as const) {
          const { rtol = 1e-6, atol = 1e-9 } = tol;
          const r = shoot(ropeModel(rope, [-1, 5]), { ...tol, jacobian });
          expect(r.converged).toBe(true);
          expect(r.status).toBe('converged');
          expect(Math.abs(r.residuals[`y(${rope.L}) = ${rope.yL}`])).toBeLessThanOrEqual(
            10 * atol + rtol * Math.max(1, rope.yL),
          );
          expect(Math.abs(r.residuals[`z(${rope.L}) = l`])).toBeLessThanOrEqual(10 * atol + rtol * rope.S);
        }
  });
});
