import { describe, expect, test } from 'vitest';
import { createBookingClient } from '../../src/core/booking-client';
import { createSandbox, DEMO_AGENT_ID, DEMO_API_KEY } from '../../src/sandbox';
import { sandboxHandlers, useSandboxServer } from '../support/msw';

const api = useSandboxServer({ now: () => new Date('2026-11-20T12:00:00Z'), seed: 9 });

describe('the msw wrapper', () => {
  test('global fetch under the base URL reaches the sandbox', async () => {
    const res = await fetch(`${api.baseUrl}/chat`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${DEMO_API_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ agentId: DEMO_AGENT_ID, message: 'hours?' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, credits: { remaining: 499 } });
    expect(api.sandbox().credits()).toBe(499);
  });

  test('each test gets a fresh sandbox', () => {
    expect(api.sandbox().credits()).toBe(500);
  });

  test('the real booking client works against it', async () => {
    const client = createBookingClient({ baseUrl: api.baseUrl });
    const { booking } = await client.create({
      agentId: DEMO_AGENT_ID,
      conversationId: 'c1',
      date: '2026-11-24',
      time: '10:00',
      durationOptionId: 'intro-15',
      formData: { name: 'Ada', email: 'ada@example.com' },
    });
    expect(api.sandbox().bookings()).toEqual([booking]);
  });

  test("use() swaps in a differently seeded sandbox, keeping the file's options", async () => {
    api.use({ credits: 0 });
    const res = await fetch(`${api.baseUrl}/chat`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
      body: JSON.stringify({ agentId: DEMO_AGENT_ID, message: 'hours?' }),
    });
    expect(res.status).toBe(402);
  });

  test('sandboxHandlers refuses a sandbox whose basePath does not match the base URL', () => {
    expect(() => sandboxHandlers(createSandbox(), 'https://sandbox.test/api')).toThrow(/basePath/);
    expect(sandboxHandlers(createSandbox({ basePath: '/api' }), 'https://sandbox.test/api')).toHaveLength(1);
  });
});
