// Regenerates the screenshots of docs/playground.md from the built page (npm run build first):
//   node playground/screenshot.mjs
// Debian's chromium through puppeteer-core (DELTASTEP_CHROMIUM names another executable).
// docs/playground.png: ARGESIM C12 task a from the examples menu, run, its equations in view;
// docs/playground-system.png: the same model's transformed system, rendered by KaTeX;
// docs/playground-figure.png: the same run as a figure for a paper (title, labels, size).
import puppeteer from 'puppeteer-core';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const page = pathToFileURL(join(root, 'dist', 'playground', 'index.html')).href;
const browser = await puppeteer.launch({
  executablePath: process.env.DELTASTEP_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox'],
});
try {
  const tab = await browser.newPage();
  await tab.setViewport({ width: 1360, height: 860 });
  await tab.goto(page);
  await tab.waitForSelector('#example option[value="c12_task_a.delta"]');
  await tab.select('#example', 'c12_task_a.delta');
  await tab.waitForFunction("document.querySelector('#model-name').textContent === 'Spheres'");
  await tab.click('#run');
  await tab.waitForFunction("document.querySelector('#status').dataset.state === 'ok'", { timeout: 30_000 });
  // the model's equations rather than its opening comment
  await tab.evaluate('deltastepPlayground.editor.scrollDOM.scrollTop = 1e6');
  await new Promise((r) => setTimeout(r, 300));
  await tab.screenshot({ path: join(root, 'docs', 'playground.png') });
  await tab.click('[data-tab="system"]');
  await tab.waitForSelector('#system-latex .katex');
  await tab.screenshot({ path: join(root, 'docs', 'playground-system.png') });
  await tab.click('[data-tab="plot"]');
  await tab.click('#figure-toggle');
  const figure = {
    title: 'Four spheres, e = 0.5',
    xlabel: 'time t',
    ylabel: "velocities x1' ... x4'; collisions n",
    width: '640',
    height: '400',
  };
  for (const [field, text] of Object.entries(figure)) await tab.type(`[data-figure="${field}"]`, text);
  await tab.waitForFunction("document.querySelector('#plot svg').getAttribute('height') === '400'");
  // (no caret blinking in the last field)
  await tab.evaluate('document.activeElement.blur()');
  await new Promise((r) => setTimeout(r, 300));
  await tab.screenshot({ path: join(root, 'docs', 'playground-figure.png') });
  console.log('wrote docs/playground.png, docs/playground-system.png and docs/playground-figure.png');
} finally {
  await browser.close();
}
