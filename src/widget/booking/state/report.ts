// A failed booking request, as the visitor sees it (a Problem), the host hears it (the `error`
// event) and the owner reads it (a console line for what only the owner can fix).
import { classify, errorEvent, type FailureKind } from '../../failure';
import type { BookingContext } from '../types';

export type BookingRequest = 'config' | 'dates' | 'slots' | 'create' | 'lookup' | 'cancel';

export interface Problem {
  kind: FailureKind;
  /** The service's own words, for a refused request. */
  message?: string;
  /** Whether the store's retry() may help. */
  retryable: boolean;
}

const OWNER_FIXES: readonly FailureKind[] = ['invalid', 'misconfigured'];

/** The Problem to show for `error`, after telling the host and the owner; null when cancelled on purpose. */
export function reportFailure(ctx: BookingContext, request: BookingRequest, error: unknown): Problem | null {
  const failure = classify(error);
  if (!failure) return null;
  const { kind, retryable, message } = failure;
  ctx.emit('error', { ...errorEvent(ctx.agentId, 'booking', error, failure, retryable ? 'manual' : 'none'), request });
  if (OWNER_FIXES.includes(kind) || (kind === 'notFound' && request === 'config'))
    console.error(`[AgentWidget] Booking (${request}) for agent "${ctx.agentId}" failed: ${message}`);
  return kind === 'refused' ? { kind, message, retryable } : { kind, retryable };
}
