// The chat proxy: a Web-standard (Request) => Response handler that holds the API key, checks
// every browser request, and forwards only what the widget is allowed to say and hear.
// Web APIs only (Request, Response, crypto.subtle, TextEncoder, streams): it runs unchanged on
// Node >= 20, Workers, Deno, Bun and Next.js route handlers.
import type { ProxyChatRequest } from '../core/types';
import { isRecord, parseJson } from './body';
import { allowedMethods, bookingMethod, bookingRoute, bookingSegment } from './booking-forward';
import { createClientIdentifier, type ClientIdentity, type ProxyContext } from './client-ip';
import { resolveProxyOptions, type ChatProxyOptions, type ProxyLogEntry, type ProxyLogReason, type ResolvedProxyOptions } from './options';
import {
  failure,
  invalidJson,
  isJsonContentType,
  jsonOutcome,
  MESSAGES,
  unanswered,
  upstreamFailure,
  upstreamRetryAfter,
  type Outcome,
} from './outcome';
import { isSafeConversationId, isSafeMessageId } from '../core/shapes/chat';
import { mapChatReply } from './reply-mapping';
import { agentStep, limitStep, readBodyStep, spendStep, type DailyCapLatch, type RouteContext, type Step } from './route-context';
import { callUpstream, type UpstreamResult } from './upstream';
import { replyStep } from './reply-step';

export type ChatProxyHandler = (request: Request, ctx?: ProxyContext) => Promise<Response>;

/**
 * The options, or a function that returns them (or a promise of them). The function is called on the
 * first request, not at creation, so a module that creates the proxy at import time needs no secret
 * then (Next.js `next build`, Workers' `env`). Its result is validated then and kept.
 */
export type ChatProxyConfig = ChatProxyOptions | (() => ChatProxyOptions | Promise<ChatProxyOptions>);

/** What serves requests once the options are known. */
interface Running {
  cfg: ResolvedProxyOptions;
  identify: (request: Request, ctx: ProxyContext) => Promise<ClientIdentity>;
  dailyCap: DailyCapLatch;
}

/** Made on the first request: workerd forbids crypto work (the address hasher's key) at startup. */
function run(cfg: ResolvedProxyOptions): Running {
  return { cfg, identify: createClientIdentifier(cfg.clientIp, cfg.keySecret), dailyCap: { reachedUntil: 0 } };
}

/**
 * Static options are checked at once, so a misconfiguration fails at startup; a function is called on
 * the first request, and again on the next one if it threw or returned invalid options.
 */
function loader(options: ChatProxyConfig): () => Promise<Running> {
  if (typeof options !== 'function') {
    const cfg = resolveProxyOptions(options);
    let running: Running | undefined;
    return async () => {
      running ??= run(cfg);
      return running;
    };
  }
  let pending: Promise<Running> | undefined;
  return () => {
    pending ??= (async () => run(resolveProxyOptions(await options())))().catch((error: unknown) => {
      // The next request calls the function again.
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

const BASE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  Vary: 'Origin',
};

const ALLOWED_ORIGIN_HEADERS: Readonly<Record<string, string>> = {
  // Without this a cross-origin widget could not read Retry-After.
  'Access-Control-Expose-Headers': 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
};

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Hooks belong to the owner; whatever they throw or reject must not touch the visitor's answer. */
function safely(hook: () => void | Promise<void>): void {
  try {
    const result = hook();
    if (result instanceof Promise) result.catch(() => undefined);
  } catch {
    // Ignored on purpose, see above.
  }
}

export function createChatProxy(options: ChatProxyConfig): ChatProxyHandler {
  const load = loader(options);
  let reported: string | undefined;

  return async function handleChatProxy(request: Request, ctx: ProxyContext = {}): Promise<Response> {
    let running: Running;
    try {
      running = await load();
    } catch (error) {
      // There is no log hook without options: the console is the owner's only channel. Once per
      // distinct problem, so a flood of requests does not become a flood of lines.
      const problem = error instanceof Error ? error.message : String(error);
      if (problem !== reported) console.error('createChatProxy: the options could not be loaded; answering 500.', error);
      reported = problem;
      const body = encoder.encode(JSON.stringify({ success: false, error: MESSAGES.internal, code: 'internal_error' }));
      return new Response(body, {
        status: 500,
        headers: { ...BASE_HEADERS, 'Content-Type': 'application/json; charset=utf-8' },
      });
    }
    const { cfg, identify, dailyCap } = running;
    const rc: RouteContext = {
      cfg,
      request,
      url: new URL(request.url),
      ipHash: '',
      now: cfg.now(),
      requestBytes: 0,
      storeWait: { ms: 0 },
      dailyCap,
    };
    let event: ProxyLogEntry['event'] = 'chat';
    let corsHeaders: Record<string, string> = {};
    let outcome: Outcome;
    try {
      const client = await identify(request, ctx);
      rc.ipHash = client.ipHash;
      rc.warning = client.warning;
      const segment = bookingSegment(rc.url.pathname);
      if (segment !== undefined) event = 'booking';
      if (request.method === 'OPTIONS') event = 'preflight';

      const origin = request.headers.get('Origin');
      // Same-origin booking GETs carry no Origin, so only chat insists on one.
      const originAllowed = origin === null ? segment !== undefined || cfg.allowMissingOrigin : cfg.allowedOrigins.has(origin);
      if (!originAllowed) outcome = failure(403, 'origin_not_allowed', MESSAGES.originNotAllowed);
      else {
        if (origin !== null) corsHeaders = { 'Access-Control-Allow-Origin': origin, ...ALLOWED_ORIGIN_HEADERS };
        if (event === 'preflight') outcome = preflight(rc, segment);
        else if (segment !== undefined) outcome = await bookingRoute(rc, segment);
        else outcome = await chatRoute(rc);
      }
    } catch {
      // A failing store or runtime: a generic answer, and the reason in the owner's log.
      outcome = failure(500, 'internal_error', MESSAGES.internal, { reason: 'internal' });
    }

    const headers: Record<string, string> = { ...BASE_HEADERS, ...corsHeaders, ...outcome.headers };
    // The last gate: whatever a route built, the key does not leave in it.
    const body = outcome.body === null ? null : encoder.encode(cfg.redact(decoder.decode(outcome.body)));
    if (body !== null) {
      headers['Content-Type'] = 'application/json; charset=utf-8';
      headers['Content-Length'] = String(body.byteLength);
    }
    const response = new Response(body, { status: outcome.status, headers });

    const log = cfg.log;
    if (log !== undefined) {
      const entry: ProxyLogEntry = {
        event,
        status: outcome.status,
        latencyMs: cfg.now() - rc.now,
        requestBytes: rc.requestBytes,
        responseBytes: body?.byteLength ?? 0,
        ipHash: rc.ipHash,
      };
      if (outcome.code !== undefined) entry.code = outcome.code;
      if (outcome.reason !== undefined) entry.reason = outcome.reason;
      if (outcome.upstreamStatus !== undefined) entry.upstreamStatus = outcome.upstreamStatus;
      if (outcome.replyTruncated) entry.replyTruncated = true;
      if (outcome.fromReplyCache) entry.fromReplyCache = true;
      if (rc.agentId !== undefined) entry.agentId = rc.agentId;
      if (rc.endpoint !== undefined) entry.endpoint = rc.endpoint;
      if (rc.warning !== undefined) entry.warning = rc.warning;
      safely(() => log(entry));
    }
    return response;
  };
}

function preflight(rc: RouteContext, segment: string | undefined): Outcome {
  const method = segment === undefined ? 'POST' : bookingMethod(rc, segment);
  if (method === undefined) return failure(404, 'not_found', MESSAGES.notFound);
  return {
    status: 204,
    body: null,
    headers: {
      'Access-Control-Allow-Methods': `${method}, OPTIONS`,
      'Access-Control-Allow-Headers': 'Content-Type',
      'Access-Control-Max-Age': '600',
    },
  };
}

async function chatRoute(rc: RouteContext): Promise<Outcome> {
  const { cfg, request } = rc;
  if (request.method !== 'POST')
    return failure(405, 'method_not_allowed', 'Send chat messages with POST.', {
      headers: { Allow: allowedMethods(rc.url.pathname) },
    });
  if (!isJsonContentType(request.headers)) return failure(415, 'unsupported_media_type', MESSAGES.unsupportedMediaType);

  // Per IP first and before reading the body: a flood is refused at the lowest cost.
  const perIp = await limitStep(rc, cfg.perIp, `ip:${rc.ipHash}`);
  if (perIp) return perIp;

  const body = await readBodyStep(rc);
  if (!body.ok) return body.outcome;
  const chat = parseChatRequest(rc, body.value);
  if (!chat.ok) return chat.outcome;
  const { agentId, message, conversationId } = chat.value;

  // A repeat of a message already answered, or being answered, costs nothing more: not a message of
  // the conversation's minute nor of anyone's day.
  const claim = await replyStep(rc, chat.value);
  if (!claim.ok) return claim.outcome;
  const holder = claim.value;
  const refused = await costSteps(rc, agentId, conversationId);
  if (refused) {
    await holder?.settle(refused);
    return refused;
  }

  const upstreamBody: ProxyChatRequest = { agentId, message };
  if (conversationId !== undefined) upstreamBody.conversationId = conversationId;
  const result = await callUpstream({
    fetch: cfg.fetch,
    url: `${cfg.baseUrl}/chat`,
    init: {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${cfg.apiKey}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify(upstreamBody),
    },
    timeoutMs: cfg.timeoutMs,
    maxBytes: cfg.maxUpstreamBytes,
    // A claimed message's reply is wanted even when the visitor has left the page: their next page asks
    // for it again, and gets it from the cache.
    clientSignal: holder === undefined ? request.signal : new AbortController().signal,
    redact: cfg.redact,
  });
  const outcome = chatOutcome(cfg, result, agentId, conversationId, rc.now);
  await holder?.settle(outcome);
  return outcome;
}

/** The limits a message that will cost credits counts toward; the refusal when one is reached. */
async function costSteps(rc: RouteContext, agentId: string, conversationId: string | undefined): Promise<Outcome | undefined> {
  if (conversationId !== undefined) {
    const perConversation = await limitStep(rc, rc.cfg.perConversation, `conv:${agentId}:${conversationId}`);
    if (perConversation) return perConversation;
  }
  // Last, so only requests that will really cost credits count toward the day.
  return spendStep(rc, `ip-day:${rc.ipHash}`);
}

/**
 * Text that shows nothing: whitespace, controls, format characters (zero-width, BOM, bidi marks) and
 * the other default-ignorables (variation selectors, Hangul fillers, tags), and the Braille blank.
 * Such a message is as empty as "" and would cost credits for nothing.
 */
const INVISIBLE = /^[\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]*$/u;

/** The browser's request, checked field by field; unknown fields are dropped, not forwarded. */
function parseChatRequest(rc: RouteContext, bytes: Uint8Array): Step<ProxyChatRequest> {
  const parsed = parseJson(bytes);
  if (!parsed.ok) return { ok: false, outcome: invalidJson(parsed.why) };
  const value = parsed.value;
  if (!isRecord(value))
    return {
      ok: false,
      outcome: failure(400, 'invalid_request', 'The body must be a JSON object with agentId and message.'),
    };
  const agent = agentStep(rc, value.agentId);
  if (!agent.ok) return agent;
  const { message, conversationId, messageId } = value;
  if (typeof message !== 'string') return { ok: false, outcome: failure(400, 'invalid_request', 'message must be a string.') };
  if (INVISIBLE.test(message)) return { ok: false, outcome: failure(400, 'message_empty', 'Please type a message.') };
  const max = rc.cfg.maxMessageLength;
  if (message.length > max)
    return {
      ok: false,
      outcome: failure(400, 'message_too_long', `The message is too long: at most ${max} characters.`),
    };
  // JSON has no undefined, so null also means "no conversation yet".
  if (conversationId !== undefined && conversationId !== null && !isSafeConversationId(conversationId))
    return {
      ok: false,
      outcome: failure(400, 'invalid_request', "conversationId must be 1 to 128 letters, digits, '.', '_', ':' or '-'."),
    };
  if (messageId !== undefined && messageId !== null && !isSafeMessageId(messageId))
    return {
      ok: false,
      outcome: failure(400, 'invalid_request', "messageId must be 16 to 64 letters, digits, '_' or '-'."),
    };
  const request: ProxyChatRequest = { agentId: agent.value, message };
  if (typeof conversationId === 'string') request.conversationId = conversationId;
  if (typeof messageId === 'string') request.messageId = messageId;
  return { ok: true, value: request };
}

/** Maps every upstream answer to the proxy's contract; the upstream's own text and headers stay here. */
function chatOutcome(
  cfg: ResolvedProxyOptions,
  result: UpstreamResult,
  agentId: string,
  requestConversationId: string | undefined,
  now: number,
): Outcome {
  if (result.kind === 'redirect') return upstreamFailure('upstream_redirect', result.status);
  if (result.kind === 'too_large') return upstreamFailure('upstream_too_large', result.status);
  if (result.kind !== 'answered') return unanswered(result.kind);
  const upstreamStatus = result.status;
  const generic = (reason: ProxyLogReason): Outcome => upstreamFailure(reason, upstreamStatus);

  if (upstreamStatus >= 200 && upstreamStatus < 300) {
    if (result.json === undefined) return generic('upstream_invalid_response');
    const { browser, credits, truncated } = mapChatReply(result.json.value, cfg.replyLimits);
    const onCredits = cfg.onCredits;
    if (credits !== undefined && onCredits !== undefined) {
      const conversationId = browser?.conversationId ?? requestConversationId;
      safely(() => onCredits(credits, conversationId === undefined ? { agentId } : { agentId, conversationId }));
    }
    const success = isRecord(result.json.value) ? result.json.value.success : undefined;
    if (success === false) return generic('upstream_invalid_response');
    if (browser === undefined) return generic('upstream_no_reply');
    return jsonOutcome(200, browser, truncated ? { upstreamStatus, replyTruncated: true } : { upstreamStatus });
  }
  switch (upstreamStatus) {
    case 400:
      return failure(400, 'invalid_request', MESSAGES.upstreamRejected, { reason: 'upstream_rejected', upstreamStatus });
    case 401:
    case 403:
      // The visitor learns nothing about keys; the owner's log says what to fix.
      return generic('upstream_auth');
    case 402:
      return failure(402, 'insufficient_credits', MESSAGES.insufficientCredits, {
        reason: 'upstream_insufficient_credits',
        upstreamStatus,
      });
    case 404:
      // The agent id is pinned by the owner, so a 404 is a configuration problem, not the visitor's.
      return generic('upstream_not_found');
    case 429: {
      const retryAfter = upstreamRetryAfter(result.headers, now);
      return failure(429, 'rate_limited', MESSAGES.rateLimited, {
        retryAfter,
        headers: { 'Retry-After': String(retryAfter) },
        reason: 'upstream_rate_limited',
        upstreamStatus,
      });
    }
    default:
      return generic(upstreamStatus >= 500 ? 'upstream_server_error' : 'upstream_status');
  }
}
