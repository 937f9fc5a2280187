// Booking from the conversation: when the visitor writes that they want to book, or the reply offers it,
// a "Book a time" button follows the exchange and opens the booking flow. The phrases are per language
// (`bookingPhrases`), and an owner may change them or turn the offer off.
import { fireEvent } from '@testing-library/preact';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import german from '../../src/widget/i18n/locales/de';
import spanish from '../../src/widget/i18n/locales/es';
import { useSandboxServer } from '../support/msw';
import { CHAT_URL, mountWidget, openChat, proxyReplying, send } from './helpers';

const api = useSandboxServer();

const offer = (ui: ReturnType<typeof mountWidget>['ui'], name = 'Book a time') => ui.queryByRole('button', { name });

test('the visitor asks to book: one click opens the booking flow, focus on its heading', async () => {
  api.server.use(proxyReplying(() => 'We are open Monday to Friday.').handler);
  const { ui, shadow } = mountWidget();
  send(openChat(ui), 'Can I book an appointment for Tuesday?');
  await ui.findByText('We are open Monday to Friday.');

  const button = offer(ui);
  expect(button?.closest('[role="log"]')).toBe(ui.getByRole('log', { name: 'Conversation' }));
  fireEvent.click(button as HTMLElement);
  expect(ui.getByRole('tab', { name: 'Book' }).getAttribute('aria-selected')).toBe('true');
  expect(shadow.activeElement).toBe(ui.getByRole('heading', { name: 'Book a time' }));
});

test('the reply offers booking; the offer goes once the conversation moves on', async () => {
  api.server.use(
    proxyReplying((body) => (body.message === 'Prices?' ? 'A session is $65. Would you like to schedule a visit?' : 'Parking is free.'))
      .handler,
  );
  const { ui } = mountWidget();
  const box = openChat(ui);
  send(box, 'Prices?');
  await ui.findByText('A session is $65. Would you like to schedule a visit?');
  expect(offer(ui)).not.toBeNull();

  send(box, 'Where do I park?');
  await ui.findByText('Parking is free.');
  expect(offer(ui)).toBeNull();
});

test('nothing about booking, no offer', async () => {
  api.server.use(proxyReplying(() => 'We are open Monday to Friday.').handler);
  const { ui } = mountWidget();
  send(openChat(ui), 'When are you open?');
  await ui.findByText('We are open Monday to Friday.');
  expect(offer(ui)).toBeNull();
});

test("in the widget's language", async () => {
  api.server.use(proxyReplying(() => 'Gern.').handler);
  // The German dictionary as a bundler passes it: the phrases follow the language the widget speaks.
  const { ui } = mountWidget({ locale: 'de', strings: german });
  fireEvent.click(ui.getByRole('button', { name: 'Chat mit Acme' }));
  send(ui.getByRole('textbox', { name: 'Nachricht' }), 'Ich hätte gern einen Termin am Montag.');
  await ui.findByText('Gern.');
  expect(offer(ui, 'Termin buchen')).not.toBeNull();
});

test("the owner's phrases replace ours", async () => {
  api.server.use(proxyReplying(() => 'Sure.').handler);
  const custom = mountWidget({ strings: { bookingPhrases: 'Tee Time' } });
  const box = openChat(custom.ui);
  send(box, 'I want to book a lesson');
  await custom.ui.findByText('Sure.');
  expect(offer(custom.ui)).toBeNull();
  send(box, 'Is there a tee time on Sunday?');
  await custom.ui.findAllByText('Sure.');
  expect(offer(custom.ui)).not.toBeNull();
});

test('empty phrases: never offered', async () => {
  api.server.use(proxyReplying(() => 'You can book a time online.').handler);
  const { ui } = mountWidget({ strings: { bookingPhrases: '' } });
  send(openChat(ui), 'I want to book an appointment');
  await ui.findByText('You can book a time online.');
  expect(offer(ui)).toBeNull();
});

test('phrases are found at the start of words, whatever the case and punctuation around them', async () => {
  api.server.use(proxyReplying((body) => `Noted: ${body.message}`).handler);
  const { ui } = mountWidget();
  const box = openChat(ui);
  // "appointment" inside "disappointment" is not the word.
  send(box, 'What a disappointment.');
  await ui.findByText('Noted: What a disappointment.');
  expect(offer(ui)).toBeNull();
  send(box, 'APPOINTMENT? (Tuesday)');
  await ui.findByText('Noted: APPOINTMENT? (Tuesday)');
  expect(offer(ui)).not.toBeNull();
});

test('Spanish: "cita" is a word of its own, not the end of "solicitar"', async () => {
  api.server.use(proxyReplying((body) => `Vale: ${body.message}`).handler);
  const { ui } = mountWidget({ locale: 'es', strings: spanish });
  fireEvent.click(ui.getByRole('button', { name: 'Chatear con Acme' }));
  const box = ui.getByRole('textbox', { name: spanish.messageLabel });
  send(box, '¿Cómo puedo solicitar un reembolso?');
  await ui.findByText('Vale: ¿Cómo puedo solicitar un reembolso?');
  expect(offer(ui, spanish.chatOpenBooking)).toBeNull();
  send(box, 'Quiero una cita, por favor.');
  await ui.findByText('Vale: Quiero una cita, por favor.');
  expect(offer(ui, spanish.chatOpenBooking)).not.toBeNull();
});

test('a message refused with 402 keeps the one Book a time of its notice', async () => {
  api.server.use(
    http.post(CHAT_URL, () => HttpResponse.json({ success: false, error: 'No credits.', code: 'insufficient_credits' }, { status: 402 })),
  );
  const { ui } = mountWidget();
  send(openChat(ui), 'I want to book an appointment');
  await ui.findByText(/Chat is unavailable right now/);
  expect(ui.getAllByRole('button', { name: 'Book a time' })).toHaveLength(1);
});
