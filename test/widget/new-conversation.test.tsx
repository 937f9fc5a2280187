// New conversation: a labelled button that clears at once and offers Undo, which brings back the
// messages (what had not got through with its reason, one on its way as Stopped, with Retry), the conversation id and the stored copy.
import { act, fireEvent } from '@testing-library/preact';
import { http } from 'msw';
import { describe, expect, test } from 'vitest';
import type { ChatMessage } from '../../src/widget/chat/store';
import { storageKey } from '../../src/widget/platform/storage';
import { useSandboxServer } from '../support/msw';
import { CHAT_URL, conversationWithFailure, MESSAGE_ID, mountWidget, openChat, proxyReplying, send, settle } from './helpers';

const api = useSandboxServer();
const CHAT_KEY = storageKey('demo-agent', 'chat');

const conversation = () => conversationWithFailure(api, 'Are you there?');

describe('New conversation', () => {
  test('clears at once and says so, with Undo; focus goes to the composer', async () => {
    const { ui, shadow } = await conversation();
    fireEvent.click(ui.getByRole('button', { name: 'New conversation' }));
    const log = ui.getByRole('log');
    expect(log.textContent).not.toContain('Hello');
    expect(log.textContent).toContain('Conversation cleared.');
    expect(ui.getByRole('button', { name: 'Undo' })).toBeTruthy();
    expect(localStorage.getItem(CHAT_KEY)).toBeNull();
    expect(shadow.activeElement).toBe(ui.getByRole('textbox', { name: 'Message' }));
  });

  test('Undo brings back the messages, the failed one with its reason and Retry, the conversation id and the stored copy', async () => {
    const { ui, shadow, box, proxy } = await conversation();
    fireEvent.click(ui.getByRole('button', { name: 'New conversation' }));
    fireEvent.click(ui.getByRole('button', { name: 'Undo' }));

    const log = ui.getByRole('log');
    expect(log.textContent).toContain('You said: Hello');
    expect(log.textContent).toContain('Are you there?');
    expect(ui.getByText(/Something went wrong/)).toBeTruthy();
    expect(ui.queryByText('Conversation cleared.')).toBeNull();
    // The button went with the notice: focus is on what it brought back, not lost to the page.
    expect(shadow.activeElement).toBe(log);
    const restored = (
      JSON.parse(localStorage.getItem(CHAT_KEY) ?? 'null') as { value: { conversationId: string; messages: ChatMessage[] } }
    ).value;
    expect(restored.conversationId).toBe('conv-1');
    expect(restored.messages.map(({ text, status }) => [text, status])).toEqual([
      ['Hello', 'sent'],
      ['You said: Hello', 'sent'],
      ['Are you there?', 'failed'],
    ]);

    fireEvent.click(ui.getByRole('button', { name: 'Retry' }));
    await ui.findByText('You said: Are you there?');
    send(box, 'Still the same conversation?');
    await ui.findByText('You said: Still the same conversation?');
    expect(proxy.seen.map((body) => body.conversationId)).toEqual([undefined, 'conv-1', 'conv-1']);
  });

  test('a message still on its way when cleared comes back stopped, with Retry', async () => {
    const proxy = proxyReplying();
    api.server.use(
      http.post(CHAT_URL, () => new Promise<Response>(() => undefined), { once: true }),
      proxy.handler,
    );
    const { ui } = mountWidget();
    send(openChat(ui), 'Slow one');
    await ui.findByText('Acme is typing…');
    fireEvent.click(ui.getByRole('button', { name: 'New conversation' }));
    expect(ui.queryByText('Acme is typing…')).toBeNull();
    fireEvent.click(ui.getByRole('button', { name: 'Undo' }));
    expect(ui.getByText(/Stopped\./)).toBeTruthy();
    expect(ui.getByRole('button', { name: 'Send' })).toBeTruthy();
    fireEvent.click(ui.getByRole('button', { name: 'Retry' }));
    expect(await ui.findByText('You said: Slow one')).toBeTruthy();
  });

  test('sending in the new conversation ends the offer, and the conversation starts afresh', async () => {
    const { ui, box, proxy } = await conversation();
    fireEvent.click(ui.getByRole('button', { name: 'New conversation' }));
    send(box, 'Fresh start');
    expect(ui.queryByRole('button', { name: 'Undo' })).toBeNull();
    await ui.findByText('You said: Fresh start');
    expect(proxy.seen.at(-1)).toEqual({ agentId: 'demo-agent', message: 'Fresh start', messageId: MESSAGE_ID });
    expect(ui.getByRole('log').textContent).not.toContain('Hello');
  });

  test('another tab changing the conversation ends the offer', async () => {
    const { ui } = await conversation();
    fireEvent.click(ui.getByRole('button', { name: 'New conversation' }));
    const newValue = JSON.stringify({
      at: Date.now(),
      value: { conversationId: 'conv-9', messages: [{ id: 'm1', role: 'user', text: 'From the other tab', at: Date.now() }] },
    });
    localStorage.setItem(CHAT_KEY, newValue);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: CHAT_KEY, newValue, storageArea: localStorage }));
    });
    expect(ui.getByText('From the other tab')).toBeTruthy();
    expect(ui.queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  test("the owner's reset() offers no Undo: the next person at the computer cannot bring it back", async () => {
    const { ui, handle } = await conversation();
    act(() => handle.reset());
    await settle(2);
    expect(ui.queryByText('Conversation cleared.')).toBeNull();
    expect(ui.queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  test('with nothing to clear there is nothing to undo', () => {
    const { ui } = mountWidget();
    openChat(ui);
    fireEvent.click(ui.getByRole('button', { name: 'New conversation' }));
    expect(ui.queryByRole('button', { name: 'Undo' })).toBeNull();
  });
});
