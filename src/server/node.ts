// node:http and Express adapter: IncomingMessage -> Request (streamed body, disconnect signal),
// Response -> ServerResponse. The only module of src/server that imports node: built-ins.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { allowedMethods } from './booking-forward';
import { MESSAGES } from './outcome';
import type { ChatProxyHandler } from './proxy';

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface NodeListenerOptions {
  /**
   * A connection whose request body is still incomplete this long after the request arrived is closed,
   * whatever the handler does (an unread body would otherwise be drained at the sender's pace).
   * Default 15 000: after the proxy's own 408 at bodyTimeoutMs (10 000).
   */
  bodyTimeoutMs?: number;
}

export const DEFAULT_NODE_BODY_TIMEOUT_MS = 15_000;

/** Unread request bodies up to this size are drained so the connection can be reused. */
const DRAIN_LIMIT_BYTES = 65_536;

/** For a handler that throws (the proxy never does): the same body the proxy sends for its own failures. */
const FALLBACK_ERROR = JSON.stringify({ success: false, error: MESSAGES.internal, code: 'internal_error' });

/** Methods a Fetch API Request cannot carry (the Fetch spec's list), so no handler can see them: the adapter answers. */
const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

function jsonResponse(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

function methodNotAllowed(req: IncomingMessage): Response {
  const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
  const body = JSON.stringify({ success: false, error: 'This method is not allowed here.', code: 'method_not_allowed' });
  return jsonResponse(405, body, { Allow: allowedMethods(pathname) });
}

/** The request body as a web stream that pauses the socket when nobody is reading (backpressure). */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let finished = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          if (finished) return;
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => {
          if (finished) return;
          finished = true;
          controller.close();
        });
        const fail = (error: Error): void => {
          if (finished) return;
          finished = true;
          controller.error(error);
        };
        req.once('error', fail);
        req.once('close', () => {
          if (!req.complete) fail(new Error('The client closed the connection during the upload.'));
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        // Keep draining into nothing so the socket can still carry our answer (e.g. a 413).
        finished = true;
        req.resume();
      },
    },
    { highWaterMark: 4 },
  );
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i];
    const value = raw[i + 1];
    if (name === undefined || value === undefined) continue;
    try {
      headers.append(name, value);
    } catch {
      // A header value the Fetch API refuses is dropped rather than failing the request.
    }
  }
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  } catch {
    url = new URL(req.url ?? '/', 'http://localhost');
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // `duplex` is required by Node's fetch for streamed bodies; the DOM typings predate it.
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (hasBody) {
    init.body = bodyStream(req);
    init.duplex = 'half';
  }
  return new Request(url, init);
}

/** "::ffff:203.0.113.7" (IPv4 on a dual-stack socket) -> "203.0.113.7", so both spellings share a limit. */
function socketIp(req: IncomingMessage): string | undefined {
  const address = req.socket.remoteAddress;
  return address?.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

async function writeResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  // Joined with commas they would be one broken cookie; Node sends an array as separate headers.
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('Set-Cookie', cookies);
  // Node drains an unread upload before reusing the connection: fine for a small declared body,
  // but a large or unbounded (chunked) one is cut off by closing the connection instead.
  if (!req.complete && !(Number(req.headers['content-length'] ?? Infinity) <= DRAIN_LIMIT_BYTES)) res.setHeader('Connection', 'close');
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    // A body that arrives as one chunk (every proxy answer) goes out in one write.
    let pending = await reader.read();
    while (!pending.done) {
      const chunk = pending.value;
      pending = await reader.read();
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
      if (pending.done) {
        res.end(chunk);
        return;
      }
      if (!res.write(chunk)) await drained(res);
    }
    res.end();
  } catch {
    res.destroy();
  }
}

/** Resolves when the socket can take more, or when it is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const settle = (): void => {
      res.off('drain', settle);
      res.off('close', settle);
      resolve();
    };
    res.on('drain', settle);
    res.on('close', settle);
  });
}

/** Closes the connection if the upload is not complete by the deadline; 'close' fires once the request is done. */
function cutSlowUpload(req: IncomingMessage, deadlineMs: number): void {
  if (req.complete) return;
  const timer = setTimeout(() => {
    if (!req.complete) req.socket.destroy();
  }, deadlineMs);
  req.once('close', () => clearTimeout(timer));
}

async function serve(handler: ChatProxyHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const disconnect = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) disconnect.abort(new Error('The client closed the connection.'));
  });
  let response: Response;
  try {
    response = FORBIDDEN_METHODS.has((req.method ?? '').toUpperCase())
      ? methodNotAllowed(req)
      : await handler(toRequest(req, disconnect.signal), { ip: socketIp(req) });
  } catch {
    response = jsonResponse(500, FALLBACK_ERROR);
  }
  if (res.destroyed) return;
  await writeResponse(req, res, response);
}

/**
 * A `(req, res)` listener for node:http's createServer and for Express (mount it before any body
 * parser: it reads the raw stream itself). Sets ctx.ip from the socket; see trustProxy.
 */
export function toNodeListener(handler: ChatProxyHandler, options: NodeListenerOptions = {}): NodeListener {
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_NODE_BODY_TIMEOUT_MS;
  if (!Number.isInteger(bodyTimeoutMs) || bodyTimeoutMs <= 0)
    throw new TypeError('toNodeListener: bodyTimeoutMs must be a positive whole number.');
  return (req, res) => {
    cutSlowUpload(req, bodyTimeoutMs);
    void serve(handler, req, res);
  };
}
