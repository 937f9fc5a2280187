// What every command shares: the key from the environment only and never printed, help with an
// example, one sentence and a documented exit code per failure, waiting out a 429.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main';
import { DEMO_AGENT_ID, DEMO_API_KEY, HAS_PTY, manualClock, runCli, sandboxEnv, serveSandbox, type Served } from './harness';

let served: Served | undefined;

afterEach(async () => {
  await served?.close();
  served = undefined;
});

const json = (body: unknown, status: number, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

describe('agent-widget conventions', () => {
  it('has --help with an example on every command, and an overview with the exit codes', async () => {
    const overview = await runCli(['--help']);
    expect(overview.code).toBe(0);
    for (const command of COMMANDS) expect(overview.stdout).toContain(`  ${command.name} `);
    expect(overview.stdout).toContain('130  interrupted (Ctrl-C or SIGTERM); server-side work goes on');
    for (const command of COMMANDS) {
      const help = await runCli([...command.name.split(' '), '--help']);
      expect({ command: command.name, code: help.code }).toEqual({ command: command.name, code: 0 });
      expect(help.stdout).toContain(`Usage: agent-widget ${command.name}`);
      expect(help.stdout).toMatch(/Examples?:\n {2}\$ agent-widget /);
      expect(help.stdout).toContain('--json');
    }
    const group = await runCli(['sources']);
    expect(group.stdout).toContain('sources train');
  });

  it('never prints the key, even when the service echoes it in an error', async () => {
    served = await serveSandbox({
      now: manualClock().now,
      override: (request) => {
        const auth = request.headers.get('Authorization') ?? '';
        return json({ success: false, error: `Key ${auth.slice(7)} is not valid (prefix ${auth.slice(7, 20)})` }, 401);
      },
    });
    const env = sandboxEnv(served);
    for (const args of [['usage'], ['analytics', '--json'], ['sources', 'list']]) {
      const result = await runCli(args, { env });
      expect(result.code).toBe(3);
      expect(result.stdout + result.stderr).not.toContain(DEMO_API_KEY);
      expect(result.stdout + result.stderr).not.toContain(DEMO_API_KEY.slice(0, 13));
      // Which key (masked) and where it was sent, and how to fix it.
      expect(result.stderr).toBe(
        `agent-widget: The service at ${served.baseUrl} refused the API key sk_live_…0000 from AGENT_API_KEY (401: Key [redacted] is not valid (prefix [redacted])); check AGENT_API_KEY (it wins over a stored key) and its agent scope.\n`,
      );
    }
  });

  it('reads the key from the environment (or a stored login), never a flag; says everything missing at once', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const { AGENT_API_KEY: _key, ...withoutKey } = sandboxEnv(served);
    expect(await runCli(['usage'], { env: withoutKey })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agent-widget: Not set: the API key (AGENT_API_KEY). Run agent-widget login to store it, or set the environment variable.\n',
    });
    const { AGENT_BASE_URL: _url, ...withoutUrl } = sandboxEnv(served);
    expect((await runCli(['usage'], { env: withoutUrl })).stderr).toBe(
      'agent-widget: Not set: the base URL (AGENT_BASE_URL). Run agent-widget login to store it, or set the environment variable.\n',
    );
    expect(await runCli(['sources', 'list'], { env: {} })).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'agent-widget: Not set: the API key (AGENT_API_KEY), the base URL (AGENT_BASE_URL) and the agent (--agent or AGENT_ID). Run agent-widget login to store them, or set the environment variables.\n',
    });
    expect((await runCli(['usage'], { env: { ...withoutKey, AGENT_BASE_URL: 'ftp://example.com' } })).stderr).toBe(
      'agent-widget: Not set: the API key (AGENT_API_KEY). Run agent-widget login to store it, or set the environment variable. The base URL from AGENT_BASE_URL must be an absolute http(s) URL.\n',
    );
    expect(served.requests).toEqual([]);
    const flag = await runCli(['usage', '--api-key', DEMO_API_KEY], { env: sandboxEnv(served) });
    expect(flag.code).toBe(2);
    expect(flag.stderr).not.toContain(DEMO_API_KEY);
    const wrong = await runCli(['usage'], { env: { ...sandboxEnv(served), AGENT_API_KEY: 'sk_live_not_a_known_key_000000' } });
    expect(wrong.code).toBe(3);
    expect(served.requests.every((r) => r === 'GET /credits')).toBe(true);
  });

  it('waits for the rate-limit reset and says so, then finishes', async () => {
    // Real time here: the CLI computes its wait from X-RateLimit-Reset against its own clock.
    served = await serveSandbox({ rateLimit: { limit: 2, windowMs: 1000 } });
    const result = await runCli(['usage', '--json'], { env: sandboxEnv(served) });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^Rate limited by the service: waiting [12] s for the limit to reset\.\n$/);
    expect(JSON.parse(result.stdout)).toMatchObject({ plan: { name: 'Starter' } });
    expect(served.requests.filter((r) => r === 'GET /subscriptions/invoices')).toHaveLength(2);
  });

  it('gives up with exit 6 when the reset is too far away, saying when to retry', async () => {
    const resetIn = 3600;
    served = await serveSandbox({
      now: manualClock().now,
      override: () =>
        json({ success: false, error: 'Too many requests' }, 429, {
          'X-RateLimit-Limit': '60',
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + resetIn),
        }),
    });
    const result = await runCli(['sources', 'list'], { env: sandboxEnv(served) });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^agent-widget: The service is rate limiting this key; try again in 36\d\d s\.\n$/);
    expect(served.requests).toHaveLength(1);
  });

  it('an answer that never ends is cut at the limit: one sentence, exit 8, not an out-of-memory crash', async () => {
    served = await serveSandbox({
      now: manualClock().now,
      override: (request) => {
        if (!new URL(request.url).pathname.endsWith('/web-sources')) return undefined;
        const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
        // Spaces forever, as a broken proxy streams them: valid JSON never comes.
        const endless = new ReadableStream<Uint8Array>({
          pull(controller) {
            controller.enqueue(chunk);
          },
        });
        return new Response(endless, { headers: { 'Content-Type': 'application/json' } });
      },
    });
    const result = await runCli(['sources', 'list'], { env: sandboxEnv(served) });
    expect(result.code).toBe(8);
    expect(result.stderr).toBe("agent-widget: The service's answer is too large (over 4096 KiB); nothing of it was used.\n");
  });

  it('a value far longer than a column is cut in the table, so one row cannot widen every other', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const env = sandboxEnv(served);
    const long = `https://docs.example.com/${'very-long-path/'.repeat(40)}`;
    expect((await runCli(['sources', 'add', long], { env })).code).toBe(0);
    expect((await runCli(['sources', 'add', 'https://short.example.com'], { env })).code).toBe(0);
    const listed = await runCli(['sources', 'list'], { env });
    const lines = listed.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line.length).toBeLessThan(200);
    expect(listed.stdout).toContain('…');
  });

  it('names itself to the service, and --debug prints each request on stderr without the key', async () => {
    const agents: (string | null)[] = [];
    served = await serveSandbox({
      now: manualClock().now,
      override: (request) => {
        agents.push(request.headers.get('User-Agent'));
        return undefined;
      },
    });
    const env = sandboxEnv(served);
    const listed = await runCli(['sources', 'list', '--debug', '--json'], { env });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({ webSources: [] });
    expect(agents).toEqual([expect.stringMatching(/^agent-widget-cli\/\S+ node\/\d+\.\d+\.\d+$/)]);
    const lines = listed.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`→ GET ${served.baseUrl}/web-sources?agentId=${DEMO_AGENT_ID}`);
    expect(lines[1]).toMatch(
      new RegExp(`^← 200 GET ${served.baseUrl.replace(/[.?]/g, '\\$&')}/web-sources\\?agentId=${DEMO_AGENT_ID} in \\d+ ms$`),
    );
    expect(listed.stderr).not.toContain(DEMO_API_KEY);
  });

  it('says why nothing answered when the system says: connection refused, a name that does not resolve', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const refused = await runCli(['usage'], { env: { AGENT_BASE_URL: `http://127.0.0.1:${port}/api`, AGENT_API_KEY: DEMO_API_KEY } });
    expect(refused.code).toBe(8);
    expect(refused.stderr).toBe(
      `agent-widget: Could not reach the service at http://127.0.0.1:${port}/api (connection refused: nothing listens at 127.0.0.1:${port}).\n`,
    );
    // .invalid never resolves (RFC 6761), with or without a network.
    const unknown = await runCli(['usage'], { env: { AGENT_BASE_URL: 'https://api.example.invalid/v1', AGENT_API_KEY: DEMO_API_KEY } });
    expect(unknown.code).toBe(8);
    expect(unknown.stderr).toBe(
      'agent-widget: Could not reach the service at https://api.example.invalid/v1 (the name api.example.invalid does not resolve in DNS).\n',
    );
  });

  it('turns an unreachable, failing or surprising service into one sentence and exit 8', async () => {
    const unreachable = await runCli(['usage'], {
      env: { AGENT_BASE_URL: 'http://127.0.0.1:9/sandbox', AGENT_API_KEY: DEMO_API_KEY },
    });
    expect(unreachable).toEqual({
      code: 8,
      stdout: '',
      stderr: 'agent-widget: Could not reach the service at http://127.0.0.1:9/sandbox.\n',
    });
    // Credentials in the base URL are never printed.
    const withCredentials = await runCli(['usage'], {
      env: { AGENT_BASE_URL: 'http://owner:s3cret-pass@127.0.0.1:9/sandbox', AGENT_API_KEY: DEMO_API_KEY },
    });
    expect(withCredentials.stderr).toBe('agent-widget: Could not reach the service at http://127.0.0.1:9/sandbox.\n');
    expect(withCredentials.stdout + withCredentials.stderr).not.toMatch(/owner|s3cret/);

    served = await serveSandbox({
      now: manualClock().now,
      override: (request) => {
        const path = new URL(request.url).pathname;
        if (path.endsWith('/analytics')) return json({ success: true, data: { overview: { totalConversations: 'many' } } }, 200);
        if (path.endsWith('/credits')) return new Response('<html>502 Bad Gateway</html>', { status: 502 });
        if (path.endsWith('/web-sources')) return json({ success: false, error: 'The crawler queue is down.' }, 503);
        return undefined;
      },
    });
    const env = sandboxEnv(served);
    expect(await runCli(['analytics'], { env })).toEqual({
      code: 8,
      stdout: '',
      stderr:
        "agent-widget: The service sent an answer this CLI does not understand (The service's answer did not fit the spec: data.overview.totalConversations: expected a number).\n",
    });
    // usage shows the parts it could read, and names the one it could not.
    const usage = await runCli(['usage'], { env });
    expect(usage).toMatchObject({
      code: 8,
      stderr: 'agent-widget: Shown without the credits: The service failed (502); try again later.\n',
    });
    expect(usage.stdout).toContain('Plan limits');
    // The service's own words are kept when it sends them.
    expect(await runCli(['sources', 'list'], { env })).toEqual({
      code: 8,
      stdout: '',
      stderr: 'agent-widget: The service failed (503: The crawler queue is down); try again later.\n',
    });
  });

  it('a base URL with no API behind it is said as such, not as a wrong id', async () => {
    // The site's own server at the base URL without the API's path: an HTML page (or a bare 404) for every path.
    served = await serveSandbox({
      now: manualClock().now,
      override: (request) => {
        const path = new URL(request.url).pathname;
        if (path.includes('/web-sources/')) return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
        return new Response('<!doctype html><title>Docs</title>', { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
      },
    });
    const env = sandboxEnv(served);
    expect(await runCli(['sources', 'list'], { env })).toEqual({
      code: 8,
      stdout: '',
      stderr: `agent-widget: Got an HTML page from ${served.baseUrl}/web-sources?agentId=${DEMO_AGENT_ID}: no API here; is the base URL right? The base URL is ${served.baseUrl}, from AGENT_BASE_URL.\n`,
    });
    expect(await runCli(['sources', 'status', 'ws_1'], { env })).toEqual({
      code: 8,
      stdout: '',
      stderr: `agent-widget: Got a 404 without the service's JSON from ${served.baseUrl}/web-sources/ws_1: no API here; is the base URL right? The base URL is ${served.baseUrl}, from AGENT_BASE_URL.\n`,
    });
  });

  it.skipIf(!HAS_PTY)('colours a terminal, and not with NO_COLOR, FORCE_COLOR=0 or --no-color', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const env = sandboxEnv(served);
    const bold = '\u001b[1m';
    expect((await runCli(['usage'], { env, tty: true })).stdout).toContain(bold);
    for (const [extraEnv, args] of [
      [{ NO_COLOR: '1' }, []],
      [{ FORCE_COLOR: '0' }, []],
      [{}, ['--no-color']],
    ] as const) {
      const result = await runCli(['usage', ...args], { env: { ...env, ...extraEnv }, tty: true });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Balance');
      expect(result.stdout).not.toContain('\u001b[');
    }
  });

  it('prints the version', async () => {
    const result = await runCli(['--version']);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
