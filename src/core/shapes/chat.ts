// The chat proxy's answer to the widget (design.md "Chat: widget <-> proxy <-> service").
import { isNonEmptyString } from '../guards';
import { array, object, optional, string, where } from '../schema';

const SAFE_CONVERSATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The conversation ids the proxy accepts from browsers, and so the only ids it hands to them. */
export function isSafeConversationId(value: unknown): value is string {
  return typeof value === 'string' && SAFE_CONVERSATION_ID.test(value);
}

const SAFE_MESSAGE_ID = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The widget's id for one message it sends, which a repeat of that message carries again: long enough
 * to be unguessable (the widget's are 128 random bits), so one visitor cannot ask for another's reply.
 */
export function isSafeMessageId(value: unknown): value is string {
  return typeof value === 'string' && SAFE_MESSAGE_ID.test(value);
}

/**
 * How long the proxy keeps a reply for a repeat of its message (its default replyCache.ttlMs), and so how
 * long after leaving a page the widget sends a message that was waiting for its reply again by itself.
 */
export const REPLY_KEPT_MS = 600_000;

/** A cited source: only a title and a url are shown to visitors. */
export const chatSource = object({ title: optional(string), url: optional(string) });

export const proxyChatSuccess = object({
  reply: where(string, isNonEmptyString, 'a non-empty reply'),
  conversationId: optional(string),
  sources: optional(array(chatSource)),
});
