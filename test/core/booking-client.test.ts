import { describe, expect, test } from 'vitest';
import { createBookingClient, type BookingClient } from '../../src/core/booking-client';
import { ApiError } from '../../src/core/http';

const booking = {
  booking_code: 'BK-A1B2C3',
  booking_date: '2026-11-24',
  start_time: '10:30:00',
  duration_minutes: 30,
  timezone: 'America/New_York',
};

/** The smallest answers the spec allows: only what we require, nothing optional. */
const MINIMAL: Record<string, unknown> = {
  config: { config: { timezone: 'America/New_York', duration_options: [{ id: 'd30', duration_minutes: 30 }] } },
  dates: { dates: [{ date: '2026-11-24', available: true }] },
  slots: { slots: [{ time: '10:30', available: true }] },
  create: { booking },
  lookup: { booking },
  cancel: {},
};

function recordingClient(answer: (endpoint: string) => unknown = (endpoint) => MINIMAL[endpoint]) {
  const sent: Request[] = [];
  const client = createBookingClient({
    baseUrl: 'https://api.test',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      sent.push(request);
      const endpoint = new URL(request.url).pathname.split('/').at(-1) ?? '';
      return new Response(JSON.stringify({ success: true, ...(answer(endpoint) as object) }), { status: 200 });
    },
  });
  return { client, sent };
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

describe('public booking client requests', () => {
  test('valid calls reach the documented paths with the documented parameters', async () => {
    const { client, sent } = recordingClient();
    await client.config({ agentId: 'a1' });
    await client.dates({ agentId: 'a1', month: '2026-11', durationMinutes: 30 });
    await client.slots({ agentId: 'a1', date: '2026-11-24', durationMinutes: 30 });
    await client.create(create);
    await client.lookup({ agentId: 'a1', code: 'BK-A1B2C3' });
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

describe('answers at the boundary', () => {
  test('the smallest answers the spec allows get their defaults; unknown fields are dropped', async () => {
    const { client } = recordingClient((endpoint) => ({ ...(MINIMAL[endpoint] as object), unknownField: { nested: true } }));
    const { config } = await client.config({ agentId: 'a1' });
    expect(config).toEqual({
      booking_title: '',
      booking_description: '',
      timezone: 'America/New_York',
      duration_options: [{ id: 'd30', label: '', duration_minutes: 30 }],
      min_notice_hours: 0,
      form_fields: [],
      allow_user_cancellation: false,
      cancellation_notice_hours: 0,
    });
    expect((await client.slots({ agentId: 'a1', date: '2026-11-24', durationMinutes: 30 })).slots).toEqual([
      { time: '10:30', available: true },
    ]);
    const found = await client.lookup({ agentId: 'a1', code: 'BK-A1B2C3' });
    expect(found).toEqual({
      success: true,
      canCancel: false,
      booking: { ...booking, id: '', duration_label: '', status: '', form_data: {}, booking_title: '', display_date: '', display_time: '' },
    });
    expect(await client.cancel({ agentId: 'a1', bookingCode: 'BK-A1B2C3' })).toEqual({ success: true, message: '' });
  });

  test.each<[string, Call, unknown, string]>([
    ['a config answer without a config object', (c) => c.config({ agentId: 'a1' }), {}, 'config: expected an object'],
    ['a config without a zone', (c) => c.config({ agentId: 'a1' }), { config: { duration_options: [] } }, 'config.timezone'],
    [
      'a config with a zone nobody knows',
      (c) => c.config({ agentId: 'a1' }),
      { config: { timezone: 'Mars/Olympus', duration_options: [] } },
      'config.timezone: expected an IANA time zone',
    ],
    [
      'a duration of no minutes',
      (c) => c.config({ agentId: 'a1' }),
      { config: { timezone: 'UTC', duration_options: [{ id: 'x', duration_minutes: 0 }] } },
      'config.duration_options[0].duration_minutes',
    ],
    ['dates that are not a list', (c) => c.dates({ agentId: 'a1', month: '2026-11' }), { dates: 'soon' }, 'dates: expected a list'],
    [
      'a date that is not a day',
      (c) => c.dates({ agentId: 'a1', month: '2026-11' }),
      { dates: [{ date: '2026-02-30', available: true }] },
      'dates[0].date',
    ],
    [
      'a slot time in another format',
      (c) => c.slots({ agentId: 'a1', date: '2026-11-24', durationMinutes: 30 }),
      { slots: [{ time: '9am', available: true }] },
      'slots[0].time',
    ],
    ['a created booking without its code', (c) => c.create(create), { booking: { ...booking, booking_code: '' } }, 'booking.booking_code'],
  ])('%s is invalid_response naming what did not fit', async (_name, call, body, path) => {
    const { client } = recordingClient(() => body);
    const error = await call(client).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('invalid_response');
    expect((error as ApiError).message).toContain(path);
  });

  test('answers are strings in form_data; numbers and booleans are shown as written, prototype names are plain keys', async () => {
    const { client } = recordingClient(() => ({ booking: { ...booking, form_data: JSON.parse('{"age":42,"ok":true,"__proto__":"x"}') } }));
    const { booking: made } = await client.create(create);
    expect(made.form_data.age).toBe('42');
    expect(made.form_data.ok).toBe('true');
    expect(Object.keys(made.form_data)).toEqual(['age', 'ok', '__proto__']);
  });
});
