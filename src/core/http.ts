// The one fetch layer under every client: JSON in, the `{ success, error }` envelope out,
// a deadline and an AbortSignal on every call, and no exception that is not an ApiError.
import { attempt } from './attempt';
import { declaresTooLarge, readBounded as readBoundedBytes } from './bounded-read';
import { isFiniteNumber, isNonEmptyString, isRecord } from './guards';
import type { Schema } from './schema';
import type { RateLimitInfo, Success } from './types';

export type ApiErrorKind =
  /** The service answered with an error status or `success: false`. */
  | 'http'
  /** The request never got an answer (offline, DNS, connection reset, CORS). */
  | 'network'
  /** The deadline passed. */
  | 'timeout'
  /** The caller's AbortSignal fired. */
  | 'aborted'
  /** The answer was empty, not JSON, not the envelope, or not the shape the spec promises. */
  | 'invalid_response'
  /** An argument was rejected before any request was sent. */
  | 'validation';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  status?: number;
  rateLimit?: RateLimitInfo;
  retryAfter?: number;
  /** The argument that failed validation. */
  argument?: string;
  /** A stable machine-readable code, when the server sent one. */
  code?: string;
  /** The answer was not the `{ success }` envelope at all (an empty body, an HTML page, other JSON). */
  withoutEnvelope?: boolean;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** HTTP status; 0 when no response was received. */
  readonly status: number;
  /** The answer's X-RateLimit-* headers: the server client reads them; the widget's clients leave this empty. */
  readonly rateLimit: RateLimitInfo;
  /** Seconds to wait before retrying, from Retry-After or X-RateLimit-Reset. */
  readonly retryAfter: number | undefined;
  /** The argument that failed validation. */
  readonly argument: string | undefined;
  /** A stable machine-readable code, when the server sent one. */
  readonly code: string | undefined;
  /** The answer was not the `{ success }` envelope at all: whatever answered may not be the service. */
  readonly withoutEnvelope: boolean;

  constructor(message: string, init: ApiErrorInit) {
    super(message, 'cause' in init ? { cause: init.cause } : undefined);
    this.kind = init.kind;
    this.status = init.status ?? 0;
    this.rateLimit = init.rateLimit ?? {};
    this.retryAfter = init.retryAfter;
    this.argument = init.argument;
    this.code = init.code;
    this.withoutEnvelope = init.withoutEnvelope ?? false;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

function headerNumber(headers: Headers, name: string): number | undefined {
  // Blank is absent, not 0 (which Number('') would make it).
  const raw = headers.get(name)?.trim();
  const n = Number(raw);
  return raw && Number.isFinite(n) ? n : undefined;
}

export function rateLimitFromHeaders(headers: Headers): RateLimitInfo {
  const info: RateLimitInfo = {};
  for (const field of ['limit', 'remaining', 'reset'] as const) {
    // Header names are case-insensitive: X-RateLimit-limit reads X-RateLimit-Limit.
    const n = headerNumber(headers, `X-RateLimit-${field}`);
    if (n !== undefined) info[field] = n;
  }
  return info;
}

/** A wait in whole seconds, never negative. */
const waitOf = (seconds: number): number => Math.max(0, Math.ceil(seconds));

/** Seconds to wait: Retry-After (seconds) wins, else X-RateLimit-Reset (Unix seconds) minus now. */
export function retryAfterSeconds(headers: Headers, nowMs: number = Date.now()): number | undefined {
  const retryAfter = headerNumber(headers, 'Retry-After');
  if (retryAfter !== undefined) return waitOf(retryAfter);
  const reset = headerNumber(headers, 'X-RateLimit-Reset');
  return reset === undefined ? undefined : waitOf(reset - nowMs / 1000);
}

/**
 * A signal that fires when `signal` or `deadline` fires, with the first reason. Where AbortSignal.any
 * is missing (Safari before 17.4) the deadline alone: the call still ends on time, and a call its
 * caller gave up on is answered as aborted once it settles (the caller's own signal is checked then).
 */
export const anySignal = (signal: AbortSignal | undefined, deadline: AbortSignal): AbortSignal =>
  (signal && AbortSignal.any?.([signal, deadline])) ?? deadline;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Query parameters; undefined values are left out. */
  query?: object;
  /** Sent as JSON. FormData is sent as multipart. */
  body?: unknown;
  /** A body streamed as it is sent (an upload), instead of `body`. */
  stream?: StreamBody;
  signal?: AbortSignal;
  /** This call's deadline instead of the default one (an upload's grows with its size). */
  timeoutMs?: number;
}

/** A body sent as a stream with its type and length; opened anew for each attempt (a 429 is retried). */
export interface StreamBody {
  contentType: string;
  length: number;
  open(): ReadableStream<Uint8Array>;
}

export interface HttpOptions {
  baseUrl: string;
  fetch?: typeof fetch;
  /** Default deadline per call; 15 s. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  /**
   * Reads an answer's headers into ApiError.rateLimit (the server client passes rateLimitFromHeaders).
   * Left out, rateLimit stays empty: the widget never reads it, and its bundle leaves the parsing out.
   */
  readRateLimit?: (headers: Headers) => RateLimitInfo;
  /** The most an answer may hold once decompressed; more ends the call. Default DEFAULT_MAX_ANSWER_BYTES. */
  maxAnswerBytes?: number;
}

/** One call; the answer is checked against `schema` and comes back as the schema's clean copy. */
export type Http = <T>(path: string, schema: Schema<T>, options?: RequestOptions) => Promise<Success<T>>;

export const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * The most an answer may hold, counted after decompression: far above any answer of the spec, low enough
 * that an endless stream or a compression bomb ends the call instead of filling the memory.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** ApiError.code of an answer over the limit. */
export const ANSWER_TOO_LARGE = 'answer_too_large';

/** The answer's text, read as it streams in and refused past `maxBytes` (decompressed, as fetch hands it over). */
export async function readBounded(res: Response, maxBytes: number): Promise<string> {
  const read = declaresTooLarge(res.headers, maxBytes) ? undefined : await readBoundedBytes(res.body, maxBytes);
  if (read?.ok) return new TextDecoder().decode(read.bytes);
  if (!read) await res.body?.cancel().catch(() => undefined);
  throw new ApiError(`The service's answer is too large (over ${Math.round(maxBytes / 1024)} KiB).`, {
    kind: 'invalid_response',
    status: res.status,
    code: ANSWER_TOO_LARGE,
  });
}

/**
 * `text` without the slashes it ends with. A loop, not /\/+$/: that pattern retries from every slash of
 * a run that does not end the text, which is quadratic in the run's length.
 */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === SLASH) end--;
  return text.slice(0, end);
}

const SLASH = 0x2f;

export function buildUrl(baseUrl: string, path: string, query: object = {}): string {
  // URLSearchParams writes each value as text (String()).
  const qs = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined)).toString();
  return withoutTrailingSlashes(baseUrl) + path + (qs && '?' + qs);
}

/**
 * Turns a Response into the envelope's success body checked against `schema`, or throws the ApiError
 * that says why not: the service's own error, or `invalid_response` naming what did not fit.
 */
export async function readEnvelope<T>(
  res: Response,
  schema: Schema<T>,
  readRateLimit?: HttpOptions['readRateLimit'],
  maxBytes = DEFAULT_MAX_ANSWER_BYTES,
): Promise<Success<T>> {
  const rateLimit = readRateLimit?.(res.headers);
  // Too Many Requests: the one status whose answer says how long to wait.
  const { status } = res;
  const limited = status === 429;
  const retryAfter = limited ? retryAfterSeconds(res.headers) : undefined;
  const text = await readBounded(res, maxBytes);
  const fail = (message: string, kind: ApiErrorKind, code?: string, wait = retryAfter): ApiError =>
    new ApiError(message, { kind, status, rateLimit, retryAfter: wait, code });

  // A malformed answer to a failed call is still that failure; to a 2xx call it is a broken response.
  const malformed = (what: string): ApiError =>
    new ApiError(`The service answered ${status} with ${what}.`, {
      kind: res.ok ? 'invalid_response' : 'http',
      status,
      rateLimit,
      retryAfter,
      withoutEnvelope: true,
    });

  if (!text.trim()) throw malformed('an empty body');
  // JSON.parse never returns undefined: undefined means it threw.
  const body: unknown = attempt(() => JSON.parse(text));
  if (body === undefined) throw malformed('a body that is not JSON');
  if (!isRecord(body) || typeof body.success !== 'boolean') throw malformed('JSON without the { success } envelope');
  if (!res.ok || !body.success) {
    const message = isNonEmptyString(body.error) ? body.error : `The service answered ${status} without an error message.`;
    const code = typeof body.code === 'string' ? body.code : undefined;
    // The chat proxy also states the wait in its body; headers win when both are present.
    const wait = retryAfter ?? (limited && isFiniteNumber(body.retryAfter) ? waitOf(body.retryAfter) : undefined);
    throw fail(message, 'http', code, wait);
  }
  try {
    return { ...schema(body, ''), success: true };
  } catch (error) {
    // A Schema throws nothing but Errors naming what did not fit (./schema).
    throw fail(`The service's answer did not fit the spec: ${(error as Error).message}.`, 'invalid_response');
  }
}

export function createHttp(options: HttpOptions): Http {
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  return async function request<T>(path: string, schema: Schema<T>, req: RequestOptions = {}): Promise<Success<T>> {
    const url = buildUrl(options.baseUrl, path, req.query);
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    let body: BodyInit | undefined;
    if (req.stream) {
      headers['Content-Type'] = req.stream.contentType;
      headers['Content-Length'] = String(req.stream.length);
      body = req.stream.open();
    } else if (req.body instanceof FormData) body = req.body;
    else if (req.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(req.body);
    }

    const timeoutMs = req.timeoutMs ?? defaultTimeoutMs;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new ApiError(`No answer within ${timeoutMs} ms.`, { kind: 'timeout' })), timeoutMs);

    let res: Response | undefined;
    try {
      // Answered as aborted by the catch below.
      if (req.signal?.aborted) throw req.signal.reason;
      // The page's fetch is looked up on every call (a fetch patched later is used) and called with no
      // `this`, which browsers read as the window.
      res = await (options.fetch ?? globalThis.fetch)(url, {
        // A body is a stream, FormData or JSON text, never empty.
        method: req.method ?? (body ? 'POST' : 'GET'),
        headers,
        body,
        signal: anySignal(req.signal, deadline.signal),
        // What Node's fetch needs to send a stream; browsers ignore it (the widget sends none).
        ...(req.stream ? { duplex: 'half' } : {}),
      });
      return await readEnvelope(res, schema, options.readRateLimit, options.maxAnswerBytes);
    } catch (error) {
      // A signal that fires while the body streams in surfaces here too.
      if (req.signal?.aborted) throw new ApiError('The request was cancelled.', { kind: 'aborted', cause: req.signal.reason });
      if (deadline.signal.aborted) throw deadline.signal.reason;
      // readEnvelope's own verdicts pass through, and those of a fetch of ours (the server client's reads the
      // body itself, bounded); anything else is the network failing us.
      if (error instanceof ApiError) throw error;
      throw new ApiError(res ? 'The answer could not be read.' : 'The service could not be reached.', {
        kind: 'network',
        status: res?.status,
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  };
}
