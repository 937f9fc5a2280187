// Optional pass-through of the public booking API for sites whose CSP allows only 'self'.
// A request is a booking call when its path ENDS with /booking/public/<endpoint>, so it works
// wherever the owner mounts the handler (e.g. /api/agent-chat/booking/public/slots).
import { parseJson, isRecord } from './body';
import {
  failure,
  invalidJson,
  isJsonContentType,
  MESSAGES,
  unanswered,
  upstreamFailure,
  upstreamRetryAfter,
  type Outcome,
} from './outcome';
import { agentStep, limitStep, readBodyStep, type RouteContext } from './route-context';
import { callUpstream, type UpstreamResult } from './upstream';

const BOOKING_PATH = /\/booking\/public\/([^/]+)\/?$/;

/** The six public endpoints (api-spec §4 Booking) and the one method each accepts. */
const BOOKING_METHODS: Readonly<Record<string, 'GET' | 'POST'>> = {
  config: 'GET',
  dates: 'GET',
  slots: 'GET',
  lookup: 'GET',
  create: 'POST',
  cancel: 'POST',
};

/** The last path segment when the path is a booking call, else undefined (a chat call). */
export function bookingSegment(pathname: string): string | undefined {
  return BOOKING_PATH.exec(pathname)?.[1];
}

/** The `Allow` value for a path: what the handler serves there, whether or not forwarding is on. */
export function allowedMethods(pathname: string): string {
  const segment = bookingSegment(pathname);
  if (segment === undefined) return 'POST, OPTIONS';
  return Object.hasOwn(BOOKING_METHODS, segment) ? `${BOOKING_METHODS[segment]}, OPTIONS` : 'OPTIONS';
}

/** The method of a known endpoint when forwarding is on; undefined means 404. */
export function bookingMethod(rc: RouteContext, segment: string): 'GET' | 'POST' | undefined {
  return rc.cfg.forwardBooking && Object.hasOwn(BOOKING_METHODS, segment) ? BOOKING_METHODS[segment] : undefined;
}

export async function bookingRoute(rc: RouteContext, segment: string): Promise<Outcome> {
  const { cfg, request, url } = rc;
  const method = bookingMethod(rc, segment);
  if (method === undefined) return failure(404, 'not_found', MESSAGES.notFound);
  rc.endpoint = segment;
  if (request.method !== method)
    return failure(405, 'method_not_allowed', `Use ${method} for this booking call.`, {
      headers: { Allow: allowedMethods(url.pathname) },
    });
  // URLSearchParams.get takes the first of repeated names while the service may take the last:
  // the agent we check must be the agent it serves, so a name that appears twice is refused.
  const names = [...url.searchParams.keys()];
  if (new Set(names).size !== names.length) return failure(400, 'invalid_request', 'Each query parameter may appear only once.');

  // Booking is free but still costs the service's rate limit, which all visitors share through us.
  const limited = await limitStep(rc, cfg.perIpBooking, `booking-ip:${rc.ipHash}`);
  if (limited) return limited;

  let body: Uint8Array<ArrayBuffer> | undefined;
  let agentId: unknown = url.searchParams.get('agentId') ?? undefined;
  if (method === 'POST') {
    if (!isJsonContentType(request.headers)) return failure(415, 'unsupported_media_type', MESSAGES.unsupportedMediaType);
    const read = await readBodyStep(rc);
    if (!read.ok) return read.outcome;
    const parsed = parseJson(read.value);
    if (!parsed.ok) return invalidJson(parsed.why);
    if (!isRecord(parsed.value)) return invalidJson('invalid');
    body = read.value;
    agentId = parsed.value.agentId;
  }
  const agent = agentStep(rc, agentId);
  if (!agent.ok) return agent.outcome;

  const result = await callUpstream({
    fetch: cfg.fetch,
    // A POST carries its parameters (and its agentId) in the body; a query beside it is not forwarded.
    url: `${cfg.baseUrl}/booking/public/${segment}${method === 'GET' ? url.search : ''}`,
    init: {
      method,
      // Deliberately no Authorization: these endpoints are public and the key stays out of them.
      headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body,
    },
    timeoutMs: cfg.timeoutMs,
    maxBytes: cfg.maxUpstreamBytes,
    clientSignal: request.signal,
    redact: cfg.redact,
  });
  return passThrough(result, rc.now);
}

/** Status and JSON body as the service sent them; of its headers only the (JSON) content type survives. */
function passThrough(result: UpstreamResult, now: number): Outcome {
  if (result.kind === 'redirect') return upstreamFailure('upstream_redirect', result.status);
  if (result.kind === 'too_large') return upstreamFailure('upstream_too_large', result.status);
  if (result.kind !== 'answered') return unanswered(result.kind);
  if (result.json === undefined) return upstreamFailure('upstream_invalid_response', result.status);
  const outcome: Outcome = { status: result.status, body: result.bytes, upstreamStatus: result.status };
  // Our own Retry-After, computed from the service's reset time; its headers are not copied.
  if (result.status === 429) outcome.headers = { 'Retry-After': String(upstreamRetryAfter(result.headers, now)) };
  return outcome;
}
