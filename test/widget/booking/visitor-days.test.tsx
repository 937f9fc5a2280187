// The calendar in the visitor's zone: each visitor day made of the agent days it overlaps, "today" the
// visitor's, and days of 23 and 25 hours (the visitor's and the agent's) holding exactly their times.
import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { http } from 'msw';
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
    // Berlin's Friday afternoon (12:00 to 16:45) is Auckland's Saturday morning; Berlin's weekend is
    // nobody's. The month's check fetched each open Berlin day's slots once, so every day is counted.
    await waitFor(async () =>
      expect((await dayButton('Saturday, November 28, 2026')).getAttribute('aria-label')).toBe(
        'Saturday, November 28, 2026, 20 times available',
      ),
    );
    expect((await dayButton('Sunday, November 29, 2026')).getAttribute('aria-disabled')).toBe('true');
    const berlinDays = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-30'];
    const asked = () =>
      sentTo(h, '/slots')
        .map((s) => s.url.searchParams.get('date'))
        .sort();
    expect(asked()).toEqual(berlinDays);

    await chooseDay('Tuesday, November 24, 2026');
    expect(screen.getByText('Tuesday, November 24, 2026')).toBeTruthy();
    const labels = await slotLabels();
    // The two Berlin days it overlaps were fetched by the check: choosing the day asks for nothing more.
    expect(asked()).toEqual(berlinDays);
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
  test('a day that overlaps an open agent day but holds none of its times is never offered', async () => {
    const h = agentInBerlin('2026-11-21T15:00:00Z', WEEKDAYS, 'America/Los_Angeles');
    await chooseDuration('15 min intro');
    // Los Angeles' Sunday 29 runs to 09:00 Monday in Berlin, before Berlin opens: checked, not offered.
    await waitFor(async () =>
      expect((await dayButton('Sunday, November 29, 2026')).getAttribute('aria-label')).toBe('Sunday, November 29, 2026, not available'),
    );
    // Each open Berlin day the month overlaps, once: Los Angeles' Monday 30 runs to 09:00 on 1 December there.
    expect(
      sentTo(h, '/slots')
        .map((s) => s.url.searchParams.get('date'))
        .sort(),
    ).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-30', '2026-12-01']);
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

describe('the month while its days are checked (a visitor in Auckland, the demo agent in New York)', () => {
  /** Holds the slots answers of every New York day but `free` until release(). */
  function holdSlots(free: string[]) {
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    api.server.use(
      http.get(`${api.baseUrl}/booking/public/slots`, async ({ request }) => {
        if (!free.includes(new URL(request.url).searchParams.get('date') ?? '')) await released;
        return api.sandbox().handle(request);
      }),
    );
    return release;
  }
  const statuses = () => screen.getAllByRole('status').map((status) => status.textContent);

  test('says it is checking, offers no unknown day, lets the visitor pick a day already known, then counts every day', async () => {
    // New York's Monday 23 and Tuesday 24 are answered at once: Auckland's Tuesday 24 is known.
    const release = holdSlots(['2026-11-23', '2026-11-24']);
    const h = makeContext(api.baseUrl, { visitorTimeZone: 'Pacific/Auckland' });
    renderBook(h);
    await chooseDuration();
    await waitFor(() => expect(statuses()).toContain(t.checkingDays));
    const thursday = await screen.findByRole('button', { name: 'Thursday, November 26, 2026, checking for times' });
    expect(thursday.getAttribute('aria-disabled')).toBe('true');
    // The grid is not busy as a whole: the days known can be read and picked.
    expect(screen.getByRole('grid', { name: 'November 2026' }).getAttribute('aria-busy')).toBeNull();
    fireEvent.click(thursday);
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe(t.dateHeading);
    expect(h.events).toEqual([]);
    // Wednesday 25 holds New York's Tuesday (known) and Wednesday before 6:00 (still coming): offered, not counted yet.
    const wednesday = await screen.findByRole('button', { name: 'Wednesday, November 25, 2026, times available' });
    expect(wednesday.getAttribute('aria-disabled')).toBeNull();

    // New York's Monday, 09:00 to 16:30, is Auckland's Tuesday, 3:00 to 10:30.
    await chooseDay(/^Tuesday, November 24, 2026, 31 times available$/);
    const times = await screen.findAllByRole('button', { name: /, New Zealand Daylight Time$/ });
    expect([times[0]?.textContent, times.at(-1)?.textContent]).toEqual(['3:00 AM', '10:30 AM']);
    fireEvent.click(screen.getByRole('button', { name: t.back }));
    await heading(t.dateHeading);

    release();
    await waitFor(() => expect(statuses()).not.toContain(t.checkingDays));
    expect(screen.queryAllByRole('button', { name: /checking for times$/ })).toEqual([]);
    expect((await dayButton('Thursday, November 26, 2026')).getAttribute('aria-label')).toBe(
      'Thursday, November 26, 2026, 31 times available',
    );
    expect((await dayButton('Wednesday, November 25, 2026')).getAttribute('aria-label')).toBe(
      'Wednesday, November 25, 2026, 31 times available',
    );
    // Auckland's Monday 30 is New York's Sunday evening and Monday before 6:00: nothing.
    expect((await dayButton('Monday, November 30, 2026')).getAttribute('aria-label')).toBe('Monday, November 30, 2026, not available');
  });

  test('a slots request that fails during the check: the day stays selectable, and the day says what it finds', async () => {
    api.use({ faults: [{ path: '/booking/public/slots', kind: 'gateway', times: 1 }] });
    const h = makeContext(api.baseUrl, { visitorTimeZone: 'Pacific/Auckland' });
    renderBook(h);
    await chooseDuration();
    // Reported as the flow reports a failed request, once, and nothing is left "checking".
    await waitFor(() =>
      expect(h.events.filter((e) => e.type === 'error')).toEqual([
        { type: 'error', payload: expect.objectContaining({ request: 'slots', status: 502 }) },
      ]),
    );
    await waitFor(() => expect(statuses()).not.toContain(t.checkingDays));
    expect(screen.queryAllByRole('button', { name: /checking for times$/ })).toEqual([]);
    const uncounted = screen.getAllByRole('button', { name: /, times available$/ });
    expect(uncounted.length).toBeGreaterThan(0);
    const [first] = uncounted;
    if (!first) throw new Error('no day offered without a count');
    fireEvent.click(first);
    await heading(t.timeHeading);
    // Fetched again once chosen: its times, or the sentence it says today.
    await waitFor(() =>
      expect(
        screen.queryAllByRole('button', { name: /, New Zealand Daylight Time$/ }).length || screen.queryByText(t.noSlots),
      ).toBeTruthy(),
    );
  });
});
