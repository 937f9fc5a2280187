// `npm start`: the demo host page, the built widget, the chat proxy and (unless a real service is
// configured) the in-memory sandbox service, all on one origin. The production counterpart of
// `npm run dev`; it serves dist/ as built, compressed the way a CDN would.
//   PORT (default 5173, 0 = any free port), HOST (default 127.0.0.1)
//   AGENT_*                                     see scripts/demo-api.mjs
//   AGENT_FIXTURES=1                            also serve test/e2e/fixtures under /fixtures/ (tests)
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { createDemoApi, demoSettings } from './demo-api.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const load = (file) => import(pathToFileURL(join(root, 'dist', file)).href);

let settings;
try {
  settings = demoSettings(process.env);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const sandbox = await load('sandbox.js');
const api = createDemoApi({ server: await load('server.js'), node: await load('server-node.js'), sandbox }, settings);
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 5173);

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const compressible = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.webmanifest']);
const fixtures = Boolean(process.env.AGENT_FIXTURES);
const staticRoots = [
  ['/fixtures/', fixtures ? join(root, 'test/e2e/fixtures') : undefined],
  // Real third-party CSS for the hostile-host fixture pages.
  ['/vendor/bootstrap/', fixtures ? join(root, 'node_modules/bootstrap/dist/css') : undefined],
  ['/vendor/tailwindcss/', fixtures ? join(root, 'node_modules/tailwindcss') : undefined],
  // The package's dependencies, for the fixture page that imports dist/agent-widget.js with an import map.
  ['/vendor/preact/', fixtures ? join(root, 'node_modules/preact') : undefined],
  ['/vendor/@preact/', fixtures ? join(root, 'node_modules/@preact') : undefined],
  ['/', join(root, 'dist')],
  ['/', join(root, 'public')],
].filter(([, dir]) => dir);

/** The codings the client accepts (q > 0), e.g. `gzip, deflate, br;q=0.5`. */
function acceptedCodings(header = '') {
  const accepted = new Set();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  return accepted;
}

/** Compressed bodies, made once per file version: brotli at its best costs ~100 ms for the widget. */
const compressedCache = new Map();
function compressed(file, stat, coding) {
  const key = `${coding} ${file}`;
  const hit = compressedCache.get(key);
  if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit.body;
  const raw = readFileSync(file);
  const brotli = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length };
  const body = coding === 'br' ? brotliCompressSync(raw, { params: brotli }) : gzipSync(raw, { level: 9 });
  compressedCache.set(key, { mtimeMs: stat.mtimeMs, size: stat.size, body });
  return body;
}

/** Fixture pages may ship their own response headers (e.g. a CSP) in `<page>.headers.json`. */
function serveStatic(req, res) {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  for (const [prefix, dir] of staticRoots) {
    if (!path.startsWith(prefix)) continue;
    let file = normalize(join(dir, path.slice(prefix.length)));
    if (!file.startsWith(dir + sep) && file !== dir) continue;
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) continue;
    const stat = statSync(file);
    // A chunk's name changes with its content: kept for a year, as a CDN would. The rest is checked each time.
    const immutable = path.startsWith('/chunks/');
    const headers = {
      'Content-Type': types[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    if (existsSync(file + '.headers.json')) Object.assign(headers, JSON.parse(readFileSync(file + '.headers.json', 'utf8')));
    let body;
    if (compressible.has(extname(file))) {
      // Caches must keep one copy per coding.
      headers.Vary = 'Accept-Encoding';
      const accepted = acceptedCodings(req.headers['accept-encoding']);
      // Brotli first, where the client takes it.
      const coding = ['br', 'gzip'].find((name) => accepted.has(name));
      if (coding) {
        headers['Content-Encoding'] = coding;
        body = compressed(file, stat, coding);
      }
    }
    body ??= readFileSync(file);
    headers['Content-Length'] = body.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('Not found');
}

const server = createServer((req, res) => {
  api.handle(req, res, () => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' });
      res.end();
      return;
    }
    try {
      serveStatic(req, res);
    } catch {
      res.writeHead(500);
      res.end();
    }
  });
});

server.on('error', (error) => {
  const taken = error.code === 'EADDRINUSE';
  console.error(
    taken
      ? `Port ${port} on ${host} is already in use: start on another with PORT=5174 npm start (PORT=0 picks a free one).`
      : `The demo server could not listen on ${host}:${port}: ${error.message}`,
  );
  process.exit(1);
});

server.listen(port, host, () => {
  const { port: actual } = server.address();
  const origin = `http://${host === '127.0.0.1' ? 'localhost' : host}:${actual}`;
  api.listening(actual, origin);
  console.log(`agent-widget demo on ${api.upstream}: ${origin}/`);
  console.log(
    `Pages allowed to use its chat: ${api.allowedOrigins.join(', ')}. ` +
      `Your own page: ALLOWED_ORIGINS=http://localhost:8080 npm start, then on it ` +
      `<script src="${origin}/widget.js" async data-agent-id="${settings.agentId ?? sandbox.DEMO_AGENT_ID}" ` +
      `data-chat-url="${origin}/api/chat" data-api-base="${origin}/api"></script>`,
  );
  if (!settings.realService)
    console.log(
      `Command line against the sandbox: AGENT_BASE_URL=${origin}/sandbox AGENT_API_KEY=${sandbox.DEMO_API_KEY} ` +
        `AGENT_ID=${sandbox.DEMO_AGENT_ID} npx agent-widget usage`,
    );
});
