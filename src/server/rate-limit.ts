// Fixed-window counters behind an async store, so a deployment with several instances can plug in
// a shared store (Redis, Durable Objects, KV) without touching the proxy.

export interface RateLimitHit {
  /** Hits in the current window, this one included. */
  count: number;
  /** Epoch milliseconds at which the window ends and the count starts again. */
  resetAt: number;
  /**
   * For the owner's log entry of this request. A store that fell back to another source of counts
   * sets `store_unavailable` (it failed) or `store_slow` (it answered, but the request's time budget
   * ran out), at most once per interval so a long outage is not one line per request.
   */
  warning?: 'store_unavailable' | 'store_slow';
}

/**
 * What a counter is for. `rate`: a short window per visitor or conversation; a store short of room
 * may forget one early, which only forgives that count. `budget`: a counter that bounds spend (the
 * daily cap, a visitor's day); a store must never forget one before its window ends.
 */
export type CounterKind = 'rate' | 'budget';

/** Time one request has spent waiting on the store so far: the store adds to it, so a budget of wait is per request. */
export interface StoreWait {
  ms: number;
}

export interface HitOptions {
  /** Default `rate`. */
  kind?: CounterKind;
  /** Shared by the hits of one request; see RedisStoreOptions.timeoutMs. */
  wait?: StoreWait;
}

export interface RateLimitStore {
  /** Counts one hit on `key`; a key whose window ended starts a new window of `windowMs` at `now`. */
  hit(key: string, windowMs: number, now: number, options?: HitOptions): Promise<RateLimitHit>;
}

/**
 * Thrown by the memory store when a new budget counter does not fit: the request is refused (the
 * store cannot promise the spend stays under its cap), never let through by forgetting another.
 */
export class StoreFullError extends Error {
  constructor(maxKeys: number) {
    super(`The rate-limit store holds ${maxKeys} budget counters already.`);
  }
}

export interface MemoryRateLimitStore extends RateLimitStore {
  /** Keys currently held, of both kinds (for monitoring and tests). */
  readonly size: number;
}

export interface MemoryStoreOptions {
  /** Ceiling on `rate` keys held; beyond it the oldest windows are dropped. Default 100 000. */
  maxKeys?: number;
  /** Ceiling on `budget` keys held; these are never dropped, so beyond it a new one is refused. Default 100 000. */
  maxBudgetKeys?: number;
  /** How often expired windows are swept, in ms. Default 10 000. */
  sweepIntervalMs?: number;
}

/** One Map of windows, kept oldest-window-first so the first key is the one to drop. */
class Windows {
  readonly entries = new Map<string, RateLimitHit>();

  sweep(now: number): void {
    for (const [key, entry] of this.entries) if (entry.resetAt <= now) this.entries.delete(key);
  }

  /** The current window of `key` counted once more, or undefined when it has none (or it ended). */
  count(key: string, now: number): RateLimitHit | undefined {
    const current = this.entries.get(key);
    if (current === undefined || current.resetAt <= now) return undefined;
    current.count += 1;
    return { count: current.count, resetAt: current.resetAt };
  }

  start(key: string, windowMs: number, now: number): RateLimitHit {
    // Re-insert so Map order stays oldest-window-first.
    this.entries.delete(key);
    const fresh = { count: 1, resetAt: now + windowMs };
    this.entries.set(key, fresh);
    return { count: fresh.count, resetAt: fresh.resetAt };
  }

  dropOldest(): void {
    const oldest = this.entries.keys().next();
    if (oldest.done !== true) this.entries.delete(oldest.value);
  }
}

/**
 * One process's counters. Expired windows are swept at most every `sweepIntervalMs`. `rate` and
 * `budget` counters are held apart, so a flood of new visitors (each a new `rate` key) can never push
 * a budget counter out: `maxKeys` bounds the first by dropping the window that started longest ago
 * (O(1), the Map's first key), `maxBudgetKeys` bounds the second by refusing a new one.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryRateLimitStore {
  const maxKeys = options.maxKeys ?? 100_000;
  const maxBudgetKeys = options.maxBudgetKeys ?? 100_000;
  const sweepIntervalMs = options.sweepIntervalMs ?? 10_000;
  const rate = new Windows();
  const budget = new Windows();
  let nextSweepAt = 0;

  return {
    get size() {
      return rate.entries.size + budget.entries.size;
    },
    async hit(key, windowMs, now, hitOptions) {
      if (now >= nextSweepAt) {
        rate.sweep(now);
        budget.sweep(now);
        nextSweepAt = now + sweepIntervalMs;
      }
      const isBudget = hitOptions?.kind === 'budget';
      const windows = isBudget ? budget : rate;
      const counted = windows.count(key, now);
      if (counted !== undefined) return counted;
      if (isBudget) {
        if (budget.entries.size >= maxBudgetKeys && !budget.entries.has(key)) throw new StoreFullError(maxBudgetKeys);
      } else if (rate.entries.size >= maxKeys && !rate.entries.has(key)) rate.dropOldest();
      return windows.start(key, windowMs, now);
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
