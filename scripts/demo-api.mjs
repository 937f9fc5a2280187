// The demo's API on the page's own origin, shared by `npm start` (scripts/serve.mjs, the built dist/
// modules) and `npm run dev` (vite.config.ts, the sources): the chat proxy at /api/chat and
// /api/booking/public/*, and, unless AGENT_BASE_URL names a real service, the in-memory sandbox at
// /sandbox.
//   AGENT_BASE_URL, AGENT_API_KEY, AGENT_ID   use a real service instead of the sandbox
//   AGENT_SANDBOX_NOW=2026-11-23T14:00:00Z      freeze the sandbox clock (tests)
//   AGENT_SANDBOX_STRICT=1                      strict-spec mode (src/sandbox/strict-spec.ts)
//   AGENT_SANDBOX_FAULTS=/booking/public/slots:gateway:1   paths that fail or answer late (path:gateway|shape|slow[:times], comma-separated)
//   AGENT_LOG=1                                 print the proxy's log entries as JSON lines
//   ALLOWED_ORIGINS=http://localhost:8080       other pages allowed to use the chat (comma-separated origins)

/** The AGENT_* settings, checked: a bad combination throws an Error whose message says what to fix. */
export function demoSettings(env) {
  const realService = env.AGENT_BASE_URL || undefined;
  if (realService && !(env.AGENT_API_KEY && env.AGENT_ID)) {
    throw new Error('AGENT_BASE_URL needs AGENT_API_KEY and AGENT_ID too.');
  }
  const allowedOrigins = (env.ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean)
    .map((value) => {
      const url = URL.canParse(value) ? new URL(value) : undefined;
      if (!url || !/^https?:$/.test(url.protocol) || url.origin !== value.replace(/\/$/, '')) {
        throw new Error(`ALLOWED_ORIGINS: "${value}" is not an origin (scheme, host and port, e.g. http://localhost:8080).`);
      }
      return url.origin;
    });
  const now = env.AGENT_SANDBOX_NOW ? new Date(env.AGENT_SANDBOX_NOW) : undefined;
  if (now && Number.isNaN(now.getTime())) throw new Error(`AGENT_SANDBOX_NOW is not a date: ${env.AGENT_SANDBOX_NOW}`);
  return {
    realService,
    apiKey: env.AGENT_API_KEY || undefined,
    agentId: env.AGENT_ID || undefined,
    now,
    strict: Boolean(env.AGENT_SANDBOX_STRICT),
    faults: env.AGENT_SANDBOX_FAULTS ?? '',
    log: Boolean(env.AGENT_LOG),
    allowedOrigins,
  };
}

/**
 * `modules` are agent-widget/server, agent-widget/server/node and the sandbox, built or from source.
 * The proxy's allowed origins name the port, so it exists once `listening(port, origin)` was called;
 * `origin` is the one the server announces (localhost and 127.0.0.1 are always allowed).
 */
export function createDemoApi({ server, node, sandbox }, settings) {
  const service = sandbox.createSandbox({
    basePath: '/sandbox',
    strict: settings.strict,
    // Throws naming the malformed fault (AGENT_SANDBOX_FAULTS).
    faults: sandbox.parseFaults(settings.faults),
    ...(settings.now ? { now: () => settings.now } : {}),
  });
  const sandboxListener = node.toNodeListener((request) => service.handle(request));
  let proxyListener;

  return {
    /** Where the chat answers come from, for the start-up line. */
    upstream: settings.realService ?? 'the built-in sandbox',
    /** The pages allowed to use the chat, once listening: the demo's own and ALLOWED_ORIGINS. */
    allowedOrigins: [],
    listening(port, origin) {
      this.allowedOrigins = [...new Set([origin, `http://localhost:${port}`, `http://127.0.0.1:${port}`, ...settings.allowedOrigins])];
      proxyListener = node.toNodeListener(
        server.createChatProxy({
          apiKey: settings.apiKey ?? sandbox.DEMO_API_KEY,
          baseUrl: settings.realService ?? `http://127.0.0.1:${port}/sandbox`,
          agentId: settings.agentId ?? sandbox.DEMO_AGENT_ID,
          allowedOrigins: this.allowedOrigins,
          forwardBooking: true,
          log: settings.log ? (entry) => console.log(JSON.stringify(entry)) : undefined,
        }),
      );
    },
    /** Connect-style middleware: answers the API's paths and passes everything else on. */
    handle(req, res, next) {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/api/chat' || path.startsWith('/api/booking/public/')) {
        if (!proxyListener) {
          res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
          res.end('The chat proxy starts once the server listens.');
          return;
        }
        proxyListener(req, res);
        return;
      }
      if (!settings.realService && (path === '/sandbox' || path.startsWith('/sandbox/'))) {
        sandboxListener(req, res);
        return;
      }
      next();
    },
  };
}
