// The iframe page's bridge (src/widget/embedding/frame.ts): options from the URL (fragment included), every
// event posted to the parent (full payloads to parentOrigin only), the content height as `resize`,
// and commands taken only from the parent window at parentOrigin.
import { act, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, test, vi, type MockInstance } from 'vitest';
import { frameParams, startFrame } from '../../../src/widget/embedding/frame';
import { bundlerChunks } from '../../support/chunks';
import { SANDBOX_BASE_URL, useSandboxServer } from '../../support/msw';
import { CHAT_URL, proxyReplying, send, settle } from '../helpers';

const api = useSandboxServer();
const PARENT = 'https://shop.example';

/** The framing window: a real (jsdom) window, so it can be a MessageEvent source. */
let parentFrame: HTMLIFrameElement;
let parentWindow: Window;
let posted: MockInstance<Window['postMessage']>;
const stops: (() => void)[] = [];
let observed: ResizeObserverCallback | undefined;
let bodyHeight = 420.2;

beforeEach(() => {
  parentFrame = document.createElement('iframe');
  document.documentElement.appendChild(parentFrame);
  const win = parentFrame.contentWindow;
  if (!win) throw new Error('no iframe window');
  parentWindow = win;
  posted = vi.spyOn(parentWindow, 'postMessage').mockImplementation(() => undefined);
  // jsdom has no layout: the observer and the body's height are ours to drive.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private callback: ResizeObserverCallback) {}
      observe() {
        observed = this.callback;
      }
      disconnect() {
        observed = undefined;
      }
    },
  );
  vi.spyOn(document.body, 'getBoundingClientRect').mockImplementation(() => ({ height: bodyHeight }) as DOMRect);
});

afterEach(() => {
  for (const stop of stops.splice(0)) act(() => stop());
  parentFrame.remove();
  observed = undefined;
  bodyHeight = 420.2;
  vi.unstubAllGlobals();
  document.body.removeAttribute('style');
  document.documentElement.removeAttribute('style');
  history.replaceState(null, '', '/');
});

function start(params: Record<string, string>, fragment = ''): ReturnType<typeof within> {
  const query = new URLSearchParams({
    agentId: 'demo-agent',
    apiBase: SANDBOX_BASE_URL,
    chatUrl: CHAT_URL,
    title: 'Acme',
    persist: 'none',
    ...params,
  });
  history.replaceState(null, '', `/embed.html?${query}${fragment}`);
  act(() => {
    stops.push(startFrame(window, bundlerChunks, parentWindow));
  });
  const host = document.querySelector('[data-agent-widget]');
  const root = host?.shadowRoot?.firstElementChild;
  if (!(root instanceof HTMLElement)) throw new Error('the frame drew nothing');
  return within(root);
}

/** [type, payload, targetOrigin] of every message posted to the parent. */
const messages = () =>
  posted.mock.calls.map(([data, target]) => {
    const { source, type, payload } = data as { source: string; type: string; payload: unknown };
    expect(source).toBe('agent-widget');
    return [type, payload, target] as const;
  });
const ofType = (type: string) => messages().filter(([t]) => t === type);

function command(data: unknown, origin = PARENT, source: Window | null = parentWindow) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
  });
}

const selectedTab = (ui: ReturnType<typeof within>) => ui.getByRole('tab', { selected: true }).textContent;

describe('options from the URL', () => {
  test('query and fragment both count; the fragment wins and prefill-<key> gathers into prefill', () => {
    expect(
      frameParams({
        search: '?agentId=a1&color=%23111111&prefill-name=Query',
        hash: '#prefill-name=Ada&prefill-email=ada%40example.com&color=%23222222',
      }),
    ).toEqual({
      agentId: 'a1',
      color: '#222222',
      prefill: { name: 'Ada', email: 'ada@example.com' },
    });
  });

  test('the panel fills the body inline, in the page language, starting on the view asked for', async () => {
    const ui = start({ locale: 'de-CH', view: 'booking', parentOrigin: PARENT });
    expect(ui.getByRole('region', { name: 'Acme' })).toBeTruthy();
    expect(selectedTab(ui)).toBe('Book');
    expect(document.documentElement.lang).toBe('de-CH');
    expect(document.title).toBe('Acme');
    expect(document.body.style.margin).toBe('0px');
    await settle();
  });

  test('starters: a JSON list in the URL, offered on the empty conversation', () => {
    const ui = start({ starters: JSON.stringify(['Opening hours?', 'Prices?']) });
    expect(ui.getByRole('group', { name: 'Suggested questions' }).textContent).toBe('Opening hours?Prices?');
  });
});

describe('events to the parent', () => {
  test('with parentOrigin: every event with its payload, sent to that origin only', async () => {
    api.server.use(proxyReplying().handler);
    const ui = start({ parentOrigin: `${PARENT}/some/page` });
    await settle(3);
    expect(ofType('ready')).toEqual([['ready', { agentId: 'demo-agent', version: '0.1.0' }, PARENT]]);
    send(ui.getByRole('textbox', { name: 'Message' }), 'My email is ada@example.com');
    await settle();
    expect(ofType('message:sent')).toEqual([['message:sent', expect.objectContaining({ text: 'My email is ada@example.com' }), PARENT]]);
    expect(ofType('message:received')).toEqual([
      ['message:received', expect.objectContaining({ text: 'You said: My email is ada@example.com' }), PARENT],
    ]);
  });

  test("without parentOrigin: to '*', every payload cut down to the agent id", async () => {
    api.server.use(proxyReplying().handler);
    const ui = start({});
    send(ui.getByRole('textbox', { name: 'Message' }), 'My email is ada@example.com');
    await settle();
    const types = messages().map(([type]) => type);
    expect(types).toEqual(expect.arrayContaining(['ready', 'message:sent', 'message:received']));
    for (const [, payload, target] of messages()) {
      expect(target).toBe('*');
      expect(payload).toEqual({ agentId: 'demo-agent' });
    }
  });

  test('a parentOrigin that is not an origin is warned about and treated as absent', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    start({ parentOrigin: 'shop.example' });
    await settle(3);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('parentOrigin "shop.example" is not an origin'));
    expect(ofType('ready')).toEqual([['ready', { agentId: 'demo-agent' }, '*']]);
  });

  test('resize carries the content height, rounded up, once per change, even without parentOrigin', () => {
    start({});
    act(() => observed?.([], {} as ResizeObserver));
    act(() => observed?.([], {} as ResizeObserver));
    bodyHeight = 612;
    act(() => observed?.([], {} as ResizeObserver));
    expect(ofType('resize')).toEqual([
      ['resize', { height: 421 }, '*'],
      ['resize', { height: 612 }, '*'],
    ]);
  });

  test('height=fill: the panel fills a fixed-height frame, and nothing is measured', () => {
    start({ height: 'fill' });
    expect(document.documentElement.style.height).toBe('100%');
    expect(document.body.style.height).toBe('100%');
    act(() => observed?.([], {} as ResizeObserver));
    expect(ofType('resize')).toEqual([]);
  });

  test('unusable options: a console error, an error event to the parent, nothing drawn', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    history.replaceState(null, '', `/embed.html?agentId=demo-agent&apiBase=${SANDBOX_BASE_URL}`);
    stops.push(startFrame(window, bundlerChunks, parentWindow));
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]?.[0]).toContain('data-chat-url (chatUrl) is missing');
    expect(ofType('error')).toEqual([['error', { agentId: 'demo-agent' }, '*']]);
    expect(document.querySelector('[data-agent-widget]')).toBeNull();
  });
});

describe('commands from the parent', () => {
  const setView = (view: string) => ({ source: 'agent-widget', type: 'setView', payload: { view } });

  test('setView and open from the parent window at parentOrigin switch the view', () => {
    const ui = start({ parentOrigin: PARENT });
    command(setView('booking'));
    expect(selectedTab(ui)).toBe('Book');
    command({ source: 'agent-widget', type: 'open', payload: { view: 'lookup' } });
    expect(selectedTab(ui)).toBe('My booking');
    command({ source: 'agent-widget', type: 'close' });
    expect(selectedTab(ui)).toBe('My booking');
  });

  test('another origin, another window, a foreign message or an unknown view: ignored', () => {
    const ui = start({ parentOrigin: PARENT });
    command(setView('booking'), 'https://evil.example');
    command(setView('booking'), PARENT, window);
    command(setView('booking'), PARENT, null);
    command({ type: 'setView', payload: { view: 'booking' } });
    command('setView booking');
    command(setView('admin'));
    expect(selectedTab(ui)).toBe('Chat');
  });

  test('without parentOrigin no command is taken, not even from the parent', () => {
    const ui = start({});
    command(setView('booking'), 'null');
    command(setView('booking'));
    expect(selectedTab(ui)).toBe('Chat');
  });

  test('stopping removes the panel, the observer and the message listener', () => {
    const added = vi.spyOn(window, 'addEventListener');
    const removed = vi.spyOn(window, 'removeEventListener');
    start({ parentOrigin: PARENT });
    const stop = stops.pop();
    act(() => stop?.());
    expect(document.querySelector('[data-agent-widget]')).toBeNull();
    expect(observed).toBeUndefined();
    const onMessage = added.mock.calls.find(([type]) => type === 'message')?.[1];
    expect(onMessage).toBeDefined();
    expect(removed).toHaveBeenCalledWith('message', onMessage);
  });
});
