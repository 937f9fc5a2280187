// However long the replies and however full the storage: a reply is shown and kept up to a bounded
// length and marked where it was cut, the conversation keeps its newest messages within a budget in
// memory and in storage, a full storage costs old messages (never an error), and the host page's own
// keys are never touched.
import { act } from '@testing-library/preact';
import { expect, test, vi } from 'vitest';
import { CUT_MARKER, MAX_CONVERSATION_CHARS, MAX_MESSAGE_CHARS } from '../../src/widget/chat/messages';
import { createStore, MAX_STORED_CHARS, storageKey } from '../../src/widget/platform/storage';
import { useSandboxServer } from '../support/msw';
import { AGENT_ID, forget, mountWidget, openChat, proxyReplying, send } from './helpers';

const api = useSandboxServer();
const CHAT_KEY = storageKey(AGENT_ID, 'chat');

/** Characters the widget's keys hold in localStorage, counted as browsers count the quota. */
const ours = () =>
  Object.keys(localStorage)
    .filter((key) => key.startsWith('agent-widget:'))
    .reduce((sum, key) => sum + key.length + (localStorage.getItem(key)?.length ?? 0), 0);

const stored = (): string[] => {
  type Entry = { value: { messages: { text: string }[] } };
  const entry = JSON.parse(localStorage.getItem(CHAT_KEY) ?? '{"value":{"messages":[]}}') as Entry;
  return entry.value.messages.map((m) => m.text);
};

const agentBubbles = (shadow: ShadowRoot) =>
  Array.from(shadow.querySelectorAll('.msg--agent .bubble'), (bubble) => bubble.textContent ?? '').slice(1);

/** Sends `count` questions, each answered by `reply(n)`, waiting for each answer. */
async function converse(count: number, reply: (n: number) => string) {
  api.server.use(proxyReplying((_body, n) => reply(n)).handler);
  const mounted = mountWidget();
  const box = openChat(mounted.ui);
  for (let n = 1; n <= count; n++) {
    send(box, `Question ${n}`);
    await mounted.ui.findByText(new RegExp(`^Reply ${n}:`));
  }
  return mounted;
}

test('a 1 MB reply is shown cut with a visible marker, and stored within the budget', async () => {
  const long = 'Reply 1: ' + 'All about it. '.repeat(75_000);
  expect(long.length).toBeGreaterThan(1_000_000);
  const { ui, shadow, handle } = await converse(1, () => long);

  const [shown = ''] = agentBubbles(shadow);
  expect(ui.getByText('[…]')).toBeTruthy();
  expect(shown.length).toBeGreaterThan(MAX_MESSAGE_CHARS - 100);
  expect(shown.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS + CUT_MARKER.length);
  expect(long.startsWith(shown.slice(0, -'[…]'.length).trimEnd())).toBe(true);

  expect(stored()).toEqual(['Question 1', long.slice(0, MAX_MESSAGE_CHARS) + CUT_MARKER]);
  expect(ours()).toBeLessThanOrEqual(MAX_STORED_CHARS);

  act(() => handle.destroy());
  forget(handle);
  const again = mountWidget();
  openChat(again.ui);
  expect(agentBubbles(again.shadow)).toEqual([shown]);
});

test('a long conversation keeps its newest messages within the character budget, on screen and in storage', async () => {
  const reply = (n: number) => `Reply ${n}: ${'word '.repeat(6_000)}`;
  const { ui, shadow } = await converse(10, reply);
  const total = (texts: string[]) => texts.reduce((sum, text) => sum + text.length, 0);

  expect(ui.getByText(/^Reply 10:/)).toBeTruthy();
  expect(ui.queryByText(/^Reply 1:/)).toBeNull();
  const onScreen = agentBubbles(shadow);
  expect(total(onScreen)).toBeLessThanOrEqual(MAX_CONVERSATION_CHARS);

  const kept = stored();
  expect(total(kept)).toBeLessThanOrEqual(MAX_CONVERSATION_CHARS);
  expect(kept.at(-1)).toBe(reply(10));
  const heads = (texts: string[]) => texts.map((text) => text.slice(0, 9));
  expect(heads(kept.filter((text) => text.startsWith('Reply')))).toEqual(heads(onScreen));
  expect(ours()).toBeLessThanOrEqual(MAX_STORED_CHARS);
});

test('a storage that fills up keeps the newest messages, leaves the host page its keys, and nothing throws', async () => {
  const host = { 'host-cart': JSON.stringify({ items: [1, 2, 3] }), 'host-cache': 'h'.repeat(100_000) };
  for (const [key, value] of Object.entries(host)) localStorage.setItem(key, value);
  // The browser's quota, with room for about 25 000 characters of ours after the host's data.
  const quota = 125_000;
  const setItem = Storage.prototype.setItem;
  vi.spyOn(Storage.prototype, 'setItem').mockImplementation(function (this: Storage, key: string, value: string) {
    const others = Object.keys(this).filter((k) => k !== key);
    const used = others.reduce((sum, k) => sum + k.length + (this.getItem(k)?.length ?? 0), 0);
    if (used + key.length + value.length > quota) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    setItem.call(this, key, value);
  });
  const errors = vi.spyOn(console, 'error');

  const reply = (n: number) => `Reply ${n}: ${'y'.repeat(5_000)}`;
  const { ui, shadow } = await converse(8, reply);

  expect(agentBubbles(shadow)).toHaveLength(8);
  expect(shadow.querySelector('.notice')).toBeNull();
  expect(errors).not.toHaveBeenCalled();
  const kept = stored();
  expect(kept.length).toBeGreaterThanOrEqual(2);
  expect(kept.length).toBeLessThan(16);
  // The newest messages, in order, without a gap.
  const first = 9 - Math.floor(kept.length / 2);
  expect(kept.slice(-2)).toEqual(['Question 8', reply(8)]);
  expect(kept.slice(kept.length % 2)).toEqual(
    Array.from({ length: 9 - first }, (_, i) => [`Question ${first + i}`, reply(first + i)]).flat(),
  );
  for (const [key, value] of Object.entries(host)) expect(localStorage.getItem(key)).toBe(value);
  expect(ui.getByText(/^Reply 8:/)).toBeTruthy();
});

test('all the widgets on a page share one storage budget, and a write over it changes nothing', () => {
  const env = { win: window, now: () => Date.now() };
  const first = createStore('local', 'agent-a', env);
  const second = createStore('local', 'agent-b', env);
  localStorage.setItem('host-key', 'kept');

  expect(first.write('chat', 'a'.repeat(MAX_STORED_CHARS - 1_000))).toBe(true);
  expect(second.write('chat', 'b'.repeat(2_000))).toBe(false);
  expect(second.read('chat')).toBeUndefined();
  expect(second.write('chat', 'b'.repeat(100))).toBe(true);
  expect(first.write('chat', 'a'.repeat(MAX_STORED_CHARS))).toBe(false);
  expect(first.read('chat')).toBe('a'.repeat(MAX_STORED_CHARS - 1_000));
  expect(ours()).toBeLessThanOrEqual(MAX_STORED_CHARS);
  expect(localStorage.getItem('host-key')).toBe('kept');
});

test('a reply the proxy already shortened shows as it came, and a cut never splits a character', async () => {
  const shortened = `Reply 1: ${'z'.repeat(31_991)}${CUT_MARKER}`;
  const emoji = `Reply 2: ${'e'.repeat(MAX_MESSAGE_CHARS - 10)}${'😀'.repeat(10)}`;
  await converse(2, (n) => (n === 1 ? shortened : emoji));
  const [, first, , second] = stored();
  expect(first).toBe(shortened);
  expect(second).toBe(`${emoji.slice(0, MAX_MESSAGE_CHARS - 1)}${CUT_MARKER}`);
});
