// Builds a BookingContext over the msw-wrapped sandbox, records what the flow sends and emits, and
// walks the Book view step by step the way a visitor does (by role and accessible name).
import { signal } from '@preact/signals';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, expect, onTestFinished } from 'vitest';
import { createBookingClient } from '../../../src/core/booking-client';
import type { BookingStatus } from '../../../src/core/types';
import { DEMO_AGENT_ID } from '../../../src/sandbox';
import { BookingView, createBookingStores, LookupView, type BookingStores } from '../../../src/widget/booking';
import { defaultStrings } from '../../../src/widget/i18n';
import type { BookingContext, RememberedBooking } from '../../../src/widget/booking/types';
import type { BookingEventMap } from '../../../src/widget/platform/events';
import type { SandboxOptions } from '../../../src/sandbox';
import { createProgressMemory } from '../../../src/widget/booking/state/progress';
import { createStore } from '../../../src/widget/platform/storage';
import { useSandboxServer } from '../../support/msw';

/** Saturday 21 November 2026, 10:00 in New York. */
export const NOW = new Date('2026-11-21T15:00:00Z');

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(cleanup);
export const t = defaultStrings;

export function useBookingServer(options: SandboxOptions = {}) {
  return useSandboxServer({ now: () => NOW, ...options });
}

export interface Sent {
  method: string;
  url: URL;
  body: unknown;
}

type Emitted = { [K in keyof BookingEventMap]: { type: K; payload: BookingEventMap[K] } }[keyof BookingEventMap];

export interface Harness {
  ctx: BookingContext;
  /** The views' stores over ctx, disposed after the test. */
  stores: BookingStores;
  /** Every request the flow made, in order. */
  sent: Sent[];
  events: Emitted[];
  remembered: RememberedBooking[];
}

export function makeContext(baseUrl: string, overrides: Partial<BookingContext> = {}): Harness {
  const sent: Sent[] = [];
  const events: Emitted[] = [];
  const list = signal<RememberedBooking[]>([]);
  const recordingFetch: typeof fetch = async (input, init) => {
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    sent.push({ method: init?.method ?? 'GET', url: new URL(String(input)), body });
    return fetch(input, init);
  };
  const ctx: BookingContext = {
    agentId: DEMO_AGENT_ID,
    client: createBookingClient({ baseUrl, fetch: recordingFetch }),
    apiBase: baseUrl,
    title: 'Harbor Physio',
    locale: 'en-US',
    visitorTimeZone: 'Europe/Berlin',
    conversationId: () => 'conv-test-1',
    now: () => NOW,
    remembered: {
      list,
      remember(b) {
        list.value = [b, ...list.value.filter((r) => r.code !== b.code)];
      },
      setStatus(code: string, status: BookingStatus) {
        list.value = list.value.map((r) => (r.code === code ? { ...r, status } : r));
      },
    },
    // Kept in memory, as with data-persist="none": these tests are about one page.
    progress: createProgressMemory(createStore('none', DEMO_AGENT_ID, { win: window, now: () => +NOW }), window),
    emit: (type, payload) => {
      // TS cannot correlate `type` and `payload` through the generic K; they are a matching pair.
      events.push({ type, payload } as Emitted);
    },
    ...overrides,
  };
  const stores = createBookingStores(ctx);
  onTestFinished(stores.dispose);
  return {
    ctx,
    stores,
    sent,
    events,
    get remembered() {
      return list.value;
    },
  };
}

export const sentTo = (h: Harness, path: string): Sent[] => h.sent.filter((s) => s.url.pathname.endsWith(path));

/** Someone else books Monday 23 November, 09:00 New York (3:00 PM in Berlin), 30 minutes. */
export async function takeMondayNineAm(baseUrl: string): Promise<void> {
  await createBookingClient({ baseUrl }).create({
    agentId: DEMO_AGENT_ID,
    conversationId: 'someone-else',
    date: '2026-11-23',
    time: '09:00',
    durationOptionId: 'consult-30',
    formData: { name: 'Bob', email: 'bob@example.com' },
  });
}

export function renderBook(h: Harness) {
  return render(<BookingView stores={h.stores} strings={defaultStrings} asked={() => true} />);
}

/**
 * My booking; `openBooking` is what "Book another time" calls (the shell opens the Book view), `openChat`
 * what "Send a message" calls (the shell opens the chat).
 */
export function renderLookup(h: Harness, openBooking: () => void = () => undefined, openChat: () => void = () => undefined) {
  return render(<LookupView stores={h.stores} strings={defaultStrings} asked={() => true} openBooking={openBooking} openChat={openChat} />);
}

export const heading = (name: string | RegExp) => screen.findByRole('heading', { level: 3, name });

/** Clicks the duration option whose name starts with `label` (its length follows). */
export async function chooseDuration(label = '30 min consultation') {
  fireEvent.click(await screen.findByRole('button', { name: (name) => name.startsWith(label) }));
  await heading(t.dateHeading);
}

/** Clicks the day whose accessible name starts with `dayName` once its availability is known. */
export async function chooseDay(dayName: string | RegExp) {
  const name = typeof dayName === 'string' ? new RegExp(`^${dayName}, (\\d+ )?times? available$`) : dayName;
  fireEvent.click(await screen.findByRole('button', { name }));
  await heading(t.timeHeading);
}

export async function chooseTime(name: string | RegExp) {
  const slots = await screen.findAllByRole('button', { name });
  const [first] = slots;
  if (!first) throw new Error('no slot');
  fireEvent.click(first);
  await heading(t.formHeading);
}

export function fillForm(values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) fireEvent.input(screen.getByRole('textbox', { name: label }), { target: { value } });
}

export const ANSWERS = { 'Your name': 'Ada Lovelace', Email: 'ada@example.com', 'Anything we should know? (optional)': 'Left knee' };

/** From first render to the review step with the demo config: 30 min, Monday 23 November, first slot. */
export async function walkToReview(slot: string | RegExp, day: string | RegExp = 'Monday, November 23, 2026') {
  await chooseDuration();
  await chooseDay(day);
  await chooseTime(slot);
  fillForm(ANSWERS);
  fireEvent.click(screen.getByRole('button', { name: t.next }));
  await heading(t.reviewHeading);
}

/** The text of each description-list row, as "term: detail", every space (a time range's thin ones too) a plain one. */
export function facts(): string[] {
  const dl = document.querySelector('dl');
  if (!dl) return [];
  return [...dl.querySelectorAll('div')].map((row) => {
    const dt = within(row as HTMLElement).getByRole('term').textContent ?? '';
    const dd = within(row as HTMLElement).getByRole('definition').textContent ?? '';
    return `${dt}: ${dd}`.replace(/\s/g, ' ');
  });
}

export function expectFocused(el: HTMLElement) {
  expect(document.activeElement).toBe(el);
}
