// `usage` (credits, subscription, plan limits, invoices) and `limits check` (may I add more?).
import type { LimitsRequest } from '../../core/types';
import { integerOption, type Command } from '../command';
import { CliError, EXIT, usageError } from '../errors';
import { barRows, formatBytes, formatNumber, formatUtc, meter, table } from '../render';
import { plain } from '../text';

const usage: Command = {
  name: 'usage',
  summary: 'Credits, subscription, plan limits and invoices.',
  args: [],
  options: {},
  usesAgent: false,
  notes: ['Dates are UTC.'],
  examples: ['agent-widget usage', 'agent-widget usage --json | jq .credits.balance'],
  async run(ctx) {
    const client = ctx.client();
    const call = { signal: ctx.signal };
    // One after another: four calls at once would spend the rate limit in a burst for no visible gain.
    const credits = await client.credits({ includeStats: true, ...call });
    const subscription = await client.subscriptions.get(call);
    const { invoices } = await client.subscriptions.invoices(call);
    const { out } = ctx;
    if (out.json)
      return out.data({
        credits: credits.credits,
        stats: credits.stats,
        subscription: subscription.subscription,
        plan: subscription.plan,
        usage: subscription.usage,
        flags: subscription.flags,
        invoices,
      });
    const c = out.colors;
    const heading = (text: string): void => out.line(`\n${c.bold(text)}`);
    const { subscription: sub, usage: u, plan } = subscription;
    const period = `${formatUtc(sub.currentPeriodStart, false)} to ${formatUtc(sub.currentPeriodEnd, false)}`;

    out.line(c.bold('Credits'));
    out.line(`  Balance         ${c.bold(formatNumber(credits.credits.balance))} (${formatNumber(u.credits.perCycle)} per billing period)`);
    if (credits.stats) out.line(`  This period     ${formatNumber(credits.stats.periodUsed)} used (${period})`);
    out.line(`  All time        ${formatNumber(credits.credits.lifetimeUsed)} used`);
    const mapRows = (map: Record<string, number>): string[] =>
      barRows(
        Object.entries(map)
          .sort(([, a], [, b]) => b - a)
          .map(([label, value]) => ({ label: plain(label), value })),
        out.width - 4,
      ).map((row) => `  ${row}`);
    if (credits.stats && Object.keys(credits.stats.byFeature).length > 0) {
      out.line('  By feature');
      out.line(mapRows(credits.stats.byFeature).join('\n'));
    }
    if (credits.stats && Object.keys(credits.stats.byAgent).length > 0) {
      out.line('  By agent');
      out.line(mapRows(credits.stats.byAgent).join('\n'));
    }

    heading('Subscription');
    const interval = sub.billingInterval ? `, billed ${plain(sub.billingInterval)}` : '';
    out.line(`  Plan            ${c.bold(plain(plan.name))}${interval} · ${plain(sub.status)}`);
    out.line(`  Period          ${period}${sub.cancelAtPeriodEnd ? c.yellow(' · cancels at the end of the period') : ''}`);

    heading('Plan limits');
    const gauge = (label: string, used: number, limit: number, text: string): string =>
      `  ${label.padEnd(8)}${meter(limit > 0 ? used / limit : 1, 24, c)}  ${text}`;
    out.line(gauge('Agents', u.agents.used, u.agents.limit, `${u.agents.used} of ${u.agents.limit}`));
    out.line(
      gauge(
        'Storage',
        u.storage.usedBytes,
        u.storage.limitBytes,
        `${formatBytes(u.storage.usedBytes)} of ${formatBytes(u.storage.limitBytes)}`,
      ),
    );
    if (credits.stats) {
      const used = credits.stats.periodUsed;
      out.line(gauge('Credits', used, u.credits.perCycle, `${formatNumber(used)} of ${formatNumber(u.credits.perCycle)} used this period`));
    }

    heading('Invoices (UTC)');
    if (invoices.length === 0) out.line('  No invoices yet.');
    const rows = invoices.map((i) => [formatUtc(i.billedAt, false), plain(i.amount), plain(i.status), plain(i.invoiceNumber ?? '')]);
    for (const row of table(rows)) out.line(`  ${row}`);
  },
};

const limitsCheck: Command = {
  name: 'limits check',
  summary: 'Ask whether another agent, or more storage, fits the plan (exit 1 when it does not).',
  args: ['agent|storage'],
  options: { bytes: { type: 'string', value: 'N', description: 'For storage: the size to add, in bytes.' } },
  usesAgent: false,
  examples: ['agent-widget limits check storage --bytes "$(stat -c %s manual.pdf)"', 'agent-widget limits check agent'],
  async run(ctx, [check = ''], values) {
    if (check !== 'agent' && check !== 'storage') throw usageError('limits check takes agent or storage.');
    const bytes = integerOption(values, 'bytes', 0, Number.MAX_SAFE_INTEGER);
    if (check === 'agent' && bytes !== undefined) throw usageError('--bytes applies to limits check storage only.');
    let request: LimitsRequest = { check: 'agent' };
    if (check === 'storage') {
      if (bytes === undefined) throw usageError('limits check storage needs --bytes N.');
      request = { check, bytes };
    }
    const result = await ctx.client().subscriptions.limits(request, { signal: ctx.signal });
    const size = check === 'storage' ? formatBytes : formatNumber;
    const what = check === 'storage' ? `${formatBytes(bytes ?? 0)} more storage` : 'another agent';
    const summary = `${size(result.currentUsage)} of ${size(result.limit)} used, ${size(result.remaining)} left`;
    if (ctx.out.json) ctx.out.data(result);
    else ctx.out.line(`${result.allowed ? 'Allowed' : 'Not allowed'}: ${what} (${summary}).`);
    if (!result.allowed) throw new CliError(`The plan does not allow ${what}.`, EXIT.failed);
  },
};

export const usageCommands: Command[] = [usage, limitsCheck];
