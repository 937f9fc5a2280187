import { number, object, optional, string } from '../../src/core/schema';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, expect, test, vi } from 'vitest';
import { ApiError, anySignal, createHttp, rateLimitFromHeaders, retryAfterSeconds, type HttpOptions } from '../../src/core/http';

type Handler = (request: Request) => Response | Promise<Response>;

/** An http client whose fetch is `handler`; records what was sent. */
function clientWith(handler: Handler, timeoutMs?: number, more: Partial<HttpOptions> = {}) {
  const sent: Request[] = [];
  const http = createHttp({
    ...more,
    baseUrl: 'https://api.test/',
    timeoutMs,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      sent.push(request);
      return handler(request);
    },
  });
  return { http, sent };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw new Error(`expected an ApiError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected the call to fail');
}

/** Accepts any envelope, keeping nothing but `success`. */
const nothing = object({});

describe('fetch layer', () => {
  test('sends JSON bodies and query strings, returns the success body', async () => {
    const { http, sent } = clientWith(() => json({ success: true, value: 42 }));
    const body = await http('/things', object({ value: number }), {
      method: 'POST',
      query: { a: 'x y', skip: undefined, n: 3 },
      body: { hello: 'world' },
    });
    expect(body.value).toBe(42);
    const [request] = sent;
    expect(request?.url).toBe('https://api.test/things?a=x+y&n=3');
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    expect(await request?.json()).toEqual({ hello: 'world' });
  });

  test('turns the error envelope into an ApiError with status and message', async () => {
    const { http } = clientWith(() => json({ success: false, error: 'agentId is required' }, 400));
    const error = await caught(http('/x', nothing));
    expect(error.kind).toBe('http');
    expect(error.status).toBe(400);
    expect(error.message).toBe('agentId is required');
  });

  test('a 200 with success false is still an error', async () => {
    const { http } = clientWith(() => json({ success: false, error: 'nope' }));
    const error = await caught(http('/x', nothing));
    expect(error.message).toBe('nope');
    expect(error.kind).toBe('http');
  });

  test.each([
    ['an HTML page', '<html>Bad gateway</html>', 200, 'invalid_response'],
    ['an empty body', '', 200, 'invalid_response'],
    ['JSON without the envelope', '[1,2,3]', 200, 'invalid_response'],
    ['truncated JSON', '{"success": tr', 200, 'invalid_response'],
    ['an HTML error page', '<h1>502</h1>', 502, 'http'],
    ['an empty error', '', 500, 'http'],
  ])('%s becomes a clear ApiError, never a JSON.parse exception', async (_name, text, status, kind) => {
    const { http } = clientWith(() => new Response(text, { status }));
    const error = await caught(http('/x', nothing));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.message).toMatch(new RegExp(String(status)));
    expect(error).not.toBeInstanceOf(SyntaxError);
  });

  test('a 200 whose body does not fit the schema is invalid_response naming the path; extra fields are dropped and defaults filled', async () => {
    const schema = object({ item: object({ name: string, note: optional(string, '') }) });
    const wrong = clientWith(() => json({ success: true, item: { name: 7 } }));
    const error = await caught(wrong.http('/x', schema));
    expect(error.kind).toBe('invalid_response');
    expect(error.status).toBe(200);
    expect(error.message).toContain('item.name: expected a string');
    const right = clientWith(() => json({ success: true, item: { name: 'a', extra: true }, more: 1 }));
    expect(await right.http('/x', schema)).toEqual({ success: true, item: { name: 'a', note: '' } });
  });

  test('429 carries the rate-limit headers (when asked to read them) and the seconds until reset', async () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    vi.useFakeTimers({ now, toFake: ['Date'] });
    const reset = now / 1000 + 30;
    const limited = () =>
      json({ success: false, error: 'Too many requests' }, 429, {
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(reset),
      });
    const error = await caught(clientWith(limited, undefined, { readRateLimit: rateLimitFromHeaders }).http('/x', nothing));
    // The widget's clients leave the headers unread: only the wait matters to them.
    const unread = await caught(clientWith(limited).http('/x', nothing));
    vi.useRealTimers();
    expect(error.status).toBe(429);
    expect(error.rateLimit).toEqual({ limit: 60, remaining: 0, reset });
    expect(error.retryAfter).toBe(30);
    expect(unread.rateLimit).toEqual({});
    expect(unread.retryAfter).toBe(30);
  });

  test('Retry-After wins over X-RateLimit-Reset; garbage headers are ignored', () => {
    const headers = new Headers({ 'Retry-After': '7', 'X-RateLimit-Reset': '99999999999' });
    expect(retryAfterSeconds(headers, 0)).toBe(7);
    expect(retryAfterSeconds(new Headers({ 'X-RateLimit-Reset': 'soon' }), 0)).toBeUndefined();
  });

  test('times out with kind "timeout" when the service does not answer', async () => {
    vi.useFakeTimers();
    const { http } = clientWith(
      (request) =>
        new Promise((_resolve, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason));
        }),
      5_000,
    );
    const pending = caught(http('/slow', nothing));
    await vi.advanceTimersByTimeAsync(5_000);
    const error = await pending;
    vi.useRealTimers();
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('5000 ms');
  });

  test("the caller's AbortSignal cancels the request with kind 'aborted'", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const { http } = clientWith(
      (request) =>
        new Promise((_resolve, reject) => {
          seen = request.signal;
          request.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = caught(http('/x', nothing, { signal: controller.signal }));
    await vi.waitFor(() => expect(seen).toBeDefined());
    controller.abort();
    const error = await pending;
    expect(error.kind).toBe('aborted');
    expect(seen?.aborted).toBe(true);
  });

  test('an already-aborted signal sends nothing', async () => {
    const { http, sent } = clientWith(() => json({ success: true }));
    const error = await caught(http('/x', nothing, { signal: AbortSignal.abort() }));
    expect(error.kind).toBe('aborted');
    expect(sent).toHaveLength(0);
  });

  test('an answer over the limit ends the call as answer_too_large, whether declared, streamed endlessly or a gzip bomb', async () => {
    const schema = nothing;
    const limit = 64 * 1024;
    // Declared too large: refused before reading.
    const declared = clientWith(() => new Response('{}', { headers: { 'Content-Length': String(limit + 1) } }), undefined, {
      maxAnswerBytes: limit,
    });
    expect(await caught(declared.http('/a', schema))).toMatchObject({ kind: 'invalid_response', code: 'answer_too_large' });
    // Streamed without end: read up to the limit, then cancelled.
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
      },
    });
    const streaming = clientWith(() => new Response(endless), undefined, { maxAnswerBytes: limit });
    expect(await caught(streaming.http('/b', schema))).toMatchObject({ kind: 'invalid_response', code: 'answer_too_large' });
    expect(pulled).toBeLessThan(10);
    // A gzip bomb over real HTTP: counted as fetch decompresses it, not as it came over the wire.
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
    const server = createServer((_, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': bomb.length });
      res.end(bomb);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const overHttp = createHttp({ baseUrl: `http://127.0.0.1:${port}/`, maxAnswerBytes: limit });
      expect(bomb.length).toBeLessThan(limit);
      expect(await caught(overHttp('/c', schema))).toMatchObject({ kind: 'invalid_response', code: 'answer_too_large' });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('a network failure is kind "network" with status 0', async () => {
    const { http } = clientWith(() => {
      throw new TypeError('fetch failed');
    });
    const error = await caught(http('/x', nothing));
    expect(error.kind).toBe('network');
    expect(error.status).toBe(0);
  });

  test('anySignal fires with the first reason; without AbortSignal.any the deadline stands for both', () => {
    const a = new AbortController();
    const b = new AbortController();
    const combined = anySignal(a.signal, b.signal);
    b.abort('second');
    a.abort('first');
    expect(combined.aborted).toBe(true);
    expect(combined.reason).toBe('second');
    const deadline = new AbortController().signal;
    expect(anySignal(undefined, deadline)).toBe(deadline);
    vi.stubGlobal('AbortSignal', { ...AbortSignal, any: undefined });
    expect(anySignal(a.signal, deadline)).toBe(deadline);
    vi.unstubAllGlobals();
  });
});
