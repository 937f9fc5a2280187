// The short-lived reply cache: a chat message the widget sends again with the same message id (the
// visitor moved to another page while its reply was on the way) is answered from here, so the service
// is asked, and paid, once. The first request claims the message's key; a repeat that finds the claim
// waits for the answer; an answer that is not a reply releases the claim, so a repeat asks again.

/** What a claim found: this request asks the service, another request is asking it, or its answer is kept. */
export type ReplyClaim = { state: 'claimed' } | { state: 'pending' } | { state: 'answered'; body: string };

/**
 * Where replies are kept between requests. The memory cache serves one instance; `createRedisStore`
 * gives a store that is also a ReplyCache, shared by every instance.
 */
export interface ReplyCache {
  /** Claims `key` for `pendingMs` for the request asking, unless another request holds it or its answer is kept. */
  claimReply(key: string, pendingMs: number, now: number): Promise<ReplyClaim>;
  /** Keeps `body`, the browser's answer, for `ttlMs` for the repeats of the message claimed as `key`. */
  saveReply(key: string, body: string, ttlMs: number, now: number): Promise<void>;
  /** Gives up the claim on `key` of a request whose answer is not kept (a failure), so that a repeat asks again. */
  releaseReply(key: string, now: number): Promise<void>;
}

/** Whether `store` (the owner's rate-limit store) keeps replies too, as the Redis store does. */
export function isReplyCache(store: object): store is ReplyCache {
  return 'claimReply' in store && 'saveReply' in store && 'releaseReply' in store;
}

/** Characters held by a memory cache unless told otherwise: 16 MB of UTF-16, some 250 replies of the longest kind. */
export const DEFAULT_MEMORY_REPLY_CHARS = 8 * 1024 * 1024;

export interface MemoryReplyCacheOptions {
  /** Characters (UTF-16 code units) of keys and answers held together; beyond it the oldest go. Default DEFAULT_MEMORY_REPLY_CHARS. */
  maxChars?: number;
}

/** What an entry costs beyond its key and answer, counted so that a flood of claims is bounded too. */
const ENTRY_OVERHEAD_CHARS = 64;
/** How often expired entries are swept, in ms. */
const SWEEP_INTERVAL_MS = 10_000;

interface Held {
  /** The answer; undefined while the claiming request waits for it. */
  body: string | undefined;
  expiresAt: number;
  chars: number;
}

/**
 * One instance's replies, oldest first in a Map, within `maxChars`: a new entry that does not fit
 * pushes out the oldest (a repeat of an evicted message asks the service again: bounded memory first).
 */
export function createMemoryReplyCache(options: MemoryReplyCacheOptions = {}): ReplyCache {
  const maxChars = options.maxChars ?? DEFAULT_MEMORY_REPLY_CHARS;
  const entries = new Map<string, Held>();
  let heldChars = 0;
  let nextSweepAt = 0;

  const forget = (key: string) => {
    const held = entries.get(key);
    if (held === undefined) return;
    entries.delete(key);
    heldChars -= held.chars;
  };
  const sweep = (now: number) => {
    if (now < nextSweepAt) return;
    nextSweepAt = now + SWEEP_INTERVAL_MS;
    for (const [key, held] of entries) if (held.expiresAt <= now) forget(key);
  };
  const hold = (key: string, body: string | undefined, expiresAt: number) => {
    forget(key);
    const chars = key.length + (body?.length ?? 0) + ENTRY_OVERHEAD_CHARS;
    // An answer larger than the whole cache is not kept at all.
    if (chars > maxChars) return;
    while (heldChars + chars > maxChars) {
      const oldest = entries.keys().next();
      if (oldest.done === true) break;
      forget(oldest.value);
    }
    entries.set(key, { body, expiresAt, chars });
    heldChars += chars;
  };

  return {
    async claimReply(key, pendingMs, now) {
      sweep(now);
      const held = entries.get(key);
      if (held !== undefined && held.expiresAt > now)
        return held.body === undefined ? { state: 'pending' } : { state: 'answered', body: held.body };
      hold(key, undefined, now + pendingMs);
      return { state: 'claimed' };
    },
    async saveReply(key, body, ttlMs, now) {
      hold(key, body, now + ttlMs);
    },
    async releaseReply(key) {
      if (entries.get(key)?.body === undefined) forget(key);
    },
  };
}
