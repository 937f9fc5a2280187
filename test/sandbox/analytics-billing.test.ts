import { describe, expect, test } from 'vitest';
import { assumedPaths } from '../../src/core/spec-assumptions';
import type { AnalyticsData, CreditsResponse, Invoice, SubscriptionResponse } from '../../src/core/types';
import { createSandbox, DEMO_AGENT_ID, DEMO_API_KEY, DEMO_SCOPED_API_KEY, type Sandbox, type SandboxOptions } from '../../src/sandbox';
import { call, manualClock } from './helpers';

const agentId = DEMO_AGENT_ID;
const OTHER_KEY = 'sk_live_sandbox_other_owner_000000000';
const NOW = '2026-11-20T12:00:00Z';

function setup(extra: SandboxOptions = {}) {
  const clock = manualClock(NOW);
  const sandbox = createSandbox({
    now: clock.now,
    seed: 5,
    agents: [{ id: agentId }, { id: 'second' }, { id: 'theirs', owner: 'someone-else' }],
    keys: [{ key: DEMO_API_KEY }, { key: DEMO_SCOPED_API_KEY, agentId }, { key: OTHER_KEY, owner: 'someone-else' }],
    ...extra,
  });
  return { clock, sandbox };
}

async function chat(sandbox: Sandbox, message: string, conversationId?: string, agent = agentId): Promise<string> {
  const res = await call(sandbox, 'POST', '/chat', { body: { agentId: agent, message, conversationId } });
  expect(res.status).toBe(200);
  return String(res.body.conversationId);
}

/**
 * Three conversations on the demo agent: A 50 days ago (hours), B yesterday (prices, then an
 * unknown question), C now (hours); and one on 'second' now.
 */
async function history() {
  const ctx = setup();
  ctx.clock.set('2026-10-01T15:00:00Z');
  const a = await chat(ctx.sandbox, 'What are your opening hours?');
  ctx.clock.set('2026-11-19T10:00:00Z');
  const b = await chat(ctx.sandbox, 'What are your prices?');
  ctx.clock.advance(60_000);
  await chat(ctx.sandbox, 'Any pizza nearby?', b);
  ctx.clock.set(NOW);
  const c = await chat(ctx.sandbox, 'When do you open on Saturday?');
  await chat(ctx.sandbox, 'hello', undefined, 'second');
  return { ...ctx, a, b, c };
}

async function analytics(sandbox: Sandbox, query = '', key = DEMO_API_KEY, agent = agentId) {
  return call(sandbox, 'GET', `/agents/${agent}/analytics${query}`, { key });
}

describe('analytics', () => {
  test('default 30 days: totals all-time, period figures for the last 30 days', async () => {
    const { sandbox, b, c } = await history();
    const res = await analytics(sandbox);
    expect(res.status).toBe(200);
    const data = res.body.data as AnalyticsData;
    expect(data.overview).toEqual({
      totalConversations: 3,
      periodConversations: 2,
      totalMessages: 8,
      avgMessagesPerConvo: 2.7,
      sourceCitationRate: 66.7,
    });
    expect(data.sourceBreakdown).toEqual([
      { name: 'playground', value: 0 },
      { name: 'iframe', value: 0 },
      { name: 'widget', value: 0 },
      { name: 'api', value: 2 },
    ]);
    expect(data.topDocuments).toEqual([
      { id: 'kb-hours', name: 'Opening hours', count: 1 },
      { id: 'kb-prices', name: 'Prices and insurance', count: 1 },
    ]);
    expect(data.recentQuestions.map((q) => [q.content, q.conversation_id])).toEqual([
      ['When do you open on Saturday?', c],
      ['Any pizza nearby?', b],
      ['What are your prices?', b],
    ]);
    expect(data.recentQuestions[0]?.created_at).toBe('2026-11-20T12:00:00.000Z');
    expect(data.conversationsOverTime).toHaveLength(30);
    expect(data.conversationsOverTime[0]).toEqual({ date: '2026-10-22', conversations: 0 });
    expect(data.conversationsOverTime.slice(-2)).toEqual([
      { date: '2026-11-19', conversations: 1 },
      { date: '2026-11-20', conversations: 1 },
    ]);
  });

  test('days=0 is all time; days=1 is the last 24 hours', async () => {
    const { sandbox } = await history();
    const all = (await analytics(sandbox, '?days=0')).body.data as AnalyticsData;
    expect(all.overview.periodConversations).toBe(3);
    expect(all.overview.sourceCitationRate).toBe(75);
    expect(all.topDocuments[0]).toEqual({ id: 'kb-hours', name: 'Opening hours', count: 2 });
    expect(all.conversationsOverTime[0]).toEqual({ date: '2026-10-01', conversations: 1 });
    expect(all.conversationsOverTime).toHaveLength(51);
    const day = (await analytics(sandbox, '?days=1')).body.data as AnalyticsData;
    expect(day.overview.periodConversations).toBe(1);
    expect(day.overview.sourceCitationRate).toBe(100);
    expect(day.conversationsOverTime).toEqual([{ date: '2026-11-20', conversations: 1 }]);
  });

  test('an agent without chats has zeros', async () => {
    const data = (await analytics(setup().sandbox, '?days=0')).body.data as AnalyticsData;
    expect(data.overview).toEqual({
      totalConversations: 0,
      periodConversations: 0,
      totalMessages: 0,
      avgMessagesPerConvo: 0,
      sourceCitationRate: 0,
    });
    expect(data.conversationsOverTime).toEqual([]);
    expect(data.recentQuestions).toEqual([]);
  });

  test('ownership and scope are enforced; a malformed days is a 400', async () => {
    const { sandbox } = setup();
    expect((await analytics(sandbox, '', OTHER_KEY)).status).toBe(404);
    expect((await analytics(sandbox, '', DEMO_API_KEY, 'theirs')).status).toBe(404);
    expect((await analytics(sandbox, '', DEMO_SCOPED_API_KEY, 'second')).status).toBe(401);
    expect((await analytics(sandbox, '', DEMO_SCOPED_API_KEY)).status).toBe(200);
    expect((await analytics(sandbox, '?days=-1')).status).toBe(400);
    expect((await analytics(sandbox, '?days=week')).status).toBe(400);
  });
});

describe('credits', () => {
  test('balance, lifetime use and, with includeStats=true, period, feature and agent totals', async () => {
    const { sandbox } = await history();
    const plain = (await call(sandbox, 'GET', '/credits')).body as unknown as CreditsResponse;
    expect(plain.credits).toEqual({ balance: 495, lifetimeUsed: 5, updatedAt: '2026-11-20T12:00:00.000Z' });
    expect(plain).not.toHaveProperty('stats');
    expect((await call(sandbox, 'GET', '/credits?includeStats=false')).body).not.toHaveProperty('stats');
    const withStats = (await call(sandbox, 'GET', '/credits?includeStats=true')).body as unknown as CreditsResponse;
    // The October chat is outside the current billing period (November, UTC).
    expect(withStats.stats).toEqual({
      totalUsed: 5,
      periodUsed: 4,
      byFeature: { chat: 5 },
      byAgent: { [agentId]: 4, second: 1 },
    });
  });

  test('each owner has its own balance', async () => {
    const { sandbox } = await history();
    expect((await call(sandbox, 'GET', '/credits', { key: OTHER_KEY })).body.credits).toMatchObject({
      balance: 500,
      lifetimeUsed: 0,
    });
  });
});

describe('subscriptions', () => {
  test('subscription, plan, usage and flags reflect the account', async () => {
    const { sandbox } = setup();
    const form = new FormData();
    form.set('agentId', agentId);
    form.set('file', new File(['x'.repeat(1000)], 'intake.pdf'));
    await call(sandbox, 'POST', assumedPaths.uploadDocument, { body: form });
    const res = (await call(sandbox, 'GET', '/subscriptions')).body as unknown as SubscriptionResponse;
    expect(res.subscription).toMatchObject({
      status: 'active',
      currentPeriodStart: '2026-11-01T00:00:00.000Z',
      currentPeriodEnd: '2026-12-01T00:00:00.000Z',
      cancelAtPeriodEnd: false,
      billingInterval: 'monthly',
    });
    expect(res.plan.name).toBe('Starter');
    expect(res.usage.agents).toEqual({ used: 2, limit: 3, remaining: 1, percentage: 66.7, isAtLimit: false });
    expect(res.usage.storage).toMatchObject({ usedBytes: 1000, isAtLimit: false, isOverLimit: false });
    expect(res.usage.storage.remainingBytes).toBe(res.usage.storage.limitBytes - 1000);
    expect(res.usage.credits).toEqual({ balance: 500, perCycle: 1000 });
    expect(res.flags).toEqual({ isFreePlan: false, isPaidPlan: true, canUpgrade: true, needsUpgrade: false });
  });

  test('limits: agent and storage checks', async () => {
    const { sandbox } = setup();
    const limits = (body: unknown) => call(sandbox, 'POST', '/subscriptions/limits', { body });
    expect((await limits({ check: 'agent' })).body).toEqual({
      success: true,
      check: 'agent',
      allowed: true,
      currentUsage: 2,
      limit: 3,
      remaining: 1,
    });
    const storage = await limits({ check: 'storage', bytes: 5000 });
    expect(storage.body).toMatchObject({ check: 'storage', allowed: true, currentUsage: 0 });
    const limit = Number(storage.body.limit);
    expect((await limits({ check: 'storage', bytes: limit })).body.allowed).toBe(true);
    expect((await limits({ check: 'storage', bytes: limit + 1 })).body.allowed).toBe(false);
  });

  test('limits: agent check at the plan limit is not allowed', async () => {
    const { sandbox } = setup({ agents: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] });
    const res = await call(sandbox, 'POST', '/subscriptions/limits', { body: { check: 'agent' } });
    expect(res.body).toMatchObject({ allowed: false, currentUsage: 3, remaining: 0 });
  });

  test.each([
    ['check missing', {}],
    ['check unknown', { check: 'seats' }],
    ['storage without bytes', { check: 'storage' }],
    ['storage with negative bytes', { check: 'storage', bytes: -1 }],
    ['storage with bytes as a string', { check: 'storage', bytes: '100' }],
  ])('limits: %s is a 400', async (_name, body) => {
    const res = await call(setup().sandbox, 'POST', '/subscriptions/limits', { body });
    expect(res.status).toBe(400);
  });

  test('invoices: one per previous month, newest first, deterministic', async () => {
    const { sandbox } = setup();
    const first = (await call(sandbox, 'GET', '/subscriptions/invoices')).body.invoices as Invoice[];
    expect(first.map((i) => i.billedAt)).toEqual(['2026-10-01T00:00:00.000Z', '2026-09-01T00:00:00.000Z', '2026-08-01T00:00:00.000Z']);
    expect(first[0]).toMatchObject({
      invoiceNumber: 'INV-202610',
      status: 'completed',
      amount: '$29.00',
      amountRaw: 2900,
      currencyCode: 'USD',
      periodStart: '2026-10-01T00:00:00.000Z',
      periodEnd: '2026-11-01T00:00:00.000Z',
    });
    expect((await call(sandbox, 'GET', '/subscriptions/invoices')).body.invoices).toEqual(first);
  });
});
