import { describe, expect, test } from 'vitest';
import { assumedPaths } from '../../src/core/spec-assumptions';
import { createSandbox, DEMO_AGENT_ID, DEMO_API_KEY, DEMO_SCOPED_API_KEY, type Sandbox, type SandboxOptions } from '../../src/sandbox';
import { call, manualClock } from './helpers';

const agentId = DEMO_AGENT_ID;
const OTHER_KEY = 'sk_live_sandbox_other_owner_000000000';
const options: SandboxOptions = {
  agents: [{ id: agentId }, { id: 'second' }, { id: 'theirs', owner: 'someone-else' }],
  keys: [{ key: DEMO_API_KEY }, { key: DEMO_SCOPED_API_KEY, agentId }, { key: OTHER_KEY, owner: 'someone-else' }],
};

function setup(extra: SandboxOptions = {}) {
  const clock = manualClock('2026-11-20T12:00:00Z');
  const sandbox = createSandbox({ now: clock.now, seed: 11, ...options, ...extra });
  return { clock, sandbox };
}

async function createSource(sandbox: Sandbox, body: Record<string, unknown> = {}, key = DEMO_API_KEY) {
  const defaults = { agentId, url: 'https://harbor.example/', mode: 'crawl' };
  return call(sandbox, 'POST', '/web-sources', { key, body: { ...defaults, ...body } });
}

async function sourceId(sandbox: Sandbox, body: Record<string, unknown> = {}): Promise<string> {
  const res = await createSource(sandbox, body);
  expect(res.status).toBe(200);
  return String((res.body.webSource as { id: string }).id);
}

describe('web sources', () => {
  test('create applies the defaults maxPages 50 and maxDepth 2', async () => {
    const res = await createSource(setup().sandbox);
    expect(res.body).toEqual({
      success: true,
      webSource: expect.objectContaining({
        id: expect.stringMatching(/^ws_/),
        agentId,
        url: 'https://harbor.example/',
        mode: 'crawl',
        maxPages: 50,
        maxDepth: 2,
        discoveredUrls: [],
      }),
    });
  });

  test.each([
    ['url missing', { url: undefined }],
    ['url not http(s)', { url: 'ftp://harbor.example/' }],
    ['url not a URL', { url: 'harbor' }],
    ['mode unknown', { mode: 'deep' }],
    ['mode missing', { mode: undefined }],
    ['maxPages 0', { maxPages: 0 }],
    ['maxPages 101', { maxPages: 101 }],
    ['maxPages fractional', { maxPages: 2.5 }],
    ['maxDepth 0', { maxDepth: 0 }],
    ['maxDepth 4', { maxDepth: 4 }],
    ['maxDepth a string', { maxDepth: '2' }],
  ])('%s is a 400', async (_name, body) => {
    expect((await createSource(setup().sandbox, body)).status).toBe(400);
  });

  test('the limits themselves are accepted', async () => {
    const { sandbox } = setup();
    for (const body of [
      { maxPages: 1, maxDepth: 1 },
      { maxPages: 100, maxDepth: 3 },
    ])
      expect((await createSource(sandbox, body)).status).toBe(200);
  });

  test('at most 10 per agent: the 11th is a 400 until one is deleted; other agents are unaffected', async () => {
    const { sandbox } = setup();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await sourceId(sandbox, { url: `https://harbor.example/${i}` }));
    const eleventh = await createSource(sandbox);
    expect(eleventh.status).toBe(400);
    expect(eleventh.body).toMatchObject({ code: 'limit_reached', error: expect.stringMatching(/10/) });
    expect((await createSource(sandbox, { agentId: 'second' })).status).toBe(200);
    expect((await call(sandbox, 'DELETE', `/web-sources/${ids[0]}`)).body).toEqual({ success: true });
    expect((await createSource(sandbox)).status).toBe(200);
  });

  test('discover finds same-origin pages: 4 per crawl depth, capped by maxPages; single finds itself', async () => {
    const { sandbox } = setup();
    const crawl = await sourceId(sandbox, { url: 'https://harbor.example/start', maxDepth: 2 });
    const res = await call(sandbox, 'POST', `/web-sources/${crawl}/discover`);
    expect(res.body.discoveredCount).toBe(8);
    const urls = (res.body.webSource as { discoveredUrls: { url: string }[] }).discoveredUrls.map((d) => d.url);
    expect(urls).toHaveLength(8);
    for (const url of urls) expect(new URL(url).origin).toBe('https://harbor.example');

    const capped = await sourceId(sandbox, { mode: 'sitemap', maxPages: 3 });
    expect((await call(sandbox, 'POST', `/web-sources/${capped}/discover`)).body.discoveredCount).toBe(3);
    const single = await sourceId(sandbox, { mode: 'single', url: 'https://harbor.example/prices' });
    const one = await call(sandbox, 'POST', `/web-sources/${single}/discover`);
    expect(one.body).toMatchObject({
      discoveredCount: 1,
      webSource: { discoveredUrls: [{ url: 'https://harbor.example/prices' }] },
    });
  });

  test('PATCH replaces the discovered list; invalid URLs or more than maxPages entries are a 400', async () => {
    const { sandbox } = setup();
    const id = await sourceId(sandbox, { maxPages: 2 });
    const list = [{ url: 'https://harbor.example/a' }, { url: 'https://harbor.example/b' }];
    const res = await call(sandbox, 'PATCH', `/web-sources/${id}`, { body: { discoveredUrls: list } });
    expect(res.body).toMatchObject({ success: true, webSource: { discoveredUrls: list } });
    const invalid = [undefined, 'x', [{ url: 'javascript:alert(1)' }], [{ href: 'https://a.example' }], [...list, ...list]];
    for (const discoveredUrls of invalid)
      expect((await call(sandbox, 'PATCH', `/web-sources/${id}`, { body: { discoveredUrls } })).status).toBe(400);
    const get = await call(sandbox, 'GET', assumedPaths.getWebSource(id));
    expect(get.body).toMatchObject({ webSource: { discoveredUrls: list } });
  });

  test('train starts scraping with a callId; chunking and completed follow, 2 s of clock per stage', async () => {
    const { sandbox, clock } = setup();
    const id = await sourceId(sandbox);
    const status = async () => {
      const res = await call(sandbox, 'GET', assumedPaths.getWebSource(id));
      return (res.body.webSource as { status?: string }).status;
    };
    expect(await status()).toBeUndefined();
    const res = await call(sandbox, 'POST', `/web-sources/${id}/train`);
    expect(res.body).toMatchObject({
      success: true,
      callId: expect.stringMatching(/^call_/),
      webSource: { status: 'scraping' },
    });
    clock.advance(1999);
    expect(await status()).toBe('scraping');
    clock.advance(1);
    expect(await status()).toBe('chunking');
    clock.advance(2000);
    expect(await status()).toBe('completed');
    clock.advance(60_000);
    expect(await status()).toBe('completed');
  });

  test("list returns the agent's sources", async () => {
    const { sandbox } = setup();
    const a = await sourceId(sandbox);
    await sourceId(sandbox, { agentId: 'second' });
    const res = await call(sandbox, 'GET', `${assumedPaths.listWebSources}?agentId=${agentId}`);
    expect((res.body.webSources as { id: string }[]).map((s) => s.id)).toEqual([a]);
    expect((await call(sandbox, 'GET', assumedPaths.listWebSources)).status).toBe(400);
  });

  test("unknown ids and ids of another owner's agent are 404 for every operation; out of scope is 401", async () => {
    const { sandbox } = setup();
    const mine = await sourceId(sandbox);
    const second = await sourceId(sandbox, { agentId: 'second' });
    const ops: [string, (id: string) => string][] = [
      ['GET', (id) => assumedPaths.getWebSource(id)],
      ['PATCH', (id) => `/web-sources/${id}`],
      ['POST', (id) => `/web-sources/${id}/discover`],
      ['POST', (id) => `/web-sources/${id}/train`],
      ['DELETE', (id) => `/web-sources/${id}`],
    ];
    for (const [method, path] of ops) {
      const body = method === 'PATCH' ? { discoveredUrls: [] } : undefined;
      expect((await call(sandbox, method, path('ws_nothing'), { body })).status).toBe(404);
      expect((await call(sandbox, method, path(mine), { key: OTHER_KEY, body })).status).toBe(404);
      expect((await call(sandbox, method, path(second), { key: DEMO_SCOPED_API_KEY, body })).status).toBe(401);
    }
    expect((await createSource(sandbox, { agentId: 'theirs' })).status).toBe(404);
    expect((await createSource(sandbox, { agentId: 'second' }, DEMO_SCOPED_API_KEY)).status).toBe(401);
  });

  test('DELETE is permanent', async () => {
    const { sandbox } = setup();
    const id = await sourceId(sandbox);
    await call(sandbox, 'DELETE', `/web-sources/${id}`);
    expect((await call(sandbox, 'GET', assumedPaths.getWebSource(id))).status).toBe(404);
    expect((await call(sandbox, 'DELETE', `/web-sources/${id}`)).status).toBe(404);
  });
});

function upload(sandbox: Sandbox, name: string, content = 'pdf bytes', agent = agentId, key = DEMO_API_KEY) {
  const form = new FormData();
  form.set('agentId', agent);
  form.set('file', new File([content], name, { type: 'application/pdf' }));
  return call(sandbox, 'POST', assumedPaths.uploadDocument, { key, body: form });
}

async function documentId(sandbox: Sandbox, name = 'intake-form.pdf'): Promise<string> {
  const res = await upload(sandbox, name);
  expect(res.status).toBe(200);
  return String(res.body.documentId);
}

const status = (sandbox: Sandbox, id: string, key = DEMO_API_KEY) =>
  call(sandbox, 'POST', '/convert-document/status', { key, body: { documentId: id } });

describe('documents', () => {
  test('upload returns a documentId; processing goes processing -> chunking -> completed, 2 s per stage', async () => {
    const { sandbox, clock } = setup();
    const id = await documentId(sandbox);
    expect(id).toMatch(/^doc_/);
    const start = await call(sandbox, 'POST', '/convert-document', { body: { agentId, documentId: id } });
    expect(start.body).toEqual({ success: true, callId: expect.stringMatching(/^call_/), message: expect.any(String) });
    expect((await status(sandbox, id)).body).toEqual({ success: true, status: 'processing' });
    clock.advance(2000);
    expect((await status(sandbox, id)).body.status).toBe('chunking');
    clock.advance(2000);
    expect((await status(sandbox, id)).body.status).toBe('completed');
  });

  test('a file whose name contains "corrupt" ends in error', async () => {
    const { sandbox, clock } = setup();
    const id = await documentId(sandbox, 'Corrupt-scan.docx');
    await call(sandbox, 'POST', '/convert-document', { body: { agentId, documentId: id } });
    expect((await status(sandbox, id)).body.status).toBe('processing');
    clock.advance(2000);
    expect((await status(sandbox, id)).body.status).toBe('error');
    clock.advance(60_000);
    expect((await status(sandbox, id)).body.status).toBe('error');
  });

  test('status before processing has started is a 400', async () => {
    const { sandbox } = setup();
    const res = await status(sandbox, await documentId(sandbox));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('processing_not_started');
  });

  test('unknown documents, documents of another agent or owner, and missing fields', async () => {
    const { sandbox } = setup();
    const id = await documentId(sandbox);
    expect((await status(sandbox, 'doc_nothing')).status).toBe(404);
    expect((await status(sandbox, id, OTHER_KEY)).status).toBe(404);
    const convert = (body: Record<string, unknown>) => call(sandbox, 'POST', '/convert-document', { body });
    expect((await convert({ agentId, documentId: 'doc_nothing' })).status).toBe(404);
    expect((await convert({ agentId: 'second', documentId: id })).status).toBe(404);
    expect((await convert({ agentId })).status).toBe(400);
    expect((await call(sandbox, 'POST', '/convert-document/status', { body: {} })).status).toBe(400);
  });

  test('upload refuses other file types, empty files, non-multipart bodies and foreign agents', async () => {
    const { sandbox } = setup();
    expect((await upload(sandbox, 'notes.txt')).status).toBe(400);
    expect((await upload(sandbox, 'empty.pdf', '')).status).toBe(400);
    expect((await call(sandbox, 'POST', assumedPaths.uploadDocument, { body: { agentId } })).status).toBe(400);
    expect((await upload(sandbox, 'a.pdf', 'x', 'theirs')).status).toBe(404);
    expect((await upload(sandbox, 'a.pdf', 'x', 'second', DEMO_SCOPED_API_KEY)).status).toBe(401);
  });
});
