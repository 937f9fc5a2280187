// Typed text survives a reload: the composer's draft (a first visit's too) and the messages that did not
// get through (failed, stopped or on their way) are kept with the conversation (same entry, TTL and reset)
// when the page is hidden, and offered again after with their reason and Retry (see page-change.test.tsx
// for a message still waiting for its reply).
import { act, fireEvent } from '@testing-library/preact';
import { http } from 'msw';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { MAX_MESSAGE_CHARS } from '../../src/widget/chat/messages';
import { storageKey } from '../../src/widget/platform/storage';
import { useSandboxServer } from '../support/msw';
import {
  CHAT_URL,
  conversationWithFailure,
  forget,
  hidePage,
  MESSAGE_ID,
  mountWidget,
  networkDown,
  nextPageLoad,
  openChat,
  proxyReplying,
  send,
  settle,
  type,
} from './helpers';

const api = useSandboxServer();
const CHAT_KEY = storageKey('demo-agent', 'chat');

afterEach(() => {
  vi.restoreAllMocks();
});

type Mounted = ReturnType<typeof mountWidget>;

/** The page loads again, the chat opened. */
function reload(mounted: Mounted): Mounted {
  const next = nextPageLoad(mounted);
  openChat(next.ui);
  return next;
}

const stored = () => (JSON.parse(localStorage.getItem(CHAT_KEY) ?? 'null') as { value: { draft: string } } | null)?.value;

describe('typed text across a reload', () => {
  test("a first visit's draft, typed before anything was sent, is kept too and comes back", () => {
    const mounted = mountWidget();
    type(openChat(mounted.ui), 'Half a question');
    hidePage();
    expect(stored()?.draft).toBe('Half a question');
    const { ui } = reload(mounted);
    const box = ui.getByRole('textbox', { name: 'Message' });
    expect(box).toHaveProperty('value', 'Half a question');
    // Deleted by hand, with no conversation: nothing stays stored.
    type(box, '');
    hidePage();
    expect(localStorage.getItem(CHAT_KEY)).toBeNull();
  });

  test('a first visit with nothing typed writes nothing', () => {
    const mounted = mountWidget();
    openChat(mounted.ui);
    hidePage();
    act(() => mounted.handle.destroy());
    forget(mounted.handle);
    expect(localStorage.length).toBe(0);
  });

  test('once there is a conversation, the draft is kept when the page is hidden and comes back', async () => {
    api.server.use(proxyReplying().handler);
    const mounted = mountWidget();
    const box = openChat(mounted.ui);
    send(box, 'Hello');
    await mounted.ui.findByText('You said: Hello');
    type(box, 'And one more thing');
    hidePage();
    expect(stored()?.draft).toBe('And one more thing');

    const { ui } = reload(mounted);
    expect(ui.getByRole('textbox', { name: 'Message' })).toHaveProperty('value', 'And one more thing');
    expect(ui.getByRole('log').textContent).toContain('You said: Hello');
  });

  test('a draft deleted by hand stays deleted; a visit with nothing typed writes nothing', async () => {
    api.server.use(proxyReplying().handler);
    const { ui } = mountWidget();
    const box = openChat(ui);
    send(box, 'Hello');
    await ui.findByText('You said: Hello');
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    hidePage();
    // Nothing typed: the entry is not rewritten, so its TTL still counts from the last message.
    expect(setItem).not.toHaveBeenCalledWith(CHAT_KEY, expect.anything());
    type(box, 'Never mind');
    hidePage();
    expect(stored()?.draft).toBe('Never mind');
    type(box, '');
    hidePage();
    expect(stored()?.draft).toBe('');
  });

  test('a message that failed comes back with its reason (not Stopped: nobody stopped it), with Retry, which sends it in the same conversation', async () => {
    const { proxy, ...mounted } = await conversationWithFailure(api, 'When are you open?');
    hidePage();

    const { ui } = reload(mounted);
    expect(ui.getByText('When are you open?')).toBeTruthy();
    expect(ui.getByText(/Something went wrong/)).toBeTruthy();
    expect(ui.queryByText(/Stopped\./)).toBeNull();
    fireEvent.click(ui.getByRole('button', { name: 'Retry' }));
    await ui.findByText('You said: When are you open?');
    expect(proxy.seen.at(-1)).toEqual({
      agentId: 'demo-agent',
      message: 'When are you open?',
      conversationId: 'conv-1',
      messageId: MESSAGE_ID,
    });
  });

  test('a message the visitor stopped is kept too: after a reload it is Stopped, with Retry', async () => {
    api.server.use(
      http.post(CHAT_URL, () => new Promise<Response>(() => undefined), { once: true }),
      proxyReplying().handler,
    );
    const mounted = mountWidget();
    send(openChat(mounted.ui), 'Slow one');
    await mounted.ui.findByText('Acme is typing…');
    fireEvent.click(mounted.ui.getByRole('button', { name: 'Stop' }));
    hidePage();

    const { ui } = reload(mounted);
    expect(ui.getByText(/Stopped\./)).toBeTruthy();
    fireEvent.click(ui.getByRole('button', { name: 'Retry' }));
    expect(await ui.findByText('You said: Slow one')).toBeTruthy();
  });

  test('the first message, failed, is kept: its automatic resend goes on after the reload, and Retry is there when that fails too', async () => {
    api.server.use(networkDown(), networkDown(), networkDown());
    const mounted = mountWidget();
    send(openChat(mounted.ui), 'Is anyone there?');
    await mounted.ui.findByText(/can't reach the chat service/);
    hidePage();
    const { ui } = reload(mounted);
    expect(ui.getByText('Is anyone there?')).toBeTruthy();
    expect(await ui.findByText(/can't reach the chat service/)).toBeTruthy();
    expect(ui.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  test('an app that unmounts and mounts the widget again (a route change) keeps the draft too', async () => {
    api.server.use(proxyReplying().handler);
    const mounted = mountWidget();
    const box = openChat(mounted.ui);
    send(box, 'Hello');
    await mounted.ui.findByText('You said: Hello');
    type(box, 'Typed before the route changed');
    act(() => mounted.handle.destroy());
    forget(mounted.handle);
    const { ui } = mountWidget();
    expect(openChat(ui)).toHaveProperty('value', 'Typed before the route changed');
  });

  test("a first visit's draft survives a remount too: nothing sent, the page never hidden", () => {
    const mounted = mountWidget();
    type(openChat(mounted.ui), 'Typed before anything was sent');
    act(() => mounted.handle.destroy());
    forget(mounted.handle);
    const { ui } = mountWidget();
    expect(openChat(ui)).toHaveProperty('value', 'Typed before anything was sent');
  });

  test("another tab's conversation and Undo leave what is being typed alone", async () => {
    api.server.use(proxyReplying().handler);
    const { ui } = mountWidget();
    const box = openChat(ui);
    send(box, 'Hello');
    await ui.findByText('You said: Hello');
    type(box, 'Draft before');
    hidePage();
    fireEvent.click(ui.getByRole('button', { name: 'New conversation' }));
    type(box, 'Typed after clearing');
    fireEvent.click(ui.getByRole('button', { name: 'Undo' }));
    expect(box).toHaveProperty('value', 'Typed after clearing');

    const newValue = JSON.stringify({ at: Date.now(), value: { conversationId: 'conv-9', messages: [], draft: 'From the other tab' } });
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: CHAT_KEY, newValue, storageArea: localStorage }));
    });
    expect(box).toHaveProperty('value', 'Typed after clearing');
  });

  test("the owner's reset() forgets the draft, on screen and stored", async () => {
    api.server.use(proxyReplying().handler);
    const { ui, handle } = mountWidget();
    const box = openChat(ui);
    send(box, 'Hello');
    await ui.findByText('You said: Hello');
    type(box, 'Private note');
    hidePage();
    act(() => handle.reset());
    expect(box).toHaveProperty('value', '');
    expect(localStorage.getItem(CHAT_KEY)).toBeNull();
    hidePage();
    await settle(2);
    expect(localStorage.getItem(CHAT_KEY)).toBeNull();
  });

  test('a stored draft is bounded like a message, written and read', async () => {
    api.server.use(proxyReplying().handler);
    const mounted = mountWidget();
    const box = openChat(mounted.ui);
    send(box, 'Hello');
    await mounted.ui.findByText('You said: Hello');
    type(box, 'x'.repeat(MAX_MESSAGE_CHARS + 10));
    hidePage();
    expect(stored()?.draft).toHaveLength(MAX_MESSAGE_CHARS);

    const edited = { ...JSON.parse(localStorage.getItem(CHAT_KEY) ?? '{}'), at: Date.now() };
    edited.value.draft = 'y'.repeat(MAX_MESSAGE_CHARS * 3);
    localStorage.setItem(CHAT_KEY, JSON.stringify(edited));
    const { ui } = reload(mounted);
    expect((ui.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toHaveLength(MAX_MESSAGE_CHARS);
  });

  test("a stored reply edited to look undelivered offers no Retry: only the visitor's own messages are sent again", () => {
    const at = Date.now();
    const messages = [
      { id: 'm1', role: 'user', text: 'Hello', at, status: 'sent' },
      { id: 'm2', role: 'agent', text: 'Hi there', at, status: 'failed' },
    ];
    localStorage.setItem(CHAT_KEY, JSON.stringify({ at, value: { messages } }));
    const { ui } = mountWidget();
    openChat(ui);
    expect(ui.getByText('Hi there')).toBeTruthy();
    expect(ui.queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});
