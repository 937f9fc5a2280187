// A message sent again with the same message id (the visitor moved to another page before its reply
// came) is answered from the proxy's reply cache: the service is asked, and paid, once.
import { describe, expect, test } from 'vitest';
import { createMemoryReplyCache } from '../../src/server/reply-cache';
import { AGENT, chatRequest, deferred, json, okReply, read, setup } from './helpers';

const MESSAGE_ID = '0123456789abcdef0123456789abcdef';
const ask = (extra: Record<string, unknown> = {}, signal?: AbortSignal) => {
  const request = chatRequest({ body: { agentId: AGENT, message: 'When do you open?', messageId: MESSAGE_ID, ...extra } });
  return signal === undefined ? request : new Request(request, { signal });
};

describe('the reply cache', () => {
  test('a repeat after the reply gets the same reply, and the service is asked once', async () => {
    const { handler, upstream, logs } = setup({}, () => okReply({ reply: 'From nine.', conversationId: 'conv-1' }));
    const first = await read(await handler(ask()));
    const repeat = await read(await handler(ask()));
    expect(first.body).toEqual({ success: true, reply: 'From nine.', conversationId: 'conv-1' });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(first.body);
    expect(upstream.calls).toHaveLength(1);
    expect(logs.map((entry) => entry.fromReplyCache)).toEqual([undefined, true]);
    // The message id stays between the widget and the proxy.
    expect(JSON.parse(upstream.calls[0]?.body ?? '{}')).toEqual({ agentId: AGENT, message: 'When do you open?' });
  });

  test('a repeat while the first request waits on the service gets the reply when it comes, asked for once', async () => {
    const answer = deferred<Response>();
    const { handler, upstream } = setup({}, () => answer.promise);
    const first = handler(ask());
    const repeat = handler(ask());
    await expect.poll(() => upstream.calls.length).toBe(1);
    answer.resolve(okReply({ reply: 'From nine.' }));
    expect((await read(await first)).body.reply).toBe('From nine.');
    expect((await read(await repeat)).body.reply).toBe('From nine.');
    expect(upstream.calls).toHaveLength(1);
  });

  test('the visitor leaving mid-wait does not stop the call: the next page gets the reply from the cache', async () => {
    const answer = deferred<Response>();
    const { handler, upstream } = setup({}, () => answer.promise);
    const leaving = new AbortController();
    const first = handler(ask({}, leaving.signal));
    await expect.poll(() => upstream.calls.length).toBe(1);
    leaving.abort();
    expect(upstream.calls[0]?.signal?.aborted).toBe(false);
    answer.resolve(okReply({ reply: 'From nine.' }));
    await first;
    const nextPage = await read(await handler(ask()));
    expect(nextPage.body.reply).toBe('From nine.');
    expect(upstream.calls).toHaveLength(1);
  });

  test('a failure is not kept: the repeat asks the service again', async () => {
    let calls = 0;
    const { handler, upstream } = setup({}, () =>
      ++calls === 1 ? json({ success: false, error: 'down' }, 503) : okReply({ reply: 'Back.' }),
    );
    expect((await handler(ask())).status).toBe(502);
    expect((await read(await handler(ask()))).body.reply).toBe('Back.');
    expect(upstream.calls).toHaveLength(2);
  });

  test('the same id with another text, agent conversation or no id at all is not a repeat', async () => {
    let calls = 0;
    const { handler, upstream } = setup({}, () => okReply({ reply: `Reply ${++calls}` }));
    await handler(ask());
    expect((await read(await handler(ask({ message: 'Something else' })))).body.reply).toBe('Reply 2');
    expect((await read(await handler(ask({ conversationId: 'conv-2' })))).body.reply).toBe('Reply 3');
    expect((await read(await handler(ask({ messageId: undefined })))).body.reply).toBe('Reply 4');
    expect(upstream.calls).toHaveLength(4);
  });

  test('a repeat costs nothing of the conversation minute or the day', async () => {
    const { handler, upstream } = setup({ rateLimit: { perConversation: { limit: 1, windowMs: 60_000 }, dailyCap: { limit: 1 } } });
    const body = { conversationId: 'conv-1' };
    expect((await handler(ask(body))).status).toBe(200);
    for (let repeat = 0; repeat < 3; repeat++) expect((await handler(ask(body))).status).toBe(200);
    expect(upstream.calls).toHaveLength(1);
    // A new message is counted: over the day's cap of one.
    expect((await handler(ask({ ...body, messageId: 'fedcba9876543210fedcba9876543210' }))).status).toBe(429);
  });

  test('a refused message gives its claim up: once allowed, its repeat is asked for', async () => {
    let now = Date.UTC(2026, 10, 28, 12);
    const { handler, upstream } = setup({ now: () => now, rateLimit: { perConversation: { limit: 1, windowMs: 60_000 } } });
    await handler(chatRequest({ body: { agentId: AGENT, message: 'First', conversationId: 'conv-1' } }));
    expect((await handler(ask({ conversationId: 'conv-1' }))).status).toBe(429);
    now += 60_000;
    expect((await handler(ask({ conversationId: 'conv-1' }))).status).toBe(200);
    expect(upstream.calls).toHaveLength(2);
  });

  test('a repeat waits no longer than the proxy deadline', async () => {
    // Every reading of the clock is a second later: the repeat's looks at the cache pass the deadline.
    let now = Date.UTC(2026, 10, 28, 12);
    const answer = deferred<Response>();
    const clock = () => {
      now += 1_000;
      return now;
    };
    const { handler } = setup({ now: clock, timeoutMs: 5_000 }, () => answer.promise);
    const first = handler(ask());
    const repeat = handler(ask());
    const waited = await read(await repeat);
    expect(waited.status).toBe(504);
    expect(waited.body.code).toBe('upstream_timeout');
    answer.resolve(okReply());
    await first;
  });

  test('turned off, every repeat is asked for', async () => {
    const { handler, upstream } = setup({ replyCache: false });
    await handler(ask());
    await handler(ask());
    expect(upstream.calls).toHaveLength(2);
  });

  test('a message id that could be guessed is refused', async () => {
    const { handler, upstream } = setup();
    const refused = await read(await handler(ask({ messageId: 'abc' })));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/messageId/);
    expect(upstream.calls).toHaveLength(0);
  });

  test('a kept answer that does not fit the reply shape is asked for again, not served; a failing cache is no cache', async () => {
    const counting = { hit: async (_key: string, windowMs: number, now: number) => ({ count: 1, resetAt: now + windowMs }) };
    const unused = { saveReply: async () => undefined, releaseReply: async () => undefined };
    const garbled = setup({
      store: { ...counting, ...unused, claimReply: async () => ({ state: 'answered', body: '{"reply":42}' }) as const },
    });
    expect((await read(await garbled.handler(ask()))).body.reply).toBe('Hello from the agent');
    expect(garbled.upstream.calls).toHaveLength(1);
    const failing = setup({ store: { ...counting, ...unused, claimReply: () => Promise.reject(new Error('down')) } });
    expect((await read(await failing.handler(ask()))).body.reply).toBe('Hello from the agent');
    expect(failing.upstream.calls).toHaveLength(1);
  });
});

describe('the memory reply cache', () => {
  test('holds at most its characters: the oldest answers go first', async () => {
    const cache = createMemoryReplyCache({ maxChars: 1_000 });
    const now = 0;
    for (const key of ['a', 'b', 'c']) {
      expect(await cache.claimReply(key, 1_000, now)).toEqual({ state: 'claimed' });
      await cache.saveReply(key, 'x'.repeat(300), 60_000, now);
    }
    await cache.claimReply('d', 1_000, now);
    await cache.saveReply('d', 'x'.repeat(300), 60_000, now);
    expect(await cache.claimReply('a', 1_000, now)).toEqual({ state: 'claimed' });
    expect(await cache.claimReply('d', 1_000, now)).toEqual({ state: 'answered', body: 'x'.repeat(300) });
  });

  test('an answer is kept for its time, a claim for its own', async () => {
    const cache = createMemoryReplyCache();
    await cache.claimReply('a', 1_000, 0);
    expect(await cache.claimReply('a', 1_000, 999)).toEqual({ state: 'pending' });
    expect(await cache.claimReply('a', 1_000, 1_000)).toEqual({ state: 'claimed' });
    await cache.saveReply('a', 'kept', 60_000, 1_000);
    await cache.releaseReply('a', 2_000);
    expect(await cache.claimReply('a', 1_000, 60_999)).toEqual({ state: 'answered', body: 'kept' });
    expect(await cache.claimReply('a', 1_000, 61_000)).toEqual({ state: 'claimed' });
  });
});
