// How every kind of upstream answer reaches the browser: the allow-listed reply on success, calm
// generic errors otherwise, and never the upstream's own text, headers or account data.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { AGENT, chatRequest, deferred, expectCleanLogs, json, read, setup, type UpstreamCall } from './helpers';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const LEAKY_TEXT = 'Invalid API key sk_live_TEST_7f3a9c1e5b2d4f6a8c0e1b3d5f7a9c1e for account acct_42 (owner@shop.example)';
const LEAKY_HEADERS = { 'X-Account-Id': 'acct_42', 'Set-Cookie': 'session=upstream', Server: 'upstream/1.0' };

afterEach(() => {
  vi.useRealTimers();
});

function expectNoUpstreamLeak(res: { text: string; headers: Headers }): void {
  expect(res.text).not.toContain('acct_42');
  expect(res.text).not.toContain('owner@shop.example');
  expect(res.text).not.toContain('Invalid API key');
  for (const name of Object.keys(LEAKY_HEADERS)) expect(res.headers.get(name)).toBeNull();
}

describe('successful replies', () => {
  test('credits are stripped from the browser response and delivered to onCredits', async () => {
    const onCredits = vi.fn();
    const { handler } = setup({ onCredits }, () =>
      json(
        { success: true, reply: 'We open at 9.', conversationId: 'conv_9', credits: { used: 2, remaining: 98 }, plan: 'pro' },
        200,
        LEAKY_HEADERS,
      ),
    );
    const res = await read(await handler(chatRequest()));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, reply: 'We open at 9.', conversationId: 'conv_9' });
    expect(res.text).not.toContain('credits');
    expect(res.text).not.toContain('98');
    expectNoUpstreamLeak(res);
    expect(onCredits).toHaveBeenCalledWith({ used: 2, remaining: 98 }, { agentId: AGENT, conversationId: 'conv_9' });
  });

  test.each([
    ['response', { response: 'A' }],
    ['message', { message: 'A' }],
    ['answer', { answer: 'A' }],
    ['text', { text: 'A' }],
    ['content', { content: 'A' }],
    ['output', { output: 'A' }],
  ])('the reply text is read from `%s`', async (_, fields) => {
    const { handler } = setup({}, () => json({ success: true, ...fields }));
    expect((await read(await handler(chatRequest()))).body).toEqual({ success: true, reply: 'A' });
  });

  test('the first non-blank string wins, in the documented order, and conversation_id is accepted', async () => {
    const { handler } = setup({}, () =>
      json({ success: true, reply: '  ', response: { nested: true }, message: 'first', answer: 'second', conversation_id: 'c_7' }),
    );
    expect((await read(await handler(chatRequest()))).body).toEqual({ success: true, reply: 'first', conversationId: 'c_7' });
  });

  test('sources are reduced to string titles and http(s) urls; anything else is dropped', async () => {
    const { handler } = setup({}, () =>
      json({
        success: true,
        reply: 'See the docs.',
        sources: [
          { title: 'Pricing', url: 'https://shop.example/pricing', score: 0.9, internalId: 'doc_1' },
          { title: 'Evil', url: 'javascript:alert(1)' },
          { url: 'data:text/html,<script>alert(1)</script>' },
          { title: 42, url: 'http://shop.example/faq' },
          'not an object',
        ],
      }),
    );
    const res = await read(await handler(chatRequest()));
    expect(res.body.sources).toEqual([
      { title: 'Pricing', url: 'https://shop.example/pricing' },
      { title: 'Evil' },
      { url: 'http://shop.example/faq' },
    ]);
    expect(res.text).not.toContain('javascript:');
    expect(res.text).not.toContain('doc_1');
  });

  test('an unsafe conversation id from upstream is not handed to the browser', async () => {
    const { handler } = setup({}, () => json({ success: true, reply: 'Hi', conversationId: '<img src=x onerror=alert(1)>' }));
    expect((await read(await handler(chatRequest()))).body).toEqual({ success: true, reply: 'Hi' });
  });

  test('onCredits gets the request conversation id when the reply has none, and its errors do not break the answer', async () => {
    const onCredits = vi.fn(() => {
      throw new Error('billing db down');
    });
    const { handler } = setup({ onCredits });
    const res = await read(await handler(chatRequest({ body: { agentId: AGENT, message: 'Hi', conversationId: 'conv_3' } })));
    expect(res.status).toBe(200);
    expect(onCredits).toHaveBeenCalledWith({ used: 1, remaining: 41 }, { agentId: AGENT, conversationId: 'conv_3' });
  });

  test('a rejecting onCredits or log hook neither breaks the answer nor leaves an unhandled rejection', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const { handler } = setup({
        onCredits: () => Promise.reject(new Error('async hook failed')),
        log: () => Promise.reject(new Error('async log failed')),
      });
      expect((await read(await handler(chatRequest()))).status).toBe(200);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  test('a throwing log hook does not break the answer', async () => {
    const { handler } = setup({
      log: () => {
        throw new Error('log sink down');
      },
    });
    expect((await read(await handler(chatRequest()))).status).toBe(200);
  });
});

describe('upstream failures', () => {
  test.each([
    ['200 without any reply string', () => json({ success: true, credits: { used: 1, remaining: 5 } }), 'upstream_no_reply'],
    ['200 with a non-JSON body', () => new Response('<html>Bad gateway</html>', { status: 200 }), 'upstream_invalid_response'],
    ['200 with an empty body', () => new Response('', { status: 200 }), 'upstream_invalid_response'],
    ['200 with success false', () => json({ success: false, error: LEAKY_TEXT }), 'upstream_invalid_response'],
    ['401', () => json({ success: false, error: LEAKY_TEXT }, 401, LEAKY_HEADERS), 'upstream_auth'],
    ['403', () => json({ success: false, error: LEAKY_TEXT }, 403, LEAKY_HEADERS), 'upstream_auth'],
    ['404', () => json({ success: false, error: LEAKY_TEXT }, 404), 'upstream_not_found'],
    ['500', () => json({ success: false, error: LEAKY_TEXT }, 500, LEAKY_HEADERS), 'upstream_server_error'],
    ['503 with an HTML page', () => new Response(`<h1>${LEAKY_TEXT}</h1>`, { status: 503 }), 'upstream_server_error'],
    ['418', () => json({ success: false, error: LEAKY_TEXT }, 418), 'upstream_status'],
  ])('%s becomes a generic 502 upstream_error; the log names the reason', async (_, reply, reason) => {
    const { handler, logs } = setup({}, reply);
    const res = await read(await handler(chatRequest()));
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ success: false, code: 'upstream_error', error: expect.any(String) });
    expect(String(res.body.error)).not.toMatch(/key|auth/i);
    expectNoUpstreamLeak(res);
    expect(logs[0]).toMatchObject({ status: 502, code: 'upstream_error', reason });
    expectCleanLogs(logs, ['acct_42']);
  });

  test('a network error becomes 502 upstream_error', async () => {
    const { handler, logs } = setup({}, () => Promise.reject(new TypeError(`fetch failed: ${LEAKY_TEXT}`)));
    const res = await read(await handler(chatRequest()));
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('upstream_error');
    expectNoUpstreamLeak(res);
    expect(logs[0]?.reason).toBe('upstream_network');
  });

  test('402 becomes 402 insufficient_credits with calm text', async () => {
    const { handler } = setup({}, () => json({ success: false, error: `${LEAKY_TEXT}: balance 0` }, 402, LEAKY_HEADERS));
    const res = await read(await handler(chatRequest()));
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ success: false, code: 'insufficient_credits', error: expect.stringMatching(/unavailable/i) });
    // The code names the situation for the widget; the visible sentence stays calm and says nothing about the account.
    expect(String(res.body.error)).not.toMatch(/credit|balance/i);
    expect(res.text).not.toContain('balance');
    expectNoUpstreamLeak(res);
  });

  test('429 becomes 429 with Retry-After computed from X-RateLimit-Reset, and no upstream headers', async () => {
    const { handler } = setup({ now: () => NOW }, () =>
      json({ success: false, error: LEAKY_TEXT }, 429, {
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(NOW / 1000 + 17),
        ...LEAKY_HEADERS,
      }),
    );
    const res = await read(await handler(chatRequest()));
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ success: false, code: 'rate_limited', retryAfter: 17 });
    expect(res.headers.get('Retry-After')).toBe('17');
    expect(res.headers.get('X-RateLimit-Limit')).toBeNull();
    expectNoUpstreamLeak(res);
  });

  test('400 becomes 400 with a generic sentence instead of the upstream text', async () => {
    const { handler } = setup({}, () => json({ success: false, error: LEAKY_TEXT }, 400));
    const res = await read(await handler(chatRequest()));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'invalid_request', error: 'The agent could not accept this message.' });
  });
});

describe('deadline and disconnect', () => {
  /** An upstream that answers only when aborted, announcing each call. */
  function hangingUpstream() {
    const called = deferred<UpstreamCall>();
    const reply = (call: UpstreamCall) => {
      called.resolve(call);
      return new Promise<Response>((_, reject) => {
        call.signal?.addEventListener('abort', () => reject(call.signal?.reason));
      });
    };
    return { called: called.promise, reply };
  }

  test('an upstream slower than timeoutMs is aborted and answered 504 upstream_timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const slow = hangingUpstream();
    const { handler, logs } = setup({ timeoutMs: 5000 }, slow.reply);
    const pending = handler(chatRequest());
    const call = await slow.called;
    await vi.advanceTimersByTimeAsync(4999);
    expect(call.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const res = await read(await pending);
    expect(call.signal?.aborted).toBe(true);
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({ success: false, code: 'upstream_timeout' });
    expect(logs[0]).toMatchObject({ status: 504, reason: 'upstream_timeout' });
  });

  test('an upstream that sends headers but stalls its body also hits the deadline', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const called = deferred();
    const { handler } = setup({ timeoutMs: 5000 }, () => {
      called.resolve();
      return new Response(new ReadableStream({ pull: () => new Promise(() => undefined) }), { status: 200 });
    });
    const pending = handler(chatRequest());
    await called.promise;
    await vi.advanceTimersByTimeAsync(5000);
    expect((await read(await pending)).status).toBe(504);
  });

  test('the default deadline is 30 seconds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const slow = hangingUpstream();
    const { handler } = setup({}, slow.reply);
    const pending = handler(chatRequest());
    const call = await slow.called;
    await vi.advanceTimersByTimeAsync(29_999);
    expect(call.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await read(await pending)).status).toBe(504);
  });

  test('a client that disconnects aborts the upstream fetch', async () => {
    const slow = hangingUpstream();
    const { handler, logs } = setup({}, slow.reply);
    const client = new AbortController();
    const request = new Request(chatRequest(), { signal: client.signal });
    const pending = handler(request);
    const call = await slow.called;
    expect(call.signal?.aborted).toBe(false);
    client.abort();
    const res = await pending;
    expect(call.signal?.aborted).toBe(true);
    expect(res.status).toBe(499);
    expect(logs[0]).toMatchObject({ code: 'client_closed', reason: 'client_closed' });
  });
});
