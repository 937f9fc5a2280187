// The last message of each burst (messages less than five minutes apart) says when it was sent, in
// words that move on ("now", "5 min. ago", "3 hr. ago", "yesterday") in the widget's language; the
// log keeps one timer, and none while it is off screen.
import { act, fireEvent } from '@testing-library/preact';
import { afterEach, expect, test, vi } from 'vitest';
import { storageKey } from '../../src/widget/platform/storage';
import { useSandboxServer } from '../support/msw';
import { advance, AGENT_ID, FAKE_TIMERS, forget, mountWidget, openChat, proxyReplying, send } from './helpers';

const api = useSandboxServer();
const T0 = Date.UTC(2026, 10, 24, 15, 0, 30);
const MIN = 60_000;

afterEach(() => {
  vi.useRealTimers();
});

/** A stored conversation whose messages were sent `ago` minutes before T0, and the widget opened at T0. */
function openedWith(locale: string, ...ago: number[]) {
  vi.useFakeTimers(FAKE_TIMERS);
  vi.setSystemTime(T0);
  const messages = ago.map((m, i) => ({ id: `m${i}`, role: i % 2 ? 'agent' : 'user', text: `Message ${i}`, at: T0 - m * MIN }));
  localStorage.setItem(storageKey(AGENT_ID, 'chat'), JSON.stringify({ at: T0, value: { messages } }));
  // jsdom's storage event for that write is a timer of its own: let it fire.
  vi.advanceTimersByTime(1);
  const timersBefore = vi.getTimerCount();
  const widget = mountWidget({ locale });
  // The browser goes idle after load: the panel's code arrives and builds its formatters, one task each.
  act(() => void vi.advanceTimersByTime(50));
  const timersClosed = vi.getTimerCount();
  openChat(widget.ui);
  // The next frame, when focus moves into the panel drawn for the first time.
  act(() => void vi.advanceTimersByTime(20));
  return { ...widget, timersBefore, timersClosed };
}

/** Each stamp with the text of the message it is under. */
const stamps = (shadow: ShadowRoot) =>
  Array.from(
    shadow.querySelectorAll('time'),
    (time) => `${time.parentElement?.querySelector('.bubble')?.textContent}: ${time.textContent}`,
  );

test('the last message of each burst is stamped, and the stamps move on while the log is open', async () => {
  const { shadow } = openedWith('en-US', 30, 29, 10, 9.5, 0.5);
  expect(stamps(shadow)).toEqual(['Message 1: 29 min. ago', 'Message 3: 9 min. ago', 'Message 4: now']);

  await advance(2 * MIN);
  expect(stamps(shadow)).toEqual(['Message 1: 31 min. ago', 'Message 3: 11 min. ago', 'Message 4: 2 min. ago']);
});

test('older ones count hours, then days', () => {
  const { shadow } = openedWith('en-US', 3 * 24 * 60 + 5, 24 * 60, 3 * 60 + 59, 65, 59);
  expect(stamps(shadow).map((stamp) => stamp.split(': ')[1])).toEqual(['3 days ago', 'yesterday', '3 hr. ago', '1 hr. ago', '59 min. ago']);
});

test('the stamp is hidden from screen readers: in the live log each change would be read out again', () => {
  const { shadow } = openedWith('en-US', 90);
  expect(shadow.querySelector('time')?.getAttribute('aria-hidden')).toBe('true');
});

test("in the widget's language", () => {
  const { shadow } = openedWith('de', 24 * 60, 12, 0);
  expect(stamps(shadow).map((stamp) => stamp.split(': ')[1])).toEqual(['gestern', 'vor 12 Min.', 'jetzt']);
});

test('a message and its reply are one burst: the reply alone is stamped "now"', async () => {
  api.server.use(proxyReplying().handler);
  const { ui, shadow } = mountWidget({ locale: 'en-US' });
  send(openChat(ui), 'Hello');
  await ui.findByText('You said: Hello');
  expect(stamps(shadow)).toEqual(['You said: Hello: now']);
});

test('one timer while the log is on screen, none while the panel is closed; reopening brings the stamps up to date', async () => {
  const { ui, shadow, timersClosed } = openedWith('en-US', 0);
  // The stamps' timer is the only one the open log adds.
  expect(vi.getTimerCount()).toBe(timersClosed + 1);

  act(() => void fireEvent.click(ui.getByRole('button', { name: 'Close' })));
  expect(vi.getTimerCount()).toBe(timersClosed);
  await advance(10 * MIN);
  expect(stamps(shadow)).toEqual(['Message 0: now']);

  fireEvent.click(ui.getByRole('button', { name: 'Chat with Acme' }));
  expect(stamps(shadow)).toEqual(['Message 0: 10 min. ago']);
});

test('the timer stops with the widget', () => {
  const { handle, timersBefore } = openedWith('en-US', 0);
  act(() => handle.destroy());
  forget(handle);
  // Nothing of the widget's keeps running: the stamps' timer, nor the idle prefetch's.
  expect(vi.getTimerCount()).toBe(timersBefore);
});
