// Fixed-window rate limiting per API key, reported in the spec's X-RateLimit-* headers.
export interface RateLimitDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

export interface RateLimiter {
  hit(key: string, nowMs: number): RateLimitDecision;
}

export function createRateLimiter({ limit, windowMs }: { limit: number; windowMs: number }): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key, nowMs) {
      let window = windows.get(key);
      if (!window || nowMs >= window.start + windowMs) {
        window = { start: nowMs, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      return {
        allowed: window.count <= limit,
        headers: {
          'X-RateLimit-Limit': String(limit),
          'X-RateLimit-Remaining': String(Math.max(0, limit - window.count)),
          'X-RateLimit-Reset': String(Math.ceil((window.start + windowMs) / 1000)),
        },
      };
    },
  };
}
