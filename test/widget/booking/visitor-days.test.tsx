// The calendar in the visitor's zone: each visitor day made of the agent days it overlaps, "today" the
// visitor's, and days of 23 and 25 hours (the visitor's and the agent's) holding exactly their times.
import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { describe, expect, test } from 'vitest';
import { DEMO_AGENT_ID } from '../../../src/sandbox';
import { chooseDay, chooseDuration, heading, makeContext, renderBook, sentTo, t, useBookingServer } from './helpers';

const api = useBookingServer();
const ALL_DAY = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]));
const WEEKDAYS = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ start: '09:00', end: '17:00' }]]));

function agentInBerlin(now: string, businessHours: typeof ALL_DAY, visitorTimeZone: string) {
  const clock = () => new Date(now);
  api.use({ now: clock, agents: [{ id: DEMO_AGENT_ID, config: { timezone: 'Europe/Berlin' }, businessHours }] });
  const h = makeContext(api.baseUrl, { now: clock, visitorTimeZone });
  renderBook(h);
  return h;
}

const slotLabels = async () => (await screen.findAllByRole('button', { name: /^\d{1,2}:\d\d/ })).map((b) => b.textContent ?? '');
const dayButton = (name: string) => screen.findByRole('button', { name: new RegExp(`^${name}, `) });

describe('a visitor in Auckland, an agent in Berlin', () => {
  test("Tuesday 24 is Auckland's Tuesday: Monday afternoon and Tuesday morning in Berlin; today is Auckland's today", async () => {
    // Saturday 21 November, 16:00 in Berlin: already Sunday 22, 04:00, in Auckland.
    const h = agentInBerlin('2026-11-21T15:00:00Z', WEEKDAYS, 'Pacific/Auckland');
    await chooseDuration('15 min intro');
    expect(screen.getByText(/^Times in New Zealand Daylight Time/)).toBeTruthy();
    expect((await dayButton('Sunday, November 22, 2026')).getAttribute('aria-current')).toBe('date');
    // Berlin's Friday afternoon is Auckland's Saturday morning; Berlin's weekend is nobody's. Until a
    // day's slots are fetched, a day that overlaps an open Berlin day is offered without a count.
    await waitFor(async () =>
      expect((await dayButton('Saturday, November 28, 2026')).getAttribute('aria-label')).toBe(
        'Saturday, November 28, 2026, times available',
      ),
    );
    expect((await dayButton('Sunday, November 29, 2026')).getAttribute('aria-disabled')).toBe('true');
    expect(sentTo(h, '/slots')).toHaveLength(0);

    await chooseDay('Tuesday, November 24, 2026');
    expect(screen.getByText('Tuesday, November 24, 2026')).toBeTruthy();
    const labels = await slotLabels();
    // The two Berlin days it overlaps, and no more.
    expect(sentTo(h, '/slots').map((s) => s.url.searchParams.get('date'))).toEqual(['2026-11-23', '2026-11-24']);
    expect(labels.slice(0, 2)).toEqual(['12:00 AM', '12:15 AM']);
    expect(labels).toContain('4:45 AM');
    expect(labels).not.toContain('5:00 AM');
    expect(labels.slice(-2)).toEqual(['11:30 PM', '11:45 PM']);
    expect(labels).toHaveLength(20 + 12);
    fireEvent.click(screen.getByRole('button', { name: '12:00 AM, New Zealand Daylight Time' }));
    await heading(t.formHeading);
    expect(h.events.at(-1)?.payload).toMatchObject({ date: '2026-11-23', time: '12:00', timezone: 'Europe/Berlin' });

    // Once fetched, a day's slots make its count exact: Auckland's Tuesday has 32 times.
    fireEvent.click(screen.getByRole('button', { name: t.back }));
    fireEvent.click(screen.getByRole('button', { name: t.back }));
    expect((await dayButton('Tuesday, November 24, 2026')).getAttribute('aria-label')).toBe(
      'Tuesday, November 24, 2026, 32 times available',
    );
    fireEvent.click(await dayButton('Tuesday, November 24, 2026'));
    fireEvent.click(await screen.findByRole('button', { name: '12:00 AM, New Zealand Daylight Time' }));
    await heading(t.formHeading);

    // On the agent's clock the calendar is Berlin's: Saturday 21 is today there.
    fireEvent.click(screen.getByRole('button', { name: t.back }));
    fireEvent.click(await screen.findByRole('button', { name: 'show in Central European Standard Time' }));
    fireEvent.click(screen.getByRole('button', { name: t.back }));
    await heading(t.dateHeading);
    expect(screen.getByText(/^Times in Central European Standard Time/)).toBeTruthy();
    expect((await dayButton('Saturday, November 21, 2026')).getAttribute('aria-current')).toBe('date');
    await waitFor(async () => expect((await dayButton('Saturday, November 28, 2026')).getAttribute('aria-disabled')).toBe('true'));
  });
});

describe('a visitor in Los Angeles, an agent in Berlin', () => {
  test('a day that only its slots show to be empty says so once chosen, and is not offered again', async () => {
    const h = agentInBerlin('2026-11-21T15:00:00Z', WEEKDAYS, 'America/Los_Angeles');
    await chooseDuration('15 min intro');
    // Los Angeles' Sunday 29 runs to 09:00 Monday in Berlin: open there, so the day is offered until its slots are known.
    await chooseDay('Sunday, November 29, 2026');
    expect(await screen.findByText(t.noSlots)).toBeTruthy();
    expect(sentTo(h, '/slots').map((s) => s.url.searchParams.get('date'))).toEqual(['2026-11-30']);
    fireEvent.click(screen.getByRole('button', { name: t.back }));
    expect((await dayButton('Sunday, November 29, 2026')).getAttribute('aria-label')).toBe('Sunday, November 29, 2026, not available');
    // Berlin's Monday, 09:00 to 17:00, is all on Los Angeles' Monday, midnight to 8 AM.
    await chooseDay('Monday, November 30, 2026');
    const labels = await slotLabels();
    expect([labels[0], labels.at(-1), labels.length]).toEqual(['12:00 AM', '7:45 AM', 32]);
  });
});

/** Opens the calendar at `now` on the month of `day`, and lists the times of `day` (in the shown zone). */
async function timesOn(now: string, visitorTimeZone: string, day: string, agentClock = false) {
  agentInBerlin(now, ALL_DAY, visitorTimeZone);
  await chooseDuration('15 min intro');
  if (agentClock) fireEvent.click(await screen.findByRole('button', { name: /^show in Central European/ }));
  const month = day.replace(/^\w+, (\w+) \d+, (\d+)$/, '$1 $2');
  await screen.findByRole('grid');
  if (!screen.queryByText(month)) fireEvent.click(screen.getByRole('button', { name: t.nextMonth }));
  await screen.findByRole('grid', { name: month });
  await chooseDay(day);
  expect(screen.getByText(day)).toBeTruthy();
  const labels = await slotLabels();
  expect(new Set(labels).size).toBe(labels.length);
  return labels;
}

describe('days of 23 and 25 hours, every 15 minutes free', () => {
  test.each([
    ['Los Angeles falls back', '2026-10-25T12:00:00Z', 'America/Los_Angeles', 'Sunday, November 1, 2026', 100],
    ['Los Angeles springs forward', '2026-03-01T12:00:00Z', 'America/Los_Angeles', 'Sunday, March 8, 2026', 92],
    ['Auckland falls back', '2026-03-30T00:00:00Z', 'Pacific/Auckland', 'Sunday, April 5, 2026', 100],
    ['Auckland springs forward', '2026-09-20T00:00:00Z', 'Pacific/Auckland', 'Sunday, September 27, 2026', 92],
  ])("the visitor's day: %s", async (_, now, zone, day, count) => {
    const labels = await timesOn(now, zone, day);
    expect(labels).toHaveLength(count);
    expect(labels[0]).toBe('12:00 AM');
    expect(labels.at(-1)).toBe('11:45 PM');
  });

  test("the visitor's repeated hour is shown twice, told apart", async () => {
    const labels = await timesOn('2026-10-25T12:00:00Z', 'America/Los_Angeles', 'Sunday, November 1, 2026');
    expect(labels).toContain('1:00 AM PDT');
    expect(labels).toContain('1:00 AM PST');
  });

  test.each([
    // The API names a time by its wall clock only, so the service offers none in the agent's repeated hour.
    ['Berlin falls back', '2026-10-18T12:00:00Z', 'Sunday, October 25, 2026', 92],
    ['Berlin springs forward', '2026-03-22T12:00:00Z', 'Sunday, March 29, 2026', 92],
  ])("the agent's day on the agent's clock: %s", async (_, now, day, count) => {
    const labels = await timesOn(now, 'America/Los_Angeles', day, true);
    expect(labels).toHaveLength(count);
    expect(labels).not.toContain('2:00 AM');
  });
});
