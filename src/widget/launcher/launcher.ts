// The closed widget: the launcher button with its unread count, and the owner's teaser beside it. Drawn by
// the loader with DOM calls (no Preact in widget.js); the panel drives it through LauncherControl.
import { fmt } from '../i18n/format';
import type { LauncherStrings } from '../i18n/launcher-strings';
import type { LauncherControl } from '../panel/contract';
import { listen } from '../platform/listen';
import { element, icon, setAttributes } from './dom';

export interface LauncherSettings {
  /** The widget's root element: the teaser, the launcher and its status go in first. */
  parent: HTMLElement;
  /** The owner's title, if any: the launcher's name says it. */
  title: string | undefined;
  strings: LauncherStrings;
  onToggle(): void;
  /** Pointer over, focus or touch: the visitor may be about to open, so the panel's file is fetched. */
  onIntent(): void;
}

export interface Launcher extends LauncherControl {
  /** The panel has been open at least once. */
  readonly opened: boolean;
  /** Shows the teaser's text beside the launcher until Close or an open. */
  showTeaser(text: string): void;
  speak(strings: LauncherStrings): void;
  destroy(): void;
}

export function createLauncher({ parent, title, strings, onToggle, onIntent }: LauncherSettings): Launcher {
  const doc = parent.ownerDocument;
  let texts = strings;
  let open = false;
  let opened = false;
  let unread: number | undefined;
  let teaser: HTMLElement | undefined;

  // The count is drawn by CSS from data-unread: the launcher's name stays its label, and the status beside
  // it says the count politely, once.
  const button = element(doc, 'button', {
    type: 'button',
    class: 'launcher',
    part: 'launcher',
    'aria-expanded': 'false',
    'aria-controls': 'panel',
    'aria-describedby': 'unread',
  });
  const status = element(doc, 'span', { id: 'unread', class: 'sr', role: 'status' });
  parent.append(button, status);
  const stops = [
    listen(button, 'click', onToggle),
    ...['pointerenter', 'focus', 'touchstart'].map((type) => listen(button, type, onIntent, { once: true, passive: true })),
  ];

  const draw = () => {
    setAttributes(button, {
      'aria-label': title === undefined ? texts.defaultTitle : fmt(texts.launcherLabel, { title }),
      'aria-expanded': String(open),
      'data-unread': unread,
    });
    button.replaceChildren(icon(doc, open ? 'close' : 'chat'));
    status.textContent = unread === undefined ? '' : fmt(texts.unread, { count: unread });
    teaser?.querySelector('.icon')?.setAttribute('title', texts.close);
  };
  draw();

  const hideTeaser = () => {
    teaser?.remove();
    teaser = undefined;
  };

  return {
    get opened() {
      return opened;
    },
    setOpen(next) {
      open = next;
      // An offer is moot once the panel has been opened.
      if (open) {
        opened = true;
        hideTeaser();
      }
      draw();
    },
    setUnread(count) {
      if (count === unread) return;
      unread = count;
      draw();
    },
    focus: () => button.focus(),
    showTeaser(text) {
      const close = element(doc, 'button', { type: 'button', class: 'icon' }, [icon(doc, 'close')]);
      const offer = element(doc, 'button', { type: 'button', dir: 'auto' }, [text]);
      // Not announced: an offer nobody asked for must not interrupt a screen reader. It comes before the
      // launcher, so Tab reaches it first.
      teaser = element(doc, 'div', { class: 'teaser', part: 'teaser' }, [offer, close]);
      listen(offer, 'click', onToggle);
      listen(offer, 'pointerenter', onIntent, { once: true });
      listen(close, 'click', () => {
        hideTeaser();
        button.focus();
      });
      parent.insertBefore(teaser, button);
      draw();
    },
    speak(next) {
      texts = next;
      draw();
    },
    destroy() {
      stops.forEach((stop) => stop());
      hideTeaser();
      button.remove();
      status.remove();
    },
  };
}
