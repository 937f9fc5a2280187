// The chat view as a visitor uses it, and every failure row of the design table.
import { act, fireEvent } from '@testing-library/preact';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { WidgetEventMap } from '../../src/widget/entries/bundler';
import { useSandboxServer } from '../support/msw';
import {
  advance,
  CHAT_URL,
  FAKE_TIMERS,
  MESSAGE_ID,
  forget,
  gate,
  mountWidget,
  networkDown,
  openChat,
  proxyFailing,
  proxyReplying,
  send,
  settle,
  type,
} from './helpers';
import { STILL_WORKING_MS } from '../../src/widget/chat/TypingIndicator';

const api = useSandboxServer();

afterEach(() => {
  vi.useRealTimers();
});

function errorsOf(handle: ReturnType<typeof mountWidget>['handle']) {
  const errors: WidgetEventMap['error'][] = [];
  handle.on('error', (e) => errors.push(e));
  return errors;
}

describe('sending and receiving', () => {
  test('Enter sends, the reply appears in the log, and the conversation id is sent back next time', async () => {
    const proxy = proxyReplying((body) => `Reply to **${body.message}**`);
    api.server.use(proxy.handler);
    const { ui, handle } = mountWidget();
    const sent: WidgetEventMap['message:sent'][] = [];
    const received: WidgetEventMap['message:received'][] = [];
    handle.on('message:sent', (e) => sent.push(e));
    handle.on('message:received', (e) => received.push(e));

    const box = openChat(ui);
    send(box, 'Hi there');
    expect((box as HTMLTextAreaElement).value).toBe('');
    expect(await ui.findByText('Hi there')).toBeTruthy();
    const bold = await ui.findByText('Hi there', { selector: 'strong' });
    expect(bold.closest('[role="log"]')).toBe(ui.getByRole('log', { name: 'Conversation' }));

    send(box, 'Second');
    await ui.findByText('Second', { selector: 'strong' });
    expect(proxy.seen).toEqual([
      { agentId: 'demo-agent', message: 'Hi there', messageId: MESSAGE_ID },
      { agentId: 'demo-agent', message: 'Second', conversationId: 'conv-1', messageId: MESSAGE_ID },
    ]);
    expect(sent.map(({ text, agentId }) => ({ text, agentId }))).toEqual([
      { text: 'Hi there', agentId: 'demo-agent' },
      { text: 'Second', agentId: 'demo-agent' },
    ]);
    expect(sent[1]?.conversationId).toBe('conv-1');
    expect(received[0]).toMatchObject({
      agentId: 'demo-agent',
      text: 'Reply to **Hi there**',
      conversationId: 'conv-1',
      sources: [],
    });
    expect(typeof received[0]?.id).toBe('string');
  });

  test('Shift+Enter does not send; the text stays in the composer', () => {
    const proxy = proxyReplying();
    api.server.use(proxy.handler);
    const { ui } = mountWidget();
    const box = openChat(ui) as HTMLTextAreaElement;
    type(box, 'line one');
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(box.value).toBe('line one');
    expect(ui.queryByText('line one', { selector: 'p' })).toBeNull();
  });

  test('the Send button sends too, and an empty message is not sent', async () => {
    const proxy = proxyReplying();
    api.server.use(proxy.handler);
    const { ui } = mountWidget();
    const box = openChat(ui);
    type(box, '   ');
    fireEvent.click(ui.getByRole('button', { name: 'Send' }));
    await settle(3);
    expect(proxy.seen).toHaveLength(0);
    type(box, 'Prices?');
    fireEvent.click(ui.getByRole('button', { name: 'Send' }));
    expect(await ui.findByText('You said: Prices?')).toBeTruthy();
  });

  test('while waiting: Send becomes Stop, the typing indicator shows, and typing goes on without loss', async () => {
    const answer = gate();
    api.server.use(
      http.post(CHAT_URL, async () => {
        await answer.opened;
        return HttpResponse.json({ success: true, reply: 'Done.' });
      }),
    );
    const { ui } = mountWidget();
    const box = openChat(ui) as HTMLTextAreaElement;
    send(box, 'First');
    await settle(3);
    expect(ui.queryByRole('button', { name: 'Send' })).toBeNull();
    expect(ui.getByRole('button', { name: 'Stop' })).toBeTruthy();
    expect(ui.getByText('Acme is typing…')).toBeTruthy();
    type(box, 'typed while waiting');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('typed while waiting');

    answer.open();
    expect(await ui.findByText('Done.')).toBeTruthy();
    expect(ui.queryByText('Acme is typing…')).toBeNull();
    expect(ui.getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(false);
    expect(ui.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(box.value).toBe('typed while waiting');
  });

  test('sources under a reply are links when their URL is safe, text otherwise', async () => {
    api.server.use(
      proxyReplying(() => ({
        reply: 'See our prices.',
        sources: [
          { title: 'Price list', url: 'https://acme.test/prices' },
          { title: 'Sneaky', url: 'javascript:alert(1)' },
        ],
      })).handler,
    );
    const { ui } = mountWidget();
    send(openChat(ui), 'Prices?');
    const link = await ui.findByRole('link', { name: /Price list/ });
    expect(link.getAttribute('href')).toBe('https://acme.test/prices');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(ui.getByText('Sneaky').closest('a')).toBeNull();
  });
});

describe('failure rows', () => {
  test('400: the reason is shown plainly and the text goes back into the composer', async () => {
    api.server.use(proxyFailing(400, 'message_too_long'));
    const { ui, handle } = mountWidget();
    const errors = errorsOf(handle);
    const box = openChat(ui) as HTMLTextAreaElement;
    send(box, 'A very long message');
    const alert = await ui.findByRole('alert');
    expect(alert.textContent).toBe('That message is too long. Please shorten it and send it again.');
    expect(box.value).toBe('A very long message');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(ui.getByRole('log').textContent).not.toContain('A very long message');
    expect(errors).toEqual([expect.objectContaining({ scope: 'chat', status: 400, code: 'message_too_long', retry: 'none' })]);

    type(box, 'Shorter');
    expect(ui.queryByRole('alert')).toBeNull();
  });

  test('402: chat is unavailable, booking is offered and opens the Book view; nothing is retried', async () => {
    let calls = 0;
    api.server.use(
      http.post(CHAT_URL, () => {
        calls++;
        return HttpResponse.json({ success: false, error: 'No credits.', code: 'insufficient_credits' }, { status: 402 });
      }),
    );
    const { ui, handle } = mountWidget();
    const errors = errorsOf(handle);
    send(openChat(ui), 'Hello?');
    expect(await ui.findByText(/Chat is unavailable right now/)).toBeTruthy();
    expect(ui.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(errors).toEqual([expect.objectContaining({ status: 402, code: 'insufficient_credits', retry: 'none' })]);

    fireEvent.click(ui.getByRole('button', { name: 'Book a time' }));
    expect(ui.getByRole('tab', { name: 'Book' }).getAttribute('aria-selected')).toBe('true');
    expect(ui.getByRole('tabpanel', { name: 'Book' })).toBeTruthy();
    await settle(5);
    expect(calls).toBe(1);
  });

  test('429: a live countdown, then exactly one automatic retry at the reset', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const proxy = proxyReplying(() => 'Thanks for waiting.');
    api.server.use(proxyFailing(429, 'rate_limited', { retryAfter: 3 }), proxy.handler);
    const { ui, handle } = mountWidget();
    const errors = errorsOf(handle);
    send(openChat(ui), 'Busy?');
    await settle();
    expect(ui.getByText('We are busy right now. Retrying in 3 seconds.')).toBeTruthy();
    expect(errors).toEqual([expect.objectContaining({ status: 429, code: 'rate_limited', retry: 'auto' })]);

    await advance(1000);
    expect(ui.getByText('We are busy right now. Retrying in 2 seconds.')).toBeTruthy();
    await advance(1000);
    expect(ui.getByText('We are busy right now. Retrying in 1 second.')).toBeTruthy();
    expect(proxy.seen).toHaveLength(0);

    await advance(1000);
    await settle();
    expect(proxy.seen).toHaveLength(1);
    expect(ui.getByText('Thanks for waiting.')).toBeTruthy();
    expect(ui.queryByText(/busy/)).toBeNull();
  });

  test('429 again after the automatic retry: a manual Retry, and no further automatic attempts', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    let attempts = 0;
    api.server.use(
      http.post(CHAT_URL, () => {
        attempts++;
        if (attempts <= 2)
          return HttpResponse.json(
            { success: false, error: 'Slow down.', code: 'rate_limited' },
            { status: 429, headers: { 'Retry-After': '2' } },
          );
        return HttpResponse.json({ success: true, reply: 'Finally.' });
      }),
    );
    const { ui, handle } = mountWidget();
    const errors = errorsOf(handle);
    send(openChat(ui), 'Hello');
    await settle();
    await advance(2000);
    await settle();
    expect(attempts).toBe(2);
    expect(ui.getByText(/Still busy/)).toBeTruthy();
    expect(errors.map((e) => e.retry)).toEqual(['auto', 'manual']);

    await advance(120_000);
    await settle();
    expect(attempts).toBe(2);

    fireEvent.click(ui.getByRole('button', { name: 'Retry' }));
    await settle();
    expect(attempts).toBe(3);
    expect(ui.getByText('Finally.')).toBeTruthy();
  });

  test('offline: marked not sent with Retry, sent again once when the browser is back online', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    let attempts = 0;
    api.server.use(
      http.post(CHAT_URL, () => {
        attempts++;
        return attempts <= 2 ? HttpResponse.error() : HttpResponse.json({ success: true, reply: 'Back online.' });
      }),
    );
    const { ui, handle } = mountWidget();
    const errors = errorsOf(handle);
    send(openChat(ui), 'Are you there?');
    expect(await ui.findByText(/Not sent: you seem to be offline/)).toBeTruthy();
    expect(ui.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(errors[0]).toMatchObject({ kind: 'network', status: 0, retry: 'auto' });

    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await settle();
    expect(attempts).toBe(2);
    expect(ui.getByText(/Not sent: you seem to be offline/)).toBeTruthy();
    expect(errors[1]).toMatchObject({ retry: 'manual' });

    // The automatic retry on `online` happens once per message.
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await settle();
    expect(attempts).toBe(2);

    fireEvent.click(ui.getByRole('button', { name: 'Retry' }));
    expect(await ui.findByText('Back online.')).toBeTruthy();
    expect(attempts).toBe(3);
  });

  test('offline then online: the automatic retry delivers the message', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const proxy = proxyReplying(() => 'Got it.');
    api.server.use(networkDown(), proxy.handler);
    const { ui } = mountWidget();
    send(openChat(ui), 'Hello');
    await ui.findByText(/Not sent/);
    onLine.mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await ui.findByText('Got it.')).toBeTruthy();
    expect(ui.queryByText(/Not sent/)).toBeNull();
    expect(proxy.seen).toHaveLength(1);
  });

  test('online but the service cannot be reached: says so, resends after 2, 4, 8, 16, 30 and 30 s, then stops and leaves Retry', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    let attempts = 0;
    api.server.use(
      http.post(CHAT_URL, () => {
        attempts++;
        return attempts <= 8 ? HttpResponse.error() : HttpResponse.json({ success: true, reply: 'Here again.' });
      }),
    );
    const { ui, handle } = mountWidget();
    const errors = errorsOf(handle);
    send(openChat(ui), 'Anyone there?');
    await settle();
    const notice = "We can't reach the chat service right now. Your message was not sent.";
    expect(ui.getByText(notice)).toBeTruthy();
    expect(ui.queryByText(/offline/)).toBeNull();
    expect(ui.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(errors[0]).toMatchObject({ kind: 'network', status: 0, retry: 'auto' });

    for (const [wait, total] of [
      [2, 2],
      [4, 3],
      [8, 4],
      [16, 5],
      [30, 6],
      [30, 7],
    ] as const) {
      await advance(wait * 1000 - 1);
      await settle();
      expect(attempts).toBe(total - 1);
      await advance(1);
      await settle();
      expect(attempts).toBe(total);
    }
    expect(ui.getByText(notice)).toBeTruthy();
    expect(ui.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(errors.map((e) => e.retry)).toEqual(['auto', 'auto', 'auto', 'auto', 'auto', 'auto', 'manual']);
    await advance(600_000);
    await settle();
    expect(attempts).toBe(7);

    // Retry by hand starts a fresh round of automatic resends; the service is back by the next one.
    fireEvent.click(ui.getByRole('button', { name: 'Retry' }));
    await settle();
    expect(attempts).toBe(8);
    expect(errors.at(-1)?.retry).toBe('auto');
    await advance(2000);
    await settle();
    expect(ui.getByText('Here again.')).toBeTruthy();
    expect(ui.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  test('no answer from a chat proxy on another origin: one console line for the owner naming this page, whatever the resends', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    api.server.use(networkDown(), networkDown());
    const { ui } = mountWidget();
    send(openChat(ui), 'Hello');
    await settle();
    await advance(2000);
    await settle();
    expect(consoleWarn).toHaveBeenCalledTimes(1);
    expect(String(consoleWarn.mock.calls[0]?.[0])).toContain(`add ${window.location.origin} to its allowedOrigins`);
    expect(String(consoleWarn.mock.calls[0]?.[0])).toContain(CHAT_URL);
  });

  test("no answer from a chat proxy on the page's own origin: no word about origins", async () => {
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const sameOrigin = new URL('/api/chat', window.location.href).href;
    api.server.use(http.post(sameOrigin, () => HttpResponse.error(), { once: true }));
    const { ui } = mountWidget({ chatUrl: sameOrigin });
    send(openChat(ui), 'Hello');
    expect(await ui.findByText(/We can't reach the chat service/)).toBeTruthy();
    expect(consoleWarn).not.toHaveBeenCalled();
  });

  test('unreachable, then the service comes back: the message goes by itself and the draft typed meanwhile stays', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const proxy = proxyReplying(() => 'Back.');
    api.server.use(networkDown(), networkDown(), proxy.handler);
    const { ui } = mountWidget();
    const box = openChat(ui) as HTMLTextAreaElement;
    send(box, 'Hello');
    await settle();
    type(box, 'half-typed');
    await advance(2000);
    await settle();
    expect(ui.getByText(/We can't reach the chat service/)).toBeTruthy();
    expect(proxy.seen).toHaveLength(0);
    await advance(4000);
    await settle();
    expect(ui.getByText('Back.')).toBeTruthy();
    expect(ui.queryByText(/We can't reach/)).toBeNull();
    expect(proxy.seen).toEqual([{ agentId: 'demo-agent', message: 'Hello', messageId: MESSAGE_ID }]);
    expect(box.value).toBe('half-typed');
  });

  test('a new message that gets through sends the waiting one right after, without waiting for its timer', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const proxy = proxyReplying((body) => `Re: ${body.message}`);
    api.server.use(networkDown(), proxy.handler);
    const { ui } = mountWidget();
    const box = openChat(ui);
    send(box, 'First');
    await settle();
    expect(ui.getByText(/We can't reach/)).toBeTruthy();
    send(box, 'Second');
    await settle();
    expect(proxy.seen.map((b) => b.message)).toEqual(['Second', 'First']);
    const log = ui.getByRole('log', { name: 'Conversation' });
    expect([...log.querySelectorAll('.bubble')].map((b) => b.textContent).slice(1)).toEqual(['Second', 'Re: Second', 'First', 'Re: First']);
    // The cancelled timer sends nothing more.
    await advance(60_000);
    await settle();
    expect(proxy.seen).toHaveLength(2);
  });

  test('closing the widget while a resend is pending sends nothing more', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    let attempts = 0;
    api.server.use(
      http.post(CHAT_URL, () => {
        attempts++;
        return HttpResponse.error();
      }),
    );
    const { ui, handle } = mountWidget();
    send(openChat(ui), 'Hello');
    await settle();
    expect(attempts).toBe(1);
    act(() => handle.destroy());
    forget(handle);
    await advance(120_000);
    await settle();
    expect(attempts).toBe(1);
  });

  test('500: something went wrong, with a manual Retry that works', async () => {
    const proxy = proxyReplying(() => 'Recovered.');
    api.server.use(proxyFailing(500, 'internal_error'), proxy.handler);
    const { ui, handle } = mountWidget();
    const errors = errorsOf(handle);
    send(openChat(ui), 'Hello');
    expect(await ui.findByText(/Something went wrong/)).toBeTruthy();
    expect(errors).toEqual([expect.objectContaining({ status: 500, code: 'internal_error', retry: 'manual' })]);
    await settle(3);
    expect(proxy.seen).toHaveLength(0);

    fireEvent.click(ui.getByRole('button', { name: 'Retry' }));
    expect(await ui.findByText('Recovered.')).toBeTruthy();
    expect(ui.queryByText(/Something went wrong/)).toBeNull();
  });

  /** A gateway in front of the proxy whose service is down: its own HTML page, answered once. */
  const gatewayPage = (status: number) =>
    http.post(
      CHAT_URL,
      () => new HttpResponse('<html><body>Service Unavailable</body></html>', { status, headers: { 'Content-Type': 'text/html' } }),
      {
        once: true,
      },
    );

  test.each([
    { status: 502, down: () => proxyFailing(502, 'upstream_error') },
    { status: 503, down: () => gatewayPage(503) },
    { status: 504, down: () => proxyFailing(504, 'upstream_timeout') },
  ])(
    '$status, the service behind the proxy down: said so, and resent by itself with backoff until it answers',
    async ({ status, down }) => {
      vi.useFakeTimers(FAKE_TIMERS);
      const proxy = proxyReplying(() => 'Recovered.');
      api.server.use(down(), down(), proxy.handler);
      const { ui, handle } = mountWidget();
      const errors = errorsOf(handle);
      send(openChat(ui), 'Hello');
      await settle();
      expect(ui.getByText(/We can't reach the chat service/)).toBeTruthy();
      expect(ui.queryByText(/Something went wrong/)).toBeNull();
      expect(errors).toEqual([expect.objectContaining({ status, retry: 'auto' })]);
      // The first resend after 2 s meets the service still down; the next, 4 s later, gets through.
      await advance(2000);
      await settle();
      expect(errors).toHaveLength(2);
      expect(proxy.seen).toHaveLength(0);
      await advance(4000);
      await settle();
      expect(ui.getByText('Recovered.')).toBeTruthy();
      expect(ui.queryByText(/We can't reach/)).toBeNull();
      expect(proxy.seen).toEqual([{ agentId: 'demo-agent', message: 'Hello', messageId: MESSAGE_ID }]);
    },
  );

  test('a slow reply: still working after 15 s, then the deadline ends the wait calmly with Retry', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    api.server.use(http.post(CHAT_URL, () => new Promise<Response>(() => undefined)));
    const { ui, handle } = mountWidget();
    const errors = errorsOf(handle);
    send(openChat(ui), 'Hello');
    await settle();
    expect(ui.getByText('Acme is typing…')).toBeTruthy();
    await advance(STILL_WORKING_MS - 1);
    await settle();
    expect(ui.queryByText('Acme is still working on a reply…')).toBeNull();
    await advance(1);
    await settle();
    expect(ui.getByText('Acme is still working on a reply…')).toBeTruthy();
    await advance(45_000 - STILL_WORKING_MS);
    await settle();
    expect(ui.queryByText('Acme is still working on a reply…')).toBeNull();
    expect(ui.getByText('No answer came in time. Your message was not sent.')).toBeTruthy();
    expect(ui.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(errors).toEqual([expect.objectContaining({ kind: 'timeout', retry: 'manual' })]);
  });

  test('a proxy that refuses this site: a calm message in the panel and a console error for the owner', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    api.server.use(proxyFailing(403, 'origin_not_allowed'));
    const { ui } = mountWidget();
    send(openChat(ui), 'Hello');
    expect(await ui.findByText('Chat is not available on this site right now.')).toBeTruthy();
    expect(ui.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(String(consoleError.mock.calls[0]?.[0])).toContain('origin_not_allowed');
    expect(String(consoleError.mock.calls[0]?.[0])).toContain(`add ${window.location.origin} to its allowedOrigins`);
  });

  test('nothing at the chat URL (404): the owner reads "No chat proxy at <url>", the visitor gets no Retry', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    api.server.use(
      http.post(CHAT_URL, () => new HttpResponse('<h1>Not Found</h1>', { status: 404, headers: { 'Content-Type': 'text/html' } })),
    );
    const { ui } = mountWidget();
    send(openChat(ui), 'Hello');
    expect(await ui.findByText('Chat is not available on this site right now.')).toBeTruthy();
    expect(ui.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(String(consoleError.mock.calls[0]?.[0])).toBe(`[AgentWidget] No chat proxy at ${CHAT_URL} (404).`);
  });
});

describe('the log follows the conversation', () => {
  function fakeScroll(log: HTMLElement) {
    Object.defineProperty(log, 'scrollHeight', { configurable: true, get: () => 1000 });
    Object.defineProperty(log, 'clientHeight', { configurable: true, get: () => 300 });
    Object.defineProperty(log, 'scrollTop', { configurable: true, writable: true, value: 700 });
  }

  test('pinned to the bottom while the visitor is there; a jump button when they scrolled up', async () => {
    api.server.use(proxyReplying().handler);
    const { ui } = mountWidget();
    const box = openChat(ui);
    const log = ui.getByRole('log');
    fakeScroll(log);

    send(box, 'one');
    await ui.findByText('You said: one');
    expect(log.scrollTop).toBe(1000);
    expect(ui.queryByRole('button', { name: 'New messages' })).toBeNull();

    log.scrollTop = 100;
    fireEvent.scroll(log);
    send(box, 'two');
    await ui.findByText('You said: two');
    expect(log.scrollTop).toBe(100);
    fireEvent.click(ui.getByRole('button', { name: 'New messages' }));
    expect(log.scrollTop).toBe(1000);
    expect(ui.queryByRole('button', { name: 'New messages' })).toBeNull();
  });
});
