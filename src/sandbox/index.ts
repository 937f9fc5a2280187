// The sandbox: an in-memory, rule-faithful stand-in for the whole service as one
// (Request) => Promise<Response> handler. The dev server mounts it; tests wrap it with msw
// (test/support/msw.ts). Sandbox conventions the spec does not show are listed in README.md.
import { withoutTrailingSlashes } from '../core/http';
import type { Booking } from '../core/types';
import { analyticsRoutes } from './account/analytics';
import { billingRoutes } from './account/billing';
import { documentRoutes } from './account/documents';
import { webSourceRoutes } from './account/web-sources';
import { bookingRoutes } from './booking/routes';
import { chatRoutes } from './chat/routes';
import { DEMO_OWNER_ID } from './demo-data';
import { createRouter } from './router';
import { accountOf, createState } from './state';
import { strictSpec, withFaults } from './strict-spec';
import type { SandboxOptions } from './types';

export { DEMO_AGENT_ID, DEMO_API_KEY, DEMO_BOOKING_CONFIG, DEMO_BUSINESS_HOURS, DEMO_OWNER_ID, DEMO_SCOPED_API_KEY } from './demo-data';
export { SLOT_STEP_MINUTES } from './booking/availability';
export { MARKDOWN_TEST_MESSAGE } from './chat/responder';
export { parseFaults, STRICT_CANCELLED_STATUS, type SandboxFault } from './strict-spec';
export type { DayName, SandboxAgentSeed, SandboxKeySeed, SandboxOptions, TimeRange, WeeklyHours } from './types';

export interface SandboxMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface Sandbox {
  /** The prefix the handler expects in front of every service path ('' or e.g. '/sandbox'). */
  readonly basePath: string;
  /** Never rejects: every failure is a JSON error envelope. */
  handle(request: Request): Promise<Response>;
  /** Copies of the bookings made so far, oldest first, optionally of one agent. */
  bookings(agentId?: string): Booking[];
  /** The credit balance of an account (default: the demo owner). */
  credits(owner?: string): number;
  /** The messages of a conversation, or undefined when there is none with that id. */
  conversation(id: string): SandboxMessage[] | undefined;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const state = createState(options);
  const basePath = withoutTrailingSlashes(options.basePath ?? '');
  const routes = createRouter(
    state,
    [...bookingRoutes, ...chatRoutes, ...webSourceRoutes, ...documentRoutes, ...analyticsRoutes, ...billingRoutes],
    basePath,
  );
  const handle = withFaults(options.strict ? strictSpec(routes) : routes, options.faults ?? [], basePath);
  return {
    basePath,
    handle,
    bookings: (agentId) =>
      state.bookings.filter((b) => agentId === undefined || b.agentId === agentId).map((b) => structuredClone(b.booking)),
    credits: (owner = DEMO_OWNER_ID) => accountOf(state, owner).balance,
    conversation: (id) => state.conversations.get(id)?.messages.map(({ role, content }) => ({ role, content })),
  };
}
