// @vitest-environment jsdom
// The Book and My booking views against the sandbox in strict-spec mode: answers the spec allows but
// our normal sandbox never sends (no error codes, optional fields missing, unknown fields, an unnamed
// status), and failures from in front of the service (an HTML gateway page, a 200 of the wrong shape).
import { fireEvent, screen, within } from '@testing-library/preact';
import { http, HttpResponse } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { createBookingClient } from '../../../src/core/booking-client';
import { DEMO_AGENT_ID, DEMO_BOOKING_CONFIG } from '../../../src/sandbox';
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
  renderLookup,
  sentTo,
  takeMondayNineAm,
  t,
  useBookingServer,
  walkToReview,
} from './helpers';

const api = useBookingServer({ strict: true });
const CET = 'Central European Standard Time';
/** In Berlin a New York day is counted from its slots, which strict answers give as the spec shows them. */
const MONDAY = /^Monday, November 23, 2026, \d+ times available$/;

const errorsOf = (h: ReturnType<typeof makeContext>) => h.events.filter((e) => e.type === 'error').map((e) => e.payload);

describe('strict-spec answers', () => {
  test('a slot taken at create, answered as a plain 400 without a code: recognised from the re-fetched day, answers kept', async () => {
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await walkToReview(`3:00 PM, ${CET}`, MONDAY);
    await takeMondayNineAm(api.baseUrl);

    fireEvent.click(screen.getByRole('button', { name: t.confirm }));
    expectFocused(await heading(t.timeHeading));
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('Sorry, 3:00 PM was just taken. The nearest free times:')).toBeTruthy();
    const [nearest] = await within(alert).findAllByRole('button');
    expect(nearest?.getAttribute('aria-label')).toBe(`3:30 PM, ${CET}`);
    expect(errorsOf(h)).toEqual([expect.objectContaining({ scope: 'booking', request: 'create', status: 400 })]);
    expect(errorsOf(h)[0]).not.toHaveProperty('code');

    if (!nearest) throw new Error('no nearest time');
    fireEvent.click(nearest);
    await heading(t.formHeading);
    for (const [label, value] of Object.entries(ANSWERS))
      expect(screen.getByRole('textbox', { name: label })).toHaveProperty('value', value);
  });

  test('any other refusal at create shows the service reason next to the form, every answer kept', async () => {
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await walkToReview(`3:00 PM, ${CET}`, MONDAY);
    api.server.use(
      http.post(`${api.baseUrl}/booking/public/create`, () =>
        HttpResponse.json({ success: false, error: 'Please give a phone number for this appointment.' }, { status: 400 }),
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: t.confirm }));
    await heading(t.formHeading);
    expect(within(screen.getByRole('alert')).getByText('Please give a phone number for this appointment.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: t.retry })).toBeNull();
    for (const [label, value] of Object.entries(ANSWERS))
      expect(screen.getByRole('textbox', { name: label })).toHaveProperty('value', value);
    // The day was checked: the time is still free, so it was not "taken".
    expect(sentTo(h, '/slots').at(-1)?.url.searchParams.get('date')).toBe('2026-11-23');
  });

  test('optional fields missing and unknown fields added: the whole flow works and shows what it has', async () => {
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await chooseDuration();
    // No slotCount on the dates: a free day still says it has times.
    await chooseDay(MONDAY);
    await chooseTime(`3:00 PM, ${CET}`);
    fillForm(ANSWERS);
    fireEvent.click(screen.getByRole('button', { name: t.next }));
    await heading(t.reviewHeading);
    fireEvent.click(screen.getByRole('button', { name: t.confirm }));
    await heading(t.doneHeading);
    // No duration_label in the answer: no Duration row, the When row's start and end say how long it is.
    expect(facts().filter((fact) => /^(When|Duration):/.test(fact))).toEqual([
      `When: Monday, November 23, 2026, 3:00 – 3:30 PM (your time, ${CET}) Monday, November 23, 2026, 9:00 – 9:30 AM (Eastern Standard Time, our time)`,
    ]);
    expect(facts()).toContain('Your name: Ada Lovelace');
    expect(errorsOf(h)).toEqual([]);
  });

  test('a status word the spec does not name is shown as the service wrote it', async () => {
    const { booking } = await createBookingClient({ baseUrl: api.baseUrl }).create({
      agentId: DEMO_AGENT_ID,
      conversationId: 'c1',
      date: '2026-11-30',
      time: '10:00',
      durationOptionId: 'consult-30',
      formData: { name: 'Ada', email: 'ada@example.com' },
    });
    await createBookingClient({ baseUrl: api.baseUrl }).cancel({ agentId: DEMO_AGENT_ID, bookingCode: booking.booking_code });
    const h = makeContext(api.baseUrl);
    renderLookup(h);
    fireEvent.input(screen.getByRole('textbox', { name: t.code }), { target: { value: booking.booking_code } });
    fireEvent.click(screen.getByRole('button', { name: t.find }));
    // No booking_title in a strict lookup: the view's own heading.
    await heading(t.lookupHeading);
    await vi.waitFor(() => expect(facts()).toContain('Status: canceled by user'));
    expect(screen.queryByRole('button', { name: t.cancelBooking })).toBeNull();
  });

  test('no form fields in the config: create still sends formData, as the spec requires', async () => {
    api.use({ strict: true, agents: [{ id: DEMO_AGENT_ID, config: { form_fields: [] } }] });
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await chooseDuration();
    await chooseDay(MONDAY);
    await chooseTime(`3:00 PM, ${CET}`);
    fireEvent.click(screen.getByRole('button', { name: t.next }));
    await heading(t.reviewHeading);
    fireEvent.click(screen.getByRole('button', { name: t.confirm }));
    await heading(t.doneHeading);
    expect(sentTo(h, '/create')[0]?.body).toMatchObject({ formData: {} });
  });
});

describe('failures from in front of the service', () => {
  test('an HTML 502 page from a gateway: the service is out of reach, Retry, the error event', async () => {
    api.use({ strict: true, faults: [{ path: '/booking/public/config', kind: 'gateway', times: 1 }] });
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const h = makeContext(api.baseUrl);
    renderBook(h);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(t.unreachable)).toBeTruthy();
    expect(errorsOf(h)).toEqual([
      expect.objectContaining({ scope: 'booking', request: 'config', kind: 'http', status: 502, retry: 'manual' }),
    ]);
    fireEvent.click(within(alert).getByRole('button', { name: t.retry }));
    await heading(t.durationHeading);
    // A gateway's page is not taken for a wrong base URL.
    expect(log).not.toHaveBeenCalled();
  });

  test('a 200 that is not the promised shape: invalid_response, a calm message, Retry, and a console line for the owner', async () => {
    api.use({ strict: true, faults: [{ path: '/booking/public/slots', kind: 'shape', times: 1 }] });
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // In the agent's zone the calendar counts from the month's dates: the first slots request is the day's.
    const h = makeContext(api.baseUrl, { visitorTimeZone: 'America/New_York' });
    renderBook(h);
    await chooseDuration();
    await chooseDay(/^Monday, November 23, 2026, times available$/);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(t.serverError)).toBeTruthy();
    expect(errorsOf(h)).toEqual([expect.objectContaining({ request: 'slots', kind: 'invalid_response', status: 200, retry: 'manual' })]);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('slots: expected a list'));
    fireEvent.click(within(alert).getByRole('button', { name: t.retry }));
    expect(await screen.findByRole('button', { name: '9:00 AM, Eastern Standard Time' })).toBeTruthy();
  });

  test('a config answer without a config object: a calm message and Retry, never "Loading…" forever', async () => {
    api.server.use(http.get(`${api.baseUrl}/booking/public/config`, () => HttpResponse.json({ success: true }), { once: true }));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const h = makeContext(api.baseUrl);
    renderBook(h);
    const alert = await screen.findByRole('alert');
    expect(screen.queryByText(t.loading)).toBeNull();
    fireEvent.click(within(alert).getByRole('button', { name: t.retry }));
    await heading(t.durationHeading);
    expect(errorsOf(h)).toEqual([
      expect.objectContaining({ kind: 'invalid_response', message: expect.stringContaining('config: expected an object') }),
    ]);
  });

  test('a config without durations says booking is not available, with no retry', async () => {
    api.use({ strict: true, agents: [{ id: DEMO_AGENT_ID, config: { duration_options: [] } }] });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderBook(makeContext(api.baseUrl));
    expect((await screen.findByRole('alert')).textContent).toBe(t.unavailable);
    expect(screen.queryByRole('button', { name: t.retry })).toBeNull();
  });
});

describe('requests with an end', () => {
  test('the search for a free month asks for at most 12 months when the config states no horizon, and stops at the first failure', async () => {
    api.use({ strict: true, agents: [{ id: DEMO_AGENT_ID, businessHours: {}, config: { max_advance_days: undefined } }] });
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await chooseDuration();
    await screen.findByText(t.noneFree);
    expect(sentTo(h, '/dates')).toHaveLength(12);

    api.server.use(http.get(`${api.baseUrl}/booking/public/dates`, () => HttpResponse.error()));
    const again = makeContext(api.baseUrl);
    renderBook(again);
    fireEvent.click((await screen.findAllByRole('button', { name: '30 min consultation' })).at(-1) as HTMLElement);
    await screen.findByText(t.unreachable);
    expect(sentTo(again, '/dates')).toHaveLength(1);
  });

  test('dispose() aborts what is in flight and nothing is written after it', async () => {
    let seen: AbortSignal | undefined;
    api.server.use(
      http.get(`${api.baseUrl}/booking/public/config`, ({ request }) => {
        seen = request.signal;
        return new Promise<Response>(() => undefined);
      }),
    );
    const h = makeContext(api.baseUrl);
    renderBook(h);
    await vi.waitFor(() => expect(seen).toBeDefined());
    h.stores.dispose();
    await vi.waitFor(() => expect(seen?.aborted).toBe(true));
    expect(screen.getByText(t.loading)).toBeTruthy();
    expect(h.events).toEqual([]);
  });

  test('the demo config in strict mode keeps its title and durations', async () => {
    renderBook(makeContext(api.baseUrl));
    await heading(t.durationHeading);
    expect(screen.getByText(DEMO_BOOKING_CONFIG.booking_title)).toBeTruthy();
  });
});
