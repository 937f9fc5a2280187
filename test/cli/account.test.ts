// `analytics`, `usage` and `limits check` end to end against the sandbox, with the sandbox's clock.
import { afterEach, describe, expect, it } from 'vitest';
import type { AnalyticsData } from '../../src/core/types';
import { DEMO_AGENT_ID, DEMO_API_KEY, manualClock, runCli, sandboxEnv, serveSandbox, type Clock, type Served } from './harness';

let served: Served | undefined;

afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function chat(message: string): Promise<void> {
  if (!served) throw new Error('no sandbox');
  const response = await fetch(`${served.baseUrl}/chat`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${DEMO_API_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ agentId: DEMO_AGENT_ID, message }),
  });
  expect(response.status).toBe(200);
}

const DAY = 86_400_000;
const HOSTILE = 'Prices?\u001b]0;owned\u0007\u001b[2J\u009b31m\u202eevil\r\nnext line';

async function sandboxWithConversations(clock: Clock): Promise<Served> {
  served = await serveSandbox({ now: clock.now });
  await chat('What are your prices?');
  clock.advance(DAY);
  await chat('Do you treat back pain?');
  await chat('How much is a first visit?');
  clock.advance(DAY);
  await chat(HOSTILE);
  return served;
}

describe('agent-widget analytics', () => {
  it('shows the overview, a chart per day, sources as bars, top documents and recent questions', async () => {
    const clock = manualClock('2026-11-21T10:00:00Z');
    const env = sandboxEnv(await sandboxWithConversations(clock));
    const result = await runCli(['analytics', '--days', '7'], { env });
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain('Analytics for demo-agent, last 7 days');
    expect(out).toMatch(/Conversations\s+4 in the period · 4 in all/);
    expect(out).toMatch(/Messages\s+8 in all · 2 per conversation/);
    expect(out).toContain('Conversations per day');
    // asciichart's y axis: one row per count from 2 down to 0, the curve joined with box characters.
    const chart = out.split('\n').filter((l) => /^ +\d+ +[┼┤]/.test(l));
    expect(chart.map((l) => l.trim().split(/\s/)[0])).toEqual(['2', '1', '0']);
    expect(out).toMatch(/2026-11-17 … 2026-11-23/);
    expect(out).toMatch(/ {2}api +█+ 4\n/);
    expect(out).toMatch(/ {2}widget +0\n/);
    expect(out).toMatch(/Top documents\n {2}\d {2}\S/);
    expect(out).toContain('2026-11-23 10:00  Prices?]0;owned[2J31mevil next line');
    expect(out).toContain('2026-11-21 10:00  What are your prices?');
  });

  it('never lets service text drive the terminal; --json keeps the text, escaped', async () => {
    const clock = manualClock('2026-11-21T10:00:00Z');
    const env = sandboxEnv(await sandboxWithConversations(clock));
    const human = await runCli(['analytics'], { env });
    const json = await runCli(['analytics', '--json'], { env });
    for (const text of [human.stdout, json.stdout]) {
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
    const data = JSON.parse(json.stdout) as { recentQuestions: { content: string }[]; overview: { totalConversations: number } };
    expect(data.recentQuestions[0]?.content).toBe(HOSTILE);
    expect(data.overview.totalConversations).toBe(4);
  });

  it('--since/--until: asks for the days since, ends the series, the period count and the questions on --until', async () => {
    // The CLI counts from its own today (the real one), so the sandbox's conversations are put around it.
    const today = new Date().toISOString().slice(0, 10);
    const dayBefore = (days: number): string => new Date(Date.parse(today) - days * DAY).toISOString().slice(0, 10);
    const clock = manualClock(`${dayBefore(2)}T10:00:00Z`);
    const asked: string[] = [];
    served = await serveSandbox({
      now: clock.now,
      override: (request) => {
        asked.push(new URL(request.url).search);
        return undefined;
      },
    });
    await chat('What are your prices?');
    clock.advance(DAY);
    await chat('Do you treat back pain?');
    await chat('How much is a first visit?');
    clock.advance(DAY);
    await chat('Is parking free?');
    const env = sandboxEnv(served);
    const result = await runCli(['analytics', '--since', dayBefore(2), '--until', dayBefore(1), '--json'], { env });
    expect(result.code).toBe(0);
    expect(asked.at(-1)).toBe('?days=3');
    const data = JSON.parse(result.stdout) as AnalyticsData;
    expect(data.conversationsOverTime).toEqual([
      { date: dayBefore(2), conversations: 1 },
      { date: dayBefore(1), conversations: 2 },
    ]);
    expect(data.overview).toMatchObject({ periodConversations: 3, totalConversations: 4 });
    expect(data.recentQuestions.map((q) => q.content)).not.toContain('Is parking free?');
    expect(data.recentQuestions).toHaveLength(3);
    const human = await runCli(['analytics', '--since', dayBefore(1)], { env });
    expect(asked.at(-1)).toBe('?days=2');
    expect(human.stdout).toContain(`Analytics for demo-agent, ${dayBefore(1)} to ${today}`);
    expect(human.stdout).toContain(`  ${dayBefore(1)} … ${today}\n`);
  });

  it('--since/--until take real dates, in order, not after today, and not with --days', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const cases: [string[], string][] = [
      [['--since', '2026-02-30'], `--since must be a date as YYYY-MM-DD, e.g. ${today}.`],
      [['--until', 'yesterday'], `--until must be a date as YYYY-MM-DD, e.g. ${today}.`],
      [['--since', '2020-01-02', '--until', '2020-01-01'], '--since 2020-01-02 is after --until 2020-01-01.'],
      [['--since', '9999-01-01'], `--since 9999-01-01 is after today (${today}, UTC).`],
      [['--since', '2020-01-01', '--days', '7'], 'Give --days, or --since/--until, not both.'],
    ];
    for (const [args, message] of cases)
      expect(
        await runCli(['analytics', ...args], { env: { AGENT_API_KEY: DEMO_API_KEY, AGENT_BASE_URL: 'http://127.0.0.1:9', AGENT_ID: 'a' } }),
      ).toEqual({
        code: 2,
        stdout: '',
        stderr: `agent-widget: ${message}\n`,
      });
  });

  it('says so when the period has no conversations, instead of drawing an empty chart', async () => {
    served = await serveSandbox({ now: manualClock().now });
    for (const days of ['0', '30']) {
      const result = await runCli(['analytics', '--days', days], { env: sandboxEnv(served) });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(days === '0' ? 'all time' : 'last 30 days');
      expect(result.stdout).toContain('No conversations in this period.');
      expect(result.stdout).not.toContain('┼');
      expect(result.stdout).toContain('No questions in this period.');
    }
  });
});

describe('agent-widget usage and limits check', () => {
  it('shows credits by feature and agent, the subscription, limits as bars and invoices', async () => {
    const clock = manualClock('2026-11-21T10:00:00Z');
    const env = sandboxEnv(await sandboxWithConversations(clock));
    const result = await runCli(['usage'], { env });
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/Balance\s+496 \(1,000 per billing period\)/);
    expect(out).toMatch(/This period\s+4 used \(2026-11-01 to 2026-12-01\)/);
    expect(out).toMatch(/chat +█+ 4/);
    expect(out).toMatch(/demo-agent +█+ 4/);
    expect(out).toMatch(/Plan\s+Starter, billed monthly · active/);
    expect(out).toMatch(/Agents +█{8}░{16} {2}1 of 3/);
    expect(out).toMatch(/Storage +░{24} {2}0 B of 100 MiB/);
    expect(out).toMatch(/Credits +░{24} {2}4 of 1,000 used this period/);
    expect(out).toMatch(/2026-10-01 +\$29\.00 {2}completed +INV-\S+/);
    expect(out.match(/\$29\.00/g)).toHaveLength(3);

    const json = await runCli(['usage', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      credits: { balance: 496 },
      stats: { periodUsed: 4, byFeature: { chat: 4 } },
      plan: { name: 'Starter' },
      usage: { agents: { used: 1, limit: 3 } },
      invoices: [{ amount: '$29.00' }, {}, {}],
    });
  });

  it('credits: the balance, this period, all time, by feature and by agent', async () => {
    const clock = manualClock('2026-11-21T10:00:00Z');
    const env = sandboxEnv(await sandboxWithConversations(clock));
    const result = await runCli(['credits'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Credits\n {2}Balance +496\n {2}This period +4 used\n {2}All time +4 used\n {2}By feature\n {4}chat +█+ 4\n {2}By agent\n {4}demo-agent +█+ 4\n$/,
    );
    expect(served?.requests).toEqual([...Array<string>(4).fill('POST /chat'), 'GET /credits']);
    const json = await runCli(['credits', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      credits: { balance: 496, lifetimeUsed: 4 },
      stats: { periodUsed: 4, byAgent: { 'demo-agent': 4 } },
    });
  });

  it('usage shows what it has when one of its calls fails, names the missing part, and exits with its code', async () => {
    served = await serveSandbox({
      now: manualClock().now,
      override: (request) =>
        new URL(request.url).pathname.endsWith('/invoices')
          ? Response.json({ success: false, error: 'Billing is down.' }, { status: 500 })
          : undefined,
    });
    const env = sandboxEnv(served);
    const result = await runCli(['usage'], { env });
    expect(result.code).toBe(8);
    expect(result.stdout).toMatch(/Balance\s+500 \(1,000 per billing period\)/);
    expect(result.stdout).toMatch(/Plan\s+Starter/);
    expect(result.stdout).not.toContain('Invoices');
    expect(result.stderr).toBe('agent-widget: Shown without the invoices: The service failed (500: Billing is down); try again later.\n');
    const json = await runCli(['usage', '--json'], { env });
    expect(json.code).toBe(8);
    const data = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(data).toMatchObject({
      credits: { balance: 500 },
      plan: { name: 'Starter' },
      missing: [
        {
          part: 'the invoices',
          error: { code: 'service_error', message: 'The service failed (500: Billing is down); try again later.', status: 500 },
          exitCode: 8,
        },
      ],
    });
    expect(data).not.toHaveProperty('invoices');
  });

  it('exits 0 when the plan allows more and 1 when it does not', async () => {
    served = await serveSandbox({ now: manualClock().now });
    const env = sandboxEnv(served);
    const small = await runCli(['limits', 'check', 'storage', '--bytes', '5000000'], { env });
    expect(small).toEqual({ code: 0, stdout: 'Allowed: 4.8 MiB more storage (0 B of 100 MiB used, 100 MiB left).\n', stderr: '' });
    const big = await runCli(['limits', 'check', 'storage', '--bytes', String(200 * 1024 * 1024), '--json'], { env });
    expect(big.code).toBe(1);
    expect(JSON.parse(big.stdout)).toMatchObject({ allowed: false, check: 'storage' });
    expect(big.stderr).toBe('agent-widget: The plan does not allow 200 MiB more storage.\n');
    const agent = await runCli(['limits', 'check', 'agent'], { env });
    expect(agent).toMatchObject({ code: 0, stdout: 'Allowed: another agent (1 of 3 used, 2 left).\n' });
    const missing = await runCli(['limits', 'check', 'storage'], { env });
    expect(missing).toMatchObject({ code: 2, stderr: 'agent-widget: limits check storage needs --bytes N.\n' });
  });
});
