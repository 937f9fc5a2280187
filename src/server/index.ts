// agent-widget/server: the chat proxy (keeps the API key on the server) and the typed client
// for every authenticated endpoint. Nothing here imports the widget, the sandbox or a node: built-in, so
// Workers and Deno projects need no @types/node; the node:http adapter is agent-widget/server/node.
export { createChatProxy, type ChatProxyConfig, type ChatProxyHandler } from './proxy';
export type { ProxyContext } from './client-ip';
export type { ClientIpPreset, ClientIpResolver } from './client-ip';
export {
  bodyBytesFor,
  PROXY_DEFAULTS,
  type ChatProxyOptions,
  type CreditsContext,
  type ProxyLogEntry,
  type ProxyLogReason,
  type ProxyWarning,
  type RateLimitOptions,
} from './options';
export {
  createMemoryStore,
  type CounterKind,
  type HitOptions,
  type MemoryRateLimitStore,
  type MemoryStoreOptions,
  type RateLimitHit,
  type RateLimitStore,
  type StoreWait,
  type WindowLimit,
} from './rate-limit';
export { createRedisStore, type IoRedisScripting, type NodeRedisScripting, type RedisStoreOptions } from './redis-store';
export {
  mapChatReply,
  REPLY_TEXT_FIELDS,
  CONVERSATION_ID_FIELDS,
  REPLY_LIMITS,
  REPLY_TRUNCATED_MARKER,
  type ReplyLimits,
} from './reply-mapping';
export { ApiError, isApiError, type ApiErrorKind } from '../core/http';
export {
  createAgentClient,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_WAIT_MS,
  DEFAULT_UPLOAD_BYTES_PER_SECOND,
  type AgentClient,
  type AgentClientOptions,
  type CallOptions,
  type UploadOptions,
} from './agent-client';
export type { UploadProgress } from './multipart-upload';
export {
  InsufficientCreditsError,
  InvalidRequestError,
  NotFoundError,
  ProcessingError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  typedError,
} from './errors';
export { DEFAULT_POLL_INTERVAL_MS, DEFAULT_WAIT_TIMEOUT_MS, type Sleep, type WaitOptions } from './poll';
export { assumedPaths, MAX_UPLOAD_BYTES } from '../core/spec-assumptions';
export type * from '../core/types';
