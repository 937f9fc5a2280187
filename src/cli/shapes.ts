// The client passes the service's JSON through as typed; before printing, the CLI checks the fields it
// reads, so a surprising answer is one calm "does not understand" (exit 8), never a crash or `undefined`.
import { ApiError } from '../core/http';
import type {
  AnalyticsData,
  CreditsResponse,
  DocumentStatusResponse,
  Invoice,
  LimitsResponse,
  SubscriptionResponse,
  WebSource,
} from '../core/types';

type Check = (value: unknown) => boolean;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str: Check = (v) => typeof v === 'string';
const num: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const bool: Check = (v) => typeof v === 'boolean';
const optional =
  (check: Check): Check =>
  (v) =>
    v === undefined || v === null || check(v);
const arrayOf =
  (check: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(check);
const shape =
  (fields: Record<string, Check>): Check =>
  (v) =>
    isRecord(v) && Object.entries(fields).every(([k, check]) => check(v[k]));
const numberMap: Check = (v) => isRecord(v) && Object.values(v).every(num);

/** Returns `value` typed as T when it fits, else throws the `invalid_response` ApiError naming `what`. */
function expectShape<T>(value: unknown, check: Check, what: string): T {
  if (!check(value)) throw new ApiError(`unexpected ${what}`, { kind: 'invalid_response' });
  return value as T;
}

const webSourceShape = shape({
  id: str,
  url: str,
  mode: str,
  maxPages: optional(num),
  maxDepth: optional(num),
  discoveredUrls: arrayOf(shape({ url: str })),
  status: optional(str),
});

export const webSource = (v: unknown): WebSource => expectShape(v, webSourceShape, 'web source');
export const webSources = (v: unknown): WebSource[] => expectShape(v, arrayOf(webSourceShape), 'web source list');

export const documentStatus = (v: unknown): DocumentStatusResponse =>
  expectShape(v, shape({ status: str }), 'document status');

export const analytics = (v: unknown): AnalyticsData =>
  expectShape(
    v,
    shape({
      overview: shape({
        totalConversations: num,
        periodConversations: num,
        totalMessages: num,
        avgMessagesPerConvo: num,
        sourceCitationRate: num,
      }),
      conversationsOverTime: arrayOf(shape({ date: str, conversations: num })),
      sourceBreakdown: arrayOf(shape({ name: str, value: num })),
      topDocuments: arrayOf(shape({ name: str, count: num })),
      recentQuestions: arrayOf(shape({ content: str, created_at: str })),
    }),
    'analytics',
  );

export const credits = (v: unknown): CreditsResponse =>
  expectShape(
    v,
    shape({
      credits: shape({ balance: num, lifetimeUsed: num }),
      stats: optional(shape({ periodUsed: num, totalUsed: num, byFeature: numberMap, byAgent: numberMap })),
    }),
    'credits',
  );

export const subscription = (v: unknown): SubscriptionResponse =>
  expectShape(
    v,
    shape({
      subscription: shape({
        status: str,
        currentPeriodStart: str,
        currentPeriodEnd: str,
        cancelAtPeriodEnd: bool,
        billingInterval: optional(str),
      }),
      plan: shape({ name: str }),
      usage: shape({
        agents: shape({ used: num, limit: num }),
        storage: shape({ usedBytes: num, limitBytes: num }),
        credits: shape({ balance: num, perCycle: num }),
      }),
    }),
    'subscription',
  );

export const invoices = (v: unknown): Invoice[] =>
  expectShape(
    v,
    arrayOf(shape({ invoiceNumber: optional(str), status: str, amount: str, billedAt: str })),
    'invoice list',
  );

export const limits = (v: unknown): LimitsResponse =>
  expectShape(v, shape({ allowed: bool, currentUsage: num, limit: num, remaining: num }), 'limit check');
