// What a proxy route decided, before it becomes a Response: kept apart so the handler can count
// the bytes it sends and log the reason without re-reading the body.
import { retryAfterSeconds } from '../core/http';
import type { ProxyChatError, ProxyErrorCode } from '../core/types';
import type { ProxyLogReason } from './options';
import type { LimitExceeded } from './rate-limit';

export interface Outcome {
  status: number;
  /** Already-serialized JSON, or null for an empty body (preflight). */
  body: Uint8Array<ArrayBuffer> | null;
  headers?: Record<string, string>;
  code?: ProxyErrorCode;
  reason?: ProxyLogReason;
  upstreamStatus?: number;
  /** The reply text was shortened to maxReplyLength. */
  replyTruncated?: true;
  /** A repeat's answer, from the reply cache. */
  fromReplyCache?: true;
}

const encoder = new TextEncoder();

export function jsonOutcome(status: number, value: unknown, extra: Omit<Outcome, 'status' | 'body'> = {}): Outcome {
  return { status, body: encoder.encode(JSON.stringify(value)), ...extra };
}

export function failure(
  status: number,
  code: ProxyErrorCode,
  error: string,
  extra: Omit<Outcome, 'status' | 'body' | 'code'> & { retryAfter?: number } = {},
): Outcome {
  const { retryAfter, ...rest } = extra;
  const body: ProxyChatError = { success: false, error, code };
  if (retryAfter !== undefined) body.retryAfter = retryAfter;
  return jsonOutcome(status, body, { ...rest, code });
}

export const MESSAGES = {
  originNotAllowed: 'This website is not allowed to use this chat.',
  agentNotAllowed: 'This agent is not available here.',
  bodyTooLarge: 'The request is too large.',
  requestTimeout: 'The request took too long to arrive. Please try again.',
  unsupportedMediaType: 'Send the request as JSON (Content-Type: application/json).',
  invalidJson: 'The request body is not valid JSON.',
  repeatedName: 'Each name may appear only once in a JSON object.',
  notFound: 'Nothing is served at this address.',
  rateLimited: 'Too many messages in a short time. Please wait a moment and try again.',
  dailyCap: 'The chat has reached its limit for today. Please try again tomorrow.',
  insufficientCredits: 'The chat is unavailable right now. Please try again later.',
  upstreamRejected: 'The agent could not accept this message.',
  upstreamError: 'The assistant could not answer right now. Please try again.',
  upstreamTimeout: 'The assistant took too long to answer. Please try again.',
  clientClosed: 'The request was closed before the answer was ready.',
  internal: 'Something went wrong. Please try again.',
} as const;

/** The generic 502: the visitor learns nothing about the upstream, the owner's log says what happened. */
export function upstreamFailure(reason: ProxyLogReason, upstreamStatus?: number): Outcome {
  return failure(502, 'upstream_error', MESSAGES.upstreamError, upstreamStatus === undefined ? { reason } : { reason, upstreamStatus });
}

/** The upstream never answered: its deadline passed, the visitor left, or it could not be reached. */
export function unanswered(kind: 'timeout' | 'client_closed' | 'network'): Outcome {
  if (kind === 'timeout') return failure(504, 'upstream_timeout', MESSAGES.upstreamTimeout, { reason: 'upstream_timeout' });
  if (kind === 'client_closed') return failure(499, 'client_closed', MESSAGES.clientClosed, { reason: 'client_closed' });
  return upstreamFailure('upstream_network');
}

/** Seconds from now to `resetAt`, at least 1 so a client never retries in a tight loop. */
export function secondsUntil(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000));
}

/**
 * Seconds a client should wait after the service said 429, from its X-RateLimit-Reset (or
 * Retry-After): at least 1, at most an hour, and a minute when it gave neither.
 */
export function upstreamRetryAfter(headers: Headers, now: number): number {
  const seconds = retryAfterSeconds(headers, now);
  return seconds === undefined ? 60 : Math.min(3600, Math.max(1, seconds));
}

/** A 429 for one of our own limits, with the headers a client needs to wait correctly. */
export function limitFailure(code: 'rate_limited' | 'daily_cap_reached', exceeded: LimitExceeded, now: number): Outcome {
  const retryAfter = secondsUntil(exceeded.resetAt, now);
  return failure(429, code, code === 'rate_limited' ? MESSAGES.rateLimited : MESSAGES.dailyCap, {
    retryAfter,
    headers: {
      'Retry-After': String(retryAfter),
      'X-RateLimit-Limit': String(exceeded.limit),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Math.ceil(exceeded.resetAt / 1000)),
    },
  });
}

/** 400 for a body parseJson refused. */
export function invalidJson(why: 'invalid' | 'repeated_name'): Outcome {
  return failure(400, 'invalid_json', why === 'invalid' ? MESSAGES.invalidJson : MESSAGES.repeatedName);
}

/** application/json with or without parameters, any case. */
export function isJsonContentType(headers: Headers): boolean {
  const type = (headers.get('Content-Type') ?? '').split(';')[0];
  return type !== undefined && type.trim().toLowerCase() === 'application/json';
}
