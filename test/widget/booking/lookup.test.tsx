import { fireEvent, render, screen, within } from '@testing-library/preact';
import { http, HttpResponse } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { createBookingClient } from '../../../src/core/booking-client';
import type { Booking } from '../../../src/core/types';
import { DEMO_AGENT_ID, DEMO_BOOKING_CONFIG } from '../../../src/sandbox';
import { LookupView } from '../../../src/widget/booking';
import de from '../../../src/widget/i18n/locales/de';
import pl from '../../../src/widget/i18n/locales/pl';
import { expectFocused, facts, heading, makeContext, renderLookup, sentTo, t, useBookingServer } from './helpers';

const api = useBookingServer();

async function bookMonday(time = '09:00'): Promise<Booking> {
  const { booking } = await createBookingClient({ baseUrl: api.baseUrl }).create({
    agentId: DEMO_AGENT_ID,
    conversationId: 'conv-1',
    date: '2026-11-23',
    time,
    durationOptionId: 'consult-30',
    formData: { name: 'Ada', email: 'ada@example.com' },
  });
  return booking;
}

const codeInput = () => screen.getByRole('textbox', { name: t.code });
function typeCode(code: string) {
  fireEvent.input(codeInput(), { target: { value: code } });
  fireEvent.click(screen.getByRole('button', { name: t.find }));
}

/** Looks the booking up and confirms its cancel, as a visitor does. */
async function confirmCancel(booking: Booking) {
  const h = makeContext(api.baseUrl);
  renderLookup(h);
  typeCode(booking.booking_code);
  await heading(DEMO_BOOKING_CONFIG.booking_title);
  fireEvent.click(screen.getByRole('button', { name: t.cancelBooking }));
  fireEvent.click(await screen.findByRole('button', { name: t.cancelYes }));
  return h;
}

describe('My booking', () => {
  test('a code that is not BK-XXXXXX is refused before any request', async () => {
    const h = makeContext(api.baseUrl);
    renderLookup(h);
    await heading(t.lookupHeading);
    typeCode('BK-12');
    const input = codeInput();
    expectFocused(input);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual([t.invalidCode, t.codeHint]);
    expect(h.sent).toHaveLength(0);
  });

  test('finds a booking typed in lowercase with spaces, shows it in both zones, and cancels after asking', async () => {
    const booking = await bookMonday();
    const h = makeContext(api.baseUrl);
    const openBooking = vi.fn();
    renderLookup(h, openBooking);
    typeCode(`  ${booking.booking_code.toLowerCase().replace('-', ' ')} `);

    expectFocused(await heading(DEMO_BOOKING_CONFIG.booking_title));
    expect(sentTo(h, '/lookup')[0]?.url.searchParams.get('code')).toBe(booking.booking_code);
    expect(facts()).toEqual([
      `Booking code: ${booking.booking_code}`,
      'Status: Confirmed',
      'When: Monday, November 23, 2026, 3:00 – 3:30 PM (your time, Central European Standard Time) Monday, November 23, 2026, 9:00 – 9:30 AM (Eastern Standard Time, our time)',
      'Duration: 30 min consultation',
    ]);
    expect(h.remembered.map((r) => [r.code, r.status])).toEqual([[booking.booking_code, 'confirmed']]);

    fireEvent.click(screen.getByRole('button', { name: t.cancelBooking }));
    await heading(t.cancelAsk);
    // Keep booking is the safe default: focus starts there, not on the cancel.
    expectFocused(screen.getByRole('button', { name: t.keep }));
    expect(screen.getByText(t.cancelWarn)).toBeTruthy();
    // Keeping it goes back without a request.
    fireEvent.click(screen.getByRole('button', { name: t.keep }));
    await heading(DEMO_BOOKING_CONFIG.booking_title);
    expect(sentTo(h, '/cancel')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: t.cancelBooking }));
    await heading(t.cancelAsk);
    fireEvent.click(screen.getByRole('button', { name: t.cancelYes }));
    expectFocused(await heading(DEMO_BOOKING_CONFIG.booking_title));
    // Confirmed in the widget's language; the service's own message goes to the page with the event.
    expect(screen.getByRole('status').textContent).toBe(t.cancelledHeading);
    expect(facts()).toContain('Status: Cancelled');
    expect(screen.queryByRole('button', { name: t.cancelBooking })).toBeNull();
    // The way on: book another time, in the Book view.
    fireEvent.click(screen.getByRole('button', { name: t.bookAnother }));
    expect(openBooking).toHaveBeenCalledOnce();
    expect(api.sandbox().bookings()[0]?.status).toBe('cancelled');
    expect(h.remembered.map((r) => [r.code, r.status])).toEqual([[booking.booking_code, 'cancelled']]);
    expect(h.events).toEqual([
      {
        type: 'booking:cancelled',
        payload: {
          agentId: DEMO_AGENT_ID,
          code: booking.booking_code,
          booking: expect.objectContaining({ booking_code: booking.booking_code, status: 'cancelled' }),
          message: `Booking ${booking.booking_code} has been cancelled.`,
        },
      },
    ]);

    // Back to the code field for another look-up.
    fireEvent.click(screen.getByRole('button', { name: t.lookupAnother }));
    expectFocused(await heading(t.lookupHeading));
  });

  test("when cancelling online is off, that is said in the visitor's language with the way to ask, and no cancel is offered", async () => {
    api.use({ agents: [{ id: DEMO_AGENT_ID, config: { allow_user_cancellation: false } }] });
    const booking = await bookMonday();
    const h = makeContext(api.baseUrl);
    const openChat = vi.fn();
    renderLookup(h, undefined, openChat);
    typeCode(booking.booking_code);
    await heading(DEMO_BOOKING_CONFIG.booking_title);
    expect(await screen.findByText(`${t.cancelDisabled} ${t.cancelContact}`)).toBeTruthy();
    // The service's own sentence (its language, not the visitor's) is not what the visitor reads.
    expect(screen.queryByText(/Please contact us to change or cancel/)).toBeNull();
    expect(screen.queryByRole('button', { name: t.cancelBooking })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: t.messageUs }));
    expect(openChat).toHaveBeenCalledOnce();
  });

  test('within the notice period, the refusal says how much notice is needed, from cancellation_notice_hours', async () => {
    // Monday 09:00 in New York is 47 hours away: inside 48 hours' notice.
    api.use({ agents: [{ id: DEMO_AGENT_ID, config: { cancellation_notice_hours: 48 } }] });
    const booking = await bookMonday();
    const h = makeContext(api.baseUrl);
    renderLookup(h);
    typeCode(booking.booking_code);
    await heading(DEMO_BOOKING_CONFIG.booking_title);
    const said = await screen.findByText(/can no longer be cancelled online/);
    expect(said.textContent).toBe(
      `This booking can no longer be cancelled online: cancellations need 48 hours' notice. ${t.cancelContact}`,
    );
    expect(screen.queryByText(/Bookings can be cancelled up to/)).toBeNull();
    expect(screen.queryByRole('button', { name: t.cancelBooking })).toBeNull();
    expect(screen.getByRole('button', { name: t.messageUs })).toBeTruthy();
    // The config was asked for once, to tell which rule the service applied.
    expect(sentTo(h, '/config')).toHaveLength(1);
  });

  test("when the config cannot be had, the service's own sentence stands in, and the host hears why", async () => {
    api.use({ agents: [{ id: DEMO_AGENT_ID, config: { cancellation_notice_hours: 48 } }] });
    const booking = await bookMonday();
    api.server.use(
      http.get(`${api.baseUrl}/booking/public/config`, () => HttpResponse.json({ success: false, error: 'Down.' }, { status: 500 })),
    );
    const h = makeContext(api.baseUrl);
    renderLookup(h);
    typeCode(booking.booking_code);
    await heading(DEMO_BOOKING_CONFIG.booking_title);
    expect(await screen.findByText(/^Bookings can be cancelled up to 48 hours before the appointment/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: t.messageUs })).toBeNull();
    expect(h.events).toEqual([{ type: 'error', payload: expect.objectContaining({ scope: 'booking', request: 'config', status: 500 }) }]);
  });

  test.each([
    ['pl-PL', pl, 72, 'Tej rezerwacji nie można już anulować online: anulować można najpóźniej 72 godziny przed wizytą.'],
    ['pl-PL', pl, 48, 'Tej rezerwacji nie można już anulować online: anulować można najpóźniej 48 godzin przed wizytą.'],
    [
      'de-DE',
      de,
      48,
      'Diese Buchung kann nicht mehr online storniert werden: Stornierungen sind nur bis 48 Stunden vor dem Termin möglich.',
    ],
  ])("%s, %i hours' notice: said with the language's plural form", async (locale, strings, hours, sentence) => {
    api.use({ agents: [{ id: DEMO_AGENT_ID, config: { cancellation_notice_hours: hours } }] });
    const booking = await bookMonday();
    const h = makeContext(api.baseUrl, { locale });
    render(<LookupView stores={h.stores} strings={strings} asked={() => true} openBooking={() => undefined} openChat={() => undefined} />);
    fireEvent.input(screen.getByRole('textbox', { name: strings.code }), { target: { value: booking.booking_code } });
    fireEvent.click(screen.getByRole('button', { name: strings.find }));
    expect((await screen.findByText((text) => text.startsWith(sentence))).textContent).toBe(`${sentence} ${strings.cancelContact}`);
  });

  test("a cancel refused once the notice period has begun is said in the visitor's words; the event keeps the service's", async () => {
    const booking = await bookMonday();
    api.server.use(
      http.post(`${api.baseUrl}/booking/public/cancel`, () =>
        HttpResponse.json({ success: false, error: 'The cancellation window has just closed.' }, { status: 400 }),
      ),
    );
    // The visitor's clock: Sunday 22 November, 15:00 in New York, 18 hours before the booking.
    const h = makeContext(api.baseUrl, { now: () => new Date('2026-11-22T20:00:00Z') });
    renderLookup(h);
    typeCode(booking.booking_code);
    await heading(DEMO_BOOKING_CONFIG.booking_title);
    fireEvent.click(screen.getByRole('button', { name: t.cancelBooking }));
    fireEvent.click(await screen.findByRole('button', { name: t.cancelYes }));
    expect(await screen.findByText(/can no longer be cancelled online: cancellations need 24 hours' notice/)).toBeTruthy();
    expect(screen.queryByText('The cancellation window has just closed.')).toBeNull();
    expect(screen.queryByRole('button', { name: t.cancelBooking })).toBeNull();
    expect(h.events).toEqual([
      {
        type: 'error',
        payload: expect.objectContaining({ request: 'cancel', status: 400, message: 'The cancellation window has just closed.' }),
      },
    ]);
  });

  test('a cancel the service refuses for a reason the config does not explain shows its reason and stops offering the cancel', async () => {
    const booking = await bookMonday();
    api.server.use(
      http.post(`${api.baseUrl}/booking/public/cancel`, () =>
        HttpResponse.json({ success: false, error: 'The cancellation window has just closed.' }, { status: 400 }),
      ),
    );
    const h = await confirmCancel(booking);
    expectFocused(await heading(DEMO_BOOKING_CONFIG.booking_title));
    expect(await screen.findByText('The cancellation window has just closed.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: t.cancelBooking })).toBeNull();
    // Nothing to ask through the chat for: the service said what it had to.
    expect(screen.queryByRole('button', { name: t.messageUs })).toBeNull();
    expect(facts()).toContain('Status: Confirmed');
    // The host hears the refusal; nothing is retried.
    expect(h.events).toEqual([
      { type: 'error', payload: expect.objectContaining({ scope: 'booking', request: 'cancel', status: 400, retry: 'none' }) },
    ]);
  });

  test('a cancel that answers after the visitor moved on to another code does not bring the old booking back', async () => {
    const booking = await bookMonday();
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    api.server.use(
      http.post(`${api.baseUrl}/booking/public/cancel`, async ({ request }) => {
        await held;
        return api.sandbox().handle(request);
      }),
    );
    const h = await confirmCancel(booking);
    fireEvent.click(screen.getByRole('button', { name: t.keep }));
    fireEvent.click(await screen.findByRole('button', { name: t.lookupAnother }));
    await heading(t.lookupHeading);
    release();
    await vi.waitFor(() => expect(h.events.map((e) => e.type)).toContain('booking:cancelled'));
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe(t.lookupHeading);
    expect(h.remembered.find((b) => b.code === booking.booking_code)?.status).toBe('cancelled');
  });

  test('a remembered code can be picked, and its status and time are kept up to date', async () => {
    const booking = await bookMonday('10:00');
    const h = makeContext(api.baseUrl, { locale: 'en-GB' });
    // Stored without its zone (an older entry): shown as the wall time it was stored with.
    h.ctx.remembered.remember({ code: booking.booking_code, date: '2026-11-23', time: '10:00', title: 'Physio', status: 'confirmed' });
    renderLookup(h);
    const list = screen.getByRole('list');
    const pick = within(list).getByRole('button', { name: `${booking.booking_code} Physio · Mon 23 Nov, 10:00 · Confirmed` });
    fireEvent.click(pick);
    await heading(DEMO_BOOKING_CONFIG.booking_title);
    fireEvent.click(screen.getByRole('button', { name: t.cancelBooking }));
    fireEvent.click(await screen.findByRole('button', { name: t.cancelYes }));
    await screen.findByRole('status');
    fireEvent.click(screen.getByRole('button', { name: t.lookupAnother }));
    await heading(t.lookupHeading);
    // Remembered again with its zone: now on the visitor's Berlin clock, and cancelled.
    expect(
      within(screen.getByRole('list')).getByRole('button', {
        name: `${booking.booking_code} ${DEMO_BOOKING_CONFIG.booking_title} · Mon 23 Nov, 16:00 · Cancelled`,
      }),
    ).toBeTruthy();
  });

  test('an unknown code says it was not found', async () => {
    const h = makeContext(api.baseUrl);
    renderLookup(h);
    typeCode('BK-ZZZZZZ');
    expect(within(await screen.findByRole('alert')).getByText(t.notFound)).toBeTruthy();
    expect(screen.queryByRole('button', { name: t.retry })).toBeNull();
    expect(codeInput()).toHaveProperty('value', 'BK-ZZZZZZ');
  });
});
