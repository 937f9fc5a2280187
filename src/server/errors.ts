// Typed errors of the server client. Each is an ApiError (src/core/http.ts), so callers can catch
// the family or one member: `if (e instanceof RateLimitedError) …` or `if (e instanceof ApiError) …`.
import { ApiError } from '../core/http';

/** 400: invalid parameters or a validation error on the service's side. */
export class InvalidRequestError extends ApiError {}
/** 401 (missing or invalid key) and 403 (a key scoped to another agent). */
export class UnauthorizedError extends ApiError {}
/** 402: not enough credits. */
export class InsufficientCreditsError extends ApiError {}
/** 404: the resource does not exist (or is not yours). */
export class NotFoundError extends ApiError {}
/** 429: rate limited; `retryAfter` says how many seconds to wait. */
export class RateLimitedError extends ApiError {}
/** 5xx: the service failed. */
export class ServerError extends ApiError {}

/** The ONE status -> class mapping. Errors that are not HTTP answers (network, timeout, …) pass unchanged. */
export function typedError(error: ApiError): ApiError {
  if (error.kind !== 'http') return error;
  const init = {
    kind: error.kind,
    status: error.status,
    rateLimit: error.rateLimit,
    retryAfter: error.retryAfter,
    code: error.code,
    withoutEnvelope: error.withoutEnvelope,
    cause: error,
  };
  const status = error.status;
  if (status === 400) return new InvalidRequestError(error.message, init);
  if (status === 401 || status === 403) return new UnauthorizedError(error.message, init);
  if (status === 402) return new InsufficientCreditsError(error.message, init);
  if (status === 404) return new NotFoundError(error.message, init);
  if (status === 429) return new RateLimitedError(error.message, init);
  if (status >= 500) return new ServerError(error.message, init);
  return error;
}

/** A document or web source reached a failure state while we waited for it. */
export class ProcessingError extends Error {
  override readonly name = 'ProcessingError';
  constructor(
    message: string,
    readonly resource: 'document' | 'webSource',
    readonly id: string,
    readonly status: string,
  ) {
    super(message);
  }
}

export function cancelledError(reason: unknown): ApiError {
  return new ApiError('The request was cancelled.', { kind: 'aborted', cause: reason });
}
