// A hostile or misconfigured upstream that answers with a redirect: nothing follows it, so neither
// the visitor's message nor the API key goes anywhere but the configured service.
import { describe, expect, test } from 'vitest';
import { ApiError, createAgentClient, createChatProxy, type ProxyLogEntry } from '../../src/server';
import { AGENT, API_KEY, chatRequest, ORIGIN, read } from './helpers';
import { loopback, type LoopbackServer } from './loopback';

/** A service that redirects every call to `location(service)`, and records what reaches it. */
async function redirectingService(status: number, location: (service: LoopbackServer) => string) {
  // Known once it listens: the handler only runs after that.
  const started: { service?: LoopbackServer } = {};
  const service = await loopback((_, res) => {
    if (started.service === undefined) throw new Error('not started');
    res.writeHead(status, { Location: location(started.service), 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ success: true, reply: 'redirect body' }));
  });
  started.service = service;
  return service;
}

/** Where a redirect would land: answers like a real service, so following it would "work". */
const elsewhere = () =>
  loopback((_, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ success: true, reply: 'answer from the redirect target', message: 'ok' }));
  });

function proxyFor(baseUrl: string, logs: ProxyLogEntry[]) {
  return createChatProxy({
    apiKey: API_KEY,
    baseUrl,
    agentId: AGENT,
    allowedOrigins: [ORIGIN],
    forwardBooking: true,
    log: (entry) => {
      logs.push(entry);
    },
  });
}

describe('the proxy never follows an upstream redirect', () => {
  test.each([301, 302, 303, 307, 308])(
    'a %i to another host: nothing reaches that host and the visitor gets a generic 502, logged',
    async (status) => {
      const target = await elsewhere();
      const service = await redirectingService(status, () => `${target.origin}/steal`);
      const logs: ProxyLogEntry[] = [];
      const res = await read(await proxyFor(`${service.origin}/api`, logs)(chatRequest()));
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ success: false, code: 'upstream_error' });
      expect(res.text).not.toContain('redirect target');
      expect(target.seen).toHaveLength(0);
      expect(service.seen).toHaveLength(1);
      expect(logs).toMatchObject([{ status: 502, reason: 'upstream_redirect', upstreamStatus: status }]);
    },
  );

  test('a same-origin 307 to another path does not carry the key there', async () => {
    const service = await redirectingService(307, (self) => `${self.origin}/elsewhere/steal`);
    const logs: ProxyLogEntry[] = [];
    const res = await read(await proxyFor(`${service.origin}/api`, logs)(chatRequest()));
    expect(res.status).toBe(502);
    expect(service.seen.map((r) => r.path)).toEqual(['/api/chat']);
    expect(logs[0]?.reason).toBe('upstream_redirect');
  });

  test('forwarded booking calls do not follow a redirect either', async () => {
    const target = await elsewhere();
    const service = await redirectingService(302, () => `${target.origin}/booking/public/config`);
    const logs: ProxyLogEntry[] = [];
    const res = await read(
      await proxyFor(
        `${service.origin}/api`,
        logs,
      )(chatRequest({ method: 'GET', url: `https://shop.example/api/agent-chat/booking/public/config?agentId=${AGENT}` })),
    );
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('upstream_error');
    expect(target.seen).toHaveLength(0);
    expect(logs[0]).toMatchObject({ event: 'booking', reason: 'upstream_redirect', upstreamStatus: 302 });
  });
});

describe('the server client never follows a redirect', () => {
  test('a same-origin 308 is an error of kind invalid_response, and the key does not reach the new path', async () => {
    const service = await redirectingService(308, (self) => `${self.origin}/steal`);
    const api = createAgentClient({ apiKey: API_KEY, baseUrl: `${service.origin}/api`, maxRetries: 0 });
    const error = await api.credits().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'invalid_response', status: 308, message: expect.stringMatching(/redirect/i) });
    expect(service.seen.map((r) => r.path)).toEqual(['/api/credits']);
  });

  test('a redirect to another host sends nothing there', async () => {
    const target = await elsewhere();
    const service = await redirectingService(307, () => `${target.origin}/chat`);
    const api = createAgentClient({ apiKey: API_KEY, baseUrl: `${service.origin}/api`, maxRetries: 0 });
    await expect(api.chat({ agentId: AGENT, message: 'Hi' })).rejects.toMatchObject({ kind: 'invalid_response' });
    expect(target.seen).toHaveLength(0);
  });
});

describe('whatever fetch the owner injects', () => {
  /** A fetch that records the redirect mode it was asked for and answers like a browser's manual mode. */
  function opaqueRedirectFetch() {
    const modes: (RequestRedirect | undefined)[] = [];
    const fetch: typeof globalThis.fetch = async (_input, init) => {
      modes.push(init?.redirect);
      const response = new Response(null, { status: 200 });
      Object.defineProperty(response, 'type', { value: 'opaqueredirect' });
      return response;
    };
    return { fetch, modes };
  }

  test('the proxy asks for redirect: manual and treats an opaque redirect as a redirect', async () => {
    const upstream = opaqueRedirectFetch();
    const logs: ProxyLogEntry[] = [];
    const handler = createChatProxy({
      apiKey: API_KEY,
      baseUrl: 'https://service.test/api',
      agentId: AGENT,
      allowedOrigins: [ORIGIN],
      fetch: upstream.fetch,
      log: (entry) => {
        logs.push(entry);
      },
    });
    expect((await read(await handler(chatRequest()))).status).toBe(502);
    expect(upstream.modes).toEqual(['manual']);
    expect(logs[0]?.reason).toBe('upstream_redirect');
  });

  test('the server client asks for redirect: manual and refuses an opaque redirect', async () => {
    const upstream = opaqueRedirectFetch();
    const api = createAgentClient({ apiKey: API_KEY, baseUrl: 'https://service.test/api', fetch: upstream.fetch });
    await expect(api.credits()).rejects.toMatchObject({ kind: 'invalid_response' });
    expect(upstream.modes).toEqual(['manual']);
  });
});
