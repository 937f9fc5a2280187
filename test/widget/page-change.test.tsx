// A visitor on a site of several pages: a link followed while a reply is on its way, or a reload, does not
// lose the reply (the next page sends the message again with its id; the proxy answers it from its reply
// cache), does not call it Stopped, and the panel left open with something under way opens again there.
import { fireEvent } from '@testing-library/preact';
import { http } from 'msw';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { ProxyChatRequest } from '../../src/core/types';
import { REPLY_KEPT_MS } from '../../src/core/shapes/chat';
import { storageKey } from '../../src/widget/platform/storage';
import { useSandboxServer } from '../support/msw';
import { CHAT_URL, hidePage, mountWidget, nextPageLoad, openChat, proxyReplying, send } from './helpers';

const api = useSandboxServer();
const PAGE_KEY = storageKey('demo-agent', 'page');

afterEach(() => {
  vi.restoreAllMocks();
});

type Mounted = ReturnType<typeof mountWidget>;

/** The next page of the site, at `now` when given. */
const nextPage = (mounted: Mounted, now?: () => number): Mounted => nextPageLoad(mounted, now === undefined ? {} : { now });

/** The chat proxy never answers the first message: its page is left while it waits. */
function firstReplyNeverComes() {
  const asked: ProxyChatRequest[] = [];
  api.server.use(
    http.post(
      CHAT_URL,
      async ({ request }) => {
        asked.push((await request.json()) as ProxyChatRequest);
        return new Promise<Response>(() => undefined);
      },
      { once: true },
    ),
  );
  return asked;
}

/** The panel's code arrives when the browser is idle; its first act is to read what the last page left. */
async function panelArrived() {
  const read = vi.spyOn(Storage.prototype, 'getItem');
  await vi.waitFor(() => expect(read).toHaveBeenCalledWith(PAGE_KEY));
}

describe('moving to another page of the site', () => {
  test('a reply still on its way is delivered on the next page: the message goes again with the same id, the panel opens on the chat, focus stays on the page', async () => {
    const proxy = proxyReplying((body) => `From nine, ${body.message}`);
    api.server.use(proxy.handler);
    const asked = firstReplyNeverComes();
    const first = mountWidget();
    send(openChat(first.ui), 'when do you open?');
    await first.ui.findByText('Acme is typing…');
    hidePage();

    const { ui, shadow } = nextPage(first);
    expect(await ui.findByText('From nine, when do you open?')).toBeTruthy();
    expect(ui.getByRole('dialog', { name: 'Acme' })).toBeTruthy();
    expect(ui.getByRole('button', { name: 'Chat with Acme' }).getAttribute('aria-expanded')).toBe('true');
    expect(ui.queryByText(/Stopped/)).toBeNull();
    expect(proxy.seen).toHaveLength(1);
    expect(proxy.seen[0]?.messageId).toBe(asked[0]?.messageId);
    // Opened by itself, the panel leaves the visitor's focus on the page.
    expect(shadow.activeElement).toBeNull();
  });

  test('back after longer than the proxy keeps replies: the message waits for Retry, said as what happened, not as Stopped', async () => {
    const proxy = proxyReplying();
    api.server.use(proxy.handler);
    firstReplyNeverComes();
    const start = Date.now();
    const first = mountWidget({}, { now: () => start });
    send(openChat(first.ui), 'Are you there?');
    await first.ui.findByText('Acme is typing…');
    hidePage();

    const { ui } = nextPage(first, () => start + REPLY_KEPT_MS + 1);
    expect(await ui.findByText('You left the page before the reply came.')).toBeTruthy();
    expect(ui.queryByText(/Stopped/)).toBeNull();
    expect(proxy.seen).toHaveLength(0);
    fireEvent.click(ui.getByRole('button', { name: 'Retry' }));
    expect(await ui.findByText('You said: Are you there?')).toBeTruthy();
  });

  test('a panel left closed, or open with nothing under way, stays closed on the next page', async () => {
    api.server.use(proxyReplying().handler);
    const first = mountWidget();
    openChat(first.ui);
    hidePage();
    const second = nextPage(first);
    await panelArrived();
    expect(second.ui.queryByRole('dialog')).toBeNull();

    send(openChat(second.ui), 'Hello');
    await second.ui.findByText('You said: Hello');
    fireEvent.click(second.ui.getByRole('button', { name: 'Chat with Acme' }));
    hidePage();
    const third = nextPage(second);
    await panelArrived();
    expect(third.ui.queryByRole('dialog')).toBeNull();
  });

  test('the view carries: a booking under way opens on Book', async () => {
    const first = mountWidget();
    openChat(first.ui);
    fireEvent.click(first.ui.getByRole('tab', { name: 'Book' }));
    fireEvent.click(await first.ui.findByRole('button', { name: /30 min/ }));
    await first.ui.findByRole('grid');
    hidePage();

    const { ui } = nextPage(first);
    await vi.waitFor(() => expect(ui.getByRole('tab', { name: 'Book' }).getAttribute('aria-selected')).toBe('true'));
  });

  test('with data-persist="none" nothing is kept for the next page', async () => {
    api.server.use(proxyReplying().handler);
    const first = mountWidget({ persist: 'none' });
    send(openChat(first.ui), 'Hello');
    await first.ui.findByText('You said: Hello');
    hidePage();
    expect(sessionStorage.getItem(PAGE_KEY)).toBeNull();
  });
});
