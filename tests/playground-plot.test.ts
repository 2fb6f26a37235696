/**
 * The playground's plot arithmetic (playground/plot-geometry.ts), without a browser: round
 * ticks, the reduction of a long trajectory to four points per pixel column that draws the
 * same line, panels by scale, and the row under the pointer. The figure's fields
 * (playground/figure.ts): what they set, sizes checked, the share link's part. And in Chromium
 * (dist/playground/index.html): the title, axis titles and size drawn, the Download SVG file
 * with them (opened in the browser as a file of its own), and a share link that draws the
 * same figure.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { figureFromHash, figureHash, figureLook } from '../playground/figure.js';
import {
  extentOf,
  isMonotone,
  nearestRow,
  niceTicks,
  pathOf,
  scaleGroups,
  type Frame,
} from '../playground/plot-geometry.js';
import { RunData } from '../playground/run-data.js';
import { launchChromium, openPage, SKIP_BROWSER, type Chromium } from './browser-helpers.js';
import { ROOT } from './helpers.js';

/** A run of `rows` as the worker sends them: chunks of a flat Float64Array. */
function runOf(columns: string[], rows: number[][], chunk = 1000): RunData {
  const d = new RunData(columns, columns[0], rows[0][0], rows[rows.length - 1][0], false);
  for (let i = 0; i < rows.length; i += chunk) {
    const part = rows.slice(i, i + chunk);
    d.add(Float64Array.from(part.flat()), part.length, [], part[part.length - 1][0]);
  }
  return d;
}

function points(path: string): [number, number][] {
  return [...path.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
}

describe('the plot arithmetic', () => {
  it('puts ticks at 1, 2 or 5 times a power of ten', () => {
    expect(niceTicks(0, 1, 5)).toEqual({ ticks: [0, 0.2, 0.4, 0.6, 0.8, 1], step: 0.2 });
    expect(Object.is(niceTicks(-1, 1, 2).ticks[1], 0)).toBe(true);
    expect(niceTicks(-4.4, 3.6, 8).step).toBe(1);
    expect(niceTicks(0, 1e6, 4).ticks).toEqual([0, 500000, 1000000]);
  });

  it('draws 10^5 rows as at most four points per pixel column, with every extreme kept', () => {
    const n = 100_000;
    const rows = Array.from({ length: n }, (_, i) => {
      const t = (i / (n - 1)) * 20;
      return [t, Math.sin(7 * t) + (i === 54_321 ? 3 : 0)]; // a spike one row wide
    });
    const d = runOf(['t', 'y'], rows, 4096);
    const ext = extentOf(d, 0, [1], null);
    const f: Frame = { left: 0, top: 0, width: 500, height: 300, x: ext.x, y: ext.y.get(1) ?? [0, 1] };
    const drawn = points(pathOf(d, 0, 1, f, isMonotone(d, 0)));
    expect(drawn.length).toBeLessThanOrEqual(4 * 501);
    // each pixel column's highest and lowest point is drawn (to the 0.1 px the path keeps)
    const byColumn = new Map<number, number[]>();
    for (const [t, y] of rows) {
      const col = Math.floor((t / 20) * 500);
      const py = 300 - ((y - f.y[0]) / (f.y[1] - f.y[0])) * 300;
      const [lo, hi] = byColumn.get(col) ?? [Infinity, -Infinity];
      byColumn.set(col, [Math.min(lo, py), Math.max(hi, py)]);
    }
    for (const [col, [lo, hi]] of byColumn) {
      // (the path rounds x to 0.1 px: a point of this column is drawn within [col - 0.05, col + 1.05])
      const ys = drawn.filter(([x]) => x >= col - 0.05 && x <= col + 1.05).map(([, y]) => y);
      expect(
        ys.some((y) => Math.abs(y - lo) <= 0.051),
        `column ${col}: its highest point`,
      ).toBe(true);
      expect(
        ys.some((y) => Math.abs(y - hi) <= 0.051),
        `column ${col}: its lowest point`,
      ).toBe(true);
    }
    // the spike reaches the top of the frame
    expect(Math.min(...drawn.map(([, y]) => y))).toBeCloseTo(0, 1);
  });

  it('puts counters and series two decades apart in panels of their own', () => {
    // t, a position of size 10, a velocity of size 1, a gap of size 1e-4, a counter n
    const rows: number[][] = [];
    for (let i = 0; i <= 100; i++) {
      const t = i / 10;
      const n = Math.floor(t / 3);
      rows.push([t, 10 * Math.cos(t), Math.sin(t), 1e-4 * t, n]);
      // an event every 3: two rows at the same time, n counting up between them
      if (i > 0 && i % 30 === 0) rows.splice(rows.length - 1, 0, [t, 10 * Math.cos(t), Math.sin(t), 1e-4 * t, n - 1]);
    }
    const d = runOf(['t', 'x', "x'", 'gap', 'n'], rows);
    const ext = extentOf(d, 0, [1, 2, 3, 4], null);
    expect(scaleGroups(d, [1, 2, 3, 4], ext)).toEqual([
      { columns: [1, 2], counter: false },
      { columns: [3], counter: false },
      { columns: [4], counter: true },
    ]);
  });

  it('finds the row under the pointer in rising and in falling time', () => {
    const rising = runOf(
      ['t', 'y'],
      [
        [0, 0],
        [1, 1],
        [2, 4],
        [3, 9],
      ],
    );
    expect(nearestRow(rising, 0, 1.4)).toBe(1);
    expect(nearestRow(rising, 0, 1.6)).toBe(2);
    const falling = runOf(
      ['t', 'y'],
      [
        [3, 9],
        [2, 4],
        [1, 1],
        [0, 0],
      ],
    );
    expect(nearestRow(falling, 0, 2.9)).toBe(0);
    expect(nearestRow(falling, 0, 0.2)).toBe(3);
  });
});

describe('the figure fields', () => {
  it('set the texts, the y labels by panel, and sizes that are whole pixels from 200 to 4000', () => {
    expect(
      figureLook({ title: ' A ball ', xlabel: 'time (s)', ylabel: 'height; ; kicks', width: '900', height: '480' }),
    ).toEqual({
      look: { title: 'A ball', xLabel: 'time (s)', yLabels: ['height', '', 'kicks'], width: 900, height: 480 },
      problems: {},
    });
    // empty fields: the plot's own choices
    expect(figureLook({ title: '  ', width: '' })).toEqual({ look: {}, problems: {} });
    for (const bad of ['199', '4001', '12.5', '800px', '-300', '1e3', 'abc']) {
      const { look, problems } = figureLook({ width: bad, height: bad });
      expect(look).toEqual({});
      expect(problems.width).toBe(
        `width: '${bad}' is not a whole number of pixels from 200 to 4000 (the plot keeps the page's width until it is)`,
      );
      expect(problems.height).toMatch(/^height: /);
    }
    expect(figureLook({ width: '200', height: '4000' }).look).toEqual({ width: 200, height: 4000 });
  });

  it('travel in the share link after the model, and come back from it', () => {
    const text = { title: 'A & B = 50%', ylabel: "h (m); h' (m/s)", width: '900' };
    const hash = `#model=${encodeURIComponent("y' = 1")}${figureHash(text)}`;
    expect(hash).toBe("#model=y'%20%3D%201&title=A%20%26%20B%20%3D%2050%25&ylabel=h%20(m)%3B%20h'%20(m%2Fs)&width=900");
    expect(figureFromHash(hash)).toEqual(text);
    expect(figureFromHash('#model=x')).toEqual({});
    // a field that is not URL-encoded text is left out, the others kept
    expect(figureFromHash('#model=x&title=%E0%A4%A&width=300')).toEqual({ width: '300' });
  });
});

const PAGE = `${ROOT}dist/playground/index.html`;
const FILE_URL = `file://${PAGE}`;

// a ball that bounces once before t = 1.5 (at t = 1), with units: two panels, h and h' in one,
// the counter n of bounces in its own
const BALL = `model Ball
# units: t s, h m, h' m/s
independent t from 0 to 1.5
parameter g = 2, e = 0.5
discrete n = 0
event bounce when h falls do n := n + 1 end
h'' = -g - (1 + e)*h'*delta(t - bounce)
h(0) = 1; h'(0) = 0
output h, h', n`;

/** The little of the DOM the callbacks use (the tests compile without the DOM library). */
interface Node {
  textContent: string;
  value: string;
  placeholder: string;
  hidden: boolean;
  className: string;
  clientWidth: number;
  clientHeight: number;
  dataset: Record<string, string>;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { width: number; height: number };
  querySelector(s: string): Node | null;
  querySelectorAll(s: string): Node[];
}
declare const document: Node & { documentElement: Node };

/** What a drawn plot says: its size and texts (a page's #plot svg, or an SVG file opened alone). */
interface Drawn {
  width: string | null;
  height: string | null;
  title: string | null;
  xTitle: string[];
  yTitles: string[];
  lines: number;
}

async function drawn(page: Page, svg: string): Promise<Drawn> {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel) as Node;
    const texts = (s: string) => [...root.querySelectorAll(s)].map((e) => e.textContent);
    return {
      width: root.getAttribute('width'),
      height: root.getAttribute('height'),
      title: root.querySelector('.plot-heading')?.textContent ?? null,
      xTitle: texts('.plot-xtitle'),
      yTitles: texts('.plot-ytitle'),
      lines: root.querySelectorAll('path.plot-line').length,
    };
  }, svg);
}

/** Opens the page at `hash`, runs the model to its end, and waits for the plot. */
async function openAndRun(page: Page, hash: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${FILE_URL}${hash}`);
  await page.waitForFunction(() => (document.querySelector('#system-text') as Node).textContent !== '', {
    timeout: 20_000,
  });
  await page.click('#run');
  await page.waitForFunction(() => (document.querySelector('#status') as Node).dataset.state === 'ok', {
    timeout: 20_000,
  });
  await page.waitForSelector('#plot path.plot-line', { timeout: 5000 });
}

/** Waits until the plot has drawn what `test` looks for (the plot draws on an animation frame). */
async function until(page: Page, test: string): Promise<void> {
  await page.waitForFunction(test, { timeout: 5000 });
}

/** Waits until the plot is drawn at this size. */
async function untilSize(page: Page, width: number, height: number): Promise<void> {
  await until(
    page,
    `(() => { const svg = document.querySelector('#plot svg');
      return svg.getAttribute('width') === '${width}' && svg.getAttribute('height') === '${height}'; })()`,
  );
}

async function typeInto(page: Page, field: string, text: string): Promise<void> {
  const selector = `[data-figure="${field}"]`;
  await page.$eval(selector, (e) => ((e as unknown as Node).value = ''));
  await page.type(selector, text);
}

/** Clicks Download SVG with downloads going to `dir`; the file's name and text. */
async function downloadSvg(page: Page, dir: string): Promise<{ name: string; text: string }> {
  const session = await page.createCDPSession();
  await session.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir });
  await page.click('#download-svg');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const done = readdirSync(dir).filter((f) => f.endsWith('.svg'));
    if (done.length > 0) return { name: done[0], text: readFileSync(join(dir, done[0]), 'utf8') };
    if (Date.now() > deadline) throw new Error(`no SVG downloaded into ${dir}: ${readdirSync(dir).join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(SKIP_BROWSER)('the figure in Chromium', () => {
  let chromium: Chromium;
  let downloads: string;

  beforeAll(async () => {
    if (!existsSync(PAGE)) throw new Error(`${PAGE} is missing: run npm run build`);
    chromium = await launchChromium();
    downloads = mkdtempSync(join(tmpdir(), 'deltastep-downloads-'));
  }, 30_000);

  afterAll(async () => {
    await chromium?.close();
    if (downloads) rmSync(downloads, { recursive: true, force: true });
  });

  it('draws the title, axis labels and size chosen, and downloads them as an SVG file', async () => {
    const { page, errors } = await openPage(chromium.browser);
    await openAndRun(page, `#model=${encodeURIComponent(BALL)}`);
    // the plot's own: no title, t with its unit, each panel's series with theirs, the box's size
    const box = await page.$eval('#plot', (e) => ({
      width: (e as unknown as Node).clientWidth,
      height: (e as unknown as Node).clientHeight,
    }));
    const own = await drawn(page, '#plot svg');
    expect(own).toMatchObject({ title: null, xTitle: ['t (s)'], yTitles: ["h (m), h' (m/s)", 'n'], lines: 3 });
    expect([Number(own.width), Number(own.height)]).toEqual([box.width, box.height]);
    expect(await page.$eval('#figure', (e) => (e as unknown as Node).hidden)).toBe(true);
    // ... shown as the placeholders of the empty fields
    await page.click('#figure-toggle');
    // (the fields take room from the plot, drawn again at its new size on the next frame)
    await until(
      page,
      `document.querySelector('[data-figure="height"]').placeholder === String(document.querySelector('#plot').clientHeight)`,
    );
    const placeholders = await page.$$eval('[data-figure]', (es) => es.map((e) => (e as unknown as Node).placeholder));
    const shrunk = await drawn(page, '#plot svg');
    expect(placeholders).toEqual(['none', 't (s)', "h (m), h' (m/s); n", shrunk.width, shrunk.height]);

    await typeInto(page, 'title', 'A ball & its bounce <1>');
    await typeInto(page, 'xlabel', 'time (s)');
    await typeInto(page, 'ylabel', 'height; bounces');
    await typeInto(page, 'width', '900');
    await typeInto(page, 'height', '480');
    await untilSize(page, 900, 480);
    const chosen: Drawn = {
      width: '900',
      height: '480',
      title: 'A ball & its bounce <1>',
      xTitle: ['time (s)'],
      yTitles: ['height', 'bounces'],
      lines: 3,
    };
    expect(await drawn(page, '#plot svg')).toEqual(chosen);
    // larger than the box: shown whole, smaller, and the page says so
    expect(await page.$eval('#plot-note', (e) => (e as unknown as Node).textContent)).toMatch(
      /^Shown at \d+% of its 900 × 480 px; Download SVG writes it whole\.$/,
    );
    // one label for every panel
    await typeInto(page, 'ylabel', 'state');
    await until(page, `[...document.querySelectorAll('#plot .plot-ytitle')].every((e) => e.textContent === 'state')`);
    await typeInto(page, 'ylabel', 'height; bounces');
    await until(page, `document.querySelector('#plot .plot-ytitle').textContent === 'height'`);

    // the file: a standalone SVG with the texts, the size and the style inside
    const file = await downloadSvg(page, downloads);
    expect(file.name).toBe('Ball.svg');
    expect(file.text).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/,
    );
    expect(file.text).toMatch(/<svg [^>]*width="900" height="480"/);
    expect(file.text).toContain('<style>');
    expect(file.text).toContain('A ball &amp; its bounce &lt;1&gt;');
    expect(file.text).not.toMatch(/plot-cursor|plot-zoom"|style="/);
    // opened alone in the browser, it is the same figure, at its size
    const alone = await chromium.browser.newPage();
    await alone.goto(`file://${join(downloads, file.name)}`);
    expect(await alone.evaluate(() => document.documentElement.getAttribute('xmlns'))).toBe(
      'http://www.w3.org/2000/svg',
    );
    expect(await drawn(alone, 'svg')).toEqual(chosen);
    const size = await alone.evaluate(() => {
      const r = document.documentElement.getBoundingClientRect();
      return { width: r.width, height: r.height };
    });
    expect([size.width, size.height]).toEqual([900, 480]);
    // its texts in the style's font, not the browser's default serif
    expect(
      await alone.evaluate(
        `getComputedStyle(document.querySelector('.plot-heading')).fontFamily.startsWith('system-ui')`,
      ),
    ).toBe(true);
    await alone.close();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a share link holds the figure; opening it draws the same', async () => {
    const { page, errors } = await openPage(chromium.browser);
    await openAndRun(page, `#model=${encodeURIComponent(BALL)}`);
    await page.click('#figure-toggle');
    await typeInto(page, 'title', 'Shared ball');
    await typeInto(page, 'ylabel', 'height (m)');
    await typeInto(page, 'width', '640');
    await typeInto(page, 'height', '360');
    await untilSize(page, 640, 360);
    const before = await drawn(page, '#plot svg');
    await page.click('#share');
    const address = (await page.evaluate('location.href')) as string;
    expect(address).toMatch(/#model=[^&]+&title=Shared%20ball&ylabel=height%20\(m\)&width=640&height=360$/);

    const { page: other, errors: otherErrors } = await openPage(chromium.browser);
    await openAndRun(other, address.slice(address.indexOf('#')));
    await untilSize(other, 640, 360);
    expect(await drawn(other, '#plot svg')).toEqual(before);
    expect(before).toMatchObject({ title: 'Shared ball', yTitles: ['height (m)', 'height (m)'], height: '360' });
    // the fields show what the link set, and are open
    expect(await other.$eval('#figure', (e) => (e as unknown as Node).hidden)).toBe(false);
    expect(await other.$$eval('[data-figure]', (es) => es.map((e) => (e as unknown as Node).value))).toEqual([
      'Shared ball',
      '',
      'height (m)',
      '640',
      '360',
    ]);
    expect([...errors, ...otherErrors]).toEqual([]);
    await page.close();
    await other.close();
  });

  it('says at its field what is wrong with a size, keeps the page size, and downloads nothing', async () => {
    const { page, errors } = await openPage(chromium.browser);
    await openAndRun(page, `#model=${encodeURIComponent(BALL)}&width=50&height=${encodeURIComponent('480.5')}`);
    const fields = await page.$$eval('[data-figure="width"], [data-figure="height"]', (es) =>
      es.map((e) => [(e as unknown as Node).value, (e as unknown as Node).className]),
    );
    expect(fields).toEqual([
      ['50', 'invalid'],
      ['480.5', 'invalid'],
    ]);
    expect(await page.$eval('#figure-problem', (e) => (e as unknown as Node).textContent)).toBe(
      "width: '50' is not a whole number of pixels from 200 to 4000 (the plot keeps the page's width until it is)\n" +
        "height: '480.5' is not a whole number of pixels from 200 to 4000 (the plot keeps the page's height until it is)",
    );
    // (the fields opened, with the message, take room from the plot: drawn again on the next frame)
    await until(
      page,
      `(() => { const box = document.querySelector('#plot'), svg = box.querySelector('svg');
        return svg.getAttribute('width') === String(box.clientWidth) && svg.getAttribute('height') === String(box.clientHeight); })()`,
    );
    const box = await page.$eval('#plot', (e) => ({
      width: (e as unknown as Node).clientWidth,
      height: (e as unknown as Node).clientHeight,
    }));
    const shown = await drawn(page, '#plot svg');
    expect([Number(shown.width), Number(shown.height)]).toEqual([box.width, box.height]);
    const before = readdirSync(downloads).length;
    const session = await page.createCDPSession();
    await session.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
    await page.click('#download-svg');
    await until(page, `document.querySelector('#toast').textContent.startsWith('Not downloaded: width')`);
    await new Promise((r) => setTimeout(r, 300));
    expect(readdirSync(downloads)).toHaveLength(before);
    // fixed, the size applies and the message goes
    await typeInto(page, 'width', '700');
    await typeInto(page, 'height', '400');
    await untilSize(page, 700, 400);
    expect(await page.$eval('#figure-problem', (e) => (e as unknown as Node).hidden)).toBe(true);
    expect(await page.$$eval('#figure .invalid', (es) => es.length)).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
