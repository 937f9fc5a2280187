// `npm start`'s server (scripts/serve.mjs) sends text compressed the way the browser asked, brotli
// first, with Vary: Accept-Encoding so a cache keeps one copy per coding. npm test builds before this.
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDemoServer, type DemoServer } from '../e2e/support/server';

const widget = readFileSync(fileURLToPath(new URL('../../dist/widget.js', import.meta.url)));
let server: DemoServer;

beforeAll(async () => {
  server = await startDemoServer();
}, 30_000);
afterAll(() => server?.close());

/** A raw GET (fetch would decode the body and hide what went over the wire). */
function get(path: string, acceptEncoding?: string): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {};
    const req = request(new URL(path, server.url), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('npm start serves compressed text', () => {
  test('brotli when accepted: dist/widget.js arrives whole and under 8 KB, checked again on every load', async () => {
    const { headers, body } = await get('/widget.js', 'gzip, deflate, br');
    expect(headers['content-encoding']).toBe('br');
    expect(headers.vary).toBe('Accept-Encoding');
    expect(headers['cache-control']).toBe('no-cache');
    expect(Number(headers['content-length'])).toBe(body.length);
    expect(body.length).toBeLessThan(8 * 1024);
    expect(brotliDecompressSync(body).equals(widget)).toBe(true);
  });

  test("the panel's file, named by its content, is kept for a year", async () => {
    const panel = readdirSync(fileURLToPath(new URL('../../dist/chunks/', import.meta.url))).find((file) => file.startsWith('panel.'));
    const { headers } = await get(`/chunks/${panel}`, 'br');
    expect(headers['content-encoding']).toBe('br');
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('gzip when brotli is refused (q=0) or not offered', async () => {
    for (const accept of ['gzip, br;q=0', 'gzip']) {
      const { headers, body } = await get('/widget.js', accept);
      expect(headers['content-encoding'], accept).toBe('gzip');
      expect(gunzipSync(body).equals(widget), accept).toBe(true);
    }
  });

  test('identity when nothing is accepted, still with Vary; the demo page too', async () => {
    const plain = await get('/widget.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.body.equals(widget)).toBe(true);
    const page = await get('/', 'br');
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.body).toString()).toContain('<script src="/widget.js"');
  });
});
