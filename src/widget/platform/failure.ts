// The widget's one reading of a failed request, for chat and booking alike: what kind of failure it
// is (what the visitor is told), whether asking again can help, and the `error` event for the host.
import { ApiError, type ApiErrorKind } from '../../core/http';

export type FailureKind =
  /** No answer, and the browser says it has no network. */
  | 'offline'
  /** No answer while the browser is online: the service is down, DNS, connection refused, CORS. */
  | 'unreachable'
  | 'timeout'
  /** 429: try again after `retryAfter`. */
  | 'busy'
  /** 400 or 413: refused with the service's reason; asking again the same way would be refused again. */
  | 'refused'
  /** 402: no credits. */
  | 'unavailable'
  | 'notFound'
  /** 401, 403, 405…: this site, agent or URL is not set up to be served. */
  | 'misconfigured'
  /** An answer that does not fit the spec (an HTML error page, a wrong shape). */
  | 'invalid'
  /** 5xx, or anything else. */
  | 'server';

export interface Failure {
  kind: FailureKind;
  /** HTTP status; 0 when no answer arrived. */
  status: number;
  /** The proxy's machine-readable code, when it sent one. */
  code?: string;
  /** Seconds to wait (429). */
  retryAfter?: number;
  /** For developers: the error's own words (the service's reason for `refused`). */
  message: string;
  /** Whether the same request may succeed when sent again. */
  retryable: boolean;
  /** The answer was not the service's envelope (an HTML page, no body, other JSON). */
  withoutEnvelope: boolean;
}

const BY_STATUS: Partial<Record<number, FailureKind>> = {
  400: 'refused',
  413: 'refused',
  402: 'unavailable',
  404: 'notFound',
  429: 'busy',
};

/**
 * A gateway's or the proxy's word that the service behind it is down or did not answer in time (502, 503,
 * 504): to the visitor, the same as a service that cannot be reached.
 */
const SERVICE_DOWN: readonly number[] = [502, 503, 504];

/**
 * What kind of failure an error of `apiKind` (none: no answer, no kind of its own) is. Read as a table, top
 * to bottom. Only the browser's own "no network" blames the visitor; otherwise the service is out of reach.
 */
function kindOf(apiKind: ApiErrorKind | undefined, status: number, refusal: boolean): FailureKind {
  if (apiKind === 'network') return navigator.onLine ? 'unreachable' : 'offline';
  if (apiKind === 'http' && SERVICE_DOWN.includes(status)) return 'unreachable';
  if (refusal) return BY_STATUS[status] ?? 'misconfigured';
  if (apiKind === 'timeout') return 'timeout';
  if (apiKind === 'invalid_response') return 'invalid';
  return 'server';
}

/** The failure behind `error`; undefined when the request was cancelled on purpose. */
export function classify(error: unknown): Failure | undefined {
  // Anything but an ApiError got no answer and has no kind of its own.
  const {
    kind: apiKind,
    status = 0,
    code,
    retryAfter,
    withoutEnvelope = false,
  }: Partial<ApiError> = error instanceof ApiError ? error : {};
  if (apiKind === 'aborted') return undefined;
  // An answer below 500 refuses the request: sent again, it would be refused again, unless it asked to
  // wait (429, busy). Every other failure may pass on another try.
  const refusal = apiKind === 'http' && status < 500;
  const kind = kindOf(apiKind, status, refusal);
  return {
    kind,
    status,
    code,
    retryAfter,
    message: error instanceof Error ? error.message : String(error),
    retryable: !refusal || kind === 'busy',
    withoutEnvelope,
  };
}

export interface WidgetErrorEvent {
  agentId: string;
  /** What failed: the chat, a booking request, the widget's configuration, or loading the panel's file. */
  scope: 'chat' | 'booking' | 'config' | 'panel';
  /** The booking request that failed: config, dates, slots, create, lookup or cancel. */
  request?: string;
  kind: ApiErrorKind | 'config';
  /** HTTP status; 0 when no response was received. */
  status: number;
  /** The proxy's machine-readable code, when it sent one. */
  code?: string;
  /** A developer-facing description (never shown to the visitor). */
  message: string;
  /** What the widget does next: retry by itself, wait for the visitor, or nothing. */
  retry: 'auto' | 'manual' | 'none';
  /** The visitor's message that failed, for chat errors. */
  messageId?: string;
}

/** The `error` event of a failed request; `retry` is what the widget does next. */
export const errorEvent = (
  agentId: string,
  scope: WidgetErrorEvent['scope'],
  error: unknown,
  { status, code, message }: Failure,
  retry: WidgetErrorEvent['retry'],
): WidgetErrorEvent => ({
  agentId,
  scope,
  kind: error instanceof ApiError ? error.kind : 'network',
  status,
  ...(code && { code }),
  message,
  retry,
});
