// Prefill and UTM reach the booking flow through BookingContext (seen here by a probe view): from
// init(), from data-prefill-* attributes, and from the page URL only for the keys the owner allowed;
// UTM parameters only when the owner opted in. The initial view option too.
import type * as BookingModule from '../../../src/widget/booking';
import { act, fireEvent, within } from '@testing-library/preact';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { installGlobal, type AgentWidgetApi } from '../../../src/widget/embedding/global';
import type { BookingContext } from '../../../src/widget/booking/types';
import { defineElement } from '../../../src/widget/embedding/element';
import { bundlerChunks, testChunks } from '../../support/chunks';
import { resolveOptions, type WidgetOptions } from '../../../src/widget/options/options';
import { resolvePanelOptions } from '../../../src/widget/options/panel-options';
import { useSandboxServer } from '../../support/msw';
import { baseOptions, CHAT_URL, settle } from '../helpers';

const probe = vi.hoisted(() => ({ contexts: [] as BookingContext[] }));

vi.mock('../../../src/widget/booking', async (importOriginal) => {
  const original = await importOriginal<typeof BookingModule>();
  const { h } = await import('preact');
  const Probe = ({ stores: { context }, strings }: { stores: { context: BookingContext }; strings: { bookHeading: string } }) => {
    probe.contexts.push(context);
    return h('h2', { tabIndex: -1 }, strings.bookHeading);
  };
  return { ...original, BookingView: Probe, LookupView: Probe };
});

useSandboxServer();

const installed: AgentWidgetApi[] = [];

afterEach(() => {
  for (const api of installed.splice(0)) act(() => api.destroy());
  delete window.AgentWidget;
  document.body.innerHTML = '';
  probe.contexts.length = 0;
  history.replaceState(null, '', '/');
});

/** The page's address (its query is what prefill-from-url and utm read). */
const visit = (path: string) => history.replaceState(null, '', path);

function scriptTag(attributes: Record<string, string>): HTMLScriptElement {
  const script = document.createElement('script');
  script.setAttribute('src', 'https://cdn.test/widget.js');
  for (const [name, value] of Object.entries({
    'data-agent-id': 'demo-agent',
    'data-api-base': 'https://sandbox.test/api',
    'data-chat-url': CHAT_URL,
    'data-title': 'Acme',
    ...attributes,
  }))
    script.setAttribute(name, value);
  document.body.append(script);
  return script;
}

async function install(script: Element | null, init?: WidgetOptions): Promise<AgentWidgetApi> {
  let api: AgentWidgetApi | undefined;
  await act(async () => {
    api = installGlobal(window, script, testChunks);
    if (init) api.init(init);
    // The script tag starts in a task of its own.
    await new Promise((resolve) => setTimeout(resolve));
  });
  if (!api) throw new Error('installGlobal returned nothing');
  installed.push(api);
  return api;
}

/** Opens the Book view and returns the context the booking flow was given. */
function bookingContext(api: AgentWidgetApi): BookingContext {
  act(() => api.open('booking'));
  const context = probe.contexts.at(-1);
  if (!context) throw new Error('the Book view was not rendered');
  return context;
}

describe('prefill', () => {
  test('data-prefill-* attributes, keyed as written, reach the booking form', async () => {
    const api = await install(
      scriptTag({ 'data-prefill-name': 'Ada Lovelace', 'data-prefill-email': 'ada@example.com', 'data-prefill-field_7': 'Left knee' }),
    );
    expect(bookingContext(api).prefill).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', field_7: 'Left knee' });
  });

  test('the page URL counts only for the keys data-prefill-from-url allows; the owner’s own values win', async () => {
    visit('/landing?name=Grace%20Hopper&email=grace@example.com&phone=555&notes=hi');
    const api = await install(scriptTag({ 'data-prefill-from-url': 'name, phone', 'data-prefill-phone': '123' }));
    expect(bookingContext(api).prefill).toEqual({ name: 'Grace Hopper', phone: '123' });
  });

  test('without data-prefill-from-url the URL is ignored', async () => {
    visit('/landing?name=Grace&email=grace@example.com');
    const api = await install(scriptTag({}));
    expect(bookingContext(api).prefill).toBeUndefined();
  });

  test('init({ prefill, prefillFromUrl }) works the same, with a list of keys', async () => {
    visit('/landing?email=grace@example.com&name=Grace');
    const api = await install(null, { ...baseOptions, prefill: { name: 'Ada' }, prefillFromUrl: ['email'] });
    expect(bookingContext(api).prefill).toEqual({ email: 'grace@example.com', name: 'Ada' });
  });

  test('URL values are trimmed and capped at 200 characters; empty ones are skipped', async () => {
    const long = 'x'.repeat(500);
    const { options } = resolveOptions(
      { ...baseOptions, prefillFromUrl: 'name,email' },
      'https://shop.test/',
      'en',
      `https://shop.test/?name=%20${long}%20&email=`,
    );
    if (!options) throw new Error('the options were refused');
    expect(resolvePanelOptions(options.panelInput).options.prefill).toEqual({ name: 'x'.repeat(200) });
  });

  test('<agent-widget prefill-email="…"> prefills its own booking form', async () => {
    defineElement(bundlerChunks);
    const el = document.createElement('agent-widget');
    for (const [name, value] of Object.entries({
      'agent-id': 'demo-agent',
      'api-base': 'https://sandbox.test/api',
      'chat-url': CHAT_URL,
      view: 'booking',
      'prefill-email': 'ada@example.com',
    }))
      el.setAttribute(name, value);
    await act(async () => {
      document.body.append(el);
      await Promise.resolve();
    });
    expect(probe.contexts.at(-1)?.prefill).toEqual({ email: 'ada@example.com' });
  });
});

describe('UTM parameters', () => {
  const CAMPAIGN = '/landing?utm_source=newsletter&utm_medium=email&utm_campaign=spring&utm_term=knee&utm_content=hero&utm_id=9&ref=x';

  test('data-utm="true": the five utm_* parameters of the page go with booking:created', async () => {
    visit(CAMPAIGN);
    const api = await install(scriptTag({ 'data-utm': 'true' }));
    expect(bookingContext(api).utm).toEqual({
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring',
      utm_term: 'knee',
      utm_content: 'hero',
    });
  });

  test('without the opt-in (or with data-utm="false"), nothing is attached', async () => {
    visit(CAMPAIGN);
    expect(bookingContext(await install(scriptTag({}))).utm).toBeUndefined();
    act(() => installed.splice(0).forEach((api) => api.destroy()));
    delete window.AgentWidget;
    expect(bookingContext(await install(scriptTag({ 'data-utm': 'false' }))).utm).toBeUndefined();
  });

  test('opted in on a page without UTM parameters: nothing is attached', async () => {
    visit('/landing?ref=x');
    expect(bookingContext(await install(null, { ...baseOptions, utm: true })).utm).toBeUndefined();
  });

  test('parameters are read when the widget starts: a later URL change (a SPA route) keeps them', async () => {
    visit(CAMPAIGN);
    const api = await install(null, { ...baseOptions, utm: true });
    visit('/checkout');
    await settle(2);
    expect(bookingContext(api).utm).toMatchObject({ utm_source: 'newsletter' });
  });

  test('a malformed data-utm is a warning and stays off', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    visit(CAMPAIGN);
    expect(bookingContext(await install(scriptTag({ 'data-utm': 'yes' }))).utm).toBeUndefined();
    expect(warn.mock.calls[0]?.[0]).toContain('data-utm (utm) must be one of true, false');
  });
});

describe('the initial view', () => {
  test('data-view="booking" opens the bubble on Book', async () => {
    const api = await install(scriptTag({ 'data-view': 'booking' }));
    const root = document.querySelector('[data-agent-widget]')?.shadowRoot?.firstElementChild;
    if (!(root instanceof HTMLElement)) throw new Error('the widget drew nothing');
    const ui = within(root);
    fireEvent.click(ui.getByRole('button', { name: 'Chat with Acme' }));
    expect(ui.getByRole('tab', { selected: true }).textContent).toBe('Book');
    act(() => api.close());
    expect(ui.queryByRole('dialog')).toBeNull();
  });
});
