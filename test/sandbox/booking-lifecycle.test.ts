import { describe, expect, test } from 'vitest';
import type { CreateBookingRequest } from '../../src/core/types';
import { createSandbox, DEMO_AGENT_ID, type SandboxOptions } from '../../src/sandbox';
import { apiError, bookingClient, call, manualClock } from './helpers';

const agentId = DEMO_AGENT_ID;
const NOW = '2026-11-20T12:00:00Z';
const HOUR = 3_600_000;

function setup(options: SandboxOptions = {}) {
  const clock = manualClock(NOW);
  const sandbox = createSandbox({ now: clock.now, seed: 42, ...options });
  return { clock, sandbox, client: bookingClient(sandbox) };
}

// Tuesday 2026-11-24 10:00 in New York = 15:00 UTC.
const request: CreateBookingRequest = {
  agentId,
  conversationId: 'conv-1',
  date: '2026-11-24',
  time: '10:00',
  durationOptionId: 'consult-30',
  formData: { name: 'Ada Lovelace', email: 'ada@example.com', notes: 'Left knee' },
};
const START_MS = Date.parse('2026-11-24T15:00:00Z');

describe('create', () => {
  test('a valid request books the slot and returns the booking', async () => {
    const { client, sandbox } = setup();
    const { booking } = await client.create(request);
    expect(booking).toEqual({
      id: expect.stringMatching(/^bkg_/),
      booking_code: expect.stringMatching(/^BK-[A-Z0-9]{6}$/),
      booking_date: '2026-11-24',
      start_time: '10:00:00',
      end_time: '10:30:00',
      duration_minutes: 30,
      duration_label: '30 min consultation',
      timezone: 'America/New_York',
      status: 'confirmed',
      form_data: { name: 'Ada Lovelace', email: 'ada@example.com', notes: 'Left knee' },
    });
    expect(sandbox.bookings()).toEqual([booking]);
  });

  test('optional fields may be left out and answers are trimmed', async () => {
    const { client } = setup();
    const formData = { name: '  Ada ', email: 'ada@example.com', notes: ' ' };
    const { booking } = await client.create({ ...request, formData });
    expect(booking.form_data).toEqual({ name: 'Ada', email: 'ada@example.com' });
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['agentId missing', { agentId: undefined }],
    ['conversationId missing', { conversationId: undefined }],
    ['conversationId blank', { conversationId: '  ' }],
    ['date malformed', { date: '24/11/2026' }],
    ['date not a real day', { date: '2026-02-30' }],
    ['time malformed', { time: '9:30' }],
    ['time out of range', { time: '24:00' }],
    ['durationOptionId unknown', { durationOptionId: 'session-90' }],
    ['formData missing', { formData: undefined }],
    ['formData an array', { formData: ['Ada'] }],
    ['required name missing', { formData: { email: 'ada@example.com' } }],
    ['required name blank', { formData: { name: '   ', email: 'ada@example.com' } }],
    ['required email missing', { formData: { name: 'Ada' } }],
    ['email invalid', { formData: { name: 'Ada', email: 'ada@example' } }],
    ['answer not a string', { formData: { name: 42, email: 'ada@example.com' } }],
    ['unknown form field', { formData: { name: 'Ada', email: 'ada@example.com', phone: '555' } }],
  ];

  test.each(invalid)('%s: 400 in the envelope, nothing booked', async (_name, change) => {
    const { sandbox } = setup();
    const res = await call(sandbox, 'POST', '/booking/public/create', { key: null, body: { ...request, ...change } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: expect.any(String) });
    expect(sandbox.bookings()).toEqual([]);
  });

  test('the error names what is wrong', async () => {
    const { client } = setup();
    const badEmail = await apiError(client.create({ ...request, formData: { name: 'Ada', email: 'nope' } }));
    expect(badEmail.message).toMatch(/email/i);
    const extra = await apiError(client.create({ ...request, formData: { name: 'Ada', email: 'a@b.co', x: '1' } }));
    expect(extra.message).toMatch(/unknown field.*x/);
  });

  test('an unknown agent is a 404', async () => {
    const error = await apiError(setup().client.create({ ...request, agentId: 'nobody' }));
    expect(error.status).toBe(404);
  });

  test('a body that is not JSON is a 400', async () => {
    const res = await call(setup().sandbox, 'POST', '/booking/public/create', { key: null, body: '{"agentId":' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_json');
  });

  test('a taken slot is a 400 with code slot_unavailable that says it is no longer available', async () => {
    const { client, sandbox } = setup();
    await client.create(request);
    const error = await apiError(client.create({ ...request, time: '10:15', durationOptionId: 'intro-15' }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('slot_unavailable');
    expect(error.message).toMatch(/no longer available/);
    expect(sandbox.bookings()).toHaveLength(1);
  });

  test.each([
    ['too little notice', { date: '2026-11-20', time: '10:45' }, /notice/],
    ['beyond the horizon', { date: '2027-01-20', time: '10:00' }, /60 days/],
    ['outside business hours', { time: '17:00' }, /not one of the bookable times/],
    ['off the 15-minute grid', { time: '10:05' }, /not one of the bookable times/],
    ['a closed day', { date: '2026-11-29' }, /not one of the bookable times/],
  ])('%s is refused with code slot_unavailable', async (_name, change, message) => {
    const error = await apiError(setup().client.create({ ...request, ...change }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('slot_unavailable');
    expect(error.message).toMatch(message);
  });

  test('codes are unique across many bookings and not reused after cancellation', async () => {
    const { client } = setup();
    const codes: string[] = [];
    for (const date of ['2026-11-24', '2026-11-25']) {
      const { slots } = await client.slots({ agentId, date, durationMinutes: 15 });
      for (const slot of slots) {
        const { booking } = await client.create({ ...request, date, time: slot.time, durationOptionId: 'intro-15' });
        codes.push(booking.booking_code);
      }
    }
    const first = codes[0] ?? '';
    await client.cancel({ agentId, bookingCode: first });
    const again = await client.create({ ...request, date: '2026-11-24', time: '09:00', durationOptionId: 'intro-15' });
    codes.push(again.booking.booking_code);
    expect(codes).toHaveLength(65);
    expect(new Set(codes).size).toBe(65);
    for (const code of codes) expect(code).toMatch(/^BK-[A-Z0-9]{6}$/);
  });

  test('the same seed gives the same codes', async () => {
    const a = await setup().client.create(request);
    const b = await setup().client.create(request);
    expect(a.booking.booking_code).toBe(b.booking.booking_code);
    const c = await setup({ seed: 43 }).client.create(request);
    expect(c.booking.booking_code).not.toBe(a.booking.booking_code);
  });

  test('with pendingBookings new bookings are pending, still hold their slot and can be cancelled', async () => {
    const { client } = setup({ pendingBookings: true });
    const { booking } = await client.create(request);
    expect(booking.status).toBe('pending');
    expect((await apiError(client.create(request))).code).toBe('slot_unavailable');
    await client.cancel({ agentId, bookingCode: booking.booking_code });
    expect((await client.create(request)).booking.status).toBe('pending');
  });
});

describe('lookup', () => {
  test('shows the booking with its title, display date and time, and canCancel', async () => {
    const { client } = setup();
    const { booking } = await client.create(request);
    const res = await client.lookup({ agentId, code: booking.booking_code.toLowerCase() });
    expect(res.booking).toEqual({
      ...booking,
      booking_title: 'Book a visit at Harbor Physio',
      display_date: 'Tuesday, November 24, 2026',
      display_time: '10:00 AM - 10:30 AM',
    });
    expect(res.canCancel).toBe(true);
    expect(res).not.toHaveProperty('cancelReason');
  });

  test('afternoon and noon times read as PM', async () => {
    const { client } = setup();
    const { booking } = await client.create({ ...request, time: '11:45', durationOptionId: 'session-60' });
    const res = await client.lookup({ agentId, code: booking.booking_code });
    expect(res.booking.display_time).toBe('11:45 AM - 12:45 PM');
  });

  test('rule 1: a cancelled booking cannot be cancelled again', async () => {
    const { client } = setup();
    const { booking } = await client.create(request);
    await client.cancel({ agentId, bookingCode: booking.booking_code });
    const res = await client.lookup({ agentId, code: booking.booking_code });
    expect(res.booking.status).toBe('cancelled');
    expect(res.canCancel).toBe(false);
    expect(res.cancelReason).toMatch(/already been cancelled/);
  });

  test('rule 2: cancellation disabled in the config', async () => {
    const { client } = setup({ agents: [{ id: agentId, config: { allow_user_cancellation: false } }] });
    const { booking } = await client.create(request);
    const res = await client.lookup({ agentId, code: booking.booking_code });
    expect(res.canCancel).toBe(false);
    expect(res.cancelReason).toMatch(/cannot be cancelled online/);
  });

  test('rule 3: the cancellation notice period has passed', async () => {
    const { client, clock } = setup();
    const { booking } = await client.create(request);
    clock.set(new Date(START_MS - 23 * HOUR).toISOString());
    const res = await client.lookup({ agentId, code: booking.booking_code });
    expect(res.canCancel).toBe(false);
    expect(res.cancelReason).toMatch(/24 hours/);
  });

  test("an unknown code is a 404, a malformed one a 400, another agent's code a 404", async () => {
    const { client, sandbox } = setup({ agents: [{ id: agentId }, { id: 'other' }] });
    const { booking } = await client.create(request);
    expect((await apiError(client.lookup({ agentId, code: 'BK-ZZZZZZ' }))).status).toBe(404);
    const path = `/booking/public/lookup?agentId=${agentId}`;
    expect((await call(sandbox, 'GET', `${path}&code=BK-12`, { key: null })).status).toBe(400);
    expect((await call(sandbox, 'GET', path, { key: null })).status).toBe(400);
    expect((await apiError(client.lookup({ agentId: 'other', code: booking.booking_code }))).status).toBe(404);
  });
});

describe('cancel', () => {
  test('success: a message, status cancelled, and the slot is free again', async () => {
    const { client, sandbox } = setup();
    const { booking } = await client.create(request);
    const res = await client.cancel({ agentId, bookingCode: booking.booking_code });
    expect(res.message).toContain(booking.booking_code);
    expect(sandbox.bookings()[0]?.status).toBe('cancelled');
    const { slots } = await client.slots({ agentId, date: '2026-11-24', durationMinutes: 30 });
    expect(slots.find((s) => s.time === '10:00')?.available).toBe(true);
    expect((await client.create(request)).booking.status).toBe('confirmed');
  });

  test('rule 1: cancelling twice is refused with booking_not_cancellable', async () => {
    const { client } = setup();
    const { booking } = await client.create(request);
    await client.cancel({ agentId, bookingCode: booking.booking_code });
    const error = await apiError(client.cancel({ agentId, bookingCode: booking.booking_code }));
    expect([error.status, error.code]).toEqual([400, 'booking_not_cancellable']);
    expect(error.message).toMatch(/already been cancelled/);
  });

  test('rule 2: refused with cancellation_disabled when the config forbids it', async () => {
    const { client, sandbox } = setup({ agents: [{ id: agentId, config: { allow_user_cancellation: false } }] });
    const { booking } = await client.create(request);
    const error = await apiError(client.cancel({ agentId, bookingCode: booking.booking_code }));
    expect([error.status, error.code]).toEqual([400, 'cancellation_disabled']);
    expect(sandbox.bookings()[0]?.status).toBe('confirmed');
  });

  test('rule 3: allowed exactly at the notice boundary, refused one millisecond later', async () => {
    const { client, clock, sandbox } = setup();
    const first = (await client.create(request)).booking;
    const second = (await client.create({ ...request, time: '11:00' })).booking;
    clock.set(new Date(START_MS - 24 * HOUR + 1).toISOString());
    const error = await apiError(client.cancel({ agentId, bookingCode: first.booking_code }));
    expect([error.status, error.code]).toEqual([400, 'cancellation_notice_passed']);
    expect(error.message).toMatch(/24 hours/);
    // The 11:00 booking starts an hour later, so this instant is exactly its boundary.
    clock.set(new Date(START_MS + HOUR - 24 * HOUR).toISOString());
    const res = await client.cancel({ agentId, bookingCode: second.booking_code });
    expect(res.success).toBe(true);
    expect(sandbox.bookings().map((b) => b.status)).toEqual(['confirmed', 'cancelled']);
  });

  test("rules are checked in the spec's order: disabled is reported before the notice period", async () => {
    const { client, clock } = setup({ agents: [{ id: agentId, config: { allow_user_cancellation: false } }] });
    const { booking } = await client.create(request);
    clock.set(new Date(START_MS - HOUR).toISOString());
    expect((await apiError(client.cancel({ agentId, bookingCode: booking.booking_code }))).code).toBe('cancellation_disabled');
    expect((await client.lookup({ agentId, code: booking.booking_code })).cancelReason).toMatch(/online/);
  });

  test('an unknown code is a 404, a malformed one a 400', async () => {
    const { client, sandbox } = setup();
    expect((await apiError(client.cancel({ agentId, bookingCode: 'BK-ZZZZZZ' }))).status).toBe(404);
    const body = { agentId, bookingCode: 'nope' };
    const res = await call(sandbox, 'POST', '/booking/public/cancel', { key: null, body });
    expect(res.status).toBe(400);
  });
});
