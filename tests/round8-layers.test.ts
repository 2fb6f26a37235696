/**
 * Wrong or lost answers found at the command line's and the library's layers in the eighth
 * round (issue 20): what the printed and plotted forms show of a run, each against the run
 * itself or its exact answer.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
