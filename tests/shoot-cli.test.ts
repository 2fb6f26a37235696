/**
 * Shooting from the command line and from the library give the same answers for the same
 * question: `--init` overrides the model's initial values in both (issue 21, item 1), checked
 * against the rope's exact two-catenary solution.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shoot } from '../src/index.js';
import { ensureCliBuilt, modelPath, runCli } from './helpers.js';
import { exactRope } from './rope-exact.js';

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
