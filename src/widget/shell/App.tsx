// The panel inside the widget's shadow root, drawn once first opened: header, tabs and the three views.
// Focus moves in on open and back to the launcher (the loader's, ../launcher) on close; a full-screen
// panel is modal (Tab stays inside; ./shell locks the page's scrolling).
import { Component } from 'preact';
import type { BookingStores } from '../booking';
import type { Chat } from '../chat/store';
import type { Strings } from '../i18n';
import { textDirection } from '../i18n/direction';
import type { ResolvedOptions } from '../options/options';
import type { PanelOptions } from '../options/panel-options';
import type { LauncherControl } from '../panel/contract';
import { keepTabInside } from './focus-trap';
import { PanelHeader } from './PanelHeader';
import type { Shell } from './shell';
import { ViewTabs } from './ViewTabs';
import { Views } from './Views';

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

/** No focus request: the panel is closed. */
const CLOSED = -1;

export class App extends Component<AppProps> {
  /** The focus request of the last render (the shell's while open, CLOSED while closed). */
  renderedRequest = CLOSED;
  /** The focus request focus last moved for. */
  handledRequest = CLOSED;
  /** The frame the first focus waits for, while it waits. */
  firstFocusFrame = 0;
  /** What had focus inside the widget at the last render, if anything did. */
  focusedAtRender: Element | null = null;

  // Opening comes with a focus request; a later request (open() while open) moves focus again. A panel
  // mounted open (the loader opened it while this file loaded) comes with one when focus was in the loader's
  // stand-in; otherwise mounting moves nothing.
  override componentDidMount(): void {
    this.handledRequest = this.renderedRequest;
    // The panel just drawn is laid out with the next frame, and focus moves in then: focusing now would
    // make the browser lay the whole new panel out inside the click's task.
    if (this.renderedRequest > 0) this.firstFocusFrame = requestAnimationFrame(() => this.focusView());
  }

  override componentWillUnmount(): void {
    cancelAnimationFrame(this.firstFocusFrame);
  }

  override componentDidUpdate(): void {
    if (this.renderedRequest === this.handledRequest) return;
    this.handledRequest = this.renderedRequest;
    if (this.renderedRequest > 0) this.focusView();
    // Closed (an open bubble always has a request): back to the launcher, unless the visitor had already
    // moved on to the page.
    else if (this.focusedAtRender) this.props.launcher?.focus();
  }

  /** The panel's element, once drawn. */
  private panel(): HTMLElement | undefined {
    return this.base instanceof HTMLElement ? this.base : undefined;
  }

  /**
   * Into the view shown; on a touch screen the panel itself: focus in a field would bring the on-screen
   * keyboard up over it. A bubble's panel is fixed on screen, with its composer and headings in view: no
   * scrolling into view, which would make the browser lay the new panel out inside the click's task.
   */
  private focusView(): void {
    const panel = this.panel();
    const options = this.props.options.mode === 'bubble' ? { preventScroll: true } : undefined;
    const onTouchScreen = window.matchMedia?.('(pointer:coarse)').matches;
    const target = onTouchScreen ? panel : panel?.querySelector<HTMLElement>(IN_VIEW);
    target?.focus(options);
  }

  private onKeyDown = (event: KeyboardEvent): void => {
    const { shell, options } = this.props;
    if (event.key === 'Escape' && options.mode === 'bubble') {
      event.preventDefault();
      shell.close();
    } else if (event.key === 'Tab' && shell.fullScreen.peek()) {
      const panel = this.panel();
      if (panel) keepTabInside(panel, event);
    }
  };

  override render({ shell, chat, strings, lang, options, panelOptions, booking, now }: AppProps) {
    const isOpen = shell.isOpen.value;
    const bubble = options.mode === 'bubble';
    // Only a bubble's panel goes full screen (./shell), and a full-screen panel is modal.
    const modal = shell.fullScreen.value;
    const title = options.title ?? strings.defaultTitle;
    this.renderedRequest = isOpen ? shell.focusRequest.value : CLOSED;
    // Read while rendering, before the panel hides: a hidden element can lose focus before the commit.
    // Our root is the shadow root (./embedding/mount), whose activeElement is ours only.
    const root = this.base?.getRootNode();
    this.focusedAtRender = root instanceof ShadowRoot || root instanceof Document ? root.activeElement : null;

    // Open puts its view in `visited` first (./shell): drawn once opened, kept while closed.
    if (!shell.visited.value.size) return null;
    return (
      <div
        id="panel"
        class="panel"
        part="panel"
        tabIndex={-1}
        style={modal ? shell.viewport.value : undefined}
        role={bubble ? 'dialog' : 'region'}
        aria-labelledby="panel-title"
        aria-modal={modal ? 'true' : undefined}
        hidden={!isOpen}
        onKeyDown={this.onKeyDown}
      >
        <PanelHeader
          title={title}
          avatar={panelOptions.avatar}
          strings={strings}
          onNewConversation={() => {
            chat().clear(true);
            shell.open('chat');
          }}
          onClose={bubble ? shell.close : undefined}
        />
        <ViewTabs shell={shell} strings={strings} direction={textDirection(lang)} />
        <Views
          shell={shell}
          chat={chat}
          strings={strings}
          title={title}
          options={options}
          panelOptions={panelOptions}
          booking={booking}
          now={now}
        />
      </div>
    );
  }
}
