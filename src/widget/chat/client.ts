// The widget's one call to the owner's chat proxy, over the shared fetch layer (deadline, abort,
// ApiError with status, code and retryAfter).
import { createHttp } from '../../core/http';
import { proxyChatSuccess } from '../../core/shapes/chat';
import type { ChatSource, ProxyChatRequest, ProxyChatSuccess } from '../../core/types';
import { recordsIn } from '../../core/guards';
import { isNonEmptyString } from '../../core/validate';

/** Longer than the proxy's own upstream deadline, so a slow agent surfaces as the proxy's 504. */
export const CHAT_TIMEOUT_MS = 45_000;

export interface ChatClient {
  /** The chat proxy's URL, for the owner's console line when nothing answers there. */
  readonly url: string;
  /** The proxy's answer, checked against the spec (its sources are cleaned where they are shown). */
  send(request: ProxyChatRequest, signal?: AbortSignal): Promise<ProxyChatSuccess>;
}

/** The sources worth showing: those with a non-blank title or url, keeping only those two fields. */
export const cleanSources = (value: unknown): ChatSource[] =>
  recordsIn(value).flatMap(({ title, url }) => {
    const source: ChatSource = { ...(isNonEmptyString(title) && { title }), ...(isNonEmptyString(url) && { url }) };
    return source.title || source.url ? [source] : [];
  });

/** The client of the chat proxy at `url` (the page's fetch, CHAT_TIMEOUT_MS). */
export function createChatClient(url: string): ChatClient {
  // The full URL is the path: the chat URL is used exactly as configured.
  const http = createHttp({ baseUrl: '', timeoutMs: CHAT_TIMEOUT_MS });
  return {
    url,
    // A POST: the fetch layer sends a body with POST.
    send: (request, signal) => http(url, proxyChatSuccess, { body: request, signal }),
  };
}
