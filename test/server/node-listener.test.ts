// toNodeListener on a real node:http server, exercised over loopback with fetch.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import type { ChatProxyHandler, ProxyContext } from '../../src/server';
import { createChatProxy } from '../../src/server';
import { toNodeListener } from '../../src/server/node';
import { AGENT, API_KEY, deferred, ORIGIN, read, setup, type UpstreamCall } from './helpers';
import { loopback } from './loopback';

let server: Server | undefined;

afterEach(async () => {
  const s = server;
  server = undefined;
  // fetch keeps idle sockets open (and reopens one after an abort); close() alone would wait for them.
  s?.closeAllConnections();
  if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
});

async function listen(handler: ChatProxyHandler): Promise<string> {
  const s = createServer(toNodeListener(handler));
  server = s;
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const address = s.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  return `http://127.0.0.1:${address.port}`;
}

const chatInit = (body: unknown, extra: RequestInit = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
  body: JSON.stringify(body),
  ...extra,
});

describe('toNodeListener', () => {
  test('the proxy answers over node:http with its status, headers and JSON body', async () => {
    const { handler, upstream } = setup();
    const base = await listen(handler);
    const res = await read(await fetch(`${base}/api/agent-chat`, chatInit({ agentId: AGENT, message: 'Hi' })));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, reply: 'Hello from the agent' });
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(ORIGIN);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(JSON.parse(upstream.calls[0]?.body ?? '')).toEqual({ agentId: AGENT, message: 'Hi' });
  });

  test('the request arrives with method, path, query, headers, a streamed body and the socket address as ctx.ip; headers go back as sent', async () => {
    let seen: { method: string; url: string; header: string | null; body: string; ctx: ProxyContext | undefined } | undefined;
    const base = await listen(async (request, ctx) => {
      seen = {
        method: request.method,
        url: new URL(request.url).pathname + new URL(request.url).search,
        header: request.headers.get('X-Custom'),
        body: await request.text(),
        ctx,
      };
      const headers = new Headers({ 'X-Answer': 'yes' });
      headers.append('Set-Cookie', 'a=1; Path=/');
      headers.append('Set-Cookie', 'b=2; Path=/');
      return new Response(null, { status: 204, headers });
    });
    const res = await fetch(`${base}/a/b?c=1`, { method: 'PUT', headers: { 'X-Custom': 'value' }, body: 'x'.repeat(100_000) });
    expect(res.status).toBe(204);
    expect(res.headers.get('X-Answer')).toBe('yes');
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(seen).toEqual({ method: 'PUT', url: '/a/b?c=1', header: 'value', body: 'x'.repeat(100_000), ctx: { ip: '127.0.0.1' } });
  });

  test('an oversized upload is refused with 413 while it is still streaming, and the connection is then closed', async () => {
    const { handler, upstream } = setup({ maxBodyBytes: 1024 });
    const base = await listen(handler);
    // 2 KB, then the sender stalls: the answer must not wait for an upload that never ends.
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return new Promise<void>(() => undefined);
        sent = true;
        controller.enqueue(new Uint8Array(2048).fill(32));
        return undefined;
      },
    });
    const init: RequestInit & { duplex: 'half' } = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
      body,
      duplex: 'half',
    };
    const res = await fetch(`${base}/api/agent-chat`, init);
    expect(res.status).toBe(413);
    expect(res.headers.get('Connection')).toBe('close');
    expect((await read(res)).body.code).toBe('body_too_large');
    expect(upstream.calls).toHaveLength(0);
  });

  test('a client that disconnects aborts the upstream fetch', async () => {
    const called = deferred<UpstreamCall>();
    const aborted = deferred();
    const { handler, logs } = setup({}, (call) => {
      called.resolve(call);
      call.signal?.addEventListener('abort', () => aborted.resolve());
      return new Promise<Response>(() => undefined);
    });
    const base = await listen(handler);
    const client = new AbortController();
    const pending = fetch(`${base}/api/agent-chat`, chatInit({ agentId: AGENT, message: 'Hi' }, { signal: client.signal }));
    pending.catch(() => undefined);
    const call = await called.promise;
    expect(call.signal?.aborted).toBe(false);
    client.abort();
    await aborted.promise;
    expect(call.signal?.aborted).toBe(true);
    await expect(pending).rejects.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(logs[0]).toMatchObject({ reason: 'client_closed' });
  });

  test('a client that disconnects closes the proxy request to a real, slow upstream service', async () => {
    const arrived = deferred();
    const closedEarly = deferred<boolean>();
    // A service that takes the request and never answers; it records whether its caller hung up first.
    const service = await loopback((_, res) => {
      res.on('close', () => closedEarly.resolve(!res.writableFinished));
      arrived.resolve();
    });
    const handler = createChatProxy({ apiKey: API_KEY, baseUrl: service.origin, agentId: AGENT, allowedOrigins: [ORIGIN] });
    const base = await listen(handler);
    const client = new AbortController();
    const pending = fetch(`${base}/api/agent-chat`, chatInit({ agentId: AGENT, message: 'Hi' }, { signal: client.signal }));
    pending.catch(() => undefined);
    await arrived.promise;
    expect(service.seen.map((r) => r.path)).toEqual(['/chat']);
    client.abort();
    expect(await closedEarly.promise).toBe(true);
    await expect(pending).rejects.toThrow();
  });

  test('a handler that throws becomes a generic 500 JSON answer', async () => {
    const base = await listen(() => Promise.reject(new Error('boom with details')));
    const res = await read(await fetch(`${base}/x`, { method: 'POST', body: '{}' }));
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ success: false, code: 'internal_error' });
    expect(res.text).not.toContain('boom');
  });
});
