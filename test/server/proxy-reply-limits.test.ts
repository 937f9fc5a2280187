// A hostile or broken upstream cannot make the proxy buffer or forward without bound: the body it
// reads is capped while streaming, the reply text is shortened at a boundary, sources are bounded.
import { describe, expect, test } from 'vitest';
import { PROXY_DEFAULTS, REPLY_TRUNCATED_MARKER } from '../../src/server';
import { chatRequest, json, read, setup } from './helpers';

const MB = 1_048_576;

/** An upstream body that never ends, counting the bytes anyone pulled from it. */
function endlessBody() {
  const pulled = { bytes: 0, cancelled: false };
  const chunk = new TextEncoder().encode(`{"success":true,"reply":"${'a'.repeat(16_384)}`);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      pulled.cancelled = true;
    },
  });
  return { stream, pulled };
}

describe('reply text', () => {
  test('a 1 MB reply is shortened to maxReplyLength at a word boundary, with the marker, and logged', async () => {
    const words = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(MB / 27)).slice(0, MB);
    const { handler, logs } = setup({ maxUpstreamBytes: 2 * MB }, () => json({ success: true, reply: words }));
    const res = await read(await handler(chatRequest()));
    expect(res.status).toBe(200);
    const reply = String(res.body.reply);
    expect(reply.endsWith(REPLY_TRUNCATED_MARKER)).toBe(true);
    const kept = reply.slice(0, -REPLY_TRUNCATED_MARKER.length);
    expect(kept.length).toBeLessThanOrEqual(PROXY_DEFAULTS.maxReplyLength);
    expect(kept.length).toBeGreaterThan(PROXY_DEFAULTS.maxReplyLength * 0.9);
    expect(words.startsWith(kept)).toBe(true);
    expect(kept).toMatch(/(lorem|ipsum|dolor|sit|amet)$/);
    expect(logs[0]).toMatchObject({ status: 200, replyTruncated: true });
  });

  test('a reply without spaces is cut at the limit, never inside a surrogate pair', async () => {
    const { handler } = setup({ maxReplyLength: 11 }, () => json({ success: true, reply: '😀'.repeat(20) }));
    const reply = String((await read(await handler(chatRequest()))).body.reply);
    expect(reply).toBe('😀'.repeat(5) + REPLY_TRUNCATED_MARKER);
  });

  test('a reply at the limit is forwarded whole and not marked', async () => {
    const text = 'x'.repeat(PROXY_DEFAULTS.maxReplyLength);
    const { handler, logs } = setup({}, () => json({ success: true, reply: text }));
    expect((await read(await handler(chatRequest()))).body.reply).toBe(text);
    expect(logs[0]?.replyTruncated).toBeUndefined();
  });
});

describe('upstream body size', () => {
  test('an endless upstream body is read only up to maxUpstreamBytes, cancelled, and answered 502', async () => {
    const { stream, pulled } = endlessBody();
    const { handler, logs } = setup({}, () => new Response(stream, { headers: { 'Content-Type': 'application/json' } }));
    const res = await read(await handler(chatRequest()));
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('upstream_error');
    expect(logs[0]).toMatchObject({ reason: 'upstream_too_large', upstreamStatus: 200 });
    // The stream's own buffering may pull a few chunks ahead; never more than that.
    expect(pulled.bytes).toBeLessThan(PROXY_DEFAULTS.maxUpstreamBytes + 5 * 16_500);
    expect(pulled.cancelled).toBe(true);
  });

  test('the default cap is 256 KiB: a 300 KB JSON answer is refused even though it would parse', async () => {
    const { handler, logs } = setup({}, () => json({ success: true, reply: 'a'.repeat(300_000) }));
    expect((await read(await handler(chatRequest()))).status).toBe(502);
    expect(logs[0]?.reason).toBe('upstream_too_large');
  });

  test('the cap applies to forwarded booking answers too', async () => {
    const { handler, logs } = setup({ forwardBooking: true }, () => json({ success: true, slots: 'x'.repeat(300_000) }));
    const res = await read(
      await handler(chatRequest({ method: 'GET', origin: null, url: 'https://shop.example/api/booking/public/config?agentId=agent_123' })),
    );
    expect(res.status).toBe(502);
    expect(logs[0]?.reason).toBe('upstream_too_large');
  });
});

describe('sources', () => {
  test('at most 10 sources, titles shortened to 200 characters, urls over 2048 characters dropped', async () => {
    const sources = Array.from({ length: 100 }, (_, i) => ({
      title: `Title ${i} ${'t'.repeat(2000)}`,
      url: i === 0 ? `https://shop.example/${'u'.repeat(3000)}` : `https://shop.example/${i}`,
    }));
    const { handler } = setup({}, () => json({ success: true, reply: 'See these.', sources }));
    const res = await read(await handler(chatRequest()));
    const forwarded = res.body.sources;
    expect(Array.isArray(forwarded)).toBe(true);
    if (!Array.isArray(forwarded)) return;
    expect(forwarded).toHaveLength(10);
    expect(forwarded[0]).toEqual({ title: `Title 0 ${'t'.repeat(191)}…` });
    expect(forwarded[1]).toEqual({ title: `Title 1 ${'t'.repeat(191)}…`, url: 'https://shop.example/1' });
  });
});
