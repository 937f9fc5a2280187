// Per-request state shared by the chat and booking routes, and the steps both take.
import type { ProxyWarning, ResolvedProxyOptions } from './options';
import { declaresTooLarge, readBounded } from '../core/bounded-read';
import { StoreFullError, utcDay, type CounterKind, type StoreWait, type WindowLimit } from './rate-limit';
import { failure, limitFailure, MESSAGES, unanswered, type Outcome } from './outcome';

export interface RouteContext {
  cfg: ResolvedProxyOptions;
  request: Request;
  url: URL;
  ipHash: string;
  /** Clock reading at arrival; every window in this request is measured from it. */
  now: number;
  /** Filled in as the request is understood, for the log entry. */
  requestBytes: number;
  agentId?: string;
  endpoint?: string;
  warning?: ProxyWarning;
  /** This request's wait on the store so far, shared by its hits (the store's time budget is per request). */
  storeWait: StoreWait;
  /** The proxy instance's memory of a daily cap already reached, shared by its requests. */
  dailyCap: DailyCapLatch;
}

/**
 * Once the daily cap answers "over", every request of that UTC day is refused without touching the
 * store: no store call, and no per-visitor day counter made for a request that could not be served,
 * so those counters are bounded per day by the cap itself (plus requests in flight).
 */
export interface DailyCapLatch {
  /** Epoch ms of the UTC midnight that ends the day the cap was reached; 0 when it was not. */
  reachedUntil: number;
}

export type Step<T> = { ok: true; value: T } | { ok: false; outcome: Outcome };

/** Counts one hit on `key` under `rule` (when the rule is on) and returns the 429 when over. */
export async function limitStep(
  rc: RouteContext,
  rule: WindowLimit | undefined,
  key: string,
  kind: CounterKind = 'rate',
): Promise<Outcome | undefined> {
  if (rule === undefined) return undefined;
  const code = kind === 'budget' ? 'daily_cap_reached' : 'rate_limited';
  let hit;
  try {
    hit = await rc.cfg.store.hit(key, rule.windowMs, rc.now, { kind, wait: rc.storeWait });
  } catch (error) {
    if (!(error instanceof StoreFullError)) throw error;
    // A spend bound that cannot be counted is not a free pass: refused until the window ends.
    rc.warning = 'store_full';
    return limitFailure(code, { limit: rule.limit, resetAt: rc.now + rule.windowMs }, rc.now);
  }
  // The store may be the owner's own: an answer that is not a count is a failure, not a free pass.
  if (!Number.isSafeInteger(hit.count) || hit.count < 1 || !Number.isFinite(hit.resetAt))
    throw new TypeError('The rate-limit store answered without a count.');
  if (hit.warning !== undefined) rc.warning = hit.warning;
  return hit.count > rule.limit ? limitFailure(code, { limit: rule.limit, resetAt: hit.resetAt }, rc.now) : undefined;
}

/** A limit per UTC day: `key` gets today's date appended and its window ends at the next UTC midnight. */
export function dailyStep(rc: RouteContext, limit: number | undefined, key: string): Promise<Outcome | undefined> {
  if (limit === undefined) return Promise.resolve(undefined);
  const { day, msUntilMidnight } = utcDay(rc.now);
  return limitStep(rc, { limit, windowMs: msUntilMidnight }, `${key}:${day}`, 'budget');
}

/**
 * The two spend bounds of a chat message: the visitor's day, then the proxy's day (so a visitor over
 * their own budget does not use up everyone's). Refused at once when the cap was already reached today.
 */
export async function spendStep(rc: RouteContext, visitorKey: string): Promise<Outcome | undefined> {
  const { perIpDaily, dailyCap } = rc.cfg;
  const latch = rc.dailyCap;
  if (dailyCap !== undefined && rc.now < latch.reachedUntil)
    return limitFailure('daily_cap_reached', { limit: dailyCap, resetAt: latch.reachedUntil }, rc.now);
  const visitorDay = await dailyStep(rc, perIpDaily, visitorKey);
  if (visitorDay) return visitorDay;
  const capped = await dailyStep(rc, dailyCap, 'daily');
  if (capped !== undefined && rc.warning !== 'store_full') latch.reachedUntil = rc.now + utcDay(rc.now).msUntilMidnight;
  return capped;
}

/** The request body: at most maxBodyBytes whatever Content-Length claims, all of it within bodyTimeoutMs. */
export async function readBodyStep(rc: RouteContext): Promise<Step<Uint8Array<ArrayBuffer>>> {
  const limit = rc.cfg.maxBodyBytes;
  const tooLarge: Step<never> = { ok: false, outcome: failure(413, 'body_too_large', MESSAGES.bodyTooLarge) };
  if (declaresTooLarge(rc.request.headers, limit)) return tooLarge;
  try {
    const body = await readBounded(rc.request.body, limit, rc.cfg.bodyTimeoutMs);
    rc.requestBytes = body.ok ? body.bytes.byteLength : body.bytesRead;
    if (body.ok) return { ok: true, value: body.bytes };
    if (body.why === 'too_large') return tooLarge;
    return {
      ok: false,
      outcome: failure(408, 'request_timeout', MESSAGES.requestTimeout, {
        reason: 'client_slow',
        headers: { Connection: 'close' },
      }),
    };
  } catch {
    // The body stream only fails when the client goes away mid-upload.
    return { ok: false, outcome: unanswered('client_closed') };
  }
}

/** Only configured agents are served; anything else a visitor sends is refused, never logged. */
export function agentStep(rc: RouteContext, agentId: unknown): Step<string> {
  if (typeof agentId !== 'string' || agentId.trim() === '')
    return { ok: false, outcome: failure(400, 'invalid_request', 'agentId must be a non-empty string.') };
  if (!rc.cfg.agentIds.has(agentId)) return { ok: false, outcome: failure(403, 'agent_not_allowed', MESSAGES.agentNotAllowed) };
  rc.agentId = agentId;
  return { ok: true, value: agentId };
}
