// The tabs that switch views, after the WAI-ARIA APG tabs pattern: one tab stop (roving tabindex), the
// arrows follow the reading direction and wrap, Home and End; focus follows selection.
import type { TargetedKeyboardEvent } from 'preact';
import type { StringKey, Strings } from '../i18n';
import type { TextDirection } from '../i18n/direction';
import { VIEWS, type View } from '../options/options';
import type { Shell } from './shell';

/** Each view's tab label. */
const TAB_TEXT: Record<View, StringKey> = { chat: 'tabChat', booking: 'tabBook', lookup: 'tabLookup' };

/** The view `key` moves to from `current`, or undefined when the key is not one of the tabs' keys. */
function viewForKey(key: string, current: View, direction: TextDirection): View | undefined {
  const forward = direction === 'rtl' ? -1 : 1;
  const index = VIEWS.indexOf(current);
  const wrapped = (position: number) => VIEWS[(position + VIEWS.length) % VIEWS.length];
  switch (key) {
    case 'ArrowRight':
      return wrapped(index + forward);
    case 'ArrowLeft':
      return wrapped(index - forward);
    case 'Home':
      return VIEWS[0];
    case 'End':
      return VIEWS[VIEWS.length - 1];
    default:
      return undefined;
  }
}

interface ViewTabsProps {
  shell: Shell;
  strings: Strings;
  direction: TextDirection;
}

export function ViewTabs({ shell, strings, direction }: ViewTabsProps) {
  const current = shell.view.value;

  const onKeyDown = (event: TargetedKeyboardEvent<HTMLDivElement>) => {
    const view = viewForKey(event.key, current, direction);
    if (!view) return;
    event.preventDefault();
    shell.select(view);
    event.currentTarget.querySelector<HTMLElement>(`#tab-${view}`)?.focus();
  };

  // VIEWS never changes: the tabs need no keys, Preact matches them by position.
  return (
    <div class="tabs" role="tablist" aria-label={strings.sections} onKeyDown={onKeyDown}>
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
  );
}
