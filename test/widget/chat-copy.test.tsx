// Copy under each reply: the reply as shown goes to the clipboard, as readable text (links with their
// addresses) and, where the browser takes several kinds, as HTML; the button says Copied (or Could not
// copy) for two seconds. The Chromium e2e (chat-feedback.e2e.ts) copies to the real
// clipboard.
import { fireEvent } from '@testing-library/preact';
import { afterEach, expect, test, vi } from 'vitest';
import { COPIED_MS } from '../../src/widget/platform/copy-feedback';
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

/** A Blob's text, read as a page would (jsdom's Blob has no text()). */
function textOf(blob: Blob | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!blob) return reject(new Error('no such kind'));
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
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

test('Copy copies the reply as readable text, not the greeting or the visitor message', async () => {
  const copied = clipboard();
  const { ui } = await answered('Read **this** at [our page](https://example.com/help)\n- one\n- two');
  // One Copy: not under the greeting, not under the visitor's message.
  fireEvent.click(ui.getByRole('button', { name: 'Copy' }));
  await settle(2);
  // No Markdown: the link keeps its address after its text, the list its items on their own lines.
  expect(copied).toEqual(['You said: Read this at our page (https://example.com/help)\n\n- one\n- two']);
  expect(ui.getByRole('button', { name: 'Copied' })).not.toBeNull();
});

test('where the browser takes several kinds, Copy gives the text and HTML with the formatting and nothing else', async () => {
  const items: Record<string, Blob>[] = [];
  // jsdom has no ClipboardItem: a stand-in that keeps what it is given, as Chromium's does.
  vi.stubGlobal(
    'ClipboardItem',
    class {
      constructor(readonly kinds: Record<string, Blob>) {
        items.push(kinds);
      }
    },
  );
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { write: async () => undefined, writeText: async () => undefined },
  });
  try {
    const { ui } = await answered('Read **this** at [our page](https://example.com/help)');
    fireEvent.click(ui.getByRole('button', { name: 'Copy' }));
    await settle(2);
    expect(items).toHaveLength(1);
    const [kinds] = items;
    expect(Object.keys(kinds ?? {}).sort()).toEqual(['text/html', 'text/plain']);
    expect(await textOf(kinds?.['text/plain'])).toBe('You said: Read this at our page (https://example.com/help)');
    // The formatting and the address; no class, target, rel or screen-reader hint of ours.
    expect(await textOf(kinds?.['text/html'])).toBe(
      '<p>You said: Read <strong>this</strong> at <a href="https://example.com/help">our page</a></p>',
    );
    expect(ui.getByRole('button', { name: 'Copied' })).not.toBeNull();
  } finally {
    vi.unstubAllGlobals();
  }
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
