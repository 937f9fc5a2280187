// The widget's one call to the owner's chat proxy, over the shared fetch layer (deadline, abort,
// ApiError with status, code and retryAfter).
import { ApiError, createHttp } from '../../core/http';
import type { ChatSource, ProxyChatRequest, ProxyChatSuccess } from '../../core/types';

/** Longer than the proxy's own upstream deadline, so a slow agent surfaces as the proxy's 504. */
export const CHAT_TIMEOUT_MS = 45_000;

export interface ChatClient {
  send(request: ProxyChatRequest, signal?: AbortSignal): Promise<ProxyChatSuccess>;
}

export interface ChatClientOptions {
  url: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

function cleanSources(value: unknown): ChatSource[] {
  if (!Array.isArray(value)) return [];
  const out: ChatSource[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const { title, url } = item as Record<string, unknown>;
    const source: ChatSource = {};
    if (typeof title === 'string' && title.trim() !== '') source.title = title;
    if (typeof url === 'string' && url.trim() !== '') source.url = url;
    if (source.title !== undefined || source.url !== undefined) out.push(source);
  }
  return out;
}

export function createChatClient(options: ChatClientOptions): ChatClient {
  // The full URL is the path: the chat URL is used exactly as configured.
  const http = createHttp({ baseUrl: '', fetch: options.fetch, timeoutMs: options.timeoutMs ?? CHAT_TIMEOUT_MS });
  return {
    async send(request, signal) {
      const body = await http<Record<string, unknown>>(options.url, { method: 'POST', body: request, signal });
      if (typeof body.reply !== 'string') throw new ApiError('The chat proxy answered without a reply.', { kind: 'invalid_response', status: 200 });
      const reply: ProxyChatSuccess = { success: true, reply: body.reply, sources: cleanSources(body.sources) };
      if (typeof body.conversationId === 'string' && body.conversationId !== '') reply.conversationId = body.conversationId;
      return reply;
    },
  };
}
