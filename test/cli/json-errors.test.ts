// --json failures, end to end: every command and failure prints one error document on stdout with a stable
// code, the HTTP status and wait where the service answered, and what the command had done by then (the
// uploaded document, the training started, the stages so far), so a script can resume instead of starting over.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/cli/errors';
import {
  cliFile,
  DEMO_API_KEY,
  manualClock,
  runCli,
  sandboxAdvancingOn,
  sandboxEnv,
  serveSandbox,
  startCli,
  toolAvailable,
  type Served,
} from './harness';

/** openssl makes the self-signed certificate a service with a TLS certificate the CLI refuses shows. */
const HAS_OPENSSL = toolAvailable('openssl', ['version'], 'openssl', 'openssl', "the CLI's TLS failure test");

let served: Served | undefined;
let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-widget-json-errors-'));
  writeFileSync(join(dir, 'prices.pdf'), '%PDF-1.7 prices');
  // The sandbox's convention for a document that fails: its name contains "corrupt".
  writeFileSync(join(dir, 'corrupt-scan.pdf'), '%PDF-1.7 broken');
});
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** Long enough that a job stays in its first stage for the whole test (the sandbox's clock does not move). */
const LONG_STAGE_MS = 60_000;

const json = (body: unknown, status: number, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** The one document on stdout, parsed. */
const documentOf = (stdout: string): unknown => JSON.parse(stdout);

const stage = (status: string) => ({ status, elapsedMs: expect.any(Number) as number });

/** An upload of one of the files above: its path, name and size, then how far it got. */
const oneFile = <T extends object>(name: string, sofar: T) => ({ file: join(dir, name), uploaded: name, size: 15, ...sofar });

async function addSource(env: Record<string, string>): Promise<string> {
  const added = await runCli(['sources', 'add', 'https://docs.example.com', '--json'], { env });
  return (JSON.parse(added.stdout) as { webSource: { id: string } }).webSource.id;
}

describe('agent-widget --json errors', () => {
  it('a wrong command line and missing settings: code usage or missing_settings, no status, exit 2, nothing sent', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const env = sandboxEnv(served);
    const wrong = await runCli(['sources', 'add', 'ftp://x', '--json'], { env });
    expect(wrong.code).toBe(2);
    expect(documentOf(wrong.stdout)).toEqual({
      success: false,
      error: { code: 'usage', message: '<url> must be an absolute http(s) URL.', status: null },
      exitCode: 2,
    });
    expect(wrong.stderr).toBe('agent-widget: <url> must be an absolute http(s) URL.\n');

    const unknown = await runCli(['sorces', 'list', '--json'], { env });
    expect(documentOf(unknown.stdout)).toEqual({
      success: false,
      error: { code: 'usage', message: 'Unknown command "sorces"; did you mean sources? see agent-widget --help.', status: null },
      exitCode: 2,
    });

    const { AGENT_API_KEY: _key, ...withoutKey } = env;
    const missing = await runCli(['sources', 'list', '--json'], { env: withoutKey });
    expect(missing.code).toBe(2);
    expect(documentOf(missing.stdout)).toEqual({
      success: false,
      error: {
        code: 'missing_settings',
        message: 'Not set: the API key (AGENT_API_KEY). Run agent-widget login to store it, or set the environment variable.',
        status: null,
      },
      exitCode: 2,
    });
    expect(served.requests).toEqual([]);
  });

  it('a refused key: code unauthorized with status 401, the key masked', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const result = await runCli(['sources', 'list', '--json'], {
      env: { ...sandboxEnv(served), AGENT_API_KEY: 'sk_live_not_a_known_key_000000' },
    });
    expect(result.code).toBe(3);
    expect(documentOf(result.stdout)).toEqual({
      success: false,
      error: {
        code: 'unauthorized',
        message: expect.stringMatching(
          new RegExp(
            `^The service at ${served.baseUrl.replace(/[.]/g, '\\.')} refused the API key sk_live_…0000 from AGENT_API_KEY \\(401: `,
          ),
        ) as string,
        status: 401,
      },
      exitCode: 3,
    });
    expect(result.stdout).not.toContain('not_a_known_key');
  });

  it('a rate limit too long to wait out: code rate_limited, status 429 and retryAfter in seconds', async () => {
    served = await serveSandbox({
      now: manualClock().now,
      override: () => json({ success: false, error: 'Too many requests' }, 429, { 'Retry-After': '3600' }),
    });
    const result = await runCli(['credits', '--json'], { env: sandboxEnv(served) });
    expect(result.code).toBe(6);
    expect(documentOf(result.stdout)).toEqual({
      success: false,
      error: {
        code: 'rate_limited',
        message: 'The service is rate limiting this key; try again in 3600 s.',
        status: 429,
        retryAfter: 3600,
      },
      exitCode: 6,
    });
    expect(served.requests).toEqual(['GET /credits']);
  });

  it("each other refusal has its own code and exit code, with the status and the service's words", async () => {
    let status = 0;
    served = await serveSandbox({ now: manualClock().now, override: () => json({ success: false, error: 'Refused here.' }, status) });
    const expected = [
      [400, 'bad_request', 5, 'The service refused the request (400: Refused here).'],
      [402, 'insufficient_credits', 5, 'Not enough credits (402: Refused here).'],
      [
        403,
        'forbidden',
        3,
        `The service at ${served.baseUrl} refused the API key sk_live_…0000 from AGENT_API_KEY (403: Refused here); check AGENT_API_KEY (it wins over a stored key) and its agent scope.`,
      ],
      [404, 'not_found', 4, 'Not found (404: Refused here).'],
      [409, 'refused', 5, 'The service refused the request (409: Refused here).'],
    ] as const;
    for (const [answered, code, exitCode, message] of expected) {
      status = answered;
      const result = await runCli(['sources', 'discover', 'ws_1', '--json'], { env: sandboxEnv(served) });
      expect({ answered, code: result.code, document: documentOf(result.stdout) }).toEqual({
        answered,
        code: exitCode,
        document: { success: false, error: { code, message, status: answered }, exitCode },
      });
    }
  });

  it("a failing service: code service_error with its status, the service's own message kept", async () => {
    served = await serveSandbox({
      now: manualClock().now,
      override: () => json({ success: false, error: 'The crawler queue is down.' }, 503),
    });
    const result = await runCli(['sources', 'list', '--json'], { env: sandboxEnv(served) });
    expect(result.code).toBe(8);
    expect(documentOf(result.stdout)).toEqual({
      success: false,
      error: { code: 'service_error', message: 'The service failed (503: The crawler queue is down); try again later.', status: 503 },
      exitCode: 8,
    });
  });

  it('nothing answering: code unreachable for a refused connection, dns for a name that does not resolve, no status', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const refused = await runCli(['usage', '--json'], {
      env: { AGENT_BASE_URL: `http://127.0.0.1:${port}/api`, AGENT_API_KEY: DEMO_API_KEY },
    });
    expect(refused.code).toBe(8);
    expect(documentOf(refused.stdout)).toEqual({
      success: false,
      error: {
        code: 'unreachable',
        message: `Could not reach the service at http://127.0.0.1:${port}/api (connection refused: nothing listens at 127.0.0.1:${port}).`,
        status: null,
      },
      exitCode: 8,
    });
    // .invalid never resolves (RFC 6761), with or without a network.
    const unknown = await runCli(['credits', '--json'], {
      env: { AGENT_BASE_URL: 'https://api.example.invalid/v1', AGENT_API_KEY: DEMO_API_KEY },
    });
    expect(documentOf(unknown.stdout)).toEqual({
      success: false,
      error: {
        code: 'dns',
        message: 'Could not reach the service at https://api.example.invalid/v1 (the name api.example.invalid does not resolve in DNS).',
        status: null,
      },
      exitCode: 8,
    });
  });

  it.skipIf(!HAS_OPENSSL)('a TLS certificate the system does not accept: code tls, no status', async () => {
    const keyFile = join(dir, 'key.pem');
    const certFile = join(dir, 'cert.pem');
    const made = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
    ]);
    expect(made.status).toBe(0);
    const server = createTlsServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (_request, response) =>
      response.end('{}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const result = await runCli(['credits', '--json'], {
        env: { AGENT_BASE_URL: `https://127.0.0.1:${port}/api`, AGENT_API_KEY: DEMO_API_KEY },
      });
      expect(result.code).toBe(8);
      expect(documentOf(result.stdout)).toEqual({
        success: false,
        error: {
          code: 'tls',
          message: `Could not reach the service at https://127.0.0.1:${port}/api (its TLS certificate was not accepted (DEPTH_ZERO_SELF_SIGNED_CERT)).`,
          status: null,
        },
        exitCode: 8,
      });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("an answer that is not the service's: code no_api_here or invalid_answer, with the answer's status", async () => {
    served = await serveSandbox({
      now: manualClock().now,
      override: (request) => {
        const path = new URL(request.url).pathname;
        if (path.endsWith('/web-sources'))
          return new Response('<!doctype html><title>Docs</title>', { headers: { 'Content-Type': 'text/html' } });
        if (path.endsWith('/credits')) return json({ success: true, credits: { balance: 'lots' } }, 200);
        return undefined;
      },
    });
    const env = sandboxEnv(served);
    const site = await runCli(['sources', 'list', '--json'], { env });
    expect(documentOf(site.stdout)).toEqual({
      success: false,
      error: {
        code: 'no_api_here',
        message: expect.stringMatching(/^Got an HTML page from .*: no API here; is the base URL right\?/) as string,
        status: 200,
      },
      exitCode: 8,
    });
    const odd = await runCli(['credits', '--json'], { env });
    expect(documentOf(odd.stdout)).toEqual({
      success: false,
      error: {
        code: 'invalid_answer',
        message: expect.stringMatching(/^The service sent an answer this CLI does not understand \(/) as string,
        status: 200,
      },
      exitCode: 8,
    });
  });

  it('--timeout passing after an upload: code wait_timeout with the documentId, callId, status so far and stages', async () => {
    served = await serveSandbox({ now: manualClock().now, stageMs: LONG_STAGE_MS });
    const env = sandboxEnv(served);
    const result = await runCli(
      ['documents', 'upload', join(dir, 'prices.pdf'), '--wait', '--timeout', '1', '--interval', '0.1', '--json'],
      {
        env,
      },
    );
    expect(result.code).toBe(7);
    const failure = documentOf(result.stdout) as { documentId: string; callId: string };
    const { documentId, callId } = failure;
    const error = {
      code: 'wait_timeout',
      message: `Document ${documentId} was not done within 1s (last stage: processing); processing goes on on the service.`,
      status: null,
    };
    const sofar = { documentId, callId, status: 'processing', stages: [stage('processing')] };
    expect(failure).toEqual({
      success: false,
      error,
      exitCode: 7,
      ...oneFile('prices.pdf', sofar),
      documents: [{ ...oneFile('prices.pdf', sofar), error: { ...error, exitCode: 7 } }],
    });
    expect(documentId).toMatch(/\S/);
    expect(callId).toMatch(/\S/);
    // The id is the uploaded document's: following it works, and nothing was uploaded or started twice.
    const followed = await runCli(['documents', 'status', documentId, '--json'], { env });
    expect(documentOf(followed.stdout)).toEqual({ documentId, status: 'processing' });
    expect(served.requests.filter((r) => r === 'POST /documents/upload' || r === 'POST /convert-document')).toEqual([
      'POST /documents/upload',
      'POST /convert-document',
    ]);

    // Following a web source that does not finish in time: its sourceId, the status and stages so far.
    const id = await addSource(env);
    expect((await runCli(['sources', 'train', id], { env })).code).toBe(0);
    const watched = await runCli(['sources', 'status', id, '--wait', '--timeout', '1', '--interval', '0.1', '--json'], { env });
    expect(watched.code).toBe(7);
    expect(documentOf(watched.stdout)).toEqual({
      success: false,
      error: {
        code: 'wait_timeout',
        message: `Web source ${id} was not done within 1s (last stage: scraping); training goes on on the service.`,
        status: null,
      },
      exitCode: 7,
      sourceId: id,
      status: 'scraping',
      stages: [stage('scraping')],
    });
  });

  it('a job that ends in error: code failed, the final status and every stage', async () => {
    served = await sandboxAdvancingOn((method, path) => method === 'POST' && path === '/convert-document/status');
    const result = await runCli(['documents', 'upload', join(dir, 'corrupt-scan.pdf'), '--wait', '--interval', '0.05', '--json'], {
      env: sandboxEnv(served),
    });
    expect(result.code).toBe(1);
    const failure = documentOf(result.stdout) as { documentId: string; callId: string };
    const { documentId, callId } = failure;
    const error = { code: 'failed', message: `Document ${documentId} failed: the service reports status "error".`, status: null };
    const sofar = { documentId, callId, status: 'error', stages: [stage('processing'), stage('error')] };
    expect(failure).toEqual({
      success: false,
      error,
      exitCode: 1,
      ...oneFile('corrupt-scan.pdf', sofar),
      documents: [{ ...oneFile('corrupt-scan.pdf', sofar), error: { ...error, exitCode: 1 } }],
    });
    expect(documentId).toMatch(/\S/);
    expect(callId).toMatch(/\S/);
  });

  it('SIGTERM during an upload --wait: code interrupted, exit 130, with the documentId, callId and stages so far', async () => {
    served = await serveSandbox({ now: manualClock().now, stageMs: LONG_STAGE_MS });
    const cli = await startCli(['documents', 'upload', join(dir, 'prices.pdf'), '--wait', '--interval', '0.1', '--json'], {
      env: sandboxEnv(served),
    });
    await cli.stderrMatches(/: processing \(\d+s\)\n/);
    cli.kill('SIGTERM');
    const result = await cli.done;
    expect(result.code).toBe(130);
    const failure = documentOf(result.stdout) as { documentId: string; callId: string };
    const { documentId, callId } = failure;
    const error = {
      code: 'interrupted',
      message: expect.stringMatching(/^Stopped waiting after \d+s; processing goes on on the service\.$/) as string,
      status: null,
    };
    const sofar = { documentId, callId, status: 'processing', stages: [stage('processing')] };
    expect(failure).toEqual({
      success: false,
      error,
      exitCode: 130,
      ...oneFile('prices.pdf', sofar),
      documents: [{ ...oneFile('prices.pdf', sofar), error: { ...error, exitCode: 130 } }],
    });
    expect(documentId).toMatch(/\S/);
    expect(callId).toMatch(/\S/);
  });

  it('success documents keep their shape: upload --wait and train --wait', async () => {
    served = await sandboxAdvancingOn(
      (method, path) =>
        (method === 'POST' && path === '/convert-document/status') || (method === 'GET' && /^\/web-sources\/[^/]+$/.test(path)),
    );
    const env = sandboxEnv(served);
    const uploaded = await runCli(['documents', 'upload', join(dir, 'prices.pdf'), '--wait', '--interval', '0.05', '--json'], { env });
    expect(uploaded.code).toBe(0);
    const done = {
      documentId: expect.stringMatching(/\S/) as string,
      callId: expect.stringMatching(/\S/) as string,
      status: 'completed',
      elapsedMs: expect.any(Number) as number,
      stages: [stage('processing'), stage('chunking'), stage('completed')],
    };
    expect(documentOf(uploaded.stdout)).toEqual({ ...oneFile('prices.pdf', done), documents: [oneFile('prices.pdf', done)] });

    const id = await addSource(env);
    const trained = await runCli(['sources', 'train', id, '--wait', '--interval', '0.05', '--json'], { env });
    expect(trained.code).toBe(0);
    expect(documentOf(trained.stdout)).toEqual({
      webSource: expect.objectContaining({ id, status: 'completed' }) as object,
      callId: expect.stringMatching(/\S/) as string,
      elapsedMs: expect.any(Number) as number,
      stages: [stage('scraping'), stage('chunking'), stage('completed')],
    });
  });

  it('an error document for a reader that has gone (| head -0) ends quietly with the error exit code', async () => {
    const { file } = await cliFile();
    const child = spawn(process.execPath, [file, 'sorces', '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH },
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('agent-widget: Unknown command "sorces"; did you mean sources? see agent-widget --help.\n');
    expect(code).toBe(2);
  });

  it("docs/cli.md's code table lists every code with its exit code, and nothing else", () => {
    const docs = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const rows = [...docs.matchAll(/^\| `([a-z_]+)` \| (\d+) \|/gm)].map(([, code = '', exit = '']) => [code, Number(exit)]);
    expect(rows).toEqual(Object.entries(ERROR_CODES));
  });
});
