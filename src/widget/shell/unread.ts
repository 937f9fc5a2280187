// The launcher's unread count: replies that came while the panel was closed (a pending one, or another
// tab's), counted until it opens; after a cleared conversation every reply is unread once the last seen
// one is gone.
import { computed, effect, signal, type ReadonlySignal } from '@preact/signals';
import type { Chat } from '../chat/store';
import type { Shell } from './shell';

export interface Unread {
  /** Undefined for none, so neither the launcher nor its status shows a count. */
  readonly count: ReadonlySignal<number | undefined>;
  dispose(): void;
}

export function createUnread(shell: Shell, chat: () => Chat): Unread {
  const replies = computed(() =>
    shell.visited.value.has('chat') ? chat().messages.value.filter((message) => message.role === 'agent') : [],
  );
  /** The last reply the visitor could see (the panel open): the ones after it are unread. */
  const lastSeen = signal<string | undefined>(undefined);
  const stop = effect(() => {
    if (shell.isOpen.value) lastSeen.value = replies.value.at(-1)?.id;
  });
  const count = computed(() => {
    const list = replies.value;
    const unread = list.length - 1 - list.findIndex((reply) => reply.id === lastSeen.value);
    return unread > 0 ? unread : undefined;
  });
  return { count, dispose: stop };
}
