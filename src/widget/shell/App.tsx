// The panel inside the widget's shadow root, drawn once first opened: header, tabs and the three views.
// Focus moves in on open and back to the launcher (the loader's, ../launcher) on close; a full-screen
// panel is modal (Tab stays inside; ./shell locks the page's scrolling).
import { h } from 'preact';
import { BookingView, LookupView, type BookingStores } from '../booking';
import { ChatView } from '../chat/ChatView';
import type { Chat } from '../chat/store';
import type { StringKey, Strings } from '../i18n';
import { textDirection } from '../i18n/direction';
import { VIEWS, type ResolvedOptions, type View } from '../options/options';
import type { PanelOptions } from '../options/panel-options';
import { Icon } from '../platform/Icon';
import type { LauncherControl } from '../panel/contract';
import type { Shell } from './shell';
import { Reactive } from '../platform/reactive';

export interface AppProps {
  shell: Shell;
  /** The chat store, created on first use. */
  chat: () => Chat;
  strings: Strings;
  /** The language of `strings` (BCP 47): the root's lang and dir follow it, not the page's. */
  lang: string;
  options: ResolvedOptions;
  panelOptions: PanelOptions;
  booking: BookingStores;
  now: () => number;
  /** The loader's launcher (bubble mode): focus goes back to it on close. */
  launcher: LauncherControl | undefined;
}

/**
 * Where focus lands on open: in the view shown (the one not hidden), the composer in chat, a booking
 * view's heading (every step has one, with tabindex="-1"). One selector finds either: the chat has no
 * tabindex="-1", and a booking view's heading comes before its fields.
 */
const IN_VIEW = '.view:not([hidden]) :is(textarea,[tabindex="-1"])';

/** Each view's tab label. */
const TAB_TEXT: Record<View, StringKey> = { chat: 'tabChat', booking: 'tabBook', lookup: 'tabLookup' };

/** Focuses what `selector` finds in the panel, or the panel itself when it matches: no refs. */
const focusIn = (app: App, selector: string, options?: FocusOptions) => {
  const panel = app.base instanceof HTMLElement ? app.base : undefined;
  (panel?.matches(selector) ? panel : panel?.querySelector<HTMLElement>(selector))?.focus(options);
};

export class App extends Reactive<AppProps> {
  // Declared only: view() sets request and focused before any commit reads them, so no class
  // fields are emitted for them.
  /** The last render's focus request (the shell's while open, -1 while closed), and the one focus last moved for. */
  declare request: number;
  declare moved?: number;
  /** The frame the first focus waits for, while it waits. */
  declare firstFocus?: number;
  /** What had focus inside the widget at the last render, if anything did. */
  declare focused: Element | null | undefined;
  // Opening comes with a focus request; a later request (open() while open) moves focus again. A panel
  // mounted open (the loader opened it while this file loaded) comes with one when focus was in the loader's
  // stand-in; otherwise mounting moves nothing.
  override componentDidMount(): void {
    this.moved = this.request;
    // The panel just drawn is laid out with the next frame, and focus moves in then: focusing now would
    // make the browser lay the whole new panel out inside the click's task.
    if (this.request > 0) this.firstFocus = requestAnimationFrame(() => this.focusView());
  }

  override componentWillUnmount(): void {
    cancelAnimationFrame(this.firstFocus ?? 0);
    super.componentWillUnmount();
  }

  override componentDidUpdate(): void {
    if (this.request === this.moved) return;
    this.moved = this.request;
    if (this.request > 0) this.focusView();
    // Closed (an open bubble always has a request): back to the launcher, unless the visitor had already
    // moved on to the page.
    else if (this.focused) this.props.launcher?.focus();
  }

  /**
   * Into the view shown; on a touch screen the panel itself: focus in a field would bring the on-screen
   * keyboard up over it. A bubble's panel is fixed on screen, with its composer and headings in view: no
   * scrolling into view, which would make the browser lay the new panel out inside the click's task.
   */
  private focusView(): void {
    const options = this.props.options.mode === 'bubble' ? { preventScroll: true } : undefined;
    focusIn(this, window.matchMedia?.('(pointer:coarse)').matches ? '#panel' : IN_VIEW, options);
  }

  view({ shell, chat, strings, lang, options, panelOptions, booking, now }: AppProps) {
    const isOpen = shell.isOpen.value;
    const current = shell.view.value;
    const visited = shell.visited.value;
    const bubble = options.mode === 'bubble';
    // Only a bubble's panel goes full screen (./shell).
    const modal = shell.modal.value;
    const dir = textDirection(lang);
    const title = options.title ?? strings.defaultTitle;
    this.request = isOpen ? shell.focusRequest.value : -1;
    // Read while rendering, before the panel hides: a hidden element can lose focus before the commit.
    // Our root is the shadow root (./embedding/mount), whose activeElement is ours only.
    this.focused = (this.base?.getRootNode() as ShadowRoot | undefined)?.activeElement;

    const onPanelKey = (event: KeyboardEvent) => {
      // Listened for on the panel itself, so currentTarget is the panel.
      const el = event.currentTarget as HTMLElement;
      if (event.key === 'Escape' && bubble) {
        event.preventDefault();
        shell.close();
      } else if (event.key === 'Tab' && modal) {
        // Its tab stops in order: disabled controls, hidden views and roving-tabindex tabs not current are
        // skipped. Reversed for Shift+Tab, so the edge to leave by is always the last item and the wrap
        // target the first.
        const items = Array.from(el.querySelectorAll<HTMLElement>('a[href],button,input,textarea,[tabindex]')).filter(
          (item) => item.tabIndex >= 0 && !item.matches(':disabled') && !item.closest('[hidden]'),
        );
        if (event.shiftKey) items.reverse();
        // A key goes to the focused element: the target is what has focus (our tree has no shadow roots of its own).
        const active = event.target;
        if (active === items.at(-1) || (event.shiftKey && active === el)) {
          event.preventDefault();
          items[0]?.focus();
        }
      }
    };

    /** APG tabs: arrows follow the reading direction and wrap; Home and End; focus follows selection. */
    const onTabKey = (event: KeyboardEvent) => {
      const index = VIEWS.indexOf(current);
      const step = dir === 'rtl' ? -1 : 1;
      const moves: Partial<Record<string, number>> = { ArrowRight: index + step, ArrowLeft: index - step, Home: 0, End: -1 };
      // One lap added, so -1 wraps to the last; a key with no move is NaN, which names no view.
      const view = VIEWS[(Number(moves[event.key]) + VIEWS.length) % VIEWS.length];
      if (!view) return;
      event.preventDefault();
      shell.select(view);
      focusIn(this, `#tab-${view}`);
    };

    // Open puts its view in `visited` first (./shell): drawn once opened, kept while closed.
    if (!visited.size) return null;
    return (
      <div
        id="panel"
        class="panel"
        part="panel"
        tabIndex={-1}
        style={modal ? shell.viewport.value : undefined}
        role={bubble ? 'dialog' : 'region'}
        aria-label={title}
        aria-modal={modal ? 'true' : undefined}
        hidden={!isOpen}
        onKeyDown={onPanelKey}
      >
        <div class="header" part="header">
          {/* Decorative: the title names the panel. A broken image hides rather than showing its icon. */}
          {panelOptions.avatar && (
            <img class="avatar" part="avatar" src={panelOptions.avatar} alt="" onError={(e) => (e.currentTarget.hidden = true)} />
          )}
          <h2 class="title">
            <bdi>{title}</bdi>
          </h2>
          {/* Labelled, not a bare "+"; where the label would squeeze the title, the icon alone, named by it (shell.css). */}
          <button
            type="button"
            class="icon new"
            onClick={() => {
              chat().clear(true);
              shell.open('chat');
            }}
          >
            <Icon name="new" />
            <span>{strings.newConversation}</span>
          </button>
          {/* Named by its tooltip alone: an aria-label equal to the title is read twice (name, then description). */}
          {bubble && (
            <button type="button" class="icon" title={strings.close} onClick={shell.close}>
              <Icon name="close" />
            </button>
          )}
        </div>
        {/* VIEWS never changes: tabs and views need no keys, Preact matches them by position. */}
        <div class="tabs" role="tablist" aria-label={strings.sections} onKeyDown={onTabKey}>
          {VIEWS.map((view) => (
            <button
              type="button"
              role="tab"
              id={`tab-${view}`}
              class="tab"
              aria-selected={view === current}
              aria-controls={`view-${view}`}
              tabIndex={view === current ? 0 : -1}
              onClick={() => shell.select(view)}
            >
              {strings[TAB_TEXT[view]]}
            </button>
          ))}
        </div>
        {VIEWS.map((view) => (
          <div id={`view-${view}`} class="view" role="tabpanel" aria-labelledby={`tab-${view}`} hidden={view !== current}>
            {visited.has(view) &&
              (view === 'chat' ? (
                <ChatView
                  chat={chat()}
                  strings={strings}
                  title={title}
                  greeting={panelOptions.greeting ?? strings.defaultGreeting}
                  locale={options.locale}
                  now={now}
                  visible={isOpen && current === 'chat'}
                  openBooking={() => shell.open('booking')}
                  starters={panelOptions.starters}
                />
              ) : (
                h(view === 'booking' ? BookingView : LookupView, { stores: booking, strings })
              ))}
          </div>
        ))}
      </div>
    );
  }
}
