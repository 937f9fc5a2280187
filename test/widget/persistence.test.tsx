// The visitor's conversation and booking codes: per agent, in the chosen storage, with a TTL,
// cleared by New conversation and reset(), in sync across tabs, and never written before first use.
import { act, fireEvent } from '@testing-library/preact';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createRememberedBookings } from '../../src/widget/booking/state/remembered';
import { createStore, createVisitorId, storageKey, TTL_MS } from '../../src/widget/platform/storage';
import { useSandboxServer } from '../support/msw';
import { forget, MESSAGE_ID, mountWidget, openChat, proxyReplying, send, settle } from './helpers';

const api = useSandboxServer();
const CHAT_KEY = storageKey('demo-agent', 'chat');
const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 10, 20, 12);

afterEach(() => {
  vi.restoreAllMocks();
});

async function converse(options: Parameters<typeof mountWidget>[0] = {}, now?: () => number) {
  const mounted = mountWidget(options, now ? { now } : {});
  send(openChat(mounted.ui), 'Hello');
  await mounted.ui.findByText('You said: Hello');
  return mounted;
}

function remount(handle: ReturnType<typeof mountWidget>['handle'], options: Parameters<typeof mountWidget>[0] = {}, now?: () => number) {
  act(() => handle.destroy());
  forget(handle);
  return mountWidget(options, now ? { now } : {});
}

describe('conversation persistence', () => {
  test('nothing is written before the visitor first sends', async () => {
    api.server.use(proxyReplying().handler);
    const { ui } = mountWidget();
    openChat(ui);
    fireEvent.click(ui.getByRole('tab', { name: 'Book' }));
    fireEvent.click(ui.getByRole('tab', { name: 'My booking' }));
    await settle(5);
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);

    fireEvent.click(ui.getByRole('tab', { name: 'Chat' }));
    send(ui.getByRole('textbox', { name: 'Message' }), 'Hello');
    await ui.findByText('You said: Hello');
    expect(Object.keys(localStorage)).toEqual([CHAT_KEY]);
  });

  test('a reload restores the conversation, and the next message continues it', async () => {
    const proxy = proxyReplying();
    api.server.use(proxy.handler);
    const { handle } = await converse();
    const { ui } = remount(handle);
    const box = openChat(ui);
    const log = ui.getByRole('log');
    expect(log.textContent).toContain('Hello');
    expect(log.textContent).toContain('You said: Hello');
    send(box, 'Again');
    await ui.findByText('You said: Again');
    expect(proxy.seen[1]).toEqual({ agentId: 'demo-agent', message: 'Again', conversationId: 'conv-1', messageId: MESSAGE_ID });
  });

  test('a stored conversation id the proxy would refuse is dropped: the next message starts a new conversation', async () => {
    const proxy = proxyReplying();
    api.server.use(proxy.handler);
    const messages = [{ id: 'm1', role: 'user', text: 'Earlier', at: Date.now(), status: 'sent' }];
    localStorage.setItem(CHAT_KEY, JSON.stringify({ at: Date.now(), value: { conversationId: 'conv with spaces', messages } }));
    const { ui } = mountWidget();
    const box = openChat(ui);
    expect(ui.getByRole('log').textContent).toContain('Earlier');
    send(box, 'Again');
    await ui.findByText('You said: Again');
    expect(proxy.seen[0]).toEqual({ agentId: 'demo-agent', message: 'Again', messageId: MESSAGE_ID });
    send(box, 'And again');
    await ui.findByText('You said: And again');
    expect(proxy.seen[1]).toEqual({ agentId: 'demo-agent', message: 'And again', conversationId: 'conv-1', messageId: MESSAGE_ID });
  });

  test('conversations are kept per agent', async () => {
    api.server.use(proxyReplying().handler);
    const { handle } = await converse();
    const { ui } = remount(handle, { agentId: 'other-agent' });
    openChat(ui);
    expect(ui.getByRole('log').textContent).not.toContain('You said: Hello');
  });

  test('after the TTL the stored conversation is ignored and removed', async () => {
    api.server.use(proxyReplying().handler);
    const { handle } = await converse({}, () => T0);
    const kept = remount(handle, {}, () => T0 + TTL_MS - DAY);
    openChat(kept.ui);
    expect(kept.ui.getByRole('log').textContent).toContain('You said: Hello');

    const expired = remount(kept.handle, {}, () => T0 + TTL_MS + DAY);
    openChat(expired.ui);
    expect(expired.ui.getByRole('log').textContent).not.toContain('You said: Hello');
    expect(localStorage.getItem(CHAT_KEY)).toBeNull();
  });

  test('New conversation clears the log and the stored chat but keeps booking codes', async () => {
    api.server.use(proxyReplying().handler);
    const { ui, shadow } = await converse();
    localStorage.setItem(storageKey('demo-agent', 'bookings'), JSON.stringify({ at: Date.now(), value: [] }));
    fireEvent.click(ui.getByRole('button', { name: 'New conversation' }));
    expect(ui.getByRole('log').textContent).not.toContain('Hello');
    expect(localStorage.getItem(CHAT_KEY)).toBeNull();
    expect(localStorage.getItem(storageKey('demo-agent', 'bookings'))).not.toBeNull();
    expect(shadow.activeElement).toBe(ui.getByRole('textbox', { name: 'Message' }));
  });

  test('reset() forgets the conversation, booking codes and visitor id', async () => {
    const proxy = proxyReplying();
    api.server.use(proxy.handler);
    const { ui, handle } = await converse();
    localStorage.setItem(storageKey('demo-agent', 'bookings'), JSON.stringify({ at: Date.now(), value: [] }));
    localStorage.setItem(storageKey('demo-agent', 'visitor'), JSON.stringify({ at: Date.now(), value: 'v_1' }));
    localStorage.setItem('host-page-key', 'kept');
    act(() => handle.reset());
    expect(Object.keys(localStorage)).toEqual(['host-page-key']);
    expect(ui.getByRole('log').textContent).not.toContain('Hello');
    send(ui.getByRole('textbox', { name: 'Message' }), 'Fresh start');
    await ui.findByText('You said: Fresh start');
    expect(proxy.seen[1]).toEqual({ agentId: 'demo-agent', message: 'Fresh start', messageId: MESSAGE_ID });
  });

  test('a second tab follows along through the storage event', async () => {
    const { ui } = mountWidget();
    openChat(ui);
    const stored = {
      conversationId: 'conv-9',
      messages: [
        { id: 'm1', role: 'user', text: 'From the other tab', at: Date.now() },
        { id: 'm2', role: 'agent', text: 'Answered *there*', at: Date.now() },
      ],
    };
    const newValue = JSON.stringify({ at: Date.now(), value: stored });
    localStorage.setItem(CHAT_KEY, newValue);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: CHAT_KEY, newValue, storageArea: localStorage }));
    });
    expect(ui.getByText('From the other tab')).toBeTruthy();
    expect(ui.getByText('there', { selector: 'em' })).toBeTruthy();

    localStorage.removeItem(CHAT_KEY);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: CHAT_KEY, newValue: null, storageArea: localStorage }));
    });
    expect(ui.queryByText('From the other tab')).toBeNull();
  });

  test("another tab's undelivered messages are its own to send: only its delivered ones show here", () => {
    const { ui } = mountWidget();
    openChat(ui);
    const newValue = JSON.stringify({
      at: Date.now(),
      value: {
        conversationId: 'conv-9',
        messages: [
          { id: 'm1', role: 'user', text: 'Delivered there', at: Date.now(), status: 'sent' },
          { id: 'm2', role: 'user', text: 'Failed there', at: Date.now(), status: 'failed' },
        ],
      },
    });
    localStorage.setItem(CHAT_KEY, newValue);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: CHAT_KEY, newValue, storageArea: localStorage }));
    });
    expect(ui.getByText('Delivered there')).toBeTruthy();
    expect(ui.queryByText('Failed there')).toBeNull();
    expect(ui.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  test('neither the stored conversation nor the booking codes are read until the panel first opens', () => {
    const BOOKINGS_KEY = storageKey('demo-agent', 'bookings');
    localStorage.setItem(CHAT_KEY, JSON.stringify({ at: Date.now(), value: { conversationId: 'c1', messages: [] } }));
    localStorage.setItem(BOOKINGS_KEY, JSON.stringify({ at: Date.now(), value: [] }));
    const getItem = vi.spyOn(Storage.prototype, 'getItem');
    const { ui } = mountWidget();
    const read = () => getItem.mock.calls.map(([key]) => key);
    expect(read()).not.toContain(CHAT_KEY);
    expect(read()).not.toContain(BOOKINGS_KEY);
    openChat(ui);
    expect(read()).toContain(CHAT_KEY);
  });

  test('the storage area itself is not touched until the panel first opens (opening it costs the host page)', () => {
    const opened = vi.fn();
    const area = window.localStorage;
    vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      opened();
      return area;
    });
    const { ui } = mountWidget();
    expect(opened).not.toHaveBeenCalled();
    openChat(ui);
    expect(opened).toHaveBeenCalledTimes(1);
  });

  test('remembered bookings the My booking list could not show (a bad day, time or zone) are left out', () => {
    const store = createStore('local', 'demo-agent', { win: window, now: Date.now });
    const good = { code: 'BK-AAAAAA', date: '2026-11-24', time: '10:00', status: 'confirmed', timezone: 'America/New_York' };
    localStorage.setItem(
      storageKey('demo-agent', 'bookings'),
      JSON.stringify({
        at: Date.now(),
        value: [
          good,
          { ...good, code: 'BK-BBBBBB', date: 'tomorrow' },
          { ...good, code: 'BK-CCCCCC', time: '25h' },
          { ...good, code: 'BK-DDDDDD', timezone: 'Mars/Olympus' },
        ],
      }),
    );
    const remembered = createRememberedBookings(store);
    expect(remembered.list.value.map((b) => [b.code, b.timezone])).toEqual([
      ['BK-AAAAAA', 'America/New_York'],
      ['BK-DDDDDD', undefined],
    ]);
    remembered.dispose();
  });

  test('a stored conversation longer than the write cap restores only its newest 200 messages', () => {
    const messages = Array.from({ length: 500 }, (_, i) => ({ id: `m${i}`, role: 'user', text: `Message ${i}`, at: Date.now() }));
    localStorage.setItem(CHAT_KEY, JSON.stringify({ at: Date.now(), value: { conversationId: 'conv-long', messages } }));
    const { ui } = mountWidget();
    openChat(ui);
    expect(ui.getByText('Message 499')).toBeTruthy();
    // The newest are drawn first; the older ones on the way up, as the visitor asks for them.
    for (let batch = 0; ui.queryByRole('button', { name: 'Show earlier messages' }); batch++) {
      expect(batch, 'Show earlier messages never goes').toBeLessThan(20);
      fireEvent.click(ui.getByRole('button', { name: 'Show earlier messages' }));
    }
    expect(ui.getByText('Message 300')).toBeTruthy();
    expect(ui.queryByText('Message 299')).toBeNull();
    expect(ui.getByText('Hi! How can we help?')).toBeTruthy();
  });

  test('persist=none writes nothing anywhere', async () => {
    api.server.use(proxyReplying().handler);
    await converse({ persist: 'none' });
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
  });

  test('persist=session uses sessionStorage only', async () => {
    api.server.use(proxyReplying().handler);
    await converse({ persist: 'session' });
    expect(localStorage.length).toBe(0);
    expect(Object.keys(sessionStorage)).toEqual([CHAT_KEY]);
  });

  test('storage that throws (private mode, blocked) does not break the chat', async () => {
    api.server.use(proxyReplying().handler);
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    const { ui } = await converse();
    expect(ui.getByText('You said: Hello')).toBeTruthy();
  });

  test('corrupt stored data is ignored', () => {
    localStorage.setItem(CHAT_KEY, '{not json');
    const { ui } = mountWidget();
    openChat(ui);
    expect(ui.getAllByText(/./, { selector: '.bubble p' })).toHaveLength(1);
    expect(localStorage.getItem(CHAT_KEY)).toBeNull();
  });
});

describe('booking codes and the visitor id', () => {
  const env = (now: number) => ({ win: window, now: () => now });

  test('remembered bookings are newest first, deduplicated, updated and kept across reloads', () => {
    const store = createStore('local', 'a1', env(T0));
    const remembered = createRememberedBookings(store);
    expect(localStorage.length).toBe(0);
    remembered.remember({ code: 'BK-AAAAAA', date: '2026-11-24', time: '10:00', status: 'confirmed' });
    remembered.remember({ code: 'BK-BBBBBB', date: '2026-11-25', time: '11:00', status: 'pending', title: 'Consultation' });
    remembered.remember({ code: 'BK-AAAAAA', date: '2026-11-24', time: '10:00', status: 'confirmed' });
    remembered.setStatus('BK-BBBBBB', 'cancelled');
    expect(remembered.list.value.map((b) => `${b.code}:${b.status}`)).toEqual(['BK-AAAAAA:confirmed', 'BK-BBBBBB:cancelled']);

    const reloaded = createRememberedBookings(createStore('local', 'a1', env(T0 + DAY)));
    expect(reloaded.list.value).toEqual(remembered.list.value);
    expect(createRememberedBookings(createStore('local', 'a1', env(T0 + TTL_MS + 1))).list.value).toEqual([]);
    expect(createRememberedBookings(createStore('local', 'other', env(T0))).list.value).toEqual([]);
  });

  test('the visitor id is generated once, persisted on first use, and stable', () => {
    const store = createStore('local', 'a1', env(T0));
    const visitor = createVisitorId(store);
    expect(localStorage.length).toBe(0);
    const id = visitor.get();
    expect(id).toMatch(/^v_[0-9a-f-]{32,36}$/);
    expect(visitor.get()).toBe(id);
    expect(createVisitorId(createStore('local', 'a1', env(T0))).get()).toBe(id);
    visitor.clear();
    expect(visitor.get()).not.toBe(id);
  });

  test('a second tab sees remembered codes change', () => {
    const remembered = createRememberedBookings(createStore('local', 'a1', env(T0)));
    const value = [{ code: 'BK-CCCCCC', date: '2026-11-26', time: '09:00', status: 'confirmed' }];
    const newValue = JSON.stringify({ at: T0, value });
    window.dispatchEvent(new StorageEvent('storage', { key: storageKey('a1', 'bookings'), newValue, storageArea: localStorage }));
    expect(remembered.list.value.map((b) => b.code)).toEqual(['BK-CCCCCC']);
  });
});
