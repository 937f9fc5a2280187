// The sandbox's public option and seed types. Spec types come from core; these describe only
// what the sandbox needs to be seeded with.
import type { BookingConfig } from '../core/types';
import type { SandboxFault } from './strict-spec';

export type DayName = 'sun' | 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat';

/** Opening hours as agent-zone wall times, HH:MM; `end` is exclusive for the end of an appointment. */
export interface TimeRange {
  start: string;
  end: string;
}

/** Business hours per weekday; a day that is absent (or empty) is closed. */
export type WeeklyHours = Partial<Record<DayName, TimeRange[]>>;

export interface SandboxAgentSeed {
  id: string;
  /** The account that owns the agent; default DEMO_OWNER_ID. */
  owner?: string;
  /** Merged over the demo booking config. */
  config?: Partial<BookingConfig>;
  /** Replaces the demo hours entirely. */
  businessHours?: WeeklyHours;
  /** Default true; false makes every /booking/public call for this agent a 404. */
  bookingEnabled?: boolean;
}

export interface SandboxKeySeed {
  /** The full key, `sk_live_` followed by at least 16 of [A-Za-z0-9_]. */
  key: string;
  /** The account the key belongs to; default DEMO_OWNER_ID. */
  owner?: string;
  /** Scope: one agent; absent = All Agents (of the owner). */
  agentId?: string;
  /** Default true; an inactive (deleted) key answers 401. */
  active?: boolean;
  name?: string;
}

export interface SandboxOptions {
  /** Injected clock; default () => new Date(). */
  now?: () => Date;
  /** Path prefix the handler is mounted at, e.g. '/sandbox'; default ''. */
  basePath?: string;
  /** Default: the demo agent. */
  agents?: SandboxAgentSeed[];
  /** Default: DEMO_API_KEY (All Agents) and DEMO_SCOPED_API_KEY (the demo agent only). */
  keys?: SandboxKeySeed[];
  /** Starting balance of every account; default 500. */
  credits?: number;
  /** Credits per chat message; default 1. */
  chatCost?: number;
  /** Per API key, authenticated endpoints; default 60 per 60_000 ms. */
  rateLimit?: { limit: number; windowMs: number };
  /** New bookings become 'pending' instead of 'confirmed'. */
  pendingBookings?: boolean;
  /** Seed of the id/code generator; default derived from the clock at creation. */
  seed?: number;
  /** Time each asynchronous stage (web-source training, document processing) takes; default 2000 ms. */
  stageMs?: number;
  /** Answer as the spec allows but the normal sandbox does not (see strict-spec.ts). */
  strict?: boolean;
  /** Paths that answer like a broken gateway or with the wrong shape, in either mode. */
  faults?: SandboxFault[];
}
