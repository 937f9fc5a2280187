// Every resource, request and response of ../shared/api-spec.md, written once.
// Where the spec says "not shown", the type says so and stays open (see the notes on each).

// ---------- Chat (§4 Chat) ----------

export interface ChatRequest {
  agentId: string;
  message: string;
  /** Not shown in the spec; sent when continuing a conversation (documented assumption, see server/README). */
  conversationId?: string;
}

export interface ChatCredits {
  /** Credits used by this message. */
  used: number;
  /** Balance remaining after this message. */
  remaining: number;
}

/**
 * The /chat reply beyond `success` and `credits` is not shown. The proxy reads it tolerantly
 * (see server/reply-mapping.ts); these are the fields the sandbox returns.
 */
export interface ChatResponse {
  success: true;
  credits: ChatCredits;
  reply?: string;
  conversationId?: string;
  sources?: ChatSource[];
  [field: string]: unknown;
}

/** A cited source in a chat reply: shape not shown in the spec; title and url are what the widget shows. */
export interface ChatSource {
  title?: string;
  url?: string;
  [field: string]: unknown;
}

// ---------- Web sources (§2, §4) ----------

export type WebSourceMode = 'crawl' | 'sitemap' | 'single';
export type WebSourceStatus = 'scraping' | 'chunking' | 'completed' | (string & {});

export interface DiscoveredUrl {
  url: string;
}

export interface WebSource {
  id: string;
  agentId: string;
  url: string;
  mode: WebSourceMode;
  maxPages: number;
  maxDepth: number;
  discoveredUrls: DiscoveredUrl[];
  status?: WebSourceStatus;
  /** Remaining fields are not shown in the spec. */
  [field: string]: unknown;
}

export interface CreateWebSourceRequest {
  agentId: string;
  url: string;
  mode: WebSourceMode;
  maxPages?: number;
  maxDepth?: number;
}

export interface WebSourceResponse {
  success: true;
  webSource: WebSource;
}

export interface DiscoverWebSourceResponse extends WebSourceResponse {
  discoveredCount: number;
}

export interface TrainWebSourceResponse extends WebSourceResponse {
  callId: string;
}

export interface WebSourceListResponse {
  success: true;
  webSources: WebSource[];
}

export interface DeleteResponse {
  success: true;
}

// ---------- Documents (§4) ----------

export type DocumentStatus = 'processing' | 'chunking' | 'completed' | 'error';

export interface ConvertDocumentResponse {
  success: true;
  callId: string;
  message: string;
}

export interface DocumentStatusResponse {
  success: true;
  status: DocumentStatus;
}

/** Upload is not shown in the spec (multipart/form-data); see server/assumed-paths.ts. */
export interface UploadDocumentResponse {
  success: true;
  documentId: string;
  [field: string]: unknown;
}

// ---------- Analytics (§4) ----------

export type AnalyticsSource = 'playground' | 'iframe' | 'widget' | 'api';

export interface AnalyticsOverview {
  totalConversations: number;
  periodConversations: number;
  totalMessages: number;
  avgMessagesPerConvo: number;
  /** Percentage, 0 to 100. */
  sourceCitationRate: number;
}

export interface AnalyticsData {
  overview: AnalyticsOverview;
  conversationsOverTime: { date: string; conversations: number }[];
  sourceBreakdown: { name: AnalyticsSource; value: number }[];
  topDocuments: { id: string; name: string; count: number }[];
  recentQuestions: { id: string; content: string; created_at: string; conversation_id: string }[];
}

export interface AnalyticsResponse {
  success: true;
  data: AnalyticsData;
}

// ---------- Credits (§2, §4) ----------

export interface Credits {
  balance: number;
  lifetimeUsed: number;
  updatedAt: string;
}

export interface CreditStats {
  totalUsed: number;
  periodUsed: number;
  /** Feature name to credits; names seen: chat, tts, scenario_trigger. */
  byFeature: Record<string, number>;
  /** Agent id to credits. */
  byAgent: Record<string, number>;
}

export interface CreditsResponse {
  success: true;
  credits: Credits;
  stats?: CreditStats;
}

// ---------- Subscriptions, limits, invoices (§2, §4) ----------

export type SubscriptionStatus = 'active' | 'past_due' | 'cancelled' | 'paused';

export interface Subscription {
  id: string;
  planId: string;
  status: SubscriptionStatus;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  billingInterval: 'monthly' | 'yearly' | null;
}

/** Plan fields beyond name and feature configuration are not shown. */
export interface Plan {
  name: string;
  features?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface SubscriptionUsage {
  agents: { used: number; limit: number; remaining: number; percentage: number; isAtLimit: boolean };
  storage: {
    usedBytes: number;
    limitBytes: number;
    remainingBytes: number;
    percentage: number;
    isAtLimit: boolean;
    isOverLimit: boolean;
  };
  credits: { balance: number; perCycle: number };
}

export interface SubscriptionFlags {
  isFreePlan: boolean;
  isPaidPlan: boolean;
  canUpgrade: boolean;
  needsUpgrade: boolean;
}

export interface SubscriptionResponse {
  success: true;
  subscription: Subscription;
  plan: Plan;
  usage: SubscriptionUsage;
  flags: SubscriptionFlags;
}

export type LimitCheck = 'agent' | 'storage';

export type LimitsRequest = { check: 'agent' } | { check: 'storage'; bytes: number };

export interface LimitsResponse {
  success: true;
  check: LimitCheck;
  allowed: boolean;
  currentUsage: number;
  limit: number;
  remaining: number;
}

export interface Invoice {
  transactionId: string;
  invoiceNumber: string | null;
  status: string;
  amount: string;
  /** Cents. */
  amountRaw: number;
  currencyCode: string;
  billedAt: string;
  periodStart: string | null;
  periodEnd: string | null;
}

export interface InvoicesResponse {
  success: true;
  invoices: Invoice[];
}

// ---------- Booking (§2, §3, §4) ----------

export interface DurationOption {
  id: string;
  label: string;
  duration_minutes: number;
}

export type FormFieldType = 'input_field' | (string & {});
export type FormInputType = 'text' | 'email' | (string & {});

export interface FormField {
  id: string;
  type: FormFieldType;
  label: string;
  required: boolean;
  inputType: FormInputType;
  placeholder: string;
}

export interface BookingConfig {
  booking_title: string;
  booking_description: string;
  timezone: string;
  duration_options: DurationOption[];
  min_notice_hours: number;
  max_advance_days: number;
  form_fields: FormField[];
  allow_user_cancellation: boolean;
  cancellation_notice_hours: number;
}

/** The status value after cancellation is not shown; `cancelled` is our one assumption (sandbox and UI). */
export type BookingStatus = 'pending' | 'confirmed' | 'cancelled' | (string & {});

export interface Booking {
  id: string;
  booking_code: string;
  booking_date: string;
  start_time: string;
  end_time: string;
  duration_minutes: number;
  duration_label: string;
  timezone: string;
  status: BookingStatus;
  form_data: Record<string, string>;
}

export interface BookingWithDisplay extends Booking {
  booking_title: string;
  display_date: string;
  display_time: string;
}

export interface BookingConfigResponse {
  success: true;
  config: BookingConfig;
}

export interface BookingDate {
  date: string;
  available: boolean;
  /** Present when available. */
  slotCount?: number;
}

export interface BookingDatesQuery {
  agentId: string;
  month: string;
  durationMinutes?: number;
}

export interface BookingDatesResponse {
  success: true;
  month: string;
  timezone: string;
  dates: BookingDate[];
}

export interface BookingSlot {
  time: string;
  available: boolean;
}

export interface BookingSlotsQuery {
  agentId: string;
  date: string;
  durationMinutes: number;
}

export interface BookingSlotsResponse {
  success: true;
  date: string;
  timezone: string;
  duration: DurationOption;
  slots: BookingSlot[];
}

export interface CreateBookingRequest {
  agentId: string;
  conversationId: string;
  date: string;
  time: string;
  durationOptionId: string;
  formData: Record<string, string>;
}

export interface CreateBookingResponse {
  success: true;
  booking: Booking;
}

export interface LookupBookingQuery {
  agentId: string;
  code: string;
}

export interface LookupBookingResponse {
  success: true;
  booking: BookingWithDisplay;
  canCancel: boolean;
  cancelReason?: string;
}

export interface CancelBookingRequest {
  agentId: string;
  bookingCode: string;
}

export interface CancelBookingResponse {
  success: true;
  message: string;
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
}

export interface ProxyChatSuccess {
  success: true;
  reply: string;
  conversationId?: string;
  sources?: ChatSource[];
}

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
  | 'internal_error';

export interface ProxyChatError {
  success: false;
  error: string;
  code: ProxyErrorCode;
  /** Seconds until a retry may succeed (429). */
  retryAfter?: number;
}

