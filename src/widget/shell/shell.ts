// Open/closed, the current view, full-screen detection: the state the launcher, the panel and the
// public API share. Events are emitted here, once per real transition.
import { effect, signal, type ReadonlySignal } from '@preact/signals';
import type { Emitter } from '../platform/events';
import { isView, type Mode, type View } from '../options/options';
import { listen } from '../platform/listen';

import { FULL_SCREEN_QUERY } from '../launcher/full-screen';

export interface Shell {
  readonly isOpen: ReadonlySignal<boolean>;
  readonly view: ReadonlySignal<View>;
  /** Views shown at least once: they stay mounted so a half-done booking survives a tab switch. */
  readonly visited: ReadonlySignal<ReadonlySet<View>>;
  /** The bubble's panel covers the viewport (FULL_SCREEN_QUERY), so it is modal; never in inline mode (undefined: no query). */
  readonly fullScreen: ReadonlySignal<boolean | undefined>;
  /** Where the visual viewport is while the full-screen panel is open: above an on-screen keyboard. */
  readonly viewport: ReadonlySignal<{ top: number; height: number } | undefined>;
  /** Bumped when focus should move into the current view (open, or a switch from inside a view). */
  readonly focusRequest: ReadonlySignal<number>;
  /** Opens on `view`, else (none, or not a view: callers in plain JS) the current one. */
  open(view?: View): void;
  close(): void;
  toggle(): void;
  /** A tab click: switch views, focus stays on the tab. */
  select(view: View): void;
  dispose(): void;
}

/**
 * Stops the page from scrolling; the returned functions put back exactly what was there (longhands,
 * priority, and no style attribute if there was none). CSSOM writes are allowed under a strict CSP,
 * unlike style attributes.
 */
const lockScroll = (doc: Document): (() => void)[] =>
  [doc.documentElement, doc.body].flatMap((el) => {
    const { style } = el;
    const hadStyle = el.hasAttribute('style');
    return ['overflow-x', 'overflow-y'].map((name) => {
      const value = style.getPropertyValue(name);
      const priority = style.getPropertyPriority(name);
      style.setProperty(name, 'hidden', 'important');
      return () => {
        if (value) style.setProperty(name, value, priority);
        else style.removeProperty(name);
        if (!hadStyle && !el.getAttribute('style')) el.removeAttribute('style');
      };
    });
  });

export interface ShellSettings {
  agentId: string;
  mode: Mode;
  emitter: Emitter;
  win: Window;
  /** The view shown first. */
  initial: View;
  /** The loader has already opened the panel (and announced it) on this view: start open. */
  openOn?: View;
  /** Start with a focus request (the visitor was in the loader's stand-in panel). */
  focus?: boolean;
}

export function createShell({ agentId, mode, emitter, win, initial, openOn, focus }: ShellSettings): Shell {
  const inline = mode === 'inline';
  const isOpen = signal(inline || openOn !== undefined);
  const view = signal<View>(openOn ?? initial);
  const visited = signal<ReadonlySet<View>>(new Set(isOpen.value ? [view.value] : []));
  const focusRequest = signal(focus ? 1 : 0);
  // jsdom and some embedded browsers have no matchMedia.
  const query = inline ? undefined : win.matchMedia?.(FULL_SCREEN_QUERY);
  const fullScreen = signal(query?.matches);
  const stopQuery =
    query &&
    listen(query, 'change', (event: MediaQueryListEvent) => {
      fullScreen.value = event.matches;
    });
  const viewport = signal<{ top: number; height: number }>();
  // An open full-screen panel is modal: the page behind it must not scroll. It fills what the visitor
  // sees: an on-screen keyboard shrinks the visual viewport, not the layout one the CSS sizes it by.
  const unlock = effect(() => {
    const vv = win.visualViewport;
    if (!isOpen.value || !fullScreen.value) return;
    const undo = lockScroll(win.document);
    if (vv) {
      const follow = () => {
        viewport.value = { top: vv.offsetTop, height: vv.height };
      };
      follow();
      undo.push(listen(vv, 'resize', follow), listen(vv, 'scroll', follow));
    }
    return () => undo.forEach((stop) => stop());
  });

  const select = (next: View) => {
    view.value = next;
    // A new set only for a view not drawn yet: every open and tab click selects, and a new set draws the
    // panel again and recounts the unread replies.
    if (!visited.value.has(next)) visited.value = new Set(visited.value).add(next);
  };
  const emit = (type: 'open' | 'close') => emitter.emit(type, { agentId, view: view.value });

  const shell: Shell = {
    isOpen,
    view,
    visited,
    fullScreen,
    viewport,
    focusRequest,
    open(next) {
      select(isView(next) ? next : view.value);
      focusRequest.value++;
      if (isOpen.value) return;
      isOpen.value = true;
      emit('open');
    },
    close() {
      if (inline || !isOpen.value) return;
      isOpen.value = false;
      emit('close');
    },
    toggle() {
      if (isOpen.value) shell.close();
      else shell.open();
    },
    select,
    dispose() {
      stopQuery?.();
      unlock();
    },
  };
  return shell;
}
