// <agent-widget>: the inline panel as a custom element. Attributes mirror the script tag's data-*
// names, changes apply live, removal cleans up, its methods match window.AgentWidget's, and two
// elements for two agents keep their own state and storage.
import { act, fireEvent, within } from '@testing-library/preact';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type { AgentWidgetElement } from '../../../src/widget/embedding/element';
import { defineElement } from '../../../src/widget/embedding/element';
import { bundlerChunks } from '../../support/chunks';
import { hostCss } from '../../../src/widget/options/theme';
import { useSandboxServer } from '../../support/msw';
import { CHAT_URL, proxyReplying, send, settle } from '../helpers';

const api = useSandboxServer();

beforeAll(() => {
  defineElement(bundlerChunks);
});

afterEach(() => {
  document.body.innerHTML = '';
  localStorage.clear();
});

const BASE = { 'agent-id': 'demo-agent', 'api-base': 'https://sandbox.test/api', 'chat-url': CHAT_URL, title: 'Acme' };

/** Inserts an <agent-widget> and lets it mount (it mounts in a microtask, once per batch of changes). */
async function element(attributes: Record<string, string> = {}): Promise<AgentWidgetElement> {
  const el = document.createElement('agent-widget');
  for (const [name, value] of Object.entries({ ...BASE, ...attributes })) el.setAttribute(name, value);
  await act(async () => {
    document.body.appendChild(el);
    await Promise.resolve();
  });
  return el;
}

function ui(el: Element) {
  const root = el.shadowRoot?.firstElementChild;
  if (!(root instanceof HTMLElement)) throw new Error('the element drew nothing');
  return within(root);
}

describe('<agent-widget>', () => {
  test('draws the inline panel in its own shadow root, from its attributes', async () => {
    const el = await element({ greeting: 'Welcome to Acme.', view: 'booking', locale: 'de-CH' });
    const panel = ui(el);
    expect(panel.getByRole('region', { name: 'Acme' })).toBeTruthy();
    expect(panel.getByRole('tab', { selected: true }).textContent).toBe('Book');
    expect(panel.queryByRole('button', { name: /Chat with/ })).toBeNull();
    fireEvent.click(panel.getByRole('tab', { name: 'Chat' }));
    expect(panel.getByText('Welcome to Acme.')).toBeTruthy();
    // The owner's element is not marked or restyled from outside: its own CSS sizes it.
    expect(el.hasAttribute('data-agent-widget')).toBe(false);
    expect(el.getAttribute('style')).toBeNull();
  });

  test('the starters attribute offers its questions on the empty conversation, and follows changes', async () => {
    const el = await element({ starters: '["Opening hours?"]' });
    fireEvent.click(ui(el).getByRole('tab', { name: 'Chat' }));
    expect(ui(el).getByRole('group', { name: 'Suggested questions' }).textContent).toBe('Opening hours?');
    await act(async () => {
      el.setAttribute('starters', '["Prices?", "Parking?"]');
      await Promise.resolve();
    });
    fireEvent.click(ui(el).getByRole('tab', { name: 'Chat' }));
    expect(ui(el).getByRole('group', { name: 'Suggested questions' }).textContent).toBe('Prices?Parking?');
  });

  test('has the global API methods; on() handlers outlive a remount', async () => {
    const el = await element();
    const ready: unknown[] = [];
    el.on('ready', (payload) => ready.push(payload));
    act(() => el.open('lookup'));
    expect(ui(el).getByRole('tab', { selected: true }).textContent).toBe('My booking');
    expect(el.version).toBe('0.1.0');
    await act(async () => {
      el.setAttribute('title', 'Acme Desk');
      await Promise.resolve();
    });
    expect(ui(el).getByRole('region', { name: 'Acme Desk' })).toBeTruthy();
    await settle(2);
    expect(ready).toEqual([{ agentId: 'demo-agent', version: '0.1.0' }]);
  });

  test('several changes in one task remount once; setting an unchanged value does not remount', async () => {
    const el = await element();
    const ready = vi.fn();
    el.on('ready', ready);
    await act(async () => {
      el.setAttribute('title', 'Acme');
      el.setAttribute('class', 'wide');
      await Promise.resolve();
    });
    await settle(2);
    expect(ready).not.toHaveBeenCalled();
    await act(async () => {
      el.setAttribute('color', '#0f766e');
      el.setAttribute('greeting', 'Hello again.');
      await Promise.resolve();
    });
    await settle(2);
    expect(ready).toHaveBeenCalledTimes(1);
    expect(ui(el).getByText('Hello again.')).toBeTruthy();
  });

  test('methods work right after insertion, before the mount microtask', () => {
    const el = document.createElement('agent-widget');
    for (const [name, value] of Object.entries(BASE)) el.setAttribute(name, value);
    act(() => {
      document.body.appendChild(el);
      el.open('booking');
    });
    expect(ui(el).getByRole('tab', { selected: true }).textContent).toBe('Book');
  });

  test('removal cleans up: the panel is gone and its window listeners are removed; re-insertion mounts again', async () => {
    const added = vi.spyOn(window, 'addEventListener');
    const removed = vi.spyOn(window, 'removeEventListener');
    const el = await element({ persist: 'local' });
    const ours = added.mock.calls.filter(([type]) => type === 'storage' || type === 'online');
    expect(ours.map(([type]) => type).sort()).toEqual(['online', 'storage']);
    await act(async () => {
      el.remove();
      await Promise.resolve();
    });
    expect(el.shadowRoot?.childElementCount).toBe(0);
    // The same listener for the same type (listen() passes its options argument too, undefined here).
    const removals = removed.mock.calls.map(([type, listener]) => [type, listener]);
    for (const [type, listener] of ours) expect(removals).toContainEqual([type, listener]);
    await act(async () => {
      document.body.appendChild(el);
      await Promise.resolve();
    });
    expect(ui(el).getByRole('region', { name: 'Acme' })).toBeTruthy();
  });

  test('unusable attributes: one console error naming the attribute, an error event, nothing drawn, no-op methods', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const el = document.createElement('agent-widget');
    el.setAttribute('agent-id', 'demo-agent');
    el.setAttribute('chat-url', CHAT_URL);
    const errors: unknown[] = [];
    el.on('error', (payload) => errors.push(payload));
    await act(async () => {
      document.body.appendChild(el);
      await Promise.resolve();
    });
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]?.[0]).toContain('data-api-base (apiBase) is missing');
    expect(errors).toEqual([expect.objectContaining({ agentId: 'demo-agent', kind: 'config' })]);
    expect(el.shadowRoot?.childElementCount ?? 0).toBe(0);
    expect(() => el.open('booking')).not.toThrow();
  });

  test('is defined once: a second defineElement() is a no-op', () => {
    expect(customElements.get('agent-widget')).toBeDefined();
    expect(defineElement(bundlerChunks)).toBe(false);
  });

  test('its host rules leave sizing to the page; our own host element stays locked down, above any z-index', () => {
    const owner = hostCss({ color: '#4f46e5', mode: 'inline', theme: 'light', zIndex: '2147483647' }, true);
    expect(owner).toContain(':host{all:initial;display:block;');
    expect(owner).not.toContain('!important');
    expect(hostCss({ color: '#4f46e5', mode: 'bubble', theme: 'light', zIndex: '2147483647' })).toContain('z-index:2147483647!important');
  });
});

describe('two agents on one page', () => {
  test('each element keeps its own conversation and its own storage keys', async () => {
    const proxy = proxyReplying((body) => `${body.agentId} heard: ${body.message}`);
    api.server.use(proxy.handler);
    const a = await element({ 'agent-id': 'agent-a', title: 'Alpha', persist: 'local' });
    const b = await element({ 'agent-id': 'agent-b', title: 'Beta', persist: 'local' });

    send(ui(a).getByRole('textbox', { name: 'Message' }), 'hello A');
    await settle();
    expect(ui(a).getByRole('log', { name: 'Conversation' }).textContent).toContain('agent-a heard: hello A');
    expect(ui(b).getByRole('log', { name: 'Conversation' }).textContent).not.toContain('hello A');
    expect(Object.keys(localStorage)).toEqual(['agent-widget:agent-a:chat']);

    send(ui(b).getByRole('textbox', { name: 'Message' }), 'hello B');
    await settle();
    expect(ui(b).getByRole('log', { name: 'Conversation' }).textContent).toContain('agent-b heard: hello B');
    expect(ui(a).getByRole('log', { name: 'Conversation' }).textContent).not.toContain('hello B');
    expect(Object.keys(localStorage).sort()).toEqual(['agent-widget:agent-a:chat', 'agent-widget:agent-b:chat']);
    expect(proxy.seen.map((r) => [r.agentId, r.message])).toEqual([
      ['agent-a', 'hello A'],
      ['agent-b', 'hello B'],
    ]);

    // reset() on one forgets that agent only.
    act(() => a.reset());
    expect(Object.keys(localStorage)).toEqual(['agent-widget:agent-b:chat']);
  });
});
