/**
 * The playground (dist/playground/index.html, built by `npm run build`) in Chromium: a model
 * opened from #model= shows its transform (text and KaTeX), runs in a worker to the exact
 * final values and ledger; a model error is marked at its line and column with its message;
 * a long run stops and the page stays usable; every example loads and runs; the page fetches
 * nothing, from file:// and from a static server.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, serveDirectory, SKIP_BROWSER, type Chromium } from './browser-helpers.js';
import { ROOT } from './helpers.js';

const PAGE = `${ROOT}dist/playground/index.html`;
const FILE_URL = `file://${PAGE}`;

// A ball dropped from h = 1 with g = 2 hits the floor at t = 1 with h' = -2 and bounces with
// e = 1/2 (h' := 1); then h = (t - 1) - (t - 1)^2: h(1.5) = 1/4, h'(1.5) = 0. Quadratic motion:
// exact to rounding. A kick of 3 at t = 1.25 in x (x' = 3*delta(t - 1.25)) is a time event.
const BALL = `model Ball
independent t from 0 to 1.5
parameter g = 2, e = 0.5
event bounce when h falls
h'' = -g - (1 + e)*h'*delta(t - bounce)
x' = 3*delta(t - 1.25)
h(0) = 1; h'(0) = 0; x(0) = 0`;

// `q` (line 3, column 6) is not defined
const BROKEN = `model Broken
y' = -y
z' = q + 1
y(0) = 1; z(0) = 0`;

// an array model written with for blocks (derivatives of elements: x[i]'')
const ROW = `model Row
parameter N = 6
for i in 1:N-1
  event hit[i] when x[i] - x[i+1] rises
end
for i in 1:N
  x[i]'' = 0
end
x[1](0) = 0; x[1]'(0) = 1
for i in 2:N
  x[i](0) = i; x[i]'(0) = 0
end`;

// a pendulum for 1e7 time units at rtol 1e-12 (allowed by its maxSteps): nonlinear, so no closed
// form (the analytic path solves a harmonic oscillator at once); hours of steps, far longer
// than any test waits
const LONG = `model Long
independent t from 0 to 1e7
option rtol = 1e-12
option atol = 1e-14
option maxSteps = 1000000000
x'' = -sin(x)
x(0) = 1; x'(0) = 0`;

interface Values {
  [name: string]: number;
}

/** Clicks Run and waits until the run has ended; returns the status and the final values shown. */
async function runToEnd(page: Page): Promise<{ state: string; text: string; message: string; values: Values }> {
  await page.click('#run');
  await page.waitForFunction(
    () => (globalThis as unknown as Doc).document.querySelector('#status').dataset.state !== 'running',
    {
      timeout: 20_000,
    },
  );
  return page.evaluate(() => {
    const doc = (globalThis as unknown as Doc).document;
    const values: Record<string, number> = {};
    for (const tr of doc.querySelectorAll('table.final tbody tr')) {
      const [name, value] = [...tr.querySelectorAll('td')].map((td) => td.textContent);
      values[name] = Number(value);
    }
    return {
      state: doc.querySelector('#status').dataset.state,
      text: doc.querySelector('#status-text').textContent,
      message: doc.querySelector('#status-message').textContent,
      values,
    };
  });
}

/** Tokens the editor's highlighting marks as not of the language (a wavy underline, not the error's). */
const INVALID_TOKENS = `[...document.querySelectorAll('.cm-content span')].filter((el) =>
  getComputedStyle(el).textDecorationStyle === 'wavy' && !el.closest('.cm-ds-error')).length`;

/** The little of the DOM the callbacks use (the tests compile without the DOM library). */
interface Element {
  textContent: string;
  dataset: Record<string, string>;
  querySelectorAll(s: string): Element[];
  hidden: boolean;
}
interface Slider {
  min: string;
  max: string;
  value: string;
  dispatchEvent(e: unknown): void;
}
interface Doc {
  document: { querySelector(s: string): Element; querySelectorAll(s: string): Element[] };
}

async function text(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (e) => (e as unknown as Element).textContent);
}

/** Opens the page with a model in its address (a fresh load: the hash alone would not reload). */
async function openModel(page: Page, model: string, base = FILE_URL): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${base}#model=${encodeURIComponent(model)}`);
  await page.waitForFunction(
    () =>
      (globalThis as unknown as Doc).document.querySelector('#system-text').textContent !== '' ||
      !(globalThis as unknown as Doc).document.querySelector('#problem').hidden,
    { timeout: 20_000 },
  );
}

describe.skipIf(SKIP_BROWSER)('the playground in Chromium', () => {
  let chromium: Chromium;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    if (!existsSync(PAGE)) throw new Error(`${PAGE} is missing: run npm run build`);
    ({ server, url } = await serveDirectory(`${ROOT}dist/`));
    chromium = await launchChromium();
  }, 30_000);

  afterAll(async () => {
    await chromium?.close();
    server?.close();
  });

  it('opens a model from #model=, shows its transform, and runs it to exact values and ledger', async () => {
    const { page, errors, requests } = await openPage(chromium.browser);
    await openModel(page, BALL);
    // the transform as text and as LaTeX rendered by KaTeX
    const system = await text(page, '#system-text');
    expect(system).toContain('model Ball');
    expect(system).toMatch(/bounce\s+\[state\]/);
    expect(await page.$$eval('#system-latex .katex-display .katex-html', (n) => n.length)).toBe(1);
    expect(await page.$$eval('#system-latex .latex-events .katex', (n) => n.length)).toBeGreaterThan(0);
    expect(await text(page, '#model-name')).toBe('Ball');

    const run = await runToEnd(page);
    expect(run.state).toBe('ok');
    expect(Math.abs(run.values.h - 0.25)).toBeLessThan(1e-12);
    expect(Math.abs(run.values["h'"])).toBeLessThan(1e-12);
    expect(run.values.x).toBe(3);
    // the ledger: the bounce at t = 1 (h' from -2 to 1), then the kick at t = 1.25 exactly
    const ledger = await page.$$eval('table.ledger tbody tr', (rows) =>
      rows.map((r) => [...(r as unknown as Element).querySelectorAll('td')].map((td) => td.textContent)),
    );
    expect(ledger).toHaveLength(2);
    expect(ledger[0][2]).toBe('bounce');
    expect(Math.abs(Number(ledger[0][1]) - 1)).toBeLessThan(1e-14);
    // (the jump of h' is 3 to the rounding of the located instant)
    const jump = /^h' \+ (\S+)$/.exec(ledger[0][4]);
    expect(Math.abs(Number(jump?.[1]) - 3)).toBeLessThan(1e-14);
    expect(ledger[1]).toEqual(expect.arrayContaining(['1.25', 'delta(t - 1.25)', 'time', 'x + 3']));
    // the plot: a line per series and a mark per event in each panel
    // (drawn on the next animation frame)
    await page.waitForSelector('#plot path.plot-line', { timeout: 5000 });
    expect(await page.$$eval('#plot path.plot-line', (n) => n.length)).toBe(3);
    // two panels (x, whole numbers that change only at events, apart), each with both events
    expect(await page.$$eval('#plot clipPath', (n) => n.length)).toBe(2);
    expect(await page.$$eval('#plot .plot-event', (n) => n.length)).toBe(4);
    // the downloads, in the command line's formats
    const doc = JSON.parse((await page.evaluate('deltastepPlayground.json()')) as string);
    expect(doc.status).toBe('ok');
    expect(doc.columns).toEqual(['t', 'h', "h'", 'x']);
    expect(doc.events.map((e: { name: string }) => e.name)).toEqual(['bounce', 'delta(t - 1.25)']);
    const csv = ((await page.evaluate('deltastepPlayground.csv()')) as string).trim().split('\n');
    expect(csv[0]).toBe("t,h,h',x");
    expect(csv.length - 1).toBe(doc.rows.length);
    expect(errors).toEqual([]);
    // nothing fetched: the page itself, then data: and blob: URLs only
    expect(requests.filter((r) => !/^(data|blob):/.test(r)).map((r) => r.replace(/#.*$/, ''))).toEqual([FILE_URL]);
    await page.close();
  });

  it('a parameter slider runs the model again with its value', async () => {
    const { page, errors } = await openPage(chromium.browser);
    await openModel(page, BALL);
    expect((await runToEnd(page)).state).toBe('ok');
    // g's slider spans 0 to 4 (twice the model's 2); moved to 3, the page runs again at once
    const span = await page.$eval('input[data-slider="g"]', (e) => [
      (e as unknown as Slider).min,
      (e as unknown as Slider).max,
    ]);
    expect(span).toEqual(['0', '4']);
    await page.$eval('input[data-slider="g"]', (e) => {
      const slider = e as unknown as Slider;
      slider.value = '3';
      slider.dispatchEvent(new Event('input'));
    });
    expect(await page.$eval('input[data-param="g"]', (e) => (e as unknown as Slider).value)).toBe('3');
    // (the run with g = 3 has ended: its h(1.5) is no longer the 1/4 of g = 2)
    await page.waitForFunction('(deltastepPlayground.state.run?.summary?.final.h ?? 0.25) !== 0.25', {
      timeout: 20_000,
    });
    const values = JSON.parse((await page.evaluate('deltastepPlayground.json()')) as string).final as Values;
    // g = 3: the ball lands at t1 = sqrt(2/3) with h' = -g t1, leaves with e g t1, and at
    // t = 1.5 (before its next landing at t1 + 2 e t1 = 1.63) h = v s - g s^2 / 2, s = 1.5 - t1
    const g = 3,
      t1 = Math.sqrt(2 / g),
      v = 0.5 * g * t1,
      s = 1.5 - t1;
    expect(Math.abs(values.h - (v * s - (g / 2) * s * s))).toBeLessThan(1e-12);
    expect(Math.abs(values["h'"] - (v - g * s))).toBeLessThan(1e-12);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the share link holds the model; opening it shows that model', async () => {
    const { page, errors } = await openPage(chromium.browser);
    await openModel(page, BALL);
    const edited = BALL.replace('model Ball', 'model Shared');
    await page.evaluate(
      `deltastepPlayground.editor.dispatch({ changes: { from: 0, to: deltastepPlayground.editor.state.doc.length, insert: ${JSON.stringify(edited)} } })`,
    );
    await page.click('#share');
    const address = (await page.evaluate('location.href')) as string;
    expect(decodeURIComponent(address.slice(address.indexOf('#model=') + 7))).toBe(edited);
    await openModel(page, edited);
    await page.waitForFunction(
      () => (globalThis as unknown as Doc).document.querySelector('#model-name').textContent === 'Shared',
      { timeout: 20_000 },
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('marks a model error at its line and column, with the message', async () => {
    const { page } = await openPage(chromium.browser);
    await openModel(page, BROKEN);
    const problem = await text(page, '#problem');
    expect(problem).toMatch(/^model\.delta:3:6: /);
    expect(problem).toContain("'q'");
    // the squiggle: over `q`, at line 3, column 6 of the editor
    const mark = (await page.evaluate(`(() => {
      const view = deltastepPlayground.editor;
      const el = document.querySelector('.cm-ds-error');
      const pos = view.posAtDOM(el);
      const line = view.state.doc.lineAt(pos);
      return { text: el.textContent, line: line.number, column: pos - line.from + 1 };
    })()`)) as { text: string; line: number; column: number };
    expect(mark).toEqual({ text: 'q', line: 3, column: 6 });
    // its message on hover
    await page.hover('.cm-ds-error');
    await page.waitForSelector('.cm-ds-tooltip', { timeout: 5000 });
    expect(await text(page, '.cm-ds-tooltip')).toContain('model.delta:3:6');
    // running it says so too, and nothing runs
    const run = await runToEnd(page);
    expect(run.state).toBe('error');
    expect(run.text).toContain('line 3, column 6');
    // an array model: x[i]'' is the language's (no token marked), and its transform renders
    await page.evaluate(`deltastepPlayground.load(${JSON.stringify(ROW)}, 'row.delta')`);
    await page.waitForFunction(() => (globalThis as unknown as Doc).document.querySelector('#problem').hidden, {
      timeout: 10_000,
    });
    expect(await page.evaluate(INVALID_TOKENS)).toBe(0);
    expect(await text(page, '#system-text')).toContain("for i in 1:N:\n    x[i]' = x[i]'");
    expect(await page.$$eval('#system-latex .katex-error', (n) => n.length)).toBe(0);
    // a link whose model is not URL-encoded text says so and opens another model
    await page.goto('about:blank');
    await page.goto(`${FILE_URL}#model=%E0%A4%A`);
    expect(await text(page, '#status-message')).toContain('The model in the address could not be read');
    await page.close();
  });

  it('stops a long run; the page stays usable and keeps what was computed', async () => {
    const { page, errors } = await openPage(chromium.browser);
    await openModel(page, LONG);
    await page.click('#run');
    // rows arrive while the run goes on
    await page.waitForFunction('deltastepPlayground.state.run && deltastepPlayground.state.run.rowCount > 2', {
      timeout: 20_000,
    });
    expect(await page.$eval('#status', (e) => (e as unknown as Element).dataset.state)).toBe('running');
    // the page answers: an edit is checked (by the other worker) while the run goes on
    await page.evaluate(`(() => {
      const view = deltastepPlayground.editor;
      view.dispatch({ changes: { from: 6, to: 10, insert: 'Edited' } });
    })()`);
    await page.waitForFunction(
      () => (globalThis as unknown as Doc).document.querySelector('#model-name').textContent === 'Edited',
      { timeout: 10_000 },
    );
    expect(await page.$eval('#status', (e) => (e as unknown as Element).dataset.state)).toBe('running');
    await page.click('#stop');
    expect(await page.$eval('#status', (e) => (e as unknown as Element).dataset.state)).toBe('interrupted');
    expect(await text(page, '#status-text')).toMatch(/^stopped by you at t = /);
    const kept = (await page.evaluate('deltastepPlayground.state.run.rowCount')) as number;
    expect(kept).toBeGreaterThan(2);
    const doc = JSON.parse((await page.evaluate('deltastepPlayground.json()')) as string);
    expect(doc.status).toBe('interrupted');
    expect(doc.rows).toHaveLength(kept);
    // the pendulum's energy x'^2/2 - cos x = -cos 1 on every row kept (rtol 1e-12: an error of
    // at most about 1e-12 per step, over the 1e6 steps or so of the first rows)
    for (const [, x, v] of doc.rows) expect(Math.abs((v * v) / 2 - Math.cos(x) + Math.cos(1))).toBeLessThan(1e-6);
    // and the next run runs
    await page.evaluate(`deltastepPlayground.load(${JSON.stringify(BALL)}, 'ball.delta')`);
    const next = await runToEnd(page);
    expect(next.state).toBe('ok');
    expect(Math.abs(next.values.h - 0.25)).toBeLessThan(1e-12);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('loads and runs every example, featured ones to their published numbers', async () => {
    const { page, errors, requests } = await openPage(chromium.browser);
    await page.goto(`${url}playground/`);
    const files = readdirSync(`${ROOT}examples`).filter((f) => f.endsWith('.delta'));
    const options = await page.$$eval('#example option', (o) =>
      o.map((x) => (x as unknown as { value: string }).value),
    );
    expect(options.filter(Boolean).sort()).toEqual([...files].sort());
    const results: Record<string, Awaited<ReturnType<typeof runToEnd>>> = {};
    let ropeUnknowns: Values = {};
    for (const file of files) {
      await page.select('#example', file);
      expect(await page.evaluate('deltastepPlayground.editor.state.doc.toString()')).toBe(
        readFileSync(`${ROOT}examples/${file}`, 'utf8'),
      );
      results[file] = await runToEnd(page);
      // (the check, in its own worker, is done by now: its transform is this model's)
      const model = /^model\s+(\w+)/m.exec(readFileSync(`${ROOT}examples/${file}`, 'utf8'))?.[1];
      await page.waitForFunction(
        (name) => (globalThis as unknown as Doc).document.querySelector('#model-name').textContent === name,
        { timeout: 10_000 },
        model,
      );
      expect(await page.$$eval('#system-latex .katex-error', (n) => n.length), file).toBe(0);
      expect(await page.evaluate(INVALID_TOKENS), file).toBe(0);
      expect(results[file].state, `${file}: ${results[file].message}`).toBe(
        file === 'bouncing_ball.delta' ? 'zeno' : 'ok',
      );
      if (file === 'rope.delta')
        ropeUnknowns = JSON.parse((await page.evaluate('deltastepPlayground.json()')) as string).unknowns;
    }
    // the bouncing ball: accumulation at t1 (1 + e)/(1 - e) = 4.0637127688715781
    expect(results['bouncing_ball.delta'].text).toContain('4.06371276');
    // Hohmann's rope (shoot): the exact two-catenary solution (rtol 1e-10 in the file)
    const rope = results['rope.delta'];
    expect(rope.text).toMatch(/^shooting converged/);
    expect(Math.abs(ropeUnknowns.p1 - -1.1106615486105161)).toBeLessThan(1e-9);
    expect(Math.abs(ropeUnknowns.H - 8.186919493913407)).toBeLessThan(1e-9);
    expect(Math.abs(rope.values.y - 8)).toBeLessThan(1e-8);
    expect(Math.abs(rope.values.z - 12)).toBeLessThan(1e-8);
    // C12 task a, e = 0.5: six collisions, velocities 89/512, 99/512, 27/128, 27/64
    const c12 = results['c12_task_a.delta'].values;
    expect(c12.n).toBe(6);
    [89 / 512, 99 / 512, 27 / 128, 27 / 64].forEach((v, i) =>
      expect(Math.abs(c12[`x${i + 1}'`] - v)).toBeLessThan(1e-9),
    );
    // IDERKSolve 5.5.3: x(6) and y(6) from the closed-form rotations (rtol 1e-12 in the file)
    const iderk = results['iderk_553.delta'].values;
    expect(Math.abs(iderk.x - -0.176510727215426)).toBeLessThan(1e-10);
    expect(Math.abs(iderk.y - -0.456991751043584)).toBeLessThan(1e-10);
    expect(errors).toEqual([]);
    // from a static server as from file://: the page and nothing else
    expect(requests.filter((r) => !/^(data|blob):/.test(r))).toEqual([`${url}playground/`]);
    await page.close();
  });
});
