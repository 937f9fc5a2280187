// A flood of one-message visitors, each from its own IPv6 /64, against a memory store far smaller
// than the flood: the counters that bound spend (the daily cap, each visitor's day) must hold.
import { expect, test } from 'vitest';
import { createMemoryStore, type RateLimitOptions } from '../../src/server';
import { chatRequest, read, setup } from './helpers';

const T0 = Date.parse('2026-03-10T12:00:00.000Z');
/** Visitor `i`'s address, each in its own /64. */
const visitor = (i: number): string => `2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`;

/** `count` one-message visitors, one after another; the statuses. */
async function flood(handler: ReturnType<typeof setup>['handler'], count: number, first = 0): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = first; i < first + count; i++) statuses.push((await read(await handler(chatRequest(), { ip: visitor(i) }))).status);
  return statuses;
}

const defaults: RateLimitOptions = { perIp: { limit: 30, windowMs: 60_000 }, perConversation: { limit: 12, windowMs: 60_000 } };

test('the daily cap holds when a flood of new visitors overfills the store: exactly the cap reaches the service', async () => {
  const store = createMemoryStore({ maxKeys: 50 });
  const { handler, upstream, logs } = setup({
    now: () => T0,
    store,
    rateLimit: { ...defaults, perIpDaily: { limit: 3 }, dailyCap: { limit: 20 } },
  });
  const statuses = await flood(handler, 600);
  expect(statuses.filter((status) => status === 200)).toHaveLength(20);
  expect(upstream.calls).toHaveLength(20);
  expect(logs.slice(20).every((entry) => entry.code === 'daily_cap_reached')).toBe(true);
  // Once the cap answered "over", visitors leave no day counter behind: 50 per-minute windows, the cap,
  // and the days of the 20 visitors served and of the one who found the cap reached.
  expect(store.size).toBe(50 + 1 + 21);
});

test("a visitor's day holds through a flood that overfills the store", async () => {
  const store = createMemoryStore({ maxKeys: 50 });
  const time = { now: T0 };
  const { handler, upstream } = setup({
    now: () => time.now,
    store,
    rateLimit: { ...defaults, perIpDaily: { limit: 3 }, dailyCap: { limit: 10_000 } },
  });
  const steady = { ip: '198.51.100.7' };
  const send = async () => (await read(await handler(chatRequest(), steady))).status;
  expect([await send(), await send(), await send(), await send()]).toEqual([200, 200, 200, 429]);
  time.now += 120_000;
  await flood(handler, 300);
  expect(await send()).toBe(429);
  expect(upstream.calls).toHaveLength(3 + 300);
});

test('a spend counter that does not fit is refused, never made room for: the request is 429 with store_full logged', async () => {
  const store = createMemoryStore({ maxBudgetKeys: 5 });
  const { handler, upstream, logs } = setup({ now: () => T0, store, rateLimit: { perIpDaily: { limit: 3 }, dailyCap: false } });
  const statuses = await flood(handler, 8);
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
  expect(upstream.calls).toHaveLength(5);
  expect(logs.slice(5).map((entry) => [entry.code, entry.warning])).toEqual(Array(3).fill(['daily_cap_reached', 'store_full']));
  // The visitors already counted keep their budget.
  expect((await read(await handler(chatRequest(), { ip: visitor(0) }))).status).toBe(200);
});

test('once the cap is reached the store is not asked again that day; the next UTC day starts afresh', async () => {
  let hits = 0;
  const inner = createMemoryStore();
  const time = { now: T0 };
  const { handler } = setup({
    now: () => time.now,
    store: {
      hit(key, windowMs, now, options) {
        hits++;
        return inner.hit(key, windowMs, now, options);
      },
    },
    rateLimit: { perIp: false, perConversation: false, perIpDaily: false, dailyCap: { limit: 2 } },
  });
  expect(await flood(handler, 3)).toEqual([200, 200, 429]);
  const before = hits;
  const later = await read(await handler(chatRequest(), { ip: visitor(9) }));
  expect(later.status).toBe(429);
  expect(later.headers.get('Retry-After')).toBe(String(12 * 3600));
  expect(hits).toBe(before);
  time.now = Date.parse('2026-03-11T00:00:00.000Z');
  expect(await flood(handler, 1, 10)).toEqual([200]);
});
