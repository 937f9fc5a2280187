// The script tag speaks the visitor's language: chosen from data-locale, else the page's lang, else the
// browser's, fetched from next to widget.js without holding up the launcher; English when it is English,
// unknown or cannot load (one console message). Owners change any text from the tag (data-strings), the
// element (strings) or init(); a mistake there is one console error naming it.
import { act, fireEvent, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi, type MockInstance } from 'vitest';
import { installGlobal, type AgentWidgetApi } from '../../../src/widget/embedding/global';
import { defineElement } from '../../../src/widget/embedding/element';
import { noLanguageChunks, testChunks } from '../../support/chunks';
import { LANGUAGES, languageOf } from '../../../src/widget/i18n/languages';
import { useSandboxServer } from '../../support/msw';
import { CHAT_URL, mountWidget } from '../helpers';

useSandboxServer();

/** Where "widget.js" is served from; its languages come from the sources (../../support/chunks). */
const SCRIPT_URL = 'https://cdn.example/agent-widget/widget.js';

const REQUIRED = {
  'data-agent-id': 'demo-agent',
  'data-api-base': 'https://sandbox.test/api',
  'data-chat-url': CHAT_URL,
  'data-title': 'Acme',
};

let consoleError: MockInstance<typeof console.error>;
let consoleWarn: MockInstance<typeof console.warn>;
const installed: AgentWidgetApi[] = [];

beforeAll(() => {
  defineElement(testChunks);
});

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  for (const api of installed.splice(0)) act(() => api.destroy());
  delete window.AgentWidget;
  document.documentElement.removeAttribute('lang');
  document.body.innerHTML = '';
  localStorage.clear();
});

/** Loads "widget.js" from `src` with these attributes, as the script-tag entry does. */
async function scriptTag(attributes: Record<string, string>, src = SCRIPT_URL) {
  const script = document.createElement('script');
  script.setAttribute('src', src);
  for (const [name, value] of Object.entries({ ...REQUIRED, ...attributes })) script.setAttribute(name, value);
  document.body.append(script);
  await act(async () => {
    installed.push(installGlobal(window, script, testChunks));
    await new Promise((resolve) => setTimeout(resolve));
  });
  return widgetRoot();
}

function widgetRoot(host: Element | null = document.querySelector('[data-agent-widget]')): HTMLElement {
  const root = host?.shadowRoot?.firstElementChild;
  if (!(root instanceof HTMLElement)) throw new Error('no widget drawn');
  return root;
}

const launcherName = (root: HTMLElement) => root.querySelector('.launcher')?.getAttribute('aria-label');

describe('choosing the language', () => {
  test.each([
    ['de', 'de'],
    ['pt-BR', 'pt'],
    ['zh-TW', 'zh'],
    ['zh-Hant-HK', 'zh'],
    ['AR-eg', 'ar'],
    ['en-GB', 'en'],
    ['ru', 'en'],
    ['x-klingon', 'en'],
  ])('%s speaks %s', (locale, spoken) => {
    expect(languageOf(locale)).toBe(spoken);
  });

  test('the built-in list is exactly the dictionaries shipped', () => {
    const files = Object.keys(import.meta.glob('../../../src/widget/i18n/locales/*.ts')).map((p) => p.replace(/^.*\/|\.ts$/g, ''));
    expect(LANGUAGES.source.match(/[a-z]{2}/g)?.sort()).toEqual(files.sort());
  });

  test("the page's <html lang> decides when the tag says nothing: the launcher says it in German", async () => {
    document.documentElement.lang = 'de';
    const root = await scriptTag({});
    // Drawn at once in English; German arrives without anyone opening the widget.
    await waitFor(() => expect(launcherName(root)).toBe('Chat mit Acme'));
    expect(root.getAttribute('lang')).toBe('de');
    expect(root.getAttribute('dir')).toBe('ltr');
  });

  test('data-locale wins over the page', async () => {
    document.documentElement.lang = 'de';
    const root = await scriptTag({ 'data-locale': 'pl' });
    await waitFor(() => expect(launcherName(root)).toBe('Czat: Acme'));
    expect(root.getAttribute('lang')).toBe('pl');
  });

  test("the browser's language decides when neither says, with its region dropped (pt-BR -> pt)", async () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('pt-BR');
    const root = await scriptTag({});
    await waitFor(() => expect(launcherName(root)).toBe('Conversar com Acme'));
    expect(root.getAttribute('lang')).toBe('pt');
  });

  test('Arabic: the root is lang=ar dir=rtl once Arabic is spoken, and the panel opens in Arabic', async () => {
    const root = await scriptTag({ 'data-locale': 'ar' });
    await waitFor(() => expect(root.getAttribute('lang')).toBe('ar'));
    expect(root.getAttribute('dir')).toBe('rtl');
    act(() => installed[0]?.open('booking'));
    expect(within(root).getByRole('tab', { name: 'حجز' }).getAttribute('aria-selected')).toBe('true');
  });

  test('English, an unknown language or a bundler mount without a dictionary say lang=en, and nothing fails', async () => {
    const english = await scriptTag({ 'data-locale': 'en-AU' });
    expect(english.getAttribute('lang')).toBe('en');
    act(() => installed.splice(0).forEach((api) => api.destroy()));
    delete window.AgentWidget;
    const russian = await scriptTag({ 'data-locale': 'ru' });
    expect(russian.getAttribute('lang')).toBe('en');
    // Arabic page, bundler mount, no dictionary given: English text, so English lang and direction.
    const { shadow } = mountWidget({ locale: 'ar' });
    expect(shadow.firstElementChild?.getAttribute('lang')).toBe('en');
    expect(shadow.firstElementChild?.getAttribute('dir')).toBe('ltr');
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(consoleWarn).not.toHaveBeenCalled();
  });

  // The console line for the missing file is the script folder's (test/e2e/i18n.e2e.ts, in Chromium).
  test('a language file that cannot load: English, and the panel opens in English', async () => {
    const first = mountWidget({ locale: 'ko' }, { chunks: noLanguageChunks }).shadow;
    const second = mountWidget({ locale: 'ko-KR' }, { chunks: noLanguageChunks }).shadow;
    fireEvent.click(within(widgetRoot(first.host)).getByRole('button', { name: 'Chat with Acme' }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(within(widgetRoot(first.host)).getByRole('tab', { name: 'Book' })).toBeTruthy();
    for (const shadow of [first, second]) expect(shadow.firstElementChild?.getAttribute('lang')).toBe('en');
  });

  test('<agent-widget> on a script-tag page speaks its locale attribute', async () => {
    await scriptTag({ 'data-locale': 'ja' });
    const el = document.createElement('agent-widget');
    for (const [name, value] of Object.entries(REQUIRED)) el.setAttribute(name.slice(5), value);
    el.setAttribute('locale', 'zh-TW');
    await act(async () => {
      document.body.append(el);
      await Promise.resolve();
    });
    await waitFor(() => expect(widgetRoot(el).getAttribute('lang')).toBe('zh'));
    expect(within(widgetRoot(el)).getByRole('tab', { name: '预约' })).toBeTruthy();
  });
});

describe("the owner's strings", () => {
  test('data-strings replaces single texts, on top of the language spoken', async () => {
    document.documentElement.lang = 'de';
    const root = await scriptTag({ 'data-strings': '{"tabBook":"Reserve a visit"}' });
    await waitFor(() => expect(launcherName(root)).toBe('Chat mit Acme'));
    act(() => installed[0]?.open());
    expect(within(root).getByRole('tab', { name: 'Reserve a visit' })).toBeTruthy();
    expect(within(root).getByRole('tab', { name: 'Meine Buchung' })).toBeTruthy();
    expect(consoleError).not.toHaveBeenCalled();
  });

  test.each([
    ['invalid JSON', '{tabBook: "Reserve"}', /data-strings \(strings\) is not a JSON object\./],
    ['JSON that is not an object', '["Reserve"]', /data-strings \(strings\) is not a JSON object\./],
    ['an unknown key', '{"tabBok":"Reserve","send":"Go"}', /data-strings \(strings\) has unknown or non-text tabBok\./],
    ['a key without text', '{"send":42}', /data-strings \(strings\) has unknown or non-text send\./],
  ])('%s: one console error naming it, the built-in text used for it', async (_, json, message) => {
    const root = await scriptTag({ 'data-strings': json, 'data-locale': 'en' });
    // Unknown keys are found once the panel's file (with the dictionary) is in: when the browser is idle.
    await waitFor(() => expect(consoleError).toHaveBeenCalledTimes(1));
    expect(String(consoleError.mock.calls[0]?.[0])).toMatch(message);
    act(() => installed[0]?.open());
    // The widget runs; what was usable applies.
    expect(within(root).getByRole('tab', { name: 'Book' })).toBeTruthy();
    expect(within(root).getByRole('button', { name: json.includes('"Go"') ? 'Go' : 'Send' })).toBeTruthy();
  });

  test('init({ strings }) with an unknown key: one console error naming it', async () => {
    mountWidget({ strings: { tabBook: 'Reserve', nope: 'x' } as never });
    await waitFor(() => expect(consoleError).toHaveBeenCalledTimes(1));
    expect(String(consoleError.mock.calls[0]?.[0])).toContain('data-strings (strings) has unknown or non-text nope.');
  });

  test('<agent-widget strings> takes the same JSON', async () => {
    const el = document.createElement('agent-widget');
    for (const [name, value] of Object.entries(REQUIRED)) el.setAttribute(name.slice(5), value);
    el.setAttribute('strings', '{"tabChat":"Ask us"}');
    await act(async () => {
      document.body.append(el);
      await Promise.resolve();
    });
    expect(within(widgetRoot(el)).getByRole('tab', { name: 'Ask us' })).toBeTruthy();
  });
});
