// Open/closed, the current view, full-screen detection: the state the launcher, the panel and the
// public API share. Events are emitted here, once per real transition.
import { signal, type ReadonlySignal } from '@preact/signals';
import type { Emitter } from '../events';
import type { Mode, View } from '../options';

/** Below this width the bubble panel covers the viewport. Kept in step with shell.css. */
export const FULL_SCREEN_QUERY = '(max-width: 480px)';

export interface Shell {
  readonly mode: Mode;
  readonly isOpen: ReadonlySignal<boolean>;
  readonly view: ReadonlySignal<View>;
  /** Views shown at least once: they stay mounted so a half-done booking survives a tab switch. */
  readonly visited: ReadonlySignal<ReadonlySet<View>>;
  readonly fullScreen: ReadonlySignal<boolean>;
  /** Bumped when focus should move into the current view (open, or a switch from inside a view). */
  readonly focusRequest: ReadonlySignal<number>;
  open(view?: View): void;
  close(): void;
  toggle(): void;
  /** A tab click: switch views, focus stays on the tab. */
  select(view: View): void;
  dispose(): void;
}

export function createShell(agentId: string, mode: Mode, emitter: Emitter, win: Window, initial: View = 'chat'): Shell {
  const inline = mode === 'inline';
  const isOpen = signal(inline);
  const view = signal<View>(initial);
  const visited = signal<ReadonlySet<View>>(new Set(inline ? [initial] : []));
  const focusRequest = signal(0);
  const query = !inline && typeof win.matchMedia === 'function' ? win.matchMedia(FULL_SCREEN_QUERY) : undefined;
  const fullScreen = signal(query?.matches ?? false);
  const onQuery = (event: MediaQueryListEvent) => {
    fullScreen.value = event.matches;
  };
  query?.addEventListener('change', onQuery);

  const select = (next: View) => {
    view.value = next;
    if (!visited.value.has(next)) visited.value = new Set([...visited.value, next]);
  };

  const shell: Shell = {
    mode,
    isOpen,
    view,
    visited,
    fullScreen,
    focusRequest,
    open(next) {
      select(next ?? view.value);
      focusRequest.value++;
      if (isOpen.value) return;
      isOpen.value = true;
      emitter.emit('open', { agentId, view: view.value });
    },
    close() {
      if (inline || !isOpen.value) return;
      isOpen.value = false;
      emitter.emit('close', { agentId, view: view.value });
    },
    toggle() {
      if (isOpen.value) shell.close();
      else shell.open();
    },
    select,
    dispose() {
      query?.removeEventListener('change', onQuery);
    },
  };
  return shell;
}

/**
 * Stops the page behind a full-screen panel from scrolling; the returned function puts back exactly
 * what was there (longhands, priority, and no style attribute if there was none). CSSOM writes are
 * allowed under a strict CSP, unlike style attributes.
 */
export function lockScroll(doc: Document): () => void {
  const saved = [doc.documentElement, doc.body].map((el) => ({
    el,
    hadStyle: el.hasAttribute('style'),
    props: ['overflow-x', 'overflow-y'].map((name) => ({
      name,
      value: el.style.getPropertyValue(name),
      priority: el.style.getPropertyPriority(name),
    })),
  }));
  for (const { el, props } of saved) for (const { name } of props) el.style.setProperty(name, 'hidden', 'important');
  return () => {
    for (const { el, hadStyle, props } of saved) {
      for (const { name, value, priority } of props) {
        if (value) el.style.setProperty(name, value, priority);
        else el.style.removeProperty(name);
      }
      if (!hadStyle && el.getAttribute('style') === '') el.removeAttribute('style');
    }
  };
}
