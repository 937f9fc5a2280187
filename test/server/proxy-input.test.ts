// What the proxy accepts from a browser: body size (counted, not trusted), JSON, fields.
import { describe, expect, test } from 'vitest';
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

  test('the default limit is 8 KiB', async () => {
    const { handler } = setup();
    const big = JSON.stringify({ agentId: AGENT, message: 'x'.repeat(9000) });
    expect((await read(await handler(chatRequest({ rawBody: big })))).status).toBe(413);
  });
});

describe('request body', () => {
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

  test.each(['', '   ', '\n\t '])('a blank message (%j) is 400 message_empty', async (message) => {
    const { handler, upstream } = setup();
    const res = await read(await handler(chatRequest({ body: { agentId: AGENT, message } })));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('message_empty');
    expect(upstream.calls).toHaveLength(0);
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
