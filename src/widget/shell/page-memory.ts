// The panel across the pages of one site: a bubble left open on a view, with a conversation, a draft or
// a booking under way, opens on that view on the next page of the site in the same tab (a link followed,
// a reload, a step back), as Intercom's and Crisp's do. Kept in the tab's own storage, so another tab
// opens closed; nothing at all with data-persist="none".
import { isRecord } from '../../core/guards';
import { isView, type ResolvedOptions, type View } from '../options/options';
import { listen } from '../platform/listen';
import { createStore, type StoreEnv } from '../platform/storage';
import type { Shell } from './shell';

/** How long after a page is left the next one opens the panel again: a page load, not a return days later. */
export const RESUME_WITHIN_MS = 30 * 60 * 1000;

type PageOptions = Pick<ResolvedOptions, 'agentId' | 'persist'>;

const tabStore = ({ agentId, persist }: PageOptions, env: StoreEnv) => createStore(persist === 'none' ? 'none' : 'session', agentId, env);

/** The view to open on, when the previous page of the site left the panel open on it a moment ago. */
export function resumeView(options: PageOptions, env: StoreEnv): View | undefined {
  const stored = tabStore(options, env).read('page');
  if (!isRecord(stored)) return undefined;
  const { view, leftAt } = stored;
  return isView(view) && typeof leftAt === 'number' && env.now() - leftAt <= RESUME_WITHIN_MS ? view : undefined;
}

export interface PageMemorySettings extends StoreEnv {
  options: Pick<ResolvedOptions, 'agentId' | 'persist' | 'mode'>;
  shell: Shell;
  /** The visitor has something going that the next page should show: a conversation, a draft, a booking under way. */
  underWay: () => boolean;
}

/**
 * Notes, each time the page is hidden (which a link followed, a reload or a closed tab does first),
 * whether the panel is open with something under way, and on which view; the returned function stops.
 */
export function rememberOpenPanel({ options, shell, underWay, win, now }: PageMemorySettings): () => void {
  const store = tabStore(options, { win, now });
  // Written on every change of visibility, as the chat keeps its typed text: either way it is the truth.
  return listen(win.document, 'visibilitychange', () => {
    if (shell.isOpen.peek() && options.mode !== 'inline' && underWay()) store.write('page', { view: shell.view.peek(), leftAt: now() });
    else store.remove('page');
  });
}
