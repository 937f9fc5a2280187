import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, test } from 'vitest';
import { DEMO_AGENT_ID } from '../../../src/sandbox';
import { chooseDuration, expectFocused, heading, makeContext, renderBook, sentTo, t, useBookingServer } from './helpers';

const api = useBookingServer();

const day = (name: RegExp | string) => screen.getByRole('button', { name: typeof name === 'string' ? new RegExp(`^${name},`) : name });
const monthsAsked = (h: ReturnType<typeof makeContext>) => sentTo(h, '/dates').map((s) => s.url.searchParams.get('month'));
/** A key press as a browser delivers it: the keydown, then, unless a handler prevented it, Enter clicks the focused button. */
const press = (key: string) => {
  const el = document.activeElement;
  if (!(el instanceof HTMLElement)) throw new Error('nothing has focus');
  if (fireEvent.keyDown(el, { key }) && key === 'Enter' && el instanceof HTMLButtonElement) el.click();
};
const focusedName = () => document.activeElement?.getAttribute('aria-label') ?? '';

/** What the date step's live regions say (the month's notice, the check of its days). */
const statuses = () => screen.getAllByRole('status').map((status) => status.textContent);

/** The Book view on November's calendar, once its dates are in and its days checked. */
async function openCalendar(h: ReturnType<typeof makeContext>) {
  renderBook(h);
  await chooseDuration();
  const grid = await screen.findByRole('grid', { name: 'November 2026' });
  await waitFor(() => expect(grid.getAttribute('aria-busy')).toBeNull());
  await waitFor(() => expect(statuses()).not.toContain(t.checkingDays));
  return grid;
}

describe('the month calendar', () => {
  // In the agent's zone each day is one of the agent's, so the month's dates give each count.
  test('labels each day with its full date and availability, disables the rest, and marks today', async () => {
    const h = makeContext(api.baseUrl, { visitorTimeZone: 'America/New_York' });
    renderBook(h);
    await chooseDuration();
    // A skeleton until the month's dates arrive.
    const grid = screen.getByRole('grid', { name: 'November 2026' });
    expect(grid.getAttribute('aria-busy')).toBe('true');
    await waitFor(() => expect(grid.getAttribute('aria-busy')).toBeNull());

    const monday = day('Monday, November 23, 2026');
    expect(monday.getAttribute('aria-label')).toMatch(/^Monday, November 23, 2026, \d+ times available$/);
    expect(monday.getAttribute('aria-disabled')).toBeNull();
    expect(monday.textContent).toBe('23');

    const today = day('Saturday, November 21, 2026');
    expect(today.getAttribute('aria-label')).toBe('Saturday, November 21, 2026, not available');
    expect(today.getAttribute('aria-disabled')).toBe('true');
    expect(today.getAttribute('aria-current')).toBe('date');
    expect(day('Sunday, November 22, 2026').getAttribute('aria-disabled')).toBe('true');
    expect(day('Friday, November 20, 2026').getAttribute('aria-disabled')).toBe('true');

    // A disabled day does nothing.
    const asked = sentTo(h, '/slots').length;
    fireEvent.click(today);
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe(t.dateHeading);
    expect(sentTo(h, '/slots')).toHaveLength(asked);

    // Columns are named in full for assistive tech; en-US weeks start on Sunday.
    const headers = screen.getAllByRole('columnheader');
    const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
    expect(headers).toEqual(days.map((name) => screen.getByRole('columnheader', { name })));
  });

  test('prefetches the next month, cannot go before this month, and offers nothing past max_advance_days', async () => {
    const h = makeContext(api.baseUrl, { visitorTimeZone: 'America/New_York' });
    await openCalendar(h);
    await waitFor(() => expect(monthsAsked(h)).toEqual(['2026-11', '2026-12']));
    expect(screen.getByRole('button', { name: t.prevMonth })).toHaveProperty('disabled', true);

    // December was prefetched: showing it asks for December no second time, only January next.
    fireEvent.click(screen.getByRole('button', { name: t.nextMonth }));
    expect(screen.getByText('December 2026').getAttribute('aria-live')).toBe('polite');
    const december = screen.getByRole('grid', { name: 'December 2026' });
    await waitFor(() => expect(december.getAttribute('aria-busy')).toBeNull());
    await waitFor(() => expect(monthsAsked(h)).toEqual(['2026-11', '2026-12', '2027-01']));

    fireEvent.click(screen.getByRole('button', { name: t.nextMonth }));
    await screen.findByRole('grid', { name: 'January 2027' });
    // max_advance_days is 60: 20 January 2027 is the last bookable day.
    await waitFor(() => expect(day('Wednesday, January 20, 2027').getAttribute('aria-disabled')).toBeNull());
    expect(day('Thursday, January 21, 2027').getAttribute('aria-label')).toBe('Thursday, January 21, 2027, not available');
    expect(screen.getByRole('button', { name: t.nextMonth })).toHaveProperty('disabled', true);
    expect(monthsAsked(h)).not.toContain('2027-02');
    expect(monthsAsked(h)).not.toContain('2026-10');
  });

  test('is one tab stop that arrows, Home/End, PageUp/PageDown move, and Enter chooses', async () => {
    const h = makeContext(api.baseUrl);
    const grid = await openCalendar(h);
    const stops = () =>
      within(grid)
        .getAllByRole('button')
        .filter((b) => b.tabIndex === 0);
    // One tab stop, on the first free day.
    await waitFor(() => expect(stops().map((b) => b.textContent)).toEqual(['23']));
    stops()[0]?.focus();

    press('ArrowRight');
    expect(focusedName()).toMatch(/^Tuesday, November 24, 2026,/);
    press('ArrowLeft');
    expect(focusedName()).toMatch(/^Monday, November 23, 2026,/);
    press('ArrowDown');
    expect(focusedName()).toMatch(/^Monday, November 30, 2026,/);
    press('ArrowUp');
    press('Home');
    expect(focusedName()).toMatch(/^Sunday, November 22, 2026,/);
    press('End');
    expect(focusedName()).toMatch(/^Saturday, November 28, 2026,/);
    expect(stops()).toHaveLength(1);

    press('PageDown');
    expect(screen.getByText('December 2026').getAttribute('aria-live')).toBe('polite');
    expect(focusedName()).toMatch(/^Monday, December 28, 2026/);
    press('PageUp');
    expect(focusedName()).toMatch(/^Saturday, November 28, 2026,/);

    // Before this month the focus stops at its first day.
    press('PageUp');
    expect(screen.getByText('November 2026')).toBeTruthy();
    expect(focusedName()).toMatch(/^Sunday, November 1, 2026,/);
    press('ArrowLeft');
    expect(focusedName()).toMatch(/^Sunday, November 1, 2026,/);

    // Enter on an unavailable day does nothing; on a free one it chooses it.
    const asked = sentTo(h, '/slots').length;
    press('Enter');
    expect(sentTo(h, '/slots')).toHaveLength(asked);
    for (let i = 0; i < 22; i++) press('ArrowRight');
    expect(focusedName()).toMatch(/^Monday, November 23, 2026,/);
    press('Enter');
    expectFocused(await heading(t.timeHeading));
    expect(h.events).toEqual([
      {
        type: 'booking:date-selected',
        payload: { agentId: DEMO_AGENT_ID, date: '2026-11-23', timezone: 'Europe/Berlin', durationMinutes: 30 },
      },
    ]);
  });

  test('starts weeks on Monday where the locale does', async () => {
    const h = makeContext(api.baseUrl, { locale: 'en-GB' });
    renderBook(h);
    await chooseDuration();
    const grid = await screen.findByRole('grid', { name: 'November 2026' });
    expect(screen.getAllByRole('columnheader')[0]).toBe(screen.getByRole('columnheader', { name: 'Monday' }));
    // 1 November 2026 is a Sunday: the last column of the first row.
    const firstRow = within(grid).getAllByRole('row')[1];
    if (!firstRow) throw new Error('no weeks');
    expect(
      within(firstRow)
        .getAllByRole('gridcell')
        .map((c) => c.textContent),
    ).toEqual(['', '', '', '', '', '', '1']);
    const wednesday = await screen.findByRole('button', { name: /^Wednesday, 25 November 2026,/ });
    wednesday.focus();
    press('Home');
    expect(focusedName()).toMatch(/^Monday, 23 November 2026,/);
    press('End');
    expect(focusedName()).toMatch(/^Sunday, 29 November 2026,/);
  });

  test('an empty month jumps to the first month with free times and says so', async () => {
    // Monday 30 November, 18:00 in New York: nothing is left in November.
    const late = new Date('2026-11-30T23:00:00Z');
    api.use({ now: () => late });
    const h = makeContext(api.baseUrl, { now: () => late, visitorTimeZone: 'America/New_York' });
    renderBook(h);
    await chooseDuration();
    expect(await screen.findByRole('grid', { name: 'December 2026' })).toBeTruthy();
    expect(statuses()).toContain('No free times in November 2026. Showing December 2026, the first month with free times.');
    // The tab stop is on December's first free day.
    const grid = screen.getByRole('grid');
    await waitFor(() =>
      expect(
        within(grid)
          .getAllByRole('button')
          .find((b) => b.tabIndex === 0)
          ?.getAttribute('aria-label'),
      ).toMatch(/^Tuesday, December 1, 2026, \d+ times/),
    );
  });

  test('says so when nothing at all is free within the horizon', async () => {
    api.use({ agents: [{ id: DEMO_AGENT_ID, businessHours: {} }] });
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await chooseDuration();
    await waitFor(() => expect(statuses()).toContain(t.noneFree));
    expect(screen.getByRole('grid', { name: 'November 2026' })).toBeTruthy();
    expect(monthsAsked(h)).toEqual(['2026-11', '2026-12', '2027-01']);
  });
});
