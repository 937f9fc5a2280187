// Which address counts as "the client": platform headers, IPv6 networks, the case where nobody
// knows, and keys that agree across instances without storing an address.
import { describe, expect, test } from 'vitest';
import { createMemoryStore, PROXY_DEFAULTS, type RateLimitStore } from '../../src/server';
import { addressIdentity } from '../../src/server/client-ip';
import { API_KEY, chatRequest, read, setup } from './helpers';

const off = { perIp: false, perIpDaily: false, perConversation: false, dailyCap: false } as const;
const twoPerMinute = { ...off, perIp: { limit: 2, windowMs: 60_000 } };
const now = () => Date.parse('2026-03-10T12:00:00.000Z');

/** Statuses of one chat request per entry, each with its own headers and socket address. */
async function statuses(
  handler: ReturnType<typeof setup>['handler'],
  requests: { headers?: Record<string, string>; ip?: string }[],
): Promise<number[]> {
  const out: number[] = [];
  for (const { headers, ip } of requests)
    out.push((await read(await handler(chatRequest({ headers }), ip === undefined ? {} : { ip }))).status);
  return out;
}

describe('address identity', () => {
  test.each([
    ['198.51.100.7', '198.51.100.7'],
    ['198.51.100.7:53211', '198.51.100.7'],
    [' 198.51.100.7 ', '198.51.100.7'],
    ['2001:db8:aa:bb:1:2:3:4', '2001:db8:aa:bb::/64'],
    ['2001:0DB8:00aa:00bb:ffff:ffff:ffff:ffff', '2001:db8:aa:bb::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['[2001:db8:aa:bb::9]:443', '2001:db8:aa:bb::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::ffff:198.51.100.7', '198.51.100.7'],
    ['::ffff:c633:6407', '198.51.100.7'],
    ['64:ff9b::198.51.100.7', '64:ff9b:0:0::/64'],
  ])('%s counts as %s', (raw, identity) => {
    expect(addressIdentity(raw)).toBe(identity);
  });

  test.each(['', 'unknown', '256.1.1.1', '1.2.3', '2001:db8::1::2', '1:2:3:4:5:6:7:8:9', 'x'.repeat(65), '::ffff:1.2.3.999'])(
    '%j is not an address',
    (raw) => {
      expect(addressIdentity(raw)).toBeUndefined();
    },
  );

  test('every address of one IPv6 /64 shares one budget; the next /64 has its own', async () => {
    const { handler } = setup({ now, rateLimit: twoPerMinute });
    expect(
      await statuses(handler, [
        { ip: '2001:db8:aa:bb::1' },
        { ip: '2001:db8:aa:bb:ffff:1:2:3' },
        { ip: '2001:db8:aa:bb:9::9' },
        { ip: '2001:db8:aa:bc::1' },
      ]),
    ).toEqual([200, 200, 429, 200]);
  });

  test('an IPv4 client on a dual-stack socket (::ffff:a.b.c.d) shares the budget of its IPv4 address', async () => {
    const { handler } = setup({ now, rateLimit: twoPerMinute });
    expect(await statuses(handler, [{ ip: '198.51.100.7' }, { ip: '::ffff:198.51.100.7' }, { ip: '::ffff:c633:6407' }])).toEqual([
      200, 200, 429,
    ]);
  });
});

describe('clientIp presets', () => {
  const platforms = [
    { preset: 'vercel', header: 'x-real-ip' },
    { preset: 'vercel', header: 'x-vercel-forwarded-for' },
    { preset: 'cloudflare', header: 'cf-connecting-ip' },
    { preset: 'fly', header: 'fly-client-ip' },
    { preset: 'x-real-ip', header: 'x-real-ip' },
  ] as const;

  test.each(platforms)('$preset: the address in $header counts; X-Forwarded-For and the socket do not', async ({ preset, header }) => {
    const { handler, logs } = setup({ now, clientIp: preset, rateLimit: twoPerMinute });
    const from = (address: string, forged: string) => ({ headers: { [header]: address, 'X-Forwarded-For': forged }, ip: '10.0.0.2' });
    expect(
      await statuses(handler, [
        from('203.0.113.5', '1.1.1.1'),
        from('203.0.113.5', '2.2.2.2'),
        from('203.0.113.5', '3.3.3.3'),
        from('203.0.113.6', '3.3.3.3'),
      ]),
    ).toEqual([200, 200, 429, 200]);
    expect(logs[0]?.ipHash).toMatch(/^[0-9a-f]{16}$/);
    expect(logs[0]?.ipHash).not.toBe(logs[3]?.ipHash);
  });

  test('socket: ctx.ip counts, whatever the headers say', async () => {
    const { handler } = setup({ now, clientIp: 'socket', rateLimit: twoPerMinute });
    const forged = (value: string) => ({ headers: { 'x-real-ip': value, 'X-Forwarded-For': value }, ip: '198.51.100.7' });
    expect(await statuses(handler, [forged('1.1.1.1'), forged('2.2.2.2'), forged('3.3.3.3')])).toEqual([200, 200, 429]);
  });

  test('a function receives the request and ctx, and its answer counts', async () => {
    const seen: (string | undefined)[] = [];
    const { handler } = setup({
      now,
      rateLimit: twoPerMinute,
      clientIp: (request, ctx) => {
        seen.push(ctx.ip);
        return request.headers.get('x-client');
      },
    });
    const as = (address: string) => ({ headers: { 'x-client': address }, ip: '10.0.0.2' });
    expect(await statuses(handler, [as('203.0.113.5'), as('203.0.113.5'), as('203.0.113.5'), as('203.0.113.6')])).toEqual([
      200, 200, 429, 200,
    ]);
    expect(seen).toEqual(['10.0.0.2', '10.0.0.2', '10.0.0.2', '10.0.0.2']);
  });

  test('a misconfiguration fails at startup, not on the first message', () => {
    expect(() => setup({ clientIp: 'vercel', trustProxy: 1 })).toThrow(/clientIp and trustProxy are alternatives/);
    // @ts-expect-error: not a preset
    expect(() => setup({ clientIp: 'heroku' })).toThrow(/clientIp must be a function or one of socket, vercel, cloudflare, fly, x-real-ip/);
  });
});

describe('when no address can be known', () => {
  test('those requests share one per-IP budget, and the first one says so in the log', async () => {
    const { handler, logs } = setup({ now, clientIp: 'cloudflare', rateLimit: twoPerMinute });
    expect(
      await statuses(handler, [
        {},
        { headers: { 'cf-connecting-ip': 'not an address' } },
        {},
        { headers: { 'cf-connecting-ip': '203.0.113.5' } },
      ]),
    ).toEqual([200, 200, 429, 200]);
    expect(logs.map((entry) => (entry.ipHash.length === 16 ? 'hash' : entry.ipHash))).toEqual(['unknown', 'unknown', 'unknown', 'hash']);
    expect(logs.map((entry) => entry.warning)).toEqual(['client_ip_unknown', undefined, undefined, undefined]);
  });

  test('a resolver that throws counts as not knowing, not as a failure', async () => {
    const { handler, logs } = setup({
      now,
      rateLimit: twoPerMinute,
      clientIp: () => {
        throw new Error('no header');
      },
    });
    expect(await statuses(handler, [{}, {}, {}])).toEqual([200, 200, 429]);
    expect(logs[0]).toMatchObject({ ipHash: 'unknown', warning: 'client_ip_unknown' });
  });
});

describe('per IP per day', () => {
  test('by default one address gets 100 messages a day; the 101st is daily_cap_reached until UTC midnight, others go on', async () => {
    let clock = Date.parse('2026-03-10T22:00:00.000Z');
    const { handler, upstream } = setup({ now: () => clock, rateLimit: { perIp: false, perConversation: false } });
    for (let i = 0; i < PROXY_DEFAULTS.perIpDaily; i++)
      expect((await read(await handler(chatRequest(), { ip: '203.0.113.5' }))).status).toBe(200);
    const refused = await read(await handler(chatRequest(), { ip: '203.0.113.5' }));
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'daily_cap_reached', retryAfter: 7200 });
    expect(refused.headers.get('X-RateLimit-Limit')).toBe('100');
    expect((await read(await handler(chatRequest(), { ip: '203.0.113.6' }))).status).toBe(200);
    expect(upstream.calls).toHaveLength(101);
    clock = Date.parse('2026-03-11T00:00:00.000Z');
    expect((await read(await handler(chatRequest(), { ip: '203.0.113.5' }))).status).toBe(200);
  });

  test('the defaults make switching chat off for everyone take 50 addresses (IPv4, or IPv6 /64s), not 10', () => {
    expect(PROXY_DEFAULTS.dailyCap / PROXY_DEFAULTS.perIpDaily).toBe(50);
  });
});

describe('keys shared by instances', () => {
  function recordingStore() {
    const inner = createMemoryStore();
    const keys: string[] = [];
    const store: RateLimitStore = {
      hit(key, windowMs, at) {
        keys.push(key);
        return inner.hit(key, windowMs, at);
      },
    };
    return { store, keys };
  }

  test('two instances with the same key count a visitor under the same store key, so a shared store holds', async () => {
    const { store, keys } = recordingStore();
    const a = setup({ now, store, rateLimit: twoPerMinute });
    const b = setup({ now, store, rateLimit: twoPerMinute });
    const ctx = { ip: '203.0.113.5' };
    expect((await read(await a.handler(chatRequest(), ctx))).status).toBe(200);
    expect((await read(await b.handler(chatRequest(), ctx))).status).toBe(200);
    expect((await read(await a.handler(chatRequest(), ctx))).status).toBe(429);
    expect(new Set(keys).size).toBe(1);
    expect(a.logs[0]?.ipHash).toBe(b.logs[0]?.ipHash);
    expect(keys.join()).not.toContain('203.0.113');
  });

  test('keySecret replaces the key-derived secret; a different one gives different keys', async () => {
    const { store, keys } = recordingStore();
    const ctx = { ip: '203.0.113.5' };
    for (const keySecret of [undefined, 'one shared secret for all instances', 'another secret of enough length']) {
      const { handler } = setup({ now, store, rateLimit: twoPerMinute, ...(keySecret === undefined ? {} : { keySecret }) });
      await read(await handler(chatRequest(), ctx));
    }
    expect(new Set(keys).size).toBe(3);
    expect(() => setup({ keySecret: 'short' })).toThrow(/keySecret must be a string of at least 16 characters/);
  });

  test('the hash is keyed: without the secret, hashing candidate addresses does not find the visitor', async () => {
    const { store, keys } = recordingStore();
    const { handler } = setup({ now, store, rateLimit: twoPerMinute });
    await read(await handler(chatRequest(), { ip: '203.0.113.5' }));
    const plain = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('203.0.113.5')));
    const plainHex = Array.from(plain.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
    expect(keys[0]).toMatch(/^ip:[0-9a-f]{16}$/);
    expect(keys[0]).not.toBe(`ip:${plainHex}`);
    expect(keys.join()).not.toContain(API_KEY.slice(8, 20));
  });
});
