// Starter questions: the owner's 1-4 questions as buttons on an empty conversation; one click sends
// one. A list that cannot be used is one console warning naming it, and no buttons.
import { act, fireEvent } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, test, vi, type MockInstance } from 'vitest';
import type { WidgetEventMap } from '../../src/widget/entries/bundler';
import { MAX_STARTER_CHARS } from '../../src/widget/options/panel-options';
import { useSandboxServer } from '../support/msw';
import { MESSAGE_ID, mountWidget, openChat, proxyReplying, send, type } from './helpers';

const api = useSandboxServer();

let consoleWarn: MockInstance<typeof console.warn>;
beforeEach(() => {
  consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const STARTERS = ['What are your opening hours?', 'How much does a session cost?'];

describe('starter questions', () => {
  test('offered as buttons on the empty conversation; one click sends it and they are gone', async () => {
    const proxy = proxyReplying();
    api.server.use(proxy.handler);
    const { ui, handle } = mountWidget({ starters: STARTERS });
    const sent: WidgetEventMap['message:sent'][] = [];
    handle.on('message:sent', (e) => sent.push(e));
    const box = openChat(ui) as HTMLTextAreaElement;

    const group = ui.getByRole('group', { name: 'Suggested questions' });
    expect(group.closest('[role="log"]')).toBe(ui.getByRole('log', { name: 'Conversation' }));
    type(box, 'half a thought');
    fireEvent.click(ui.getByRole('button', { name: 'How much does a session cost?' }));

    expect(await ui.findByText('You said: How much does a session cost?')).toBeTruthy();
    expect(proxy.seen).toEqual([{ agentId: 'demo-agent', message: 'How much does a session cost?', messageId: MESSAGE_ID }]);
    expect(sent.map((e) => e.text)).toEqual(['How much does a session cost?']);
    expect(ui.queryByRole('group', { name: 'Suggested questions' })).toBeNull();
    expect(ui.queryByRole('button', { name: 'What are your opening hours?' })).toBeNull();
    // What the visitor had typed stays theirs; focus stays in the conversation the button left.
    expect(box.value).toBe('half a thought');
    expect(ui.getByRole('log', { name: 'Conversation' }).getRootNode()).toHaveProperty('activeElement', ui.getByRole('log'));
    expect(consoleWarn).not.toHaveBeenCalled();
  });

  test('not offered once the conversation has started, and back after New conversation', async () => {
    api.server.use(proxyReplying().handler);
    const { ui } = mountWidget({ starters: STARTERS });
    send(openChat(ui), 'Hello');
    await ui.findByText('You said: Hello');
    expect(ui.queryByRole('group', { name: 'Suggested questions' })).toBeNull();

    fireEvent.click(ui.getByRole('button', { name: 'New conversation' }));
    expect(ui.getByRole('group', { name: 'Suggested questions' })).toBeTruthy();
  });

  test('a conversation kept from an earlier visit starts without them', async () => {
    api.server.use(proxyReplying().handler);
    const first = mountWidget({ starters: STARTERS });
    send(openChat(first.ui), 'Hello');
    await first.ui.findByText('You said: Hello');
    act(() => first.handle.destroy());

    const { ui } = mountWidget({ starters: STARTERS });
    openChat(ui);
    expect(ui.getByText('You said: Hello')).toBeTruthy();
    expect(ui.queryByRole('group', { name: 'Suggested questions' })).toBeNull();
  });

  test('the owner can name the group in their own words', () => {
    const { ui } = mountWidget({ starters: ['Prices?'], strings: { starters: 'Popular questions' } });
    openChat(ui);
    expect(ui.getByRole('group', { name: 'Popular questions' }).textContent).toBe('Prices?');
  });

  test.each([
    ['an empty list', []],
    ['five questions', ['1?', '2?', '3?', '4?', '5?']],
    ['a blank one', ['Prices?', '  ']],
    ['one that is not text', ['Prices?', 42]],
    ['one too long to be a button', ['Prices?', 'x'.repeat(MAX_STARTER_CHARS + 1)]],
    ['text that is not JSON', "['Prices?']"],
    ['JSON that is not a list', '{"0": "Prices?"}'],
  ])('%s: one warning naming data-starters, and none shown', (_, starters) => {
    const { ui } = mountWidget({ starters: starters as string[] });
    // The panel reads its options when its code arrives: here, on the first open.
    openChat(ui);
    expect(consoleWarn).toHaveBeenCalledTimes(1);
    expect(String(consoleWarn.mock.calls[0]?.[0])).toContain(
      `data-starters (starters) must be 1-4 texts of up to ${MAX_STARTER_CHARS} characters (JSON).`,
    );
    expect(ui.queryByRole('group')).toBeNull();
    expect(ui.getByRole('textbox', { name: 'Message' })).toBeTruthy();
  });

  test('a list JSON cannot write is refused calmly, not thrown', () => {
    const cycle: unknown[] = ['Prices?'];
    cycle.push(cycle);
    const { ui } = mountWidget({ starters: cycle as string[] });
    openChat(ui);
    expect(consoleWarn).toHaveBeenCalledTimes(1);
    expect(ui.queryByRole('group')).toBeNull();
  });

  test('four questions of the longest length are all offered, as JSON text too', () => {
    const long = 'y'.repeat(MAX_STARTER_CHARS);
    const { ui } = mountWidget({ starters: JSON.stringify(['a?', 'b?', 'c?', long]) });
    openChat(ui);
    const buttons = ui.getAllByRole('button').filter((b) => b.closest('[role="group"]'));
    expect(buttons.map((b) => b.textContent)).toEqual(['a?', 'b?', 'c?', long]);
    expect(consoleWarn).not.toHaveBeenCalled();
  });
});
