// The widget's root inside the shadow root: the launcher (bubble mode) and the panel, which is only
// rendered once first opened. Focus moves in on open and back to the launcher on close; a
// full-screen panel is modal (Tab stays inside, the page behind does not scroll).
import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { BookingView, LookupView, type BookingContext } from '../booking';
import { ChatView } from '../chat/ChatView';
import type { Chat } from '../chat/store';
import { fmt } from '../format';
import { textDirection, type StringKey, type Strings } from '../i18n';
import type { ResolvedOptions, View } from '../options';
import { chatIcon, closeIcon, newIcon } from './icons';
import { lockScroll, type Shell } from './shell';

export interface AppProps {
  shell: Shell;
  chat: Chat;
  strings: Strings;
  options: ResolvedOptions;
  booking: BookingContext;
  now: () => number;
}

const VIEWS: readonly { view: View; label: StringKey }[] = [
  { view: 'chat', label: 'tabChat' },
  { view: 'booking', label: 'tabBook' },
  { view: 'lookup', label: 'tabLookup' },
];

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab stops in order: hidden views and roving-tabindex tabs that are not current are skipped. */
function focusables(root: Element): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.tabIndex >= 0 && !el.closest('[hidden]'));
}

/** Where focus lands in a view: the composer in chat, else the view's heading or first control. */
function focusView(panel: HTMLElement, view: View): void {
  const region = panel.querySelector<HTMLElement>(`#aw-view-${view}`);
  const target =
    (view === 'chat' ? region?.querySelector<HTMLElement>('textarea') : undefined) ??
    region?.querySelector<HTMLElement>('[tabindex="-1"]') ??
    (region ? region.querySelector<HTMLElement>(FOCUSABLE) : null) ??
    panel.querySelector<HTMLElement>(`#aw-tab-${view}`);
  target?.focus();
}

function Tabs({ shell, strings, rtl }: { shell: Shell; strings: Strings; rtl: boolean }) {
  const current = shell.view.value;
  const onKeyDown = (event: KeyboardEvent) => {
    const index = VIEWS.findIndex((v) => v.view === current);
    const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 }[event.key];
    let next: number | undefined;
    if (step !== undefined) next = (index + step + VIEWS.length) % VIEWS.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = VIEWS.length - 1;
    const view = next === undefined ? undefined : VIEWS[next]?.view;
    if (!view) return;
    event.preventDefault();
    shell.select(view);
    (event.currentTarget as HTMLElement).querySelector<HTMLElement>(`#aw-tab-${view}`)?.focus();
  };
  return (
    <div class="aw-tabs" role="tablist" aria-label={strings.sections} onKeyDown={onKeyDown}>
      {VIEWS.map(({ view, label }) => (
        <button
          key={view}
          type="button"
          role="tab"
          id={`aw-tab-${view}`}
          class="aw-tab"
          aria-selected={view === current}
          aria-controls={`aw-view-${view}`}
          tabIndex={view === current ? 0 : -1}
          onClick={() => shell.select(view)}
        >
          {strings[label]}
        </button>
      ))}
    </div>
  );
}

function Panel({ shell, chat, strings, options, booking, now, panelRef }: AppProps & { panelRef: RefObject<HTMLDivElement> }) {
  const bubble = shell.mode === 'bubble';
  const isOpen = shell.isOpen.value;
  const modal = bubble && shell.fullScreen.value;
  const current = shell.view.value;
  const visited = shell.visited.value;
  const title = options.title ?? strings.defaultTitle;
  const openBooking = () => shell.open('booking');

  const onKeyDown = (event: KeyboardEvent) => {
    const panel = panelRef.current;
    if (!panel) return;
    if (event.key === 'Escape' && bubble) {
      event.preventDefault();
      shell.close();
      return;
    }
    if (event.key !== 'Tab' || !modal) return;
    const items = focusables(panel);
    const first = items[0];
    const last = items[items.length - 1];
    const active = (panel.getRootNode() as ShadowRoot | Document).activeElement;
    if (event.shiftKey && (active === first || active === panel)) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  const content = (view: View) => {
    if (view === 'chat')
      return (
        <ChatView
          chat={chat}
          strings={strings}
          title={title}
          greeting={options.greeting ?? strings.defaultGreeting}
          locale={options.locale}
          now={now}
          visible={isOpen && current === 'chat'}
          openBooking={openBooking}
        />
      );
    const Booking = view === 'booking' ? BookingView : LookupView;
    return <Booking context={booking} strings={strings} />;
  };

  return (
    <div
      ref={panelRef}
      id="aw-panel"
      class="aw-panel"
      role={bubble ? 'dialog' : 'region'}
      aria-labelledby="aw-title"
      aria-modal={modal ? 'true' : undefined}
      hidden={!isOpen}
      onKeyDown={onKeyDown}
    >
      <div class="aw-header">
        <h2 id="aw-title" class="aw-title">
          {title}
        </h2>
        <button
          type="button"
          class="aw-icon"
          aria-label={strings.newConversation}
          title={strings.newConversation}
          onClick={() => {
            chat.clear();
            shell.open('chat');
          }}
        >
          {newIcon()}
        </button>
        {bubble && (
          <button type="button" class="aw-icon" aria-label={strings.close} title={strings.close} onClick={shell.close}>
            {closeIcon()}
          </button>
        )}
      </div>
      <Tabs shell={shell} strings={strings} rtl={textDirection(options.locale) === 'rtl'} />
      {VIEWS.map(({ view }) => (
        <div
          key={view}
          id={`aw-view-${view}`}
          class="aw-view"
          role="tabpanel"
          aria-labelledby={`aw-tab-${view}`}
          hidden={view !== current}
        >
          {visited.has(view) && content(view)}
        </div>
      ))}
    </div>
  );
}

export function App(props: AppProps) {
  const { shell, strings, options } = props;
  const launcher = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(shell.isOpen.value);
  const isOpen = shell.isOpen.value;
  const focusRequest = shell.focusRequest.value;
  const bubble = shell.mode === 'bubble';
  const fullScreen = bubble && shell.fullScreen.value;
  const rendered = isOpen || shell.visited.value.size > 0;
  const returnFocus = useRef(false);
  if (wasOpen.current && !isOpen) {
    // Read before the panel hides: a hidden element can lose focus before effects run.
    const root = launcher.current?.getRootNode();
    returnFocus.current = root instanceof ShadowRoot && root.activeElement !== null;
  }

  useLayoutEffect(() => {
    const el = panel.current;
    if (isOpen && el && focusRequest > 0) focusView(el, shell.view.value);
  }, [isOpen, focusRequest]);

  useLayoutEffect(() => {
    // Back to the launcher, unless the visitor had already moved on to the page.
    if (wasOpen.current && !isOpen && returnFocus.current) launcher.current?.focus();
    wasOpen.current = isOpen;
  }, [isOpen]);

  useEffect(() => {
    const doc = launcher.current?.ownerDocument ?? panel.current?.ownerDocument;
    if (isOpen && fullScreen && doc) return lockScroll(doc);
    return undefined;
  }, [isOpen, fullScreen]);

  const title = options.title;
  const classes = ['aw', `aw--${options.position}`, `aw--${options.mode}`, `aw--${options.theme}`, fullScreen ? 'aw--full' : '']
    .filter(Boolean)
    .join(' ');
  // title="": an <agent-widget title="…"> host must not turn its title into a tooltip over the panel.
  return (
    <div class={classes} dir={textDirection(options.locale)} title="">
      {bubble && (
        <button
          ref={launcher}
          type="button"
          class="aw-launcher"
          aria-label={title ? fmt(strings.launcherLabel, { title }) : strings.defaultTitle}
          aria-expanded={isOpen}
          aria-controls="aw-panel"
          onClick={shell.toggle}
        >
          {isOpen ? closeIcon() : chatIcon()}
        </button>
      )}
      {rendered && <Panel {...props} panelRef={panel} />}
    </div>
  );
}
