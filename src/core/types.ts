// Every resource, request and response of ../shared/api-spec.md, written once. The answers the
// service sends are checked where they enter by the schemas in ./shapes, and their types are derived
// from those here; requests, which we build, are plain types. What the spec does not show is
// assumed in ./spec-assumptions.
import type { Infer } from './schema';
import type * as account from './shapes/account';
import type * as booking from './shapes/booking';
import type * as chat from './shapes/chat';

export type { Booking, BookingConfig, BookingDate, BookingSlot, BookingWithDisplay, DurationOption, FormField } from './shapes/booking';
export type { ChatCredits } from './shapes/account';
export type ChatSource = Infer<typeof chat.chatSource>;

export type Success<T> = { success: true } & T;
/** A successful answer of `schema`'s shape. */
type Answer<S> = Success<Infer<S>>;

// ---------- Chat (§4 Chat) ----------

export interface ChatRequest {
  agentId: string;
  message: string;
  /** Not shown in the spec: sent when continuing a conversation (see spec-assumptions). */
  conversationId?: string;
}

/** Beyond `success` and the credits the fields are not shown: every field is kept for the owner. */
export type ChatResponse = Answer<typeof account.chatResponse>;

// ---------- Web sources (§2, §4) ----------

export type WebSourceMode = 'crawl' | 'sitemap' | 'single';
export type WebSourceStatus = 'scraping' | 'chunking' | 'completed' | (string & {});

export interface DiscoveredUrl {
  url: string;
}

export type WebSource = Infer<typeof account.webSource>;

export interface CreateWebSourceRequest {
  agentId: string;
  url: string;
  mode: WebSourceMode;
  maxPages?: number;
  maxDepth?: number;
}

export type WebSourceResponse = Answer<typeof account.webSourceResponse>;
export type DiscoverWebSourceResponse = Answer<typeof account.discoverWebSourceResponse>;
export type TrainWebSourceResponse = Answer<typeof account.trainWebSourceResponse>;
export type WebSourceListResponse = Answer<typeof account.webSourceListResponse>;
export type DeleteResponse = Answer<typeof account.deleteResponse>;

// ---------- Documents (§4) ----------

export type DocumentStatus = 'processing' | 'chunking' | 'completed' | 'error' | (string & {});

export type ConvertDocumentResponse = Answer<typeof account.convertDocumentResponse>;
export type DocumentStatusResponse = Answer<typeof account.documentStatusResponse>;
/** Upload is not shown in the spec (multipart/form-data); see spec-assumptions. */
export type UploadDocumentResponse = Answer<typeof account.uploadDocumentResponse>;

// ---------- Analytics, credits (§2, §4) ----------

export type AnalyticsSource = 'playground' | 'iframe' | 'widget' | 'api';
export type AnalyticsData = Infer<typeof account.analyticsData>;
export type AnalyticsResponse = Answer<typeof account.analyticsResponse>;
export type Credits = Infer<typeof account.credits>;
export type CreditStats = Infer<typeof account.creditStats>;
export type CreditsResponse = Answer<typeof account.creditsResponse>;

// ---------- Subscriptions, limits, invoices (§2, §4) ----------

export type Subscription = Infer<typeof account.subscription>;
export type Plan = Infer<typeof account.plan>;
export type SubscriptionResponse = Answer<typeof account.subscriptionResponse>;

export type LimitsRequest = { check: 'agent' } | { check: 'storage'; bytes: number };
export type LimitsResponse = Answer<typeof account.limitsResponse>;

export type Invoice = Infer<typeof account.invoice>;
export type InvoicesResponse = Answer<typeof account.invoicesResponse>;

// ---------- Booking (§2, §3, §4) ----------

/** pending or confirmed on creation; the word after cancelling is not shown (spec-assumptions). */
export type BookingStatus = 'pending' | 'confirmed' | (string & {});

export type BookingConfigResponse = Answer<typeof booking.bookingConfigResponse>;
export type BookingDatesResponse = Answer<typeof booking.bookingDatesResponse>;
export type BookingSlotsResponse = Answer<typeof booking.bookingSlotsResponse>;
export type CreateBookingResponse = Answer<typeof booking.createBookingResponse>;
export type LookupBookingResponse = Answer<typeof booking.lookupBookingResponse>;
export type CancelBookingResponse = Answer<typeof booking.cancelBookingResponse>;

export interface BookingDatesQuery {
  agentId: string;
  month: string;
  durationMinutes?: number;
}

export interface BookingSlotsQuery {
  agentId: string;
  date: string;
  durationMinutes: number;
}

export interface CreateBookingRequest {
  agentId: string;
  conversationId: string;
  date: string;
  time: string;
  durationOptionId: string;
  /** Required by the spec, even when the config has no form fields (then `{}`). */
  formData: Record<string, string>;
}

export interface LookupBookingQuery {
  agentId: string;
  code: string;
}

export interface CancelBookingRequest {
  agentId: string;
  bookingCode: string;
}

// ---------- Rate limiting (§8) ----------

export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  /** Unix timestamp (seconds) at which the window resets. */
  reset?: number;
}

// ---------- Proxy <-> widget contract (design.md "Chat: widget <-> proxy <-> service") ----------

export interface ProxyChatRequest {
  agentId: string;
  message: string;
  conversationId?: string;
  /**
   * The widget's id for this message, sent again with a repeat of it (see isSafeMessageId): the proxy
   * answers a repeat from its reply cache. Never forwarded to the service.
   */
  messageId?: string;
}

export type ProxyChatSuccess = Answer<typeof chat.proxyChatSuccess>;

export type ProxyErrorCode =
  | 'method_not_allowed'
  | 'origin_not_allowed'
  | 'agent_not_allowed'
  | 'body_too_large'
  | 'invalid_json'
  | 'invalid_request'
  | 'message_empty'
  | 'message_too_long'
  | 'rate_limited'
  | 'daily_cap_reached'
  | 'insufficient_credits'
  | 'upstream_error'
  | 'upstream_timeout'
  | 'not_found'
  /** The request body was not sent as application/json (status 415). */
  | 'unsupported_media_type'
  /** The client went away before the answer was ready (status 499; nobody reads it, the log does). */
  | 'client_closed'
  /** An unexpected failure inside the proxy, e.g. its rate-limit store (status 500). */
  | 'internal_error'
  /** The request body did not arrive within the proxy's deadline (status 408). */
  | 'request_timeout';

export interface ProxyChatError {
  success: false;
  error: string;
  code: ProxyErrorCode;
  /** Seconds until a retry may succeed (429). */
  retryAfter?: number;
}
