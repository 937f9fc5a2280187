// forwardBooking: the public booking API through the owner's own origin, without the key.
import { describe, expect, test } from 'vitest';
import { AGENT, BASE_URL, chatRequest, json, ORIGIN, read, setup } from './helpers';

const SITE = 'https://shop.example/api/agent-chat';
const CONFIG = { success: true, config: { booking_title: 'Consultation', timezone: 'Europe/Berlin' } };

const get = (path: string, origin: string | null = null) => chatRequest({ method: 'GET', url: `${SITE}${path}`, origin });

describe('forwardBooking', () => {
  test('is off by default: booking paths are 404 and nothing is forwarded', async () => {
    const { handler, upstream } = setup();
    const res = await read(await handler(get(`/booking/public/config?agentId=${AGENT}`)));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect(upstream.calls).toHaveLength(0);
  });

  test('a GET is forwarded with its query unchanged, without Authorization, and its JSON and status pass through', async () => {
    const { handler, upstream, logs } = setup({ forwardBooking: true }, () =>
      json(CONFIG, 200, { 'X-Upstream-Secret': 'internal', 'Set-Cookie': 'a=b' }),
    );
    const res = await read(await handler(get(`/booking/public/slots?agentId=${AGENT}&date=2026-03-12&durationMinutes=30`)));
    expect(upstream.calls).toHaveLength(1);
    const call = upstream.calls[0];
    expect(call?.url).toBe(`${BASE_URL}/booking/public/slots?agentId=${AGENT}&date=2026-03-12&durationMinutes=30`);
    expect(call?.method).toBe('GET');
    expect(call?.headers.get('Authorization')).toBeNull();
    expect(res.status).toBe(200);
    expect(res.body).toEqual(CONFIG);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(res.headers.get('X-Upstream-Secret')).toBeNull();
    expect(res.headers.get('Set-Cookie')).toBeNull();
    expect(logs[0]).toMatchObject({ event: 'booking', endpoint: 'slots', status: 200, upstreamStatus: 200, agentId: AGENT });
  });

  test('a POST body is forwarded byte for byte, without Authorization; an error status and body pass through', async () => {
    const taken = { success: false, error: 'That time was just taken.' };
    const { handler, upstream } = setup({ forwardBooking: true }, () => json(taken, 409));
    const body = {
      agentId: AGENT,
      conversationId: 'conv_1',
      date: '2026-03-12',
      time: '10:00',
      durationOptionId: 'd30',
      formData: { name: 'Ada' },
    };
    const res = await read(await handler(chatRequest({ url: `${SITE}/booking/public/create`, body })));
    const call = upstream.calls[0];
    expect(call?.url).toBe(`${BASE_URL}/booking/public/create`);
    expect(call?.method).toBe('POST');
    expect(call?.headers.get('Authorization')).toBeNull();
    expect(call?.headers.get('Content-Type')).toBe('application/json');
    expect(call?.body).toBe(JSON.stringify(body));
    expect(res.status).toBe(409);
    expect(res.body).toEqual(taken);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(ORIGIN);
  });

  test.each([
    ['agentId twice', '{"agentId":"other","agentId":"agent_123","date":"2026-03-12"}'],
    ['a name spelled once plainly, once with escapes', '{"agentId":"agent_123","\\u0061gentId":"other"}'],
    ['a name twice inside formData', '{"agentId":"agent_123","formData":{"name":"Ada","name":"Eve"}}'],
  ])('a POST body with %s is refused (400 invalid_json), not forwarded', async (_, rawBody) => {
    const { handler, upstream } = setup({ forwardBooking: true });
    const res = await read(await handler(chatRequest({ url: `${SITE}/booking/public/create`, rawBody })));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_json', error: 'Each name may appear only once in a JSON object.' });
    expect(upstream.calls).toHaveLength(0);
  });

  test('the same name in sibling objects, in arrays and inside strings is not a repeat', async () => {
    const { handler, upstream } = setup({ forwardBooking: true });
    const rawBody =
      '{"agentId":"agent_123","a":{"name":"x"},"b":{"name":"y"},"list":[{"k":1},{"k":2}],"note":"\\"agentId\\":1,\\"agentId\\""}';
    const res = await read(await handler(chatRequest({ url: `${SITE}/booking/public/create`, rawBody })));
    expect(res.status).toBe(200);
    expect(upstream.calls[0]?.body).toBe(rawBody);
  });

  test('only the six public endpoints are forwarded, each with its one method', async () => {
    const { handler, upstream } = setup({ forwardBooking: true }, () => json(CONFIG));
    const unknown = await read(await handler(get(`/booking/public/admin?agentId=${AGENT}`)));
    expect(unknown.status).toBe(404);
    const wrongMethod = await read(await handler(chatRequest({ url: `${SITE}/booking/public/config`, body: { agentId: AGENT } })));
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('Allow')).toBe('GET, OPTIONS');
    const getCancel = await read(await handler(get(`/booking/public/cancel?agentId=${AGENT}`)));
    expect(getCancel.headers.get('Allow')).toBe('POST, OPTIONS');
    expect(upstream.calls).toHaveLength(0);
  });

  test('booking calls are pinned to the configured agents too', async () => {
    const { handler, upstream } = setup({ forwardBooking: true }, () => json(CONFIG));
    expect((await read(await handler(get('/booking/public/config?agentId=agent_other')))).status).toBe(403);
    expect((await read(await handler(get('/booking/public/config')))).status).toBe(400);
    const post = await read(
      await handler(chatRequest({ url: `${SITE}/booking/public/cancel`, body: { agentId: 'agent_other', bookingCode: 'BK-AAAAAA' } })),
    );
    expect(post.status).toBe(403);
    expect(upstream.calls).toHaveLength(0);
  });

  test('a same-origin GET without Origin is served; a foreign Origin is refused', async () => {
    const { handler, upstream } = setup({ forwardBooking: true }, () => json(CONFIG));
    expect((await read(await handler(get(`/booking/public/config?agentId=${AGENT}`, null)))).status).toBe(200);
    const foreign = await read(await handler(get(`/booking/public/config?agentId=${AGENT}`, 'https://evil.example')));
    expect(foreign.status).toBe(403);
    expect(upstream.calls).toHaveLength(1);
  });

  test('a preflight for a booking POST lists POST', async () => {
    const { handler } = setup({ forwardBooking: true });
    const res = await read(await handler(chatRequest({ method: 'OPTIONS', url: `${SITE}/booking/public/create` })));
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Methods')).toBe('POST, OPTIONS');
  });

  test('an upstream answer that is not JSON becomes 502 instead of being served from the owner origin', async () => {
    const { handler } = setup(
      { forwardBooking: true },
      () => new Response('<script>alert(1)</script>', { status: 200, headers: { 'Content-Type': 'text/html' } }),
    );
    const res = await read(await handler(get(`/booking/public/config?agentId=${AGENT}`)));
    expect(res.status).toBe(502);
    expect(res.text).not.toContain('<script>');
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
  });

  test('an upstream 429 passes with our own Retry-After from its reset time', async () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    const { handler } = setup({ forwardBooking: true, now: () => now }, () =>
      json({ success: false, error: 'Too many requests' }, 429, { 'X-RateLimit-Reset': String(now / 1000 + 8) }),
    );
    const res = await read(await handler(get(`/booking/public/dates?agentId=${AGENT}&month=2026-03`)));
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBe('8');
    expect(res.headers.get('X-RateLimit-Reset')).toBeNull();
  });

  test('chat still works on the same handler', async () => {
    const { handler, upstream } = setup({ forwardBooking: true });
    expect((await read(await handler(chatRequest({ url: SITE })))).status).toBe(200);
    expect(upstream.calls[0]?.url).toBe(`${BASE_URL}/chat`);
  });
});
