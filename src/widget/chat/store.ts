// The conversation: messages in a signal store, sending with the failure rows of the design table,
// bounded retries, persistence (with the draft and what did not get through) and second-tab sync, within
// size bounds, and Undo of New conversation.
// Components re-render asynchronously, so an action's several writes show as one update without batch().
import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import type { Emitter, Rating } from '../platform/events';
import { classify, errorEvent, type Failure, type WidgetErrorEvent } from '../platform/failure';
import type { StringKey } from '../i18n';
import { isText, randomId, type Store } from '../platform/storage';
import { cleanSources, type ChatClient } from './client';
import { logError, logWarning } from '../platform/log';
import { listen } from '../platform/listen';
import { isRecord } from '../../core/guards';
import { isSafeConversationId, REPLY_KEPT_MS } from '../../core/shapes/chat';
import { DEFAULT_BUSY_WAIT_S, MAX_AUTO_WAIT_S, reasonOf, refusalText, UNREACHABLE_WAITS_S } from './failure-reasons';
import { bounded, cut, INTERRUPTED, MAX_MESSAGE_CHARS, parseMessages, STOPPED, type BookedCard, type ChatMessage } from './messages';

export type { ChatMessage } from './messages';

export interface Chat {
  readonly messages: ReadonlySignal<ChatMessage[]>;
  readonly draft: Signal<string>;
  readonly sending: ReadonlySignal<boolean>;
  /** Why the composer's text came back (a 400 or 413), as a dictionary key. */
  readonly composerError: Signal<StringKey | undefined>;
  readonly conversationId: ReadonlySignal<string | undefined>;
  /** Sends `starter` (a starter question), else the draft. */
  send(starter?: string): void;
  retry(id: string): void;
  /** Stops waiting for the pending reply: its request is aborted, the message kept to send again. */
  stop(): void;
  /** The visitor's thumb on reply `id`: kept on the message and emitted as message:feedback, once per change. */
  rate(id: string, rating: Rating): void;
  /** A booking was made: the conversation shows it as a card, and stops offering to book. */
  noteBooking(card: BookedCard): void;
  /**
   * New conversation: forget the conversation here and in storage. `undoable` (the visitor's button, not
   * the owner's reset()) offers `undo` until the visitor sends or another tab changes the conversation.
   */
  clear(undoable?: boolean): void;
  /** Brings back the conversation the visitor cleared, with its id and stored copy. */
  readonly undo: ReadonlySignal<(() => void) | undefined>;
  /** There is a conversation or a draft. */
  underWay(): boolean;
  dispose(): void;
}

export interface ChatOptions {
  agentId: string;
  client: ChatClient;
  store: Store;
  emitter: Emitter;
  win: Window;
  now: () => number;
}
/** The owner's console line for a chat proxy that is missing or refuses this page: what to change. */
function misconfiguredLine({ kind, status, code }: Failure, url: string, pageOrigin: string): string {
  const answer = `${status}${code ? ` ${code}` : ''}`;
  if (kind === 'notFound') return `No chat proxy at ${url} (${answer}).`;
  if (code === 'origin_not_allowed')
    return `The chat proxy at ${url} does not allow this page (${answer}): add ${pageOrigin} to its allowedOrigins.`;
  return `The chat proxy refused this site or agent at ${url} (${answer}).`;
}

export function createChat({ agentId, client, store, emitter, win, now }: ChatOptions): Chat {
  const messages = signal<ChatMessage[]>([]);
  const conversationId = signal<string>();
  const draft = signal('');
  const composerError = signal<StringKey>();
  const sending = computed(() => messages.value.some((m) => m.status === 'sending'));
  const undo = signal<() => void>();

  /** Signals every request in flight; replaced when they are aborted, for the requests after. */
  let requests = new AbortController();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /**
   * The bounds: automatic resends spent, per cause and message, keyed cause + id. One after a 429 (`busy`),
   * one on the `online` event (`online`), UNREACHABLE_WAITS_S.length while unreachable (`unreachable`).
   */
  // A plain object: every key starts with its cause, so none is a name Object.prototype has.
  const spent: Record<string, number> = {};
  /** Counts one more automatic resend of `key`; returns how many were spent before it. */
  const spend = (key: string): number => {
    const before = spent[key] ?? 0;
    spent[key] = before + 1;
    return before;
  };

  /** The message `id`, unless it is gone (a new conversation, or the chat disposed). */
  const find = (id: string) => messages.value.find((m) => m.id === id);
  const without = (id: string) => messages.value.filter((m) => m.id !== id);
  /** The messages with `patch` applied to message `id`. */
  const updated = (id: string, patch: Partial<ChatMessage>) => messages.value.map((m) => (m.id === id ? { ...m, ...patch } : m));
  /** A request's or an event's `fields`, with the agent and, when there is one, the conversation. */
  const about = <T>(fields: T) => ({ agentId, ...fields, ...(conversationId.value && { conversationId: conversationId.value }) });

  /** Sets the conversation, bounded like the stored one. */
  const set = (list: ChatMessage[]) => {
    messages.value = bounded(list);
  };

  /** There is typed text to keep: a draft, or a message not delivered. */
  const typed = () => draft.value || messages.value.some((m) => m.status !== 'sent');
  /**
   * The conversation with the composer's text (bounded like a message), and when it was written: a message
   * still waiting for its reply is sent again on the next page if that is soon enough (see load()).
   * parseMessages() reads it back.
   */
  const persist = () => {
    const value = {
      conversationId: conversationId.value,
      messages: messages.value,
      draft: draft.value.slice(0, MAX_MESSAGE_CHARS),
      savedAt: now(),
    };
    typedStored = typed();
    // Full storage (the host page's data, other widgets'): the oldest go, a quarter at a time, until it fits.
    while (!store.write('chat', value) && value.messages.length) {
      value.messages = value.messages.slice(Math.max(1, Math.floor(value.messages.length / 4)));
    }
  };

  /** Sends `id` again in `seconds`; returns when. */
  const later = (id: string, seconds: number) => {
    timers.set(
      id,
      setTimeout(() => void deliver(id), seconds * 1000),
    );
    return now() + seconds * 1000;
  };

  /** Sends message `id` now, in place of any automatic resend pending for it; a failure shows as its row of the design table. */
  const deliver = async (id: string): Promise<void> => {
    clearTimeout(timers.get(id));
    const message = find(id);
    if (!message) return;
    // A retried message moves to the end, so each reply follows its question.
    messages.value = [...without(id), { ...message, status: 'sending', failure: undefined }];
    try {
      // The message's id goes with it every time: the proxy answers a repeat from its reply cache, unpaid.
      const reply = await client.send(about({ message: message.text, messageId: id }), requests.signal);
      // Gone, or stopped: where AbortSignal.any is missing (core/http anySignal) a stopped request still answers.
      if (find(id)?.status !== 'sending') return;
      // The sources worth showing, the same cleaning as for the stored ones.
      const sources = cleanSources(reply.sources);
      // Named after its question: two tabs that both received it store the same message.
      const answer: ChatMessage = { id: `${id}-reply`, role: 'agent', text: cut(reply.reply), at: now(), sources, status: 'sent' };
      if (reply.conversationId) conversationId.value = reply.conversationId;
      // One write: the question delivered and its reply.
      set([...updated(id, { status: 'sent' }), answer]);
      persist();
      emitter.emit('message:received', about({ id: answer.id, text: answer.text, sources }));
      // The service answers again: an unreachable message goes now, the next one after its reply.
      const waiting = messages.value.find((m) => m.failure?.reason === 'unreachable');
      if (waiting) void deliver(waiting.id);
    } catch (error) {
      // Stopped or gone, its request was aborted first (stop(), end()), even where AbortSignal.any is
      // missing: classify() reads such an error as the abort, and gives undefined.
      const failure = classify(error);
      if (!failure) return;
      let retryAt: number | undefined;
      if (failure.kind === 'refused') {
        // Not accepted: the text goes back to the composer, ahead of anything typed since.
        messages.value = without(id);
        draft.value = draft.value.trim() ? `${message.text}\n${draft.value}` : message.text;
        composerError.value = refusalText(failure);
      } else {
        let reason = reasonOf(failure.kind);
        if (reason === 'busy') {
          const wait = failure.retryAfter ?? DEFAULT_BUSY_WAIT_S;
          if (wait > MAX_AUTO_WAIT_S || spend('busy' + id)) reason = 'still-busy';
          else retryAt = later(id, wait);
        }
        if (reason === 'unreachable') {
          const wait = UNREACHABLE_WAITS_S[spend('unreachable' + id)];
          if (wait) retryAt = later(id, wait);
          if (failure.status === 0) hintCrossOrigin();
        }
        if (failure.kind === 'invalid') logError(failure.message);
        if (reason === 'misconfigured') logError(misconfiguredLine(failure, client.url, win.location.origin));
        messages.value = updated(id, { status: 'failed', failure: { reason, retryAt } });
      }
      // Sent again, by us or by the visitor, only when it may pass (not after a refusal, a 402 or a 404).
      const again = retryAt !== undefined || (failure.kind === 'offline' && !spent['online' + id]) ? 'auto' : 'manual';
      const retry: WidgetErrorEvent['retry'] = failure.retryable ? again : 'none';
      emitter.emit('error', { ...errorEvent(agentId, 'chat', error, failure, retry), messageId: id });
    }
  };

  /**
   * No answer at all from a chat proxy on another origin: the most common cause on a first setup is a
   * proxy that does not allow this page, which the browser reports as a CORS error and hides from us. Said
   * once, naming the page's origin; the browser's own console line tells whether it was that.
   */
  let hinted = false;
  const hintCrossOrigin = () => {
    const pageOrigin = win.location.origin;
    if (hinted || new URL(client.url, win.location.href).origin === pageOrigin) return;
    hinted = true;
    logWarning(
      `No answer from the chat proxy at ${client.url}. If the console shows a CORS error for it, the proxy does not allow this page: add ${pageOrigin} to its allowedOrigins.`,
    );
  };

  const onOnline = () => {
    for (const { id, failure } of messages.value) if (failure?.reason === 'offline' && !spend('online' + id)) void deliver(id);
  };
  const stopOnline = listen(win, 'online', onOnline);

  /**
   * The stored conversation (this page's previous one at the start, the one cleared on Undo, another
   * tab's since), then what is in flight or failed here. Another tab's undelivered messages are its own to
   * send: they stay there. Any of them ends the offer of Undo. The composer's text comes back at the start
   * only: Undo's copy has none, and another tab's must not replace what is typed here.
   *
   * A message that was waiting for its reply when the previous page was left, or had an automatic resend
   * pending (leaving a page aborts its requests, and the browser may report that as a network failure
   * first), is sent again at the start, with its id, within REPLY_KEPT_MS: the proxy answers it from its
   * reply cache. After that it waits for Retry. On Undo, one that was waiting was stopped by New conversation.
   */
  const load = (value: unknown, from: 'start' | 'undo' | 'other-tab') => {
    const { conversationId: id, draft: text, messages: list, savedAt } = isRecord(value) ? value : {};
    // An id the proxy would refuse (a hand-edited or older store) would block every message: start afresh.
    conversationId.value = isSafeConversationId(id) ? id : undefined;
    undo.value = undefined;
    const mine = from !== 'other-tab';
    if (mine && isText(text)) draft.value = text.slice(0, MAX_MESSAGE_CHARS);
    const resume = from === 'start' && typeof savedAt === 'number' && now() - savedAt <= REPLY_KEPT_MS;
    const stored = parseMessages(list)
      .filter((m) => mine || m.status === 'sent')
      .map((m): ChatMessage => {
        if (resume || m.status === 'sent') return m;
        if (m.status === 'sending') return { ...m, ...(from === 'undo' ? STOPPED : INTERRUPTED) };
        // Its automatic resend went with the page it was pending on: Retry sends it now.
        return { ...m, failure: m.failure && { reason: m.failure.reason } };
      });
    // set() bounds them as writing does: a hand-edited store cannot make the panel render thousands of rows.
    set([...stored, ...messages.value.filter((m) => m.status !== 'sent')]);
    for (const m of stored) if (m.status === 'sending' || m.failure?.retryAt !== undefined) void deliver(m.id);
  };
  load(store.read('chat'), 'start');
  /**
   * The stored copy holds typed text, which a later write must update even once there is none (persist()
   * keeps it current; nothing writes before this line).
   */
  let typedStored = typed();
  const stopWatching = store.watch('chat', (value) => load(value, 'other-tab'));

  /**
   * Typed text (the draft, messages not delivered) is kept when the page is hidden, which a reload or a
   * closed tab does first, not on every keystroke, as each write serialises the conversation: a first
   * visit's draft too, typed before anything was sent. A visit with nothing typed writes nothing, which
   * must not restart the TTL.
   */
  const keep = () => {
    if (!typedStored && !typed()) return;
    if (messages.value.length || draft.value) persist();
    else {
      // Everything typed was deleted by hand, with no conversation to keep: nothing stays stored.
      store.remove('chat');
      typedStored = false;
    }
  };
  const stopHidden = listen(win.document, 'visibilitychange', keep);

  const abort = () => {
    requests.abort();
    requests = new AbortController();
  };
  /** The conversation ends here: its requests and timers stop, its messages go. */
  const end = () => {
    abort();
    timers.forEach(clearTimeout);
    messages.value = [];
  };

  return {
    messages,
    draft,
    sending,
    composerError,
    conversationId,
    undo,
    underWay: () => messages.peek().length > 0 || draft.peek().trim() !== '',
    send(starter) {
      const text = (starter ?? draft.value).trim();
      if (!text || sending.value) return;
      const message: ChatMessage = { id: randomId(), role: 'user', text, at: now(), status: 'sending' };
      // A starter question leaves what the visitor was typing where it is.
      if (!starter) draft.value = '';
      composerError.value = undefined;
      undo.value = undefined;
      set([...messages.value, message]);
      emitter.emit('message:sent', about({ id: message.id, text }));
      void deliver(message.id);
    },
    retry(id) {
      // Only a failed one: Retry clicked twice sends once.
      if (!find(id)?.failure) return;
      // Asked by hand: a fresh round of automatic resends if the service is still out of reach.
      delete spent['unreachable' + id];
      void deliver(id);
    },
    stop() {
      // Marked first: an aborted request is no failure, so nothing else reports on these.
      messages.value = messages.value.map((m) => (m.status === 'sending' ? { ...m, ...STOPPED } : m));
      abort();
    },
    noteBooking(card) {
      set([...messages.value, { id: randomId(), role: 'agent', text: card.code, at: now(), status: 'sent', booking: card }]);
      persist();
    },
    rate(id, rating) {
      if (find(id)?.rating === rating) return;
      messages.value = updated(id, { rating });
      emitter.emit('message:feedback', about({ id, value: rating }));
    },
    clear(undoable) {
      const before = { conversationId: conversationId.value, messages: messages.value };
      end();
      conversationId.value = undefined;
      composerError.value = undefined;
      store.remove('chat');
      typedStored = false;
      // The owner's reset() forgets the typed text too; the visitor's button leaves it for the new conversation.
      if (!undoable) draft.value = '';
      // Undo loads it back as stored: what had not got through (its request and timers stop now) comes back
      // with its reason, and one waiting for its reply as Stopped.
      undo.value =
        undoable && before.messages.length
          ? () => {
              load(before, 'undo');
              persist();
            }
          : undefined;
    },
    dispose() {
      // A remount (an app changing routes) keeps them too.
      keep();
      // Ended once kept: a reply or a resend still on its way finds no message to update, as after New conversation.
      end();
      stopWatching();
      stopOnline();
      stopHidden();
    },
  };
}
