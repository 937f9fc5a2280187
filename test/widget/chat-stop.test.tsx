// Stop: while a reply is pending, Send is Stop. Stopping aborts the request; the message stays in the
// log marked "Stopped." with Retry, which sends it again. Nothing new is emitted.
import { fireEvent } from '@testing-library/preact';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import type { WidgetEventMap } from '../../src/widget/entries/bundler';
import { useSandboxServer } from '../support/msw';
import { CHAT_URL, gate, mountWidget, openChat, send, settle } from './helpers';

const api = useSandboxServer();

/** A proxy that answers only when the test opens the gate; records each request and whether it was aborted. */
function slowProxy() {
  const answer = gate();
  const requests: { message: string; aborted: boolean }[] = [];
  api.server.use(
    http.post(CHAT_URL, async ({ request }) => {
      const seen = { message: ((await request.json()) as { message: string }).message, aborted: false };
      requests.push(seen);
      request.signal.addEventListener('abort', () => (seen.aborted = true));
      await answer.opened;
      return HttpResponse.json({ success: true, reply: `Answer to ${seen.message}`, conversationId: 'conv-1' });
    }),
  );
  return { requests, open: answer.open };
}

function mountWithEvents() {
  const mounted = mountWidget();
  const events: string[] = [];
  for (const type of ['message:sent', 'message:received', 'error'] as const)
    mounted.handle.on(type, (payload: WidgetEventMap[typeof type]) => events.push(`${type} ${'text' in payload ? payload.text : ''}`));
  return { ...mounted, events };
}

describe('stopping a pending reply', () => {
  test('Stop aborts the request; the message stays, marked Stopped with Retry; a late answer is not shown', async () => {
    const proxy = slowProxy();
    const { ui, events } = mountWithEvents();
    const box = openChat(ui);
    send(box, 'Opening hours?');
    await settle(3);
    expect(proxy.requests).toEqual([{ message: 'Opening hours?', aborted: false }]);

    const stop = ui.getByRole('button', { name: 'Stop' });
    stop.focus();
    fireEvent.click(stop);
    await settle(3);

    expect(proxy.requests[0]?.aborted).toBe(true);
    const log = ui.getByRole('log', { name: 'Conversation' });
    expect(log.textContent).toContain('Opening hours?');
    expect(ui.getByText('Stopped.')).toBeTruthy();
    expect(ui.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(ui.queryByText('Acme is typing…')).toBeNull();
    // The same button is Send again, and keeps the focus.
    const sendButton = ui.getByRole('button', { name: 'Send' });
    expect(sendButton).toBe(stop);
    expect(sendButton.getRootNode()).toHaveProperty('activeElement', sendButton);

    proxy.open();
    await settle();
    expect(log.textContent).not.toContain('Answer to');
    expect(events).toEqual(['message:sent Opening hours?']);
  });

  test('Retry sends a stopped message again, and its answer follows it', async () => {
    const proxy = slowProxy();
    const { ui, events } = mountWithEvents();
    send(openChat(ui), 'Prices?');
    await settle(3);
    fireEvent.click(ui.getByRole('button', { name: 'Stop' }));
    await settle(3);

    proxy.open();
    fireEvent.click(ui.getByRole('button', { name: 'Retry' }));
    expect(await ui.findByText('Answer to Prices?')).toBeTruthy();
    expect(proxy.requests).toEqual([
      { message: 'Prices?', aborted: true },
      { message: 'Prices?', aborted: false },
    ]);
    expect(ui.queryByText('Stopped.')).toBeNull();
    expect(ui.getByRole('log').textContent?.match(/Prices\?/g)).toHaveLength(2);
    expect(events).toEqual(['message:sent Prices?', 'message:received Answer to Prices?']);
  });

  test('the second click of a double click on Send does not stop what the first sent', async () => {
    const proxy = slowProxy();
    const { ui } = mountWithEvents();
    const box = openChat(ui);
    fireEvent.input(box, { target: { value: 'Parking?' } });
    fireEvent.click(ui.getByRole('button', { name: 'Send' }), { detail: 1 });
    await settle(3);
    fireEvent.click(ui.getByRole('button', { name: 'Stop' }), { detail: 2 });
    await settle(3);
    expect(proxy.requests).toEqual([{ message: 'Parking?', aborted: false }]);
    expect(ui.queryByText('Stopped.')).toBeNull();

    proxy.open();
    expect(await ui.findByText('Answer to Parking?')).toBeTruthy();
  });

  test('a message sent after a stop gets an answer: the next request is not born aborted', async () => {
    const proxy = slowProxy();
    const { ui } = mountWithEvents();
    const box = openChat(ui);
    send(box, 'First');
    await settle(3);
    fireEvent.click(ui.getByRole('button', { name: 'Stop' }));
    await settle(3);

    proxy.open();
    send(box, 'Second');
    expect(await ui.findByText('Answer to Second')).toBeTruthy();
    expect(ui.getByText('Stopped.')).toBeTruthy();
    expect(proxy.requests.map((r) => r.aborted)).toEqual([true, false]);
  });

  test('where AbortSignal.any is missing (Safari before 17.4), the answer that comes after Stop is not shown and Retry still sends', async () => {
    const any = Object.getOwnPropertyDescriptor(AbortSignal, 'any');
    Reflect.deleteProperty(AbortSignal, 'any');
    try {
      const proxy = slowProxy();
      const { ui, events } = mountWithEvents();
      send(openChat(ui), 'Opening hours?');
      await settle(3);
      fireEvent.click(ui.getByRole('button', { name: 'Stop' }));
      await settle(3);
      // The request could not be aborted: it answers later, to a message the visitor stopped.
      expect(proxy.requests).toEqual([{ message: 'Opening hours?', aborted: false }]);
      proxy.open();
      await settle(5);
      const log = ui.getByRole('log', { name: 'Conversation' });
      expect(log.textContent).not.toContain('Answer to');
      expect(ui.getByText('Stopped.')).toBeTruthy();
      expect(events).toEqual(['message:sent Opening hours?']);

      fireEvent.click(ui.getByRole('button', { name: 'Retry' }));
      expect(await ui.findByText('Answer to Opening hours?')).toBeTruthy();
      expect(proxy.requests).toHaveLength(2);
      expect(log.textContent?.match(/Answer to/g)).toHaveLength(1);
    } finally {
      if (any) Object.defineProperty(AbortSignal, 'any', any);
    }
  });

  test('in another language, Stop and the notice are in it too', async () => {
    slowProxy();
    const { ui } = mountWidget({ locale: 'de', strings: { send: 'Senden', chatStop: 'Stopp', chatStopped: 'Abgebrochen.' } });
    send(openChat(ui), 'Hallo');
    await settle(3);
    fireEvent.click(ui.getByRole('button', { name: 'Stopp' }));
    await settle(3);
    expect(ui.getByText('Abgebrochen.')).toBeTruthy();
    expect(ui.getByRole('button', { name: 'Senden' })).toBeTruthy();
  });
});
