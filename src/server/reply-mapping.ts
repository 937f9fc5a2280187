// The ONE tolerant reading of the /chat reply. The spec shows only `success` and `credits`
// (api-spec §4 Chat), so this names every field we accept; the browser gets nothing else.
import { chatCredits } from '../core/shapes/account';
import { isSafeConversationId } from '../core/shapes/chat';
import { CONVERSATION_ID_FIELDS, REPLY_TEXT_FIELDS } from '../core/spec-assumptions';
import type { ChatCredits, ChatSource, ProxyChatSuccess } from '../core/types';
import { isRecord } from './body';
import { httpUrl } from './url';

export { CONVERSATION_ID_FIELDS, REPLY_TEXT_FIELDS };

/** What the browser gets at most; text beyond is cut at a boundary, never silently. */
export interface ReplyLimits {
  /** Reply text, in UTF-16 code units; longer text is shortened and ends with REPLY_TRUNCATED_MARKER. */
  maxReplyLength: number;
  /** Sources beyond this many are dropped. */
  maxSources: number;
  /** Longer titles are shortened and end with an ellipsis. */
  maxSourceTitleLength: number;
  /** Longer urls are dropped: a shortened url would lead somewhere else. */
  maxSourceUrlLength: number;
}

export const REPLY_LIMITS: Readonly<ReplyLimits> = {
  maxReplyLength: 32_000,
  maxSources: 10,
  maxSourceTitleLength: 200,
  maxSourceUrlLength: 2048,
};

/** Appended to a shortened reply, so the visitor knows there was more. */
export const REPLY_TRUNCATED_MARKER = '\n\n[…]';

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** The first `max` code units at most, never ending inside a surrogate pair. */
function cutAt(text: string, max: number): string {
  return text.slice(0, isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max);
}

/** Cut at the last whitespace in the final tenth when there is one, else at the limit itself. */
function shortenReply(text: string, max: number): string {
  const cut = cutAt(text, max);
  const floor = Math.floor(max * 0.9);
  for (let i = cut.length; i > floor; i--) if (/\s/.test(text.charAt(i))) return text.slice(0, i).trimEnd();
  return cut;
}

export interface MappedReply {
  /** Undefined when the upstream gave no reply text (the proxy answers 502). */
  browser: ProxyChatSuccess | undefined;
  /** For the owner's onCredits hook only. */
  credits: ChatCredits | undefined;
  /** The reply text was longer than maxReplyLength. */
  truncated: boolean;
}

/** Each source reduced to string `title` and http(s) `url`, within the limits; items with neither are dropped. */
function sanitizeSources(value: unknown, limits: ReplyLimits): ChatSource[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const sources: ChatSource[] = [];
  for (const item of value) {
    if (sources.length >= limits.maxSources) break;
    if (!isRecord(item)) continue;
    const source: ChatSource = {};
    const title = item.title;
    if (typeof title === 'string' && title.trim() !== '')
      source.title = title.length > limits.maxSourceTitleLength ? `${cutAt(title, limits.maxSourceTitleLength - 1)}…` : title;
    const url = typeof item.url === 'string' && item.url.length <= limits.maxSourceUrlLength ? httpUrl(item.url) : undefined;
    if (url !== undefined && url.length <= limits.maxSourceUrlLength) source.url = url;
    if (source.title !== undefined || source.url !== undefined) sources.push(source);
  }
  return sources.length > 0 ? sources : undefined;
}

export function mapChatReply(body: unknown, limits: ReplyLimits = REPLY_LIMITS): MappedReply {
  if (!isRecord(body)) return { browser: undefined, credits: undefined, truncated: false };
  const credits = chatCredits(body.credits, 'credits');
  let reply: string | undefined;
  for (const field of REPLY_TEXT_FIELDS) {
    const value = body[field];
    if (typeof value === 'string' && value.trim() !== '') {
      reply = value;
      break;
    }
  }
  if (reply === undefined) return { browser: undefined, credits, truncated: false };

  const truncated = reply.length > limits.maxReplyLength;
  const text = truncated ? shortenReply(reply, limits.maxReplyLength) + REPLY_TRUNCATED_MARKER : reply;
  const browser: ProxyChatSuccess = { success: true, reply: text };
  const conversationId = CONVERSATION_ID_FIELDS.map((field) => body[field]).find(isSafeConversationId);
  if (conversationId !== undefined) browser.conversationId = conversationId;
  const sources = sanitizeSources(body.sources, limits);
  if (sources !== undefined) browser.sources = sources;
  return { browser, credits, truncated };
}
