// The shell's half of the booking contract: the context it hands to BookingView/LookupView (ids,
// locale, zone, conversation id, remembered codes, events), checked through a probe view.
import type * as BookingModule from '../../src/widget/booking';
import { act, fireEvent, waitFor, within } from '@testing-library/preact';
import { describe, expect, test, vi } from 'vitest';
import type { BookingContext } from '../../src/widget/booking/types';
import type { WidgetEventMap } from '../../src/widget/entries/bundler';
import { storageKey } from '../../src/widget/platform/storage';
import { SANDBOX_BASE_URL, useSandboxServer } from '../support/msw';
import { mountWidget, openChat, proxyReplying, send } from './helpers';

const probe = vi.hoisted(() => ({ contexts: [] as BookingContext[] }));

vi.mock('../../src/widget/booking', async (importOriginal) => {
  const original = await importOriginal<typeof BookingModule>();
  const { h } = await import('preact');
  const Probe = ({ stores: { context }, strings }: { stores: { context: BookingContext }; strings: { bookHeading: string } }) => {
    probe.contexts.push(context);
    return h('h2', { tabIndex: -1 }, strings.bookHeading);
  };
  return { ...original, BookingView: Probe, LookupView: Probe };
});

const api = useSandboxServer();

function contextOf(ui: ReturnType<typeof mountWidget>['ui']): BookingContext {
  probe.contexts.length = 0;
  fireEvent.click(ui.getByRole('tab', { name: 'Book' }));
  const context = probe.contexts.at(-1);
  if (!context) throw new Error('the Book view was not rendered');
  return context;
}

describe('the booking context', () => {
  test('carries the agent, locale, visitor zone, prefill and a client for the API base', async () => {
    const { ui } = mountWidget({ locale: 'de-CH', prefill: { email: 'ada@example.com' } });
    openChat(ui);
    const context = contextOf(ui);
    expect(context.agentId).toBe('demo-agent');
    expect(context.locale).toBe('de-CH');
    expect(context.visitorTimeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(context.prefill).toEqual({ email: 'ada@example.com' });
    expect(context.utm).toBeUndefined();
    const urls: string[] = [];
    api.server.events.on('request:start', ({ request }) => urls.push(request.url));
    const { config } = await context.client.config({ agentId: 'demo-agent' });
    expect(typeof config.timezone).toBe('string');
    expect(urls).toEqual([`${SANDBOX_BASE_URL}/booking/public/config?agentId=demo-agent`]);
  });

  test('the Book view gets focus when opened from the API', async () => {
    const { handle, shadow } = mountWidget();
    act(() => handle.open('booking'));
    await waitFor(() => expect(shadow.activeElement?.textContent).toBe('Book a time'));
  });

  test('booking events reach AgentWidget.on() handlers with their payloads', () => {
    const { ui, handle } = mountWidget();
    openChat(ui);
    const created: WidgetEventMap['booking:created'][] = [];
    handle.on('booking:created', (e) => created.push(e));
    const booking = {
      id: 'b1',
      booking_code: 'BK-A1B2C3',
      booking_date: '2026-11-24',
      start_time: '10:00:00',
      end_time: '10:30:00',
      duration_minutes: 30,
      duration_label: '30 min',
      timezone: 'America/New_York',
      status: 'confirmed',
      form_data: {},
    };
    contextOf(ui).emit('booking:created', { agentId: 'demo-agent', booking });
    expect(created).toEqual([{ agentId: 'demo-agent', booking }]);
  });

  test('a booking made shows in the conversation as a card, which stops the offer to book and is kept with it', async () => {
    api.server.use(proxyReplying(() => 'You can book an appointment with us.').handler);
    const { ui } = mountWidget({ locale: 'en-US' });
    const box = openChat(ui);
    send(box, 'Can I book a time?');
    await ui.findByText('You can book an appointment with us.');
    // The exchange is about booking: the offer is there.
    expect(ui.getByRole('button', { name: 'Book a time' })).toBeTruthy();
    const booking = {
      id: 'b1',
      booking_code: 'BK-A1B2C3',
      booking_date: '2026-11-24',
      start_time: '10:00',
      duration_minutes: 30,
      duration_label: '30 min consultation',
      timezone: 'America/New_York',
      status: 'confirmed',
      form_data: {},
    };
    const context = contextOf(ui);
    act(() => context.emit('booking:created', { agentId: 'demo-agent', booking }));
    fireEvent.click(ui.getByRole('tab', { name: 'Chat' }));
    const log = ui.getByRole('log', { name: 'Conversation' });
    const card = await within(log).findByText('BK-A1B2C3');
    const text = card.closest('.msg')?.textContent ?? '';
    expect(text).toContain('You are booked');
    expect(text).toContain('30 min consultation');
    const start = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'short' }).format(new Date('2026-11-24T15:00:00Z'));
    expect(text).toContain(start);
    // Nothing to copy or rate on it, and no offer to book as if none was made.
    expect(within(card.closest('.msg') as HTMLElement).queryByRole('button')).toBeNull();
    expect(ui.queryByRole('button', { name: 'Book a time' })).toBeNull();
    // Kept with the conversation.
    expect(localStorage.getItem(storageKey('demo-agent', 'chat'))).toContain('BK-A1B2C3');
  });

  test('conversationId is the chat id once there is one, else a stable visitor id stored on first use', async () => {
    api.server.use(proxyReplying().handler);
    const { ui } = mountWidget();
    const box = openChat(ui);
    const context = contextOf(ui);
    expect(localStorage.length).toBe(0);
    const visitorId = context.conversationId();
    expect(visitorId).toMatch(/^v_/);
    expect(context.conversationId()).toBe(visitorId);
    expect(localStorage.getItem(storageKey('demo-agent', 'visitor'))).toContain(visitorId);

    fireEvent.click(ui.getByRole('tab', { name: 'Chat' }));
    send(box, 'Hello');
    await ui.findByText('You said: Hello');
    expect(context.conversationId()).toBe('conv-1');
  });

  test('remembered codes persist per agent and are cleared by reset()', () => {
    const { ui, handle } = mountWidget();
    openChat(ui);
    const context = contextOf(ui);
    context.remembered.remember({ code: 'BK-A1B2C3', date: '2026-11-24', time: '10:00', status: 'confirmed' });
    expect(localStorage.getItem(storageKey('demo-agent', 'bookings'))).toContain('BK-A1B2C3');
    act(() => handle.reset());
    expect(context.remembered.list.value).toEqual([]);
    expect(localStorage.getItem(storageKey('demo-agent', 'bookings'))).toBeNull();
  });
});

describe('strings', () => {
  test('init({ strings }) overrides shell and booking strings; unknown keys and non-strings are ignored', () => {
    const { ui } = mountWidget({
      strings: { send: 'Senden', tabBook: 'Termin', bookHeading: 'Termin buchen', launcherLabel: 'Chat mit {title}' },
    });
    fireEvent.click(ui.getByRole('button', { name: 'Chat mit Acme' }));
    expect(ui.getByRole('button', { name: 'Senden' })).toBeTruthy();
    fireEvent.click(ui.getByRole('tab', { name: 'Termin' }));
    expect(ui.getByRole('heading', { name: 'Termin buchen' })).toBeTruthy();
  });
});
