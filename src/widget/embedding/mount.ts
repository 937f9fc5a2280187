// Mounts one widget: a host element of our own with an open shadow root, constructable stylesheets,
// the stores, and the Preact tree. The script tag (entry.ts) and bundler users both come through here.
import { effect, signal } from '@preact/signals-core';
import { h, render } from 'preact';
import { createBookingClient } from '../../core/booking-client';
import { bookingCss, createBookingStores } from '../booking';
import type { BookingEmit } from '../booking/types';
import { createChatClient } from '../chat/client';
import { createChat, type Chat } from '../chat/store';
import { createEmitter, type Emitter, type Handler, type WidgetEvent } from '../platform/events';
import { defaultStrings, type Strings } from '../i18n';
import { languageOf, loadLanguage } from '../i18n/languages';
import { readOptions, type ResolvedOptions, type View, type WidgetOptions } from '../options/options';
import { createRememberedBookings, createStore, createVisitorId, type RememberedBookingsStore } from '../platform/storage';
import chatCss from '../chat/chat.css?inline';
import shellCss from '../shell/shell.css?inline';
import { adoptStyles, hostCss } from '../options/theme';
import { App } from '../shell/App';
import { createShell } from '../shell/shell';
import { VERSION } from '../platform/version';

export interface WidgetHandle {
  open(view?: View): void;
  close(): void;
  toggle(): void;
  on<K extends WidgetEvent>(type: K, handler: Handler<K>): () => void;
  /** Forgets the visitor's stored conversation, booking codes and id. */
  reset(): void;
  destroy(): void;
  readonly version: string;
}

export interface MountDeps {
  /** Shared with the global API, so handlers added before init() hear `ready`. */
  emitter?: Emitter;
  /** Injected clock (epoch ms) for storage stamps and countdowns. */
  now?: () => number;
  /** The owner's element that holds the shadow root (<agent-widget>) instead of a <div> of ours. */
  host?: HTMLElement;
  /**
   * The URL of the script the widget came in (widget.js, embed.js): a language other than English is
   * fetched from its folder (locales/<code>.js). Bundler users pass the dictionary in `strings` instead.
   * Empty (an inline script) counts as none.
   */
  scriptUrl?: string;
}

/**
 * Validates `options` (a console error and undefined when unusable) and mounts into `container`:
 * document.body for the floating bubble, or the element an inline panel should fill.
 */
export function mount(container: Element, options: WidgetOptions, deps: MountDeps = {}): WidgetHandle | undefined {
  const resolved = readOptions(options, container.ownerDocument);
  return resolved ? mountResolved(container, resolved, deps) : undefined;
}

export function mountResolved(container: Element, options: ResolvedOptions, deps: MountDeps): WidgetHandle {
  const doc = container.ownerDocument;
  const win = doc.defaultView ?? window;
  const { now = Date.now, emitter = createEmitter(), scriptUrl, host: ownerHost } = deps;
  const { agentId } = options;
  const code = languageOf(options.locale);

  // Ours goes in at once, last in the container (a bubble's: last in <body>); nothing is drawn in it yet.
  const host = ownerHost ?? container.appendChild(doc.createElement('div'));
  if (!ownerHost) host.setAttribute('data-agent-widget', '');
  // A remounted element keeps its shadow root: attachShadow works once per element.
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  // The launcher's rules now; the chat's and booking's when the panel first opens (parsing them all cost
  // the host page's load a few ms more at 4x CPU).
  adoptStyles(root, hostCss(options, !!ownerHost) + shellCss);

  const store = createStore(options.persist, agentId, { win, now });
  // Created on first use (first open, or booking asking for the conversation id), so the stored
  // conversation is not read or parsed on the host page's load path.
  let chatStore: Chat | undefined;
  const chat = (): Chat =>
    (chatStore ??= createChat({ agentId, client: createChatClient(options.chatUrl), store, emitter, win, now }));
  let rememberedStore: RememberedBookingsStore | undefined;
  const remembered = (): RememberedBookingsStore => (rememberedStore ??= createRememberedBookings(store));
  const visitor = createVisitorId(store);
  const shell = createShell(agentId, options.mode, emitter, win, options.view);
  // The teaser: after its delay, once per visitor and text while storage keeps the note (30 days), never
  // once the panel has been opened (an inline one always has), and not where the panel would be full
  // screen: on a phone it would cover the page. No teaser, no timer.
  const teaser = signal(false);
  const teaserText = options.teaser;
  const teaserTimer =
    teaserText &&
    setTimeout(() => {
      teaser.value =
        !shell.visited.value.size && !shell.modal.value && store.read('teaser') !== teaserText && store.write('teaser', teaserText);
    }, options.teaserDelay * 1000);
  /** Set by the first speak(): the idle callback and the first open both ask, the language is drawn once. */
  let speaking: Promise<void> | undefined;
  const stopStyling = effect(function () {
    if (shell.isOpen.value) {
      this.dispose();
      // Either order draws the same: no rule of one sets a property that one of the other sets on the same
      // element (chat.css scopes its element rules under .bubble, booking's classes are its own). This one
      // gzips 13 B smaller.
      adoptStyles(root, bookingCss + chatCss, true);
      speak();
    }
  });
  let zone: string | undefined;
  const booking = createBookingStores({
    // The options as resolved: the booking reads agentId, apiBase, title, locale, prefill and utm of
    // them (BookingContext names no others; nothing there lists its keys).
    ...options,
    client: createBookingClient({ baseUrl: options.apiBase }),
    // Read on first use: the first Intl date formatter loads the browser's zone data (~80 ms at 4x CPU).
    get visitorTimeZone() {
      return (zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone);
    },
    conversationId: () => chat().conversationId.value ?? visitor.get(),
    // Read on first use, like the chat: only the booking views need the remembered codes.
    get remembered() {
      return remembered();
    },
    // The widget's emitter: WidgetEventMap extends BookingEventMap, which TS cannot see through K.
    emit: emitter.emit as BookingEmit,
    now: () => new Date(now()),
  });

  // `lang` names the language of the text: the fetched one, else English, unless a bundler user passed
  // their own dictionary in `strings` (then `locale` names it). The text is English with the
  // language's and then the owner's overrides on top (both checked by pickStrings).
  const draw = (dictionary?: Partial<Strings>) => {
    const lang = dictionary ? code : !scriptUrl && Object.keys(options.strings).length ? options.locale : 'en';
    render(h(App, { shell, chat, strings: { ...defaultStrings, ...dictionary, ...options.strings }, lang, options, booking, now, teaser }), root);
  };
  draw();
  /** The language's dictionary, fetched once (./i18n/languages) and drawn when it arrives. */
  function speak(): void {
    if (scriptUrl && code !== 'en')
      speaking ??= loadLanguage(code, scriptUrl).then((dictionary) => {
        if (dictionary && !destroyed) draw(dictionary);
      });
  }
  // When the browser is idle, or on the first open if sooner (an inline panel opens at once): the
  // launcher never waits for it.
  (win.requestIdleCallback ?? setTimeout)(speak);

  let destroyed = false;
  // After the current task, so handlers added right after init() still hear it.
  queueMicrotask(() => {
    if (!destroyed) emitter.emit('ready', { agentId, version: VERSION });
  });

  return {
    version: VERSION,
    open: (view) => !destroyed && shell.open(view),
    close: () => !destroyed && shell.close(),
    toggle: () => !destroyed && shell.toggle(),
    on: emitter.on,
    reset() {
      chat().clear();
      remembered().clear();
      visitor.clear();
      store.remove('teaser');
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      stopStyling();
      clearTimeout(teaserTimer);
      render(null, root);
      if (!ownerHost) host.remove();
      chatStore?.dispose();
      booking.dispose();
      rememberedStore?.dispose();
      shell.dispose();
    },
  };
}
