/**
 * dist/deltastep.browser.js, the library as one ES module, imported by a page in Chromium:
 * a delta at a located event gives exact numbers, nerdamer's exact roots come inside the
 * module, model errors keep their line and column, and the page asks for nothing but the
 * module itself.
 */
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, serveDirectory, SKIP_BROWSER, type Chromium } from './browser-helpers.js';
import { ROOT } from './helpers.js';

const MODULE = `${ROOT}dist/deltastep.browser.js`;

// A ball dropped from h = 1 with g = 2 hits the floor at t = 1 with h' = -2 and bounces with
// e = 1/2 (h' := 1); then h = (t - 1) - (t - 1)^2, so h(1.5) = 1/4 and h'(1.5) = 0. Quadratic
// motion: the integrator is exact to rounding.
const BALL = `model Ball
parameter g = 2, e = 0.5
event bounce when h falls
h'' = -g - (1 + e)*h'*delta(t - bounce)
h(0) = 1; h'(0) = 0`;

// A delta of a nonlinear argument: the weight is 1/|d(t^2 - 2)/dt| = 1/(2 sqrt 2) at t = sqrt 2.
const ROOT_MODEL = `y' = delta(t^2 - 2)
y(0) = 0`;

describe.skipIf(SKIP_BROWSER)('the browser module in Chromium', () => {
  let chromium: Chromium;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    if (!existsSync(MODULE)) throw new Error(`${MODULE} is missing: run npm run build`);
    const page =
      '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>module</title><p>module test</p>';
    ({ server, url } = await serveDirectory(`${ROOT}dist/`, { '/module.html': page }));
    chromium = await launchChromium();
  }, 30_000);

  afterAll(async () => {
    await chromium?.close();
    server?.close();
  });

  it('runs a model with a delta and an event to exact numbers', async () => {
    const { page, errors, requests } = await openPage(chromium.browser);
    await page.goto(`${url}module.html`);
    const out = (await page.evaluate(`(async () => {
      const ds = await import('./deltastep.browser.js');
      const ball = ds.simulate(${JSON.stringify(BALL)}, { to: 1.5, rtol: 1e-12, atol: 1e-14 });
      const roots = ds.simulate(${JSON.stringify(ROOT_MODEL)}, { to: 2, rtol: 1e-12, atol: 1e-14 });
      let error = null;
      try { ds.compileModel("y' = -y\\ny(0) = 1\\nz' = q + 1", 'bad.delta'); }
      // (z' = q + 1: q, column 6, is not defined)
      catch (e) { error = { name: e.name, isModelError: e instanceof ds.ModelError, line: e.line, column: e.column }; }
      const compiled = ds.compileModel(${JSON.stringify(BALL)});
      const latex = ds.formatLatex(compiled.system, ds.transformReport(compiled));
      return { ball, roots: { final: roots.final, events: roots.events }, error, latex, exports: Object.keys(ds).sort() };
    })()`)) as {
      ball: {
        status: string;
        final: Record<string, number>;
        events: { t: number; name: string; jumps: Record<string, number> }[];
      };
      roots: { final: Record<string, number>; events: { t: number }[] };
      error: { name: string; isModelError: boolean; line: number; column: number } | null;
      latex: string;
      exports: string[];
    };
    expect(out.ball.status).toBe('ok');
    expect(out.ball.events).toHaveLength(1);
    expect(out.ball.events[0].name).toBe('bounce');
    expect(Math.abs(out.ball.events[0].t - 1)).toBeLessThan(1e-14);
    // h' goes from -2 to 1 (to the rounding of the located instant)
    expect(out.ball.events[0].jumps["h'"]).toBeCloseTo(3, 12);
    expect(Math.abs(out.ball.final.h - 0.25)).toBeLessThan(1e-12);
    expect(Math.abs(out.ball.final["h'"])).toBeLessThan(1e-12);
    // nerdamer's exact root sqrt(2) wins over the bracketed one: the event is at Math.SQRT2 exactly
    expect(out.roots.events[0].t).toBe(Math.SQRT2);
    expect(Math.abs(out.roots.final.y - 1 / (2 * Math.SQRT2))).toBeLessThan(1e-14);
    expect(out.error).toEqual({ name: 'ModelError', isModelError: true, line: 3, column: 6 });
    expect(out.latex).toContain('\\begin{align*}');
    for (const name of [
      'simulate',
      'shoot',
      'compileModel',
      'transformReport',
      'formatText',
      'formatLatex',
      'Simulator',
    ])
      expect(out.exports).toContain(name);
    expect(errors).toEqual([]);
    // the page and the module, nothing else (no CDN, no chunk loaded later)
    expect(requests.map((r) => r.slice(url.length)).sort()).toEqual(['deltastep.browser.js', 'module.html']);
  });
});
