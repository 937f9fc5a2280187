// Strict-spec mode: the sandbox answers the way the spec allows but its normal mode does not, so tests
// show that nothing in the widget, proxy or server client depends on something only our sandbox sends.
// - errors carry no `code` and only the spec's statuses (400, 401, 402, 404, 429, 500): a taken slot is
//   a plain 400 with a message;
// - optional fields are left out and unknown fields are added;
// - the status after cancelling is a word the spec does not name;
// - /chat names its reply fields differently (still among those the proxy reads).
// Faults (in either mode) make one path answer like a broken gateway or with the wrong shape.
import { CANCELLED_STATUS } from '../core/spec-assumptions';

export interface SandboxFault {
  /** The service path, e.g. '/booking/public/slots' (without the sandbox's basePath). */
  path: string;
  /**
   * gateway: an HTML 502 page from a proxy in front of the service; shape: a 200 that is not the promised
   * shape; slow: the service's own answer, SLOW_FAULT_MS late (a reply the visitor may leave the page on).
   */
  kind: 'gateway' | 'shape' | 'slow';
  /** How many requests to that path fail before it answers normally again; default: every one. */
  times?: number;
}

type Handler = (request: Request) => Promise<Response>;

const SPEC_STATUSES = [400, 401, 402, 404, 429, 500];
/** Fields the widget and clients treat as optional, left out wherever they appear. */
const OPTIONAL = new Set([
  'booking_description',
  'min_notice_hours',
  'cancellation_notice_hours',
  'slotCount',
  'end_time',
  'duration_label',
  'display_date',
  'display_time',
  'placeholder',
  'type',
]);
/** Records of the caller's own keys: nothing is added to or removed from these. */
const RECORDS = new Set(['form_data', 'byFeature', 'byAgent', 'features']);
/** What strict mode answers after a cancel instead of the word we assume. */
export const STRICT_CANCELLED_STATUS = 'canceled_by_user';
/** /chat field names strict mode uses instead of the sandbox's own. */
const CHAT_RENAMES: Record<string, string> = { reply: 'answer', conversationId: 'conversation_id' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function reshape(value: unknown, top: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => reshape(item, false));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (OPTIONAL.has(key)) continue;
    // A booking's own id, and the echo of the month, zone and duration on /dates and /slots, are optional too.
    if (key === 'id' && 'booking_code' in value) continue;
    if (top && ('dates' in value || 'slots' in value) && ['month', 'timezone', 'duration', 'date'].includes(key)) continue;
    if (key === 'status' && v === CANCELLED_STATUS && 'booking_code' in value) out[key] = STRICT_CANCELLED_STATUS;
    else out[key] = RECORDS.has(key) ? v : reshape(v, false);
  }
  out.x_unknown = top ? { served: 'strict-spec sandbox', version: 2 } : 1;
  return out;
}

function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}

/** Wraps the sandbox's handler so it answers in strict-spec mode. */
export function strictSpec(handle: Handler): Handler {
  return async (request) => {
    const response = await handle(request);
    const body: unknown = await response.json();
    if (!isObject(body)) return json(body, response.status);
    if (body.success === false) {
      // A status the spec does not show becomes the spec's nearest: 500 for a server's failure, else 400.
      const nearestShown = response.status >= 500 ? 500 : 400;
      const status = SPEC_STATUSES.includes(response.status) ? response.status : nearestShown;
      const res = json({ success: false, error: body.error }, status);
      for (const name of ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
        const value = response.headers.get(name);
        if (value !== null) res.headers.set(name, value);
      }
      return res;
    }
    const chat = new URL(request.url).pathname.endsWith('/chat');
    const renamed = chat ? Object.fromEntries(Object.entries(body).map(([k, v]) => [CHAT_RENAMES[k] ?? k, v])) : body;
    const res = json(reshape(renamed, true), response.status);
    for (const [name, value] of response.headers) if (name.toLowerCase().startsWith('x-ratelimit')) res.headers.set(name, value);
    return res;
  };
}

/** How late a `slow` fault answers. */
export const SLOW_FAULT_MS = 3_000;

const GATEWAY_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr><p>nginx</p></body></html>';

/** Wraps a handler so the faulty paths fail as configured; `basePath` is stripped before matching. */
export function withFaults(handle: Handler, faults: readonly SandboxFault[], basePath: string): Handler {
  const left = faults.map((fault) => ({ ...fault, left: fault.times ?? Infinity }));
  return async (request) => {
    const path = new URL(request.url).pathname.slice(basePath.length);
    const fault = left.find((f) => f.path === path && f.left > 0);
    if (!fault) return handle(request);
    fault.left--;
    if (fault.kind === 'slow') {
      await new Promise((resolve) => setTimeout(resolve, SLOW_FAULT_MS));
      return handle(request);
    }
    if (fault.kind === 'gateway')
      return new Response(GATEWAY_PAGE, { status: 502, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
    return json({ success: true, data: 'not the shape the spec promises' }, 200);
  };
}

const isFaultKind = (kind: string): kind is SandboxFault['kind'] => kind === 'gateway' || kind === 'shape' || kind === 'slow';

/** Faults written as `path:kind[:times]`, comma-separated (AGENT_SANDBOX_FAULTS); throws on a malformed one. */
export function parseFaults(text: string): SandboxFault[] {
  return text
    .split(',')
    .filter((item) => item.trim() !== '')
    .map((item) => {
      const [path = '', kind = '', times] = item.trim().split(':');
      if (!path.startsWith('/') || !isFaultKind(kind) || (times !== undefined && !/^[1-9]\d*$/.test(times)))
        throw new Error(`A fault is written path:gateway|shape|slow[:times], e.g. /booking/public/slots:gateway:1; got "${item}".`);
      return times === undefined ? { path, kind } : { path, kind, times: Number(times) };
    });
}
