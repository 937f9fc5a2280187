// Shared fixtures for the proxy tests: a controllable upstream, request builders, and the check
// that the API key never leaves the server.
import { expect, onTestFinished } from 'vitest';
import { createChatProxy, type ChatProxyHandler, type ChatProxyOptions, type ProxyLogEntry } from '../../src/server';

export const API_KEY = 'sk_live_TEST_7f3a9c1e5b2d4f6a8c0e1b3d5f7a9c1e';
/** The part after the prefix: leaking only that would be as bad. */
const KEY_SECRET = API_KEY.slice('sk_live_'.length);
export const BASE_URL = 'https://service.test/api';
export const AGENT = 'agent_123';
export const ORIGIN = 'https://shop.example';
export const PROXY_URL = 'https://shop.example/api/agent-chat';

export interface UpstreamCall {
  url: string;
  method: string;
  headers: Headers;
  body: string;
  signal: AbortSignal | undefined;
}

/** A fake upstream fetch that records each call and answers with `reply(call)`. */
/** A request body as text: a string as it is, bytes decoded, anything else (a stream, none) empty. */
const bodyText = (body: unknown): string => {
  if (typeof body === 'string') return body;
  return body instanceof Uint8Array ? new TextDecoder().decode(body) : '';
};

export function fakeUpstream(reply: (call: UpstreamCall) => Response | Promise<Response>) {
  const calls: UpstreamCall[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const body = init?.body;
    const call: UpstreamCall = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: bodyText(body),
      signal: init?.signal ?? undefined,
    };
    calls.push(call);
    return reply(call);
  };
  return { fetch, calls };
}

export function json(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

export const okReply = (extra: Record<string, unknown> = {}): Response =>
  json({ success: true, reply: 'Hello from the agent', credits: { used: 1, remaining: 41 }, ...extra });

/** A proxy with a recording upstream and log; override anything per test. */
export function setup(
  options: Partial<ChatProxyOptions> = {},
  reply: (call: UpstreamCall) => Response | Promise<Response> = () => okReply(),
) {
  const upstream = fakeUpstream(reply);
  const logs: ProxyLogEntry[] = [];
  const handler: ChatProxyHandler = createChatProxy({
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    agentId: AGENT,
    allowedOrigins: [ORIGIN],
    fetch: upstream.fetch,
    log: (entry) => {
      logs.push(entry);
    },
    ...options,
  });
  // Every scenario, not only the ones that look: no entry may carry the key.
  onTestFinished(() => expectCleanLogs(logs, []));
  return { handler, upstream, logs };
}

export interface ChatInit {
  body?: unknown;
  rawBody?: BodyInit;
  origin?: string | null;
  method?: string;
  headers?: Record<string, string>;
  url?: string;
}

/** A browser-like POST to the proxy: JSON, from ORIGIN, unless told otherwise. */
export function chatRequest(init: ChatInit = {}): Request {
  const headers = new Headers(init.headers);
  const origin = init.origin === undefined ? ORIGIN : init.origin;
  if (origin !== null) headers.set('Origin', origin);
  const method = init.method ?? 'POST';
  const hasBody = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
  if (hasBody && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  const body = hasBody ? (init.rawBody ?? JSON.stringify(init.body ?? { agentId: AGENT, message: 'Hi there' })) : undefined;
  const requestInit: RequestInit & { duplex?: 'half' } = { method, headers, body };
  if (body instanceof ReadableStream) requestInit.duplex = 'half';
  return new Request(init.url ?? PROXY_URL, requestInit);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface ReadResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

/** Asserts that no part of the API key is anywhere in `text`. */
export function expectNoKey(text: string): void {
  expect(text).not.toContain(KEY_SECRET);
  expect(text).not.toContain('sk_live_');
  expect(text.toLowerCase()).not.toContain('bearer');
}

/** Reads a proxy response and asserts the key is absent from every header and the body. */
export async function read(response: Response): Promise<ReadResponse> {
  const text = await response.text();
  const headerText = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  expectNoKey(headerText);
  expectNoKey(text);
  const parsed: unknown = text === '' ? {} : JSON.parse(text);
  if (!isRecord(parsed)) throw new Error(`Expected a JSON object, got: ${text}`);
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Log entries carry neither the key nor any text the visitor typed. */
export function expectCleanLogs(logs: readonly ProxyLogEntry[], typed: readonly string[]): void {
  const text = JSON.stringify(logs);
  expectNoKey(text);
  for (const t of typed) expect(text).not.toContain(t);
}

/** A promise with its resolve handle, to let a test wait for "the upstream was called". */
export function deferred<T = void>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A body stream that sends `chunks` chunks of `size` bytes ('a'), then ends. */
export function streamOf(chunks: number, size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === chunks) {
        controller.close();
        return;
      }
      sent += 1;
      controller.enqueue(new Uint8Array(size).fill(97));
    },
  });
}
