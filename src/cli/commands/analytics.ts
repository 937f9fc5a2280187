// `analytics`: the overview, conversations over time as a line chart, sources as bars, top
// documents and recent questions, for one agent and period.
import { integerOption, type Command } from '../command';
import { barRows, fitSeries, formatNumber, formatUtc, lineChart } from '../render';
import { plain, truncate } from '../text';

const analytics: Command = {
  name: 'analytics',
  summary: 'Conversations, sources, top documents and recent questions.',
  args: [],
  options: {
    days: { type: 'string', value: 'N', description: 'The last N days; 0 means all time (default 30).' },
  },
  usesAgent: true,
  notes: ['Times are UTC.'],
  examples: ['agent-widget analytics --days 7', 'agent-widget analytics --days 0 --json | jq .overview'],
  async run(ctx, _args, values) {
    const days = integerOption(values, 'days', 0, 36_500) ?? 30;
    const agentId = ctx.agentId();
    const response = await ctx.client().analytics(agentId, { days, signal: ctx.signal });
    const data = response.data;
    const { out } = ctx;
    if (out.json) return out.data(data);
    const { overview: o } = data;
    const c = out.colors;
    const heading = (text: string): void => out.line(`\n${c.bold(text)}`);

    out.line(c.bold(`Analytics for ${plain(agentId)}, ${days === 0 ? 'all time' : `last ${days} days`}`));
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

export const analyticsCommands: Command[] = [analytics];
