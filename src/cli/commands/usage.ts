// `usage` (credits, subscription, plan limits, invoices), `credits` (the balance and its use) and `limits check` (may I add more?).
import { ApiError } from '../../core/http';
import type { CreditsResponse, Invoice, LimitsRequest, SubscriptionResponse } from '../../core/types';
import { integerOption, type Command, type Context } from '../command';
import { CliError, EXIT, usageError } from '../errors';
import { errorBody } from '../json-error';
import type { Output } from '../output';
import { barRows, formatBytes, formatNumber, formatUtc, meter, table } from '../render';
import { plain } from '../text';

/** The plan's side of the credits, when the subscription could be read. */
interface CreditPlan {
  perCycle: number;
  period: string;
}

const periodOf = (subscription: SubscriptionResponse['subscription']): string =>
  `${formatUtc(subscription.currentPeriodStart, false)} to ${formatUtc(subscription.currentPeriodEnd, false)}`;

/** Balance, this period, all time, and by feature and by agent as bars: shared by `credits` and `usage`. */
function printCredits(out: Output, { credits, stats }: CreditsResponse, plan: CreditPlan | undefined): void {
  const c = out.colors;
  out.line(c.bold('Credits'));
  const perCycle = plan ? ` (${formatNumber(plan.perCycle)} per billing period)` : '';
  out.line(`  Balance         ${c.bold(formatNumber(credits.balance))}${perCycle}`);
  if (stats) out.line(`  This period     ${formatNumber(stats.periodUsed)} used${plan ? ` (${plan.period})` : ''}`);
  out.line(`  All time        ${formatNumber(credits.lifetimeUsed)} used`);
  const mapRows = (map: Record<string, number>): string[] =>
    barRows(
      Object.entries(map)
        .sort(([, a], [, b]) => b - a)
        .map(([label, value]) => ({ label: plain(label), value })),
      out.width - 4,
    ).map((row) => `  ${row}`);
  for (const [title, map] of [
    ['By feature', stats?.byFeature ?? {}],
    ['By agent', stats?.byAgent ?? {}],
  ] as const) {
    if (Object.keys(map).length === 0) continue;
    out.line(`  ${title}`);
    out.line(mapRows(map).join('\n'));
  }
}

const credits: Command = {
  name: 'credits',
  summary: 'The credit balance, use this billing period and in all, by feature and by agent.',
  args: [],
  options: {},
  usesAgent: false,
  examples: ['agent-widget credits', 'agent-widget credits --json | jq .stats.byAgent'],
  async run(ctx) {
    const answer = await ctx.client().credits({ includeStats: true, signal: ctx.signal });
    if (ctx.out.json) return ctx.out.data({ credits: answer.credits, stats: answer.stats });
    printCredits(ctx.out, answer, undefined);
  },
};

/** One of usage's calls: its answer, or why it has none. */
type Part<T> = { ok: true; value: T } | { ok: false; error: CliError };

async function part<T>(ctx: Context, call: () => Promise<T>): Promise<Part<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    const explained = ctx.explain(error);
    // What would fail every part stops the command: Ctrl-C, a refused key, a rate limit, no connection.
    const everyPart = error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout');
    if (everyPart || ([EXIT.interrupted, EXIT.auth, EXIT.rateLimited, EXIT.usage] as number[]).includes(explained.exitCode))
      throw explained;
    return { ok: false, error: explained };
  }
}

const usage: Command = {
  name: 'usage',
  summary: 'Credits, subscription, plan limits and invoices.',
  args: [],
  options: {},
  usesAgent: false,
  notes: [
    'Dates are UTC.',
    'When one of its three requests fails, what the others brought is shown, the missing part is named, and the exit code is that failure’s.',
  ],
  examples: ['agent-widget usage', 'agent-widget usage --json | jq .credits.balance'],
  async run(ctx) {
    const client = ctx.client();
    const call = { signal: ctx.signal };
    // One after another: three calls at once would spend the rate limit in a burst for no visible gain.
    const creditsPart = await part(ctx, () => client.credits({ includeStats: true, ...call }));
    const subscriptionPart = await part(ctx, () => client.subscriptions.get(call));
    const invoicesPart = await part(ctx, () => client.subscriptions.invoices(call));
    const failed = (
      [
        ['the credits', creditsPart],
        ['the subscription and plan limits', subscriptionPart],
        ['the invoices', invoicesPart],
      ] as const
    ).flatMap(([what, result]) => (result.ok ? [] : [{ what, error: result.error }]));
    const [first] = failed;
    if (first && failed.length === 3) throw first.error;

    const credit = creditsPart.ok ? creditsPart.value : undefined;
    const subscription = subscriptionPart.ok ? subscriptionPart.value : undefined;
    const invoices = invoicesPart.ok ? invoicesPart.value.invoices : undefined;
    const { out } = ctx;
    if (out.json)
      out.data({
        ...(credit ? { credits: credit.credits, stats: credit.stats } : {}),
        ...(subscription
          ? { subscription: subscription.subscription, plan: subscription.plan, usage: subscription.usage, flags: subscription.flags }
          : {}),
        ...(invoices ? { invoices } : {}),
        ...(first ? { missing: failed.map(({ what, error }) => ({ part: what, error: errorBody(error), exitCode: error.exitCode })) } : {}),
      });
    else printUsage(out, credit, subscription, invoices);
    if (first)
      throw new CliError(
        `Shown without ${failed.map(({ what }) => what).join(' and ')}: ${failed.map(({ error }) => error.message).join(' ')}`,
        first.error.code,
        first.error,
      );
  },
};

function printUsage(
  out: Output,
  credit: CreditsResponse | undefined,
  subscription: SubscriptionResponse | undefined,
  invoices: Invoice[] | undefined,
): void {
  const c = out.colors;
  const heading = (text: string): void => out.line(`\n${c.bold(text)}`);
  const plan = subscription ? { perCycle: subscription.usage.credits.perCycle, period: periodOf(subscription.subscription) } : undefined;
  if (credit) printCredits(out, credit, plan);
  if (subscription) {
    const { subscription: sub, usage: u, plan: planned } = subscription;
    heading('Subscription');
    const interval = sub.billingInterval ? `, billed ${plain(sub.billingInterval)}` : '';
    out.line(`  Plan            ${c.bold(plain(planned.name))}${interval} · ${plain(sub.status)}`);
    out.line(`  Period          ${periodOf(sub)}${sub.cancelAtPeriodEnd ? c.yellow(' · cancels at the end of the period') : ''}`);

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
    if (credit?.stats) {
      const used = credit.stats.periodUsed;
      out.line(gauge('Credits', used, u.credits.perCycle, `${formatNumber(used)} of ${formatNumber(u.credits.perCycle)} used this period`));
    }
  }
  if (invoices) {
    heading('Invoices (UTC)');
    if (invoices.length === 0) out.line('  No invoices yet.');
    const rows = invoices.map((i) => [formatUtc(i.billedAt, false), plain(i.amount), plain(i.status), plain(i.invoiceNumber ?? '')]);
    for (const row of table(rows)) out.line(`  ${row}`);
  }
}

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
    if (!result.allowed) throw new CliError(`The plan does not allow ${what}.`, 'failed');
  },
};

export const usageCommands: Command[] = [usage, credits, limitsCheck];
