// Beside the closed launcher: the owner's teaser (after a delay, once per visitor, never on a phone, not
// after the panel was opened) and the count of replies that came while the panel was closed.
import { act, fireEvent, within } from '@testing-library/preact';
import { options, type VNode } from 'preact';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { BookingView } from '../../src/widget/booking';
import { FULL_SCREEN_QUERY } from '../../src/widget/launcher/full-screen';
import { resolveOptions } from '../../src/widget/options/options';
import { storageKey } from '../../src/widget/platform/storage';
import german from '../../src/widget/i18n/locales/de';
import { useSandboxServer } from '../support/msw';
import { http, HttpResponse } from 'msw';
import type { ProxyChatRequest } from '../../src/core/types';
import { advance, AGENT_ID, CHAT_URL, FAKE_TIMERS, forget, gate, mountWidget, openChat, proxyReplying, send, settle } from './helpers';

const api = useSandboxServer();
const TEASER = 'Questions about a treatment? Ask us.';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const launcherOf = (ui: ReturnType<typeof mountWidget>['ui']) => ui.getByRole('button', { name: 'Chat with Acme' });

describe('teaser', () => {
  function mountTeasing(options: { teaser?: string; teaserDelay?: number } = {}) {
    vi.useFakeTimers(FAKE_TIMERS);
    return mountWidget({ teaser: TEASER, ...options });
  }

  test('shows beside the closed launcher after the delay (5 s unless given), as a button that opens the panel', async () => {
    const { ui } = mountTeasing();
    await advance(4_999);
    expect(ui.queryByRole('button', { name: TEASER })).toBeNull();
    await advance(1);
    // Not a live region: an offer nobody asked for must not interrupt a screen reader.
    expect(ui.getByRole('button', { name: TEASER }).closest('[role=status],[role=alert],[aria-live]')).toBeNull();

    fireEvent.click(ui.getByRole('button', { name: TEASER }));
    expect(ui.getByRole('dialog', { name: 'Acme' })).toBeTruthy();
    expect(ui.queryByRole('button', { name: TEASER })).toBeNull();
  });

  test('Close dismisses it and puts focus on the launcher; that visitor does not see it again', async () => {
    const { ui, handle } = mountTeasing({ teaserDelay: 2 });
    await advance(2_000);
    fireEvent.click(ui.getByRole('button', { name: 'Close' }));
    expect(ui.queryByRole('button', { name: TEASER })).toBeNull();
    expect(launcherOf(ui).getRootNode()).toHaveProperty('activeElement', launcherOf(ui));

    act(() => handle.destroy());
    forget(handle);
    const again = mountTeasing({ teaserDelay: 2 });
    await advance(60_000);
    expect(again.ui.queryByRole('button', { name: TEASER })).toBeNull();
  });

  test('seen once is enough, even without Close; a new teaser text is shown again', async () => {
    const first = mountTeasing({ teaserDelay: 0 });
    await advance(0);
    expect(first.ui.getByRole('button', { name: TEASER })).toBeTruthy();
    expect(JSON.parse(localStorage.getItem(storageKey(AGENT_ID, 'teaser')) ?? 'null')).toMatchObject({ value: TEASER });
    act(() => first.handle.destroy());
    forget(first.handle);

    const same = mountTeasing({ teaserDelay: 0 });
    await advance(0);
    expect(same.ui.queryByRole('button', { name: TEASER })).toBeNull();
    act(() => same.handle.destroy());
    forget(same.handle);

    const other = mountTeasing({ teaser: 'Book a free intro call this week.', teaserDelay: 0 });
    await advance(0);
    expect(other.ui.getByRole('button', { name: 'Book a free intro call this week.' })).toBeTruthy();
  });

  test('not once the panel has been opened, even if it was closed again', async () => {
    const { ui } = mountTeasing();
    fireEvent.click(launcherOf(ui));
    fireEvent.click(ui.getByRole('button', { name: 'Close' }));
    await advance(10_000);
    expect(ui.queryByRole('button', { name: TEASER })).toBeNull();
    // Not noted as seen either: it can show on the next page.
    expect(localStorage.getItem(storageKey(AGENT_ID, 'teaser'))).toBeNull();
  });

  test('not where the panel would be full screen (a phone): it would cover the page', async () => {
    vi.stubGlobal('matchMedia', (media: string) => ({
      matches: media === FULL_SCREEN_QUERY,
      media,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    const { ui } = mountTeasing();
    await advance(10_000);
    expect(ui.queryByRole('button', { name: TEASER })).toBeNull();
    expect(localStorage.getItem(storageKey(AGENT_ID, 'teaser'))).toBeNull();
  });

  test('no teaser, no timer of its own', () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const before = vi.getTimerCount();
    mountWidget();
    // The widget's own (jsdom has no requestIdleCallback: the idle language check is a timer).
    const widget = vi.getTimerCount() - before;
    mountWidget({ teaser: TEASER });
    expect(vi.getTimerCount()).toBe(before + 2 * widget + 1);
  });

  test('an inline panel never shows it (it is always open)', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const inline = document.createElement('div');
    document.body.append(inline);
    const { ui } = mountWidget({ teaser: TEASER, mode: 'inline', target: inline }, {}, inline);
    await advance(10_000);
    expect(ui.queryByRole('button', { name: TEASER })).toBeNull();
    expect(localStorage.getItem(storageKey(AGENT_ID, 'teaser'))).toBeNull();
  });

  test('its timer stops with the widget', () => {
    const { handle } = mountTeasing();
    expect(vi.getTimerCount()).toBeGreaterThan(0);
    act(() => handle.destroy());
    forget(handle);
    // Nothing of the widget's keeps running: the teaser's timer, nor the idle prefetch's.
    expect(vi.getTimerCount()).toBe(0);
  });

  test('options: a teaser over 140 characters and a delay outside 0 to 3600 seconds are warned about, and not used', () => {
    const page = 'https://shop.test/';
    const required = { agentId: 'a', apiBase: 'https://api.test', chatUrl: 'https://shop.test/chat' };
    expect(resolveOptions({ ...required, teaser: ` ${TEASER} `, teaserDelay: '12' }, page).options).toMatchObject({
      teaser: TEASER,
      teaserDelay: 12,
    });
    const { options, warnings } = resolveOptions({ ...required, teaser: 'x'.repeat(141), teaserDelay: 3601 }, page);
    expect(options).toMatchObject({ teaser: undefined, teaserDelay: 5 });
    expect(warnings).toEqual([
      'data-teaser (teaser) must be text of up to 140 characters.',
      'data-teaser-delay (teaserDelay) must be 0 to 3600 (seconds).',
    ]);
  });
});

describe('unread count', () => {
  /** A proxy whose replies wait until the test lets each one through. */
  function heldProxy() {
    const gates: ReturnType<typeof gate>[] = [];
    const handler = http.post(CHAT_URL, async ({ request }) => {
      const { message } = (await request.json()) as ProxyChatRequest;
      const held = gate();
      gates.push(held);
      await held.opened;
      return HttpResponse.json({ success: true, reply: `You said: ${message}`, conversationId: 'conv-1' });
    });
    api.server.use(handler);
    /** Lets the oldest waiting reply through, once its request has arrived. */
    const release = async () => {
      await vi.waitFor(() => expect(gates.length).toBeGreaterThan(0));
      gates.shift()?.open();
    };
    return { release };
  }

  const statusOf = (shadow: ShadowRoot) => within(shadow as unknown as HTMLElement).getByRole('status');

  test('replies that come while the panel is closed are counted on the launcher, said politely, and cleared on open', async () => {
    const proxy = heldProxy();
    const { ui, shadow } = mountWidget();
    const box = openChat(ui);
    send(box, 'Hello');
    await proxy.release();
    await ui.findByText('You said: Hello');
    // Seen while open: not unread.
    expect(launcherOf(ui).dataset.unread).toBeUndefined();
    expect(statusOf(shadow).textContent).toBe('');

    send(box, 'Are you open on Saturday?');
    fireEvent.click(ui.getByRole('button', { name: 'Close' }));
    await proxy.release();
    await ui.findByText('You said: Are you open on Saturday?');
    expect(launcherOf(ui).dataset.unread).toBe('1');
    expect(statusOf(shadow).textContent).toBe('Unread messages: 1');
    // The launcher's name stays its label; the count describes it.
    expect(launcherOf(ui).getAttribute('aria-describedby')).toBe(statusOf(shadow).id);

    fireEvent.click(launcherOf(ui));
    expect(launcherOf(ui).dataset.unread).toBeUndefined();
    expect(statusOf(shadow).textContent).toBe('');
  });

  test("each reply while closed adds one, in the widget's language", async () => {
    const proxy = heldProxy();
    const { ui, shadow } = mountWidget({ locale: 'de', strings: german });
    fireEvent.click(ui.getByRole('button', { name: 'Chat mit Acme' }));
    send(ui.getByRole('textbox', { name: 'Nachricht' }), 'Eins');
    fireEvent.click(ui.getByRole('button', { name: 'Schließen' }));
    await proxy.release();
    await ui.findByText('You said: Eins');
    expect(statusOf(shadow).textContent).toBe('Ungelesene Nachrichten: 1');
    fromAnotherTab({ id: 'other-tab', role: 'agent', text: 'Zwei', at: Date.now(), status: 'sent' });
    expect(ui.getByRole('button', { name: 'Chat mit Acme' }).dataset.unread).toBe('2');
    expect(statusOf(shadow).textContent).toBe('Ungelesene Nachrichten: 2');
  });

  test("another tab's reply to this conversation counts too, and a cleared conversation starts again at none", async () => {
    api.server.use(proxyReplying().handler);
    const { ui } = mountWidget();
    send(openChat(ui), 'Hello');
    await ui.findByText('You said: Hello');
    fireEvent.click(ui.getByRole('button', { name: 'Close' }));

    fromAnotherTab({ id: 'other-tab', role: 'agent', text: 'From the other tab', at: Date.now(), status: 'sent' });
    expect(launcherOf(ui).dataset.unread).toBe('1');
    fromAnotherTab();
    expect(launcherOf(ui).dataset.unread).toBeUndefined();
  });
});

test('keeping count does not draw the other views again: a reply while the panel is open leaves the Book view alone', async () => {
  api.server.use(proxyReplying().handler);
  const { ui } = mountWidget();
  const box = openChat(ui);
  fireEvent.click(ui.getByRole('tab', { name: 'Book' }));
  fireEvent.click(ui.getByRole('tab', { name: 'Chat' }));
  await settle();
  // Every element Preact is asked to draw passes through options.vnode (Preact's public hook).
  let booked = 0;
  const before = options.vnode;
  options.vnode = (vnode: VNode) => {
    if ((vnode.type as unknown) === BookingView) booked++;
    before?.(vnode);
  };
  try {
    send(box, 'Hello');
    await ui.findByText('You said: Hello');
  } finally {
    options.vnode = before;
  }
  expect(booked).toBe(0);
});

/** Another tab stores this conversation with `added` at its end, or cleared when nothing is added. */
function fromAnotherTab(added?: object) {
  const key = storageKey(AGENT_ID, 'chat');
  const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as { at: number; value: { messages: object[] } };
  const messages = added ? [...stored.value.messages, added] : [];
  const newValue = JSON.stringify({ at: Date.now(), value: { ...stored.value, messages } });
  localStorage.setItem(key, newValue);
  act(() => void window.dispatchEvent(new StorageEvent('storage', { key, newValue, storageArea: localStorage })));
}
