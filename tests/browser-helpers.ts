/**
 * Chromium for the browser tests (puppeteer-core drives the system's chromium; no package
 * downloads a browser here) and a static file server on 127.0.0.1.
 *
 * A missing browser fails the tests with what to do, so that they never skip silently: the
 * CI script installs Debian's chromium where it is missing. `DELTASTEP_CHROMIUM` names
 * another executable; `DELTASTEP_SKIP_BROWSER=1` skips them on purpose (and says so).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const CHROMIUM = process.env.DELTASTEP_CHROMIUM ?? '/usr/bin/chromium';
export const SKIP_BROWSER = process.env.DELTASTEP_SKIP_BROWSER === '1';
if (SKIP_BROWSER) console.warn('DELTASTEP_SKIP_BROWSER=1: the browser tests are skipped');

export interface Chromium {
  browser: Browser;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Chromium> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `no browser at ${CHROMIUM}: install Debian's chromium (apt-get install chromium), name another with ` +
        'DELTASTEP_CHROMIUM=/path/to/chrome, or skip the browser tests with DELTASTEP_SKIP_BROWSER=1',
    );
  const profile = mkdtempSync(join(tmpdir(), 'deltastep-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A page that records its console errors and every request it makes (tests assert no network). */
export async function openPage(browser: Browser): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => requests.push(r.url()));
  await page.setViewport({ width: 1400, height: 900 });
  return { page, errors, requests };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.css': 'text/css',
};

/**
 * Serves the files under `root` (nothing outside it) and the given `pages` (path to HTML) on a
 * free port of 127.0.0.1.
 */
export async function serveDirectory(
  root: string,
  pages: Record<string, string> = {},
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (Object.hasOwn(pages, path)) {
      res.writeHead(200, { 'content-type': TYPES['.html'] }).end(pages[path]);
      return;
    }
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/`, server };
}
