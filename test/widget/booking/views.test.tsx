// The Book and My booking views tell one story about a booking, and the confirmation and choices
// read at a glance.
import { fireEvent, screen, within } from '@testing-library/preact';
import { describe, expect, test } from 'vitest';
import { DEMO_AGENT_ID, DEMO_BOOKING_CONFIG } from '../../../src/sandbox';
import { facts, heading, makeContext, renderBook, renderLookup, t, useBookingServer, walkToReview, type Harness } from './helpers';

const api = useBookingServer();

/** Books Monday 3:00 PM Berlin through the Book view; returns the view (to unmount, as a tab switch does) and the code. */
async function bookInBookView(h: Harness) {
  const view = renderBook(h);
  await walkToReview('3:00 PM, Central European Standard Time');
  fireEvent.click(screen.getByRole('button', { name: t.confirm }));
  await heading(t.doneHeading);
  const code = api.sandbox().bookings(DEMO_AGENT_ID)[0]?.booking_code ?? '';
  return { view, code };
}

const calendarLinks = () => [
  screen.queryByRole('link', { name: `${t.google} ${t.opensNewTab}` }),
  screen.queryByRole('link', { name: `${t.outlook} ${t.opensNewTab}` }),
  screen.queryByRole('link', { name: t.ics }),
];
const successMark = () => screen.getByRole('heading', { level: 3 }).classList.contains('ok');

describe('one booking, one state across the views', () => {
  test('after a cancel in My booking, the Book tab shows the booking cancelled, without calendar links, and offers a new booking', async () => {
    const h = makeContext(api.baseUrl);
    const { view, code } = await bookInBookView(h);
    expect(successMark()).toBe(true);
    expect(calendarLinks().every(Boolean)).toBe(true);

    // The visitor switches to My booking, picks the booking just made and cancels it.
    view.unmount();
    const lookup = renderLookup(h);
    fireEvent.click(within(screen.getByRole('list')).getByRole('button', { name: new RegExp(`^${code} `) }));
    await heading(DEMO_BOOKING_CONFIG.booking_title);
    fireEvent.click(screen.getByRole('button', { name: t.cancelBooking }));
    fireEvent.click(await screen.findByRole('button', { name: t.cancelYes }));
    await screen.findByRole('status');

    // Back on Book: the same booking, cancelled.
    lookup.unmount();
    renderBook(h);
    await heading(t.cancelledHeading);
    expect(screen.queryByRole('heading', { name: t.doneHeading })).toBeNull();
    expect(facts()).toContain('Status: Cancelled');
    expect(facts()).toContain(`Booking code: ${code} ${t.copyCode}`);
    expect(calendarLinks()).toEqual([null, null, null]);
    expect(successMark()).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: t.bookAnother }));
    await heading(t.durationHeading);
  });

  test('a cancel made elsewhere (another tab) updates both views while they are on screen', async () => {
    const h = makeContext(api.baseUrl);
    const { code } = await bookInBookView(h);
    renderLookup(h);
    fireEvent.click(within(screen.getByRole('list')).getByRole('button', { name: new RegExp(`^${code} `) }));
    await heading(DEMO_BOOKING_CONFIG.booking_title);
    expect(screen.getByRole('button', { name: t.cancelBooking })).toBeTruthy();

    // What the storage event from the other tab does to the remembered bookings.
    h.ctx.remembered.setStatus(code, 'cancelled');
    await heading(t.cancelledHeading);
    expect(calendarLinks()).toEqual([null, null, null]);
    expect(screen.queryByRole('button', { name: t.cancelBooking })).toBeNull();
    expect(screen.getAllByRole('definition').filter((dd) => dd.textContent === t.cancelled)).toHaveLength(2);
  });

  test('a pending booking gets no success mark', async () => {
    api.use({ pendingBookings: true });
    renderBook(makeContext(api.baseUrl));
    await walkToReview('3:00 PM, Central European Standard Time');
    fireEvent.click(screen.getByRole('button', { name: t.confirm }));
    await heading(t.pendingHeading);
    expect(successMark()).toBe(false);
    expect(calendarLinks().every(Boolean)).toBe(true);
  });
});

describe('duration choices', () => {
  test('each option says its label, and its length unless the label says it: the length is said once', async () => {
    const options = [
      { id: 'intro-15', label: '15 min intro', duration_minutes: 15 },
      { id: 'call-20', label: 'Phone call', duration_minutes: 20 },
      { id: 'plain-45', label: '', duration_minutes: 45 },
      { id: 'session-120', label: '2h session', duration_minutes: 120 },
    ];
    api.use({ agents: [{ id: DEMO_AGENT_ID, config: { duration_options: options } }] });
    renderBook(makeContext(api.baseUrl));
    await heading(t.durationHeading);
    const names = within(screen.getByRole('list'))
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(names).toEqual(['15 min intro', 'Phone call 20 minutes', '45 minutes', '2h session']);
    fireEvent.click(screen.getByRole('button', { name: '15 min intro' }));
    await heading(t.dateHeading);
  });
});
