// The bench's own loopback server: the fixture host pages, the widget under test, and the chat proxy in
// front of the in-memory sandbox, all on one origin. Unlike `npm start` the sandbox is called in-process
// (zero network latency) and every rate limit is off, so repeated runs measure the widget, not the limits.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { peerFile, peerNamed } from './peers.mjs';

const fixtures = new URL('./fixtures/', import.meta.url);

/** The script tag an owner pastes; `where` picks how it arrives on the page. */
function widgetTag(agentId, src, where) {
  const attributes = {
    'agent-id': agentId,
    'api-base': '/api',
    'chat-url': '/api/chat',
    title: 'Harbor Physio',
    greeting: "Hi! I'm Harbor Physio's assistant. Ask about opening hours or book a time.",
    color: '#0f766e',
    locale: 'en',
    persist: 'local',
  };
  if (where === 'late') {
    // Injected after the page's load event, as tag managers do.
    const sets = Object.entries(attributes).map(([k, v]) => `s.setAttribute('data-${k}', ${JSON.stringify(v)});`).join('');
    return `<script>addEventListener('load', () => { const s = document.createElement('script'); s.src = ${JSON.stringify(src)}; ${sets} document.body.append(s); });</script>`;
  }
  const data = Object.entries(attributes).map(([k, v]) => `data-${k}="${v.replace(/"/g, '&quot;')}"`).join(' ');
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
 * @param {{ root: string, widget: string, debugWidget?: string }} options
 *   widget: the code served as /widget.js; debugWidget: an unminified build served as /widget.debug.js.
 */
export async function startBenchServer({ root, widget, debugWidget }) {
  const { createChatProxy } = await import(pathToFileURL(join(root, 'dist/server.js')).href);
  const { toNodeListener } = await import(pathToFileURL(join(root, 'dist/server-node.js')).href);
  const { createSandbox, DEMO_AGENT_ID, DEMO_API_KEY } = await import(pathToFileURL(join(root, 'dist/sandbox.js')).href);
  const sandbox = createSandbox({ rateLimit: { limit: 1_000_000, windowMs: 60_000 }, credits: 1_000_000 });
  const page = readFileSync(new URL('plain.html', fixtures), 'utf8');
  const scripts = new Map([
    ['/widget.js', widget],
    ['/widget.debug.js', debugWidget],
  ]);

  let proxy;
  let origin;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/api/')) return proxy(req, res);
    if (url.pathname.startsWith('/peers/')) return peerRoute(url, res);
    const script = scripts.get(url.pathname);
    if (script !== undefined) {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' });
      return res.end(script);
    }
    if (url.pathname === '/' || url.pathname === '/plain.html') {
      // ?widget=none|body|head|late|peer:<name>, ?debug=1 for the unminified build.
      const where = url.searchParams.get('widget') ?? 'body';
      const src = url.searchParams.has('debug') ? '/widget.debug.js' : '/widget.js';
      const peer = where.startsWith('peer:') ? peerNamed(where.slice(5)) : undefined;
      if (where.startsWith('peer:') && !peer) return notFound(res);
      const tag = peer ? peer.tag(origin) : where === 'none' ? '' : widgetTag(DEMO_AGENT_ID, src, where);
      const html = page.replace('<!-- widget:head -->', where === 'head' ? tag : '').replace('<!-- widget:body -->', where === 'head' ? '' : tag);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      return res.end(html);
    }
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204);
      return res.end();
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
