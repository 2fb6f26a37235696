// `npm run playground`: serves dist/ on 127.0.0.1 (no dependency: node:http) and prints the
// address of the playground and the path of its file, which opens from file:// as well.
//
//   npm run playground            (port 8173, or a free one when that is taken)
//   PORT=9000 npm run playground
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const page = join(dist, 'playground', 'index.html');
if (!existsSync(page)) {
  console.error(`${page} is missing: run npm run build first`);
  process.exit(1);
}
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
};

const server = createServer((req, res) => {
  let path;
  try {
    path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname));
  } catch {
    res.writeHead(400).end('bad request');
    return;
  }
  if (path === sep || path === '/') {
    res.writeHead(302, { location: '/playground/' }).end();
    return;
  }
  const file = join(dist, path.endsWith('/') ? join(path, 'index.html') : path);
  // (nothing outside dist/)
  if (!file.startsWith(dist) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
  res.end(readFileSync(file));
});

function listen(port) {
  server.once('error', (err) => {
    if (err.code === 'EADDRINUSE' && port !== 0) listen(0);
    else {
      console.error(`cannot serve the playground: ${err.message}`);
      process.exit(1);
    }
  });
  server.listen(port, '127.0.0.1', () => {
    const { port: actual } = server.address();
    console.log(`deltastep playground: http://127.0.0.1:${actual}/playground/`);
    console.log(`(or open ${page} directly; the module is http://127.0.0.1:${actual}/deltastep.browser.js)`);
    console.log('Ctrl-C stops the server.');
  });
}

listen(Number(process.env.PORT ?? 8173));
