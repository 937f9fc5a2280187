// A conversation's messages: their shape, their bounds, and reading them back from storage.
import type { ChatSource } from '../../core/types';
import { isRecord, recordsIn } from '../../core/guards';
import type { Rating } from '../platform/events';
import { isText } from '../platform/storage';
import { cleanSources } from './client';

/** Messages kept in storage per agent. */
export const MAX_STORED_MESSAGES = 200;
/**
 * Characters of a reply shown and kept; longer ones are cut and end with CUT_MARKER. Room for the
 * proxy's default maxReplyLength (32 000) and its own marker: a reply it shortened shows as it came.
 */
export const MAX_MESSAGE_CHARS = 32_768;
/** Characters of all the messages kept, on screen and in storage, within MAX_STORED_MESSAGES. */
export const MAX_CONVERSATION_CHARS = 200_000;
/** The proxy's marker for a shortened reply. */
export const CUT_MARKER = '\n\n[…]';
/**
 * offline: no answer and no network (auto-retry once when back online); unreachable: no answer while
 * online, or the service behind the proxy down (502, 503, 504), resent after each of UNREACHABLE_WAITS_S
 * and as soon as another message gets through; timed-out: no answer within the widget's own deadline;
 * failed: another 5xx, garbage; busy: 429 with the one automatic retry pending; still-busy: 429 after
 * that retry; unavailable: 402 (no credits); misconfigured: no proxy at the URL, or it refuses this site or agent;
 * stopped: the visitor stopped waiting for the reply; interrupted: the visitor left the page while the reply
 * was on its way, longer ago than the proxy keeps replies for a repeat (REPLY_KEPT_MS).
 */
const FAILURE_REASONS = [
  'offline',
  'unreachable',
  'timed-out',
  'failed',
  'busy',
  'still-busy',
  'unavailable',
  'misconfigured',
  'stopped',
  'interrupted',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** A booking made while the conversation was open, shown in it as a card. */
export interface BookedCard {
  code: string;
  /** ISO 8601 instant of the start. */
  start: string;
  /** What was booked, as the duration's label names it. */
  what?: string;
}

export interface ChatMessage {
  id: string;
  role: 'user' | 'agent';
  text: string;
  /** Epoch ms. */
  at: number;
  status: 'sending' | 'sent' | 'failed';
  /** Present exactly while the status is failed. */
  failure?: { reason: FailureReason; retryAt?: number };
  sources?: ChatSource[];
  /** The visitor's thumb on a reply; in memory only (a stored message is read back without it). */
  rating?: Rating;
  /** The booking this message stands for (the card the log shows after a booking); its text is the code. */
  booking?: BookedCard;
}

/** A message whose request the visitor stopped, kept to send again by hand. */
export const STOPPED = { status: 'failed', failure: { reason: 'stopped' } } as const;
/** A message whose page was left while its reply was on its way, too long ago to ask for it again by itself. */
export const INTERRUPTED = { status: 'failed', failure: { reason: 'interrupted' } } as const;

/** Whether UTF-16 code unit `code` starts a surrogate pair (U+D800 to U+DBFF). */
const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** The text within MAX_MESSAGE_CHARS, never cut inside a surrogate pair, marked with CUT_MARKER when cut. */
export function cut(text: string): string {
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  const end = isHighSurrogate(text.charCodeAt(MAX_MESSAGE_CHARS - 1)) ? MAX_MESSAGE_CHARS - 1 : MAX_MESSAGE_CHARS;
  return text.slice(0, end) + CUT_MARKER;
}

/**
 * The stored messages that fit the shape, up to MAX_STORED_MESSAGES (a hand-edited store cannot make us
 * parse more). One without a status was delivered. One that was waiting for its reply comes back
 * `sending`, one that had failed with its reason and the time of the automatic resend it had pending, if
 * any: the chat store decides what happens to them (see its load()).
 */
export const parseMessages = (value: unknown): ChatMessage[] =>
  recordsIn(value)
    .slice(-MAX_STORED_MESSAGES)
    .flatMap(({ id, role, text, at, sources, status = 'sent', failure, booking }): ChatMessage[] => {
      if (!(isText(id) && isText(text) && typeof at === 'number' && (role === 'user' || role === 'agent'))) return [];
      const card = bookedCard(booking);
      return [
        {
          id,
          role,
          text: cut(text),
          at,
          sources: cleanSources(sources),
          ...storedStatus(status, failure),
          ...(card && { booking: card }),
        },
      ];
    });

/**
 * A stored message's status: a failure keeps its reason (one no store of ours writes reads as a failure)
 * and when its automatic resend was due.
 */
function storedStatus(status: unknown, failure: unknown): Pick<ChatMessage, 'status' | 'failure'> {
  if (status === 'sent' || status === 'sending') return { status };
  const { reason, retryAt } = isRecord(failure) ? failure : {};
  const known = FAILURE_REASONS.find((name) => name === reason) ?? 'failed';
  return { status: 'failed', failure: typeof retryAt === 'number' ? { reason: known, retryAt } : { reason: known } };
}

/** A stored booking card, when it has the shape one is written with (a hand-edited store shows none). */
function bookedCard(value: unknown): BookedCard | undefined {
  if (!isRecord(value)) return undefined;
  const { code, start, what } = value;
  if (!isText(code) || code.length > 40 || !isText(start) || Number.isNaN(Date.parse(start))) return undefined;
  return { code, start, ...(isText(what) && what && { what: what.slice(0, 200) }) };
}

/**
 * The conversation bounded like the stored one: the newest messages within MAX_STORED_MESSAGES and
 * MAX_CONVERSATION_CHARS; the newest always stays.
 */
export function bounded(list: ChatMessage[]): ChatMessage[] {
  const recent = list.slice(-MAX_STORED_MESSAGES);
  // Counting back from the newest: the first one over the bound goes, with all the older ones.
  let chars = 0;
  let oldestKept = recent.length;
  for (let index = recent.length - 1; index >= 0; index--) {
    chars += recent[index]?.text.length ?? 0;
    // The newest always stays.
    if (chars > MAX_CONVERSATION_CHARS && index < recent.length - 1) break;
    oldestKept = index;
  }
  return recent.slice(oldestKept);
}
