// The rate-limit store shared by several instances: one Lua script per hit (atomic, so counts are
// exact under concurrency across instances), a TTL on every key, and a bounded wait: when Redis is
// slow or down, this instance's memory counts for a while and the owner's log hears about it.
// Structural client types only: the `redis` package is the owner's, never imported or bundled here.
import { createMemoryStore, type HitOptions, type RateLimitHit, type RateLimitStore } from './rate-limit';
import type { ReplyCache, ReplyClaim } from './reply-cache';

/** The one method used of a connected node-redis v5 or v6 client (`createClient()` from `redis`). */
export interface NodeRedisScripting {
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** The same for ioredis (`new Redis()`). */
export interface IoRedisScripting {
  evalsha(sha1: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
}

export interface RedisStoreOptions {
  /** A connected client: node-redis v5 or v6, or ioredis. Give it an 'error' listener, as its docs say. */
  client: NodeRedisScripting | IoRedisScripting;
  /** Put before every key, so one Redis can serve several sites. Default `agent-widget:rl:`. */
  prefix?: string;
  /**
   * Longest wait for Redis per request, in ms, across all the hits of that request (a chat message
   * makes up to four); once spent, this instance's memory counts. Default 150.
   */
  timeoutMs?: number;
  /** After a failure, how long hits skip Redis before trying it again, in ms. Default 5000. */
  retryAfterMs?: number;
  /** Receives what went wrong (your diagnostics; never sent to a visitor), at most once a minute. */
  onError?: (error: unknown) => void;
}

// INCR, then a TTL whenever the key has none: set on a window's first hit, and repaired on any key
// left without one, so no key outlives its window. Returns the count and the ms left in the window.
const SCRIPT = `local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  ttl = tonumber(ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return { count, ttl }`;

// The reply cache (see reply-cache.ts): a key holds '' while its message is being asked for, then the
// answer. CLAIM returns { 1, '' } when this request claimed it, else { 0, what the key holds }.
const CLAIM_SCRIPT = `local kept = redis.call('GET', KEYS[1])
if kept then return { 0, kept } end
redis.call('SET', KEYS[1], '', 'PX', ARGV[1])
return { 1, '' }`;
const SAVE_SCRIPT = `redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;
// Only a claim is given up: an answer kept meanwhile stays.
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == '' then redis.call('DEL', KEYS[1]) end
return 1`;

const WARN_INTERVAL_MS = 60_000;

class StoreTimeout extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms.`);
  }
}

/** Redis answered, but too slowly for the request's time budget (timeoutMs over all its hits). */
class StoreSlow extends Error {
  constructor(ms: number) {
    super(`Redis answered, but one request's hits together took longer than ${ms} ms.`);
  }
}

/** The last count seen per key, to notice a count that does not move (kept for this many keys). */
const SEEN_KEYS = 10_000;

async function sha1Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.includes('NOSCRIPT');
}

/** Runs `script` on one key through whichever client this is: EVALSHA, and EVAL once when Redis lacks it. */
function scriptRunner(client: RedisStoreOptions['client'], script: string): (key: string, ...args: string[]) => Promise<unknown> {
  let sha: Promise<string> | undefined;
  const run =
    'evalSha' in client
      ? (useSha: string | undefined, key: string, args: string[]) =>
          useSha === undefined
            ? client.eval(script, { keys: [key], arguments: args })
            : client.evalSha(useSha, { keys: [key], arguments: args })
      : (useSha: string | undefined, key: string, args: string[]) =>
          useSha === undefined ? client.eval(script, 1, key, ...args) : client.evalsha(useSha, 1, key, ...args);
  return async (key, ...args) => {
    sha ??= sha1Hex(script);
    try {
      return await run(await sha, key, args);
    } catch (error) {
      // EVAL also puts the script in Redis's cache, so EVALSHA works again from the next call.
      if (isNoScript(error)) return run(undefined, key, args);
      throw error;
    }
  };
}

/** CLAIM_SCRIPT's answer; anything else is a failure. */
function parseClaim(reply: unknown): ReplyClaim {
  if (Array.isArray(reply) && reply.length === 2) {
    const [claimed, kept] = reply.map((part: unknown) => (part instanceof Uint8Array ? new TextDecoder().decode(part) : part));
    if (Number(claimed) === 1 && kept === '') return { state: 'claimed' };
    if (Number(claimed) === 0 && typeof kept === 'string') return kept === '' ? { state: 'pending' } : { state: 'answered', body: kept };
  }
  throw new TypeError('Redis answered the reply-cache script with something other than [claimed, kept].');
}

/**
 * `[count, msLeft]` as the script returns it; anything else is a failure, not a count. So is a
 * well-formed answer the script cannot give: a first hit (count 1) always has the whole window left.
 */
function parseReply(reply: unknown, window: number): { count: number; ttl: number } {
  if (Array.isArray(reply) && reply.length === 2) {
    const [count, ttl] = reply.map(Number);
    if (count !== undefined && ttl !== undefined && Number.isSafeInteger(count) && count >= 1 && Number.isSafeInteger(ttl) && ttl >= 0) {
      if (count === 1 && ttl !== window)
        throw new TypeError(`Redis answered a first hit with ${ttl} ms left of a ${window} ms window: not the rate-limit script's answer.`);
      return { count, ttl };
    }
  }
  throw new TypeError('Redis answered the rate-limit script with something other than [count, ttl].');
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StoreTimeout(ms)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function positive(value: number | undefined, fallback: number, option: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`createRedisStore: ${option} must be a positive number of ms.`);
  return value;
}

/**
 * A RateLimitStore in Redis, for several instances of the proxy. Every hit is one EVALSHA of a
 * script that increments the key and gives it a TTL, so counts are exact across instances and no
 * key outlives its window. When Redis errs, answers something that cannot be a count, or the
 * request's hits together take longer than `timeoutMs`, the hit (and every hit for `retryAfterMs`
 * after it) is counted in this instance's memory instead, and the log entry of the request gets
 * `warning: 'store_unavailable'` (or `'store_slow'`) at most once a minute.
 */
export function createRedisStore(options: RedisStoreOptions): RateLimitStore & ReplyCache {
  const { client, onError } = options;
  if (typeof client !== 'object' || client === null || !('eval' in client))
    throw new TypeError('createRedisStore: client must be a connected node-redis or ioredis client.');
  const prefix = options.prefix ?? 'agent-widget:rl:';
  const timeoutMs = positive(options.timeoutMs, 150, 'timeoutMs');
  const retryAfterMs = positive(options.retryAfterMs, 5000, 'retryAfterMs');
  const run = scriptRunner(client, SCRIPT);
  const claim = scriptRunner(client, CLAIM_SCRIPT);
  const save = scriptRunner(client, SAVE_SCRIPT);
  const release = scriptRunner(client, RELEASE_SCRIPT);
  const fallback = createMemoryStore();
  // Oldest first, so the first key is the one to forget when full.
  const lastSeen = new Map<string, RateLimitHit>();
  let redisAgainAt = 0;
  let warnAgainAt = 0;
  let problem: 'store_unavailable' | 'store_slow' = 'store_unavailable';

  const fallBack = async (key: string, windowMs: number, now: number, hitOptions: HitOptions | undefined): Promise<RateLimitHit> => {
    const hit = await fallback.hit(key, windowMs, now, hitOptions);
    if (now < warnAgainAt) return hit;
    warnAgainAt = now + WARN_INTERVAL_MS;
    return { ...hit, warning: problem };
  };

  /**
   * INCR never gives one window the same count twice: a count that does not move is not counting.
   * Only well inside a window, as a request's clock reading may predate its hit by its upload.
   */
  const remember = (key: string, hit: RateLimitHit, windowMs: number, now: number): void => {
    const last = lastSeen.get(key);
    if (last !== undefined && last.resetAt - now > windowMs / 2 && last.count === hit.count)
      throw new TypeError(`Redis answered count ${hit.count} twice for one key in one window: it is not counting.`);
    lastSeen.delete(key);
    if (lastSeen.size >= SEEN_KEYS) {
      const oldest = lastSeen.keys().next();
      if (oldest.done !== true) lastSeen.delete(oldest.value);
    }
    lastSeen.set(key, hit);
  };

  const replyPrefix = `${prefix}reply:`;
  /**
   * One call of the reply cache, within timeoutMs. A failure is thrown (the proxy then asks the service
   * as for any message) and, like a failed hit, makes the next retryAfterMs skip Redis.
   */
  const replyCall = async <T>(now: number, work: () => Promise<T>): Promise<T> => {
    if (now < redisAgainAt) throw new Error('Redis failed a moment ago: the reply cache is skipped for now.');
    try {
      return await withDeadline(work(), timeoutMs);
    } catch (error) {
      redisAgainAt = now + retryAfterMs;
      // Within the minute's one report: the next hit, which falls back to memory, puts it in the log entry.
      if (onError !== undefined && now >= warnAgainAt) {
        try {
          onError(error);
        } catch {
          // The owner's hook failing must not change the visitor's answer.
        }
      }
      throw error;
    }
  };

  return {
    async hit(key, windowMs, now, hitOptions) {
      if (now < redisAgainAt) return fallBack(key, windowMs, now, hitOptions);
      const window = Math.max(1, Math.ceil(windowMs));
      const wait = hitOptions?.wait;
      const waitedBefore = wait?.ms ?? 0;
      const started = performance.now();
      try {
        if (waitedBefore >= timeoutMs) throw new StoreSlow(timeoutMs);
        const reply = await withDeadline(run(prefix + key, String(window)), timeoutMs - waitedBefore).catch((error: unknown) => {
          throw error instanceof StoreTimeout && waitedBefore > 0 ? new StoreSlow(timeoutMs) : error;
        });
        const { count, ttl } = parseReply(reply, window);
        const hit = { count, resetAt: now + ttl };
        remember(key, hit, windowMs, now);
        return hit;
      } catch (error) {
        redisAgainAt = now + retryAfterMs;
        problem = error instanceof StoreSlow ? 'store_slow' : 'store_unavailable';
        if (onError !== undefined && now >= warnAgainAt) {
          try {
            onError(error);
          } catch {
            // The owner's hook failing must not change the visitor's answer.
          }
        }
        return fallBack(key, windowMs, now, hitOptions);
      } finally {
        if (wait !== undefined) wait.ms += performance.now() - started;
      }
    },
    async claimReply(key, pendingMs, now) {
      return parseClaim(await replyCall(now, () => claim(replyPrefix + key, String(Math.ceil(pendingMs)))));
    },
    async saveReply(key, body, ttlMs, now) {
      await replyCall(now, () => save(replyPrefix + key, body, String(Math.ceil(ttlMs))));
    },
    async releaseReply(key, now) {
      await replyCall(now, () => release(replyPrefix + key));
    },
  };
}
