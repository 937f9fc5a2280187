// The ONE tolerant reading of the /chat reply. The spec shows only `success` and `credits`
// (api-spec §4 Chat), so this names every field we accept; the browser gets nothing else.
import { chatCredits } from '../core/shapes/account';
import { CONVERSATION_ID_FIELDS, REPLY_TEXT_FIELDS } from '../core/spec-assumptions';
import type { ChatCredits, ChatSource, ProxyChatSuccess } from '../core/types';
import { isRecord } from './body';
import { httpUrl } from './url';

export { CONVERSATION_ID_FIELDS, REPLY_TEXT_FIELDS };

const SAFE_CONVERSATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The ids the proxy accepts from browsers, and so the only ids it hands to them. */
export function isSafeConversationId(value: unknown): value is string {
  return typeof value === 'string' && SAFE_CONVERSATION_ID.test(value);
}

export interface MappedReply {
  /** Undefined when the upstream gave no reply text (the proxy answers 502). */
  browser: ProxyChatSuccess | undefined;
  /** For the owner's onCredits hook only. */
  credits: ChatCredits | undefined;
}

/** Each source reduced to string `title` and http(s) `url`; items with neither are dropped. */
function sanitizeSources(value: unknown): ChatSource[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const sources: ChatSource[] = [];
  for (const item of value) {
    if (!isRecord(item)) continue;
    const source: ChatSource = {};
    if (typeof item.title === 'string' && item.title.trim() !== '') source.title = item.title;
    const url = httpUrl(item.url);
    if (url !== undefined) source.url = url;
    if (source.title !== undefined || source.url !== undefined) sources.push(source);
  }
  return sources.length > 0 ? sources : undefined;
}

export function mapChatReply(body: unknown): MappedReply {
  if (!isRecord(body)) return { browser: undefined, credits: undefined };
  const credits = chatCredits(body.credits, 'credits');
  let reply: string | undefined;
  for (const field of REPLY_TEXT_FIELDS) {
    const value = body[field];
    if (typeof value === 'string' && value.trim() !== '') {
      reply = value;
      break;
    }
  }
  if (reply === undefined) return { browser: undefined, credits };

  const browser: ProxyChatSuccess = { success: true, reply };
  const conversationId = CONVERSATION_ID_FIELDS.map((field) => body[field]).find(isSafeConversationId);
  if (conversationId !== undefined) browser.conversationId = conversationId;
  const sources = sanitizeSources(body.sources);
  if (sources !== undefined) browser.sources = sources;
  return { browser, credits };
}
