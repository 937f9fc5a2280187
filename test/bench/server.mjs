// The bench's own loopback server: the fixture host pages, the widget under test, and the chat proxy in
// front of the in-memory sandbox, all on one origin. Unlike `npm start` the sandbox is called in-process
// (zero network latency) and every rate limit is off, so repeated runs measure the widget, not the limits.
// The widget is the whole dist/ folder as built (widget.js, chunks/, embed.*), read into memory once, so a
// rebuild while the bench runs cannot change it halfway; /debug/ is the same folder with the unminified
// loader and panel in place of the shipped ones (see run.mjs).
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { peerFile, peerNamed } from './peers.mjs';

const fixtures = new URL('./fixtures/', import.meta.url);

/** dist/ as built: every file by its path there ('widget.js', 'chunks/panel.<hash>.js'). */
function readFolder(folder, prefix = '') {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? readFolder(join(folder, entry.name), `${prefix}${entry.name}/`)
      : [[`${prefix}${entry.name}`, readFileSync(join(folder, entry.name))]],
  );
}

/**
 * The build under test, from dist/: `files` (path -> bytes), the loader (`widget.js`), the panel's file
 * and the language files (`chunks/<code>.<hash>.js`), as the loader and the panel name them.
 */
export function readBuild(root) {
  const files = new Map(readFolder(join(root, 'dist')));
  const loader = files.get('widget.js')?.toString('utf8');
  if (loader === undefined) throw new Error('dist/widget.js is missing: run npm run build (npm run bench does)');
  const chunks = [...files.keys()].filter((path) => /^chunks\/[^/]+\.js$/.test(path));
  const panels = chunks.filter((path) => path.startsWith('chunks/panel.'));
  if (panels.length !== 1) throw new Error(`dist/chunks holds ${panels.length} panel files: run npm run build`);
  const panel = panels[0];
  if (!loader.includes(panel)) throw new Error(`dist/widget.js does not name ${panel}: run npm run build`);
  const languages = Object.fromEntries(
    chunks.filter((path) => path !== panel).map((path) => [path.slice('chunks/'.length).split('.')[0], path]),
  );
  return { files, loader, panel, languages };
}

const TYPES = {
  '.js': 'text/javascript; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.css': 'text/css',
};

/** The script tag an owner pastes; `where` picks how it arrives on the page. */
function widgetTag(agentId, src, where, locale = 'en') {
  const attributes = {
    'agent-id': agentId,
    'api-base': '/api',
    'chat-url': '/api/chat',
    title: 'Harbor Physio',
    greeting: "Hi! I'm Harbor Physio's assistant. Ask about opening hours or book a time.",
    color: '#0f766e',
    locale,
    persist: 'local',
  };
  if (where === 'late') {
    // Injected after the page's load event, as tag managers do.
    const sets = Object.entries(attributes)
      .map(([k, v]) => `s.setAttribute('data-${k}', ${JSON.stringify(v)});`)
      .join('');
    return `<script>addEventListener('load', () => { const s = document.createElement('script'); s.src = ${JSON.stringify(src)}; ${sets} document.body.append(s); });</script>`;
  }
  const data = Object.entries(attributes)
    .map(([k, v]) => `data-${k}="${v.replace(/"/g, '&quot;')}"`)
    .join(' ');
  return `<script src="${src}" async ${data}></script>`;
}

function notFound(res) {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('Not found');
}

/**
 * The peers' files, and loopback answers for the services they call: Cal.com's booking app (a stub page in
 * its modal's iframe), Typebot's API and deep-chat's chat URL (404: their bots and models are not here).
 */
function peerRoute(url, res) {
  const file = peerFile(url.pathname);
  if (file !== undefined) {
    res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' });
    return res.end(file);
  }
  if (url.pathname.startsWith('/peers/cal-app/')) {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    return res.end('<!doctype html><title>Booking</title><p>The Cal.com booking app is not served offline.</p>');
  }
  if (url.pathname.startsWith('/peers/typebot-api/') || url.pathname.startsWith('/peers/deep-chat/')) {
    res.writeHead(404, { 'Content-Type': 'application/json' });
    return res.end(JSON.stringify({ message: 'Not available offline' }));
  }
  notFound(res);
}

/**
 * @param {{ root: string, build: ReturnType<typeof readBuild>, debug?: Record<string, string> }} options
 *   build: dist/ as read by readBuild, served from /; debug: files served under /debug/ in place of
 *   dist's (the unminified loader and panel), the rest of /debug/ being dist's.
 */
export async function startBenchServer({ root, build, debug = {} }) {
  const { createChatProxy } = await import(pathToFileURL(join(root, 'dist/server.js')).href);
  const { toNodeListener } = await import(pathToFileURL(join(root, 'dist/server-node.js')).href);
  const { createSandbox, DEMO_AGENT_ID, DEMO_API_KEY } = await import(pathToFileURL(join(root, 'dist/sandbox.js')).href);
  const sandbox = createSandbox({ rateLimit: { limit: 1_000_000, windowMs: 60_000 }, credits: 1_000_000 });
  const page = readFileSync(new URL('plain.html', fixtures), 'utf8');
  /** The bytes for a path of the widget's folder, or undefined. */
  const fileAt = (pathname) => {
    const path = decodeURIComponent(pathname.slice(1));
    if (path.startsWith('debug/')) return debug[path.slice('debug/'.length)] ?? build.files.get(path.slice('debug/'.length));
    return build.files.get(path);
  };

  let proxy;
  let origin;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/api/')) return proxy(req, res);
    if (url.pathname.startsWith('/peers/')) return peerRoute(url, res);
    if (url.pathname === '/' || url.pathname === '/plain.html') {
      // ?widget=none|body|head|late|peer:<name>, ?debug=1 for the unminified loader and panel, ?locale=de.
      const where = url.searchParams.get('widget') ?? 'body';
      const src = url.searchParams.has('debug') ? '/debug/widget.js' : '/widget.js';
      const peer = where.startsWith('peer:') ? peerNamed(where.slice(5)) : undefined;
      if (where.startsWith('peer:') && !peer) return notFound(res);
      const locale = url.searchParams.get('locale') ?? undefined;
      const ours = () => (where === 'none' ? '' : widgetTag(DEMO_AGENT_ID, src, where, locale));
      const tag = peer ? peer.tag(origin) : ours();
      const html = page
        .replace('<!-- widget:head -->', where === 'head' ? tag : '')
        .replace('<!-- widget:body -->', where === 'head' ? '' : tag);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      return res.end(html);
    }
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204);
      return res.end();
    }
    const file = fileAt(url.pathname);
    if (file !== undefined) {
      res.writeHead(200, { 'Content-Type': TYPES[extname(url.pathname)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
      return res.end(file);
    }
    notFound(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  proxy = toNodeListener(
    createChatProxy({
      apiKey: DEMO_API_KEY,
      baseUrl: 'http://sandbox.invalid',
      agentId: DEMO_AGENT_ID,
      allowedOrigins: [origin],
      forwardBooking: true,
      rateLimit: { perIp: false, perIpDaily: false, perConversation: false, dailyCap: false },
      fetch: (input, init) => sandbox.handle(new Request(input, init)),
    }),
  );

  /** The sandbox's reply to `message`, asked directly (the responder is deterministic). */
  async function replyTo(message) {
    const response = await sandbox.handle(
      new Request('http://sandbox.invalid/chat', {
        method: 'POST',
        headers: { Authorization: `Bearer ${DEMO_API_KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ agentId: DEMO_AGENT_ID, message }),
      }),
    );
    const body = await response.json();
    if (typeof body.reply !== 'string') throw new Error(`the sandbox did not answer ${JSON.stringify(message)}`);
    return body.reply;
  }

  return {
    origin,
    agentId: DEMO_AGENT_ID,
    replyTo,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
