// `documents upload` end to end: several files, every file checked before any byte goes (all problems
// together), the plan's storage asked first, the warning for a name uploaded before, progress on a
// terminal only, and a slow link that takes longer than the request deadline without being cut.
import { mkdtempSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox';
import { toNodeListener } from '../../src/server/node';
import { HAS_PTY, runCli, sandboxEnv, serveSandbox, startCli, type Served } from './harness';

let served: Served | undefined;
let dir = '';

const DOCX_START = 'PK\u0003\u0004';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-widget-upload-'));
  writeFileSync(join(dir, 'prices.pdf'), '%PDF-1.7 prices');
  writeFileSync(join(dir, 'manual.docx'), `${DOCX_START}word/document.xml`);
  writeFileSync(join(dir, 'notes.txt'), 'plain text');
  // Sparse: 21 MiB on paper, nothing on disk.
  writeFileSync(join(dir, 'scan.pdf'), '%PDF-1.7 scan');
  truncateSync(join(dir, 'scan.pdf'), 21 * 1024 * 1024);
  writeFileSync(join(dir, 'huge.pdf'), '%PDF-1.7 huge');
  truncateSync(join(dir, 'huge.pdf'), 19 * 1000 * 1000);
  writeFileSync(join(dir, 'big.pdf'), '%PDF-1.7 big');
  truncateSync(join(dir, 'big.pdf'), 3 * 1000 * 1000);
});
afterEach(async () => {
  await served?.close();
  served = undefined;
});

interface Uploaded {
  documentId: string;
  callId: string;
  uploaded: string;
  documents: { file: string; uploaded: string; size: number; documentId?: string; callId?: string }[];
}

describe('agent-widget documents upload', () => {
  it('uploads several files one after another and says per file what happened', async () => {
    served = await serveSandbox();
    const env = sandboxEnv(served);
    const result = await runCli(['documents', 'upload', join(dir, 'prices.pdf'), join(dir, 'manual.docx')], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const ids = [...result.stdout.matchAll(/Uploaded (\S+) as document (\S+)\./g)].map((m) => [m[1], m[2]]);
    expect(ids.map(([name]) => name)).toEqual(['prices.pdf', 'manual.docx']);
    expect(served.requests).toEqual([
      'POST /subscriptions/limits',
      'POST /documents/upload',
      'POST /convert-document',
      'POST /documents/upload',
      'POST /convert-document',
    ]);

    const json = await runCli(['documents', 'upload', join(dir, 'prices.pdf'), join(dir, 'manual.docx'), '--json'], { env });
    expect(json.code).toBe(0);
    const document = JSON.parse(json.stdout) as Uploaded;
    expect(document.documents).toEqual([
      { file: join(dir, 'prices.pdf'), uploaded: 'prices.pdf', size: 15, documentId: expect.any(String), callId: expect.any(String) },
      { file: join(dir, 'manual.docx'), uploaded: 'manual.docx', size: 21, documentId: expect.any(String), callId: expect.any(String) },
    ]);
    // One file: its fields at the top as well, as before several were taken.
    const one = await runCli(['documents', 'upload', join(dir, 'prices.pdf'), '--json'], { env });
    const single = JSON.parse(one.stdout) as Uploaded;
    expect(single).toMatchObject({ uploaded: 'prices.pdf', documentId: single.documents[0]?.documentId, callId: expect.any(String) });
  });

  it('reports every file it cannot upload together, with the reason, and sends nothing', async () => {
    served = await serveSandbox();
    const paths = [join(dir, 'prices.pdf'), join(dir, 'absent.pdf'), dir, join(dir, 'notes.txt'), join(dir, 'scan.pdf')];
    const result = await runCli(['documents', 'upload', ...paths], { env: sandboxEnv(served) });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      [
        'agent-widget: Nothing was sent; 4 of 5 files cannot be uploaded:',
        `  Cannot read the file ${join(dir, 'absent.pdf')}: no such file.`,
        `  Cannot read the file ${dir}: it is a directory or another kind of entry, not a file.`,
        '  notes.txt is not a PDF or DOCX file; the service converts only those.',
        '  scan.pdf is 21 MiB; the service is assumed to take files up to 20 MiB (its limit is not published).',
        '',
      ].join('\n'),
    );
    expect(served.requests).toEqual([]);
  });

  it("asks the plan's storage first: a refusal sends no byte, a failed question is said and the upload goes on", async () => {
    served = await serveSandbox({
      override: (request) =>
        new URL(request.url).pathname.endsWith('/subscriptions/limits')
          ? Response.json({
              success: true,
              check: 'storage',
              allowed: false,
              currentUsage: 104_000_000,
              limit: 104_857_600,
              remaining: 857_600,
            })
          : undefined,
    });
    const refused = await runCli(['documents', 'upload', join(dir, 'prices.pdf'), join(dir, 'big.pdf')], { env: sandboxEnv(served) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "agent-widget: Nothing was sent: 2.9 MiB do not fit the plan's storage (837.5 KiB of 100 MiB left). Free some space or upgrade the plan, then try again.\n",
    );
    expect(served.requests).toEqual(['POST /subscriptions/limits']);
    await served.close();

    served = await serveSandbox({
      override: (request) =>
        new URL(request.url).pathname.endsWith('/subscriptions/limits')
          ? Response.json({ success: false, error: 'Limits are resting.' }, { status: 503 })
          : undefined,
    });
    const unasked = await runCli(['documents', 'upload', join(dir, 'prices.pdf')], { env: sandboxEnv(served) });
    expect(unasked.code).toBe(0);
    expect(unasked.stderr).toBe(
      "Could not ask the service whether 15 B fit the plan's storage (The service failed (503: Limits are resting); try again later); uploading anyway.\n",
    );
    expect(unasked.stdout).toMatch(/^Uploaded prices\.pdf as document \S+\./);
  });

  it("warns when this computer uploaded the same name to the agent before, saying it is this computer's record", async () => {
    served = await serveSandbox();
    const env = { ...sandboxEnv(served), AGENT_WIDGET_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'agent-widget-record-')) };
    const first = await runCli(['documents', 'upload', join(dir, 'prices.pdf'), '--json'], { env });
    expect(first.stderr).toBe('');
    const { documentId } = JSON.parse(first.stdout) as Uploaded;
    const again = await runCli(['documents', 'upload', join(dir, 'prices.pdf'), join(dir, 'manual.docx')], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(
      new RegExp(
        `^Warning: prices\\.pdf was uploaded to agent demo-agent before, as document ${documentId} on \\d{4}-\\d\\d-\\d\\d \\(as this computer's record says: the service has no list of documents\\); it will be a second document\\.\\n$`,
      ),
    );
    expect(statSync(join(env.AGENT_WIDGET_CONFIG_DIR, 'uploads.json')).mode & 0o777).toBe(0o600);
    // Another agent's record is its own.
    const other = await runCli(['documents', 'upload', join(dir, 'prices.pdf'), '--agent', 'agent-2'], { env });
    expect(other.stderr).not.toContain('Warning');
  });

  it('says when the record of uploads cannot be read, uploads anyway and writes it anew', async () => {
    served = await serveSandbox();
    const directory = mkdtempSync(join(tmpdir(), 'agent-widget-record-'));
    writeFileSync(join(directory, 'uploads.json'), 'not a record');
    const env = { ...sandboxEnv(served), AGENT_WIDGET_CONFIG_DIR: directory };
    const result = await runCli(['documents', 'upload', join(dir, 'prices.pdf')], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `Could not read ${join(directory, 'uploads.json')} (it is not a record of uploads): no warning about names uploaded before this time.\n`,
    );
    const again = await runCli(['documents', 'upload', join(dir, 'prices.pdf')], { env });
    expect(again.stderr).toMatch(/^Warning: prices\.pdf was uploaded to agent demo-agent before/);
  });

  it('goes on after a file the service refuses, stops the rest after a failure that would repeat, and exits with the first', async () => {
    let uploads = 0;
    served = await serveSandbox({
      override: (request) => {
        if (!new URL(request.url).pathname.endsWith('/documents/upload')) return undefined;
        uploads++;
        if (uploads === 1) return Response.json({ success: false, error: 'This file is damaged.' }, { status: 400 });
        return undefined;
      },
    });
    const env = sandboxEnv(served);
    const result = await runCli(['documents', 'upload', join(dir, 'prices.pdf'), join(dir, 'manual.docx')], { env });
    expect(result.code).toBe(5);
    expect(result.stdout).toMatch(/^Uploaded manual\.docx as document \S+\./);
    expect(result.stderr).toBe(
      [
        'agent-widget: prices.pdf: The service refused the request (400: This file is damaged).',
        'agent-widget: Done with 1 of 2 files; failed: prices.pdf.',
        '',
      ].join('\n'),
    );
    await served.close();

    served = await serveSandbox({
      override: (request) =>
        new URL(request.url).pathname.endsWith('/documents/upload')
          ? Response.json({ success: false, error: 'Down for repairs.' }, { status: 500 })
          : undefined,
    });
    const stopped = await runCli(['documents', 'upload', join(dir, 'prices.pdf'), join(dir, 'manual.docx')], { env: sandboxEnv(served) });
    expect(stopped.code).toBe(8);
    expect(stopped.stderr).toContain('agent-widget: Done with 0 of 2 files; failed: prices.pdf; not sent: manual.docx.');
    expect(served.requests.filter((r) => r === 'POST /documents/upload')).toHaveLength(1);
  });
});

/**
 * The sandbox behind a link that reads upload bodies at `bytesPerSecond` and answers them `answerAfterMs`
 * after their last byte; `readMs` says how long the last body took.
 */
async function serveThrottled(bytesPerSecond: number, answerAfterMs = 0): Promise<Served & { readMs: () => number }> {
  const sandbox: Sandbox = createSandbox({ basePath: '/sandbox', seed: 7 });
  const requests: string[] = [];
  const listener = toNodeListener((request) => sandbox.handle(request));
  let readMs = 0;
  const throttled = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    const started = Date.now();
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      req.pause();
      setTimeout(() => req.resume(), (chunk.length / bytesPerSecond) * 1000);
    });
    req.on('end', () => {
      readMs = Date.now() - started;
      const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
        method: 'POST',
        headers: Object.entries(req.headers).flatMap(([name, value]): [string, string][] =>
          typeof value === 'string' ? [[name, value]] : [],
        ),
        body: Buffer.concat(chunks),
      });
      setTimeout(() => {
        void sandbox.handle(request).then(async (response) => {
          res.writeHead(response.status, { 'Content-Type': 'application/json' });
          res.end(await response.text());
        });
      }, answerAfterMs);
    });
  };
  const server = createServer((req, res) => {
    requests.push(`${req.method ?? ''} ${(req.url ?? '').replace(/^\/sandbox/, '')}`);
    if (req.url === '/sandbox/documents/upload') throttled(req, res);
    else listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/sandbox`,
    sandbox,
    requests,
    readMs: () => readMs,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('a slow link', () => {
  it('is given time for the size: a body the service reads for longer than the request deadline still gets its answer', async () => {
    // 3 MB read at 1 MB/s take about 3 s; each request may take 1 s (AGENT_WIDGET_REQUEST_TIMEOUT), an
    // upload 1 s plus its size at 1 Mbit/s (25 s here).
    const throttled = await serveThrottled(1_000_000);
    served = throttled;
    const env = { ...sandboxEnv(throttled), AGENT_WIDGET_REQUEST_TIMEOUT: '1' };
    const result = await runCli(['documents', 'upload', join(dir, 'big.pdf'), '--json'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ uploaded: 'big.pdf', size: 3_000_000, documentId: expect.any(String) });
    expect(throttled.readMs()).toBeGreaterThan(1000);
  });

  it.skipIf(!HAS_PTY)('shows the bytes sent, the size and the percent on a terminal, redrawn in place', async () => {
    const throttled = await serveThrottled(8_000_000);
    served = throttled;
    const running = await startCli(['documents', 'upload', join(dir, 'huge.pdf')], { env: sandboxEnv(throttled), tty: true });
    await running.stdoutMatches(/Uploading huge\.pdf: [\d.]+ (B|KiB|MiB) of 18\.1 MiB \(([1-9]|[1-9]\d)%\)/);
    const result = await running.done;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Uploading huge\.pdf: 18\.1 MiB of 18\.1 MiB \(100%\), waiting for the answer/);
    expect(result.stdout).toMatch(/Uploaded huge\.pdf as document \S+\./);
    // Redrawn: the line is cleared and written again rather than a new line per step.
    expect(result.stdout).toContain('\u001b[1G\u001b[0K');
  });

  it('refuses an AGENT_WIDGET_REQUEST_TIMEOUT that is not a number of seconds, before anything is sent', async () => {
    served = await serveSandbox();
    const env = { ...sandboxEnv(served), AGENT_WIDGET_REQUEST_TIMEOUT: 'soon' };
    const result = await runCli(['documents', 'upload', join(dir, 'prices.pdf')], { env });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agent-widget: AGENT_WIDGET_REQUEST_TIMEOUT must be a number of seconds from 0.1 to 3600.\n',
    });
    expect(served.requests).toEqual([]);
  });

  it('an upload not answered within its allowance says how much was sent and how to allow more; --timeout does', async () => {
    const throttled = await serveThrottled(1_000_000, 2500);
    served = throttled;
    const env = { ...sandboxEnv(throttled), AGENT_WIDGET_REQUEST_TIMEOUT: '1' };
    const cut = await runCli(['documents', 'upload', join(dir, 'prices.pdf')], { env });
    expect(cut.code).toBe(7);
    expect(cut.stderr).toBe(
      'agent-widget: The upload of prices.pdf was not answered within 1s, with 15 B of 15 B (100%) sent; on a slow link allow more with --timeout <seconds>.\n',
    );
    const allowed = await runCli(['documents', 'upload', join(dir, 'prices.pdf'), '--timeout', '10'], { env });
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/^Uploaded prices\.pdf as document \S+\./);
  });

  it('Ctrl-C during an upload stops it and says how much was sent (exit 130)', async () => {
    const throttled = await serveThrottled(1_000_000);
    served = throttled;
    const running = await startCli(['documents', 'upload', join(dir, 'huge.pdf'), '--debug'], { env: sandboxEnv(throttled) });
    await running.stderrMatches(/→ POST \S+\/documents\/upload/);
    running.kill('SIGINT');
    const result = await running.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(
      /agent-widget: Stopped while uploading huge\.pdf, with [\d.]+ (B|KiB|MiB) of 18\.1 MiB \(\d+%\) sent\.\n$/,
    );
    expect(result.stdout).toBe('');
  });

  it('in a pipe or --json a short upload adds no progress line, and stdout is the JSON document alone', async () => {
    served = await serveSandbox();
    const result = await runCli(['documents', 'upload', join(dir, 'big.pdf'), '--json'], { env: sandboxEnv(served) });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(() => JSON.parse(result.stdout) as unknown).not.toThrow();
  });
});
