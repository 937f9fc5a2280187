// Under each reply: Copy (chat-copy.test.tsx), and the thumbs, toggle buttons whose choice reaches the page as a message:feedback event.
import { fireEvent } from '@testing-library/preact';
import { expect, test } from 'vitest';
import german from '../../src/widget/i18n/locales/de';
import type { WidgetEventMap } from '../../src/widget/platform/events';
import { useSandboxServer } from '../support/msw';
import { AGENT_ID, mountWidget, openChat, proxyReplying, send, settle } from './helpers';

const api = useSandboxServer();

/** A widget with one exchange: "Hello", answered "You said: Hello". */
async function answered(options: Parameters<typeof mountWidget>[0] = {}) {
  api.server.use(proxyReplying().handler);
  const widget = mountWidget(options);
  const feedback: WidgetEventMap['message:feedback'][] = [];
  const received: WidgetEventMap['message:received'][] = [];
  widget.handle.on('message:feedback', (event) => feedback.push(event));
  widget.handle.on('message:received', (event) => received.push(event));
  // The launcher, "Chat with Acme" in the widget's language.
  fireEvent.click(widget.ui.getByRole('button', { name: / Acme$/ }));
  send(widget.ui.getByRole('textbox'), 'Hello');
  await widget.ui.findByText('You said: Hello');
  return { ...widget, feedback, received };
}

/** The message row a control or text is in. */
const rowOf = (element: HTMLElement) => element.closest('.msg');

test('the buttons are under the reply, not under the greeting or the visitor message', async () => {
  api.server.use(proxyReplying().handler);
  const { ui } = mountWidget();
  const box = openChat(ui);
  // The greeting alone: nothing to rate.
  expect(ui.queryByRole('button', { name: 'Helpful' })).toBeNull();

  send(box, 'Hello');
  await ui.findByText('You said: Hello');
  for (const name of ['Copy', 'Helpful', 'Not helpful']) {
    const buttons = ui.getAllByRole('button', { name });
    expect(buttons).toHaveLength(1);
    expect(rowOf(buttons[0] as HTMLElement)).toBe(rowOf(ui.getByText('You said: Hello')));
  }
  expect(rowOf(ui.getByText('Hello'))?.querySelector('button')).toBeNull();
  expect(rowOf(ui.getByText('Hi! How can we help?'))?.querySelector('button')).toBeNull();
});

test('a thumb is pressed and emits message:feedback once per change of mind', async () => {
  const { ui, feedback, received } = await answered();
  const up = ui.getByRole('button', { name: 'Helpful' });
  const down = ui.getByRole('button', { name: 'Not helpful' });
  expect([up.getAttribute('aria-pressed'), down.getAttribute('aria-pressed')]).toEqual(['false', 'false']);

  fireEvent.click(up);
  await settle(1);
  const reply = { agentId: AGENT_ID, id: received[0]?.id, conversationId: 'conv-1' };
  expect(feedback).toEqual([{ ...reply, value: 'up' }]);
  expect([up.getAttribute('aria-pressed'), down.getAttribute('aria-pressed')]).toEqual(['true', 'false']);

  // Pressed again: the choice stands, nothing new to report.
  fireEvent.click(up);
  await settle(1);
  expect(feedback).toHaveLength(1);

  fireEvent.click(down);
  await settle(1);
  expect(feedback).toEqual([
    { ...reply, value: 'up' },
    { ...reply, value: 'down' },
  ]);
  expect([up.getAttribute('aria-pressed'), down.getAttribute('aria-pressed')]).toEqual(['false', 'true']);
});

test("in the widget's language", async () => {
  const { ui, feedback } = await answered({ locale: 'de', strings: german });
  fireEvent.click(ui.getByRole('button', { name: 'Nicht hilfreich' }));
  expect(ui.getByRole('button', { name: 'Hilfreich' })).not.toBeNull();
  await settle(1);
  expect(feedback.map((event) => event.value)).toEqual(['down']);
});
