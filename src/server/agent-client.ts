// The typed client for every authenticated endpoint (api-spec §4), for the owner's server code.
// Arguments are checked before anything is sent; every answer is checked against the spec's shape
// (ApiError `invalid_response` when it does not fit); HTTP failures become typed ApiError subclasses;
// a 429 is retried after the service's reset time, a bounded number of times.
import { ApiError, createHttp, DEFAULT_TIMEOUT_MS, rateLimitFromHeaders, type RequestOptions } from '../core/http';
import type { Schema } from '../core/schema';
import * as shapes from '../core/shapes/account';
import { assumedPaths, WEB_SOURCE_FAILED_STATUSES } from '../core/spec-assumptions';
import type {
  AnalyticsResponse,
  ChatRequest,
  ChatResponse,
  ConvertDocumentResponse,
  CreateWebSourceRequest,
  CreditsResponse,
  DeleteResponse,
  DiscoveredUrl,
  DiscoverWebSourceResponse,
  DocumentStatus,
  DocumentStatusResponse,
  InvoicesResponse,
  LimitsRequest,
  LimitsResponse,
  SubscriptionResponse,
  Success,
  TrainWebSourceResponse,
  UploadDocumentResponse,
  WebSource,
  WebSourceListResponse,
  WebSourceResponse,
  WebSourceStatus,
} from '../core/types';
import { check, invalidArgument, isNonEmptyString, requireId } from '../core/validate';
import { RateLimitedError, typedError } from './errors';
import { defaultSleep, pollUntilDone, type Sleep, type WaitOptions } from './poll';
import { multipartBody, type UploadProgress } from './multipart-upload';
import { createRedactor } from './redact';
import { refusedRedirect, serviceFetch } from './service-fetch';
import { httpUrl } from './url';

export interface AgentClientOptions {
  /** The service API key (sk_live_…). Server-side only. */
  apiKey: string;
  baseUrl: string;
  fetch?: typeof fetch;
  /** Deadline per request. Default 15 000. An upload gets this plus its size at `uploadBytesPerSecond`. */
  timeoutMs?: number;
  /** The slowest link an upload is given time for (bytes per second). Default 125 000 (1 Mbit/s). */
  uploadBytesPerSecond?: number;
  /** Retries after a 429. Default 2. */
  maxRetries?: number;
  /** The longest wait for a rate-limit reset before giving up with RateLimitedError. Default 60 000. */
  maxRetryWaitMs?: number;
  /** Waiting between retries and polls; injectable for tests. Default: abortable setTimeout. */
  sleep?: Sleep;
  /** Clock for the waiters' timeouts. Default Date.now. */
  now?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface UploadOptions extends CallOptions {
  /** Called as the file goes out: its bytes handed to the connection so far, and its size. */
  onProgress?: UploadProgress;
  /** This upload's deadline instead of `uploadDeadlineMs(file.size)`. */
  timeoutMs?: number;
}

export interface AgentClient {
  chat(request: ChatRequest, options?: CallOptions): Promise<ChatResponse>;
  webSources: {
    create(request: CreateWebSourceRequest, options?: CallOptions): Promise<WebSourceResponse>;
    update(id: string, discoveredUrls: DiscoveredUrl[], options?: CallOptions): Promise<WebSourceResponse>;
    discover(id: string, options?: CallOptions): Promise<DiscoverWebSourceResponse>;
    train(id: string, options?: CallOptions): Promise<TrainWebSourceResponse>;
    delete(id: string, options?: CallOptions): Promise<DeleteResponse>;
    /** Path assumed (not shown in the spec): see assumedPaths.listWebSources. */
    list(agentId: string, options?: CallOptions): Promise<WebSourceListResponse>;
    /** Path assumed (not shown in the spec): see assumedPaths.getWebSource. */
    get(id: string, options?: CallOptions): Promise<WebSourceResponse>;
    /** Polls get(id) until status is `completed`; rejects with ProcessingError on `error`/`failed`. */
    waitUntilTrained(id: string, options?: WaitOptions<WebSourceStatus>): Promise<WebSource>;
  };
  documents: {
    /**
     * Path assumed (not shown in the spec): see assumedPaths.uploadDocument. The file is streamed as the
     * connection takes it, within uploadDeadlineMs(file.size) unless `timeoutMs` is given.
     */
    upload(agentId: string, file: Blob, fileName: string, options?: UploadOptions): Promise<UploadDocumentResponse>;
    /** An upload's deadline: the client's timeoutMs plus the time `bytes` take at uploadBytesPerSecond. */
    uploadDeadlineMs(bytes: number): number;
    convert(agentId: string, documentId: string, options?: CallOptions): Promise<ConvertDocumentResponse>;
    status(documentId: string, options?: CallOptions): Promise<DocumentStatusResponse>;
    /** Polls status(documentId) until `completed`; rejects with ProcessingError on `error`. */
    waitUntilProcessed(documentId: string, options?: WaitOptions<DocumentStatus>): Promise<DocumentStatusResponse>;
  };
  /** `days`: 0 = all time; the service defaults to 30. */
  analytics(agentId: string, options?: CallOptions & { days?: number }): Promise<AnalyticsResponse>;
  credits(options?: CallOptions & { includeStats?: boolean }): Promise<CreditsResponse>;
  subscriptions: {
    get(options?: CallOptions): Promise<SubscriptionResponse>;
    limits(request: LimitsRequest, options?: CallOptions): Promise<LimitsResponse>;
    invoices(options?: CallOptions): Promise<InvoicesResponse>;
  };
}

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;
/** 1 Mbit/s: a slow mobile or shared link, so a link slower than this is rare and a stuck upload still ends. */
export const DEFAULT_UPLOAD_BYTES_PER_SECOND = 125_000;

/** An upload's deadline: `timeoutMs` plus the time `bytes` take at `bytesPerSecond`. */
export const uploadAllowanceMs = (
  bytes: number,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  bytesPerSecond = DEFAULT_UPLOAD_BYTES_PER_SECOND,
): number => timeoutMs + Math.ceil((Math.max(0, bytes) / bytesPerSecond) * 1000);
/** When a 429 carries no reset time at all. */
const FALLBACK_RETRY_WAIT_MS = 1000;

const WEB_SOURCE_MODES: readonly string[] = ['crawl', 'sitemap', 'single'];

const isIntegerIn = (value: unknown, min: number, max: number): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

function checkWebSource(request: CreateWebSourceRequest): void {
  requireId(request.agentId, 'agentId');
  check(httpUrl(request.url) !== undefined, 'url', 'expected an absolute http(s) URL.');
  check(WEB_SOURCE_MODES.includes(request.mode), 'mode', "expected 'crawl', 'sitemap' or 'single'.");
  if (request.maxPages !== undefined) check(isIntegerIn(request.maxPages, 1, 100), 'maxPages', 'expected a whole number from 1 to 100.');
  if (request.maxDepth !== undefined) check(isIntegerIn(request.maxDepth, 1, 3), 'maxDepth', 'expected a whole number from 1 to 3.');
}

function checkDiscoveredUrls(discoveredUrls: unknown): void {
  if (!Array.isArray(discoveredUrls)) throw invalidArgument('discoveredUrls', 'expected an array of { url } objects.');
  discoveredUrls.forEach((item: unknown, i) => {
    const url = typeof item === 'object' && item !== null && 'url' in item ? item.url : undefined;
    check(httpUrl(url) !== undefined, `discoveredUrls[${i}].url`, 'expected an absolute http(s) URL.');
  });
}

function checkLimits(request: LimitsRequest): void {
  check(request.check === 'agent' || request.check === 'storage', 'check', "expected 'agent' or 'storage'.");
  if (request.check === 'storage')
    check(
      isIntegerIn(request.bytes, 0, Number.MAX_SAFE_INTEGER),
      'bytes',
      'required for a storage check: a whole number of bytes, 0 or more.',
    );
}

export function createAgentClient(options: AgentClientOptions): AgentClient {
  // Checked here so a missing key fails at startup, not on the first call. The key is never echoed.
  check(isNonEmptyString(options.apiKey), 'apiKey', 'the service API key is required.');
  check(httpUrl(options.baseUrl) !== undefined, 'baseUrl', 'expected an absolute http(s) URL.');
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  check(isIntegerIn(maxRetries, 0, 10), 'maxRetries', 'expected a whole number from 0 to 10.');
  const maxRetryWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  check(Number.isFinite(timeoutMs) && timeoutMs > 0, 'timeoutMs', 'expected a positive number of milliseconds.');
  const uploadBytesPerSecond = options.uploadBytesPerSecond ?? DEFAULT_UPLOAD_BYTES_PER_SECOND;
  check(
    Number.isFinite(uploadBytesPerSecond) && uploadBytesPerSecond > 0,
    'uploadBytesPerSecond',
    'expected a positive number of bytes per second.',
  );
  const sleep = options.sleep ?? defaultSleep;
  const clock = { now: options.now ?? Date.now, sleep };
  const http = createHttp({
    baseUrl: options.baseUrl,
    fetch: serviceFetch(options.fetch ?? ((input, init) => globalThis.fetch(input, init)), createRedactor(options.apiKey)),
    timeoutMs,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    readRateLimit: rateLimitFromHeaders,
  });

  /** One call: typed errors, and after a 429 a wait until the reset (bounded in count and length). */
  async function send<T>(path: string, schema: Schema<T>, request: RequestOptions = {}): Promise<Success<T>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await http(path, schema, request);
      } catch (error) {
        const typed = error instanceof ApiError ? typedError(refusedRedirect(error)) : error;
        if (!(typed instanceof RateLimitedError) || attempt >= maxRetries) throw typed;
        const waitMs = typed.retryAfter === undefined ? FALLBACK_RETRY_WAIT_MS : typed.retryAfter * 1000;
        if (waitMs > maxRetryWaitMs) throw typed;
        await sleep(waitMs, request.signal);
      }
    }
  }

  const webSourcePath = (id: string, action = ''): string => `/web-sources/${encodeURIComponent(id)}${action}`;

  const webSources: AgentClient['webSources'] = {
    async create(request, call) {
      checkWebSource(request);
      const { agentId, url, mode, maxPages, maxDepth } = request;
      return send('/web-sources', shapes.webSourceResponse, {
        method: 'POST',
        body: { agentId, url, mode, maxPages, maxDepth },
        signal: call?.signal,
      });
    },
    async update(id, discoveredUrls, call) {
      requireId(id, 'id');
      checkDiscoveredUrls(discoveredUrls);
      return send(webSourcePath(id), shapes.webSourceResponse, { method: 'PATCH', body: { discoveredUrls }, signal: call?.signal });
    },
    async discover(id, call) {
      requireId(id, 'id');
      return send(webSourcePath(id, '/discover'), shapes.discoverWebSourceResponse, { method: 'POST', signal: call?.signal });
    },
    async train(id, call) {
      requireId(id, 'id');
      return send(webSourcePath(id, '/train'), shapes.trainWebSourceResponse, { method: 'POST', signal: call?.signal });
    },
    async delete(id, call) {
      requireId(id, 'id');
      return send(webSourcePath(id), shapes.deleteResponse, { method: 'DELETE', signal: call?.signal });
    },
    async list(agentId, call) {
      requireId(agentId, 'agentId');
      return send(assumedPaths.listWebSources, shapes.webSourceListResponse, { query: { agentId }, signal: call?.signal });
    },
    async get(id, call) {
      requireId(id, 'id');
      return send(assumedPaths.getWebSource(id), shapes.webSourceResponse, { signal: call?.signal });
    },
    async waitUntilTrained(id, wait = {}) {
      requireId(id, 'id');
      const done = await pollUntilDone(
        {
          resource: 'webSource',
          id,
          read: (signal) => webSources.get(id, { signal }),
          statusOf: (response: WebSourceResponse) => response.webSource.status,
          isDone: (status) => status === 'completed',
          isFailed: (status) => WEB_SOURCE_FAILED_STATUSES.includes(status),
        },
        wait,
        clock,
      );
      return done.webSource;
    },
  };

  const documents: AgentClient['documents'] = {
    async upload(agentId, file, fileName, call = {}) {
      requireId(agentId, 'agentId');
      check(file instanceof Blob, 'file', 'expected a Blob or File.');
      requireId(fileName, 'fileName');
      if (call.timeoutMs !== undefined)
        check(Number.isFinite(call.timeoutMs) && call.timeoutMs > 0, 'timeoutMs', 'expected a positive number of milliseconds.');
      return send(assumedPaths.uploadDocument, shapes.uploadDocumentResponse, {
        method: 'POST',
        stream: multipartBody({ agentId }, { field: 'file', name: fileName, blob: file }, call.onProgress),
        signal: call.signal,
        timeoutMs: call.timeoutMs ?? documents.uploadDeadlineMs(file.size),
      });
    },
    uploadDeadlineMs: (bytes) => uploadAllowanceMs(bytes, timeoutMs, uploadBytesPerSecond),
    async convert(agentId, documentId, call) {
      requireId(agentId, 'agentId');
      requireId(documentId, 'documentId');
      return send('/convert-document', shapes.convertDocumentResponse, {
        method: 'POST',
        body: { agentId, documentId },
        signal: call?.signal,
      });
    },
    async status(documentId, call) {
      requireId(documentId, 'documentId');
      return send('/convert-document/status', shapes.documentStatusResponse, {
        method: 'POST',
        body: { documentId },
        signal: call?.signal,
      });
    },
    async waitUntilProcessed(documentId, wait = {}) {
      requireId(documentId, 'documentId');
      return pollUntilDone(
        {
          resource: 'document',
          id: documentId,
          read: (signal) => documents.status(documentId, { signal }),
          statusOf: (response: DocumentStatusResponse) => response.status,
          isDone: (status) => status === 'completed',
          isFailed: (status) => status === 'error',
        },
        wait,
        clock,
      );
    },
  };

  return {
    async chat(request, call) {
      requireId(request.agentId, 'agentId');
      check(isNonEmptyString(request.message), 'message', 'a non-empty string is required.');
      if (request.conversationId !== undefined) requireId(request.conversationId, 'conversationId');
      const { agentId, message, conversationId } = request;
      return send('/chat', shapes.chatResponse, { method: 'POST', body: { agentId, message, conversationId }, signal: call?.signal });
    },
    webSources,
    documents,
    async analytics(agentId, call = {}) {
      requireId(agentId, 'agentId');
      if (call.days !== undefined)
        check(isIntegerIn(call.days, 0, Number.MAX_SAFE_INTEGER), 'days', 'expected a whole number, 0 (all time) or more.');
      return send(`/agents/${encodeURIComponent(agentId)}/analytics`, shapes.analyticsResponse, {
        query: { days: call.days },
        signal: call.signal,
      });
    },
    async credits(call = {}) {
      if (call.includeStats !== undefined) check(typeof call.includeStats === 'boolean', 'includeStats', 'expected true or false.');
      return send('/credits', shapes.creditsResponse, {
        query: { includeStats: call.includeStats ? 'true' : undefined },
        signal: call.signal,
      });
    },
    subscriptions: {
      async get(call) {
        return send('/subscriptions', shapes.subscriptionResponse, { signal: call?.signal });
      },
      async limits(request, call) {
        checkLimits(request);
        const body = request.check === 'storage' ? { check: request.check, bytes: request.bytes } : { check: request.check };
        return send('/subscriptions/limits', shapes.limitsResponse, { method: 'POST', body, signal: call?.signal });
      },
      async invoices(call) {
        return send('/subscriptions/invoices', shapes.invoicesResponse, { signal: call?.signal });
      },
    },
  };
}
