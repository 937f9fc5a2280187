// The Redis store's promises to the proxy, with clients that misbehave in ways a real server rarely
// does on demand: answers that are not counts, owner hooks that throw, options that make no sense.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createRedisStore, type NodeRedisScripting, type StoreWait } from '../../src/server';

/** A node-redis-shaped client whose every script call answers `reply()`; counts its calls. */
function fakeClient(reply: () => Promise<unknown>) {
  const calls = { count: 0 };
  const call = () => {
    calls.count++;
    return reply();
  };
  const client: NodeRedisScripting = { evalSha: call, eval: call };
  return { client, calls };
}

describe('createRedisStore with a misbehaving client', () => {
  test.each([
    ['a string', () => Promise.resolve('OK')],
    ['a count of zero', () => Promise.resolve([0, 1000])],
    ['a fractional count', () => Promise.resolve([1.5, 1000])],
    ['one number', () => Promise.resolve([1])],
    ['a first hit with 1 ms left of its window ([1, 1])', () => Promise.resolve([1, 1])],
    ['a negative time left', () => Promise.resolve([2, -1])],
    ['a rejection', () => Promise.reject(new Error('ERR something Redis said'))],
    [
      'a synchronous throw',
      () => {
        throw new Error('client closed');
      },
    ],
  ])('%s is not a count: the hit is counted in memory, with the warning', async (_, reply) => {
    const errors: unknown[] = [];
    const store = createRedisStore({ client: fakeClient(reply).client, onError: (e) => errors.push(e) });
    expect(await store.hit('k', 60_000, 0)).toEqual({ count: 1, resetAt: 60_000, warning: 'store_unavailable' });
    expect(await store.hit('k', 60_000, 1)).toEqual({ count: 2, resetAt: 60_000 });
    expect(errors).toHaveLength(1);
  });

  test('a count that does not move (the same answer every time) is noticed on the second hit of a key', async () => {
    const errors: unknown[] = [];
    const store = createRedisStore({ client: fakeClient(() => Promise.resolve([3, 50_000])).client, onError: (e) => errors.push(e) });
    expect(await store.hit('k', 60_000, 0)).toEqual({ count: 3, resetAt: 50_000 });
    expect(await store.hit('k', 60_000, 1)).toEqual({ count: 1, resetAt: 60_001, warning: 'store_unavailable' });
    expect(String(errors[0])).toMatch(/count 3 twice/);
  });

  test('after a failure Redis is left alone for retryAfterMs, then tried again', async () => {
    let healthy = false;
    const { client, calls } = fakeClient(() => (healthy ? Promise.resolve([7, 30_000]) : Promise.reject(new Error('down'))));
    const store = createRedisStore({ client, retryAfterMs: 1000 });
    await store.hit('k', 60_000, 0);
    expect(calls.count).toBe(1);
    healthy = true;
    await store.hit('k', 60_000, 999);
    expect(calls.count).toBe(1);
    expect(await store.hit('k', 60_000, 1000)).toEqual({ count: 7, resetAt: 31_000 });
    expect(calls.count).toBe(2);
  });

  test('an onError that throws changes nothing for the visitor', async () => {
    const store = createRedisStore({
      client: fakeClient(() => Promise.reject(new Error('down'))).client,
      onError: () => {
        throw new Error('logging is broken too');
      },
    });
    await expect(store.hit('k', 60_000, 0)).resolves.toMatchObject({ count: 1 });
  });

  test('a reply that never comes is abandoned after timeoutMs', async () => {
    const store = createRedisStore({ client: fakeClient(() => new Promise(() => undefined)).client, timeoutMs: 20 });
    await expect(store.hit('k', 60_000, 0)).resolves.toMatchObject({ count: 1, warning: 'store_unavailable' });
  });

  test('options that make no sense fail at startup', () => {
    // @ts-expect-error: not a client
    expect(() => createRedisStore({ client: {} })).toThrow(/client must be a connected node-redis or ioredis client/);
    const { client } = fakeClient(() => Promise.resolve([1, 1]));
    expect(() => createRedisStore({ client, timeoutMs: 0 })).toThrow(/timeoutMs must be a positive number/);
    expect(() => createRedisStore({ client, retryAfterMs: Number.NaN })).toThrow(/retryAfterMs must be a positive number/);
  });

  describe('a slow Redis', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    test("one request's hits share timeoutMs: once it is spent the rest count in memory, and the log says store_slow", async () => {
      let answerAfterMs = 0;
      let count = 0;
      const { client, calls } = fakeClient(
        () => new Promise((resolve) => setTimeout(() => resolve([++count, count === 1 ? 60_000 : 59_000]), answerAfterMs)),
      );
      const errors: unknown[] = [];
      const store = createRedisStore({ client, timeoutMs: 150, onError: (e) => errors.push(e) });
      // The script's SHA-1 is computed on the first hit, with the real clock.
      await store.hit('warm', 60_000, 0);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      answerAfterMs = 140;
      const wait: StoreWait = { ms: 0 };
      const message = (async () => {
        const hits = [];
        for (const key of ['ip', 'conv', 'ip-day', 'daily']) hits.push(await store.hit(key, 60_000, 0, { wait }));
        return hits;
      })();
      await vi.advanceTimersByTimeAsync(1000);
      const hits = await message;
      // 140 ms for the first answer, the 10 ms left for the second, then memory: 150 ms, not 4 x 140.
      expect(wait.ms).toBe(150);
      expect(calls.count).toBe(1 + 2);
      expect(hits.map((hit) => hit.warning)).toEqual([undefined, 'store_slow', undefined, undefined]);
      expect(String(errors[0])).toMatch(/took longer than 150 ms/);
    });
  });
});
