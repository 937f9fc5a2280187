// documents.upload: the file is streamed as multipart (read by the sandbox's real parser), its progress
// is reported, and its deadline grows with its size, so a big file on a slow link is not cut after its
// bytes arrived. The slow links run on the fake clock.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createSandbox, DEMO_AGENT_ID, DEMO_API_KEY } from '../../src/sandbox';
import { ApiError, createAgentClient, DEFAULT_UPLOAD_BYTES_PER_SECOND, type AgentClientOptions } from '../../src/server';

const BASE_URL = 'https://service.test';

afterEach(() => {
  vi.useRealTimers();
});

function sandboxClient(options: Partial<AgentClientOptions> = {}) {
  const sandbox = createSandbox();
  const requests: Request[] = [];
  const client = createAgentClient({
    apiKey: DEMO_API_KEY,
    baseUrl: BASE_URL,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      requests.push(request.clone());
      return sandbox.handle(request);
    },
    ...options,
  });
  return { client, requests };
}

/** A waiting that the request's signal cuts short, as a real connection would be. */
function pause(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** A service on a link of `bytesPerSecond` that answers `answerAfterMs` after the last byte arrived. */
function slowLink(bytesPerSecond: number, answerAfterMs: number): { fetch: typeof fetch; arrivedAt: () => number | undefined } {
  let arrivedAt: number | undefined;
  return {
    arrivedAt: () => arrivedAt,
    fetch: async (_input, init) => {
      const body = init?.body;
      if (!(body instanceof ReadableStream)) throw new Error('expected a streamed body');
      const reader = (body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        await pause((value.byteLength / bytesPerSecond) * 1000, init?.signal);
      }
      arrivedAt = Date.now();
      await pause(answerAfterMs, init?.signal);
      return Response.json({ success: true, documentId: 'doc_slow' });
    },
  };
}

const MB = 1_000_000;

describe('documents.upload', () => {
  test('streams the file as multipart the service reads: field, file name (quotes, accents), type, bytes and length', async () => {
    const { client, requests } = sandboxClient();
    const bytes = new Uint8Array(300_000).map((_, i) => i % 251);
    const file = new Blob([new TextEncoder().encode('%PDF-1.7 '), bytes], { type: 'application/pdf' });
    const name = 'Preis "liste" für Köln.pdf';
    const uploaded = await client.documents.upload(DEMO_AGENT_ID, file, name);
    // The sandbox answers with the name and size it read.
    expect(uploaded).toMatchObject({ name, size: file.size });

    const [request] = requests;
    expect(request?.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    const form = await request?.clone().formData();
    expect(form?.get('agentId')).toBe(DEMO_AGENT_ID);
    const sent = form?.get('file');
    expect(sent).toBeInstanceOf(File);
    expect((sent as File).type).toBe('application/pdf');
    expect(new Uint8Array(await (sent as File).arrayBuffer())).toEqual(new Uint8Array(await file.arrayBuffer()));
    expect(Number(request?.headers.get('Content-Length'))).toBe((await request?.arrayBuffer())?.byteLength);
  });

  test('reports progress as the bytes go out, ending at the whole file', async () => {
    const { client } = sandboxClient();
    // A Blob in memory streams one chunk per part; a file from disk streams 64 KiB chunks.
    const file = new Blob(Array.from({ length: 10 }, () => new Uint8Array(100_000)));
    const progress: [number, number][] = [];
    await client.documents.upload(DEMO_AGENT_ID, file, 'big.pdf', { onProgress: (sent, total) => progress.push([sent, total]) });
    expect(progress[0]).toEqual([0, file.size]);
    expect(progress.at(-1)).toEqual([file.size, file.size]);
    expect(progress.length).toBeGreaterThan(2);
    const sents = progress.map(([sent]) => sent);
    expect(sents).toEqual([...sents].sort((a, b) => a - b));
  });

  test('the deadline is timeoutMs plus the size at 1 Mbit/s (or uploadBytesPerSecond)', () => {
    expect(DEFAULT_UPLOAD_BYTES_PER_SECOND).toBe(125_000);
    expect(sandboxClient().client.documents.uploadDeadlineMs(19 * MB)).toBe(15_000 + 152_000);
    expect(sandboxClient({ timeoutMs: 2000, uploadBytesPerSecond: 1 * MB }).client.documents.uploadDeadlineMs(5 * MB)).toBe(7000);
  });

  test('19 MB on a 10 Mbit/s link, answered after every byte arrived past 15 s, is not cut', async () => {
    vi.useFakeTimers();
    const link = slowLink(1.25 * MB, 2000);
    const { client } = sandboxClient({ fetch: link.fetch });
    const upload = client.documents.upload(DEMO_AGENT_ID, new Blob([new Uint8Array(19 * MB)]), 'manual.pdf');
    await vi.advanceTimersByTimeAsync(20_000);
    await expect(upload).resolves.toMatchObject({ documentId: 'doc_slow' });
    expect(link.arrivedAt()).toBeGreaterThan(15_000);
  });

  test('a body sent at exactly the floor speed gets the base deadline for its answer, and no more', async () => {
    vi.useFakeTimers();
    // 2 MB at 125 000 B/s take 16 s, so the deadline is 31 s: an answer 14 s after the last byte is in time.
    const inTime = sandboxClient({ fetch: slowLink(DEFAULT_UPLOAD_BYTES_PER_SECOND, 14_000).fetch }).client;
    const answered = inTime.documents.upload(DEMO_AGENT_ID, new Blob([new Uint8Array(2 * MB)]), 'a.pdf');
    await vi.advanceTimersByTimeAsync(31_000);
    await expect(answered).resolves.toMatchObject({ documentId: 'doc_slow' });

    const late = sandboxClient({ fetch: slowLink(DEFAULT_UPLOAD_BYTES_PER_SECOND, 16_000).fetch }).client;
    const cut = late.documents.upload(DEMO_AGENT_ID, new Blob([new Uint8Array(2 * MB)]), 'a.pdf').catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(31_000);
    const error = await cut;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'timeout', message: 'No answer within 31000 ms.' });
  });

  test('timeoutMs of the call replaces the derived deadline', async () => {
    vi.useFakeTimers();
    const { client } = sandboxClient({ fetch: slowLink(DEFAULT_UPLOAD_BYTES_PER_SECOND, 50_000).fetch });
    const upload = client.documents.upload(DEMO_AGENT_ID, new Blob([new Uint8Array(1000)]), 'a.pdf', { timeoutMs: 60_000 });
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(upload).resolves.toMatchObject({ documentId: 'doc_slow' });
  });

  test('a timeoutMs or uploadBytesPerSecond that is not a positive number is refused before anything is sent', async () => {
    const { client, requests } = sandboxClient();
    const error = await client.documents
      .upload(DEMO_AGENT_ID, new Blob(['%PDF-']), 'a.pdf', { timeoutMs: 0 })
      .catch((failure: unknown) => failure);
    expect(error).toMatchObject({ kind: 'validation', argument: 'timeoutMs' });
    expect(requests).toEqual([]);
    expect(() => sandboxClient({ uploadBytesPerSecond: -1 })).toThrow(expect.objectContaining({ argument: 'uploadBytesPerSecond' }));
  });

  test('a redirect answered to an upload on a real connection is refused, and the key goes nowhere else', async () => {
    const elsewhere: string[] = [];
    const server = createServer((request, response) => {
      if (request.url?.startsWith('/elsewhere')) elsewhere.push(request.headers.authorization ?? '');
      request.resume();
      request.on('end', () => {
        response.writeHead(307, { Location: '/elsewhere' });
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = createAgentClient({ apiKey: DEMO_API_KEY, baseUrl: `http://127.0.0.1:${port}` });
      const error = await client.documents.upload(DEMO_AGENT_ID, new Blob(['%PDF-1.7']), 'a.pdf').catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ kind: 'invalid_response', message: expect.stringContaining('Redirects are not followed') });
      expect(elsewhere).toEqual([]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
