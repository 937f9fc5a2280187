// The stand-in panel: drawn by the loader in the frame the panel will fill, the moment the visitor opens
// the widget before the panel's file has arrived (so something answers the click within a frame), and the
// calm message with Try again when that file cannot be loaded. The panel replaces it when it arrives.
import type { LauncherStrings } from '../i18n/launcher-strings';
import { listen } from '../platform/listen';
import { element, icon } from './dom';

export interface PlaceholderSettings {
  parent: HTMLElement;
  title: string | undefined;
  strings: LauncherStrings;
  /** Bubble mode: a dialog with Close (and Escape); inline: a region. */
  bubble: boolean;
  onClose(): void;
  onRetry(): void;
}

export interface Placeholder {
  readonly element: HTMLElement;
  /** Loading (the default) or failed, with Try again. */
  setFailed(failed: boolean): void;
  speak(strings: LauncherStrings): void;
  destroy(): void;
}

export function createPlaceholder({ parent, title, strings, bubble, onClose, onRetry }: PlaceholderSettings): Placeholder {
  const doc = parent.ownerDocument;
  let texts = strings;
  let failed = false;
  const titleText = element(doc, 'bdi');
  const heading = element(doc, 'h2', { class: 'title' }, [titleText]);
  const close = bubble ? element(doc, 'button', { type: 'button', class: 'icon' }, [icon(doc, 'close')]) : undefined;
  // A live region from the start: what it says next (loading, then failed) is announced.
  const body = element(doc, 'div', { class: 'pending', role: 'status' });
  const panel = element(
    doc,
    'div',
    { id: 'panel', class: 'panel stand-in', part: 'panel', tabindex: -1, role: bubble ? 'dialog' : 'region' },
    [element(doc, 'div', { class: 'header', part: 'header' }, close ? [heading, close] : [heading]), body],
  );
  const stops = [
    listen(panel, 'keydown', (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !bubble) return;
      event.preventDefault();
      onClose();
    }),
    ...(close ? [listen(close, 'click', onClose)] : []),
  ];
  parent.append(panel);

  const draw = () => {
    const name = title ?? texts.defaultTitle;
    panel.setAttribute('aria-label', name);
    panel.setAttribute('aria-busy', String(!failed));
    titleText.replaceChildren(name);
    close?.setAttribute('title', texts.close);
    if (!failed) {
      body.replaceChildren(element(doc, 'p', { class: 'loading' }, [texts.loading]));
      return;
    }
    const retry = element(doc, 'button', { type: 'button', class: 'btn' }, [texts.retry]);
    listen(retry, 'click', onRetry);
    body.replaceChildren(element(doc, 'p', {}, [texts.panelFailed]), retry);
  };
  draw();

  return {
    element: panel,
    setFailed(next) {
      if (next === failed) return;
      // Focus on Try again stays in the panel (on the panel itself) while the next attempt loads.
      const root = panel.getRootNode() as Document | ShadowRoot;
      const hadFocus = root.activeElement !== null && panel.contains(root.activeElement);
      failed = next;
      draw();
      if (hadFocus && !panel.contains(root.activeElement)) panel.focus();
    },
    speak(next) {
      texts = next;
      draw();
    },
    destroy() {
      stops.forEach((stop) => stop());
      panel.remove();
    },
  };
}
