// JSON responses and the error envelope. Every error the sandbox answers is an HttpError turned
// into `{ success: false, error, code }`; `code` is a sandbox convention (the spec shows none).
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'invalid_request'): HttpError => new HttpError(400, message, code);
export const notFound = (message: string): HttpError => new HttpError(404, message, 'not_found');

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' };

export function json(body: object, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });
}

export function ok<T extends object>(body: T): Response {
  return json({ success: true, ...body });
}

export function errorResponse(error: unknown): Response {
  if (error instanceof HttpError) {
    const res = json({ success: false, error: error.message, code: error.code }, error.status);
    for (const [name, value] of Object.entries(error.headers)) res.headers.set(name, value);
    return res;
  }
  // Never the exception's text: it could carry request data.
  return json({ success: false, error: 'The sandbox failed unexpectedly.', code: 'server_error' }, 500);
}
