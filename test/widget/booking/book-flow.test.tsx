import { fireEvent, render, screen } from '@testing-library/preact';
import { describe, expect, test } from 'vitest';
import { DEMO_AGENT_ID, DEMO_BOOKING_CONFIG } from '../../../src/sandbox';
import { BookingView } from '../../../src/widget/booking';
import {
  ANSWERS,
  chooseDay,
  chooseDuration,
  chooseTime,
  expectFocused,
  facts,
  fillForm,
  heading,
  makeContext,
  renderBook,
  sentTo,
  t,
  useBookingServer,
  walkToReview,
} from './helpers';

const api = useBookingServer();

describe('booking a time, start to finish', () => {
  test('duration, day, time, details, review and confirmation, with both zones and add-to-calendar', async () => {
    const h = makeContext(api.baseUrl, { utm: { utm_source: 'newsletter' } });
    renderBook(h);

    expect(await screen.findByText(DEMO_BOOKING_CONFIG.booking_title)).toBeTruthy();
    await chooseDuration('30 min consultation');
    expectFocused(await heading(t.dateHeading));

    await chooseDay('Monday, November 23, 2026');
    expectFocused(await heading(t.timeHeading));
    expect(screen.getByText(/^Times in Central European Standard Time/)).toBeTruthy();
    // 09:00 in New York is 15:00 in Berlin.
    await chooseTime('3:00 PM, Central European Standard Time');

    fillForm(ANSWERS);
    fireEvent.click(screen.getByRole('button', { name: t.next }));
    expectFocused(await heading(t.reviewHeading));
    expect(facts()).toEqual([
      // One row: the visitor's clock with their zone, then the agent's, each zone named once.
      'When: Monday, November 23, 2026, 3:00 – 3:30 PM (your time, Central European Standard Time) Monday, November 23, 2026, 9:00 – 9:30 AM (Eastern Standard Time, our time)',
      'Duration: 30 min consultation',
      'Your name: Ada Lovelace',
      'Email: ada@example.com',
      'Anything we should know?: Left knee',
    ]);

    fireEvent.click(screen.getByRole('button', { name: t.confirm }));
    expectFocused(await heading(t.doneHeading));

    const [booking] = api.sandbox().bookings(DEMO_AGENT_ID);
    if (!booking) throw new Error('no booking was made');
    expect(booking.booking_code).toMatch(/^BK-[A-Z0-9]{6}$/);
    expect(facts()).toEqual([
      // The code, with the button that copies it.
      `Booking code: ${booking.booking_code} ${t.copyCode}`,
      'Status: Confirmed',
      // One row: the visitor's clock with their zone, then the agent's, each zone named once.
      'When: Monday, November 23, 2026, 3:00 – 3:30 PM (your time, Central European Standard Time) Monday, November 23, 2026, 9:00 – 9:30 AM (Eastern Standard Time, our time)',
      'Duration: 30 min consultation',
      'Your name: Ada Lovelace',
      'Email: ada@example.com',
      'Anything we should know?: Left knee',
    ]);

    // The API's agent-zone date and time go back exactly as given, with the chat's conversation id.
    expect(sentTo(h, '/create').map((s) => s.body)).toEqual([
      {
        agentId: DEMO_AGENT_ID,
        conversationId: 'conv-test-1',
        date: '2026-11-23',
        time: '09:00',
        durationOptionId: 'consult-30',
        formData: { name: 'Ada Lovelace', email: 'ada@example.com', notes: 'Left knee' },
      },
    ]);

    const google = new URL(screen.getByRole('link', { name: `${t.google} ${t.opensNewTab}` }).getAttribute('href') ?? '');
    expect(google.origin + google.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(google.searchParams.get('action')).toBe('TEMPLATE');
    // What the appointment is, and with whom: not the booking page's heading.
    expect(google.searchParams.get('text')).toBe('30 min consultation with Harbor Physio');
    expect(google.searchParams.get('dates')).toBe('20261123T140000Z/20261123T143000Z');
    expect(google.searchParams.get('details')).toContain(booking.booking_code);

    const outlook = new URL(screen.getByRole('link', { name: `${t.outlook} ${t.opensNewTab}` }).getAttribute('href') ?? '');
    expect(outlook.origin + outlook.pathname).toBe('https://outlook.live.com/calendar/0/deeplink/compose');
    expect(outlook.searchParams.get('subject')).toBe('30 min consultation with Harbor Physio');
    expect(outlook.searchParams.get('startdt')).toBe('2026-11-23T14:00:00.000Z');
    expect(outlook.searchParams.get('enddt')).toBe('2026-11-23T14:30:00.000Z');
    expect(outlook.searchParams.get('body')).toContain(booking.booking_code);

    // Copy code puts the code alone on the clipboard, and says so.
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void copied.push(text) },
    });
    try {
      fireEvent.click(screen.getByRole('button', { name: t.copyCode }));
      expect(await screen.findByRole('button', { name: t.copied })).toBeTruthy();
      expect(copied).toEqual([booking.booking_code]);
    } finally {
      Reflect.deleteProperty(navigator, 'clipboard');
    }

    const ics = screen.getByRole('link', { name: t.ics });
    expect(ics.getAttribute('download')).toBe(`${booking.booking_code}.ics`);
    const [type, data] = (ics.getAttribute('href') ?? '').split(',');
    expect(type).toBe('data:text/calendar;charset=utf-8');
    const text = decodeURIComponent(data ?? '');
    const lines = text.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'BEGIN:VEVENT',
        `UID:${booking.booking_code}@agent-widget`,
        'DTSTAMP:20261121T150000Z',
        'DTSTART:20261123T140000Z',
        'DTEND:20261123T143000Z',
        'SUMMARY:30 min consultation with Harbor Physio',
        `DESCRIPTION:Booking code ${booking.booking_code}`,
        'END:VEVENT',
        'END:VCALENDAR',
      ]),
    );

    // Remembered for My booking, and every event with its payload.
    expect(h.remembered).toEqual([
      {
        code: booking.booking_code,
        date: '2026-11-23',
        time: '09:00',
        title: DEMO_BOOKING_CONFIG.booking_title,
        status: 'confirmed',
        timezone: 'America/New_York',
      },
    ]);
    const consult = { id: 'consult-30', label: '30 min consultation', duration_minutes: 30 };
    expect(h.events).toEqual([
      {
        type: 'booking:date-selected',
        payload: { agentId: DEMO_AGENT_ID, date: '2026-11-23', timezone: 'Europe/Berlin', durationMinutes: 30 },
      },
      {
        type: 'booking:slot-selected',
        payload: {
          agentId: DEMO_AGENT_ID,
          date: '2026-11-23',
          time: '09:00',
          timezone: 'America/New_York',
          start: '2026-11-23T14:00:00.000Z',
          duration: consult,
        },
      },
      { type: 'booking:created', payload: { agentId: DEMO_AGENT_ID, booking, utm: { utm_source: 'newsletter' } } },
    ]);
  });

  test('a pending booking says it awaits confirmation', async () => {
    api.use({ pendingBookings: true });
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await walkToReview('3:00 PM, Central European Standard Time');
    fireEvent.click(screen.getByRole('button', { name: t.confirm }));
    await heading(t.pendingHeading);
    expect(facts()).toContain('Status: Pending: awaiting confirmation');
    expect(h.events.at(-1)).toMatchObject({ type: 'booking:created' });
    expect(h.events.at(-1)?.payload).not.toHaveProperty('utm');
  });

  test('with one duration the duration step is skipped', async () => {
    const only = { id: 'only-45', label: '45 min', duration_minutes: 45 };
    api.use({ agents: [{ id: DEMO_AGENT_ID, config: { duration_options: [only] } }] });
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await heading(t.dateHeading);
    expect(screen.queryByRole('heading', { name: t.durationHeading })).toBeNull();
    expect(screen.queryByRole('button', { name: t.back })).toBeNull();
    await chooseDay('Monday, November 23, 2026');
    expect(sentTo(h, '/slots')[0]?.url.searchParams.get('durationMinutes')).toBe('45');
    fireEvent.click(screen.getByRole('button', { name: t.back }));
    await heading(t.dateHeading);
  });

  test('a step change moves focus to its heading, but never away from where the visitor put it outside the view', async () => {
    const h = makeContext(api.baseUrl);
    render(
      <>
        <button type="button">Elsewhere</button>
        <BookingView stores={h.stores} strings={t} asked={() => true} />
      </>,
    );
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    elsewhere.focus();
    // The config arrives while focus is outside: it stays there.
    await heading(t.durationHeading);
    expectFocused(elsewhere);
    // Focus inside the view follows the step.
    const option = screen.getByRole('button', { name: '30 min consultation' });
    option.focus();
    fireEvent.click(option);
    expectFocused(await heading(t.dateHeading));
  });

  test('back goes one step back on every step, keeping the choices', async () => {
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await walkToReview('3:00 PM, Central European Standard Time');
    for (const previous of [t.formHeading, t.timeHeading, t.dateHeading, t.durationHeading]) {
      fireEvent.click(screen.getByRole('button', { name: t.back }));
      expectFocused(await heading(previous));
      if (previous === t.formHeading) expect(screen.getByRole('textbox', { name: 'Your name' })).toHaveProperty('value', 'Ada Lovelace');
    }
    expect(screen.queryByRole('button', { name: t.back })).toBeNull();
  });
});

describe('time zones', () => {
  test("a visitor in Tokyo gets Tokyo's days, each made of the two New York days it overlaps, and can switch to the agent's", async () => {
    const h = makeContext(api.baseUrl, { visitorTimeZone: 'Asia/Tokyo' });
    renderBook(h);
    await chooseDuration();
    expect(screen.getByText(/^Times in Japan Standard Time/)).toBeTruthy();
    // New York's November starts on summer time and ends on standard time: the month names it without a season.
    expect(screen.getByRole('button', { name: 'show in Eastern Time' })).toBeTruthy();
    // Tokyo's Tuesday 24 runs from 10:00 Monday to 10:00 Tuesday in New York: both days' times, and no others.
    await chooseDay('Tuesday, November 24, 2026');
    expect(screen.getByText('Tuesday, November 24, 2026')).toBeTruthy();
    const tokyo = (await screen.findAllByRole('button', { name: /, Japan Standard Time$/ })).map((b) => b.textContent);
    expect(tokyo[0]).toBe('12:00 AM');
    expect(tokyo.at(-1)).toBe('11:45 PM');
    expect(tokyo).toContain('6:30 AM');
    expect(tokyo).not.toContain('6:45 AM');
    // The month's check asked once for each open New York day November overlaps (its Sunday is closed,
    // Saturday 21 has nothing left after the notice): choosing the day asked for nothing more.
    expect(
      sentTo(h, '/slots')
        .map((s) => s.url.searchParams.get('date'))
        .sort(),
    ).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-30']);
    expect(h.events.at(-1)?.payload).toMatchObject({ date: '2026-11-24', timezone: 'Asia/Tokyo' });

    // The same day on the agent's clock: Tuesday 24 in New York.
    fireEvent.click(screen.getByRole('button', { name: 'show in Eastern Standard Time' }));
    expect(await screen.findByText(/^Times in Eastern Standard Time/)).toBeTruthy();
    const agent = (await screen.findAllByRole('button', { name: /, Eastern Standard Time$/ })).map((b) => b.textContent);
    expect(agent[0]).toBe('9:00 AM');
    fireEvent.click(screen.getByRole('button', { name: 'show in Japan Standard Time' }));
    fireEvent.click(await screen.findByRole('button', { name: '12:00 AM, Japan Standard Time' }));
    await heading(t.formHeading);
    expect(h.events.at(-1)?.payload).toMatchObject({
      date: '2026-11-23',
      time: '10:00',
      timezone: 'America/New_York',
      start: '2026-11-23T15:00:00.000Z',
    });
  });

  test('a visitor in the agent zone gets no zone switch', async () => {
    const h = makeContext(api.baseUrl, { visitorTimeZone: 'America/New_York' });
    renderBook(h);
    await chooseDuration();
    await chooseDay('Monday, November 23, 2026');
    expect(await screen.findByRole('button', { name: '9:00 AM, Eastern Standard Time' })).toBeTruthy();
    expect(screen.getByText('Times in Eastern Standard Time')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^show in/ })).toBeNull();
  });

  test.each([
    ['en-US', 'Monday, November 23, 2026', '3:00 PM', 'Eastern Standard Time', 'Monday, November 23, 2026, 3:00 – 3:30 PM'],
    ['en-GB', 'Monday, 23 November 2026', '15:00', 'Eastern Standard Time', 'Monday, 23 November 2026, 15:00–15:30'],
    ['de-DE', 'Montag, 23. November 2026', '15:00', 'Nordamerikanische Ostküsten-Normalzeit', 'Montag, 23. November 2026, 15:00–15:30 Uhr'],
  ])('%s: the hour cycle of the locale holds from the slots to the confirmation', async (locale, day, time, zone, when) => {
    const h = makeContext(api.baseUrl, { locale, visitorTimeZone: 'America/New_York' });
    renderBook(h);
    await chooseDuration();
    await chooseDay(day);
    const slots = await screen.findAllByRole('button', { name: new RegExp(`, ${zone}$`) });
    expect(slots.length).toBeGreaterThan(10);
    for (const slot of slots) expect(/AM|PM/.test(slot.textContent ?? '')).toBe(locale === 'en-US');
    await chooseTime(`${time}, ${zone}`);
    fillForm(ANSWERS);
    fireEvent.click(screen.getByRole('button', { name: t.next }));
    await heading(t.reviewHeading);
    // The visitor is in the agent's zone: one clock, its zone named once.
    expect(facts()).toContain(`When: ${when} (your time, ${zone})`);
    fireEvent.click(screen.getByRole('button', { name: t.confirm }));
    await heading(t.doneHeading);
    expect(facts()).toContain(`When: ${when} (your time, ${zone})`);
  });
});
