// `analytics`: the overview, conversations over time as a line chart, sources as bars, top
// documents and recent questions, for one agent and period.
import type { AnalyticsData } from '../../core/types';
import { addDays, isIsoDate } from '../../core/time';
import { integerOption, type Command, type Values } from '../command';
import { usageError } from '../errors';
import { barRows, fitSeries, formatNumber, formatUtc, lineChart } from '../render';
import { plain, truncate } from '../text';

const analytics: Command = {
  name: 'analytics',
  summary: 'Conversations, sources, top documents and recent questions.',
  args: [],
  options: {
    days: { type: 'string', value: 'N', description: 'The last N days; 0 means all time (default 30).' },
    since: { type: 'string', value: 'YYYY-MM-DD', description: 'From this day (UTC), instead of --days.' },
    until: { type: 'string', value: 'YYYY-MM-DD', description: 'Up to and with this day (UTC; default today).' },
  },
  usesAgent: true,
  notes: [
    'Times are UTC.',
    'The service counts back from today only (its days parameter): --since asks for the days since then; with --until the',
    'conversations per day, the period count and the recent questions end that day, while sources and top documents run to today.',
  ],
  examples: [
    'agent-widget analytics --days 7',
    'agent-widget analytics --since 2026-11-01 --until 2026-11-15',
    'agent-widget analytics --days 0 --json | jq .overview',
  ],
  async run(ctx, _args, values) {
    const { days, until, title } = periodOf(values);
    const agentId = ctx.agentId();
    const response = await ctx.client().analytics(agentId, { days, signal: ctx.signal });
    const data = until === undefined ? response.data : endingOn(response.data, until);
    const { out } = ctx;
    if (out.json) return out.data(data);
    const { overview: o } = data;
    const c = out.colors;
    const heading = (text: string): void => out.line(`\n${c.bold(text)}`);

    out.line(c.bold(`Analytics for ${plain(agentId)}, ${title}`));
    out.line();
    out.line(
      `  Conversations   ${c.bold(formatNumber(o.periodConversations))} in the period · ${formatNumber(o.totalConversations)} in all`,
    );
    out.line(`  Messages        ${formatNumber(o.totalMessages)} in all · ${formatNumber(o.avgMessagesPerConvo)} per conversation`);
    out.line(`  Sources cited   in ${formatNumber(o.sourceCitationRate)}% of replies`);

    const points = data.conversationsOverTime;
    const first = points[0];
    const last = points.at(-1);
    if (first && last && points.some((p) => p.conversations > 0)) {
      const series = fitSeries(
        points.map((p) => p.conversations),
        out.width - 12,
      );
      heading(series.daysPerPoint === 1 ? 'Conversations per day' : `Conversations per ${series.daysPerPoint} days`);
      out.line(lineChart(series.values));
      out.line(c.dim(`  ${plain(first.date)} … ${plain(last.date)}`));
    } else {
      heading('Conversations');
      out.line('  No conversations in this period.');
    }

    heading('Where conversations come from');
    out.line(
      barRows(
        data.sourceBreakdown.map((s) => ({ label: plain(s.name), value: s.value })),
        out.width,
      ).join('\n'),
    );

    heading('Top documents');
    if (data.topDocuments.length === 0) out.line('  No document was cited in this period.');
    const countWidth = Math.max(0, ...data.topDocuments.map((d) => String(d.count).length));
    for (const d of data.topDocuments)
      out.line(`  ${String(d.count).padStart(countWidth)}  ${truncate(plain(d.name), out.width - countWidth - 6)}`);

    heading('Recent questions (UTC)');
    if (data.recentQuestions.length === 0) out.line('  No questions in this period.');
    for (const q of data.recentQuestions) out.line(`  ${c.dim(formatUtc(q.created_at))}  ${truncate(plain(q.content), out.width - 22)}`);
  },
};

const DAY_MS = 86_400_000;

/** A day given on the command line: YYYY-MM-DD, a real date, not after today. */
function dayOption(values: Values, name: string, today: string): string | undefined {
  const raw = values[name];
  if (typeof raw !== 'string') return undefined;
  const day = raw.trim();
  if (!isIsoDate(day)) throw usageError(`--${name} must be a date as YYYY-MM-DD, e.g. ${today}.`);
  if (day > today) throw usageError(`--${name} ${day} is after today (${today}, UTC).`);
  return day;
}

/** The days to ask the service for, the day to end on when before today, and the period in words. */
function periodOf(values: Values): { days: number; until: string | undefined; title: string } {
  const today = new Date().toISOString().slice(0, 10);
  const since = dayOption(values, 'since', today);
  const until = dayOption(values, 'until', today);
  const days = integerOption(values, 'days', 0, 36_500);
  if (days !== undefined && (since !== undefined || until !== undefined)) throw usageError('Give --days, or --since/--until, not both.');
  if (since !== undefined && until !== undefined && since > until) throw usageError(`--since ${since} is after --until ${until}.`);
  if (since === undefined && until === undefined) {
    const counted = days ?? 30;
    return { days: counted, until: undefined, title: counted === 0 ? 'all time' : `last ${counted} days` };
  }
  const end = until ?? today;
  // The service's days count today as the first: since today is 1 day. No --since: all time up to --until.
  const asked = since === undefined ? 0 : Math.round((Date.parse(today) - Date.parse(since)) / DAY_MS) + 1;
  return { days: asked, until: end === today ? undefined : end, title: `${since ?? 'the start'} to ${end}` };
}

/** The answer cut at the end of `until`, where the service's data says which day: the series, the period's count, recent questions. */
function endingOn(data: AnalyticsData, until: string): AnalyticsData {
  const conversationsOverTime = data.conversationsOverTime.filter((point) => point.date <= until);
  const end = Date.parse(addDays(until, 1));
  return {
    ...data,
    overview: { ...data.overview, periodConversations: conversationsOverTime.reduce((sum, point) => sum + point.conversations, 0) },
    conversationsOverTime,
    recentQuestions: data.recentQuestions.filter((question) => Date.parse(question.created_at) < end),
  };
}

export const analyticsCommands: Command[] = [analytics];
