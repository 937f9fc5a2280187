// A failed booking request, as the visitor sees it (a Problem), the host hears it (the `error`
// event) and the owner reads it (a console line for what only the owner can fix).
import { signal, type ReadonlySignal } from '@preact/signals';
import type { Booking } from '../../../core/types';
import { classify, errorEvent, type FailureKind } from '../../platform/failure';
import type { BookingContext } from '../types';
import { logError } from '../../platform/log';

export type BookingRequest = 'config' | 'dates' | 'slots' | 'create' | 'lookup' | 'cancel';

export interface Problem {
  kind: FailureKind;
  /** The service's own words, for a refused request. */
  message?: string;
  /** Whether the store's retry() may help. */
  retryable: boolean;
}

/** The Problem to show for `error`, after telling the host and the owner; null when cancelled on purpose. */
export function reportFailure(ctx: BookingContext, request: BookingRequest, error: unknown): Problem | null {
  const failure = classify(error);
  if (!failure) return null;
  const { message } = failure;
  // The first request answered 2xx or 404 by something that is not the service (an HTML page, no body,
  // other JSON): no booking service at the base URL, which asking again cannot fix. A 5xx or 429 page is a
  // gateway's, and passes.
  const answeredByOther = failure.withoutEnvelope && ((failure.status >= 200 && failure.status < 300) || failure.status === 404);
  const elsewhere = request === 'config' && answeredByOther;
  const kind = elsewhere ? 'misconfigured' : failure.kind;
  const retryable = failure.retryable && !elsewhere;
  ctx.emit('error', { ...errorEvent(ctx.agentId, 'booking', error, failure, retryable ? 'manual' : 'none'), request });
  // A 404 in the service's own error envelope on the config: it does not know the agent, or booking is off for it.
  if (kind === 'invalid' || kind === 'misconfigured' || (kind === 'notFound' && request === 'config')) {
    const check = kind === 'notFound' ? ' Check agentId.' : '';
    logError(
      `Booking (${request}) for agent "${ctx.agentId}" at ${ctx.apiBase} failed: ${message}${elsewhere ? ' Check apiBase.' : check}`,
    );
  }
  // A 404 tells My booking (lookup, cancel) that no booking has the code; to the Book flow, that booking
  // is not available for the agent. The visitor is told what it means where it happened.
  const shown = kind === 'notFound' && request !== 'lookup' && request !== 'cancel' ? 'unavailable' : kind;
  return { kind: shown, retryable, ...(kind === 'refused' && { message }) };
}

/** What a store shows of its failures: the one on screen, and retry(), which sends the request that failed again. */
export interface Failures {
  readonly problem: ReadonlySignal<Problem | null>;
  retry(): void;
}

/** A store's failures, with the handlers that show them. A store returns them spread into itself: its views see the Failures. */
export interface Problems extends Failures {
  /**
   * The failure handler of `request`, which returns the Problem it shows; `retry` is what asking again
   * means. Made as the request is sent, it clears the problem on screen.
   */
  fail(request: BookingRequest, retry: () => void): (error: unknown) => Problem | null;
  /** Shows `value` (null: nothing) with no retry. */
  set(value: Problem | null): void;
}

export function createProblems(ctx: BookingContext): Problems {
  const problem = signal<Problem | null>(null);
  let again: (() => void) | undefined;
  /** Shows `value`, which `retry` sends again when it is retryable. */
  const set = (value: Problem | null, retry?: () => void) => {
    problem.value = value;
    again = value?.retryable ? retry : undefined;
  };
  return {
    problem,
    set,
    fail: (request, retry) => {
      set(null);
      return (error) => {
        const shown = reportFailure(ctx, request, error);
        set(shown, retry);
        return shown;
      };
    },
    // Sending again clears the problem: fail() does, and create and cancel, which make theirs later, do so first.
    retry: () => again?.(),
  };
}

/** Keeps a booking the visitor made or looked up, for the My booking picker. */
export function remember(ctx: BookingContext, b: Booking, title: string): void {
  ctx.remembered.remember({
    code: b.booking_code,
    date: b.booking_date,
    time: b.start_time.slice(0, 5),
    title,
    status: b.status,
    timezone: b.timezone,
  });
}
