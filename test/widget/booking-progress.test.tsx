// A booking under way survives a reload or a link followed: the duration, the day, the time, the step
// and every answer come back on the next page (kept when the page is hidden, in the conversation's
// storage), the chosen time is checked again, a tampered or stale entry is dropped calmly, and nothing
// is left once the booking is made.
import { act, fireEvent, within } from '@testing-library/preact';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, onTestFinished, test, vi } from 'vitest';
import { createBookingClient } from '../../src/core/booking-client';
import { MAX_KEPT_ANSWER_CHARS } from '../../src/widget/booking/state/progress';
import { defaultStrings as t } from '../../src/widget/i18n';
import { storageKey, TTL_MS } from '../../src/widget/platform/storage';
import { useSandboxServer } from '../support/msw';
import { forget, hidePage, mountWidget, nextPageLoad, openChat, type } from './helpers';

/** Saturday 21 November 2026, 10:00 in New York, the demo agent's zone. */
const NOW = Date.parse('2026-11-21T15:00:00Z');
const api = useSandboxServer({ now: () => new Date(NOW) });
const PROGRESS_KEY = storageKey('demo-agent', 'booking-progress');
const ANSWERS = { 'Your name': 'Ada Lovelace', Email: 'ada@example.com', 'Anything we should know? (optional)': 'Left knee' };

afterEach(() => {
  vi.restoreAllMocks();
});

type Mounted = ReturnType<typeof mountWidget>;
type Ui = Mounted['ui'];

const mount = (now = NOW) => mountWidget({}, { now: () => now });

/** The next page of the site, once this one is hidden. */
function nextPage(mounted: Mounted, now = NOW): Mounted {
  hidePage();
  return nextPageLoad(mounted, { now: () => now });
}

/** The stored progress, as the next page reads it. */
const kept = () => (JSON.parse(localStorage.getItem(PROGRESS_KEY) ?? 'null') as { value: Record<string, unknown> } | null)?.value;

const heading = (ui: Ui, name: string) => ui.findByRole('heading', { level: 3, name });

async function openBook(ui: Ui) {
  openChat(ui);
  fireEvent.click(ui.getByRole('tab', { name: 'Book' }));
  await heading(ui, t.durationHeading);
}

/** The panel opened by itself on the next page, on Book, left on `step`. */
async function reopenedOn(ui: Ui, step: string) {
  await vi.waitFor(() => expect(ui.getByRole('tab', { name: 'Book' }).getAttribute('aria-selected')).toBe('true'));
  return heading(ui, step);
}

async function chooseDuration(ui: Ui) {
  fireEvent.click(await ui.findByRole('button', { name: (name) => name.startsWith('30 min consultation') }));
  await heading(ui, t.dateHeading);
}

/** Chooses the first day with times; returns its date as the calendar names it ("Monday, November 23, 2026"). */
async function chooseFirstDay(ui: Ui): Promise<string> {
  const [day] = await ui.findAllByRole('button', { name: /, \d+ times? available$/ });
  if (!day) throw new Error('no day with times');
  const name = day.getAttribute('aria-label') ?? '';
  fireEvent.click(day);
  await heading(ui, t.timeHeading);
  return name.replace(/, \d+ times? available$/, '');
}

/** Chooses the day's `index`th time; returns its button's name ("9:00 AM, Eastern Standard Time"). */
async function chooseTime(ui: Ui, index = 0): Promise<string> {
  const slots = await ui.findAllByRole('button', { name: /^\d{1,2}:\d\d/ });
  const slot = slots[index];
  if (!slot) throw new Error('no such time');
  const name = slot.getAttribute('aria-label') ?? '';
  fireEvent.click(slot);
  await heading(ui, t.formHeading);
  return name;
}

const fill = (ui: Ui, values: Record<string, string>) => {
  for (const [label, value] of Object.entries(values)) type(ui.getByRole('textbox', { name: label }), value);
};

const answersShown = (ui: Ui) =>
  Object.fromEntries(Object.keys(ANSWERS).map((label) => [label, (ui.getByRole('textbox', { name: label }) as HTMLInputElement).value]));

/** The review's rows as "term: detail". */
const facts = (ui: Ui) =>
  ui.getAllByRole('term').map((term) => `${term.textContent ?? ''}: ${term.nextElementSibling?.textContent ?? ''}`.replace(/\s/g, ' '));

/** A page left on the form: 30 minutes, the first day with times, its first time, every answer typed. */
async function leftOnForm() {
  const first = mount();
  await openBook(first.ui);
  await chooseDuration(first.ui);
  const day = await chooseFirstDay(first.ui);
  const time = await chooseTime(first.ui);
  fill(first.ui, ANSWERS);
  return { first, day, time };
}

describe('a booking under way, on the next page', () => {
  test('left on the calendar: it opens on the calendar with the duration chosen', async () => {
    const first = mount();
    await openBook(first.ui);
    expect(localStorage.getItem(PROGRESS_KEY)).toBeNull();
    await chooseDuration(first.ui);

    const { ui } = nextPage(first);
    await reopenedOn(ui, t.dateHeading);
    expect(ui.getByText('30 min consultation')).toBeTruthy();
    expect(await ui.findAllByRole('button', { name: /, \d+ times? available$/ })).not.toHaveLength(0);
  });

  test('left on the times: the same day, its times, and Back shows the calendar on that day', async () => {
    const first = mount();
    await openBook(first.ui);
    await chooseDuration(first.ui);
    const day = await chooseFirstDay(first.ui);

    const { ui } = nextPage(first);
    await reopenedOn(ui, t.timeHeading);
    expect(ui.getByText(day)).toBeTruthy();
    expect(await ui.findAllByRole('button', { name: /^\d{1,2}:\d\d/ })).not.toHaveLength(0);
    fireEvent.click(ui.getByRole('button', { name: t.back }));
    await heading(ui, t.dateHeading);
    // The calendar's one tab stop is the day chosen.
    const grid = await ui.findByRole('grid');
    await vi.waitFor(() => expect(within(grid).getByRole('button', { name: new RegExp(`^${day}, `) }).tabIndex).toBe(0));
  });

  test('left on the form: every answer, and the time chosen, which the review shows', async () => {
    const { first, day, time } = await leftOnForm();

    const { ui, shadow } = nextPage(first);
    await reopenedOn(ui, t.formHeading);
    expect(answersShown(ui)).toEqual(ANSWERS);
    // Opened by itself, the panel leaves the visitor's focus on the page.
    expect(shadow.activeElement).toBeNull();
    // Once the visitor is in the view, each new step takes focus as before.
    fireEvent.click(ui.getByRole('button', { name: t.next }));
    expect(shadow.activeElement).toBe(await heading(ui, t.reviewHeading));
    // "2:00 PM" starts the range "2:00 – 2:30 PM" on the visitor's clock.
    const [hour] = time.split(/\s/);
    expect(facts(ui).find((row) => row.startsWith(`${t.when}: ${day}, ${hour} `))).toBeTruthy();
    expect(facts(ui)).toContain('Your name: Ada Lovelace');
  });

  test('left on the review: the review, and Confirm books that time with those answers; then nothing is kept', async () => {
    const { first, day } = await leftOnForm();
    fireEvent.click(first.ui.getByRole('button', { name: t.next }));
    await heading(first.ui, t.reviewHeading);
    const before = facts(first.ui);

    const second = nextPage(first);
    await reopenedOn(second.ui, t.reviewHeading);
    expect(facts(second.ui)).toEqual(before);
    expect(before.join(' ')).toContain(day.split(',')[0]);
    fireEvent.click(second.ui.getByRole('button', { name: t.confirm }));
    await heading(second.ui, t.doneHeading);
    expect(api.sandbox().bookings()).toHaveLength(1);
    expect(api.sandbox().bookings()[0]?.form_data).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', notes: 'Left knee' });
    // Booked: nothing under way is stored, now or when the page is hidden.
    expect(localStorage.getItem(PROGRESS_KEY)).toBeNull();
    hidePage();
    expect(localStorage.getItem(PROGRESS_KEY)).toBeNull();

    const third = nextPage(second);
    openChat(third.ui);
    fireEvent.click(third.ui.getByRole('tab', { name: 'Book' }));
    await heading(third.ui, t.durationHeading);
  });

  test('an app changing routes (destroy and mount) keeps it too', async () => {
    const { first } = await leftOnForm();
    act(() => first.handle.destroy());
    forget(first.handle);
    const { ui } = mount();
    openChat(ui);
    fireEvent.click(ui.getByRole('tab', { name: 'Book' }));
    await heading(ui, t.formHeading);
    expect(answersShown(ui)).toEqual(ANSWERS);
  });

  test('the time was taken meanwhile: the day stays, it says so calmly with other times, and every answer is kept', async () => {
    const { first, day, time } = await leftOnForm();
    hidePage();
    const slot = kept()?.slot as { date: string; time: string };
    await createBookingClient({ baseUrl: api.baseUrl }).create({
      agentId: 'demo-agent',
      conversationId: 'someone-else',
      date: slot.date,
      time: slot.time,
      durationOptionId: 'consult-30',
      formData: { name: 'Bob', email: 'bob@example.com' },
    });

    const { ui } = nextPage(first);
    await reopenedOn(ui, t.timeHeading);
    expect(ui.getByText(day)).toBeTruthy();
    const clock = (time.split(',')[0] ?? '').replace(/\s/g, ' ');
    const alert = ui.getByRole('alert');
    expect(alert.textContent?.replace(/\s/g, ' ')).toContain(`Sorry, ${clock} was just taken.`);
    // Another time, and the answers are there.
    const [other] = within(alert).getAllByRole('button');
    if (!other) throw new Error('no nearest time offered');
    fireEvent.click(other);
    await heading(ui, t.formHeading);
    expect(answersShown(ui)).toEqual(ANSWERS);
  });

  test("the day's times cannot be fetched on the next page: Try again, and it lands on the form", async () => {
    const { first } = await leftOnForm();
    let down = true;
    api.server.use(
      http.get(`${api.baseUrl}/booking/public/slots`, () => (down ? HttpResponse.json({ success: false }, { status: 503 }) : undefined)),
    );

    const { ui } = nextPage(first);
    const retry = await ui.findByRole('button', { name: 'Try again' });
    expect(ui.queryByRole('heading', { name: t.formHeading })).toBeNull();
    down = false;
    fireEvent.click(retry);
    await heading(ui, t.formHeading);
    expect(answersShown(ui)).toEqual(ANSWERS);
  });

  test('a duration the config no longer offers: back at the durations, the answers kept', async () => {
    localStorage.setItem(
      PROGRESS_KEY,
      JSON.stringify({
        at: NOW,
        value: {
          step: 'review',
          durationId: 'gone-45',
          date: '2026-11-23',
          slot: { date: '2026-11-23', time: '09:00' },
          answers: { name: 'Ada' },
        },
      }),
    );
    const { ui } = mount();
    await openBook(ui);
    fireEvent.click(await ui.findByRole('button', { name: (name) => name.startsWith('30 min consultation') }));
    await heading(ui, t.dateHeading);
    fireEvent.click((await ui.findAllByRole('button', { name: /, \d+ times? available$/ }))[0] as HTMLElement);
    await chooseTime(ui);
    expect((ui.getByRole('textbox', { name: 'Your name' }) as HTMLInputElement).value).toBe('Ada');
  });

  test('a tampered or unreadable entry is dropped calmly: Book starts afresh and the entry is gone', async () => {
    const errors = vi.spyOn(console, 'error');
    for (const raw of [
      '{"at":',
      JSON.stringify({ at: NOW, value: 'review' }),
      JSON.stringify({ at: NOW, value: { step: 'review', durationId: 42 } }),
      JSON.stringify({ at: NOW, value: { step: 'paid', durationId: 'consult-30' } }),
      JSON.stringify({ at: NOW, value: { step: 'review', answers: { name: 'Ada' } } }),
    ]) {
      localStorage.setItem(PROGRESS_KEY, raw);
      const mounted = mount();
      await openBook(mounted.ui);
      expect(localStorage.getItem(PROGRESS_KEY)).toBeNull();
      act(() => mounted.handle.destroy());
      forget(mounted.handle);
    }
    expect(errors).not.toHaveBeenCalled();
  });

  test('a review without its time, a time out of range or answers of the wrong kind: what fits is kept, the rest dropped', async () => {
    localStorage.setItem(
      PROGRESS_KEY,
      JSON.stringify({
        at: NOW,
        value: {
          step: 'review',
          durationId: 'consult-30',
          date: '2026-11-23',
          slot: { date: '2026-11-23', time: '25:99' },
          answers: { name: 'Ada', email: 7, notes: 'x'.repeat(100_000), __proto__: { polluted: true } },
        },
      }),
    );
    const { ui } = mount();
    openChat(ui);
    fireEvent.click(ui.getByRole('tab', { name: 'Book' }));
    await heading(ui, t.timeHeading);
    expect(ui.getByText('Monday, November 23, 2026')).toBeTruthy();
    await chooseTime(ui);
    expect((ui.getByRole('textbox', { name: 'Your name' }) as HTMLInputElement).value).toBe('Ada');
    expect((ui.getByRole('textbox', { name: 'Email' }) as HTMLInputElement).value).toBe('');
    expect((ui.getByRole('textbox', { name: 'Anything we should know? (optional)' }) as HTMLInputElement).value).toHaveLength(
      MAX_KEPT_ANSWER_CHARS,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('a day already past starts at the calendar; after the TTL nothing comes back', async () => {
    const { first } = await leftOnForm();
    hidePage();
    const later = NOW + 14 * 24 * 60 * 60 * 1000;
    const { ui, handle } = nextPage(first, later);
    openChat(ui);
    fireEvent.click(ui.getByRole('tab', { name: 'Book' }));
    await heading(ui, t.dateHeading);
    expect(ui.getByText('30 min consultation')).toBeTruthy();

    act(() => handle.destroy());
    forget(handle);
    const expired = mount(later + TTL_MS + 1);
    await openBook(expired.ui);
    expect(localStorage.getItem(PROGRESS_KEY)).toBeNull();
  });

  test("the owner's reset() forgets it, here and in storage; New conversation leaves it", async () => {
    const { first } = await leftOnForm();
    fireEvent.click(first.ui.getByRole('tab', { name: 'Chat' }));
    fireEvent.click(first.ui.getByRole('button', { name: 'New conversation' }));
    hidePage();
    expect(kept()?.step).toBe('form');

    act(() => first.handle.reset());
    expect(localStorage.getItem(PROGRESS_KEY)).toBeNull();
    fireEvent.click(first.ui.getByRole('tab', { name: 'Book' }));
    await heading(first.ui, t.durationHeading);
    hidePage();
    expect(localStorage.getItem(PROGRESS_KEY)).toBeNull();
  });

  test("times switched to the agent's zone stay so on the next page", async () => {
    // The visitor in Berlin, the demo agent in New York: the switch is offered.
    const zone = process.env.TZ;
    process.env.TZ = 'Europe/Berlin';
    onTestFinished(() => {
      process.env.TZ = zone;
    });
    const first = mount();
    await openBook(first.ui);
    await chooseDuration(first.ui);
    fireEvent.click(first.ui.getByRole('button', { name: 'show in Eastern Time' }));
    await chooseFirstDay(first.ui);
    const times = (await first.ui.findAllByRole('button', { name: /, Eastern Standard Time$/ })).map((b) => b.textContent);

    const { ui } = nextPage(first);
    await reopenedOn(ui, t.timeHeading);
    expect(ui.getByText(/^Times in Eastern Standard Time/)).toBeTruthy();
    expect((await ui.findAllByRole('button', { name: /, Eastern Standard Time$/ })).map((b) => b.textContent)).toEqual(times);
  });

  test('with data-persist="none" nothing is stored', async () => {
    const first = mountWidget({ persist: 'none' }, { now: () => NOW });
    await openBook(first.ui);
    await chooseDuration(first.ui);
    hidePage();
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
  });
});
