// Mounting the widget in jsdom and talking to it the way a visitor does: through its open shadow
// root, by role and accessible name. The chat proxy is mocked per test with msw; booking goes to the
// sandbox through test/support/msw.
import { act, fireEvent, within } from '@testing-library/preact';
import { http, HttpResponse } from 'msw';
import { afterEach, expect, vi } from 'vitest';
import { mountWidget as mountWith, type MountDeps, type WidgetHandle } from '../../src/widget/embedding/mount';
import type { WidgetOptions } from '../../src/widget/options/options';
import { bundlerChunks } from '../support/chunks';
import type { ProxyChatRequest, ProxyErrorCode } from '../../src/core/types';
import { SANDBOX_BASE_URL, type SandboxServer } from '../support/msw';

export const CHAT_URL = 'https://shop.test/api/chat';
/** Any of the widget's message ids, which go with every chat request: 32 hex digits. */
export const MESSAGE_ID = expect.stringMatching(/^[0-9a-f]{32}$/);
export const AGENT_ID = 'demo-agent';

export const baseOptions: WidgetOptions = {
  agentId: AGENT_ID,
  apiBase: SANDBOX_BASE_URL,
  chatUrl: CHAT_URL,
  title: 'Acme',
  greeting: 'Hi! How can we help?',
};

const mounted: WidgetHandle[] = [];

afterEach(() => {
  for (const handle of mounted.splice(0)) act(() => handle.destroy());
  localStorage.clear();
  sessionStorage.clear();
  document.body.innerHTML = '';
});

export function shadowOf(handleIndex = -1): ShadowRoot {
  const hosts = document.querySelectorAll('[data-agent-widget]');
  const host = hosts[handleIndex < 0 ? hosts.length + handleIndex : handleIndex];
  if (!host?.shadowRoot) throw new Error('no widget host with an open shadow root');
  return host.shadowRoot;
}

/** Queries scoped to the widget's shadow tree. */
export function widgetUi(shadow: ShadowRoot = shadowOf()) {
  const root = shadow.firstElementChild;
  if (!(root instanceof HTMLElement)) throw new Error('the widget rendered nothing');
  return within(root);
}

/**
 * Mounts as a bundler user does, with the panel in memory (../support/chunks), so it is drawn in the same
 * task as the open that asks for it.
 */
export function mountWidget(options: Partial<WidgetOptions> = {}, deps: Partial<MountDeps> = {}, container: Element = document.body) {
  let handle: WidgetHandle | undefined;
  act(() => {
    handle = mountWith(container, { ...baseOptions, ...options }, { chunks: bundlerChunks, ...deps });
  });
  if (!handle) throw new Error('mount refused the options');
  mounted.push(handle);
  const shadow = shadowOf();
  return { handle, shadow, ui: widgetUi(shadow) };
}

/** The page is hidden, as following a link, a reload or a closed tab does first. */
export function hidePage(): void {
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/**
 * The next page load (a reload, or a link followed on the site): the old widget goes without writing
 * anything, as a real page change runs no destroy() (what the page kept when hidden is all the next one
 * gets), and a new one starts with `deps`.
 */
export function nextPageLoad({ handle }: { handle: WidgetHandle }, deps: Partial<MountDeps> = {}) {
  const unwritten = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => undefined);
  act(() => handle.destroy());
  unwritten.mockRestore();
  forget(handle);
  return mountWidget({}, deps);
}

/** Forget a handle destroyed by the test itself. */
export function forget(handle: WidgetHandle): void {
  const at = mounted.indexOf(handle);
  if (at >= 0) mounted.splice(at, 1);
}

export function openChat(ui: ReturnType<typeof widgetUi>) {
  fireEvent.click(ui.getByRole('button', { name: 'Chat with Acme' }));
  return ui.getByRole('textbox', { name: 'Message' });
}

export function type(box: HTMLElement, text: string) {
  fireEvent.input(box, { target: { value: text } });
}

export function send(box: HTMLElement, text: string) {
  type(box, text);
  fireEvent.keyDown(box, { key: 'Enter' });
}

/** A proxy that answers every message; `seen` records the request bodies. */
export function proxyReplying(reply: (body: ProxyChatRequest, n: number) => string | object = (b) => `You said: ${b.message}`) {
  const seen: ProxyChatRequest[] = [];
  const handler = http.post(CHAT_URL, async ({ request }) => {
    const body = (await request.json()) as ProxyChatRequest;
    seen.push(body);
    const answer = reply(body, seen.length);
    return HttpResponse.json(
      typeof answer === 'string' ? { success: true, reply: answer, conversationId: 'conv-1' } : { success: true, ...answer },
    );
  });
  return { handler, seen };
}

/** One proxy failure, answered once; later requests fall through to the next handler. */
export function proxyFailing(status: number, code: ProxyErrorCode, extra: { retryAfter?: number; headers?: Record<string, string> } = {}) {
  return http.post(
    CHAT_URL,
    () =>
      HttpResponse.json(
        {
          success: false,
          error: 'Refused by the proxy.',
          code,
          ...(extra.retryAfter !== undefined ? { retryAfter: extra.retryAfter } : {}),
        },
        { status, headers: extra.headers },
      ),
    { once: true },
  );
}

export const networkDown = () => http.post(CHAT_URL, () => HttpResponse.error(), { once: true });

/** Lets fetches, msw and Preact finish: real macrotask turns (setImmediate is never faked here). */
export async function settle(rounds = 15): Promise<void> {
  for (let i = 0; i < rounds; i++)
    await act(async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
    });
}

/** Fake clocks for countdowns and deadlines; setImmediate stays real so settle() works. */
export const FAKE_TIMERS: Parameters<typeof vi.useFakeTimers>[0] = {
  toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
};

/** Moves the fake clock on, letting Preact render what the timers changed. */
export async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** A promise the test resolves when it wants the proxy to answer. */
export function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A mounted conversation with one delivered exchange ("Hello") and then `failed`, which the proxy refused. */
export async function conversationWithFailure(api: SandboxServer, failed: string) {
  const proxy = proxyReplying();
  api.server.use(proxy.handler);
  const mounted = mountWidget();
  const box = openChat(mounted.ui);
  send(box, 'Hello');
  await mounted.ui.findByText('You said: Hello');
  api.server.use(proxyFailing(500, 'upstream_error'));
  send(box, failed);
  await mounted.ui.findByText(/Something went wrong/);
  return { ...mounted, box, proxy };
}
