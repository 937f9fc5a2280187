// The server client's fetch: redirects are never followed, so the key is only ever sent to baseUrl.
import { ApiError } from '../core/http';
import { isRedirect } from './upstream';

/** Thrown by the guarded fetch; the client turns it back into an ApiError of kind invalid_response. */
class RedirectRefused extends Error {
  constructor(readonly status: number) {
    super(`The service answered ${status}, a redirect. Redirects are not followed: check baseUrl.`);
  }
}

export function noRedirectFetch(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, { ...init, redirect: 'manual' });
    if (!isRedirect(response)) return response;
    response.body?.cancel().catch(() => undefined);
    throw new RedirectRefused(response.status);
  };
}

/** The fetch layer reports what its fetch threw as a network error; a refused redirect is not one. */
export function refusedRedirect(error: ApiError): ApiError {
  const cause = error.cause;
  if (error.kind !== 'network' || !(cause instanceof RedirectRefused)) return error;
  return new ApiError(cause.message, { kind: 'invalid_response', status: cause.status });
}
