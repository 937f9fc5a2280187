// Several proxy instances sharing one real Redis (Debian's redis-server on a loopback port): exact
// limits under concurrency, a TTL on every key, and a bounded wait when Redis hangs or dies.
import { Redis as Upstash } from '@upstash/redis';
import IoRedis from 'ioredis';
import { createClient as createClientV5 } from 'redis';
import { createClient as createClientV6 } from 'redis6';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRedisStore, type ChatProxyOptions, type NodeRedisScripting, type RateLimitOptions } from '../../src/server';
import { AGENT, chatRequest, deferred, okReply, read, setup } from './helpers';
import { isCi, REDIS_MISSING, redisServerOrNotice, startRedisServer, stopRedisServer, type RedisServer } from './redis-server';
import { startUpstashRest } from './upstash-rest';

/** How long each kind of counter lives: per conversation, per address, or for the day. */
const windowOf = (key: string): number => {
  if (key.includes(':conv:')) return 30_000;
  return key.includes(':ip:') ? 60_000 : 86_400_000;
};

const binary = redisServerOrNotice();

if (binary === undefined && isCi)
  test('redis-server is installed (required under CI=true)', () => {
    throw new Error(REDIS_MISSING);
  });

/** What these tests use of a connected node-redis client: v5 and v6 both have it. */
interface Client extends NodeRedisScripting {
  keys(pattern: string): Promise<string[]>;
  pTTL(key: string): Promise<number>;
  set(key: string, value: string): Promise<unknown>;
  scriptFlush(): Promise<unknown>;
  sendCommand(args: string[]): Promise<unknown>;
  destroy(): void;
}

interface Connectable extends Client {
  on(event: 'error', listener: () => void): unknown;
  connect(): Promise<unknown>;
}

type ClientFactory = (options: { url: string; socket: { reconnectStrategy: () => number; connectTimeout: number } }) => Connectable;

/** Every node-redis major the store declares as its peer (package.json), each run through the whole suite. */
const nodeRedisMajors: { major: string; createClient: ClientFactory }[] = [
  { major: 'v5', createClient: createClientV5 },
  { major: 'v6', createClient: createClientV6 },
];

const off: RateLimitOptions = { perIp: false, perIpDaily: false, perConversation: false, dailyCap: false };
let prefixes = 0;
const freshPrefix = () => `test:${process.pid}:${++prefixes}:`;

describe.skipIf(binary === undefined).each(nodeRedisMajors)('Redis store (real redis-server), node-redis $major', ({ createClient }) => {
  let server: RedisServer | undefined;
  const clients: Client[] = [];

  async function connect(url: string): Promise<Client> {
    // A short reconnect delay keeps the killed-server test from waiting on backoff; errors are
    // expected there, and node-redis needs a listener for them.
    const client = createClient({ url, socket: { reconnectStrategy: () => 50, connectTimeout: 1000 } });
    client.on('error', () => undefined);
    await client.connect();
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    if (binary !== undefined) server = await startRedisServer(binary);
  });

  afterAll(async () => {
    for (const client of clients) client.destroy();
    await stopRedisServer(server);
  });

  function url(): string {
    if (server === undefined) throw new Error('redis-server did not start');
    return server.url;
  }

  // Exactness tests wait for Redis as long as it takes, so a loaded machine cannot turn them into
  // fallback tests; the default deadline has its own test below.
  const patient = 5000;

  /** Two proxies, each with its own connection: two instances of one deployment. */
  async function twoInstances(rateLimit: RateLimitOptions, extra: Partial<ChatProxyOptions> = {}) {
    const prefix = freshPrefix();
    const [a, b] = [await connect(url()), await connect(url())].map((client) =>
      setup({ store: createRedisStore({ client, prefix, timeoutMs: patient }), rateLimit, ...extra }),
    );
    if (a === undefined || b === undefined) throw new Error('unreachable');
    return { a, b, prefix };
  }

  /** 40 requests at once, alternating between the instances; the statuses, and the upstream calls. */
  async function burst(instances: Awaited<ReturnType<typeof twoInstances>>, request: (i: number) => { body?: unknown; ip: string }) {
    const responses = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const { body, ip } = request(i);
        const proxy = i % 2 === 0 ? instances.a : instances.b;
        return read(await proxy.handler(chatRequest(body === undefined ? {} : { body }), { ip }));
      }),
    );
    const ok = responses.filter((r) => r.status === 200).length;
    const limited = responses.filter((r) => r.status === 429).length;
    return { ok, limited, upstreamCalls: instances.a.upstream.calls.length + instances.b.upstream.calls.length, responses };
  }

  test('per IP: two instances let exactly the limit through, out of 40 concurrent requests', async () => {
    const instances = await twoInstances({ ...off, perIp: { limit: 5, windowMs: 60_000 } });
    const result = await burst(instances, () => ({ ip: '203.0.113.5' }));
    expect(result).toMatchObject({ ok: 5, limited: 35, upstreamCalls: 5 });
    expect(result.responses.find((r) => r.status === 429)?.body).toMatchObject({ code: 'rate_limited' });
  });

  test('per IP per day: exactly the limit, whichever instance and whichever address of one /64', async () => {
    const instances = await twoInstances({ ...off, perIpDaily: { limit: 6 } });
    const result = await burst(instances, (i) => ({ ip: `2001:db8:5:6::${i.toString(16)}` }));
    expect(result).toMatchObject({ ok: 6, limited: 34, upstreamCalls: 6 });
  });

  test('per conversation: exactly the limit across instances and addresses', async () => {
    const instances = await twoInstances({ ...off, perConversation: { limit: 7, windowMs: 60_000 } });
    const result = await burst(instances, (i) => ({
      ip: `198.51.100.${i}`,
      body: { agentId: AGENT, message: 'Hi', conversationId: 'conv_shared' },
    }));
    expect(result).toMatchObject({ ok: 7, limited: 33, upstreamCalls: 7 });
  });

  test('the reply cache is shared: a repeat on the other instance waits for the reply and the service is asked once', async () => {
    const prefix = freshPrefix();
    const answer = deferred<Response>();
    const [a, b] = [await connect(url()), await connect(url())].map((client, index) =>
      setup({ store: createRedisStore({ client, prefix, timeoutMs: patient }), rateLimit: off }, () =>
        index === 0 ? answer.promise : okReply({ reply: 'Asked twice' }),
      ),
    );
    if (a === undefined || b === undefined) throw new Error('unreachable');
    const body = { agentId: AGENT, message: 'When do you open?', messageId: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6' };
    const first = a.handler(chatRequest({ body }));
    await expect.poll(() => a.upstream.calls.length).toBe(1);
    const repeat = b.handler(chatRequest({ body }));
    answer.resolve(okReply({ reply: 'From nine.' }));
    expect((await read(await first)).body.reply).toBe('From nine.');
    expect((await read(await repeat)).body.reply).toBe('From nine.');
    expect((await read(await b.handler(chatRequest({ body })))).body.reply).toBe('From nine.');
    expect(b.upstream.calls).toHaveLength(0);
    // Kept for the reply cache's time, under a hash: neither the message nor its id is in the key.
    const client = await connect(url());
    const [key, ...others] = await client.keys(`${prefix}reply:*`);
    expect(others).toEqual([]);
    expect(key).toMatch(new RegExp(`^${prefix}reply:[0-9a-f]{32}$`));
    const ttl = await client.pTTL(key ?? '');
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
  });

  test('daily cap: exactly the cap across instances, then daily_cap_reached', async () => {
    const instances = await twoInstances({ ...off, dailyCap: { limit: 9 } });
    const result = await burst(instances, (i) => ({ ip: `198.51.100.${i}` }));
    expect(result).toMatchObject({ ok: 9, limited: 31, upstreamCalls: 9 });
    expect(result.responses.find((r) => r.status === 429)?.body).toMatchObject({ code: 'daily_cap_reached' });
  });

  test('a flood of new visitors, one message each from its own /64: exactly the cap reaches the service', async () => {
    const instances = await twoInstances({
      ...off,
      perIp: { limit: 30, windowMs: 60_000 },
      perIpDaily: { limit: 3 },
      dailyCap: { limit: 20 },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++) {
      const proxy = i % 2 === 0 ? instances.a : instances.b;
      statuses.push((await read(await proxy.handler(chatRequest(), { ip: `2001:db8:${i.toString(16)}::1` }))).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(instances.a.upstream.calls.length + instances.b.upstream.calls.length).toBe(20);
    // Each instance stops counting visitors' days once it has seen the cap reached.
    const days = await (await connect(url())).keys(`${instances.prefix}ip-day:*`);
    expect(days.length).toBeLessThanOrEqual(20 + 2);
  });

  test('node-redis, ioredis and Upstash over REST (the README recipes) count in the same keys, exactly', async () => {
    const prefix = freshPrefix();
    const rateLimit = { ...off, perIp: { limit: 5, windowMs: 60_000 } };
    const io = new IoRedis(url(), { lazyConnect: true, maxRetriesPerRequest: 1 });
    await io.connect();
    const rest = await startUpstashRest(await connect(url()), 'test-token');
    try {
      const upstash = new Upstash({ url: rest.url, token: 'test-token', retry: false, enableTelemetry: false });
      // Upstash's client speaks the node-redis shape through these two lines.
      const upstashScripting: NodeRedisScripting = {
        evalSha: (sha, { keys, arguments: args }) => upstash.evalsha(sha, keys, args),
        eval: (script, { keys, arguments: args }) => upstash.eval(script, keys, args),
      };
      const stores = [
        createRedisStore({ client: await connect(url()), prefix, timeoutMs: patient }),
        createRedisStore({ client: io, prefix, timeoutMs: patient }),
        createRedisStore({ client: upstashScripting, prefix, timeoutMs: patient }),
      ];
      const proxies = stores.map((store) => setup({ store, rateLimit }));
      const statuses = await Promise.all(
        Array.from({ length: 42 }, async (_, i) => {
          const proxy = proxies[i % 3];
          if (proxy === undefined) throw new Error('unreachable');
          return (await read(await proxy.handler(chatRequest(), { ip: '203.0.113.9' }))).status;
        }),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(37);
      expect(proxies.flatMap((p) => p.logs).some((entry) => entry.warning !== undefined)).toBe(false);
    } finally {
      io.disconnect();
      await rest.close();
    }
  });

  test('every key has a TTL within its window, and no key holds an address', async () => {
    const instances = await twoInstances({
      perIp: { limit: 100, windowMs: 60_000 },
      perIpDaily: { limit: 100 },
      perConversation: { limit: 100, windowMs: 30_000 },
      dailyCap: { limit: 100 },
    });
    await burst(instances, (i) => ({ ip: `203.0.113.${i}`, body: { agentId: AGENT, message: 'Hi', conversationId: `c${i % 3}` } }));
    const client = await connect(url());
    const keys = await client.keys(`${instances.prefix}*`);
    // 40 addresses x (per minute + per day), 3 conversations, 1 day.
    expect(keys).toHaveLength(40 * 2 + 3 + 1);
    for (const key of keys) {
      const ttl = await client.pTTL(key);
      const window = windowOf(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(window);
    }
    expect(keys.join()).not.toContain('203.0.113');
  });

  test('a key left without a TTL gets one on its next hit', async () => {
    const client = await connect(url());
    const prefix = freshPrefix();
    await client.set(`${prefix}stale`, '3');
    const store = createRedisStore({ client, prefix });
    expect(await store.hit('stale', 60_000, 1000)).toMatchObject({ count: 4 });
    expect(await client.pTTL(`${prefix}stale`)).toBeGreaterThan(0);
  });

  test('after SCRIPT FLUSH (a restart, a failover) the script is sent again and counting goes on', async () => {
    const client = await connect(url());
    const store = createRedisStore({ client, prefix: freshPrefix() });
    expect(await store.hit('k', 60_000, 0)).toMatchObject({ count: 1, resetAt: 60_000 });
    await client.scriptFlush();
    const second = await store.hit('k', 60_000, 10);
    expect(second.count).toBe(2);
    expect(second.warning).toBeUndefined();
  });

  describe('when Redis hangs, then dies', () => {
    let own: RedisServer | undefined;
    afterAll(async () => {
      await stopRedisServer(own);
    });

    test('each request waits at most the timeout, this instance counts alone, and the log says so once', async () => {
      if (binary === undefined) throw new Error('unreachable');
      own = await startRedisServer(binary);
      const connection = await connect(own.url);
      let redisCalls = 0;
      const client: NodeRedisScripting = {
        evalSha: (sha, options) => {
          redisCalls++;
          return connection.evalSha(sha, options);
        },
        eval: (script, options) => {
          redisCalls++;
          return connection.eval(script, options);
        },
      };
      let clock = Date.parse('2026-03-10T12:00:00.000Z');
      const errors: unknown[] = [];
      const { handler, logs } = setup({
        now: () => clock,
        store: createRedisStore({ client, prefix: freshPrefix(), timeoutMs: 150, onError: (e) => errors.push(e) }),
        rateLimit: { ...off, perIp: { limit: 3, windowMs: 600_000 } },
      });
      const timed = async () => {
        const start = performance.now();
        const response = await read(await handler(chatRequest(), { ip: '203.0.113.5' }));
        expect(response.text).not.toMatch(/redis|NOSCRIPT|ECONN|timeout|did not answer/i);
        return { status: response.status, ms: performance.now() - start };
      };

      expect((await timed()).status).toBe(200);

      own.pause();
      const hung = await timed();
      expect(hung.status).toBe(200);
      expect(hung.ms).toBeGreaterThanOrEqual(140);
      expect(hung.ms).toBeLessThan(1000);
      // While Redis is out, no request waits for it again; memory counts from here.
      const callsBefore = redisCalls;
      const during = [await timed(), await timed(), await timed()];
      expect(during.map((r) => r.status)).toEqual([200, 200, 429]);
      expect(redisCalls).toBe(callsBefore);
      expect(logs.map((entry) => entry.warning)).toEqual([undefined, 'store_unavailable', undefined, undefined, undefined]);
      expect(errors).toHaveLength(1);

      await own.kill();
      clock += 5000;
      const dead = await timed();
      expect(redisCalls).toBe(callsBefore + 1);
      expect(dead.status).toBe(429);
      expect(dead.ms).toBeLessThan(1000);
      // A minute later the outage is worth another line.
      clock += 60_000;
      await timed();
      expect(logs.filter((entry) => entry.warning === 'store_unavailable')).toHaveLength(2);
      expect(logs.every((entry) => entry.status !== 500)).toBe(true);
    });
  });
});
