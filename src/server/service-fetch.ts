// The server client's fetch: redirects are never followed, so the key is only ever sent to baseUrl,
// and the key is redacted from every answer before the client reads it (data and error texts alike).
import { ApiError, DEFAULT_MAX_ANSWER_BYTES, readBounded } from '../core/http';
import { redactJson, type Redact } from './redact';
import { isRedirect } from './upstream';

/** Thrown by the guarded fetch; the client turns it back into an ApiError of kind invalid_response. */
class RedirectRefused extends Error {
  constructor(readonly status: number) {
    // Status 0 is a browser-style opaque redirect, which hides the real status.
    super(`The service answered with a redirect${status === 0 ? '' : ` (${status})`}. Redirects are not followed: check baseUrl.`);
  }
}

/**
 * Node's fetch (undici) keeps a copy of a streamed body unless redirects are refused outright (mode
 * 'error'): every byte of an upload stayed in memory until it ended. Cloudflare Workers know only
 * 'follow' and 'manual', so there a streamed body keeps 'manual'.
 */
const refusesRedirectsOutright = (body: unknown): boolean =>
  body instanceof ReadableStream && globalThis.navigator?.userAgent !== 'Cloudflare-Workers';

/** How undici rejects a redirect answered to a request in mode 'error'. */
const isRedirectRejection = (error: unknown): boolean =>
  error instanceof TypeError && error.cause instanceof Error && error.cause.message === 'unexpected redirect';

export function serviceFetch(base: typeof fetch, redact: Redact): typeof fetch {
  return async (input, init) => {
    const outright = refusesRedirectsOutright(init?.body);
    let response: Response;
    try {
      response = await base(input, { ...init, redirect: outright ? 'error' : 'manual' });
    } catch (error) {
      if (outright && isRedirectRejection(error)) throw new RedirectRefused(0);
      throw error;
    }
    if (isRedirect(response)) {
      response.body?.cancel().catch(() => undefined);
      throw new RedirectRefused(response.status);
    }
    // The client reads the whole body anyway; reading it here lets nothing see it unredacted. Bounded, as
    // the fetch layer's own read is: an endless stream or a compression bomb ends the call.
    const text = await readBounded(response, DEFAULT_MAX_ANSWER_BYTES);
    const clean = redactJson(text, redact)?.text ?? redact(text);
    // A 204 or 205 may not have a body, even an empty one.
    return new Response(clean === '' ? null : clean, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The fetch layer reports what its fetch threw as a network error; a refused redirect is not one. */
export function refusedRedirect(error: ApiError): ApiError {
  const cause = error.cause;
  if (error.kind !== 'network' || !(cause instanceof RedirectRefused)) return error;
  return new ApiError(cause.message, { kind: 'invalid_response', status: cause.status });
}
