// Fixed-window counters behind an async store, so a deployment with several instances can plug in
// a shared store (Redis, Durable Objects, KV) without touching the proxy.

export interface RateLimitHit {
  /** Hits in the current window, this one included. */
  count: number;
  /** Epoch milliseconds at which the window ends and the count starts again. */
  resetAt: number;
  /**
   * For the owner's log entry of this request. A store that fell back to another source of counts
   * sets `store_unavailable`, at most once per interval so a long outage is not one line per request.
   */
  warning?: 'store_unavailable';
}

export interface RateLimitStore {
  /** Counts one hit on `key`; a key whose window ended starts a new window of `windowMs` at `now`. */
  hit(key: string, windowMs: number, now: number): Promise<RateLimitHit>;
}

export interface MemoryRateLimitStore extends RateLimitStore {
  /** Keys currently held (for monitoring and tests). */
  readonly size: number;
}

export interface MemoryStoreOptions {
  /** Hard ceiling on keys held; beyond it the oldest windows are dropped. Default 100 000. */
  maxKeys?: number;
  /** How often expired windows are swept, in ms. Default 10 000. */
  sweepIntervalMs?: number;
}

/**
 * One process's counters. Expired windows are swept at most every `sweepIntervalMs`, and `maxKeys`
 * bounds memory even under a flood of distinct keys (dropping a window only forgives its count).
 * Every hit is O(1): a full store drops the Map's first key, the window that started longest ago,
 * instead of scanning for expired ones (which made each new key cost a scan of all keys).
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryRateLimitStore {
  const maxKeys = options.maxKeys ?? 100_000;
  const sweepIntervalMs = options.sweepIntervalMs ?? 10_000;
  const windows = new Map<string, RateLimitHit>();
  let nextSweepAt = 0;

  const sweep = (now: number): void => {
    for (const [key, entry] of windows) if (entry.resetAt <= now) windows.delete(key);
    nextSweepAt = now + sweepIntervalMs;
  };

  return {
    get size() {
      return windows.size;
    },
    async hit(key, windowMs, now) {
      if (now >= nextSweepAt) sweep(now);
      const current = windows.get(key);
      if (current !== undefined && current.resetAt > now) {
        current.count += 1;
        return { count: current.count, resetAt: current.resetAt };
      }
      // Re-insert so Map order stays oldest-window-first for the eviction below.
      windows.delete(key);
      if (windows.size >= maxKeys) {
        const oldest = windows.keys().next();
        if (oldest.done !== true) windows.delete(oldest.value);
      }
      const fresh = { count: 1, resetAt: now + windowMs };
      windows.set(key, fresh);
      return { count: fresh.count, resetAt: fresh.resetAt };
    },
  };
}

export interface WindowLimit {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
}

export interface LimitExceeded {
  limit: number;
  resetAt: number;
}

const DAY_MS = 86_400_000;

/** The last day formatted: every request asks for it, at least twice, and it changes once a day. */
let lastDay = { midnight: Number.NaN, day: '' };

/** The daily cap's window: today's UTC date as the key suffix, ending at the next UTC midnight. */
export function utcDay(now: number): { day: string; msUntilMidnight: number } {
  const midnight = Math.floor(now / DAY_MS) * DAY_MS;
  if (lastDay.midnight !== midnight) lastDay = { midnight, day: new Date(midnight).toISOString().slice(0, 10) };
  return { day: lastDay.day, msUntilMidnight: midnight + DAY_MS - now };
}
