// msw around the sandbox: every request under a base URL goes straight to sandbox.handle, so the
// service is implemented once (src/sandbox) and tests exercise the same code as `npm start`.
//
//   import { useSandboxServer } from '../support/msw';
//   const api = useSandboxServer({ now: () => new Date('2026-11-20T12:00:00Z') });
//   test('…', async () => {
//     await fetch(`${api.baseUrl}/booking/public/config?agentId=demo-agent`);
//     expect(api.sandbox().bookings()).toHaveLength(0);
//   });
//
// A test that needs a differently seeded sandbox swaps it in: `api.use({ credits: 0 })`.
import { http, type HttpHandler } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox';

/** Where tests reach the service unless they choose another base URL. */
export const SANDBOX_BASE_URL = 'https://sandbox.test/api';

const pathOf = (baseUrl: string): string => new URL(baseUrl).pathname.replace(/\/+$/, '');

/**
 * msw handlers that hand every request under `baseUrl` to `sandbox.handle`. The sandbox must be
 * created with `basePath` equal to the base URL's path (useSandboxServer does that for you).
 */
export function sandboxHandlers(sandbox: Sandbox, baseUrl: string = SANDBOX_BASE_URL): HttpHandler[] {
  if (pathOf(baseUrl) !== sandbox.basePath)
    throw new Error(
      `sandboxHandlers: the sandbox's basePath '${sandbox.basePath}' must equal the path of ${baseUrl}; ` +
        `create it with createSandbox({ basePath: '${pathOf(baseUrl)}' }).`,
    );
  const base = baseUrl.replace(/\/+$/, '');
  return [http.all(`${base}/*`, ({ request }) => sandbox.handle(request))];
}

export interface SandboxServer {
  server: SetupServer;
  baseUrl: string;
  /** The sandbox of the current test (a fresh one per test). */
  sandbox(): Sandbox;
  /** Replace the current test's sandbox: the file's options with `overrides` on top; basePath is set for you. */
  use(overrides?: SandboxOptions): Sandbox;
}

/**
 * Starts one msw server for the calling test file (listen / reset / close in vitest hooks) with a
 * fresh sandbox per test built from `options`. Unhandled requests fail the test.
 */
export function useSandboxServer(options: SandboxOptions = {}, baseUrl: string = SANDBOX_BASE_URL): SandboxServer {
  const server = setupServer();
  let current: Sandbox | undefined;

  const use = (overrides: SandboxOptions = {}): Sandbox => {
    current = createSandbox({ ...options, ...overrides, basePath: pathOf(baseUrl) });
    server.resetHandlers(...sandboxHandlers(current, baseUrl));
    return current;
  };

  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => {
    use();
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());

  return {
    server,
    baseUrl,
    sandbox() {
      if (!current) throw new Error('useSandboxServer: the sandbox exists only inside a test.');
      return current;
    },
    use,
  };
}
