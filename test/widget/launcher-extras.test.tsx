// On the closed launcher: the count of replies that came while the panel was closed.
import { act, fireEvent, within } from '@testing-library/preact';
import { options, type VNode } from 'preact';
import { describe, expect, test, vi } from 'vitest';
import { BookingView } from '../../src/widget/booking';
import { storageKey } from '../../src/widget/platform/storage';
import german from '../../src/widget/i18n/locales/de';
import { useSandboxServer } from '../support/msw';
import { http, HttpResponse } from 'msw';
import type { ProxyChatRequest } from '../../src/core/types';
import { AGENT_ID, CHAT_URL, gate, mountWidget, openChat, proxyReplying, send, settle } from './helpers';

const api = useSandboxServer();

const launcherOf = (ui: ReturnType<typeof mountWidget>['ui']) => ui.getByRole('button', { name: 'Chat with Acme' });

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
