// Creating the proxy needs no secret and does no work a platform forbids at startup: options may be
// a function read on the first request (Next.js builds the route module without the key; Workers
// hand out env per request), and the random salt is made on the first request (workerd forbids
// random values at module scope).
import { describe, expect, test, vi } from 'vitest';
import { createChatProxy, type ChatProxyOptions } from '../../src/server';
import { AGENT, API_KEY, BASE_URL, chatRequest, fakeUpstream, okReply, ORIGIN, read } from './helpers';

const options = (extra: Partial<ChatProxyOptions> = {}): ChatProxyOptions => ({
  apiKey: API_KEY,
  baseUrl: BASE_URL,
  agentId: AGENT,
  allowedOrigins: [ORIGIN],
  fetch: fakeUpstream(() => okReply()).fetch,
  ...extra,
});

describe('options as a function', () => {
  test('is not called at creation; it is called once, on the first request, even when several arrive together', async () => {
    const load = vi.fn(() => options());
    const handler = createChatProxy(load);
    expect(load).not.toHaveBeenCalled();
    const answers = await Promise.all([handler(chatRequest()), handler(chatRequest()), handler(chatRequest())]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    await handler(chatRequest());
    expect(load).toHaveBeenCalledTimes(1);
  });

  test('may return a promise (a secret manager)', async () => {
    const handler = createChatProxy(async () => options());
    expect((await read(await handler(chatRequest()))).status).toBe(200);
  });

  test('while the key is missing every request gets a generic 500, reported once on the console; once it is there the proxy serves', async () => {
    const env: { key?: string } = {};
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const handler = createChatProxy(() => options({ apiKey: env.key ?? '' }));
    for (let i = 0; i < 3; i++) {
      const res = await read(await handler(chatRequest()));
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ success: false, error: expect.any(String), code: 'internal_error' });
    }
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(String(consoleError.mock.calls[0]?.[1])).toMatch(/apiKey is required/);
    env.key = API_KEY;
    expect((await read(await handler(chatRequest()))).status).toBe(200);
  });
});

describe('static options', () => {
  test('are still checked at creation, so a misconfiguration fails at startup', () => {
    expect(() => createChatProxy(options({ apiKey: '' }))).toThrow(/apiKey/);
  });

  test('creating the proxy generates no random value and does no crypto work; the address key is made on the first request', async () => {
    const random = vi.spyOn(crypto, 'getRandomValues');
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    const handler = createChatProxy(options());
    expect(random).not.toHaveBeenCalled();
    expect(importKey).not.toHaveBeenCalled();
    expect((await read(await handler(chatRequest(), { ip: '203.0.113.7' }))).status).toBe(200);
    expect(importKey).toHaveBeenCalled();
    expect(random).not.toHaveBeenCalled();
  });
});
