// How a message that did not get through is shown and sent again: its reason (a row of the design
// table), the composer's words for a refusal, and how long the automatic resends wait.
import type { Failure, FailureKind } from '../platform/failure';
import type { FailureReason } from './messages';

/** Used when a 429 does not say how long to wait. */
export const DEFAULT_BUSY_WAIT_S = 5;
/** A longer wait (e.g. a daily cap) is not counted down: the visitor retries by hand. */
export const MAX_AUTO_WAIT_S = 120;
/** Seconds before each automatic resend while the chat service cannot be reached; then Retry by hand. */
export const UNREACHABLE_WAITS_S = [2, 4, 8, 16, 30, 30];

/**
 * The design table's row for a message that was not refused. A 404 here is the chat URL or the agent:
 * the owner's setup, not something the visitor can find.
 */
export function reasonOf(kind: Exclude<FailureKind, 'refused'>): FailureReason {
  switch (kind) {
    case 'notFound':
      return 'misconfigured';
    case 'timeout':
      return 'timed-out';
    case 'invalid':
    case 'server':
      return 'failed';
    case 'offline':
    case 'unreachable':
    case 'busy':
    case 'unavailable':
    case 'misconfigured':
      return kind;
  }
}

/** Why a message was refused, as a dictionary key for the composer (the proxy's codes refine the status). */
export function refusalText({ status, code }: Failure): 'chatTooLong' | 'chatEmpty' | 'chatInvalid' {
  if (status === 413 || code === 'message_too_long' || code === 'body_too_large') return 'chatTooLong';
  return code === 'message_empty' ? 'chatEmpty' : 'chatInvalid';
}
