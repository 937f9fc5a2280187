// The chat route's use of the reply cache: a message with the widget's message id is claimed before the
// service is asked; a repeat of it gets the kept answer, or waits for the request that claimed it.
import { proxyChatSuccess } from '../core/shapes/chat';
import type { ProxyChatRequest } from '../core/types';
import { jsonOutcome, unanswered, type Outcome } from './outcome';
import { defaultSleep } from './poll';
import type { RouteContext, Step } from './route-context';

/** What the request that claimed a message does with its answer. */
export interface ReplyClaimHolder {
  /** A reply is kept for the repeats; any other answer gives the claim up, so a repeat asks again. */
  settle(outcome: Outcome): Promise<void>;
}

/** How often a repeat looks again for the answer of the request it repeats. */
const REPEAT_POLL_MS = 200;
/**
 * A claim outlives the call it stands for by this much: an instance that stopped mid-call (a deploy, a
 * crash) holds up the repeats of that message no longer than its own deadline would have.
 */
const CLAIM_MARGIN_MS = 5_000;

const decoder = new TextDecoder();

/** A kept answer as the browser gets it, checked again: the store is outside this process. */
function keptOutcome(body: string): Outcome | undefined {
  try {
    return jsonOutcome(200, { success: true, ...proxyChatSuccess(JSON.parse(body), 'kept reply') }, { fromReplyCache: true });
  } catch {
    return undefined;
  }
}

/**
 * The kept answer of a repeat (or the proxy's 504 when the request it repeats takes longer than the
 * proxy's deadline), or what the request holds when it asks the service itself. A store that fails
 * leaves the message to be asked for as any other.
 */
export async function replyStep(rc: RouteContext, chat: ProxyChatRequest): Promise<Step<ReplyClaimHolder | undefined>> {
  const { cfg, request } = rc;
  const replies = cfg.replyCache;
  if (replies === undefined || chat.messageId === undefined) return { ok: true, value: undefined };
  const { cache, ttlMs } = replies;
  const key = await replies.keyOf(JSON.stringify([chat.agentId, chat.conversationId ?? null, chat.messageId, chat.message]));
  const waitUntil = cfg.now() + cfg.timeoutMs;
  for (;;) {
    let claim;
    try {
      claim = await cache.claimReply(key, cfg.timeoutMs + CLAIM_MARGIN_MS, cfg.now());
    } catch {
      // The store reports its own failures (the Redis store: onError and the log's warning).
      return { ok: true, value: undefined };
    }
    if (claim.state === 'answered') {
      const outcome = keptOutcome(claim.body);
      // A kept answer that is not one is asked for again, not served.
      return outcome === undefined ? { ok: true, value: undefined } : { ok: false, outcome };
    }
    if (claim.state === 'claimed') {
      const holder: ReplyClaimHolder = {
        async settle(outcome) {
          try {
            if (outcome.status === 200 && outcome.body !== null) await cache.saveReply(key, decoder.decode(outcome.body), ttlMs, cfg.now());
            else await cache.releaseReply(key, cfg.now());
          } catch {
            // As above: a repeat then asks the service again, which is all a lost claim costs.
          }
        },
      };
      return { ok: true, value: holder };
    }
    if (cfg.now() >= waitUntil) return { ok: false, outcome: unanswered('timeout') };
    try {
      await defaultSleep(REPEAT_POLL_MS, request.signal);
    } catch {
      return { ok: false, outcome: unanswered('client_closed') };
    }
  }
}
