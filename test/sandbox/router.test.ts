import { describe, expect, test } from 'vitest';
import { createSandbox, DEMO_AGENT_ID, DEMO_API_KEY } from '../../src/sandbox';
import { call } from './helpers';

const now = () => new Date('2026-11-20T12:00:00Z');

describe('routing and the error envelope', () => {
  test('an unknown route is a 404 in the envelope', async () => {
    const res = await call(createSandbox({ now }), 'GET', '/no/such/thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: expect.any(String), code: 'not_found' });
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
  });

  test('a known path with the wrong method is a 405 naming the allowed methods', async () => {
    const res = await call(createSandbox({ now }), 'DELETE', '/chat');
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('POST');
    expect(res.body).toMatchObject({ success: false, code: 'method_not_allowed' });
    const multi = await call(createSandbox({ now }), 'PUT', '/web-sources/ws_1');
    expect(multi.headers.get('Allow')).toBe('GET, PATCH, DELETE');
  });

  test('an invalid JSON body is a 400, on public and authenticated routes alike', async () => {
    const sandbox = createSandbox({ now });
    for (const path of ['/chat', '/booking/public/cancel', '/subscriptions/limits']) {
      const res = await call(sandbox, 'POST', path, { body: '{not json' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'invalid_json' });
    }
    expect((await call(sandbox, 'POST', '/chat', { body: '[1, 2]' })).status).toBe(400);
  });

  test('an unexpected failure is a 500 envelope without details; the handler never throws', async () => {
    const sandbox = createSandbox({ now });
    const body = new ReadableStream({
      start(controller) {
        controller.error(new Error('secret internal detail'));
      },
    });
    // Node needs duplex 'half' for a stream body; the DOM typings do not know the field yet.
    const init: RequestInit & { duplex: 'half' } = {
      method: 'POST',
      headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
      body,
      duplex: 'half',
    };
    const request = new Request('https://sandbox.test/chat', init);
    const res = await sandbox.handle(request);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ success: false, code: 'server_error' });
    expect(text).not.toContain('secret internal detail');
  });

  test('basePath: routes live under the prefix only', async () => {
    const sandbox = createSandbox({ now, basePath: '/sandbox/' });
    expect(sandbox.basePath).toBe('/sandbox');
    expect((await call(sandbox, 'GET', `/sandbox/booking/public/config?agentId=${DEMO_AGENT_ID}`)).status).toBe(200);
    expect((await call(sandbox, 'GET', `/booking/public/config?agentId=${DEMO_AGENT_ID}`)).status).toBe(404);
    expect((await call(sandbox, 'GET', `/sandboxed/booking/public/config?agentId=${DEMO_AGENT_ID}`)).status).toBe(404);
  });

  test('path parameters are decoded', async () => {
    const sandbox = createSandbox({ now });
    const res = await call(sandbox, 'GET', `/agents/${encodeURIComponent(DEMO_AGENT_ID)}/analytics`);
    expect(res.status).toBe(200);
    expect((await call(sandbox, 'GET', '/agents/%E0%A4%A/analytics')).status).toBe(404);
  });
});

describe('hostile paths', () => {
  /** The least CPU time, in µs, of three requests for `path`. */
  async function cost(sandbox: ReturnType<typeof createSandbox>, path: string): Promise<number> {
    let best = Infinity;
    for (let run = 0; run < 3; run++) {
      const start = process.cpuUsage();
      const res = await call(sandbox, 'GET', path);
      const { user, system } = process.cpuUsage(start);
      expect(res.status).toBe(404);
      best = Math.min(best, user + system);
    }
    return best;
  }

  test.each([
    ['a run of slashes, then a letter', (n: number) => `/${'/'.repeat(n)}x`],
    ['a route, then a run of slashes and a letter', (n: number) => `/chat${'/'.repeat(n)}x`],
    ['a run of /a', (n: number) => '/a'.repeat(n / 2)],
  ])('%s is a 404 in time that does not grow with its length', async (_, make) => {
    const sandbox = createSandbox({ now });
    await cost(sandbox, make(100));
    const small = await cost(sandbox, make(1_600));
    const large = await cost(sandbox, make(16_000));
    // Quadratic was 100 times the cost for 10 times the length (217 ms for 16 000 slashes).
    expect(large).toBeLessThan(10 * Math.max(small, 2_000));
  });

  test('a path of 2048 characters is still matched; trailing slashes are still ignored', async () => {
    const sandbox = createSandbox({ now, basePath: `/${'s'.repeat(2000)}//` });
    expect((await call(sandbox, 'GET', `/${'s'.repeat(2000)}/booking/public/config/?agentId=${DEMO_AGENT_ID}`)).status).toBe(200);
  });

  test('a JSON body over 64 KB is a 413, read no further', async () => {
    const sandbox = createSandbox({ now });
    const res = await call(sandbox, 'POST', '/booking/public/cancel', { body: JSON.stringify({ pad: 'x'.repeat(70_000) }) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, code: 'payload_too_large' });
  });
});
