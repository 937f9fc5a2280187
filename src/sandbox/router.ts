// One handler for the whole service: match the route, authenticate and rate-limit the
// authenticated ones, run the handler, and turn every failure into the error envelope.
import { withoutTrailingSlashes } from '../core/http';
import { authenticate } from './auth';
import { errorResponse, HttpError, notFound } from './responses';
import type { KeyRecord, SandboxState } from './state';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RequestContext {
  request: Request;
  url: URL;
  params: Record<string, string>;
  state: SandboxState;
  /** The clock read once per request, so one request sees one instant. */
  now: Date;
}

export interface AuthedContext extends RequestContext {
  caller: KeyRecord;
}

export type Route =
  | { method: Method; path: string; auth: false; handler: (ctx: RequestContext) => Promise<Response> }
  | { method: Method; path: string; auth: true; handler: (ctx: AuthedContext) => Promise<Response> };

export const publicRoute = (method: Method, path: string, handler: (ctx: RequestContext) => Promise<Response>): Route => ({
  method,
  path,
  auth: false,
  handler,
});

export const authedRoute = (method: Method, path: string, handler: (ctx: AuthedContext) => Promise<Response>): Route => ({
  method,
  path,
  auth: true,
  handler,
});

/** A route pattern from a path builder such as assumedPaths.getWebSource, so the path is written once. */
export function pathPattern(build: (id: string) => string): string {
  const token = 'sandbox-path-parameter';
  return build(token).replace(token, ':id');
}

/** Path parameters when `pattern` (segments, `:name` for a parameter) matches `path`. */
function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? '';
    const g = got[i] ?? '';
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) return undefined;
  }
  return params;
}

/** No route is longer: a longer path is a 404 before any work on it (matching splits it once per route). */
const MAX_PATH_LENGTH = 2048;

export function createRouter(state: SandboxState, routes: readonly Route[], basePath: string): (request: Request) => Promise<Response> {
  const prefix = withoutTrailingSlashes(basePath);

  return async function handle(request) {
    let rateLimitHeaders: Record<string, string> = {};
    let response: Response;
    try {
      const url = new URL(request.url);
      if (url.pathname.length > MAX_PATH_LENGTH) throw notFound('No such endpoint.');
      if (prefix !== '' && url.pathname !== prefix && !url.pathname.startsWith(prefix + '/')) throw notFound('No such endpoint.');
      const path = withoutTrailingSlashes(url.pathname.slice(prefix.length)) || '/';
      const matches = routes
        .map((route) => ({ route, params: matchPath(route.path, path) }))
        .filter((m): m is { route: Route; params: Record<string, string> } => m.params !== undefined);
      if (matches.length === 0) throw notFound('No such endpoint.');
      const match = matches.find((m) => m.route.method === request.method);
      if (!match) {
        const allow = [...new Set(matches.map((m) => m.route.method))].join(', ');
        throw new HttpError(405, `Method ${request.method} is not allowed here; use ${allow}.`, 'method_not_allowed', {
          Allow: allow,
        });
      }
      const now = state.now();
      const ctx: RequestContext = { request, url, params: match.params, state, now };
      if (match.route.auth) {
        const caller = authenticate(state, request);
        const decision = state.rateLimiter.hit(caller.key, now.getTime());
        rateLimitHeaders = decision.headers;
        if (!decision.allowed) throw new HttpError(429, 'Too many requests: wait until the rate limit resets.', 'rate_limited');
        response = await match.route.handler({ ...ctx, caller });
      } else {
        response = await match.route.handler(ctx);
      }
    } catch (error) {
      response = errorResponse(error);
    }
    for (const [name, value] of Object.entries(rateLimitHeaders)) response.headers.set(name, value);
    return response;
  };
}
