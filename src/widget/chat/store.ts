// The conversation: messages in a signal store, sending with the failure rows of the design table,
// bounded retries, persistence of delivered messages and second-tab sync.
import { batch, computed, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import { isApiError } from '../../core/http';
import type { ChatSource } from '../../core/types';
import type { Emitter, WidgetErrorEvent } from '../events';
import type { StringKey } from '../i18n';
import { randomId, type Store } from '../storage';
import type { ChatClient } from './client';

/** Delivered messages kept in storage per agent. */
export const MAX_STORED_MESSAGES = 200;
/** Used when a 429 does not say how long to wait. */
export const DEFAULT_BUSY_WAIT_S = 5;
/** A longer wait (e.g. a daily cap) is not counted down: the visitor retries by hand. */
export const MAX_AUTO_WAIT_S = 120;

/**
 * offline: no answer at all (auto-retry once when back online); failed: 5xx, timeout, garbage;
 * busy: 429 with the one automatic retry pending; still-busy: 429 after that retry;
 * unavailable: 402 (no credits); misconfigured: the proxy refuses this site or agent.
 */
export type FailureReason = 'offline' | 'failed' | 'busy' | 'still-busy' | 'unavailable' | 'misconfigured';

export interface ChatMessage {
  id: string;
  role: 'user' | 'agent';
  text: string;
  /** Epoch ms. */
  at: number;
  status: 'sending' | 'sent' | 'failed';
  failure?: { reason: FailureReason; retryAt?: number };
  sources?: ChatSource[];
}

export interface Chat {
  readonly messages: ReadonlySignal<ChatMessage[]>;
  readonly draft: Signal<string>;
  readonly sending: ReadonlySignal<boolean>;
  /** Why the composer's text came back (a 400 or 413), as a dictionary key. */
  readonly composerError: Signal<StringKey | undefined>;
  readonly conversationId: ReadonlySignal<string | undefined>;
  /** Sends the draft. */
  send(): void;
  retry(id: string): void;
  /** New conversation: forget the conversation here and in storage. */
  clear(): void;
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

interface Stored {
  conversationId?: string;
  messages: ChatMessage[];
}

function parseStored(value: unknown): Stored {
  if (typeof value !== 'object' || value === null) return { messages: [] };
  const { conversationId, messages } = value as Record<string, unknown>;
  const out: ChatMessage[] = [];
  if (Array.isArray(messages)) {
    for (const item of messages) {
      if (typeof item !== 'object' || item === null) continue;
      const { id, role, text, at, sources } = item as Record<string, unknown>;
      if (typeof id !== 'string' || typeof text !== 'string' || typeof at !== 'number') continue;
      if (role !== 'user' && role !== 'agent') continue;
      const message: ChatMessage = { id, role, text, at, status: 'sent' };
      if (Array.isArray(sources)) message.sources = sources.filter((s): s is ChatSource => typeof s === 'object' && s !== null);
      out.push(message);
    }
  }
  return { messages: out, ...(typeof conversationId === 'string' ? { conversationId } : {}) };
}

type Outcome =
  | { kind: 'ignored' }
  | { kind: 'rejected'; text: StringKey }
  | { kind: 'failed'; reason: FailureReason };

/** The design table's rows, from the error the fetch layer threw. */
function classify(error: unknown): Outcome {
  if (!isApiError(error)) return { kind: 'failed', reason: 'failed' };
  if (error.kind === 'aborted') return { kind: 'ignored' };
  if (error.kind === 'network') return { kind: 'failed', reason: 'offline' };
  if (error.kind !== 'http') return { kind: 'failed', reason: 'failed' };
  const { status, code } = error;
  if (status === 413 || code === 'message_too_long' || code === 'body_too_large') return { kind: 'rejected', text: 'chatTooLong' };
  if (code === 'message_empty') return { kind: 'rejected', text: 'chatEmpty' };
  if (status === 400) return { kind: 'rejected', text: 'chatInvalid' };
  if (status === 402) return { kind: 'failed', reason: 'unavailable' };
  if (status === 429) return { kind: 'failed', reason: 'busy' };
  if (status === 401 || status === 403 || status === 404 || status === 405) return { kind: 'failed', reason: 'misconfigured' };
  return { kind: 'failed', reason: 'failed' };
}

export function createChat({ agentId, client, store, emitter, win, now }: ChatOptions): Chat {
  const initial = parseStored(store.read('chat'));
  const messages = signal<ChatMessage[]>(initial.messages);
  const conversationId = signal<string | undefined>(initial.conversationId);
  const draft = signal('');
  const composerError = signal<StringKey | undefined>(undefined);
  const sending = computed(() => messages.value.some((m) => m.status === 'sending'));

  const inflight = new Set<AbortController>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Bounds: one automatic retry per message after a 429, one after coming back online. */
  const autoRetried = new Set<string>();
  const onlineRetried = new Set<string>();
  let disposed = false;

  const find = (id: string) => messages.value.find((m) => m.id === id);
  const update = (id: string, patch: Partial<ChatMessage>) => {
    messages.value = messages.value.map((m) => (m.id === id ? { ...m, ...patch } : m));
  };

  const persist = () => {
    const delivered = messages.value
      .filter((m) => m.status === 'sent')
      .slice(-MAX_STORED_MESSAGES)
      .map(({ id, role, text, at, sources }) => ({ id, role, text, at, ...(sources?.length ? { sources } : {}) }));
    store.write('chat', { conversationId: conversationId.value, messages: delivered });
  };

  const report = (error: unknown, id: string, retry: WidgetErrorEvent['retry']) => {
    const api = isApiError(error) ? error : undefined;
    emitter.emit('error', {
      agentId,
      scope: 'chat',
      kind: api?.kind ?? 'network',
      status: api?.status ?? 0,
      ...(api?.code ? { code: api.code } : {}),
      message: error instanceof Error ? error.message : String(error),
      retry,
      messageId: id,
    });
  };

  const fail = (message: ChatMessage, error: unknown) => {
    const outcome = classify(error);
    if (outcome.kind === 'ignored') return;
    if (outcome.kind === 'rejected') {
      // Not accepted: the text goes back to the composer, ahead of anything typed since.
      batch(() => {
        messages.value = messages.value.filter((m) => m.id !== message.id);
        draft.value = draft.value.trim() === '' ? message.text : `${message.text}\n${draft.value}`;
        composerError.value = outcome.text;
      });
      report(error, message.id, 'none');
      return;
    }
    let reason = outcome.reason;
    let retryAt: number | undefined;
    let retry: WidgetErrorEvent['retry'] = 'manual';
    if (reason === 'busy') {
      const wait = (isApiError(error) ? error.retryAfter : undefined) ?? DEFAULT_BUSY_WAIT_S;
      if (autoRetried.has(message.id) || wait > MAX_AUTO_WAIT_S) reason = 'still-busy';
      else {
        autoRetried.add(message.id);
        retryAt = now() + wait * 1000;
        retry = 'auto';
        timers.set(
          message.id,
          setTimeout(() => {
            timers.delete(message.id);
            void deliver(message.id);
          }, wait * 1000),
        );
      }
    } else if (reason === 'offline') {
      if (!onlineRetried.has(message.id)) retry = 'auto';
    } else if (reason === 'unavailable' || reason === 'misconfigured') retry = 'none';
    if (reason === 'misconfigured')
      console.error(
        `[AgentWidget] The chat proxy refused this widget (${isApiError(error) ? `${error.status} ${error.code ?? ''}`.trim() : 'error'}): ` +
          `${error instanceof Error ? error.message : String(error)} Check data-agent-id and the proxy's allowed origins and agents.`,
      );
    update(message.id, { status: 'failed', failure: { reason, ...(retryAt !== undefined ? { retryAt } : {}) } });
    report(error, message.id, retry);
  };

  async function deliver(id: string): Promise<void> {
    const message = find(id);
    if (!message || disposed) return;
    // A retried message moves to the end, so each reply follows its question.
    messages.value = [...messages.value.filter((m) => m.id !== id), { ...message, status: 'sending', failure: undefined }];
    const controller = new AbortController();
    inflight.add(controller);
    try {
      const current = conversationId.value;
      const reply = await client.send(
        { agentId, message: message.text, ...(current ? { conversationId: current } : {}) },
        controller.signal,
      );
      if (disposed || !find(id)) return;
      const answer: ChatMessage = {
        id: randomId(),
        role: 'agent',
        text: reply.reply,
        at: now(),
        status: 'sent',
        ...(reply.sources?.length ? { sources: reply.sources } : {}),
      };
      batch(() => {
        if (reply.conversationId) conversationId.value = reply.conversationId;
        messages.value = [...messages.value.map((m) => (m.id === id ? { ...m, status: 'sent' as const } : m)), answer];
      });
      persist();
      emitter.emit('message:received', {
        agentId,
        id: answer.id,
        text: answer.text,
        ...(conversationId.value ? { conversationId: conversationId.value } : {}),
        sources: answer.sources ?? [],
      });
    } catch (error) {
      if (!disposed && find(id)) fail(message, error);
    } finally {
      inflight.delete(controller);
    }
  }

  const onOnline = () => {
    for (const m of messages.value) {
      if (m.failure?.reason !== 'offline' || onlineRetried.has(m.id)) continue;
      onlineRetried.add(m.id);
      void deliver(m.id);
    }
  };
  win.addEventListener('online', onOnline);

  const stopWatching = store.watch('chat', (value) => {
    const next = parseStored(value);
    batch(() => {
      conversationId.value = next.conversationId;
      // Another tab's delivered messages, then whatever is still in flight or failed here.
      messages.value = [...next.messages, ...messages.value.filter((m) => m.status !== 'sent')];
    });
  });

  const stopAll = () => {
    for (const controller of inflight) controller.abort();
    inflight.clear();
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
  };

  return {
    messages,
    draft,
    sending,
    composerError,
    conversationId,
    send() {
      const text = draft.value.trim();
      if (text === '' || sending.value) return;
      const message: ChatMessage = { id: randomId(), role: 'user', text, at: now(), status: 'sending' };
      batch(() => {
        draft.value = '';
        composerError.value = undefined;
        messages.value = [...messages.value, message];
      });
      emitter.emit('message:sent', {
        agentId,
        id: message.id,
        text,
        ...(conversationId.value ? { conversationId: conversationId.value } : {}),
      });
      void deliver(message.id);
    },
    retry(id) {
      const message = find(id);
      if (!message || message.status !== 'failed') return;
      const timer = timers.get(id);
      if (timer !== undefined) clearTimeout(timer);
      timers.delete(id);
      void deliver(id);
    },
    clear() {
      stopAll();
      batch(() => {
        messages.value = [];
        conversationId.value = undefined;
        composerError.value = undefined;
      });
      store.remove('chat');
    },
    dispose() {
      disposed = true;
      stopAll();
      stopWatching();
      win.removeEventListener('online', onOnline);
    },
  };
}
