// The panel's file: everything behind the launcher. The loader (../embedding/mount) fetches it on the
// visitor's first intent or when the browser is idle, and calls mountPanel() when the panel is first
// needed. It creates the stores, draws the App into the loader's container and drives the launcher.
import { effect } from '@preact/signals';
import { h, render } from 'preact';
import { createBookingClient } from '../../core/booking-client';
import { zonedToInstant } from '../../core/time';
import { bookingCss, createBookingStores } from '../booking';
import type { BookingEmit } from '../booking/types';
import { createChatClient } from '../chat/client';
import { createChat, type Chat } from '../chat/store';
import chatCss from '../chat/chat.css?inline';
import { defaultStrings, type Strings } from '../i18n';
import { readPanelOptions } from '../options/panel-options';
import { createRememberedBookings, type RememberedBookingsStore } from '../booking/state/remembered';
import { createProgressMemory } from '../booking/state/progress';
import { createStore, createVisitorId } from '../platform/storage';
import { App } from '../shell/App';
import shellCss from '../shell/shell.css?inline';
import badgeCss from '../launcher/badge.css?inline';
import teaserCss from '../launcher/teaser.css?inline';
import { createShell } from '../shell/shell';
import { rememberOpenPanel, resumeView } from '../shell/page-memory';
import { createUnread } from '../shell/unread';
import { lazy } from '../platform/lazy';
import type { PanelHandle, PanelHost, PanelModule } from './contract';
import { warmUp } from './warm-up';
import { keepVnodesMarked } from './frozen-prototypes';

keepVnodesMarked();

export function mountPanel(host: PanelHost): PanelHandle {
  const { container, options, emitter, now, launcher } = host;
  const { agentId } = options;
  const win = container.ownerDocument.defaultView ?? window;
  const store = createStore(options.persist, agentId, { win, now });

  // Created on first use (the chat view, or booking asking for the conversation id), so the stored
  // conversation is not read or parsed before it is needed.
  let chatStore: Chat | undefined;
  const chat = (): Chat => {
    chatStore ??= createChat({ agentId, client: createChatClient(options.chatUrl), store, emitter, win, now });
    return chatStore;
  };
  let rememberedStore: RememberedBookingsStore | undefined;
  const remembered = (): RememberedBookingsStore => {
    rememberedStore ??= createRememberedBookings(store);
    return rememberedStore;
  };
  const visitor = createVisitorId(store);
  const shell = createShell({ agentId, mode: options.mode, emitter, win, initial: options.view, openOn: host.openOn, focus: host.focus });
  const visitorZone = lazy(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const booking = createBookingStores({
    agentId,
    apiBase: options.apiBase,
    title: options.title,
    locale: options.locale,
    prefill: host.panelOptions.prefill,
    utm: host.panelOptions.utm,
    client: createBookingClient({ baseUrl: options.apiBase }),
    // Read on first use: the first Intl date formatter loads the browser's zone data (~80 ms at 4x CPU).
    get visitorTimeZone() {
      return visitorZone();
    },
    conversationId: () => chat().conversationId.value ?? visitor.get(),
    // Read on first use, like the chat: only the booking views need the remembered codes.
    get remembered() {
      return remembered();
    },
    // In the conversation's storage, under its TTL: the answers may be personal, like the messages.
    progress: createProgressMemory(store, win),
    // The widget's emitter: WidgetEventMap extends BookingEventMap, which TS cannot see through K.
    emit: emitter.emit as BookingEmit,
    now: () => new Date(now()),
  });

  // A booking made while the widget is here shows in the conversation, as a card.
  const stopBookingCards = emitter.on('booking:created', ({ booking: made }) => {
    const start = zonedToInstant(made.booking_date, made.start_time, made.timezone).toISOString();
    chat().noteBooking({ code: made.booking_code, start, ...(made.duration_label && { what: made.duration_label }) });
  });

  const stopPageMemory = rememberOpenPanel({
    options,
    shell,
    // Only the stores already made: one not made yet has nothing under way.
    underWay: () => (chatStore?.underWay() ?? false) || booking.underWay(),
    win,
    now,
  });

  const unread = createUnread(shell, chat);
  const stopLauncher = launcher
    ? effect(() => {
        launcher.setOpen(shell.isOpen.value);
        launcher.setUnread(unread.count.value);
      })
    : undefined;

  const draw = (strings: Strings, lang: string) =>
    render(h(App, { shell, chat, strings, lang, options, panelOptions: host.panelOptions, booking, now, launcher }), container);
  draw(host.strings, host.lang);

  let destroyed = false;
  return {
    open: (view) => !destroyed && shell.open(view),
    close: () => !destroyed && shell.close(),
    toggle: () => !destroyed && shell.toggle(),
    reset() {
      chat().clear();
      remembered().clear();
      booking.reset();
      visitor.clear();
      store.remove('teaser');
    },
    speak(strings, lang) {
      if (!destroyed) draw(strings, lang);
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      stopLauncher?.();
      stopBookingCards();
      stopPageMemory();
      unread.dispose();
      render(null, container);
      chatStore?.dispose();
      booking.dispose();
      rememberedStore?.dispose();
      shell.dispose();
    },
  };
}

export const claimTeaser: PanelModule['claimTeaser'] = ({ agentId, persist }, text, env) => {
  const store = createStore(persist, agentId, env);
  return store.read('teaser') !== text && store.write('teaser', text);
};

/** The module as the loader receives it. */
/** The panel's styles, with the launcher's parts that only the panel's code brings out (the teaser, the unread count). */
const panelCss = teaserCss + badgeCss + shellCss + bookingCss + chatCss;

export const panelModule: PanelModule = { mountPanel, defaultStrings, claimTeaser, resumeView, readPanelOptions, warmUp, css: panelCss };
