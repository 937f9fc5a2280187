import { describe, expect, test } from 'vitest';
import { createBookingClient, type BookingClient } from '../../src/core/booking-client';
import { ApiError } from '../../src/core/http';

function recordingClient() {
  const sent: Request[] = [];
  const client = createBookingClient({
    baseUrl: 'https://api.test',
    fetch: async (input, init) => {
      sent.push(new Request(input, init));
      return new Response(JSON.stringify({ success: true }), { status: 200 });
    },
  });
  return { client, sent };
}

async function rejectedArgument(call: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await call();
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'validation') return error.argument;
    throw error;
  }
  throw new Error('expected a validation error');
}

const create = {
  agentId: 'a1',
  conversationId: 'c1',
  date: '2026-11-24',
  time: '10:30',
  durationOptionId: 'd30',
  formData: { name: 'Ada' },
};

type Call = (client: BookingClient) => Promise<unknown>;

describe('public booking client validation (before any request)', () => {
  test.each<[string, Call, string]>([
    ['config without agentId', (c) => c.config(''), 'agentId'],
    ['dates with month 2026-13', (c) => c.dates({ agentId: 'a1', month: '2026-13' }), 'month'],
    ['dates with month 2026-1', (c) => c.dates({ agentId: 'a1', month: '2026-1' }), 'month'],
    ['dates with a fractional duration', (c) => c.dates({ agentId: 'a1', month: '2026-11', durationMinutes: 1.5 }), 'durationMinutes'],
    ['slots on 2026-02-30', (c) => c.slots({ agentId: 'a1', date: '2026-02-30', durationMinutes: 30 }), 'date'],
    ['slots with duration 0', (c) => c.slots({ agentId: 'a1', date: '2026-11-24', durationMinutes: 0 }), 'durationMinutes'],
    ['create at 24:00', (c) => c.create({ ...create, time: '24:00' }), 'time'],
    ['create at 9:30', (c) => c.create({ ...create, time: '9:30' }), 'time'],
    ['create on 24/11/2026', (c) => c.create({ ...create, date: '24/11/2026' }), 'date'],
    ['create without conversationId', (c) => c.create({ ...create, conversationId: ' ' }), 'conversationId'],
    ['create without durationOptionId', (c) => c.create({ ...create, durationOptionId: '' }), 'durationOptionId'],
    ['lookup with code BK-123', (c) => c.lookup({ agentId: 'a1', code: 'BK-123' }), 'code'],
    ['cancel with code XX-ABCDEF', (c) => c.cancel({ agentId: 'a1', bookingCode: 'XX-ABCDEF' }), 'bookingCode'],
  ])('%s is refused, naming the argument, and nothing is sent', async (_name, call, argument) => {
    const { client, sent } = recordingClient();
    expect(await rejectedArgument(() => call(client))).toBe(argument);
    expect(sent).toHaveLength(0);
  });

  test('valid calls reach the documented paths with the documented parameters', async () => {
    const { client, sent } = recordingClient();
    await client.config('a1');
    await client.dates({ agentId: 'a1', month: '2026-11', durationMinutes: 30 });
    await client.slots({ agentId: 'a1', date: '2026-11-24', durationMinutes: 30 });
    await client.create(create);
    await client.lookup({ agentId: 'a1', code: ' bk-a1b2c3 ' });
    await client.cancel({ agentId: 'a1', bookingCode: 'BK-A1B2C3' });
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET https://api.test/booking/public/config?agentId=a1',
      'GET https://api.test/booking/public/dates?agentId=a1&month=2026-11&durationMinutes=30',
      'GET https://api.test/booking/public/slots?agentId=a1&date=2026-11-24&durationMinutes=30',
      'POST https://api.test/booking/public/create',
      'GET https://api.test/booking/public/lookup?agentId=a1&code=BK-A1B2C3',
      'POST https://api.test/booking/public/cancel',
    ]);
    expect(await sent[3]?.json()).toEqual(create);
    expect(await sent[5]?.json()).toEqual({ agentId: 'a1', bookingCode: 'BK-A1B2C3' });
    expect(sent.every((r) => !r.headers.has('Authorization'))).toBe(true);
  });
});
