// One upstream exchange under one deadline: connect, status, and the whole body, bounded in size,
// aborted when the deadline passes or the visitor goes away.
import { readBounded } from '../core/bounded-read';
import { decodeUtf8 } from './body';
import { redactJson, type Redact } from './redact';

export type UpstreamResult =
  | {
      kind: 'answered';
      status: number;
      headers: Headers;
      /** Parsed JSON with the key redacted, or undefined when the body was empty or not JSON. */
      json: { value: unknown } | undefined;
      /** That JSON serialized again, for pass-through routes (empty when there is none). */
      bytes: Uint8Array<ArrayBuffer>;
    }
  /** A 3xx (or an opaque redirect): never followed, so the key and the message go nowhere else. */
  | { kind: 'redirect'; status: number }
  /** The body passed maxBytes; reading stopped there. */
  | { kind: 'too_large'; status: number }
  | { kind: 'timeout' }
  | { kind: 'client_closed' }
  | { kind: 'network' };

export interface UpstreamCall {
  fetch: typeof fetch;
  url: string;
  init: { method: string; headers: Record<string, string>; body?: Uint8Array<ArrayBuffer> | string };
  timeoutMs: number;
  /** Bytes of the answer read at most: larger answers are refused, not buffered. */
  maxBytes: number;
  /** Fires when the visitor disconnects. */
  clientSignal: AbortSignal;
  /** Applied to the body before anything reads it. */
  redact: Redact;
}

const encoder = new TextEncoder();

/** 3xx as Node, Deno, Bun and workerd return it with redirect: 'manual'; status 0 is a browser's opaque redirect. */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

export async function callUpstream(call: UpstreamCall): Promise<UpstreamResult> {
  // One controller fed by the deadline and the client signal (cheaper than AbortSignal.any per request).
  const controller = new AbortController();
  let stoppedBy: 'timeout' | 'client_closed' | undefined;
  let rejectAborted: (reason: unknown) => void = () => undefined;
  // Raced against each step so an upstream (or fetch) that ignores its signal cannot hold us.
  const aborted = new Promise<never>((_, reject) => {
    rejectAborted = reject;
  });
  aborted.catch(() => undefined);
  const stop = (by: 'timeout' | 'client_closed'): void => {
    if (stoppedBy !== undefined) return;
    stoppedBy = by;
    controller.abort(new Error(by === 'timeout' ? 'upstream deadline passed' : 'client went away'));
    rejectAborted(controller.signal.reason);
  };
  const onClientAbort = (): void => stop('client_closed');
  const timer = setTimeout(() => stop('timeout'), call.timeoutMs);
  if (call.clientSignal.aborted) stop('client_closed');
  else call.clientSignal.addEventListener('abort', onClientAbort, { once: true });

  try {
    const response = await Promise.race([call.fetch(call.url, { ...call.init, redirect: 'manual', signal: controller.signal }), aborted]);
    if (isRedirect(response)) {
      response.body?.cancel().catch(() => undefined);
      return { kind: 'redirect', status: response.status };
    }
    const body = await Promise.race([readBounded(response.body, call.maxBytes), aborted]);
    if (!body.ok) return { kind: 'too_large', status: response.status };
    const text = decodeUtf8(body.bytes);
    const json = text === undefined ? undefined : redactJson(text, call.redact);
    return {
      kind: 'answered',
      status: response.status,
      headers: response.headers,
      json: json === undefined ? undefined : { value: json.value },
      bytes: json === undefined ? new Uint8Array(0) : encoder.encode(json.text),
    };
  } catch {
    // The abort also cancels undici's body stream; nothing is left to release here.
    return { kind: stoppedBy ?? 'network' };
  } finally {
    clearTimeout(timer);
    call.clientSignal.removeEventListener('abort', onClientAbort);
  }
}
