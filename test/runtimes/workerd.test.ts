// The Workers recipe on workerd itself, through miniflare: the proxy created at module scope,
// options read from env on the first request, and a visitor who disconnects cancels the upstream call.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  AGENT,
  API_KEY,
  available,
  bin,
  builtServerPresent,
  chatInit,
  disconnectCancelsUpstream,
  fakeService,
  fixture,
  ORIGIN,
  SERVER_MODULE,
} from './support';

const present =
  available('miniflare (workerd)', existsSync(bin('miniflare')) && existsSync(bin('workerd')), 'Install the dev dependencies: npm ci') &&
  builtServerPresent();

/** The recipe's compatibility settings (wrangler.jsonc: compatibility_date, compatibility_flags). */
const COMPATIBILITY = { compatibilityDate: '2026-05-01', compatibilityFlags: ['enable_request_signal'] };

async function startWorker(baseUrl: string, compatibilityFlags = COMPATIBILITY.compatibilityFlags) {
  const { Miniflare } = await import('miniflare');
  const mf = new Miniflare({
    modulesRoot: '/',
    modules: [
      { type: 'ESModule', path: '/worker.mjs', contents: readFileSync(fixture('./workerd/worker.mjs'), 'utf8') },
      // What a bundler (wrangler) does with the package import.
      { type: 'ESModule', path: '/agent-widget/server', contents: readFileSync(SERVER_MODULE, 'utf8') },
    ],
    compatibilityDate: COMPATIBILITY.compatibilityDate,
    compatibilityFlags,
    bindings: { AGENT_API_KEY: API_KEY, AGENT_BASE_URL: baseUrl },
  });
  const url = await mf.ready;
  return { mf, url: new URL('/api/agent-chat', url).href };
}

describe.skipIf(!present)('Cloudflare Workers (workerd via miniflare)', () => {
  test('a chat message goes through the proxy created at module scope, with the key from env', async () => {
    const service = await fakeService();
    const { mf, url } = await startWorker(service.baseUrl);
    try {
      const res = await fetch(url, chatInit('Hello from workerd'));
      const body: unknown = await res.json();
      expect(res.status).toBe(200);
      expect(res.headers.get('Access-Control-Allow-Origin')).toBe(ORIGIN);
      expect(body).toMatchObject({ success: true, conversationId: 'conv_1' });
      expect(JSON.stringify(body)).not.toContain(API_KEY);
      expect(service.calls[0]).toMatchObject({ path: '/api/chat', authorization: `Bearer ${API_KEY}` });
      expect(JSON.parse(service.calls[0]?.body ?? '')).toEqual({ agentId: AGENT, message: 'Hello from workerd' });

      const booking = await fetch(new URL(`booking/public/config?agentId=${AGENT}`, `${url}/`));
      expect(booking.status).toBe(200);
      expect(service.calls[1]).toMatchObject({ path: `/api/booking/public/config?agentId=${AGENT}`, authorization: undefined });
    } finally {
      await mf.dispose();
    }
  });

  test('a visitor whose connection is reset cancels the upstream call at once', async () => {
    const service = await fakeService();
    const { mf, url } = await startWorker(service.baseUrl);
    try {
      await disconnectCancelsUpstream(url, service, 'reset');
    } finally {
      await mf.dispose();
    }
  });
});
