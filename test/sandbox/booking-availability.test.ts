import { describe, expect, test } from 'vitest';
import type { BookingSlot } from '../../src/core/types';
import { createSandbox, DEMO_AGENT_ID, type SandboxOptions } from '../../src/sandbox';
import { apiError, bookingClient, call, manualClock } from './helpers';

const agentId = DEMO_AGENT_ID;
// Friday 2026-11-20, 07:00 in New York.
const NOW = '2026-11-20T12:00:00Z';
const form = { name: 'Ada Lovelace', email: 'ada@example.com' };

function setup(options: SandboxOptions = {}) {
  const clock = manualClock(NOW);
  const sandbox = createSandbox({ now: clock.now, seed: 7, ...options });
  return { clock, sandbox, client: bookingClient(sandbox) };
}

const times = (slots: BookingSlot[], available = true): string[] => slots.filter((s) => s.available === available).map((s) => s.time);

async function book(client: ReturnType<typeof bookingClient>, date: string, time: string, durationOptionId: string) {
  const res = await client.create({ agentId, conversationId: 'conv-1', date, time, durationOptionId, formData: form });
  return res.booking;
}

describe('config', () => {
  test('the demo agent has a New York booking config with three durations and a form', async () => {
    const { config } = await setup().client.config({ agentId });
    expect(config.timezone).toBe('America/New_York');
    expect(config.duration_options.map((d) => d.duration_minutes)).toEqual([15, 30, 60]);
    expect(config.form_fields.map((f) => [f.id, f.inputType, f.required])).toEqual([
      ['name', 'text', true],
      ['email', 'email', true],
      ['notes', 'text', false],
    ]);
    expect(config.allow_user_cancellation).toBe(true);
  });

  test('seed config is merged over the demo config', async () => {
    const { client } = setup({ agents: [{ id: agentId, config: { min_notice_hours: 1, booking_title: 'Other' } }] });
    const { config } = await client.config({ agentId });
    expect(config).toMatchObject({ min_notice_hours: 1, booking_title: 'Other', max_advance_days: 60 });
  });

  test('an unknown agent and an agent without booking answer 404', async () => {
    const { client } = setup({ agents: [{ id: 'chat-only', bookingEnabled: false }] });
    expect((await apiError(client.config({ agentId: 'nobody' }))).status).toBe(404);
    expect((await apiError(client.config({ agentId: 'chat-only' }))).status).toBe(404);
    const slots = client.slots({ agentId: 'chat-only', date: '2026-11-24', durationMinutes: 15 });
    expect((await apiError(slots)).status).toBe(404);
  });
});

describe('business hours and the slot grid', () => {
  test('a weekday offers every 15 minutes from 09:00 until the appointment ends by 17:00', async () => {
    const { client } = setup();
    const short = await client.slots({ agentId, date: '2026-11-24', durationMinutes: 15 });
    expect(short.slots).toHaveLength(32);
    expect(short.slots[0]).toEqual({ time: '09:00', available: true });
    expect(short.slots.at(-1)).toEqual({ time: '16:45', available: true });
    const long = await client.slots({ agentId, date: '2026-11-24', durationMinutes: 60 });
    expect(long.slots.at(-1)?.time).toBe('16:00');
    expect(long.duration).toEqual({ id: 'session-60', label: '60 min session', duration_minutes: 60 });
    expect(long.timezone).toBe('America/New_York');
  });

  test('Saturday has short hours and Sunday is closed', async () => {
    const { client } = setup();
    const saturday = await client.slots({ agentId, date: '2026-11-28', durationMinutes: 30 });
    expect(saturday.slots.map((s) => s.time)).toEqual([
      '10:00',
      '10:15',
      '10:30',
      '10:45',
      '11:00',
      '11:15',
      '11:30',
      '11:45',
      '12:00',
      '12:15',
      '12:30',
    ]);
    const sunday = await client.slots({ agentId, date: '2026-11-29', durationMinutes: 30 });
    expect(sunday.slots).toEqual([]);
  });

  test('seeded business hours replace the demo hours', async () => {
    const { client } = setup({ agents: [{ id: agentId, businessHours: { tue: [{ start: '14:00', end: '15:00' }] } }] });
    const tuesday = await client.slots({ agentId, date: '2026-11-24', durationMinutes: 30 });
    expect(tuesday.slots.map((s) => s.time)).toEqual(['14:00', '14:15', '14:30']);
    const monday = await client.slots({ agentId, date: '2026-11-23', durationMinutes: 30 });
    expect(monday.slots).toEqual([]);
  });

  test('a duration that is not one of the options is refused with 400', async () => {
    const { client, sandbox } = setup();
    const error = await apiError(client.slots({ agentId, date: '2026-11-24', durationMinutes: 45 }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/durationMinutes/);
    const path = `/booking/public/slots?agentId=${agentId}`;
    expect((await call(sandbox, 'GET', `${path}&date=2026-11-24`)).status).toBe(400);
    expect((await call(sandbox, 'GET', `${path}&date=2026-02-30&durationMinutes=15`)).status).toBe(400);
  });
});

describe('notice (min_notice_hours)', () => {
  test('slots that start sooner than 4 hours from now are unavailable, later ones available', async () => {
    // Now is 07:00 in New York, so the first bookable start is 11:00.
    const { slots } = await setup().client.slots({ agentId, date: '2026-11-20', durationMinutes: 15 });
    expect(times(slots, false)).toEqual(['09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30', '10:45']);
    expect(times(slots)[0]).toBe('11:00');
  });

  test('the rule moves with the clock', async () => {
    const { client, clock } = setup();
    clock.advance(60 * 60_000 + 1);
    const { slots } = await client.slots({ agentId, date: '2026-11-20', durationMinutes: 15 });
    expect(times(slots)[0]).toBe('12:15');
  });

  test('past days offer nothing', async () => {
    const { slots } = await setup().client.slots({ agentId, date: '2026-11-19', durationMinutes: 15 });
    expect(slots.length).toBeGreaterThan(0);
    expect(times(slots)).toEqual([]);
  });
});

describe('horizon (max_advance_days)', () => {
  test('the last bookable day is today plus 60 days in the agent zone', async () => {
    const { client } = setup();
    // 2026-11-20 + 60 days = 2027-01-19 (a Tuesday); 2027-01-20 is a Wednesday.
    const last = await client.slots({ agentId, date: '2027-01-19', durationMinutes: 15 });
    expect(times(last.slots)).toHaveLength(32);
    const beyond = await client.slots({ agentId, date: '2027-01-20', durationMinutes: 15 });
    expect(beyond.slots).toHaveLength(32);
    expect(times(beyond.slots)).toEqual([]);
  });

  test('"today" is the agent zone\'s date, not UTC\'s', async () => {
    // 03:00 UTC on the 21st is still the 20th in New York, so the horizon ends on 2027-01-19.
    const { client } = setup({ now: () => new Date('2026-11-21T03:00:00Z') });
    const beyond = await client.slots({ agentId, date: '2027-01-20', durationMinutes: 15 });
    expect(times(beyond.slots)).toEqual([]);
  });
});

describe('overlap with existing bookings, across durations', () => {
  test('a 60-minute booking at 10:00 blocks every slot that would overlap it', async () => {
    const { client } = setup();
    await book(client, '2026-11-24', '10:00', 'session-60');
    const short = await client.slots({ agentId, date: '2026-11-24', durationMinutes: 15 });
    expect(times(short.slots, false)).toEqual(['10:00', '10:15', '10:30', '10:45']);
    const mid = await client.slots({ agentId, date: '2026-11-24', durationMinutes: 30 });
    expect(times(mid.slots, false)).toEqual(['09:45', '10:00', '10:15', '10:30', '10:45']);
    const long = await client.slots({ agentId, date: '2026-11-24', durationMinutes: 60 });
    expect(times(long.slots, false)).toEqual(['09:15', '09:30', '09:45', '10:00', '10:15', '10:30', '10:45']);
  });

  test('bookings of another agent do not block', async () => {
    const { client } = setup({ agents: [{ id: agentId }, { id: 'other' }] });
    await client.create({
      agentId: 'other',
      conversationId: 'c',
      date: '2026-11-24',
      time: '10:00',
      durationOptionId: 'session-60',
      formData: form,
    });
    const { slots } = await client.slots({ agentId, date: '2026-11-24', durationMinutes: 15 });
    expect(times(slots, false)).toEqual([]);
  });
});

describe('daylight saving time in America/New_York', () => {
  // Both changes fall on a Sunday night; this agent opens Sunday 00:00-06:00 to cover them.
  const nightOwl: SandboxOptions = {
    now: () => new Date('2026-02-20T12:00:00Z'),
    agents: [
      {
        id: agentId,
        config: { min_notice_hours: 0, max_advance_days: 365 },
        businessHours: { sun: [{ start: '00:00', end: '06:00' }] },
      },
    ],
  };

  test('spring forward (2026-03-08): 02:00-02:59 does not exist and is never offered', async () => {
    const { client } = setup(nightOwl);
    const { slots } = await client.slots({ agentId, date: '2026-03-08', durationMinutes: 15 });
    const offered = slots.map((s) => s.time);
    expect(offered).toHaveLength(20);
    expect(offered).toContain('01:45');
    expect(offered).toContain('03:00');
    expect(offered.filter((t) => t.startsWith('02:'))).toEqual([]);
    const error = await apiError(book(client, '2026-03-08', '02:30', 'intro-15'));
    expect(error.status).toBe(400);
    expect(error.code).toBe('slot_unavailable');
  });

  test('spring forward: a 60-minute appointment at 01:30 lasts 60 real minutes and ends at 03:30', async () => {
    const { client } = setup(nightOwl);
    const booking = await book(client, '2026-03-08', '01:30', 'session-60');
    expect(booking).toMatchObject({ start_time: '01:30:00', end_time: '03:30:00', duration_minutes: 60 });
    const { slots } = await client.slots({ agentId, date: '2026-03-08', durationMinutes: 15 });
    expect(times(slots, false)).toEqual(['01:30', '01:45', '03:00', '03:15']);
    // Closing is 06:00 EDT: the last 60-minute start is 05:00.
    const long = await client.slots({ agentId, date: '2026-03-08', durationMinutes: 60 });
    expect(long.slots.at(-1)?.time).toBe('05:00');
  });

  test('fall back (2026-11-01): 01:00-01:59 occurs twice and is not offered at all', async () => {
    const { client } = setup({ ...nightOwl, now: () => new Date('2026-10-20T12:00:00Z') });
    const { slots } = await client.slots({ agentId, date: '2026-11-01', durationMinutes: 15 });
    const offered = slots.map((s) => s.time);
    expect(offered).toHaveLength(20);
    expect(new Set(offered).size).toBe(offered.length);
    expect(offered.filter((t) => t.startsWith('01:'))).toEqual([]);
    expect((await apiError(book(client, '2026-11-01', '01:30', 'intro-15'))).code).toBe('slot_unavailable');
  });

  test('fall back: a 60-minute appointment at 00:30 ends 60 real minutes later, at the first 01:30', async () => {
    const { client } = setup({ ...nightOwl, now: () => new Date('2026-10-20T12:00:00Z') });
    const booking = await book(client, '2026-11-01', '00:30', 'session-60');
    expect(booking).toMatchObject({ start_time: '00:30:00', end_time: '01:30:00' });
    const { slots } = await client.slots({ agentId, date: '2026-11-01', durationMinutes: 15 });
    // 02:00 EST is an hour and a half after the appointment ends.
    expect(times(slots, false)).toEqual(['00:30', '00:45']);
  });

  test('the month view counts the DST days like the slot view', async () => {
    const { client } = setup(nightOwl);
    const { dates } = await client.dates({ agentId, month: '2026-03' });
    expect(dates.find((d) => d.date === '2026-03-08')).toEqual({ date: '2026-03-08', available: true, slotCount: 20 });
    expect(dates.find((d) => d.date === '2026-03-01')).toEqual({ date: '2026-03-01', available: true, slotCount: 24 });
  });
});

describe('dates', () => {
  test('every day of the month, slotCount only when available, shortest duration by default', async () => {
    const { client } = setup();
    const res = await client.dates({ agentId, month: '2026-11' });
    expect(res.month).toBe('2026-11');
    expect(res.timezone).toBe('America/New_York');
    expect(res.dates.map((d) => d.date)).toEqual(Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`));
    for (const d of res.dates) expect('slotCount' in d).toBe(d.available);
    const day = (date: string) => res.dates.find((d) => d.date === date);
    expect(day('2026-11-19')).toEqual({ date: '2026-11-19', available: false });
    expect(day('2026-11-20')).toEqual({ date: '2026-11-20', available: true, slotCount: 24 });
    expect(day('2026-11-24')).toEqual({ date: '2026-11-24', available: true, slotCount: 32 });
    expect(day('2026-11-29')).toEqual({ date: '2026-11-29', available: false });
  });

  test('durationMinutes counts slots for that duration and matches the slot view', async () => {
    const { client } = setup();
    await book(client, '2026-11-24', '10:00', 'session-60');
    const { dates } = await client.dates({ agentId, month: '2026-11', durationMinutes: 60 });
    const { slots } = await client.slots({ agentId, date: '2026-11-24', durationMinutes: 60 });
    expect(dates.find((d) => d.date === '2026-11-24')?.slotCount).toBe(times(slots).length);
    expect(times(slots)).toHaveLength(22);
  });

  test('the horizon ends availability inside a month', async () => {
    const { dates } = await setup().client.dates({ agentId, month: '2027-01' });
    expect(dates.find((d) => d.date === '2027-01-19')?.available).toBe(true);
    expect(dates.filter((d) => d.date > '2027-01-19').every((d) => !d.available)).toBe(true);
  });

  test('a missing or malformed month, or an unknown duration, is a 400', async () => {
    const { sandbox } = setup();
    const path = `/booking/public/dates?agentId=${agentId}`;
    expect((await call(sandbox, 'GET', path)).status).toBe(400);
    expect((await call(sandbox, 'GET', `${path}&month=2026-13`)).status).toBe(400);
    expect((await call(sandbox, 'GET', `${path}&month=2026-1`)).status).toBe(400);
    expect((await call(sandbox, 'GET', `${path}&month=2026-11&durationMinutes=45`)).status).toBe(400);
    expect((await call(sandbox, 'GET', `${path}&month=2026-11&durationMinutes=abc`)).status).toBe(400);
  });
});
