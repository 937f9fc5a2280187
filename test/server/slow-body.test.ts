// A visitor who uploads one byte at a time must not hold a connection (and the proxy's attention)
// for minutes: the handler answers 408 after bodyTimeoutMs, and the Node adapter closes any
// connection whose upload is still incomplete after its own deadline.
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { PROXY_DEFAULTS } from '../../src/server';
import { toNodeListener } from '../../src/server/node';
import { AGENT, chatRequest, deferred, ORIGIN, read, setup } from './helpers';
import { listen } from './loopback';

afterEach(() => {
  vi.useRealTimers();
});

interface SlowClient {
  /** Everything the server sent back. */
  received: () => string;
  /** Bytes of the body sent so far. */
  sent: () => number;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
}

/**
 * A real TCP client that sends the request head at once, then the body one byte every `everyMs`
 * until the server closes the connection (the body is never complete within the test).
 */
function slowClient(origin: string, everyMs: number, head: Record<string, string> = {}): SlowClient {
  const { hostname, port } = new URL(origin);
  const socket: Socket = connect(Number(port), hostname);
  const body = JSON.stringify({ agentId: AGENT, message: 'x'.repeat(2000) });
  let sent = 0;
  let received = '';
  const headers = {
    Host: `${hostname}:${port}`,
    Origin: ORIGIN,
    'Content-Type': 'application/json',
    'Content-Length': String(body.length),
    ...head,
  };
  socket.write(
    `POST /api/agent-chat HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`,
  );
  const drip = setInterval(() => {
    if (sent < body.length && !socket.destroyed) socket.write(body.charAt(sent++));
  }, everyMs);
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  const closed = new Promise<void>((resolve) => {
    socket.on('close', () => {
      clearInterval(drip);
      resolve();
    });
    socket.on('error', () => undefined);
  });
  return { received: () => received, sent: () => sent, closed };
}

describe('a slow request body', () => {
  test('through the Node adapter: 408 request_timeout after bodyTimeoutMs, then the connection is closed', async () => {
    const { handler, upstream, logs } = setup({ bodyTimeoutMs: 300 });
    const origin = await listen(createServer(toNodeListener(handler)));
    const started = Date.now();
    const client = slowClient(origin, 20);
    await client.closed;
    const elapsed = Date.now() - started;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(client.received()).toContain('"code":"request_timeout"');
    expect(elapsed).toBeLessThan(5000);
    expect(client.sent()).toBeLessThan(2000);
    expect(upstream.calls).toHaveLength(0);
    expect(logs[0]).toMatchObject({ status: 408, code: 'request_timeout', reason: 'client_slow' });
  });

  test('the Node adapter closes a connection whose unread upload is still trickling after its deadline', async () => {
    // The handler answers at once without reading the body (as the proxy does for a refused origin);
    // Node would otherwise drain the declared body at the sender's pace.
    const origin = await listen(createServer(toNodeListener(async () => new Response('{}', { status: 403 }), { bodyTimeoutMs: 300 })));
    const client = slowClient(origin, 20);
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 403 /);
    expect(client.sent()).toBeLessThan(2000);
  });

  test('the handler alone (any runtime): a body that stalls is 408 after the default 10 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { handler, logs } = setup();
    // The deadline starts when the proxy starts reading; it is waiting once it asks for more.
    const waiting = deferred();
    const stalled = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"agentId":'));
        },
        pull() {
          waiting.resolve();
        },
      },
      { highWaterMark: 0 },
    );
    const pending = handler(chatRequest({ rawBody: stalled }));
    await waiting.promise;
    await vi.advanceTimersByTimeAsync(PROXY_DEFAULTS.bodyTimeoutMs - 1);
    expect(logs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    const res = await read(await pending);
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ success: false, code: 'request_timeout' });
    expect(PROXY_DEFAULTS.bodyTimeoutMs).toBe(10_000);
  });

  test('a body that arrives in time, however chunked, is read whole', async () => {
    const { handler } = setup({ bodyTimeoutMs: 5000 });
    const parts = ['{"agentId":"agent_123",', '"message":', '"Hi"}'];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const part = parts.shift();
        if (part === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(part));
      },
    });
    expect((await read(await handler(chatRequest({ rawBody: body })))).status).toBe(200);
  });
});
