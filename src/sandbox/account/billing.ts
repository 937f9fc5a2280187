// Credits, subscription, plan limits and invoices for the caller's account. The sandbox account is
// on a fixed paid plan ("Starter", monthly) whose billing period is the current UTC calendar month;
// invoices are one per previous month, newest first.
import type { CreditsResponse, Invoice, InvoicesResponse, LimitsResponse, SubscriptionResponse } from '../../core/types';
import { readJsonObject } from '../input';
import { badRequest, ok } from '../responses';
import { authedRoute, type Route } from '../router';
import { accountOf, type Account, type SandboxState } from '../state';

export const SANDBOX_PLAN = {
  id: 'starter',
  name: 'Starter',
  maxAgents: 3,
  storageBytes: 100 * 1024 * 1024,
  creditsPerCycle: 1000,
  priceCents: 2900,
} as const;
const INVOICE_COUNT = 3;

/** The current billing period: the UTC calendar month containing `nowMs`, offset by `monthsBack`. */
function billingPeriod(nowMs: number, monthsBack = 0): { start: Date; end: Date } {
  const now = new Date(nowMs);
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack + 1, 1));
  return { start, end };
}

function usedSince(account: Account, sinceMs: number): number {
  return account.ledger.filter((e) => e.at >= sinceMs).reduce((sum, e) => sum + e.amount, 0);
}

function totals(entries: Account['ledger'], by: (e: Account['ledger'][number]) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of entries) out[by(e)] = (out[by(e)] ?? 0) + e.amount;
  return out;
}

function usage(state: SandboxState, owner: string): { agents: number; storageBytes: number } {
  const agentIds = new Set([...state.agents.values()].filter((a) => a.owner === owner).map((a) => a.id));
  const storageBytes = [...state.documents.values()].filter((d) => agentIds.has(d.agentId)).reduce((sum, d) => sum + d.size, 0);
  return { agents: agentIds.size, storageBytes };
}

const percentage = (used: number, limit: number): number => Math.round((used / limit) * 1000) / 10;

export const billingRoutes: Route[] = [
  authedRoute('GET', '/credits', async ({ state, caller, url, now }) => {
    const account = accountOf(state, caller.owner);
    const lifetimeUsed = usedSince(account, -Infinity);
    const credits = { balance: account.balance, lifetimeUsed, updatedAt: new Date(account.updatedAt).toISOString() };
    if (url.searchParams.get('includeStats') !== 'true') return ok<Omit<CreditsResponse, 'success'>>({ credits });
    return ok<Omit<CreditsResponse, 'success'>>({
      credits,
      stats: {
        totalUsed: lifetimeUsed,
        periodUsed: usedSince(account, billingPeriod(now.getTime()).start.getTime()),
        byFeature: totals(account.ledger, (e) => e.feature),
        byAgent: totals(account.ledger, (e) => e.agentId),
      },
    });
  }),

  authedRoute('GET', '/subscriptions', async ({ state, caller, now }) => {
    const period = billingPeriod(now.getTime());
    const used = usage(state, caller.owner);
    const agentsAtLimit = used.agents >= SANDBOX_PLAN.maxAgents;
    const storageOver = used.storageBytes > SANDBOX_PLAN.storageBytes;
    return ok<Omit<SubscriptionResponse, 'success'>>({
      subscription: {
        id: `sub_${caller.owner}`,
        planId: SANDBOX_PLAN.id,
        status: 'active',
        currentPeriodStart: period.start.toISOString(),
        currentPeriodEnd: period.end.toISOString(),
        cancelAtPeriodEnd: false,
        billingInterval: 'monthly',
      },
      plan: {
        name: SANDBOX_PLAN.name,
        features: {
          maxAgents: SANDBOX_PLAN.maxAgents,
          storageBytes: SANDBOX_PLAN.storageBytes,
          creditsPerCycle: SANDBOX_PLAN.creditsPerCycle,
          booking: true,
          apiAccess: true,
        },
      },
      usage: {
        agents: {
          used: used.agents,
          limit: SANDBOX_PLAN.maxAgents,
          remaining: Math.max(0, SANDBOX_PLAN.maxAgents - used.agents),
          percentage: percentage(used.agents, SANDBOX_PLAN.maxAgents),
          isAtLimit: agentsAtLimit,
        },
        storage: {
          usedBytes: used.storageBytes,
          limitBytes: SANDBOX_PLAN.storageBytes,
          remainingBytes: Math.max(0, SANDBOX_PLAN.storageBytes - used.storageBytes),
          percentage: percentage(used.storageBytes, SANDBOX_PLAN.storageBytes),
          isAtLimit: used.storageBytes >= SANDBOX_PLAN.storageBytes,
          isOverLimit: storageOver,
        },
        credits: { balance: accountOf(state, caller.owner).balance, perCycle: SANDBOX_PLAN.creditsPerCycle },
      },
      flags: {
        isFreePlan: false,
        isPaidPlan: true,
        canUpgrade: true,
        needsUpgrade: used.agents > SANDBOX_PLAN.maxAgents || storageOver,
      },
    });
  }),

  authedRoute('POST', '/subscriptions/limits', async ({ request, state, caller }) => {
    const body = await readJsonObject(request);
    const used = usage(state, caller.owner);
    let result: Omit<LimitsResponse, 'success'>;
    if (body.check === 'agent') {
      const remaining = Math.max(0, SANDBOX_PLAN.maxAgents - used.agents);
      result = {
        check: 'agent',
        allowed: remaining > 0,
        currentUsage: used.agents,
        limit: SANDBOX_PLAN.maxAgents,
        remaining,
      };
    } else if (body.check === 'storage') {
      const bytes = body.bytes;
      if (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 0)
        throw badRequest('bytes is required for check "storage" (a whole number of bytes, 0 or more).');
      const remaining = Math.max(0, SANDBOX_PLAN.storageBytes - used.storageBytes);
      result = {
        check: 'storage',
        allowed: bytes <= remaining,
        currentUsage: used.storageBytes,
        limit: SANDBOX_PLAN.storageBytes,
        remaining,
      };
    } else throw badRequest('check must be "agent" or "storage".');
    return ok(result);
  }),

  authedRoute('GET', '/subscriptions/invoices', async ({ caller, now }) => {
    const invoices: Invoice[] = Array.from({ length: INVOICE_COUNT }, (_, i) => {
      const { start, end } = billingPeriod(now.getTime(), i + 1);
      const month = start.toISOString().slice(0, 7).replace('-', '');
      return {
        transactionId: `txn_sandbox_${caller.owner}_${month}`,
        invoiceNumber: `INV-${month}`,
        status: 'completed',
        amount: `$${(SANDBOX_PLAN.priceCents / 100).toFixed(2)}`,
        amountRaw: SANDBOX_PLAN.priceCents,
        currencyCode: 'USD',
        billedAt: start.toISOString(),
        periodStart: start.toISOString(),
        periodEnd: end.toISOString(),
      };
    });
    return ok<Omit<InvoicesResponse, 'success'>>({ invoices });
  }),
];
