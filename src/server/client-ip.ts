// Who is calling, for rate limits and log counts, without keeping anyone's address.

/**
 * The client address. With `trustProxy` 0, X-Forwarded-For is ignored (anyone can send one);
 * with n trusted proxies in front, the n-th entry from the right is the one the outermost proxy
 * saw, and entries further left are the client's own claims.
 */
export function clientIp(headers: Headers, socketIp: string | undefined, trustProxy: number): string | undefined {
  if (trustProxy > 0) {
    const hops = (headers.get('X-Forwarded-For') ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter((hop) => hop !== '');
    const hop = hops[Math.max(0, hops.length - trustProxy)];
    if (hop !== undefined) return hop;
  }
  return socketIp;
}

/** Addresses whose hash is kept; beyond this the cache starts over (hashing again is only slower). */
const IP_HASH_CACHE_SIZE = 10_000;

/**
 * Truncated SHA-256 of salt and address: stable within a process, meaningless outside it.
 * Cached per address because crypto.subtle costs more than the rest of a request's checks.
 */
export function createIpHasher(salt: string): (ip: string | undefined) => Promise<string> {
  const cache = new Map<string, string>();
  return async (ip) => {
    const key = ip ?? 'unknown';
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${salt}\u0000${key}`)));
    let hex = '';
    for (let i = 0; i < 8; i++) hex += (digest[i] ?? 0).toString(16).padStart(2, '0');
    if (cache.size >= IP_HASH_CACHE_SIZE) cache.clear();
    cache.set(key, hex);
    return hex;
  };
}
