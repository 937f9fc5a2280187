// The sandbox's whole in-memory state, built once from the options. Handlers mutate it;
// nothing else holds data.
import type { AnalyticsSource, Booking, BookingConfig, ChatSource, WebSource } from '../core/types';
import { DEMO_AGENTS, DEMO_BOOKING_CONFIG, DEMO_BUSINESS_HOURS, DEMO_KEYS, DEMO_OWNER_ID } from './demo-data';
import { createRandom, type Random } from './random';
import { createRateLimiter, type RateLimiter } from './rate-limit';
import type { SandboxOptions, WeeklyHours } from './types';

export interface AgentRecord {
  id: string;
  owner: string;
  /** Absent when booking is disabled for the agent. */
  booking?: { config: BookingConfig; hours: WeeklyHours };
}

export interface KeyRecord {
  key: string;
  owner: string;
  /** Absent = All Agents. */
  agentId?: string;
  active: boolean;
  name: string;
}

export interface BookingRecord {
  agentId: string;
  conversationId: string;
  booking: Booking;
  /** The real instants the appointment occupies, for overlap across durations and DST. */
  startMs: number;
  endMs: number;
}

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  at: number;
  sources?: ChatSource[];
  /** The knowledge article the reply was drawn from, for analytics' topDocuments. */
  articleId?: string;
}

export interface Conversation {
  id: string;
  agentId: string;
  source: AnalyticsSource;
  startedAt: number;
  messages: ChatMessage[];
}

export interface LedgerEntry {
  feature: string;
  agentId: string;
  amount: number;
  at: number;
}

export interface Account {
  owner: string;
  balance: number;
  ledger: LedgerEntry[];
  updatedAt: number;
}

export interface WebSourceRecord {
  source: WebSource;
  /** When training started; the status is derived from it and the clock. */
  trainingStartedAt?: number;
}

export interface DocumentRecord {
  id: string;
  agentId: string;
  name: string;
  size: number;
  processingStartedAt?: number;
}

export interface SandboxState {
  now: () => Date;
  random: Random;
  rateLimiter: RateLimiter;
  chatCost: number;
  /** Balance every account starts with. */
  startingCredits: number;
  pendingBookings: boolean;
  stageMs: number;
  createdAt: number;
  agents: Map<string, AgentRecord>;
  keys: Map<string, KeyRecord>;
  accounts: Map<string, Account>;
  bookings: BookingRecord[];
  /** Every code ever issued, so none is reused even after cancellation. */
  issuedCodes: Set<string>;
  conversations: Map<string, Conversation>;
  webSources: Map<string, WebSourceRecord>;
  documents: Map<string, DocumentRecord>;
}

export function createState(options: SandboxOptions = {}): SandboxState {
  const now = options.now ?? (() => new Date());
  const createdAt = now().getTime();

  const agents = new Map<string, AgentRecord>();
  for (const seed of options.agents ?? DEMO_AGENTS) {
    const record: AgentRecord = { id: seed.id, owner: seed.owner ?? DEMO_OWNER_ID };
    if (seed.bookingEnabled !== false)
      record.booking = {
        config: { ...DEMO_BOOKING_CONFIG, ...seed.config },
        hours: seed.businessHours ?? DEMO_BUSINESS_HOURS,
      };
    agents.set(seed.id, record);
  }

  const keys = new Map<string, KeyRecord>();
  for (const seed of options.keys ?? DEMO_KEYS) {
    const record: KeyRecord = {
      key: seed.key,
      owner: seed.owner ?? DEMO_OWNER_ID,
      active: seed.active ?? true,
      name: seed.name ?? 'Sandbox key',
    };
    if (seed.agentId !== undefined) record.agentId = seed.agentId;
    keys.set(seed.key, record);
  }

  return {
    now,
    random: createRandom(options.seed ?? createdAt),
    rateLimiter: createRateLimiter(options.rateLimit ?? { limit: 60, windowMs: 60_000 }),
    chatCost: options.chatCost ?? 1,
    startingCredits: options.credits ?? 500,
    pendingBookings: options.pendingBookings ?? false,
    stageMs: options.stageMs ?? 2000,
    createdAt,
    agents,
    keys,
    accounts: new Map(),
    bookings: [],
    issuedCodes: new Set(),
    conversations: new Map(),
    webSources: new Map(),
    documents: new Map(),
  };
}

/** The account of `owner`, opened with the starting balance on first use. */
export function accountOf(state: SandboxState, owner: string): Account {
  let account = state.accounts.get(owner);
  if (!account) {
    account = { owner, balance: state.startingCredits, ledger: [], updatedAt: state.createdAt };
    state.accounts.set(owner, account);
  }
  return account;
}
