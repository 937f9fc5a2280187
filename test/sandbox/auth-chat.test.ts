import { describe, expect, test } from 'vitest';
import {
  createSandbox,
  DEMO_AGENT_ID,
  DEMO_API_KEY,
  DEMO_SCOPED_API_KEY,
  MARKDOWN_TEST_MESSAGE,
  type Sandbox,
  type SandboxOptions,
} from '../../src/sandbox';
import { call, manualClock } from './helpers';

const agentId = DEMO_AGENT_ID;
const NOW = '2026-11-20T12:00:00Z';
const OTHER_KEY = 'sk_live_sandbox_other_owner_000000000';
const INACTIVE_KEY = 'sk_live_sandbox_deleted_0000000000000';

function setup(options: SandboxOptions = {}) {
  const clock = manualClock(NOW);
  const sandbox = createSandbox({ now: clock.now, seed: 3, ...options });
  return { clock, sandbox };
}

const chat = (sandbox: Sandbox, body: Record<string, unknown>, key: string | null = DEMO_API_KEY) =>
  call(sandbox, 'POST', '/chat', { key, body });

describe('API keys', () => {
  test.each([
    ['no Authorization header', null, {}],
    ['a Basic header', null, { Authorization: 'Basic dXNlcjpwYXNz' }],
    ['a key without the sk_live_ prefix', 'sk_test_sandbox_demo_0000000000000000', {}],
    ['a key that is too short', 'sk_live_short', {}],
    ['a well-formed unknown key', 'sk_live_not_a_real_key_000000000000', {}],
  ])('%s is a 401 and no credits are used', async (_name, key, headers) => {
    const { sandbox } = setup();
    const res = await call(sandbox, 'POST', '/chat', { key, headers, body: { agentId, message: 'hours?' } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: expect.any(String) });
    expect(sandbox.credits()).toBe(500);
  });

  test('a deactivated key is a 401 that says so', async () => {
    const { sandbox } = setup({ keys: [{ key: INACTIVE_KEY, active: false }] });
    const res = await chat(sandbox, { agentId, message: 'hours?' }, INACTIVE_KEY);
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/deactivated/);
  });

  test('error bodies never echo the key', async () => {
    const { sandbox } = setup();
    const wrong = 'sk_live_secret_value_that_must_not_leak';
    const res = await chat(sandbox, { agentId, message: 'hours?' }, wrong);
    expect(JSON.stringify(res.body)).not.toContain('secret_value');
  });

  test('a key scoped to one agent is refused (401, scope_mismatch) for another agent of the owner', async () => {
    const { sandbox } = setup({ agents: [{ id: agentId }, { id: 'second' }] });
    expect((await chat(sandbox, { agentId, message: 'hours?' }, DEMO_SCOPED_API_KEY)).status).toBe(200);
    const res = await chat(sandbox, { agentId: 'second', message: 'hours?' }, DEMO_SCOPED_API_KEY);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'scope_mismatch', error: expect.stringMatching(/scoped/) });
    expect((await chat(sandbox, { agentId: 'second', message: 'hours?' }, DEMO_API_KEY)).status).toBe(200);
  });

  test("an All Agents key cannot reach another owner's agent: 404 as if it did not exist", async () => {
    const { sandbox } = setup({
      agents: [{ id: agentId }, { id: 'theirs', owner: 'someone-else' }],
      keys: [{ key: DEMO_API_KEY }, { key: OTHER_KEY, owner: 'someone-else' }],
    });
    expect((await chat(sandbox, { agentId: 'theirs', message: 'hi' })).status).toBe(404);
    expect((await chat(sandbox, { agentId: 'theirs', message: 'hi' }, OTHER_KEY)).status).toBe(200);
  });

  test('public booking endpoints need no key', async () => {
    const { sandbox } = setup();
    const res = await call(sandbox, 'GET', `/booking/public/config?agentId=${agentId}`, { key: null });
    expect(res.status).toBe(200);
  });
});

describe('rate limit per key', () => {
  test('headers on every authenticated answer, 429 over the limit, open again after the window', async () => {
    const { sandbox, clock } = setup({ rateLimit: { limit: 3, windowMs: 60_000 } });
    const reset = String(Math.ceil((Date.parse(NOW) + 60_000) / 1000));
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(sandbox, 'GET', '/credits');
      expect(res.status).toBe(200);
      expect(res.headers.get('X-RateLimit-Limit')).toBe('3');
      expect(res.headers.get('X-RateLimit-Reset')).toBe(reset);
      remaining.push(res.headers.get('X-RateLimit-Remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const limited = await chat(sandbox, { agentId, message: 'hours?' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, code: 'rate_limited' });
    expect(limited.headers.get('X-RateLimit-Limit')).toBe('3');
    expect(limited.headers.get('X-RateLimit-Remaining')).toBe('0');
    expect(limited.headers.get('X-RateLimit-Reset')).toBe(reset);
    expect(sandbox.credits()).toBe(500);

    clock.advance(60_000);
    const again = await call(sandbox, 'GET', '/credits');
    expect(again.status).toBe(200);
    expect(again.headers.get('X-RateLimit-Remaining')).toBe('2');
  });

  test('each key has its own window; error answers after authentication carry the headers too', async () => {
    const { sandbox } = setup({ rateLimit: { limit: 1, windowMs: 60_000 } });
    expect((await call(sandbox, 'GET', '/credits')).status).toBe(200);
    expect((await call(sandbox, 'GET', '/credits')).status).toBe(429);
    const other = await chat(sandbox, { agentId, message: '' }, DEMO_SCOPED_API_KEY);
    expect(other.status).toBe(400);
    expect(other.headers.get('X-RateLimit-Remaining')).toBe('0');
  });

  test('public endpoints are not rate limited and carry no headers', async () => {
    const { sandbox } = setup({ rateLimit: { limit: 1, windowMs: 60_000 } });
    for (let i = 0; i < 3; i++) {
      const res = await call(sandbox, 'GET', `/booking/public/config?agentId=${agentId}`, { key: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('X-RateLimit-Limit')).toBeNull();
    }
  });
});

describe('chat', () => {
  test('answers from the knowledge base with markdown, sources and the credits used', async () => {
    const { sandbox } = setup();
    const res = await chat(sandbox, { agentId, message: 'What are your opening hours on Saturday?' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      reply: expect.stringContaining('**Saturday:** 10:00 AM - 1:00 PM'),
      conversationId: expect.stringMatching(/^conv_/),
      sources: [{ title: 'Opening hours', url: 'https://example.com/harbor-physio/hours' }],
      credits: { used: 1, remaining: 499 },
    });
    expect(sandbox.credits()).toBe(499);
  });

  test.each([
    ['How much does a session cost?', 'Prices and insurance'],
    ['Where can I park?', 'Finding us'],
    ['Do you treat a sports injury in the knee?', 'Services'],
    ['How do I cancel my appointment?', 'Booking and cancellation policy'],
  ])('"%s" is answered from "%s"', async (message, title) => {
    const { sandbox } = setup();
    const res = await chat(sandbox, { agentId, message });
    expect(res.body.sources).toEqual([expect.objectContaining({ title })]);
  });

  test('an unknown question gets a fallback that suggests booking, without sources', async () => {
    const { sandbox } = setup();
    const res = await chat(sandbox, { agentId, message: 'Can you recommend a good pizza place?' });
    expect(res.body.reply).toMatch(/book/i);
    expect(res.body).not.toHaveProperty('sources');
  });

  test('the same question gets the same answer', async () => {
    const a = await chat(setup().sandbox, { agentId, message: 'prices?' });
    const b = await chat(setup().sandbox, { agentId, message: 'prices?' });
    expect(a.body.reply).toBe(b.body.reply);
  });

  test('the /markdown-test hook returns every markdown feature and no HTML', async () => {
    const { sandbox } = setup();
    const { body } = await chat(sandbox, { agentId, message: MARKDOWN_TEST_MESSAGE });
    const reply = String(body.reply);
    const features = ['# ', '**bold**', '*italic*', '`inline code`', '](https://', '- bullet', '1. first', '> ', '```'];
    for (const feature of [...features, 'mailto:', 'tel:']) expect(reply).toContain(feature);
    expect(reply).not.toMatch(/<[a-z!/]/i);
  });

  test('no reply contains HTML', async () => {
    const { sandbox } = setup();
    for (const message of ['hi', 'hours', 'prices', 'where', 'services', 'booking', 'pizza']) {
      const { body } = await chat(sandbox, { agentId, message });
      expect(String(body.reply)).not.toMatch(/<[a-z!/]/i);
    }
  });

  test('conversationId continues a conversation', async () => {
    const { sandbox } = setup();
    const first = await chat(sandbox, { agentId, message: 'hi' });
    const id = String(first.body.conversationId);
    const second = await chat(sandbox, { agentId, message: 'prices?', conversationId: id });
    expect(second.body.conversationId).toBe(id);
    expect(sandbox.conversation(id)?.map((m) => [m.role, m.content.slice(0, 5)])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hi! I'],
      ['user', 'price'],
      ['assistant', 'Our p'],
    ]);
    expect(second.body.credits).toEqual({ used: 1, remaining: 498 });
  });

  test('a conversation of another agent is a 404', async () => {
    const { sandbox } = setup({ agents: [{ id: agentId }, { id: 'second' }] });
    const first = await chat(sandbox, { agentId, message: 'hi' });
    const res = await chat(sandbox, { agentId: 'second', message: 'hi', conversationId: first.body.conversationId });
    expect(res.status).toBe(404);
  });

  test.each([
    ['message missing', { agentId }],
    ['message empty', { agentId, message: '   ' }],
    ['message not a string', { agentId, message: 42 }],
    ['message too long', { agentId, message: 'a'.repeat(4001) }],
    ['agentId missing', { message: 'hi' }],
  ])('%s is a 400 and costs nothing', async (_name, body) => {
    const { sandbox } = setup();
    const res = await chat(sandbox, body);
    expect(res.status).toBe(400);
    expect(sandbox.credits()).toBe(500);
  });

  test('an unknown agent is a 404', async () => {
    expect((await chat(setup().sandbox, { agentId: 'nobody', message: 'hi' })).status).toBe(404);
  });

  test('chatCost sets the credits per message', async () => {
    const { sandbox } = setup({ chatCost: 3, credits: 10 });
    const res = await chat(sandbox, { agentId, message: 'hi' });
    expect(res.body.credits).toEqual({ used: 3, remaining: 7 });
  });

  test('402 when the balance is below the cost, without deducting anything', async () => {
    const { sandbox } = setup({ chatCost: 3, credits: 5 });
    expect((await chat(sandbox, { agentId, message: 'hi' })).status).toBe(200);
    const res = await chat(sandbox, { agentId, message: 'hi' });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ success: false, code: 'insufficient_credits' });
    expect(sandbox.credits()).toBe(2);
  });

  test('402 at a zero balance, and no conversation is started', async () => {
    const { sandbox } = setup({ credits: 0 });
    const res = await chat(sandbox, { agentId, message: 'hi', conversationId: 'conv-fresh' });
    expect(res.status).toBe(402);
    expect(sandbox.credits()).toBe(0);
    expect(sandbox.conversation('conv-fresh')).toBeUndefined();
  });
});
