// Who may call the proxy: origins, CORS preflight, methods, content type, and agent pinning.
import { describe, expect, test } from 'vitest';
import { createChatProxy } from '../../src/server';
import { AGENT, API_KEY, BASE_URL, chatRequest, expectCleanLogs, ORIGIN, read, setup } from './helpers';

describe('origins', () => {
  test('an allowed origin is answered and echoed in Access-Control-Allow-Origin with Vary: Origin', async () => {
    const { handler } = setup();
    const res = await read(await handler(chatRequest()));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, reply: 'Hello from the agent' });
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(ORIGIN);
    expect(res.headers.get('Vary')).toBe('Origin');
    expect(res.headers.get('Access-Control-Expose-Headers')).toContain('Retry-After');
  });

  test('a configured origin is matched after normalising case, default port and trailing slash', async () => {
    const { handler } = setup({ allowedOrigins: ['HTTPS://Shop.Example:443/'] });
    expect((await read(await handler(chatRequest()))).status).toBe(200);
  });

  test.each([
    ['another site', 'https://evil.example'],
    ['another scheme', 'http://shop.example'],
    ['another port', 'https://shop.example:8443'],
    ['a subdomain', 'https://www.shop.example'],
    ['an opaque origin', 'null'],
  ])('%s is refused with 403 origin_not_allowed and no CORS grant, before the upstream is called', async (_, origin) => {
    const { handler, upstream } = setup();
    const res = await read(await handler(chatRequest({ origin })));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 'origin_not_allowed' });
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
    expect(res.headers.get('Vary')).toBe('Origin');
    expect(upstream.calls).toHaveLength(0);
  });

  test('a request without Origin is refused unless allowMissingOrigin is set', async () => {
    const strict = setup();
    const refused = await read(await strict.handler(chatRequest({ origin: null })));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('origin_not_allowed');
    expect(strict.upstream.calls).toHaveLength(0);

    const lenient = setup({ allowMissingOrigin: true });
    const served = await read(await lenient.handler(chatRequest({ origin: null })));
    expect(served.status).toBe(200);
    expect(served.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  test('an origin that is not a bare http(s) origin is rejected at startup, naming the option', () => {
    const base = { apiKey: API_KEY, baseUrl: BASE_URL, agentId: AGENT };
    expect(() => createChatProxy({ ...base, allowedOrigins: ['https://shop.example/path'] })).toThrow(/allowedOrigins/);
    expect(() => createChatProxy({ ...base, allowedOrigins: ['shop.example'] })).toThrow(/allowedOrigins/);
  });
});

describe('preflight', () => {
  const preflight = (origin: string | null) =>
    chatRequest({
      method: 'OPTIONS',
      origin,
      headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });

  test('an allowed origin gets 204 with methods, headers and max-age, and nothing is forwarded', async () => {
    const { handler, upstream, logs } = setup();
    const res = await handler(preflight(ORIGIN));
    const { status, headers, text } = await read(res);
    expect(status).toBe(204);
    expect(text).toBe('');
    expect(headers.get('Access-Control-Allow-Origin')).toBe(ORIGIN);
    expect(headers.get('Access-Control-Allow-Methods')).toBe('POST, OPTIONS');
    expect(headers.get('Access-Control-Allow-Headers')).toBe('Content-Type');
    expect(Number(headers.get('Access-Control-Max-Age'))).toBeGreaterThan(0);
    expect(headers.get('Vary')).toBe('Origin');
    expect(upstream.calls).toHaveLength(0);
    expect(logs[0]).toMatchObject({ event: 'preflight', status: 204 });
  });

  test('a disallowed origin gets 403 and no CORS grant', async () => {
    const { handler } = setup();
    const res = await read(await handler(preflight('https://evil.example')));
    expect(res.status).toBe(403);
    expect(res.headers.get('Access-Control-Allow-Methods')).toBeNull();
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});

describe('methods and content type', () => {
  test.each(['GET', 'PUT', 'DELETE', 'PATCH'])('%s is refused with 405 and an Allow header', async (method) => {
    const { handler, upstream } = setup();
    const res = await read(await handler(chatRequest({ method })));
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ success: false, code: 'method_not_allowed' });
    expect(res.headers.get('Allow')).toBe('POST, OPTIONS');
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(ORIGIN);
    expect(upstream.calls).toHaveLength(0);
  });

  test.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'a %s body is refused with 415 unsupported_media_type',
    async (type) => {
      const { handler, upstream } = setup();
      const res = await read(await handler(chatRequest({ headers: { 'Content-Type': type } })));
      expect(res.status).toBe(415);
      expect(res.body.code).toBe('unsupported_media_type');
      expect(upstream.calls).toHaveLength(0);
    },
  );

  test('application/json with a charset parameter, in any case, is accepted', async () => {
    const { handler } = setup();
    const res = await read(await handler(chatRequest({ headers: { 'Content-Type': 'Application/JSON; charset=UTF-8' } })));
    expect(res.status).toBe(200);
  });

  test('every answer is JSON, not cacheable and not sniffable', async () => {
    const { handler } = setup();
    for (const req of [chatRequest(), chatRequest({ method: 'GET' }), chatRequest({ origin: 'https://evil.example' })]) {
      const res = await read(await handler(req));
      expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
      expect(res.headers.get('Cache-Control')).toBe('no-store');
      expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    }
  });
});

describe('agent pinning', () => {
  test('the pinned agent is forwarded to /chat with the key as a Bearer token and only the allowed fields', async () => {
    const { handler, upstream, logs } = setup();
    const res = await read(
      await handler(chatRequest({ body: { agentId: AGENT, message: 'Opening hours?', conversationId: 'conv_1', extra: 'dropped' } })),
    );
    expect(res.status).toBe(200);
    expect(upstream.calls).toHaveLength(1);
    const call = upstream.calls[0];
    expect(call?.url).toBe(`${BASE_URL}/chat`);
    expect(call?.method).toBe('POST');
    expect(call?.headers.get('Authorization')).toBe(`Bearer ${API_KEY}`);
    expect(call?.headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(call?.body ?? '')).toEqual({ agentId: AGENT, message: 'Opening hours?', conversationId: 'conv_1' });
    expect(logs[0]).toMatchObject({ event: 'chat', status: 200, agentId: AGENT });
    expectCleanLogs(logs, ['Opening hours?']);
  });

  test('another agent id is refused with 403 agent_not_allowed and not logged', async () => {
    const { handler, upstream, logs } = setup();
    const res = await read(await handler(chatRequest({ body: { agentId: 'agent_other', message: 'Hi' } })));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 'agent_not_allowed' });
    expect(upstream.calls).toHaveLength(0);
    expect(logs[0]?.agentId).toBeUndefined();
    expectCleanLogs(logs, ['agent_other']);
  });

  test('with agentIds, each listed agent is served and others are refused', async () => {
    const { handler, upstream } = setup({ agentId: undefined, agentIds: ['agent_a', 'agent_b'] });
    for (const agentId of ['agent_a', 'agent_b'])
      expect((await read(await handler(chatRequest({ body: { agentId, message: 'Hi' } })))).status).toBe(200);
    expect((await read(await handler(chatRequest({ body: { agentId: AGENT, message: 'Hi' } })))).status).toBe(403);
    expect(upstream.calls.map((c) => JSON.parse(c.body).agentId)).toEqual(['agent_a', 'agent_b']);
  });

  test('a proxy without any agent id refuses to start', () => {
    expect(() => createChatProxy({ apiKey: API_KEY, baseUrl: BASE_URL, allowedOrigins: [ORIGIN] })).toThrow(/agentId/);
  });

  test('a missing key is a startup error naming apiKey', () => {
    expect(() => createChatProxy({ apiKey: '', baseUrl: BASE_URL, agentId: AGENT, allowedOrigins: [] })).toThrow(/apiKey/);
  });
});
