// Shared by the sandbox tests: a manual clock, the real booking client wired to a sandbox, and a
// raw caller for the cases a client would refuse before sending.
import { createBookingClient, type BookingClient } from '../../src/core/booking-client';
import { ApiError } from '../../src/core/http';
import { DEMO_API_KEY, type Sandbox } from '../../src/sandbox';

export const BASE_URL = 'https://sandbox.test';

export interface ManualClock {
  now: () => Date;
  set(iso: string): void;
  advance(ms: number): void;
}

export function manualClock(iso: string): ManualClock {
  let t = Date.parse(iso);
  return {
    now: () => new Date(t),
    set(next) {
      t = Date.parse(next);
    },
    advance(ms) {
      t += ms;
    },
  };
}

export function bookingClient(sandbox: Sandbox): BookingClient {
  return createBookingClient({
    baseUrl: BASE_URL,
    fetch: (input, init) => sandbox.handle(new Request(input, init)),
  });
}

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface CallOptions {
  body?: unknown;
  /** The Bearer key; `null` sends no Authorization header. Default DEMO_API_KEY. */
  key?: string | null;
  headers?: Record<string, string>;
}

/** One raw request to the sandbox; the body is parsed as JSON (every sandbox answer is JSON). */
export async function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  { body, key = DEMO_API_KEY, headers = {} }: CallOptions = {},
): Promise<Answer> {
  const all: Record<string, string> = { ...headers };
  if (key !== null) all.Authorization = `Bearer ${key}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (typeof body === 'string') payload = body;
  else if (body !== undefined) {
    all['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await sandbox.handle(new Request(BASE_URL + path, { method, headers: all, body: payload }));
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** The ApiError a client call rejects with. */
export async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}
