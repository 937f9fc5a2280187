import { act, fireEvent, screen, within } from '@testing-library/preact';
import { http, HttpResponse } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { createBookingClient } from '../../../src/core/booking-client';
import { DEMO_AGENT_ID } from '../../../src/sandbox';
import {
  ANSWERS,
  chooseDay,
  chooseDuration,
  chooseTime,
  expectFocused,
  facts,
  heading,
  makeContext,
  renderBook,
  sentTo,
  takeMondayNineAm,
  t,
  useBookingServer,
  walkToReview,
} from './helpers';

const api = useBookingServer();

/** A promise the test settles by hand, to hold a response back without sleeping. */
function gate() {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('the details form', () => {
  test('names what is missing or wrong, links it to the field, and moves focus to the first invalid field', async () => {
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await chooseDuration();
    await chooseDay('Monday, November 23, 2026');
    await chooseTime('3:00 PM, Central European Standard Time');

    const name = screen.getByRole('textbox', { name: 'Your name' });
    const email = screen.getByRole('textbox', { name: 'Email' });
    const notes = screen.getByRole('textbox', { name: 'Anything we should know? (optional)' });
    expect(name.getAttribute('autocomplete')).toBe('name');
    expect(email.getAttribute('autocomplete')).toBe('email');
    expect(email.getAttribute('type')).toBe('email');
    expect(name.getAttribute('placeholder')).toBe('Jane Doe');
    expect(name.hasAttribute('required')).toBe(true);
    expect(notes.hasAttribute('required')).toBe(false);

    fireEvent.input(email, { target: { value: 'ada@' } });
    fireEvent.click(screen.getByRole('button', { name: t.next }));
    expectFocused(name);
    expect(name.getAttribute('aria-invalid')).toBe('true');
    const nameError = document.getElementById(name.getAttribute('aria-describedby') ?? '');
    expect(nameError?.textContent).toBe('Your name is required.');
    const emailError = document.getElementById(email.getAttribute('aria-describedby') ?? '');
    expect(emailError?.textContent).toBe(t.invalidEmail);
    expect(notes.getAttribute('aria-invalid')).toBeNull();

    // Fixing a field clears its error as the visitor types; focus goes to the next invalid one.
    fireEvent.input(name, { target: { value: 'Ada' } });
    expect(name.getAttribute('aria-invalid')).toBeNull();
    expect(name.getAttribute('aria-describedby')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: t.next }));
    expectFocused(email);

    fireEvent.input(email, { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: t.next }));
    await heading(t.reviewHeading);
    expect(sentTo(h, '/create')).toHaveLength(0);
  });

  test('prefill fills fields by id, and name/email by purpose', async () => {
    api.use({
      agents: [
        {
          id: DEMO_AGENT_ID,
          config: {
            form_fields: [
              { id: 'full_name', type: 'input_field', label: 'Full name', required: true, inputType: 'text', placeholder: '' },
              { id: 'contact', type: 'input_field', label: 'Contact email', required: true, inputType: 'email', placeholder: '' },
              { id: 'company', type: 'input_field', label: 'Company', required: false, inputType: 'text', placeholder: '' },
            ],
          },
        },
      ],
    });
    const h = makeContext(api.baseUrl, { prefill: { name: 'Grace Hopper', email: 'grace@example.com', company: 'Navy' } });
    renderBook(h);
    await chooseDuration();
    await chooseDay('Monday, November 23, 2026');
    await chooseTime('3:00 PM, Central European Standard Time');
    expect(screen.getByRole('textbox', { name: 'Full name' })).toHaveProperty('value', 'Grace Hopper');
    expect(screen.getByRole('textbox', { name: 'Contact email' })).toHaveProperty('value', 'grace@example.com');
    expect(screen.getByRole('textbox', { name: 'Company (optional)' })).toHaveProperty('value', 'Navy');
  });
});

describe('when things go wrong', () => {
  test('a slot taken before create: says so, re-fetches the day, offers the nearest times and keeps every answer', async () => {
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await walkToReview('3:00 PM, Central European Standard Time');

    // Someone else books 09:00 New York first.
    await takeMondayNineAm(api.baseUrl);
    const slotsAskedBefore = sentTo(h, '/slots').length;

    fireEvent.click(screen.getByRole('button', { name: t.confirm }));
    expectFocused(await heading(t.timeHeading));
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('Sorry, 3:00 PM was just taken. The nearest free times:')).toBeTruthy();
    // 09:00-09:30 is busy, so 09:15 is too; the nearest free starts are 09:30, 09:45 and 10:00.
    const nearest = await within(alert).findAllByRole('button');
    expect(nearest.map((b) => b.getAttribute('aria-label'))).toEqual([
      '3:30 PM, Central European Standard Time',
      '3:45 PM, Central European Standard Time',
      '4:00 PM, Central European Standard Time',
    ]);
    expect(sentTo(h, '/slots')).toHaveLength(slotsAskedBefore + 1);
    const list = screen.getAllByRole('list').at(-1);
    if (!list) throw new Error('no slot list');
    expect(within(list).queryByRole('button', { name: '3:00 PM, Central European Standard Time' })).toBeNull();
    expect(within(list).queryByRole('button', { name: '3:15 PM, Central European Standard Time' })).toBeNull();

    const [nearestFirst] = nearest;
    if (!nearestFirst) throw new Error('no nearest time offered');
    fireEvent.click(nearestFirst);
    await heading(t.formHeading);
    for (const [label, value] of Object.entries(ANSWERS))
      expect(screen.getByRole('textbox', { name: label })).toHaveProperty('value', value);
    fireEvent.click(screen.getByRole('button', { name: t.next }));
    await heading(t.reviewHeading);
    fireEvent.click(screen.getByRole('button', { name: t.confirm }));
    await heading(t.doneHeading);
    expect(facts()).toContain(
      'When: Monday, November 23, 2026, 3:30 – 4:00 PM (your time, Central European Standard Time) Monday, November 23, 2026, 9:30 – 10:00 AM (Eastern Standard Time, our time)',
    );
    expect(sentTo(h, '/create').map((s) => (s.body as { time: string }).time)).toEqual(['09:00', '09:30']);
  });

  test('after a taken slot, Back shows the calendar again with the month re-fetched', async () => {
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await walkToReview('3:00 PM, Central European Standard Time');
    await takeMondayNineAm(api.baseUrl);
    const monthsBefore = sentTo(h, '/dates').length;
    fireEvent.click(screen.getByRole('button', { name: t.confirm }));
    await heading(t.timeHeading);
    fireEvent.click(screen.getByRole('button', { name: t.back }));
    await heading(t.dateHeading);
    expect(await screen.findByRole('button', { name: /^Monday, November 23, 2026, \d+ times? available$/ })).toBeTruthy();
    expect(screen.getByRole('grid').getAttribute('aria-busy')).toBeNull();
    expect(sentTo(h, '/dates').length).toBe(monthsBefore + 1);
  });

  test('confirming twice sends one request', async () => {
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await walkToReview('3:00 PM, Central European Standard Time');
    const confirm = screen.getByRole('button', { name: t.confirm });
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    const form = confirm.closest('form');
    if (form) fireEvent.submit(form);
    expect(screen.getByRole('button', { name: t.confirming })).toHaveProperty('disabled', true);
    await heading(t.doneHeading);
    expect(sentTo(h, '/create')).toHaveLength(1);
    expect(api.sandbox().bookings()).toHaveLength(1);
  });

  test('a late answer for an earlier day never replaces the newer one', async () => {
    const held = gate();
    api.server.use(
      http.get(`${api.baseUrl}/booking/public/slots`, async ({ request }) => {
        if (new URL(request.url).searchParams.get('date') === '2026-11-23') await held.promise;
        return api.sandbox().handle(request);
      }),
    );
    // A fetch that ignores aborts, so Monday's answer really arrives after Saturday's.
    const deaf: typeof fetch = (input, init) => fetch(input, { ...init, signal: null });
    const real = createBookingClient({ baseUrl: api.baseUrl, fetch: deaf });
    let late: Promise<unknown> = Promise.resolve();
    const client = {
      ...real,
      slots: (...args: Parameters<typeof real.slots>) => {
        const answer = real.slots(...args);
        if (args[0].date === '2026-11-23') late = answer;
        return answer;
      },
    };
    const h = makeContext(api.baseUrl, { client, visitorTimeZone: 'America/New_York' });
    renderBook(h);
    await chooseDuration();
    await chooseDay('Monday, November 23, 2026');
    fireEvent.click(screen.getByRole('button', { name: t.back }));
    await heading(t.dateHeading);
    // Saturday: 10:00 to 13:00 only.
    await chooseDay('Saturday, November 28, 2026');
    expect(await screen.findByRole('button', { name: '10:00 AM, Eastern Standard Time' })).toBeTruthy();

    await act(async () => {
      held.open();
      await expect(late).resolves.toMatchObject({ date: '2026-11-23' });
    });
    expect(screen.getByRole('button', { name: '10:00 AM, Eastern Standard Time' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '3:00 PM, Eastern Standard Time' })).toBeNull();
    expect(screen.getByText('Saturday, November 28, 2026')).toBeTruthy();
  });

  test('an unknown agent or booking turned off: a calm message, no Try again, and a console line that names the agent id as the likely mistake', async () => {
    api.use({ agents: [{ id: DEMO_AGENT_ID, bookingEnabled: false }] });
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const h = makeContext(api.baseUrl);
    renderBook(h);
    expect((await screen.findByRole('alert')).textContent).toBe(t.unavailable);
    expect(screen.queryByRole('button', { name: t.retry })).toBeNull();
    expect(log.mock.calls).toEqual([
      [
        `[AgentWidget] Booking (config) for agent "${DEMO_AGENT_ID}" at ${api.baseUrl} failed: Booking is not enabled for this agent. Check agentId.`,
      ],
    ]);
  });

  test.each([
    [404, 'The service answered 404 with a body that is not JSON.'],
    [200, 'The service answered 200 with a body that is not JSON.'],
  ])(
    'a base URL with no booking service behind it (an HTML %i): no Try again, and the console line names apiBase as the likely mistake',
    async (status, reason) => {
      const wrongBase = 'https://shop.test/wrong-api';
      api.server.use(
        http.get(
          `${wrongBase}/booking/public/config`,
          () => new HttpResponse('<h1>Our shop</h1>', { status, headers: { 'Content-Type': 'text/html' } }),
        ),
      );
      const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const h = makeContext(wrongBase);
      renderBook(h);
      expect((await screen.findByRole('alert')).textContent).toBe(t.unavailable);
      expect(screen.queryByRole('button', { name: t.retry })).toBeNull();
      expect(log.mock.calls).toEqual([
        [`[AgentWidget] Booking (config) for agent "${DEMO_AGENT_ID}" at ${wrongBase} failed: ${reason} Check apiBase.`],
      ]);
      expect(h.events.filter((e) => e.type === 'error').map((e) => e.payload)).toEqual([
        expect.objectContaining({ request: 'config', status, retry: 'none' }),
      ]);
    },
  );

  test('a network failure at create offers a retry that keeps every answer', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await walkToReview('3:00 PM, Central European Standard Time');
    api.server.use(http.post(`${api.baseUrl}/booking/public/create`, () => HttpResponse.error(), { once: true }));

    fireEvent.click(screen.getByRole('button', { name: t.confirm }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(t.networkError)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe(t.reviewHeading);
    expect(facts()).toContain('Your name: Ada Lovelace');

    fireEvent.click(within(alert).getByRole('button', { name: t.retry }));
    await heading(t.doneHeading);
    const [first, second] = sentTo(h, '/create');
    expect(second?.body).toEqual(first?.body);
    expect(api.sandbox().bookings()[0]?.form_data).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', notes: 'Left knee' });
  });

  test('the service out of reach while online: says the booking service cannot be reached, not "check your connection", and Try again works', async () => {
    api.server.use(http.get(`${api.baseUrl}/booking/public/slots`, () => HttpResponse.error(), { once: true }));
    // In the agent's zone the calendar counts from the month's dates: the first slots request is the day's.
    const h = makeContext(api.baseUrl, { visitorTimeZone: 'America/New_York' });
    renderBook(h);
    await chooseDuration();
    await chooseDay('Monday, November 23, 2026');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(`${t.unreachable}${t.retry}`);
    expect(t.unreachable).toBe("We can't reach the booking service right now. Please try again in a moment.");
    fireEvent.click(within(alert).getByRole('button', { name: t.retry }));
    expect(await screen.findByRole('button', { name: '9:00 AM, Eastern Standard Time' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(sentTo(h, '/slots')).toHaveLength(2);
  });
});
