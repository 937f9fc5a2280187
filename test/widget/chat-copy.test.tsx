// Copy under each reply: the reply as the agent wrote it goes to the clipboard, and the button says
// Copied (or Could not copy) for two seconds. The Chromium e2e (chat-feedback.e2e.ts) copies to the real
// clipboard.
import { fireEvent } from '@testing-library/preact';
import { afterEach, expect, test, vi } from 'vitest';
import { COPIED_MS } from '../../src/widget/chat/MessageRow';
import german from '../../src/widget/i18n/locales/de';
import { useSandboxServer } from '../support/msw';
import { advance, FAKE_TIMERS, mountWidget, proxyReplying, send, settle } from './helpers';

const api = useSandboxServer();

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
  vi.useRealTimers();
});

/** navigator.clipboard with a writeText that does what `write` does; what it was given is in `copied`. */
function clipboard(write: () => Promise<void> = async () => undefined) {
  const copied: string[] = [];
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      writeText: (text: string) => {
        copied.push(text);
        return write();
      },
    },
  });
  return copied;
}

/** A widget that has answered `message` with "You said: " and the message. */
async function answered(message: string, options: Parameters<typeof mountWidget>[0] = {}) {
  api.server.use(proxyReplying().handler);
  const widget = mountWidget(options);
  fireEvent.click(widget.ui.getByRole('button', { name: / Acme$/ }));
  send(widget.ui.getByRole('textbox'), message);
  await widget.ui.findByText(/^You said: /);
  return widget;
}

test('Copy copies the reply as the agent wrote it, not the greeting or the visitor message', async () => {
  const copied = clipboard();
  const { ui } = await answered('Read **this** at [our page](https://example.com/help)');
  // One Copy: not under the greeting, not under the visitor's message.
  fireEvent.click(ui.getByRole('button', { name: 'Copy' }));
  await settle(2);
  // Its Markdown: the link keeps its address, which the text on screen does not show.
  expect(copied).toEqual(['You said: Read **this** at [our page](https://example.com/help)']);
  expect(ui.getByRole('button', { name: 'Copied' })).not.toBeNull();
});

test('Copied stands for two seconds, then the button is Copy again', async () => {
  clipboard();
  const { ui } = await answered('Hello');
  vi.useFakeTimers(FAKE_TIMERS);
  fireEvent.click(ui.getByRole('button', { name: 'Copy' }));
  await settle(2);
  expect(ui.getByRole('button', { name: 'Copied' })).not.toBeNull();
  await advance(COPIED_MS - 1);
  expect(ui.queryByRole('button', { name: 'Copy' })).toBeNull();
  await advance(1);
  expect(ui.getByRole('button', { name: 'Copy' })).not.toBeNull();
  expect(ui.queryByRole('button', { name: 'Copied' })).toBeNull();
});

test('a refused write says Could not copy, and Copy can be tried again', async () => {
  let refuse = true;
  const copied = clipboard(async () => {
    if (refuse) throw new DOMException('Write permission denied.', 'NotAllowedError');
  });
  const { ui } = await answered('Hello');
  vi.useFakeTimers(FAKE_TIMERS);
  fireEvent.click(ui.getByRole('button', { name: 'Copy' }));
  await settle(2);
  expect(ui.getByRole('button', { name: 'Could not copy' })).not.toBeNull();
  await advance(COPIED_MS);
  refuse = false;
  fireEvent.click(ui.getByRole('button', { name: 'Copy' }));
  await settle(2);
  expect(ui.getByRole('button', { name: 'Copied' })).not.toBeNull();
  expect(copied).toEqual(['You said: Hello', 'You said: Hello']);
});

test('a page without the Clipboard API (not a secure context) says Could not copy', async () => {
  const { ui } = await answered('Hello');
  expect('clipboard' in navigator).toBe(false);
  fireEvent.click(ui.getByRole('button', { name: 'Copy' }));
  await settle(2);
  expect(ui.getByRole('button', { name: 'Could not copy' })).not.toBeNull();
});

test("in the widget's language", async () => {
  clipboard();
  const { ui } = await answered('Hallo', { locale: 'de', strings: german });
  fireEvent.click(ui.getByRole('button', { name: 'Kopieren' }));
  await settle(2);
  expect(ui.getByRole('button', { name: 'Kopiert' })).not.toBeNull();
});
