// Slots on daylight-saving days: never a wall time twice, never one that does not exist, never a silent shift.
import { fireEvent, screen } from '@testing-library/preact';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import type { BookingSlotsResponse } from '../../../src/core/types';
import { DEMO_AGENT_ID } from '../../../src/sandbox';
import { chooseDay, chooseDuration, makeContext, renderBook, useBookingServer } from './helpers';

const api = useBookingServer();
const NIGHT = { sun: [{ start: '00:00', end: '04:00' }] };

/** A careless service that lists wall times as they come, duplicates and gaps included. */
function naiveSlots(date: string, times: string[]) {
  api.server.use(
    http.get(`${api.baseUrl}/booking/public/slots`, ({ request }) => {
      if (new URL(request.url).searchParams.get('date') !== date) return api.sandbox().handle(request);
      const body: BookingSlotsResponse = {
        success: true,
        date,
        timezone: 'America/New_York',
        duration: { id: 'intro-15', label: '15 min intro', duration_minutes: 15 },
        slots: times.map((time) => ({ time, available: true })),
      };
      return HttpResponse.json(body);
    }),
  );
}

/** The slot labels on the visitor's clock, then on the agent's; `naive` replaces the service's list for `day`. */
async function slotLabels(now: string, day: string, visitorTimeZone: string, naive?: [string, string[]]) {
  const clock = () => new Date(now);
  api.use({ now: clock, agents: [{ id: DEMO_AGENT_ID, businessHours: NIGHT }] });
  if (naive) naiveSlots(...naive);
  const h = makeContext(api.baseUrl, { now: clock, visitorTimeZone });
  renderBook(h);
  await chooseDuration('15 min intro');
  await chooseDay(day);
  const read = async () => (await screen.findAllByRole('button', { name: /^\d{1,2}:\d\d/ })).map((b) => b.textContent);
  const visitor = await read();
  const toggle = screen.queryByRole('button', { name: /^show in Eastern Time$/ });
  if (toggle) fireEvent.click(toggle);
  return { visitor, agent: await read(), h };
}

describe('DST days in America/New_York', () => {
  test('fall back, 1 November 2026: the repeated hour is shown once per instant and labelled', async () => {
    const { visitor, agent, h } = await slotLabels('2026-10-25T12:00:00Z', 'Sunday, November 1, 2026', 'Europe/London', [
      '2026-11-01',
      ['00:30', '01:00', '01:30', '01:00', '01:30', '02:00', '02:30'],
    ]);
    expect(agent).toEqual(['12:30 AM', '1:00 AM EDT', '1:30 AM EDT', '2:00 AM', '2:30 AM']);
    expect(visitor).toEqual(['4:30 AM', '5:00 AM', '5:30 AM', '7:00 AM', '7:30 AM']);
    // Each time is named as of itself; the day that changes is named without a season.
    expect(screen.getByText(/^Times in Eastern Time/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '1:30 AM EDT, Eastern Daylight Time' }));
    expect(h.events.at(-1)?.payload).toMatchObject({ time: '01:30', start: '2026-11-01T05:30:00.000Z' });
  });

  test('spring forward, 8 March 2026: times in the gap are not shown, and nothing is shifted onto another', async () => {
    const { visitor, agent } = await slotLabels('2026-03-01T12:00:00Z', 'Sunday, March 8, 2026', 'Europe/London', [
      '2026-03-08',
      ['01:30', '02:00', '02:30', '03:00'],
    ]);
    expect(agent).toEqual(['1:30 AM', '3:00 AM']);
    expect(visitor).toEqual(['6:30 AM', '7:00 AM']);
  });

  test("the sandbox's own fall-back day lists every time once", async () => {
    const { visitor, agent } = await slotLabels('2026-10-25T12:00:00Z', 'Sunday, November 1, 2026', 'UTC');
    for (const labels of [visitor, agent]) {
      expect(labels.length).toBeGreaterThan(4);
      expect(new Set(labels).size).toBe(labels.length);
    }
  });
});

test('a visitor whose own clock falls back sees both 1 AMs told apart', async () => {
  const clock = () => new Date('2026-10-25T12:00:00Z');
  api.use({
    now: clock,
    agents: [{ id: DEMO_AGENT_ID, config: { timezone: 'Europe/London' }, businessHours: { sun: [{ start: '05:00', end: '07:00' }] } }],
  });
  const h = makeContext(api.baseUrl, { now: clock, visitorTimeZone: 'America/New_York' });
  renderBook(h);
  await chooseDuration('15 min intro');
  // New York's Saturday 31 October overlaps London's Sunday morning: offered until its slots are known.
  await screen.findByRole('grid', { name: 'October 2026' });
  fireEvent.click(screen.getByRole('button', { name: 'Next month' }));
  await chooseDay('Sunday, November 1, 2026');
  const labels = (await screen.findAllByRole('button', { name: /, Eastern (Daylight|Standard) Time$/ })).map((b) =>
    b.getAttribute('aria-label'),
  );
  expect(labels).toEqual([
    '1:00 AM EDT, Eastern Daylight Time',
    '1:15 AM EDT, Eastern Daylight Time',
    '1:30 AM EDT, Eastern Daylight Time',
    '1:45 AM EDT, Eastern Daylight Time',
    '1:00 AM EST, Eastern Standard Time',
    '1:15 AM EST, Eastern Standard Time',
    '1:30 AM EST, Eastern Standard Time',
    '1:45 AM EST, Eastern Standard Time',
  ]);
});
