// `npm start`: the demo host page, the built widget, the chat proxy and (unless a real service is
// configured) the in-memory sandbox service, all on one origin.
//   AGENT_BASE_URL, AGENT_API_KEY, AGENT_ID   use a real service instead of the sandbox
//   PORT (default 5173, 0 = any free port), HOST (default 127.0.0.1)
//   AGENT_SANDBOX_NOW=2026-11-23T14:00:00Z      freeze the sandbox clock (tests)
//   AGENT_SANDBOX_STRICT=1                      strict-spec mode (src/sandbox/strict-spec.ts)
//   AGENT_SANDBOX_FAULTS=/booking/public/slots:gateway:1   paths that fail (path:gateway|shape[:times], comma-separated)
//   AGENT_FIXTURES=1                            also serve test/e2e/fixtures under /fixtures/ (tests)
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const { createChatProxy, toNodeListener } = await import(join(root, 'dist/server.js'));
const { createSandbox, DEMO_AGENT_ID, DEMO_API_KEY, parseFaults } = await import(join(root, 'dist/sandbox.js'));

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 5173);
const realService = process.env.AGENT_BASE_URL || undefined;
if (realService && !(process.env.AGENT_API_KEY && process.env.AGENT_ID)) {
  console.error('AGENT_BASE_URL needs AGENT_API_KEY and AGENT_ID too.');
  process.exit(1);
}

const frozen = process.env.AGENT_SANDBOX_NOW ? new Date(process.env.AGENT_SANDBOX_NOW) : undefined;
if (frozen && Number.isNaN(frozen.getTime())) {
  console.error(`AGENT_SANDBOX_NOW is not a date: ${process.env.AGENT_SANDBOX_NOW}`);
  process.exit(1);
}
let faults;
try {
  faults = parseFaults(process.env.AGENT_SANDBOX_FAULTS ?? '');
} catch (error) {
  console.error(`AGENT_SANDBOX_FAULTS: ${error.message}`);
  process.exit(1);
}
const strict = Boolean(process.env.AGENT_SANDBOX_STRICT);
const sandbox = createSandbox({ basePath: '/sandbox', strict, faults, ...(frozen ? { now: () => frozen } : {}) });
const sandboxListener = toNodeListener((request) => sandbox.handle(request));

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8', '.webmanifest': 'application/manifest+json',
};
const fixtures = Boolean(process.env.AGENT_FIXTURES);
const staticRoots = [
  ['/fixtures/', fixtures ? join(root, 'test/e2e/fixtures') : undefined],
  // Real third-party CSS for the hostile-host fixture pages.
  ['/vendor/bootstrap/', fixtures ? join(root, 'node_modules/bootstrap/dist/css') : undefined],
  ['/vendor/tailwindcss/', fixtures ? join(root, 'node_modules/tailwindcss') : undefined],
  ['/', join(root, 'dist')],
  ['/', join(root, 'public')],
].filter(([, dir]) => dir);

/** Fixture pages may ship their own response headers (e.g. a CSP) in `<page>.headers.json`. */
function serveStatic(req, res) {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  for (const [prefix, dir] of staticRoots) {
    if (!path.startsWith(prefix)) continue;
    let file = normalize(join(dir, path.slice(prefix.length)));
    if (!file.startsWith(dir + sep) && file !== dir) continue;
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) continue;
    const headers = { 'Content-Type': types[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' };
    if (existsSync(file + '.headers.json')) Object.assign(headers, JSON.parse(readFileSync(file + '.headers.json', 'utf8')));
    res.writeHead(200, headers);
    createReadStream(file).pipe(res);
    return;
  }
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('Not found');
}

let proxyListener;
const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  if (path === '/api/chat' || path.startsWith('/api/booking/public/')) return proxyListener(req, res);
  if (!realService && (path === '/sandbox' || path.startsWith('/sandbox/'))) return sandboxListener(req, res);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' });
    return res.end();
  }
  try {
    serveStatic(req, res);
  } catch {
    res.writeHead(500);
    res.end();
  }
});

server.listen(port, host, () => {
  const { port: actual } = server.address();
  const origin = `http://${host === '127.0.0.1' ? 'localhost' : host}:${actual}`;
  proxyListener = toNodeListener(
    createChatProxy({
      apiKey: process.env.AGENT_API_KEY ?? DEMO_API_KEY,
      baseUrl: realService ?? `http://127.0.0.1:${actual}/sandbox`,
      agentId: process.env.AGENT_ID ?? DEMO_AGENT_ID,
      allowedOrigins: [origin, `http://127.0.0.1:${actual}`],
      forwardBooking: true,
      log: process.env.AGENT_LOG ? (entry) => console.log(JSON.stringify(entry)) : undefined,
    }),
  );
  console.log(`agent-widget demo on ${realService ? realService : 'the built-in sandbox'}: ${origin}/`);
});
