// The server client against the in-memory sandbox: every method, argument checks, typed errors,
// bounded retry after 429, and both waiters. The sandbox and the client share one injected clock,
// and the client's sleep advances it, so nothing waits in real time.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createSandbox, DEMO_AGENT_ID, DEMO_API_KEY, DEMO_SCOPED_API_KEY, type SandboxOptions } from '../../src/sandbox';
import {
  ApiError,
  createAgentClient,
  InsufficientCreditsError,
  InvalidRequestError,
  NotFoundError,
  ProcessingError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  type AgentClient,
  type AgentClientOptions,
} from '../../src/server';

const BASE_URL = 'https://service.test';
const T0 = Date.parse('2026-03-10T12:00:00.000Z');

afterEach(() => {
  vi.useRealTimers();
});

/** A sandboxed service and a client on one shared clock; `requests` counts what reached the service. */
function setup(sandboxOptions: SandboxOptions = {}, clientOptions: Partial<AgentClientOptions> = {}) {
  let now = T0;
  const sandbox = createSandbox({ now: () => new Date(now), ...sandboxOptions });
  const requests: Request[] = [];
  const sleeps: number[] = [];
  const client = createAgentClient({
    apiKey: DEMO_API_KEY,
    baseUrl: BASE_URL,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      requests.push(request.clone());
      return sandbox.handle(request);
    },
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    ...clientOptions,
  });
  return { sandbox, client, requests, sleeps, advance: (ms: number) => (now += ms) };
}

const pdf = (name = 'price-list.pdf') => new File([new Uint8Array(2048).fill(37)], name, { type: 'application/pdf' });

describe('every endpoint against the sandbox', () => {
  test('chat sends the key as a Bearer token and returns the reply with the credits used', async () => {
    const { client, sandbox, requests } = setup();
    const before = sandbox.credits();
    const first = await client.chat({ agentId: DEMO_AGENT_ID, message: 'What are your opening hours?' });
    expect(first.success).toBe(true);
    expect(typeof first.reply).toBe('string');
    expect(first.credits).toEqual({ used: 1, remaining: before - 1 });
    expect(requests[0]?.headers.get('Authorization')).toBe(`Bearer ${DEMO_API_KEY}`);
    expect(requests[0]?.method).toBe('POST');
    expect(new URL(requests[0]?.url ?? '').pathname).toBe('/chat');

    const second = await client.chat({ agentId: DEMO_AGENT_ID, message: 'And on Sunday?', conversationId: String(first.conversationId) });
    expect(second.conversationId).toBe(first.conversationId);
    expect(sandbox.conversation(String(first.conversationId))).toHaveLength(4);
  });

  test('web sources: create, discover, update, list, get, train, wait until trained, delete', async () => {
    const { client } = setup({ stageMs: 5000 });
    const created = await client.webSources.create({
      agentId: DEMO_AGENT_ID,
      url: 'https://clinic.example/',
      mode: 'crawl',
      maxPages: 10,
      maxDepth: 2,
    });
    const id = created.webSource.id;
    expect(created.webSource).toMatchObject({ agentId: DEMO_AGENT_ID, url: 'https://clinic.example/', mode: 'crawl', maxPages: 10 });

    const discovered = await client.webSources.discover(id);
    expect(discovered.discoveredCount).toBeGreaterThan(1);
    const kept = discovered.webSource.discoveredUrls.slice(0, 2);
    const updated = await client.webSources.update(id, kept);
    expect(updated.webSource.discoveredUrls).toEqual(kept);

    const listed = await client.webSources.list(DEMO_AGENT_ID);
    expect(listed.webSources.map((w) => w.id)).toContain(id);
    expect((await client.webSources.get(id)).webSource.id).toBe(id);

    const trained = await client.webSources.train(id);
    expect(trained.webSource.status).toBe('scraping');
    expect(typeof trained.callId).toBe('string');

    const progress: string[] = [];
    const done = await client.webSources.waitUntilTrained(id, { intervalMs: 2000, onProgress: (s) => progress.push(s) });
    expect(done.status).toBe('completed');
    expect(progress).toEqual(['scraping', 'chunking', 'completed']);

    expect((await client.webSources.delete(id)).success).toBe(true);
    await expect(client.webSources.get(id)).rejects.toBeInstanceOf(NotFoundError);
  });

  test('documents: upload, convert, wait until processed with progress', async () => {
    const { client, requests } = setup({ stageMs: 3000 });
    const uploaded = await client.documents.upload(DEMO_AGENT_ID, pdf(), 'price-list.pdf');
    expect(typeof uploaded.documentId).toBe('string');
    const form = await requests[0]?.formData();
    expect(form?.get('agentId')).toBe(DEMO_AGENT_ID);
    const file = form?.get('file');
    expect(file instanceof File ? file.name : undefined).toBe('price-list.pdf');

    const started = await client.documents.convert(DEMO_AGENT_ID, uploaded.documentId);
    expect(typeof started.callId).toBe('string');
    expect((await client.documents.status(uploaded.documentId)).status).toBe('processing');

    const progress: string[] = [];
    const done = await client.documents.waitUntilProcessed(uploaded.documentId, {
      intervalMs: 1000,
      onProgress: (s) => progress.push(s),
    });
    expect(done.status).toBe('completed');
    // Each status reported once, on change, though it was polled several times.
    expect(progress).toEqual(['processing', 'chunking', 'completed']);
  });

  test('analytics, credits, subscription, limits and invoices', async () => {
    const { client, requests } = setup();
    await client.chat({ agentId: DEMO_AGENT_ID, message: 'Hello' });

    const all = await client.analytics(DEMO_AGENT_ID, { days: 0 });
    expect(all.data.overview.totalConversations).toBeGreaterThanOrEqual(1);
    expect(new URL(requests.at(-1)?.url ?? '').searchParams.get('days')).toBe('0');
    const week = await client.analytics(DEMO_AGENT_ID, { days: 7 });
    expect(Array.isArray(week.data.conversationsOverTime)).toBe(true);
    await client.analytics(DEMO_AGENT_ID);
    expect(new URL(requests.at(-1)?.url ?? '').searchParams.has('days')).toBe(false);

    const plain = await client.credits();
    expect(typeof plain.credits.balance).toBe('number');
    expect(plain.stats).toBeUndefined();
    const withStats = await client.credits({ includeStats: true });
    expect(new URL(requests.at(-1)?.url ?? '').searchParams.get('includeStats')).toBe('true');
    expect(withStats.stats?.byFeature.chat).toBeGreaterThanOrEqual(1);

    const subscription = await client.subscriptions.get();
    expect(typeof subscription.subscription.status).toBe('string');
    expect(typeof subscription.usage.storage.limitBytes).toBe('number');

    const agentLimit = await client.subscriptions.limits({ check: 'agent' });
    expect(agentLimit).toMatchObject({ check: 'agent', allowed: expect.any(Boolean) });
    const storage = await client.subscriptions.limits({ check: 'storage', bytes: 1024 });
    expect(storage).toMatchObject({ check: 'storage', allowed: expect.any(Boolean) });
    expect(await requests.at(-1)?.json()).toEqual({ check: 'storage', bytes: 1024 });

    const invoices = await client.subscriptions.invoices();
    expect(Array.isArray(invoices.invoices)).toBe(true);
  });
});

describe('argument checks: named, and nothing is sent', () => {
  const cases: [string, (c: AgentClient) => Promise<unknown>, string][] = [
    ['chat without agentId', (c) => c.chat({ agentId: '', message: 'Hi' }), 'agentId'],
    ['chat with a blank message', (c) => c.chat({ agentId: DEMO_AGENT_ID, message: '  ' }), 'message'],
    ['a web source with an ftp url', (c) => c.webSources.create({ agentId: DEMO_AGENT_ID, url: 'ftp://x.example', mode: 'crawl' }), 'url'],
    ['a web source with a relative url', (c) => c.webSources.create({ agentId: DEMO_AGENT_ID, url: '/about', mode: 'single' }), 'url'],
    [
      'a web source with an unknown mode',
      (c) => c.webSources.create({ agentId: DEMO_AGENT_ID, url: 'https://x.example', mode: JSON.parse('"deep"') }),
      'mode',
    ],
    [
      'maxPages 0',
      (c) => c.webSources.create({ agentId: DEMO_AGENT_ID, url: 'https://x.example', mode: 'crawl', maxPages: 0 }),
      'maxPages',
    ],
    [
      'maxPages 101',
      (c) => c.webSources.create({ agentId: DEMO_AGENT_ID, url: 'https://x.example', mode: 'crawl', maxPages: 101 }),
      'maxPages',
    ],
    [
      'maxPages 2.5',
      (c) => c.webSources.create({ agentId: DEMO_AGENT_ID, url: 'https://x.example', mode: 'crawl', maxPages: 2.5 }),
      'maxPages',
    ],
    [
      'maxDepth 4',
      (c) => c.webSources.create({ agentId: DEMO_AGENT_ID, url: 'https://x.example', mode: 'crawl', maxDepth: 4 }),
      'maxDepth',
    ],
    [
      'maxDepth 0',
      (c) => c.webSources.create({ agentId: DEMO_AGENT_ID, url: 'https://x.example', mode: 'crawl', maxDepth: 0 }),
      'maxDepth',
    ],
    ['discoveredUrls not an array', (c) => c.webSources.update('ws_1', JSON.parse('{"url":"https://x.example"}')), 'discoveredUrls'],
    [
      'a discovered url that is not http(s)',
      (c) => c.webSources.update('ws_1', [{ url: 'https://x.example/a' }, { url: 'javascript:alert(1)' }]),
      'discoveredUrls[1].url',
    ],
    ['an empty web source id', (c) => c.webSources.train(''), 'id'],
    ['an empty id to get', (c) => c.webSources.get(' '), 'id'],
    ['an empty id to delete', (c) => c.webSources.delete(''), 'id'],
    ['an empty id to discover', (c) => c.webSources.discover(''), 'id'],
    ['list without agentId', (c) => c.webSources.list(''), 'agentId'],
    ['upload without a file', (c) => c.documents.upload(DEMO_AGENT_ID, JSON.parse('"not a blob"'), 'a.pdf'), 'file'],
    ['upload without a file name', (c) => c.documents.upload(DEMO_AGENT_ID, pdf(), ''), 'fileName'],
    ['convert without documentId', (c) => c.documents.convert(DEMO_AGENT_ID, ''), 'documentId'],
    ['status without documentId', (c) => c.documents.status(''), 'documentId'],
    ['negative days', (c) => c.analytics(DEMO_AGENT_ID, { days: -1 }), 'days'],
    ['fractional days', (c) => c.analytics(DEMO_AGENT_ID, { days: 1.5 }), 'days'],
    ['an unknown limit check', (c) => c.subscriptions.limits(JSON.parse('{"check":"seats"}')), 'check'],
    ['a storage check without bytes', (c) => c.subscriptions.limits(JSON.parse('{"check":"storage"}')), 'bytes'],
    ['a storage check with negative bytes', (c) => c.subscriptions.limits({ check: 'storage', bytes: -5 }), 'bytes'],
    ['a waiter with a zero interval', (c) => c.documents.waitUntilProcessed('doc_1', { intervalMs: 0 }), 'intervalMs'],
  ];

  test.each(cases)('%s is refused naming `%s`', async (_, call, argument) => {
    const { client, requests } = setup();
    const error = await call(client).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'validation', argument });
    expect(String(error instanceof Error ? error.message : '')).toContain(argument);
    expect(requests).toHaveLength(0);
  });

  test('a client without a key or base URL refuses to start', () => {
    expect(() => createAgentClient({ apiKey: '', baseUrl: BASE_URL })).toThrow(expect.objectContaining({ argument: 'apiKey' }));
    expect(() => createAgentClient({ apiKey: DEMO_API_KEY, baseUrl: 'service.test' })).toThrow(
      expect.objectContaining({ argument: 'baseUrl' }),
    );
  });
});

describe('typed errors', () => {
  test('401 is UnauthorizedError, and every typed error is also an ApiError', async () => {
    const { client } = setup({}, { apiKey: 'sk_live_not_a_real_key_0000000000' });
    const error = await client.credits().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, kind: 'http' });
  });

  test('a key scoped to another agent is UnauthorizedError', async () => {
    const { client } = setup({ agents: [{ id: DEMO_AGENT_ID }, { id: 'other-agent' }] }, { apiKey: DEMO_SCOPED_API_KEY });
    const error = await client.chat({ agentId: 'other-agent', message: 'Hi' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ code: 'scope_mismatch' });
  });

  test('a 403 answer is UnauthorizedError too', async () => {
    const client = createAgentClient({
      apiKey: DEMO_API_KEY,
      baseUrl: BASE_URL,
      fetch: async () => new Response(JSON.stringify({ success: false, error: 'Forbidden' }), { status: 403 }),
    });
    await expect(client.credits()).rejects.toBeInstanceOf(UnauthorizedError);
  });

  test('402 is InsufficientCreditsError', async () => {
    const { client } = setup({ credits: 0 });
    await expect(client.chat({ agentId: DEMO_AGENT_ID, message: 'Hi' })).rejects.toBeInstanceOf(InsufficientCreditsError);
  });

  test('404 is NotFoundError and 400 is InvalidRequestError, each with the service message', async () => {
    const { client } = setup();
    const missing = await client.webSources.get('ws_missing').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, message: expect.stringMatching(/not found/i) });

    const uploaded = await client.documents.upload(DEMO_AGENT_ID, pdf(), 'a.pdf');
    const early = await client.documents.status(uploaded.documentId).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(InvalidRequestError);
    expect(early).toMatchObject({ status: 400, code: 'processing_not_started' });
  });

  test.each([500, 502, 503])('%s is ServerError', async (status) => {
    const client = createAgentClient({
      apiKey: DEMO_API_KEY,
      baseUrl: BASE_URL,
      fetch: async () => new Response(JSON.stringify({ success: false, error: 'Internal error' }), { status }),
    });
    const error = await client.subscriptions.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status });
  });

  test('failures that are not HTTP answers keep their kind', async () => {
    const client = createAgentClient({
      apiKey: DEMO_API_KEY,
      baseUrl: BASE_URL,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    const error = await client.subscriptions.invoices().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ kind: 'network' });
  });
});

describe('retry after 429', () => {
  /** The sandbox's limiter is per key: with limit 1 the second call in a window is a 429. */
  test('waits until X-RateLimit-Reset and retries once the window has reset', async () => {
    // The fetch layer reads the reset time against Date.now, so the wall clock is pinned to the sandbox's.
    vi.useFakeTimers({ now: T0, toFake: ['Date'] });
    const sandbox = createSandbox({ now: () => new Date(Date.now()), rateLimit: { limit: 1, windowMs: 10_000 } });
    const sleeps: number[] = [];
    const requests: string[] = [];
    const client = createAgentClient({
      apiKey: DEMO_API_KEY,
      baseUrl: BASE_URL,
      fetch: async (input, init) => {
        requests.push(String(input));
        return sandbox.handle(new Request(input, init));
      },
      sleep: async (ms) => {
        sleeps.push(ms);
        vi.setSystemTime(Date.now() + ms);
      },
    });
    await client.credits();
    vi.setSystemTime(T0 + 3000);
    const second = await client.credits();
    expect(second.success).toBe(true);
    expect(sleeps).toEqual([7000]);
    expect(requests).toHaveLength(3);
  });

  function alwaysLimited(resetInSeconds: number) {
    let calls = 0;
    const fetch: typeof globalThis.fetch = async () => {
      calls += 1;
      return new Response(JSON.stringify({ success: false, error: 'Too many requests' }), {
        status: 429,
        headers: { 'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) + resetInSeconds), 'X-RateLimit-Remaining': '0' },
      });
    };
    return { fetch, calls: () => calls };
  }

  test('gives up with RateLimitedError after maxRetries', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['Date'] });
    const limited = alwaysLimited(5);
    const sleeps: number[] = [];
    const client = createAgentClient({
      apiKey: DEMO_API_KEY,
      baseUrl: BASE_URL,
      fetch: limited.fetch,
      maxRetries: 2,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const error = await client.credits().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ status: 429, retryAfter: 5, rateLimit: { remaining: 0, reset: Math.floor(T0 / 1000) + 5 } });
    expect(limited.calls()).toBe(3);
    expect(sleeps).toEqual([5000, 5000]);
  });

  test('does not wait longer than maxRetryWaitMs: a far reset is thrown at once', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['Date'] });
    const limited = alwaysLimited(120);
    const sleep = vi.fn(async () => undefined);
    const client = createAgentClient({ apiKey: DEMO_API_KEY, baseUrl: BASE_URL, fetch: limited.fetch, sleep });
    const error = await client.credits().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ retryAfter: 120 });
    expect(sleep).not.toHaveBeenCalled();
    expect(limited.calls()).toBe(1);
  });

  test('maxRetries 0 turns retrying off', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['Date'] });
    const limited = alwaysLimited(1);
    const client = createAgentClient({ apiKey: DEMO_API_KEY, baseUrl: BASE_URL, fetch: limited.fetch, maxRetries: 0 });
    await expect(client.credits()).rejects.toBeInstanceOf(RateLimitedError);
    expect(limited.calls()).toBe(1);
  });

  test('the wait is abortable with the call signal', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const limited = alwaysLimited(30);
    const client = createAgentClient({ apiKey: DEMO_API_KEY, baseUrl: BASE_URL, fetch: limited.fetch });
    const controller = new AbortController();
    const pending = client.credits({ signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000);
    expect(limited.calls()).toBe(1);
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'aborted' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(limited.calls()).toBe(1);
  });
});

describe('waiters', () => {
  test('a document that fails processing rejects with ProcessingError after reporting its progress', async () => {
    const { client } = setup({ stageMs: 2000 });
    const { documentId } = await client.documents.upload(DEMO_AGENT_ID, pdf('corrupt-scan.pdf'), 'corrupt-scan.pdf');
    await client.documents.convert(DEMO_AGENT_ID, documentId);
    const progress: string[] = [];
    const error = await client.documents.waitUntilProcessed(documentId, { onProgress: (s) => progress.push(s) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessingError);
    expect(error).toMatchObject({ resource: 'document', id: documentId, status: 'error' });
    expect(String(error instanceof Error ? error.message : '')).toContain(documentId);
    expect(progress).toEqual(['processing', 'error']);
  });

  test('a document that never finishes times out with the last status, polling at intervalMs', async () => {
    const { client, requests, sleeps } = setup({ stageMs: 3_600_000 });
    const { documentId } = await client.documents.upload(DEMO_AGENT_ID, pdf(), 'a.pdf');
    await client.documents.convert(DEMO_AGENT_ID, documentId);
    const before = requests.length;
    const error = await client.documents.waitUntilProcessed(documentId, { timeoutMs: 10_000, intervalMs: 3000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'timeout', message: expect.stringContaining('processing') });
    // Polls at 0, 3, 6, 9 and a last one at the deadline (10 s).
    expect(sleeps).toEqual([3000, 3000, 3000, 1000]);
    expect(requests.length - before).toBe(5);
  });

  test('a web source that never finishes training times out too', async () => {
    const { client } = setup({ stageMs: 3_600_000 });
    const { webSource } = await client.webSources.create({ agentId: DEMO_AGENT_ID, url: 'https://clinic.example/', mode: 'single' });
    await client.webSources.train(webSource.id);
    const progress: string[] = [];
    const error = await client.webSources
      .waitUntilTrained(webSource.id, { timeoutMs: 5000, onProgress: (s) => progress.push(s) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout' });
    expect(progress).toEqual(['scraping']);
  });

  test('both waiters stop when aborted, between polls', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let now = T0;
    const sandbox = createSandbox({ now: () => new Date(now), stageMs: 3_600_000 });
    const requests: string[] = [];
    const client = createAgentClient({
      apiKey: DEMO_API_KEY,
      baseUrl: BASE_URL,
      now: () => now,
      fetch: async (input, init) => {
        requests.push(String(input));
        return sandbox.handle(new Request(input, init));
      },
    });
    const { documentId } = await client.documents.upload(DEMO_AGENT_ID, pdf(), 'a.pdf');
    await client.documents.convert(DEMO_AGENT_ID, documentId);
    const { webSource } = await client.webSources.create({ agentId: DEMO_AGENT_ID, url: 'https://clinic.example/', mode: 'single' });
    await client.webSources.train(webSource.id);

    const controller = new AbortController();
    const doc = client.documents.waitUntilProcessed(documentId, { signal: controller.signal }).catch((e: unknown) => e);
    const web = client.webSources.waitUntilTrained(webSource.id, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2000);
    now += 2000;
    const polled = requests.length;
    controller.abort();
    expect(await doc).toMatchObject({ kind: 'aborted' });
    expect(await web).toMatchObject({ kind: 'aborted' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(requests.length).toBe(polled);
  });

  test('an already aborted signal sends nothing', async () => {
    const { client, requests } = setup();
    const error = await client.documents.waitUntilProcessed('doc_1', { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'aborted' });
    expect(requests).toHaveLength(0);
  });
});
