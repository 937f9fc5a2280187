// The chat proxy's answer to the widget (design.md "Chat: widget <-> proxy <-> service").
import { isNonEmptyString } from '../guards';
import { array, object, optional, string, where } from '../schema';

/** A cited source: only a title and a url are shown to visitors. */
export const chatSource = object({ title: optional(string), url: optional(string) });

export const proxyChatSuccess = object({
  reply: where(string, isNonEmptyString, 'a non-empty reply'),
  conversationId: optional(string),
  sources: optional(array(chatSource)),
});
