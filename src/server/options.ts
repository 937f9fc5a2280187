// The proxy's options, their defaults, and the checks that run once at startup so a
// misconfiguration fails loudly there instead of on a visitor's first message.
import { withoutTrailingSlashes } from '../core/http';
import type { ChatCredits, ProxyErrorCode } from '../core/types';
import { REPLY_KEPT_MS } from '../core/shapes/chat';
import { CLIENT_IP_PRESETS, forwardedFor, type ClientIpPreset, type ClientIpResolver } from './client-ip';
import { createRedactor, type Redact } from './redact';
import { REPLY_LIMITS, type ReplyLimits } from './reply-mapping';
import { createMemoryStore, type RateLimitStore, type WindowLimit } from './rate-limit';
import { createKeyedHasher } from './keyed-hash';
import { createMemoryReplyCache, DEFAULT_MEMORY_REPLY_CHARS, isReplyCache, type ReplyCache } from './reply-cache';

export interface RateLimitOptions {
  /** Chat messages per client address (an IPv6 /64 counts as one; see clientIp). Default 30 per minute. `false` disables. */
  perIp?: WindowLimit | false;
  /**
   * Forwarded booking calls per client address, in a window of their own. Default 120 per minute.
   * `false` disables. They cost no credits and come in bursts: a visitor far from the agent's time zone
   * makes about one call per available day to learn which of their days have times, a month at a time.
   */
  perIpBooking?: WindowLimit | false;
  /**
   * Chat messages per client address per UTC day. Default 100. With dailyCap it sets how many
   * addresses it takes to use up the day for everyone: dailyCap / perIpDaily. `false` disables.
   */
  perIpDaily?: { limit: number } | false;
  /** Per agent + conversationId. Default 12 per minute. `false` disables. */
  perConversation?: WindowLimit | false;
  /** All chat requests of this proxy per UTC day: the owner's cost ceiling. Default 5000. `false` disables. */
  dailyCap?: { limit: number } | false;
}

export interface CreditsContext {
  agentId: string;
  conversationId?: string;
}

/** Why a request failed, for the owner; never sent to the browser. */
export type ProxyLogReason =
  | 'upstream_auth'
  | 'upstream_not_found'
  | 'upstream_rejected'
  | 'upstream_insufficient_credits'
  | 'upstream_rate_limited'
  | 'upstream_status'
  | 'upstream_redirect'
  | 'upstream_too_large'
  | 'upstream_server_error'
  | 'upstream_network'
  | 'upstream_timeout'
  | 'upstream_invalid_response'
  | 'upstream_no_reply'
  | 'client_closed'
  | 'client_slow'
  | 'internal';

/**
 * Something the owner should fix or know, on the log entry of the request that noticed it:
 * `client_ip_unknown` once per proxy instance (the first request whose address could not be known;
 * such requests share one per-IP budget), `store_unavailable` and `store_slow` at most once per
 * interval of the store (its limits fell back to this instance's memory because the store failed, or
 * because it answered too slowly for the request's time budget), `store_full` on each request refused
 * because the memory store had no room for a new spend counter (maxBudgetKeys).
 */
export type ProxyWarning = 'client_ip_unknown' | 'store_unavailable' | 'store_slow' | 'store_full';

export interface ProxyLogEntry {
  /** `chat` (POST), `booking` (forwarded public booking call), `preflight` (OPTIONS). */
  event: 'chat' | 'booking' | 'preflight';
  status: number;
  code?: ProxyErrorCode;
  reason?: ProxyLogReason;
  /** Upstream HTTP status, when the upstream answered. */
  upstreamStatus?: number;
  latencyMs: number;
  requestBytes: number;
  responseBytes: number;
  /** Keyed hash of the client's address (IPv6: its /64), 16 hex characters, or `unknown`. */
  ipHash: string;
  /** Only ever one of the configured agent ids, never text a visitor typed. */
  agentId?: string;
  /** The booking endpoint, for `booking` events. */
  endpoint?: string;
  warning?: ProxyWarning;
  /** The reply was longer than maxReplyLength and was shortened. */
  replyTruncated?: true;
  /** A repeat of a message, answered from the reply cache: the service was not asked again. */
  fromReplyCache?: true;
}

export interface ChatProxyOptions {
  /** The service API key (sk_live_…). Stays on the server: never in a response, a log entry or an error. */
  apiKey: string;
  /** The service's {base_url}. */
  baseUrl: string;
  /** The one agent this proxy serves; or use agentIds. */
  agentId?: string;
  /** The agents this proxy serves; any other agentId is refused with 403 agent_not_allowed. */
  agentIds?: readonly string[];
  /** Origins allowed to call, exactly as scheme://host[:port]. Others get 403 origin_not_allowed. */
  allowedOrigins: readonly string[];
  /**
   * Accept requests without an Origin header (server-to-server callers, curl). Default false.
   * Browsers send Origin on every POST, so the widget never needs this.
   */
  allowMissingOrigin?: boolean;
  rateLimit?: RateLimitOptions;
  /**
   * Where counters live. Default: in-memory, per process. A store that is also a ReplyCache (the Redis
   * store is) keeps the reply cache too, shared by every instance.
   */
  store?: RateLimitStore | (RateLimitStore & ReplyCache);
  /**
   * The short-lived cache that answers a repeat of a message (the widget sends a message again, with the
   * same id, when the visitor moved to another page before its reply came) without asking the service
   * again. In the store when it keeps replies, else in this instance's memory (at most `maxChars`
   * characters, default 8 388 608: some 250 of the longest replies). `ttlMs`: how long a reply is kept, default 600 000 (the widget
   * sends again within 10 minutes). `false` turns it off: every repeat is asked for again.
   */
  replyCache?: { ttlMs?: number; maxChars?: number } | false;
  /**
   * Largest request body read, counted while streaming. Default bodyBytesFor(maxMessageLength): room
   * for the longest message at its worst-case JSON size. Set it alone only to tighten the limit.
   */
  maxBodyBytes?: number;
  /** Longest message, in UTF-16 code units (as HTML maxlength counts). Default 4000. */
  maxMessageLength?: number;
  /** Longest reply text forwarded, in UTF-16 code units; longer replies are shortened with a marker. Default 32 000. */
  maxReplyLength?: number;
  /** Most bytes of an upstream answer read; a larger one is refused (502) without buffering it. Default 262 144. */
  maxUpstreamBytes?: number;
  /** Deadline for the upstream call, from sending to the last byte of its answer. Default 30 000. */
  timeoutMs?: number;
  /**
   * Where the client's address comes from: a preset for the header your platform sets
   * ('vercel', 'cloudflare', 'fly', 'x-real-ip' for an nginx you configure, 'socket' for ctx.ip), or
   * your own function. Default: ctx.ip, or X-Forwarded-For per trustProxy. Not together with trustProxy.
   */
  clientIp?: ClientIpPreset | ClientIpResolver;
  /** Deadline for the whole request body, from when the proxy starts reading it; later is 408. Default 10 000. */
  bodyTimeoutMs?: number;
  /** Proxies in front of this server: 0 ignores X-Forwarded-For; n takes its n-th address from the right. */
  trustProxy?: number;
  /**
   * Secret keying the hash of client addresses in store keys and log entries. Default: derived from
   * apiKey, so instances with the same key count a visitor under the same store key.
   */
  keySecret?: string;
  /** The credits object of each chat reply, which the browser never sees. Errors thrown here are ignored. */
  onCredits?: (credits: ChatCredits, context: CreditsContext) => void | Promise<void>;
  /** One entry per request. Errors thrown here are ignored. */
  log?: (entry: ProxyLogEntry) => void | Promise<void>;
  /** Upstream fetch. Default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Clock in epoch ms, for tests. Default Date.now. */
  now?: () => number;
  /** Forward GET/POST …/booking/public/<endpoint> to the service without the key. Default false. */
  forwardBooking?: boolean;
}

export interface ResolvedProxyOptions {
  apiKey: string;
  /** Removes the key from any text, see redact.ts. */
  redact: Redact;
  baseUrl: string;
  agentIds: ReadonlySet<string>;
  allowedOrigins: ReadonlySet<string>;
  allowMissingOrigin: boolean;
  perIp: WindowLimit | undefined;
  perIpBooking: WindowLimit | undefined;
  perIpDaily: number | undefined;
  perConversation: WindowLimit | undefined;
  dailyCap: number | undefined;
  store: RateLimitStore;
  replyCache: ResolvedReplyCache | undefined;
  maxBodyBytes: number;
  maxMessageLength: number;
  replyLimits: ReplyLimits;
  maxUpstreamBytes: number;
  timeoutMs: number;
  clientIp: ClientIpResolver;
  keySecret: string;
  bodyTimeoutMs: number;
  onCredits: ChatProxyOptions['onCredits'];
  log: ChatProxyOptions['log'];
  fetch: typeof fetch;
  now: () => number;
  forwardBooking: boolean;
}

export interface ResolvedReplyCache {
  cache: ReplyCache;
  ttlMs: number;
  /** The store key of one message: a keyed hash of the agent, conversation, message id and text. */
  keyOf: (text: string) => Promise<string>;
}

/** Worst case per UTF-16 code unit of the message in the JSON body: a control character or lone surrogate as \uXXXX. */
const JSON_BYTES_PER_UNIT = 6;
/** Longest agent id accepted in the configuration. */
const MAX_AGENT_ID_LENGTH = 128;
/** Braces, field names, an agentId of MAX_AGENT_ID_LENGTH escaped, and a 128-character conversationId. */
const ENVELOPE_BYTES = 1024;

/** The body limit that admits every message of `maxMessageLength` code units, however it is encoded. */
export function bodyBytesFor(maxMessageLength: number): number {
  return maxMessageLength * JSON_BYTES_PER_UNIT + ENVELOPE_BYTES;
}

const DEFAULT_MAX_MESSAGE_LENGTH = 4000;

export const PROXY_DEFAULTS = {
  perIp: { limit: 30, windowMs: 60_000 },
  perIpBooking: { limit: 120, windowMs: 60_000 },
  perIpDaily: 100,
  perConversation: { limit: 12, windowMs: 60_000 },
  dailyCap: 5000,
  maxBodyBytes: bodyBytesFor(DEFAULT_MAX_MESSAGE_LENGTH),
  maxMessageLength: DEFAULT_MAX_MESSAGE_LENGTH,
  maxReplyLength: REPLY_LIMITS.maxReplyLength,
  maxUpstreamBytes: 262_144,
  timeoutMs: 30_000,
  bodyTimeoutMs: 10_000,
  replyCacheTtlMs: REPLY_KEPT_MS,
} as const;

function fail(option: string, message: string): never {
  throw new TypeError(`createChatProxy: ${option} ${message}`);
}

function positiveInteger(value: number | undefined, fallback: number, option: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) fail(option, 'must be a positive whole number.');
  return value;
}

function windowLimit(value: WindowLimit | false | undefined, fallback: WindowLimit, option: string) {
  if (value === false) return undefined;
  const rule = value ?? fallback;
  return {
    limit: positiveInteger(rule.limit, fallback.limit, `${option}.limit`),
    windowMs: positiveInteger(rule.windowMs, fallback.windowMs, `${option}.windowMs`),
  };
}

/** "https://Example.com:443/" -> "https://example.com"; anything but an http(s) origin is refused. */
function normalizeOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return fail('allowedOrigins', `contains "${origin}", which is not a URL.`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || (url.pathname !== '/' && url.pathname !== ''))
    fail('allowedOrigins', `contains "${origin}": expected only scheme://host[:port].`);
  return url.origin;
}

function dailyLimit(value: { limit: number } | false | undefined, fallback: number, option: string) {
  return value === false ? undefined : positiveInteger(value?.limit, fallback, `${option}.limit`);
}

function clientIpResolver(options: ChatProxyOptions): ClientIpResolver {
  const { clientIp, trustProxy } = options;
  if (clientIp !== undefined && trustProxy !== undefined) fail('clientIp', 'and trustProxy are alternatives: set one.');
  if (typeof clientIp === 'function') return clientIp;
  if (typeof clientIp === 'string') {
    if (!Object.hasOwn(CLIENT_IP_PRESETS, clientIp))
      fail('clientIp', `must be a function or one of ${Object.keys(CLIENT_IP_PRESETS).join(', ')}.`);
    return CLIENT_IP_PRESETS[clientIp];
  }
  if (clientIp !== undefined) fail('clientIp', 'must be a function or a preset name.');
  const hops = trustProxy ?? 0;
  if (!Number.isInteger(hops) || hops < 0) fail('trustProxy', 'must be a whole number of hops (0 or more).');
  return forwardedFor(hops);
}

function replyCache(options: ChatProxyOptions, store: RateLimitStore): ResolvedReplyCache | undefined {
  const settings = options.replyCache ?? {};
  if (settings === false) return undefined;
  return {
    cache: isReplyCache(store)
      ? store
      : createMemoryReplyCache({ maxChars: positiveInteger(settings.maxChars, DEFAULT_MEMORY_REPLY_CHARS, 'replyCache.maxChars') }),
    ttlMs: positiveInteger(settings.ttlMs, PROXY_DEFAULTS.replyCacheTtlMs, 'replyCache.ttlMs'),
    keyOf: createKeyedHasher(options.keySecret ?? options.apiKey, 'agent-widget/reply-cache/v1', 16),
  };
}

export function resolveProxyOptions(options: ChatProxyOptions): ResolvedProxyOptions {
  // The key's value never appears in these messages.
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') fail('apiKey', 'is required.');
  let baseUrl: URL;
  try {
    baseUrl = new URL(options.baseUrl);
  } catch {
    return fail('baseUrl', 'must be an absolute http(s) URL.');
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') fail('baseUrl', 'must be an http(s) URL.');

  const agentIds = [...(options.agentIds ?? []), ...(options.agentId === undefined ? [] : [options.agentId])];
  if (agentIds.length === 0) fail('agentId', 'or agentIds is required: the proxy only serves agents it is told about.');
  for (const id of agentIds)
    if (typeof id !== 'string' || id.trim() === '' || id.length > MAX_AGENT_ID_LENGTH)
      fail('agentIds', `must be non-empty strings of at most ${MAX_AGENT_ID_LENGTH} characters.`);
  if (!Array.isArray(options.allowedOrigins)) fail('allowedOrigins', 'is required (an array; it may be empty).');

  const limits = options.rateLimit ?? {};
  if (options.keySecret !== undefined && (typeof options.keySecret !== 'string' || options.keySecret.length < 16))
    fail('keySecret', 'must be a string of at least 16 characters.');

  const store = options.store ?? createMemoryStore();
  const maxMessageLength = positiveInteger(options.maxMessageLength, PROXY_DEFAULTS.maxMessageLength, 'maxMessageLength');
  const maxBodyBytes = positiveInteger(options.maxBodyBytes, bodyBytesFor(maxMessageLength), 'maxBodyBytes');
  // Both given and contradicting: a message the owner allows would be refused as too large.
  if (options.maxMessageLength !== undefined && maxBodyBytes < bodyBytesFor(maxMessageLength))
    fail(
      'maxBodyBytes',
      `(${maxBodyBytes}) is too small for maxMessageLength ${maxMessageLength}: it needs ${bodyBytesFor(maxMessageLength)}. Leave it out to derive it.`,
    );

  return {
    apiKey: options.apiKey,
    redact: createRedactor(options.apiKey),
    baseUrl: withoutTrailingSlashes(baseUrl.href),
    agentIds: new Set(agentIds),
    allowedOrigins: new Set(options.allowedOrigins.map(normalizeOrigin)),
    allowMissingOrigin: options.allowMissingOrigin ?? false,
    perIp: windowLimit(limits.perIp, PROXY_DEFAULTS.perIp, 'rateLimit.perIp'),
    perIpBooking: windowLimit(limits.perIpBooking, PROXY_DEFAULTS.perIpBooking, 'rateLimit.perIpBooking'),
    perIpDaily: dailyLimit(limits.perIpDaily, PROXY_DEFAULTS.perIpDaily, 'rateLimit.perIpDaily'),
    perConversation: windowLimit(limits.perConversation, PROXY_DEFAULTS.perConversation, 'rateLimit.perConversation'),
    dailyCap: dailyLimit(limits.dailyCap, PROXY_DEFAULTS.dailyCap, 'rateLimit.dailyCap'),
    store,
    replyCache: replyCache(options, store),
    maxBodyBytes,
    maxMessageLength,
    replyLimits: {
      ...REPLY_LIMITS,
      maxReplyLength: positiveInteger(options.maxReplyLength, PROXY_DEFAULTS.maxReplyLength, 'maxReplyLength'),
    },
    maxUpstreamBytes: positiveInteger(options.maxUpstreamBytes, PROXY_DEFAULTS.maxUpstreamBytes, 'maxUpstreamBytes'),
    timeoutMs: positiveInteger(options.timeoutMs, PROXY_DEFAULTS.timeoutMs, 'timeoutMs'),
    clientIp: clientIpResolver(options),
    keySecret: options.keySecret ?? options.apiKey,
    bodyTimeoutMs: positiveInteger(options.bodyTimeoutMs, PROXY_DEFAULTS.bodyTimeoutMs, 'bodyTimeoutMs'),
    onCredits: options.onCredits,
    log: options.log,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    now: options.now ?? Date.now,
    forwardBooking: options.forwardBooking ?? false,
  };
}
