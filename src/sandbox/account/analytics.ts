// GET /agents/{agentId}/analytics, computed from the sandbox's own chat history.
// Sandbox conventions: total* fields are all-time; periodConversations, conversationsOverTime,
// sourceCitationRate (% of replies in the period that cite a source), sourceBreakdown, topDocuments
// (the knowledge articles cited) and recentQuestions (newest 10) cover the last `days` days.
// Days are UTC calendar days; every /chat conversation counts as source 'api'.
import { addDays } from '../../core/time';
import type { AnalyticsData, AnalyticsResponse, AnalyticsSource } from '../../core/types';
import { authorizeAgent } from '../auth';
import { ARTICLES } from '../chat/knowledge';
import { queryInteger } from '../input';
import { ok } from '../responses';
import { authedRoute, type Route } from '../router';
import type { Conversation } from '../state';

const DAY_MS = 86_400_000;
const SOURCES: readonly AnalyticsSource[] = ['playground', 'iframe', 'widget', 'api'];
const RECENT_QUESTIONS = 10;
const TOP_DOCUMENTS = 5;

const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const oneDecimal = (n: number): number => Math.round(n * 10) / 10;
const percent = (part: number, whole: number): number => (whole === 0 ? 0 : oneDecimal((part / whole) * 100));

function daysBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) out.push(d);
  return out;
}

/** The chart's first day: `days` days back, or for all time the first conversation's day (none: after today). */
function firstChartDay(conversations: readonly Conversation[], days: number, today: string): string {
  if (days > 0) return addDays(today, 1 - days);
  if (conversations.length === 0) return addDays(today, 1);
  return utcDate(Math.min(...conversations.map((c) => c.startedAt)));
}

export function computeAnalytics(conversations: readonly Conversation[], days: number, nowMs: number): AnalyticsData {
  const since = days === 0 ? -Infinity : nowMs - days * DAY_MS;
  const inPeriod = conversations.filter((c) => c.startedAt >= since);
  const messages = conversations.flatMap((c) => c.messages.map((m) => ({ ...m, conversationId: c.id })));
  const periodMessages = messages.filter((m) => m.at >= since);
  const replies = periodMessages.filter((m) => m.role === 'assistant');
  const totalMessages = messages.length;

  const today = utcDate(nowMs);
  const conversationsOverTime = daysBetween(firstChartDay(conversations, days, today), today).map((date) => ({
    date,
    conversations: inPeriod.filter((c) => utcDate(c.startedAt) === date).length,
  }));

  const citations = new Map<string, number>();
  for (const { articleId } of replies) if (articleId) citations.set(articleId, (citations.get(articleId) ?? 0) + 1);
  const topDocuments = [...citations]
    .map(([id, count]) => ({ id, name: ARTICLES.find((a) => a.id === id)?.title ?? id, count }))
    .sort((a, b) => b.count - a.count || a.id.localeCompare(b.id))
    .slice(0, TOP_DOCUMENTS);

  const recentQuestions = periodMessages
    .filter((m) => m.role === 'user')
    .map((m, order) => ({ m, order }))
    .sort((a, b) => b.m.at - a.m.at || b.order - a.order)
    .slice(0, RECENT_QUESTIONS)
    .map(({ m }) => ({
      id: m.id,
      content: m.content,
      created_at: new Date(m.at).toISOString(),
      conversation_id: m.conversationId,
    }));

  return {
    overview: {
      totalConversations: conversations.length,
      periodConversations: inPeriod.length,
      totalMessages,
      avgMessagesPerConvo: conversations.length === 0 ? 0 : oneDecimal(totalMessages / conversations.length),
      sourceCitationRate: percent(replies.filter((r) => r.sources !== undefined).length, replies.length),
    },
    conversationsOverTime,
    sourceBreakdown: SOURCES.map((name) => ({ name, value: inPeriod.filter((c) => c.source === name).length })),
    topDocuments,
    recentQuestions,
  };
}

export const analyticsRoutes: Route[] = [
  authedRoute('GET', '/agents/:agentId/analytics', async ({ state, caller, params, url, now }) => {
    const agent = authorizeAgent(state, caller, params.agentId ?? '');
    const days = queryInteger(url, 'days') ?? 30;
    const conversations = [...state.conversations.values()].filter((c) => c.agentId === agent.id);
    return ok<Omit<AnalyticsResponse, 'success'>>({ data: computeAnalytics(conversations, days, now.getTime()) });
  }),
];
