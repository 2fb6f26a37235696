/**
 * dist/deltastep.browser.js, the library as one ES module, imported by a plain page in
 * Chromium (a module script, no bundler, no import map): a delta at a located event gives
 * exact numbers, model errors keep their line and column, and the page asks for nothing but
 * the module. The algebra for exact roots (nerdamer, dist/deltastep.algebra.js) is fetched
 * only when a model needs it, and then gives the same exact roots as Node.js.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
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
    // what the docs show: a module script that imports the module by its relative address
    const page = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>module</title>
<pre id="out"></pre>
<script type="module">
  import { simulate } from './deltastep.browser.js';
  const run = simulate(${JSON.stringify(BALL)}, { to: 1.5, rtol: 1e-12, atol: 1e-14 });
  document.getElementById('out').textContent = JSON.stringify(run);
</script>`;
    ({ server, url } = await serveDirectory(`${ROOT}dist/`, { '/module.html': page }));
    chromium = await launchChromium();
  }, 30_000);

  afterAll(async () => {
    await chromium?.close();
    server?.close();
  });

  it('a page with a module script runs a model with a delta and an event to exact numbers', async () => {
    const { page, errors, requests } = await openPage(chromium.browser);
    await page.goto(`${url}module.html`);
    await page.waitForFunction("document.getElementById('out').textContent !== ''");
    const ball = JSON.parse((await page.$eval('#out', (e) => e.textContent)) ?? '') as {
      status: string;
      final: Record<string, number>;
      events: { t: number; name: string; jumps: Record<string, number> }[];
    };
    expect(ball.status).toBe('ok');
    expect(ball.events).toHaveLength(1);
    expect(ball.events[0].name).toBe('bounce');
    expect(Math.abs(ball.events[0].t - 1)).toBeLessThan(1e-14);
    // h' goes from -2 to 1 (to the rounding of the located instant)
    expect(ball.events[0].jumps["h'"]).toBeCloseTo(3, 12);
    expect(Math.abs(ball.final.h - 0.25)).toBeLessThan(1e-12);
    expect(Math.abs(ball.final["h'"])).toBeLessThan(1e-12);
    const out = (await page.evaluate(`(async () => {
      const ds = await import('./deltastep.browser.js');
      let error = null;
      try { ds.compileModel("y' = -y\\ny(0) = 1\\nz' = q + 1", 'bad.delta'); }
      // (z' = q + 1: q, column 6, is not defined)
      catch (e) { error = { name: e.name, isModelError: e instanceof ds.ModelError, line: e.line, column: e.column }; }
      const compiled = ds.compileModel(${JSON.stringify(BALL)});
      const latex = ds.formatLatex(compiled.system, ds.transformReport(compiled));
      return { error, latex, loaded: ds.exactRootsLoaded(), exports: Object.keys(ds).sort() };
    })()`)) as { error: unknown; latex: string; loaded: boolean; exports: string[] };
    expect(out.error).toEqual({ name: 'ModelError', isModelError: true, line: 3, column: 6 });
    expect(out.latex).toContain('\\begin{align*}');
    expect(out.loaded).toBe(false);
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
    // the page and the module, nothing else (no CDN, no algebra: the ball needs no exact roots)
    expect(requests.map((r) => r.slice(url.length)).sort()).toEqual(['deltastep.browser.js', 'module.html']);
  });

  it('loads the algebra only for a model that needs exact roots, and finds them as Node.js does', async () => {
    const { page, errors, requests } = await openPage(chromium.browser);
    await page.goto(`${url}module.html`);
    await page.waitForFunction("document.getElementById('out').textContent !== ''");
    const out = (await page.evaluate(`(async () => {
      const ds = await import('./deltastep.browser.js');
      let refused = null;
      try { ds.simulate(${JSON.stringify(ROOT_MODEL)}, { to: 2 }); }
      catch (e) { refused = { name: e.name, message: e.message }; }
      const model = await ds.prepare(${JSON.stringify(ROOT_MODEL)});
      const roots = ds.simulate(model, { to: 2, rtol: 1e-12, atol: 1e-14 });
      // once loaded, model text runs directly too
      const again = ds.simulate(${JSON.stringify(ROOT_MODEL)}, { to: 2, rtol: 1e-12, atol: 1e-14 });
      return { refused, final: roots.final, t: roots.events.map((e) => e.t), again: again.events[0].t };
    })()`)) as {
      refused: { name: string; message: string } | null;
      final: Record<string, number>;
      t: number[];
      again: number;
    };
    expect(out.refused?.name).toBe('ExactRootsNotLoadedError');
    expect(out.refused?.message).toContain('delta(t^2 - 2)');
    expect(out.refused?.message).toContain('await prepare(text)');
    // nerdamer's exact root sqrt(2) wins over the bracketed one: the event is at Math.SQRT2 exactly
    expect(out.t).toEqual([Math.SQRT2]);
    expect(out.again).toBe(Math.SQRT2);
    expect(Math.abs(out.final.y - 1 / (2 * Math.SQRT2))).toBeLessThan(1e-14);
    expect(errors).toEqual([]);
    expect(requests.map((r) => r.slice(url.length)).sort()).toEqual([
      'deltastep.algebra.js',
      'deltastep.browser.js',
      'module.html',
    ]);
  });
});

describe('the browser module as docs/playground.md reports it', () => {
  it("the gzipped size of what a page loads for the ball is the docs' figure, to 5%", () => {
    if (!existsSync(MODULE)) throw new Error(`${MODULE} is missing: run npm run build`);
    const kb = gzipSync(readFileSync(MODULE)).length / 1024;
    const docs = readFileSync(`${ROOT}docs/playground.md`, 'utf8');
    const stated = Number(/minified, \*\*(\d+) KB\s+gzipped\*\*/.exec(docs)?.[1]);
    expect(Math.abs(kb - stated) / stated).toBeLessThan(0.05);
  });
});
