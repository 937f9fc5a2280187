// The authenticated endpoints' answers (api-spec §2 and §4: chat, web sources, documents, analytics,
// credits, subscriptions, limits, invoices), written once; the server client checks every answer
// with these. Records whose remaining fields the spec does not show keep them (loose).
import { CREDITS_REMAINING_FIELDS, WEB_SOURCE_ID_FIELDS } from '../spec-assumptions';
import { isFiniteNumber } from '../guards';
import {
  array,
  boolean,
  loose,
  nullable,
  number,
  object,
  optional,
  record,
  string,
  unknown,
  where,
  type Infer,
  type Schema,
} from '../schema';

// /chat: `success` and `credits` are shown, the rest is not.
export interface ChatCredits {
  /** Credits used by this message. */
  used: number;
  /** The balance after it. */
  remaining: number;
}

/** The credits object read tolerantly (its field names are not shown); undefined when unreadable. */
export const chatCredits: Schema<ChatCredits | undefined> = (value) => {
  if (typeof value !== 'object' || value === null) return undefined;
  const c = value as Record<string, unknown>;
  const remaining = CREDITS_REMAINING_FIELDS.map((field) => c[field]).find(isFiniteNumber);
  return isFiniteNumber(c.used) && remaining !== undefined ? { used: c.used, remaining } : undefined;
};

/** The service's reply: credits when they can be read; every other field kept for the owner. */
export const chatResponse = loose(object({ credits: chatCredits }));

const text = where(string, (v) => v.trim() !== '', 'a non-empty string');
const count = optional(number, 0);

/** The web source's identifier: its field name is not shown (see spec-assumptions). */
const webSourceId: Schema<string> = (value, path) => {
  const record = (value ?? {}) as Record<string, unknown>;
  const field = WEB_SOURCE_ID_FIELDS.find((name) => typeof record[name] === 'string' && record[name] !== '') ?? 'id';
  return text(record[field], `${path}.${field}`);
};

const webSourceFields = object({
  agentId: optional(string, ''),
  url: string,
  /** crawl, sitemap or single; another word is kept as sent. */
  mode: optional(string, ''),
  maxPages: optional(number, 50),
  maxDepth: optional(number, 2),
  discoveredUrls: optional(array(object({ url: string })), []),
  /** scraping, chunking, completed; a failure word is not shown. */
  status: optional(string),
});
export const webSource: Schema<Infer<typeof webSourceFields> & { id: string; [field: string]: unknown }> = (value, path) => ({
  ...loose(webSourceFields)(value, path),
  id: webSourceId(value, path),
});

export const webSourceResponse = object({ webSource });
export const webSourceListResponse = object({ webSources: array(webSource) });
export const discoverWebSourceResponse = object({ webSource, discoveredCount: count });
export const trainWebSourceResponse = object({ webSource, callId: optional(string, '') });
export const deleteResponse = object({});

export const convertDocumentResponse = object({ callId: optional(string, ''), message: optional(string, '') });
/** processing, chunking, completed or error; another word is kept, and waiting goes on. */
export const documentStatusResponse = object({ status: text });
export const uploadDocumentResponse = loose(object({ documentId: text }));

const overview = object({
  totalConversations: count,
  periodConversations: count,
  totalMessages: count,
  avgMessagesPerConvo: count,
  /** Percentage, 0 to 100. */
  sourceCitationRate: count,
});
export const analyticsData = object({
  overview,
  conversationsOverTime: optional(array(object({ date: string, conversations: count })), []),
  /** playground, iframe, widget or api. */
  sourceBreakdown: optional(array(object({ name: string, value: count })), []),
  topDocuments: optional(array(object({ id: optional(string, ''), name: optional(string, ''), count })), []),
  recentQuestions: optional(
    array(
      object({
        id: optional(string, ''),
        content: optional(string, ''),
        created_at: optional(string, ''),
        conversation_id: optional(string, ''),
      }),
    ),
    [],
  ),
});
export const analyticsResponse = object({ data: analyticsData });

export const credits = object({ balance: number, lifetimeUsed: count, updatedAt: optional(string, '') });
export const creditStats = object({
  totalUsed: count,
  periodUsed: count,
  /** Feature name to credits; names seen: chat, tts, scenario_trigger. */
  byFeature: optional(record(number), {}),
  /** Agent id to credits. */
  byAgent: optional(record(number), {}),
});
export const creditsResponse = object({ credits, stats: optional(creditStats) });

export const subscription = object({
  id: optional(string, ''),
  planId: optional(string, ''),
  /** active, past_due, cancelled or paused. */
  status: string,
  currentPeriodStart: optional(string, ''),
  currentPeriodEnd: optional(string, ''),
  cancelAtPeriodEnd: optional(boolean, false),
  billingInterval: nullable(string),
});
/** Fields beyond name and feature configuration are not shown. */
export const plan = loose(object({ name: optional(string, ''), features: optional(record(unknown)) }));
const usage = object({
  agents: object({ used: count, limit: count, remaining: count, percentage: count, isAtLimit: optional(boolean, false) }),
  storage: object({
    usedBytes: count,
    limitBytes: count,
    remainingBytes: count,
    percentage: count,
    isAtLimit: optional(boolean, false),
    isOverLimit: optional(boolean, false),
  }),
  credits: object({ balance: count, perCycle: count }),
});
const flags = object({
  isFreePlan: optional(boolean, false),
  isPaidPlan: optional(boolean, false),
  canUpgrade: optional(boolean, false),
  needsUpgrade: optional(boolean, false),
});
export const subscriptionResponse = object({
  subscription,
  plan,
  usage,
  flags: optional(flags, {
    isFreePlan: false,
    isPaidPlan: false,
    canUpgrade: false,
    needsUpgrade: false,
  }),
});

export const limitsResponse = object({
  check: string,
  allowed: boolean,
  currentUsage: count,
  limit: count,
  remaining: count,
});

export const invoice = object({
  transactionId: optional(string, ''),
  invoiceNumber: nullable(string),
  status: optional(string, ''),
  amount: optional(string, ''),
  /** Cents. */
  amountRaw: count,
  currencyCode: optional(string, ''),
  billedAt: optional(string, ''),
  periodStart: nullable(string),
  periodEnd: nullable(string),
});
export const invoicesResponse = object({ invoices: array(invoice) });
