// What the proxy accepts from a browser: body size (counted, not trusted), JSON, fields.
import { describe, expect, test } from 'vitest';
import { bodyBytesFor, PROXY_DEFAULTS } from '../../src/server';
import { AGENT, chatRequest, expectCleanLogs, read, setup, streamOf } from './helpers';

describe('body size', () => {
  test('a small Content-Length header does not let a large streamed body through (413, stream cancelled)', async () => {
    const { handler, upstream, logs } = setup({ maxBodyBytes: 1024 });
    let pulled = 0;
    const source = streamOf(1000, 256);
    const reader = source.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else {
          pulled += 1;
          controller.enqueue(value);
        }
      },
    });
    const res = await read(await handler(chatRequest({ rawBody: body, headers: { 'Content-Length': '20' } })));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, code: 'body_too_large' });
    expect(upstream.calls).toHaveLength(0);
    // It stopped reading soon after the limit instead of draining all 256 KB.
    expect(pulled).toBeLessThan(20);
    expect(logs[0]?.requestBytes).toBeGreaterThan(1024);
  });

  test('a streamed body without Content-Length is counted too', async () => {
    const { handler, upstream } = setup({ maxBodyBytes: 1024 });
    const res = await read(await handler(chatRequest({ rawBody: streamOf(8, 256) })));
    expect(res.status).toBe(413);
    expect(upstream.calls).toHaveLength(0);
  });

  test('a declared Content-Length over the limit is refused without reading', async () => {
    const { handler } = setup({ maxBodyBytes: 1024 });
    const res = await read(await handler(chatRequest({ rawBody: streamOf(1, 10), headers: { 'Content-Length': '5000' } })));
    expect(res.status).toBe(413);
  });

  test('an upload that breaks off (the client went away) is not forwarded', async () => {
    const { handler, upstream, logs } = setup();
    let sent = false;
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) controller.error(new Error('connection reset'));
        else {
          sent = true;
          controller.enqueue(new TextEncoder().encode('{"agentId":'));
        }
      },
    });
    const res = await read(await handler(chatRequest({ rawBody: broken })));
    expect(res.status).toBe(499);
    expect(res.body.code).toBe('client_closed');
    expect(upstream.calls).toHaveLength(0);
    expect(logs[0]?.reason).toBe('client_closed');
  });

  test('a body exactly at the limit is accepted', async () => {
    const message = 'x'.repeat(200);
    const exact = JSON.stringify({ agentId: AGENT, message });
    const { handler } = setup({ maxBodyBytes: new TextEncoder().encode(exact).byteLength });
    expect((await read(await handler(chatRequest({ rawBody: exact })))).status).toBe(200);
  });

  test('the default limit fits the longest message at its worst-case JSON size, and no more', async () => {
    const { handler } = setup();
    expect(PROXY_DEFAULTS.maxBodyBytes).toBe(bodyBytesFor(PROXY_DEFAULTS.maxMessageLength));
    const big = JSON.stringify({ agentId: AGENT, message: 'x'.repeat(PROXY_DEFAULTS.maxBodyBytes) });
    expect((await read(await handler(chatRequest({ rawBody: big })))).status).toBe(413);
  });

  test('3000 CJK characters (9 KB of UTF-8, under maxMessageLength) are accepted', async () => {
    const { handler, upstream } = setup();
    const message = '漢字かな交じり文'.repeat(375);
    expect(message).toHaveLength(3000);
    const res = await read(await handler(chatRequest({ body: { agentId: AGENT, message } })));
    expect(res.status).toBe(200);
    expect(JSON.parse(upstream.calls[0]?.body ?? '')).toMatchObject({ message });
  });

  test.each([
    ['4000 emoji halves of 2000 emoji (4 bytes each)', '😀'.repeat(2000)],
    ['4000 quotes (escaped to 2 bytes each)', '"'.repeat(4000)],
    ['control characters, escaped to 6 bytes each', `a${'\u0001'.repeat(3999)}`],
    ['lone surrogates, escaped to 6 bytes each', `a${'\ud800'.repeat(3999)}`],
  ])('a message at maxMessageLength is accepted at any encoding: %s', async (_, message) => {
    const { handler } = setup();
    const res = await read(await handler(chatRequest({ body: { agentId: AGENT, message, conversationId: 'c'.repeat(128) } })));
    expect(res.status).toBe(200);
  });

  test('a maxMessageLength given with a maxBodyBytes too small for it fails at startup, naming both', () => {
    expect(() => setup({ maxMessageLength: 1000, maxBodyBytes: 2000 })).toThrow(
      /maxBodyBytes.*maxMessageLength|maxMessageLength.*maxBodyBytes/,
    );
  });

  test('the body limit follows maxMessageLength when only that is set', async () => {
    const { handler } = setup({ maxMessageLength: 100 });
    const message = '\u0001'.repeat(99) + 'a';
    expect((await read(await handler(chatRequest({ body: { agentId: AGENT, message } })))).status).toBe(200);
    const padded = JSON.stringify({ agentId: AGENT, message: 'a', pad: ' '.repeat(bodyBytesFor(100)) });
    expect((await read(await handler(chatRequest({ rawBody: padded })))).status).toBe(413);
  });
});

describe('request body', () => {
  test('a chat body that names agentId twice is 400 invalid_json, whichever comes last', async () => {
    const { handler, upstream } = setup();
    for (const rawBody of [
      `{"agentId":"other","agentId":"${AGENT}","message":"Hi"}`,
      `{"agentId":"${AGENT}","message":"Hi","agentId":"other"}`,
    ]) {
      const res = await read(await handler(chatRequest({ rawBody })));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_json', error: 'Each name may appear only once in a JSON object.' });
    }
    expect(upstream.calls).toHaveLength(0);
  });

  test.each([
    ['not JSON', '{"agentId": "agent_123", "message": '],
    ['empty', ''],
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])],
  ])('a body that is %s is 400 invalid_json', async (_, rawBody) => {
    const { handler, upstream } = setup();
    const res = await read(await handler(chatRequest({ rawBody })));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'invalid_json' });
    expect(typeof res.body.error).toBe('string');
    expect(upstream.calls).toHaveLength(0);
  });

  test.each([
    ['an array', [AGENT, 'Hi'], /JSON object/],
    ['a string', 'Hi', /JSON object/],
    ['a numeric agentId', { agentId: 7, message: 'Hi' }, /agentId/],
    ['a missing agentId', { message: 'Hi' }, /agentId/],
    ['a numeric message', { agentId: AGENT, message: 42 }, /message/],
    ['a missing message', { agentId: AGENT }, /message/],
    ['an object conversationId', { agentId: AGENT, message: 'Hi', conversationId: { id: 1 } }, /conversationId/],
    ['an unsafe conversationId', { agentId: AGENT, message: 'Hi', conversationId: '../../admin' }, /conversationId/],
    ['an over-long conversationId', { agentId: AGENT, message: 'Hi', conversationId: 'c'.repeat(129) }, /conversationId/],
  ])('%s is 400 invalid_request with an error naming the problem', async (_, body, error) => {
    const { handler, upstream } = setup();
    const res = await read(await handler(chatRequest({ body })));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.error).toMatch(error);
    expect(upstream.calls).toHaveLength(0);
  });

  test.each([
    ['empty', ''],
    ['spaces', '   '],
    ['newline and tab', '\n\t '],
    ['zero-width spaces', '\u200b\u200b\u200b'],
    ['a zero-width joiner and non-joiner', '\u200d\u200c'],
    ['byte order marks', '\ufeff\ufeff'],
    ['word joiner and invisible operators', '\u2060\u2062\u2063'],
    ['soft hyphens', '\u00ad\u00ad'],
    ['bidi marks and isolates', '\u200e\u200f\u2066\u2069\u202e'],
    ['no-break and ideographic spaces', '\u00a0\u3000\u2007'],
    ['Hangul fillers', '\u3164\u115f\uffa0'],
    ['a Braille blank', '\u2800'],
    ['variation selectors', '\ufe0f\ufe0e'],
    ['tag characters', '\u{e0041}\u{e0042}'],
    ['a mix of all of them', ' \u200b\ufeff\u00ad\u3164\u2800\n'],
  ])('a message of only %s is 400 message_empty', async (_, message) => {
    const { handler, upstream } = setup();
    const res = await read(await handler(chatRequest({ body: { agentId: AGENT, message } })));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('message_empty');
    expect(upstream.calls).toHaveLength(0);
  });

  test('a message with one visible character among invisible ones goes through unchanged', async () => {
    const { handler, upstream } = setup();
    const message = '\u200b\u200d?\ufeff';
    expect((await read(await handler(chatRequest({ body: { agentId: AGENT, message } })))).status).toBe(200);
    expect(JSON.parse(upstream.calls[0]?.body ?? '')).toMatchObject({ message });
  });

  test('a message over maxMessageLength is 400 message_too_long, and one at the limit goes through', async () => {
    const { handler, upstream, logs } = setup({ maxMessageLength: 50 });
    const tooLong = 'y'.repeat(51);
    const res = await read(await handler(chatRequest({ body: { agentId: AGENT, message: tooLong } })));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('message_too_long');
    expect(res.body.error).toMatch(/50/);
    expect((await read(await handler(chatRequest({ body: { agentId: AGENT, message: 'y'.repeat(50) } })))).status).toBe(200);
    expect(upstream.calls).toHaveLength(1);
    expectCleanLogs(logs, [tooLong]);
  });

  test('the default message limit is 4000 characters', async () => {
    const { handler } = setup({ maxBodyBytes: 100_000 });
    const over = await read(await handler(chatRequest({ body: { agentId: AGENT, message: 'z'.repeat(4001) } })));
    expect(over.body.code).toBe('message_too_long');
    const at = await read(await handler(chatRequest({ body: { agentId: AGENT, message: 'z'.repeat(4000) } })));
    expect(at.status).toBe(200);
  });

  test('a null conversationId means a new conversation and is not forwarded', async () => {
    const { handler, upstream } = setup();
    const res = await read(await handler(chatRequest({ body: { agentId: AGENT, message: 'Hi', conversationId: null } })));
    expect(res.status).toBe(200);
    expect(JSON.parse(upstream.calls[0]?.body ?? '')).toEqual({ agentId: AGENT, message: 'Hi' });
  });

  test('log entries carry sizes and a hashed IP but never the message, the raw IP or the key', async () => {
    const { handler, logs } = setup();
    const secret = 'My card number is 4111 1111 1111 1111';
    await read(await handler(chatRequest({ body: { agentId: AGENT, message: secret } }), { ip: '203.0.113.9' }));
    const entry = logs[0];
    expect(entry).toMatchObject({ event: 'chat', status: 200, agentId: AGENT });
    expect(entry?.requestBytes).toBeGreaterThan(secret.length);
    expect(entry?.responseBytes).toBeGreaterThan(0);
    expect(entry?.ipHash).toMatch(/^[0-9a-f]{16}$/);
    expectCleanLogs(logs, [secret, '4111', '203.0.113.9', 'Hello from the agent']);
  });
});
