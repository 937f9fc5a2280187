// The three limits (per IP, per conversation, per UTC day), the headers a client needs to wait,
// which address counts as "the client", and the store behind them.
import { describe, expect, test } from 'vitest';
import { createMemoryStore, type HitOptions, type RateLimitStore } from '../../src/server';
import { AGENT, chatRequest, PROXY_URL, read, setup } from './helpers';

const T0 = Date.parse('2026-03-10T12:00:00.000Z');

function clock(start = T0) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

const generous = { perIp: false, perConversation: false, dailyCap: false } as const;

describe('per IP', () => {
  test('the request over the limit is 429 rate_limited with Retry-After and X-RateLimit-*, and is not forwarded', async () => {
    const time = clock();
    const { handler, upstream } = setup({ now: time.now, rateLimit: { ...generous, perIp: { limit: 2, windowMs: 60_000 } } });
    const ctx = { ip: '198.51.100.7' };
    expect((await read(await handler(chatRequest(), ctx))).status).toBe(200);
    time.advance(15_000);
    expect((await read(await handler(chatRequest(), ctx))).status).toBe(200);
    const limited = await read(await handler(chatRequest(), ctx));
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, code: 'rate_limited', retryAfter: 45 });
    expect(limited.headers.get('Retry-After')).toBe('45');
    expect(limited.headers.get('X-RateLimit-Limit')).toBe('2');
    expect(limited.headers.get('X-RateLimit-Remaining')).toBe('0');
    expect(limited.headers.get('X-RateLimit-Reset')).toBe(String((T0 + 60_000) / 1000));
    expect(upstream.calls).toHaveLength(2);

    expect((await read(await handler(chatRequest(), { ip: '198.51.100.8' }))).status).toBe(200);
    time.advance(45_000);
    expect((await read(await handler(chatRequest(), ctx))).status).toBe(200);
  });

  test('with trustProxy 0, X-Forwarded-For is ignored: spoofing it does not escape the limit', async () => {
    const { handler } = setup({ now: clock().now, rateLimit: { ...generous, perIp: { limit: 2, windowMs: 60_000 } } });
    const statuses: number[] = [];
    for (const spoof of ['1.1.1.1', '2.2.2.2', '3.3.3.3']) {
      const res = await handler(chatRequest({ headers: { 'X-Forwarded-For': spoof } }), { ip: '198.51.100.7' });
      statuses.push((await read(res)).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  test('with trustProxy 1, the address the proxy appended counts, not what the client claimed', async () => {
    const { handler } = setup({
      now: clock().now,
      trustProxy: 1,
      rateLimit: { ...generous, perIp: { limit: 2, windowMs: 60_000 } },
    });
    const lb = { ip: '10.0.0.2' };
    const statuses: number[] = [];
    for (const spoof of ['1.1.1.1', '2.2.2.2', '3.3.3.3']) {
      const res = await handler(chatRequest({ headers: { 'X-Forwarded-For': `${spoof}, 198.51.100.7` } }), lb);
      statuses.push((await read(res)).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    // Another visitor behind the same load balancer has their own budget.
    const other = await handler(chatRequest({ headers: { 'X-Forwarded-For': '198.51.100.99' } }), lb);
    expect((await read(other)).status).toBe(200);
  });

  test('with trustProxy 2, the second address from the right is the client', async () => {
    const { handler } = setup({ now: clock().now, trustProxy: 2, rateLimit: { ...generous, perIp: { limit: 1, windowMs: 60_000 } } });
    const send = async (xff: string) =>
      (await read(await handler(chatRequest({ headers: { 'X-Forwarded-For': xff } }), { ip: '10.0.0.2' }))).status;
    expect(await send('9.9.9.9, 198.51.100.7, 10.0.0.1')).toBe(200);
    expect(await send('8.8.8.8, 198.51.100.7, 10.0.0.1')).toBe(429);
    expect(await send('198.51.100.8, 10.0.0.1')).toBe(200);
  });
  test('forwarded booking calls have a window of their own (perIpBooking): neither uses up the other', async () => {
    const { handler } = setup({
      now: clock().now,
      forwardBooking: true,
      rateLimit: { ...generous, perIp: { limit: 2, windowMs: 60_000 }, perIpBooking: { limit: 3, windowMs: 60_000 } },
    });
    const ctx = { ip: '198.51.100.7' };
    const chat = async () => (await read(await handler(chatRequest(), ctx))).status;
    const booking = async () =>
      (
        await read(
          await handler(chatRequest({ method: 'GET', url: `${PROXY_URL}/booking/public/config?agentId=${AGENT}`, origin: null }), ctx),
        )
      ).status;
    expect([await booking(), await booking(), await booking(), await booking()]).toEqual([200, 200, 200, 429]);
    expect([await chat(), await chat(), await chat()]).toEqual([200, 200, 429]);
  });
  test('by default a visitor gets 120 booking calls a minute (a calendar far from the agent asks once per day)', async () => {
    const time = clock();
    const { handler } = setup({ now: time.now, forwardBooking: true });
    const ctx = { ip: '198.51.100.9' };
    const booking = async () =>
      (
        await read(
          await handler(chatRequest({ method: 'GET', url: `${PROXY_URL}/booking/public/config?agentId=${AGENT}`, origin: null }), ctx),
        )
      ).status;
    const statuses: number[] = [];
    for (let call = 0; call < 121; call += 1) statuses.push(await booking());
    expect(statuses.filter((status) => status === 200)).toHaveLength(120);
    expect(statuses.at(-1)).toBe(429);
    time.advance(60_000);
    expect(await booking()).toBe(200);
  });
});

describe('per conversation', () => {
  test('one conversation over its limit is 429 while another conversation goes on', async () => {
    const time = clock();
    const { handler, upstream } = setup({
      now: time.now,
      rateLimit: { ...generous, perConversation: { limit: 2, windowMs: 30_000 } },
    });
    const say = (conversationId: string) => chatRequest({ body: { agentId: AGENT, message: 'Hi', conversationId } });
    expect((await read(await handler(say('conv_a')))).status).toBe(200);
    expect((await read(await handler(say('conv_a')))).status).toBe(200);
    const limited = await read(await handler(say('conv_a')));
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited', retryAfter: 30 });
    expect(limited.headers.get('Retry-After')).toBe('30');
    expect(limited.headers.get('X-RateLimit-Limit')).toBe('2');
    expect((await read(await handler(say('conv_b')))).status).toBe(200);
    expect(upstream.calls).toHaveLength(3);
    time.advance(30_000);
    expect((await read(await handler(say('conv_a')))).status).toBe(200);
  });
});

describe('daily cap', () => {
  test('the cap is 429 daily_cap_reached until the next UTC midnight', async () => {
    const time = clock(Date.parse('2026-03-10T23:58:30.000Z'));
    const midnight = Date.parse('2026-03-11T00:00:00.000Z');
    const { handler, upstream } = setup({ now: time.now, rateLimit: { ...generous, dailyCap: { limit: 2 } } });
    const from = (ip: string) => handler(chatRequest(), { ip });
    expect((await read(await from('198.51.100.1'))).status).toBe(200);
    expect((await read(await from('198.51.100.2'))).status).toBe(200);
    const capped = await read(await from('198.51.100.3'));
    expect(capped.status).toBe(429);
    expect(capped.body).toMatchObject({ success: false, code: 'daily_cap_reached', retryAfter: 90 });
    expect(capped.headers.get('Retry-After')).toBe('90');
    expect(capped.headers.get('X-RateLimit-Limit')).toBe('2');
    expect(capped.headers.get('X-RateLimit-Remaining')).toBe('0');
    expect(capped.headers.get('X-RateLimit-Reset')).toBe(String(midnight / 1000));
    expect(upstream.calls).toHaveLength(2);

    time.advance(90_000);
    expect((await read(await from('198.51.100.3'))).status).toBe(200);
  });

  test('requests refused for other reasons do not use up the day', async () => {
    const { handler } = setup({ now: clock().now, rateLimit: { ...generous, dailyCap: { limit: 1 } } });
    await read(await handler(chatRequest({ body: { agentId: AGENT, message: '' } })));
    await read(await handler(chatRequest({ body: { agentId: 'agent_other', message: 'Hi' } })));
    expect((await read(await handler(chatRequest()))).status).toBe(200);
  });
});

describe('store', () => {
  test('a custom store receives the per-IP, per-conversation and daily keys with their windows', async () => {
    const hits: { key: string; windowMs: number }[] = [];
    const store: RateLimitStore = {
      async hit(key, windowMs, now) {
        hits.push({ key, windowMs });
        return { count: 1, resetAt: now + windowMs };
      },
    };
    const { handler } = setup({ store, now: () => Date.parse('2026-03-10T18:00:00Z') });
    await read(await handler(chatRequest({ body: { agentId: AGENT, message: 'Hi', conversationId: 'c1' } }), { ip: '198.51.100.7' }));
    expect(hits.map((h) => h.key)).toEqual([
      expect.stringMatching(/^ip:[0-9a-f]{16}$/),
      `conv:${AGENT}:c1`,
      expect.stringMatching(/^ip-day:[0-9a-f]{16}:2026-03-10$/),
      'daily:2026-03-10',
    ]);
    expect(hits.map((h) => h.windowMs)).toEqual([60_000, 60_000, 6 * 3_600_000, 6 * 3_600_000]);
    // The store never sees the raw address.
    expect(JSON.stringify(hits)).not.toContain('198.51.100.7');
  });

  test("a custom store learns each counter's kind, and the hits of one message share one wait", async () => {
    const seen: { key: string; options: HitOptions | undefined }[] = [];
    const store: RateLimitStore = {
      async hit(key, windowMs, now, options) {
        seen.push({ key, options });
        if (options?.wait !== undefined) options.wait.ms += 10;
        return { count: 1, resetAt: now + windowMs };
      },
    };
    const { handler } = setup({ store });
    const message = () => handler(chatRequest({ body: { agentId: AGENT, message: 'Hi', conversationId: 'c1' } }), { ip: '198.51.100.7' });
    await read(await message());
    await read(await message());
    expect(seen.map((hit) => hit.options?.kind)).toEqual(['rate', 'rate', 'budget', 'budget', 'rate', 'rate', 'budget', 'budget']);
    expect(seen.map((hit) => hit.options?.wait?.ms)).toEqual([40, 40, 40, 40, 40, 40, 40, 40]);
    expect(seen[0]?.options?.wait).toBe(seen[3]?.options?.wait);
    expect(seen[0]?.options?.wait).not.toBe(seen[4]?.options?.wait);
  });

  test('a failing store is a 500 internal_error, not a crash and not a free pass', async () => {
    const store: RateLimitStore = {
      hit: () => Promise.reject(new Error('redis down')),
    };
    const { handler, upstream, logs } = setup({ store });
    const res = await read(await handler(chatRequest()));
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ success: false, code: 'internal_error' });
    expect(res.text).not.toContain('redis');
    expect(upstream.calls).toHaveLength(0);
    expect(logs[0]).toMatchObject({ status: 500, reason: 'internal' });
  });
});

describe('memory store', () => {
  test('counts hits per key within a window and starts again after it', async () => {
    const store = createMemoryStore();
    expect(await store.hit('k', 1000, 0)).toEqual({ count: 1, resetAt: 1000 });
    expect(await store.hit('k', 1000, 500)).toEqual({ count: 2, resetAt: 1000 });
    expect(await store.hit('other', 1000, 500)).toEqual({ count: 1, resetAt: 1500 });
    expect(await store.hit('k', 1000, 1000)).toEqual({ count: 1, resetAt: 2000 });
  });

  test('expired windows are swept, so memory follows live keys only', async () => {
    const store = createMemoryStore({ sweepIntervalMs: 1000 });
    for (let i = 0; i < 500; i++) await store.hit(`visitor-${i}`, 60_000, 0);
    expect(store.size).toBe(500);
    await store.hit('late', 60_000, 61_000);
    expect(store.size).toBe(1);
  });

  test('maxKeys bounds memory under a flood of distinct live keys, dropping the oldest windows', async () => {
    const store = createMemoryStore({ maxKeys: 100 });
    for (let i = 0; i < 1000; i++) await store.hit(`flood-${i}`, 60_000, i);
    expect(store.size).toBe(100);
    // The newest windows are the ones kept.
    expect(await store.hit('flood-999', 60_000, 1000)).toMatchObject({ count: 2 });
    expect(await store.hit('flood-0', 60_000, 1000)).toMatchObject({ count: 1 });
  });
});
