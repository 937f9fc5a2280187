// The proxy and the server client against the sandbox in strict-spec mode: no error codes, only the
// spec's statuses, optional fields missing, unknown fields added, /chat's reply under other names.
import { describe, expect, test } from 'vitest';
import { createSandbox, DEMO_AGENT_ID, DEMO_API_KEY } from '../../src/sandbox';
import { createAgentClient, createChatProxy, InsufficientCreditsError, type ProxyLogEntry } from '../../src/server';
import { chatRequest, ORIGIN, PROXY_URL } from './helpers';

const BASE_URL = 'https://service.test';

function strictService(credits = 500) {
  const sandbox = createSandbox({ strict: true, credits, now: () => new Date('2026-11-20T12:00:00Z') });
  const fetch: typeof globalThis.fetch = async (input, init) => sandbox.handle(new Request(input, init));
  return { sandbox, fetch };
}

describe('strict-spec service', () => {
  test('the proxy reads a reply named `answer` and an id named `conversation_id`, and the conversation goes on', async () => {
    const { fetch } = strictService();
    const logs: ProxyLogEntry[] = [];
    const credits: number[] = [];
    const handler = createChatProxy({
      apiKey: DEMO_API_KEY,
      baseUrl: BASE_URL,
      agentId: DEMO_AGENT_ID,
      allowedOrigins: [ORIGIN],
      fetch,
      log: (entry) => void logs.push(entry),
      onCredits: (c) => void credits.push(c.remaining),
    });
    const first = await handler(chatRequest({ body: { agentId: DEMO_AGENT_ID, message: 'What are your opening hours?' } }));
    const body = (await first.json()) as { success: boolean; reply: string; conversationId: string };
    expect(first.status).toBe(200);
    expect(body.reply).toMatch(/\S/);
    expect(body.conversationId).toMatch(/\S/);
    expect(Object.keys(body).sort()).toEqual(['conversationId', 'reply', 'success', ...('sources' in body ? ['sources'] : [])].sort());
    const second = await handler(
      chatRequest({ url: PROXY_URL, body: { agentId: DEMO_AGENT_ID, message: 'And on Saturday?', conversationId: body.conversationId } }),
    );
    expect(((await second.json()) as { conversationId: string }).conversationId).toBe(body.conversationId);
    expect(credits).toEqual([499, 498]);
  });

  test('a 402 without a code is still "no credits" at the proxy and in the server client', async () => {
    const { fetch } = strictService(0);
    const handler = createChatProxy({ apiKey: DEMO_API_KEY, baseUrl: BASE_URL, agentId: DEMO_AGENT_ID, allowedOrigins: [ORIGIN], fetch });
    const res = await handler(chatRequest({ body: { agentId: DEMO_AGENT_ID, message: 'Hi' } }));
    expect(res.status).toBe(402);
    expect(((await res.json()) as { code: string }).code).toBe('insufficient_credits');
    const client = createAgentClient({ apiKey: DEMO_API_KEY, baseUrl: BASE_URL, fetch });
    await expect(client.chat({ agentId: DEMO_AGENT_ID, message: 'Hi' })).rejects.toBeInstanceOf(InsufficientCreditsError);
  });

  test('the server client reads every account answer with defaults for what is missing; unknown fields of records are kept', async () => {
    const { fetch } = strictService();
    const client = createAgentClient({ apiKey: DEMO_API_KEY, baseUrl: BASE_URL, fetch });
    const created = await client.webSources.create({ agentId: DEMO_AGENT_ID, url: 'https://harbor.example/', mode: 'crawl' });
    expect(created.webSource.id).toMatch(/\S/);
    expect(created.webSource.x_unknown).toBe(1);
    expect((await client.webSources.list(DEMO_AGENT_ID)).webSources).toHaveLength(1);
    const credits = await client.credits({ includeStats: true });
    expect(credits.credits.balance).toBe(500);
    expect(credits.stats?.byFeature).toBeDefined();
    const subscription = await client.subscriptions.get();
    expect(subscription.subscription.status).toMatch(/\S/);
    expect((await client.subscriptions.invoices()).invoices).toBeInstanceOf(Array);
    const analytics = await client.analytics(DEMO_AGENT_ID);
    expect(analytics.data.overview.totalConversations).toBeGreaterThanOrEqual(0);
    expect(await client.subscriptions.limits({ check: 'agent' })).toMatchObject({ success: true, check: 'agent' });
  });

  test('an answer that does not fit is an ApiError of kind invalid_response naming the field', async () => {
    const sandbox = createSandbox({ strict: true, faults: [{ path: '/credits', kind: 'shape' }] });
    const client = createAgentClient({
      apiKey: DEMO_API_KEY,
      baseUrl: BASE_URL,
      fetch: async (input, init) => sandbox.handle(new Request(input, init)),
    });
    await expect(client.credits()).rejects.toMatchObject({
      kind: 'invalid_response',
      message: expect.stringContaining('credits: expected an object'),
    });
  });
});
