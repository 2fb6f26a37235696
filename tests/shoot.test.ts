import { describe, expect, it } from 'vitest';
import { compileModel, shoot } from '../src/index.js';
import { main } from '../src/cli/main.js';
import { closedForm, exactRope, ropeModel, type Rope } from './rope-exact.js';

const TIGHT = { rtol: 1e-10, atol: 1e-12 };

// R1 of the reference (published exact values), and held-out sets: unequal supports, a heavier
// rope with a larger load, a load near one end, no load at all.
const ROPES: { name: string; rope: Rope; guess: [number, number] }[] = [
  { name: 'R1: supports at 8, F = 5 at 4', rope: { w: 1, F: 5, a: 4, L: 10, y0: 8, yL: 8, S: 12 }, guess: [-1, 5] },
  { name: 'unequal supports 0 and 3', rope: { w: 1, F: 2, a: 4, L: 10, y0: 0, yL: 3, S: 13 }, guess: [-1, 5] },
  { name: 'heavier rope, w = 3, F = 10', rope: { w: 3, F: 10, a: 6, L: 10, y0: 2, yL: 0, S: 12.5 }, guess: [-1, 10] },
  { name: 'load near the left support', rope: { w: 1, F: 4, a: 1, L: 8, y0: 1, yL: 1, S: 10 }, guess: [-1.5, 3] },
  { name: 'no load (pure catenary)', rope: { w: 1, F: 0, a: 4, L: 10, y0: 8, yL: 8, S: 12 }, guess: [-1, 5] },
];

describe('the rope: Newton shooting against the exact two-catenary solution', () => {
  it('R1 reproduces the published exact values (reference README)', () => {
    const exact = exactRope(ROPES[0].rope, [-1, 5]);
    expect(exact.p1).toBeCloseTo(-1.1106615486105161, 13);
    expect(exact.H).toBeCloseTo(8.186919493913407, 12);
  });

  it.each(ROPES)('$name', ({ rope, guess }) => {
    const exact = exactRope(rope, guess);
    const result = shoot(compileModel(ropeModel(rope, guess), 'rope.delta'), TIGHT);
    expect(result.converged).toBe(true);
    // integration error at rtol 1e-10 over the range, propagated through the Newton solve
    expect(Math.abs(result.unknowns.p1 - exact.p1)).toBeLessThan(1e-8);
    expect(Math.abs(result.unknowns.H - exact.H)).toBeLessThan(1e-8 * Math.max(1, exact.H));
    const c = closedForm(rope, exact.p1, exact.H);
    const sol = result.solution!;
    if (rope.F !== 0) {
      // the kink: one time event at a, the slope jumps by F/H, y continuous
      expect(sol.events).toHaveLength(1);
      const ev = sol.events[0];
      expect(ev.t).toBe(rope.a);
      expect(Math.abs(ev.pre["y'"] - c.slopeBefore)).toBeLessThan(1e-8);
      expect(Math.abs(ev.post["y'"] - c.slopeAfter)).toBeLessThan(1e-8);
      expect(Math.abs(ev.jumps["y'"] - rope.F / result.unknowns.H)).toBeLessThan(1e-12);
      expect(Math.abs(ev.post.y - c.ya)).toBeLessThan(1e-8);
      expect(Math.abs(ev.post.z - c.za)).toBeLessThan(1e-8);
    }
    expect(Math.abs(sol.final.y - rope.yL)).toBeLessThan(1e-8);
    expect(Math.abs(sol.final.z - rope.S)).toBeLessThan(1e-8);
  });

  it('central differences converge quadratically: log r(k+1) / log r(k) near 2 until the integration noise', () => {
    const result = shoot(compileModel(ropeModel(ROPES[0].rope, [-1, 5]), 'rope.delta'), {
      ...TIGHT,
      jacobian: 'central',
    });
    expect(result.iterations.slice(0, -1).every((it) => it.jacobian === 'central')).toBe(true);
    const norms = result.iterations.map((i) => i.residualNorm);
    // the asymptotic range: residuals well below 1 and well above the noise floor (~1e-9)
    const pairs: number[] = [];
    for (let k = 0; k + 1 < norms.length; k++) {
      if (norms[k] < 0.05 && norms[k + 1] > 1e-11) pairs.push(Math.log(norms[k + 1]) / Math.log(norms[k]));
    }
    expect(pairs.length).toBeGreaterThanOrEqual(2);
    for (const q of pairs) expect(q).toBeGreaterThan(1.8);
    // residuals never grow (backtracking)
    for (let k = 0; k + 1 < norms.length; k++) expect(norms[k + 1]).toBeLessThan(norms[k]);
  });

  it('Broyden (the default) converges superlinearly: once close, r(k+1) / r(k) goes to 0', () => {
    const result = shoot(compileModel(ropeModel(ROPES[0].rope, [-1, 5]), 'rope.delta'), TIGHT);
    expect(result.converged).toBe(true);
    const its = result.iterations;
    // one forward-difference Jacobian to start, then mostly secant updates
    expect(its[0].jacobian).toBe('forward');
    expect(its.filter((it) => it.jacobian === 'broyden').length).toBeGreaterThanOrEqual(3);
    const ratios: number[] = [];
    for (let k = 0; k + 1 < its.length; k++)
      if (its[k].residualNorm < 0.05) ratios.push(its[k + 1].residualNorm / its[k].residualNorm);
    expect(ratios.length).toBeGreaterThanOrEqual(4);
    // never a stall (a linearly convergent chord iteration keeps one ratio), and it tends to 0:
    // Broyden's ratios need not shrink at every step in two unknowns, but the last is tiny
    for (const q of ratios) expect(q).toBeLessThan(0.2);
    expect(ratios[ratios.length - 1]).toBeLessThan(1e-3);
    expect(ratios[ratios.length - 1]).toBe(Math.min(...ratios));
    // residuals never grow (backtracking, refreshes)
    for (let k = 0; k + 1 < its.length; k++) expect(its[k + 1].residualNorm).toBeLessThan(its[k].residualNorm);
  });

  it('Broyden needs fewer shots than central differences, with the same accuracy (and fewer than the peers on W4)', () => {
    const W4 = {
      name: 'W4 of the benchmark',
      rope: { w: 1, F: 2, a: 4, L: 10, y0: 0, yL: 0, S: 12 },
      guess: [-1, 5] as [number, number],
    };
    for (const { name, rope, guess } of [...ROPES, W4]) {
      const compiled = compileModel(ropeModel(rope, guess), 'rope.delta');
      const broyden = shoot(compiled, TIGHT);
      const central = shoot(compiled, { ...TIGHT, jacobian: 'central' });
      expect(broyden.converged && central.converged, name).toBe(true);
      expect(broyden.residualEvaluations, name).toBeLessThan(0.7 * central.residualEvaluations);
      const exact = exactRope(rope, guess);
      for (const r of [broyden, central]) {
        expect(Math.abs(r.unknowns.p1 - exact.p1), name).toBeLessThan(1e-8);
        expect(Math.abs(r.unknowns.H - exact.H), name).toBeLessThan(1e-8 * Math.max(1, exact.H));
      }
      if (name === W4.name) {
        // the exact H of W4 (WORKLOADS.md); the peers' forward-difference Newton takes 19 shots
        // with the final one (which `finish` spends too, outside residualEvaluations)
        expect(Math.abs(broyden.unknowns.H - 6.0534627361560869)).toBeLessThan(1e-10);
        expect(broyden.residualEvaluations + 1).toBeLessThan(19);
      }
    }
  });

  it('reuses one compiled model: every residual evaluation is one simulation, no recompiling', () => {
    const compiled = compileModel(ropeModel(ROPES[0].rope, [-1, 5]), 'rope.delta');
    const source = compiled.source;
    const result = shoot(compiled, TIGHT);
    expect(compiled.source).toBe(source);
    // 1 + (2 per unknown per Jacobian + line search) per iteration
    expect(result.residualEvaluations).toBeLessThan(1 + (result.iterations.length - 1) * 6 + 4);
  });
});

describe('ARGESIM C12 task c: one unknown', () => {
  it('the e with v4 = v0/2 is 4^(1/3) - 1', () => {
    const model = `independent t from 0 to 1000
unknown e = 0.5
discrete n = 0
event c12 when x1 - x2 rises do n := n + 1 end
event c23 when x2 - x3 rises do n := n + 1 end
event c34 when x3 - x4 rises do n := n + 1 end
x1'' = -(1 + e)/2*(x1' - x2')*delta(t - c12)
x2'' =  (1 + e)/2*(x1' - x2')*delta(t - c12) - (1 + e)/2*(x2' - x3')*delta(t - c23)
x3'' =  (1 + e)/2*(x2' - x3')*delta(t - c23) - (1 + e)/2*(x3' - x4')*delta(t - c34)
x4'' =  (1 + e)/2*(x3' - x4')*delta(t - c34)
x1(0) = 0; x2(0) = 1; x3(0) = 2; x4(0) = 3
x1'(0) = 1; x2'(0) = 0; x3'(0) = 0; x4'(0) = 0
x4'(1000) = 0.5`;
    const r = shoot(model, TIGHT);
    expect(r.converged).toBe(true);
    expect(Math.abs(r.unknowns.e - (Math.cbrt(4) - 1))).toBeLessThan(1e-9);
  });
});

describe('Broyden: a failing secant step refreshes the Jacobian instead of failing', () => {
  // x' = v, y' = w: the conditions are v = e^w - 2 and w = v^3 - 7, strongly nonlinear in the
  // unknowns; the exact root solves f(v) = exp(v^3 - 7) - 2 - v = 0 (a scalar Newton here).
  const exactV = (() => {
    let v = 2;
    for (let k = 0; k < 50; k++) v -= (Math.exp(v ** 3 - 7) - 2 - v) / (3 * v * v * Math.exp(v ** 3 - 7) - 1);
    return v;
  })();
  const CASES = [
    {
      name: 'two strongly nonlinear conditions',
      model:
        "independent t from 0 to 1\nunknown v = 1, w = 1\nx' = v\ny' = w\nx(0) = 0; y(0) = 0\nx(1) = exp(w) - 2\ny(1) = v^3 - 7",
      exact: { v: exactV, w: exactV ** 3 - 7 },
    },
    {
      // y(1) = v^3 - v = 1: the slope at the guess is -1/4, so the secant slopes after the first
      // (backtracked) step point the wrong way: the real root is the plastic number
      name: 'a cubic condition from a guess on the wrong slope',
      model: "independent t from 0 to 1\nunknown v = 0.5\ny' = v^3 - v\ny(0) = 0\ny(1) = 1",
      exact: { v: 1.324717957244746 },
    },
  ];

  it.each(CASES)('$name', ({ model, exact }) => {
    const r = shoot(model, TIGHT);
    expect(r.converged).toBe(true);
    for (const [name, value] of Object.entries(exact)) expect(Math.abs(r.unknowns[name] - value)).toBeLessThan(1e-9);
    // a Broyden step failed somewhere, and the iteration went on with a fresh Jacobian there
    const refreshed = r.iterations.filter((it) => it.refreshed === 'no_decrease');
    expect(refreshed.length).toBeGreaterThanOrEqual(1);
    for (const it of refreshed) {
      expect(it.jacobian).toBe('forward');
      expect(r.iterations[it.k + 1].residualNorm).toBeLessThan(it.residualNorm);
    }
    expect(r.jacobianEvaluations).toBeGreaterThanOrEqual(1 + refreshed.length);
    // central differences agree
    const c = shoot(model, { ...TIGHT, jacobian: 'central' });
    expect(c.converged).toBe(true);
    for (const name of Object.keys(exact)) expect(Math.abs(r.unknowns[name] - c.unknowns[name])).toBeLessThan(1e-9);
  });

  it('an unknown jacobian option is an input error', () => {
    expect(() => shoot(CASES[1].model, { jacobian: 'secant' as never })).toThrow(
      /^jacobian must be broyden \(.*\) or central \(.*\), got 'secant'$/,
    );
  });
});

describe('failure as information', () => {
  it('a singular Jacobian (an unknown the conditions do not depend on) says so and keeps the last iterate', () => {
    const r = shoot(
      `independent t from 0 to 1
unknown q = 1, v = 0
y' = v
y(0) = 0
y(1) = 2
y(0.5) = 1`,
      TIGHT,
    );
    expect(r.converged).toBe(false);
    expect(r.status).toBe('singular');
    expect(r.message).toMatch(
      /^the Jacobian is singular at iteration 0: no boundary condition depends on q: shooting cannot determine it; make it a parameter or add a condition that it affects$/,
    );
    expect(r.unknowns).toEqual({ q: 1, v: 0 });
    expect(r.solution?.status).toBe('ok');
  });

  it('a condition that no unknown can meet: no convergence, exit 3 from the CLI, residuals kept', async () => {
    const r = shoot(
      `independent t from 0 to 1
unknown v = 0
y' = v^2
y(0) = 0
y(1) = -1`,
      TIGHT,
    );
    expect(r.converged).toBe(false);
    expect(['failed', 'max_iter', 'singular']).toContain(r.status);
    expect(r.message).toMatch(/try/);
    expect(Number.isFinite(r.residuals['y(1) = -1'])).toBe(true);
  });

  it('more conditions than unknowns is a model error at the extra condition (exit 1)', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'ds-')), 'm.delta');
    writeFileSync(file, "independent t from 0 to 1\nunknown v = 0\ny' = v\ny(0) = 0\ny(1) = 2\ny(0.5) = 1\n");
    const chunks: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    (process.stderr as { write: unknown }).write = (s: string) => {
      chunks.push(String(s));
      return true;
    };
    let code: number;
    try {
      code = await main(['shoot', file]);
    } finally {
      (process.stderr as { write: unknown }).write = write;
    }
    expect(code).toBe(1);
    expect(chunks.join('')).toBe(
      `${file}:6:1: 1 unknown(s) but 2 boundary condition(s)\n  y(0.5) = 1\n  ^\nShooting needs as many boundary conditions (y(A) = VALUE with A after the start) as unknowns.\n`,
    );
  });
});
