// Who is calling, for rate limits and log counts, without keeping anyone's address.
import { createKeyedHasher } from './keyed-hash';

/** Reads the client's address from the request; null or undefined when it cannot be known. */
/** What the server adapter knows of the request beyond the Request itself. */
export interface ProxyContext {
  /** The client's address as the server saw it (socket address); see clientIp and trustProxy. */
  ip?: string;
}

export type ClientIpResolver = (request: Request, ctx: ProxyContext) => string | null | undefined;

/** The first (and normally only) address of a header a platform sets and overwrites on every request. */
const fromHeader =
  (...names: string[]): ClientIpResolver =>
  (request) => {
    for (const name of names) {
      const value = request.headers.get(name)?.split(',')[0]?.trim();
      if (value !== undefined && value !== '') return value;
    }
    return undefined;
  };

/**
 * Where each platform puts the visitor's address. Each header is only trustworthy when every request
 * really passes through that platform (which then overwrites whatever the visitor sent).
 */
export const CLIENT_IP_PRESETS = {
  /** The socket address the runtime adapter passed as ctx.ip (toNodeListener, Deno, Bun). */
  socket: (_request, ctx) => ctx.ip,
  /** Vercel (Next.js and Functions): x-real-ip, else x-vercel-forwarded-for. */
  vercel: fromHeader('x-real-ip', 'x-vercel-forwarded-for'),
  /** Cloudflare (Workers, or an origin reachable only through Cloudflare): cf-connecting-ip. */
  cloudflare: fromHeader('cf-connecting-ip'),
  /** Fly.io: fly-client-ip. */
  fly: fromHeader('fly-client-ip'),
  /** An nginx you configure with `proxy_set_header X-Real-IP $remote_addr;`. */
  'x-real-ip': fromHeader('x-real-ip'),
} satisfies Record<string, ClientIpResolver>;

export type ClientIpPreset = keyof typeof CLIENT_IP_PRESETS;

/**
 * The trustProxy rule. With 0, X-Forwarded-For is ignored (anyone can send one); with n trusted
 * proxies in front, the n-th entry from the right is the one the outermost proxy saw, and entries
 * further left are the client's own claims.
 */
export function forwardedFor(trustProxy: number): ClientIpResolver {
  return (request, ctx) => {
    if (trustProxy > 0) {
      const hops = (request.headers.get('X-Forwarded-For') ?? '')
        .split(',')
        .map((hop) => hop.trim())
        .filter((hop) => hop !== '');
      const hop = hops[Math.max(0, hops.length - trustProxy)];
      if (hop !== undefined) return hop;
    }
    return ctx.ip;
  };
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipv4(text: string): string | undefined {
  const match = IPV4.exec(text);
  if (match === null) return undefined;
  const parts = match.slice(1).map(Number);
  return parts.every((part) => part <= 255) ? parts.join('.') : undefined;
}

/** The eight 16-bit groups of an IPv6 address (with an optional dotted IPv4 tail), or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  let body = text;
  let tail: number[] = [];
  const lastColon = body.lastIndexOf(':');
  if (body.includes('.', lastColon)) {
    const v4 = ipv4(body.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
    tail = [(a << 8) | b, (c << 8) | d];
    const prefix = body.slice(0, lastColon + 1);
    body = prefix.endsWith('::') ? prefix : prefix.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const parse = (half: string | undefined): number[] | undefined => {
    if (half === undefined || half === '') return [];
    const groups: number[] = [];
    for (const group of half.split(':')) {
      if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined;
      groups.push(parseInt(group, 16));
    }
    return groups;
  };
  const head = parse(halves[0]);
  const rest = parse(halves[1]);
  if (head === undefined || rest === undefined) return undefined;
  const explicit = head.length + rest.length + tail.length;
  if (halves.length === 1) return explicit === 8 ? [...head, ...tail] : undefined;
  if (explicit > 7) return undefined;
  return [...head, ...new Array<number>(8 - explicit).fill(0), ...rest, ...tail];
}

/**
 * The identity limits count: an IPv4 address as is, an IPv6 address as its /64 (one subscriber's
 * network: a single host can use any of its 2^64 addresses), an IPv4-mapped IPv6 address as the
 * IPv4 address. Ports, brackets and zone ids are dropped. Undefined when it is not an IP address.
 */
export function addressIdentity(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let text = raw.trim();
  if (text.length > 64) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed?.[1] !== undefined) text = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.indexOf(':'));
  text = text.replace(/%.*$/, '');
  const v4 = ipv4(text);
  if (v4 !== undefined) return v4;
  const groups = ipv6Groups(text);
  if (groups === undefined) return undefined;
  // ::ffff:a.b.c.d is an IPv4 client on a dual-stack socket.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [, , , , , , hi = 0, lo = 0] = groups;
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** Addresses whose hash is kept; beyond this the cache starts over (hashing again is only slower). */
const HASH_CACHE_SIZE = 10_000;

/** The shared identity of requests whose address cannot be known: they share one per-IP budget. */
export const UNKNOWN_CLIENT = 'unknown';

export interface ClientIdentity {
  /** Keyed hash of the address identity, or UNKNOWN_CLIENT. */
  ipHash: string;
  /** Set on the first request of this instance whose address could not be known. */
  warning?: 'client_ip_unknown';
}

export function createClientIdentifier(
  resolve: ClientIpResolver,
  secret: string,
): (request: Request, ctx: ProxyContext) => Promise<ClientIdentity> {
  // 8 bytes: 16 hex characters in store keys and log entries.
  const hash = createKeyedHasher(secret, 'agent-widget/client-address/v1', 8);
  // By the address as received: a returning visitor costs neither parsing nor crypto.subtle, which
  // costs more than the rest of a request's checks.
  const cache = new Map<string, string>();
  let warned = false;
  return async (request, ctx) => {
    let raw: string | null | undefined;
    try {
      raw = resolve(request, ctx);
    } catch {
      // The owner's resolver failing is the same as it finding nothing.
    }
    const address = typeof raw === 'string' ? raw : undefined;
    const cached = address === undefined ? undefined : cache.get(address);
    if (cached !== undefined) return { ipHash: cached };
    const identity = addressIdentity(address);
    if (address !== undefined && identity !== undefined) {
      const ipHash = await hash(identity);
      // Only addresses as short as an address: the cache must not become a store for long strings.
      if (address.length <= 64) {
        if (cache.size >= HASH_CACHE_SIZE) cache.clear();
        cache.set(address, ipHash);
      }
      return { ipHash };
    }
    if (warned) return { ipHash: UNKNOWN_CLIENT };
    warned = true;
    return { ipHash: UNKNOWN_CLIENT, warning: 'client_ip_unknown' };
  };
}
