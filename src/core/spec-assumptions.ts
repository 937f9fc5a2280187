// Every place where the spec (../shared/api-spec.md) says "not shown" and we had to assume
// something: the ONE file to read, and to correct, when the real service turns out otherwise.
// Nothing else in src/ may hard-code one of these; docs/server.md's "Assumed paths" points here.

/** Paths the spec references but does not show (§4 Web sources, Documents). */
export const assumedPaths = {
  /** List an agent's web sources: GET with ?agentId=. Response `{ success, webSources: WebSource[] }`. */
  listWebSources: '/web-sources',
  /** Get one web source (used to poll training status): GET. Response `{ success, webSource }`. */
  getWebSource: (id: string): string => `/web-sources/${encodeURIComponent(id)}`,
  /**
   * Upload a document file: POST multipart/form-data with fields `agentId` and `file`.
   * Response `{ success, documentId }`; processing is then started with POST /convert-document.
   */
  uploadDocument: '/documents/upload',
} as const;

/**
 * The largest document the service takes (§8: "Upload size limits: not shown"): 20 MiB. The CLI refuses a
 * larger file before sending it, and the sandbox refuses one with a 400.
 */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/** The web source's identifier field is not shown ("the {id} in paths"): the first of these present. */
export const WEB_SOURCE_ID_FIELDS = ['id', 'webSourceId', '_id'] as const;

/** A web source's failure state is not shown (§3): these words end a wait as failed. */
export const WEB_SOURCE_FAILED_STATUSES: readonly string[] = ['error', 'failed'];

/**
 * /chat sends `conversationId` to continue a conversation (§4 shows only agentId and message), and
 * its reply beyond `success` and `credits` is not shown. The proxy reads the reply tolerantly:
 * text = the first non-blank string among REPLY_TEXT_FIELDS; id = the first of CONVERSATION_ID_FIELDS.
 */
export const REPLY_TEXT_FIELDS = ['reply', 'response', 'message', 'answer', 'text', 'content', 'output'] as const;
export const CONVERSATION_ID_FIELDS = ['conversationId', 'conversation_id'] as const;
/** The credits object's balance: `remaining` (as §1 words it), else `balance`. */
export const CREDITS_REMAINING_FIELDS = ['remaining', 'balance'] as const;

/** The booking status after a successful cancel is not shown (§3): what we show until a lookup says otherwise. */
export const CANCELLED_STATUS = 'cancelled';

/** A config without max_advance_days: the calendar offers, and searches for a free day, this far ahead. */
export const DEFAULT_HORIZON_DAYS = 365;

// How a taken slot is recognised (§7 maps no failure to a status or code): after a create that fails
// with a 400 (or another 4xx but 402, 404 and 429), the day's slots are fetched again, and the time was
// taken when it is no longer offered as available. Otherwise the 400's message is the service's reason,
// shown next to the form. Implemented in src/widget/booking/state/flow.ts (create).

/**
 * create needs a conversationId (§4); a visitor who books before chatting has none from the service.
 * The widget sends the chat's id when there is one, else this prefix and a random id kept per visitor.
 */
export const VISITOR_CONVERSATION_PREFIX = 'v_';
