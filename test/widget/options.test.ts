// The owner's interface: data-* attributes and init(), validated in one place. Bad required options
// give ONE console error naming the attribute and draw nothing; the host page is never harmed.
import { act } from '@testing-library/preact';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi, type MockInstance } from 'vitest';
import { installGlobal, type AgentWidgetApi } from '../../src/widget/embedding/global';
import { testChunks } from '../support/chunks';
import { resolveOptions } from '../../src/widget/options/options';
import { resolvePanelOptions } from '../../src/widget/options/panel-options';
import { VERSION } from '../../src/widget/platform/version';
import { useSandboxServer } from '../support/msw';
import { baseOptions, settle, widgetUi } from './helpers';

useSandboxServer();

const REQUIRED = {
  'data-agent-id': 'demo-agent',
  'data-api-base': 'https://sandbox.test/api',
  'data-chat-url': '/api/chat',
};

let consoleError: MockInstance<typeof console.error>;
let consoleWarn: MockInstance<typeof console.warn>;
const installed: AgentWidgetApi[] = [];

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  for (const api of installed.splice(0)) act(() => api.destroy());
  delete window.AgentWidget;
  document.body.innerHTML = '';
  localStorage.clear();
});

function scriptTag(attributes: Record<string, string>): HTMLScriptElement {
  const script = document.createElement('script');
  script.setAttribute('src', 'https://cdn.test/widget.js');
  for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
  document.body.append(script);
  return script;
}

async function install(script: Element | null): Promise<AgentWidgetApi> {
  let api: AgentWidgetApi | undefined;
  await act(async () => {
    api = installGlobal(window, script, testChunks);
    // The script tag starts in a task of its own.
    await new Promise((resolve) => setTimeout(resolve));
  });
  if (!api) throw new Error('installGlobal returned nothing');
  installed.push(api);
  return api;
}

const hosts = () => document.querySelectorAll('[data-agent-widget]');

describe('script tag validation', () => {
  test.each([
    ['data-agent-id', { 'data-agent-id': undefined }],
    ['data-api-base', { 'data-api-base': undefined }],
    ['data-chat-url', { 'data-chat-url': undefined }],
    ['data-agent-id', { 'data-agent-id': '   ' }],
    ['data-agent-id', { 'data-agent-id': 'two words' }],
    ['data-api-base', { 'data-api-base': 'javascript:alert(1)' }],
    ['data-api-base', { 'data-api-base': 'http://' }],
    ['data-chat-url', { 'data-chat-url': 'ftp://files.test/chat' }],
  ] as const)('%s missing or malformed (%j): one console error naming it, nothing drawn', async (attribute, change) => {
    const attributes: Record<string, string> = { ...REQUIRED };
    for (const [name, value] of Object.entries(change)) {
      if (value === undefined) delete attributes[name];
      else attributes[name] = value;
    }
    const script = scriptTag(attributes);
    const bodyBefore = document.body.innerHTML;
    await expect(install(script)).resolves.toBeDefined();
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(String(consoleError.mock.calls[0]?.[0])).toContain(attribute);
    expect(hosts()).toHaveLength(0);
    expect(document.body.innerHTML).toBe(bodyBefore);
    expect(window.AgentWidget).toBeDefined();
  });

  test('several problems are still ONE console error, naming each', async () => {
    await install(scriptTag({ 'data-title': 'Acme' }));
    expect(consoleError).toHaveBeenCalledTimes(1);
    const message = String(consoleError.mock.calls[0]?.[0]);
    for (const attribute of Object.keys(REQUIRED)) expect(message).toContain(attribute);
  });

  test('inline mode without a usable target: one error naming data-target', async () => {
    await install(scriptTag({ ...REQUIRED, 'data-mode': 'inline', 'data-target': '#nowhere' }));
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(String(consoleError.mock.calls[0]?.[0])).toContain('data-target');
    expect(hosts()).toHaveLength(0);
  });

  test('malformed optional attributes: one warning, defaults used, the widget still starts', async () => {
    await install(scriptTag({ ...REQUIRED, 'data-color': 'red', 'data-position': 'top', 'data-persist': 'forever' }));
    expect(consoleError).not.toHaveBeenCalled();
    expect(consoleWarn).toHaveBeenCalledTimes(1);
    const warning = String(consoleWarn.mock.calls[0]?.[0]);
    expect(warning).toContain('data-color');
    expect(warning).toContain('data-position');
    expect(warning).toContain('data-persist');
    expect(hosts()).toHaveLength(1);
  });

  test('data-starters: a JSON list of questions, offered when the chat opens', async () => {
    await install(scriptTag({ ...REQUIRED, 'data-title': 'Acme', 'data-starters': '["Opening hours?", " Where are you? "]' }));
    expect(consoleWarn).not.toHaveBeenCalled();
    const ui = widgetUi(hosts()[0]?.shadowRoot ?? undefined);
    act(() => ui.getByRole('button', { name: 'Chat with Acme' }).click());
    const group = ui.getByRole('group', { name: 'Suggested questions' });
    expect(Array.from(group.querySelectorAll('button'), (b) => b.textContent?.trim())).toEqual(['Opening hours?', 'Where are you?']);
  });

  test('data-avatar: a decorative image before the title, hidden if it fails to load', async () => {
    await install(scriptTag({ ...REQUIRED, 'data-title': 'Acme', 'data-avatar': '/logo.png' }));
    expect(consoleWarn).not.toHaveBeenCalled();
    const shadow = hosts()[0]?.shadowRoot ?? undefined;
    const ui = widgetUi(shadow);
    act(() => ui.getByRole('button', { name: 'Chat with Acme' }).click());
    const avatar = shadow?.querySelector('img');
    expect(avatar?.getAttribute('src')).toBe(new URL('/logo.png', document.baseURI).href);
    // alt="": decorative, the title beside it names the panel.
    expect(avatar?.getAttribute('alt')).toBe('');
    expect(avatar?.nextElementSibling).toBe(ui.getByRole('heading', { name: 'Acme' }));
    act(() => void avatar?.dispatchEvent(new Event('error')));
    expect(avatar?.hidden).toBe(true);
  });

  test('data-avatar that is not an http(s) URL: one warning naming it, and no image', async () => {
    await install(scriptTag({ ...REQUIRED, 'data-title': 'Acme', 'data-avatar': 'javascript:alert(1)' }));
    const shadow = hosts()[0]?.shadowRoot ?? undefined;
    // The panel reads its options when its code arrives: when the browser is idle, or on the first open.
    act(() => widgetUi(shadow).getByRole('button', { name: 'Chat with Acme' }).click());
    expect(consoleWarn).toHaveBeenCalledTimes(1);
    expect(String(consoleWarn.mock.calls[0]?.[0])).toContain('data-avatar (avatar) must be an http(s) URL.');
    expect(shadow?.querySelector('img')).toBeNull();
  });

  test('a good tag draws only the launcher, in an open shadow root on our own host element', async () => {
    await install(scriptTag({ ...REQUIRED, 'data-title': 'Acme' }));
    expect(consoleError).not.toHaveBeenCalled();
    const host = hosts()[0];
    expect(host?.parentElement).toBe(document.body);
    expect(host?.shadowRoot).toBeTruthy();
    const ui = widgetUi(host?.shadowRoot ?? undefined);
    expect(ui.getAllByRole('button')).toHaveLength(1);
    expect(ui.getByRole('button', { name: 'Chat with Acme' })).toBeTruthy();
    expect(ui.queryByRole('dialog')).toBeNull();
  });

  test('the script tag draws in a task after its own, and calls made meanwhile wait for it', async () => {
    const api = installGlobal(window, scriptTag({ ...REQUIRED, 'data-title': 'Acme' }), testChunks);
    installed.push(api);
    const opened = vi.fn();
    api.on('open', opened);
    api.open('booking');
    expect(hosts()).toHaveLength(0);
    await act(() => new Promise((resolve) => setTimeout(resolve)));
    expect(hosts()).toHaveLength(1);
    expect(opened).toHaveBeenCalledWith({ agentId: 'demo-agent', view: 'booking' });
  });

  test('from <head>, the script tag draws after DOMContentLoaded, in a task of its own', async () => {
    const readyState = vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    installed.push(installGlobal(window, scriptTag({ ...REQUIRED }), testChunks));
    readyState.mockReturnValue('interactive');
    act(() => {
      document.dispatchEvent(new Event('DOMContentLoaded'));
    });
    expect(hosts()).toHaveLength(0);
    await act(() => new Promise((resolve) => setTimeout(resolve)));
    expect(hosts()).toHaveLength(1);
  });

  test('without data attributes the script waits for init(); init validates the same way', async () => {
    const api = await install(scriptTag({}));
    expect(hosts()).toHaveLength(0);
    expect(consoleError).not.toHaveBeenCalled();
    act(() => api.init({ ...baseOptions, chatUrl: '' }));
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(String(consoleError.mock.calls[0]?.[0])).toContain('chatUrl');
    act(() => api.init(baseOptions));
    expect(hosts()).toHaveLength(1);
    act(() => api.init(baseOptions));
    expect(hosts()).toHaveLength(1);
    expect(consoleWarn).toHaveBeenCalledTimes(1);
  });

  test('init with something that is not an object is refused without throwing', async () => {
    const api = await install(null);
    expect(() => act(() => api.init('agent' as unknown as typeof baseOptions))).not.toThrow();
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(hosts()).toHaveLength(0);
  });
});

describe('window.AgentWidget', () => {
  test('is the only global, with the documented methods and the package version', async () => {
    const before = new Set(Object.keys(window));
    const api = await install(scriptTag(REQUIRED));
    const added = Object.keys(window).filter((key) => !before.has(key));
    expect(added).toEqual(['AgentWidget']);
    for (const method of ['init', 'open', 'close', 'toggle', 'on', 'reset', 'destroy'] as const)
      expect(typeof api[method]).toBe('function');
    const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { version: string };
    expect(api.version).toBe(pkg.version);
    expect(VERSION).toBe(pkg.version);
  });

  test('calls queued by the stub before the script loaded replay in order', async () => {
    const ready = vi.fn();
    const opened = vi.fn();
    window.AgentWidget = {
      q: [
        ['on', ['ready', ready]],
        ['on', ['open', opened]],
        ['init', [baseOptions]],
        ['open', ['booking']],
      ],
    };
    await install(null);
    await settle(2);
    expect(ready).toHaveBeenCalledWith({ agentId: 'demo-agent', version: VERSION });
    expect(opened).toHaveBeenCalledWith({ agentId: 'demo-agent', view: 'booking' });
    const ui = widgetUi();
    expect(ui.getByRole('dialog', { name: 'Acme' })).toBeTruthy();
    expect(ui.getByRole('tab', { name: 'Book' }).getAttribute('aria-selected')).toBe('true');
  });

  test('a second copy of the script does not mount a second widget', async () => {
    const first = await install(scriptTag(REQUIRED));
    const second = await install(scriptTag(REQUIRED));
    expect(second).toBe(first);
    expect(hosts()).toHaveLength(1);
  });

  test('destroy removes everything; init can start again', async () => {
    const api = await install(scriptTag(REQUIRED));
    act(() => api.destroy());
    expect(hosts()).toHaveLength(0);
    act(() => api.init(baseOptions));
    expect(hosts()).toHaveLength(1);
  });
});

describe('resolveOptions', () => {
  const page = 'https://shop.test/products/shoes';

  test('relative URLs resolve against the page; values are normalised', async () => {
    const { options } = resolveOptions(
      { agentId: ' a1 ', apiBase: '/svc', chatUrl: 'api/chat', color: '#ABC', locale: 'en-us', mode: 'bubble' },
      page,
    );
    expect(options).toMatchObject({
      agentId: 'a1',
      apiBase: 'https://shop.test/svc',
      chatUrl: 'https://shop.test/products/api/chat',
      color: '#abc',
      locale: 'en-US',
      position: 'right',
      theme: 'light',
      persist: 'local',
    });
  });

  test('defaults for every optional option', async () => {
    const { options } = resolveOptions({ agentId: 'a1', apiBase: '/', chatUrl: '/c' }, page, 'de-DE');
    expect(options).toMatchObject({ color: '#4f46e5', locale: 'de-DE', mode: 'bubble', title: undefined });
    if (!options) throw new Error('the options were refused');
    expect(resolvePanelOptions(options.panelInput)).toEqual({
      options: { greeting: undefined, starters: [], avatar: undefined, prefill: undefined, utm: undefined, strings: {} },
      warnings: [],
      mistakes: [],
    });
  });

  test('a bad locale or colour is a warning, not an error', async () => {
    const result = resolveOptions({ agentId: 'a1', apiBase: '/', chatUrl: '/c', locale: 'not a locale!', color: '#12345' }, page);
    expect(result.errors).toEqual([]);
    expect(result.warnings.join(' ')).toContain('data-locale');
    expect(result.warnings.join(' ')).toContain('data-color');
  });
});
