/**
 * Wrong or lost answers found at the command line's and the library's layers in the eighth
 * round (issue 20): what the printed and plotted forms show of a run, each against the run
 * itself or its exact answer.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel, formatLatex, transformReport } from '../src/index.js';
import { ensureCliBuilt, runCli } from './helpers.js';

let dir = '';
beforeAll(async () => {
  ensureCliBuilt();
  dir = await mkdtemp(join(tmpdir(), 'deltastep-round8-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The points (x, y in pixels) of every line the SVG draws. */
function linePoints(svg: string): [number, number][] {
  const out: [number, number][] = [];
  for (const g of svg.matchAll(/<g class="mark-line[^"]*"[^>]*>(.*?)<\/g>/gs))
    for (const d of g[1].matchAll(/<path[^>]*\sd="([^"]*)"/g))
      for (const m of d[1].matchAll(/[ML]\s*(-?[\d.e+-]+)[ ,](-?[\d.e+-]+)/g)) out.push([Number(m[1]), Number(m[2])]);
  return out;
}

describe('the plot of a run backwards', () => {
  it('draws its curves over the whole range and marks its event (it drew nothing: the axis was cut at the end, t = 0)', async () => {
    // y'' = -y + 2 delta(t - 1) from y(5) = 1, y'(5) = 0 back to 0: the run is right (y(0) =
    // cos 5 + 2 sin 1), only its picture was empty
    const model = join(dir, 'back.delta');
    await writeFile(model, "independent t from 5 to 0\ny'' = -y + 2*delta(t - 1)\ny(5) = 1; y'(5) = 0\n");
    const plot = join(dir, 'back.svg');
    const r = runCli(['simulate', model, '--plot', plot, '--quiet', '--format', 'csv']);
    expect(r.status).toBe(0);
    const svg = await readFile(plot, 'utf8');
    const xs = linePoints(svg).map((p) => p[0]);
    // two series over 720 pixels: both ends of the axis are reached, not one point at t = 0
    expect(xs.length).toBeGreaterThan(20);
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(700);
    // the kick at t = 1 is marked by its dashed rule
    expect(svg).toMatch(/<g class="mark-rule role-mark[^>]*><line[^>]*stroke-dasharray/);
  });
});

describe('the LaTeX form reads as the compiled system computes', () => {
  const latexOf = (text: string) => {
    const model = compileModel(text);
    return formatLatex(model.system, transformReport(model));
  };

  it('numbers in exponent notation are powers of ten (1e-300 read as 1 e - 300, e a parameter)', () => {
    const latex = latexOf(
      "independent t from 0 to 1\nparameter a = 2, e = 0.5\nevent tick at 1e-7 do x := 0 end\nx' = 1e-300*a + 2.5e-7*e + 1e-7^a\nx(0) = 0",
    );
    expect(latex).toContain("x' &= 10^{-300} \\, a + 2.5 \\times 10^{-7} \\, e + \\left(10^{-7}\\right)^{a}");
    // (the time listed for the event too: {1e-7} read as {1 e - 7})
    expect(latex).toContain('at $t \\in \\{10^{-7}\\}$');
  });

  it('a negated factor or term is in parentheses, and two numbers are not set side by side', () => {
    // 2*-a is -4; "2 \, -a" typesets as 2 - a = 0. 2*3^a is 18; "2 \, 3^{a}" reads 23^a.
    const latex = latexOf(
      "parameter a = 2, e = 0.5\nx' = 2*-a\ny' = a - -e + -a\nz' = 2*3^a\nx(0) = 0; y(0) = 0; z(0) = 0",
    );
    expect(latex).toContain("x' &= 2 \\, \\left(-a\\right)");
    expect(latex).toContain("y' &= a - \\left(-e\\right) + \\left(-a\\right)");
    expect(latex).toContain("z' &= 2 \\cdot 3^{a}");
  });
});

describe('the plot of several --init runs', () => {
  it('says that it draws the first of them (it drew run 1 of 3 as if it were the whole output)', async () => {
    const model = join(dir, 'inits.delta');
    await writeFile(model, "independent t from 0 to 5\ny'' = -y + 2*delta(t - 1)\ny(0) = 1; y'(0) = 0\n");
    const plot = join(dir, 'inits.svg');
    const r = runCli(['simulate', model, '--init', 'y=1', '--init', 'y=2', '--init', 'y=3', '--plot', plot, '--quiet']);
    expect(r.status).toBe(0);
    const svg = await readFile(plot, 'utf8');
    expect(svg).toContain('run 1 of 3 (the first --init); the others are not drawn');
    // one run alone: no such line
    const one = join(dir, 'one.svg');
    expect(runCli(['simulate', model, '--init', 'y=2', '--plot', one, '--quiet']).status).toBe(0);
    expect(await readFile(one, 'utf8')).not.toContain('the others are not drawn');
  });
});

describe('the plot of a sweep says which points it leaves out', () => {
  it('points at or below 0 on a log axis, and values that are not finite (they were dropped without a word)', async () => {
    // x' = -k x, x(0) = 1: x(1) = exp(-k) for k = -1, 0, 1, 2; --log-x cannot place k = -1 and 0
    const model = join(dir, 'decay.delta');
    await writeFile(model, "independent t from 0 to 1\nparameter k = 1\nx' = -k*x\nx(0) = 1\n");
    const plot = join(dir, 'logx.svg');
    const r = runCli(['sweep', model, '--vary', 'k=-1:2:4', '--report', 'x', '--log-x', '--plot', plot, '--quiet']);
    expect(r.status).toBe(0);
    expect(await readFile(plot, 'utf8')).toContain('2 point(s) at or below 0 on a log axis: not drawn');
    // sqrt(x - 0.5) is NaN where exp(-k) < 0.5: k = 1 and 2
    const nan = join(dir, 'nan.svg');
    const s = runCli(['sweep', model, '--vary', 'k=-1:2:4', '--report', 'sqrt(x - 0.5)', '--plot', nan, '--quiet']);
    expect(s.status).toBe(0);
    expect(await readFile(nan, 'utf8')).toContain('2 reported value(s) not finite: not drawn');
  });
});
