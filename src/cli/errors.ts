// Every failure ends as one plain sentence and one documented exit code (README "Command line").
import { ANSWER_TOO_LARGE, ApiError } from '../core/http';
import { ProcessingError } from '../server/errors';
import { plain, truncate } from './text';

export const EXIT = {
  ok: 0,
  /** The work itself failed: a document or training ended in error, a limit check said no, removal declined. */
  failed: 1,
  /** The command line is wrong: unknown command or option, a bad value, a missing variable. */
  usage: 2,
  /** The service refused the API key (401/403). */
  auth: 3,
  /** The agent, web source or document does not exist, or is not yours (404). */
  notFound: 4,
  /** The service refused the request (400) or there are not enough credits (402). */
  refused: 5,
  /** Still rate limited after waiting for the reset (429). */
  rateLimited: 6,
  /** --timeout passed while waiting, or the service did not answer in time. */
  timeout: 7,
  /** The service could not be reached, failed (5xx) or sent an answer this CLI does not understand. */
  unavailable: 8,
  /** Ctrl-C. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The stable codes of a --json error (`error.code`), each with the one exit code it ends with. Scripts
 * branch on them: a code is never renamed nor given another exit code (docs/cli.md lists them).
 */
export const ERROR_CODES = {
  /** Processing or training ended in error, a limit check said no, or the work could not be saved. */
  failed: EXIT.failed,
  /** Removal declined at the prompt. */
  declined: EXIT.failed,
  /** The command line is wrong: unknown command or option, a bad value or argument. */
  usage: EXIT.usage,
  /** The key, base URL, agent or profile is not set (all named), or the base URL is not http(s). */
  missing_settings: EXIT.usage,
  /** The config file cannot be read or is not the CLI's. */
  bad_config: EXIT.usage,
  /** 401: the service refused the API key. */
  unauthorized: EXIT.auth,
  /** 403: the key may not do this (scoped to another agent). */
  forbidden: EXIT.auth,
  /** 404. */
  not_found: EXIT.notFound,
  /** 400: the service refused the request's parameters. */
  bad_request: EXIT.refused,
  /** 402. */
  insufficient_credits: EXIT.refused,
  /** Another 4xx the spec does not name (the status says which). */
  refused: EXIT.refused,
  /** 429 after waiting for the reset; `retryAfter` says when to try again. */
  rate_limited: EXIT.rateLimited,
  /** --timeout passed while waiting: the job goes on on the service. */
  wait_timeout: EXIT.timeout,
  /** A request got no answer in time. */
  request_timeout: EXIT.timeout,
  /** Nothing answered: connection refused or reset, or no reason given by the system. */
  unreachable: EXIT.unavailable,
  /** The service's host name does not resolve. */
  dns: EXIT.unavailable,
  /** The service's TLS certificate was not accepted. */
  tls: EXIT.unavailable,
  /** 5xx: the service failed (its own message kept when it sent one). */
  service_error: EXIT.unavailable,
  /** An answer that does not fit the spec. */
  invalid_answer: EXIT.unavailable,
  /** An answer over the size limit, of which nothing was used. */
  answer_too_large: EXIT.unavailable,
  /** The base URL leads to an HTML page or a bare 404: not the service's API. */
  no_api_here: EXIT.unavailable,
  /** A fault in the CLI itself. */
  internal: EXIT.unavailable,
  /** Ctrl-C or SIGTERM: work already started goes on on the service. */
  interrupted: EXIT.interrupted,
} as const satisfies Record<string, ExitCode>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** What the service's answer said of a failure, when there was an answer. */
export interface AnswerFacts {
  /** The HTTP status. */
  status?: number;
  /** Seconds until a rate limit resets. */
  retryAfter?: number;
}

export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: ExitCode;
  readonly status: number | undefined;
  readonly retryAfter: number | undefined;
  constructor(
    message: string,
    readonly code: ErrorCode,
    { status, retryAfter }: AnswerFacts = {},
  ) {
    super(message);
    this.exitCode = ERROR_CODES[code];
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

export const usageError = (message: string): CliError => new CliError(message, 'usage');

/** The service's own words, made safe to print and short enough for one sentence. */
export function serviceSays(error: ApiError): string {
  const text = truncate(plain(error.message).trim(), 200);
  return text.endsWith('.') ? text.slice(0, -1) : text;
}

/** A base URL as it may be printed: without the user name and password it may carry (`https://user:pass@…`). */
export function printableUrl(url: string): string {
  if (!URL.canParse(url)) return plain(url);
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return plain(parsed.href);
}

/** The system's error code behind a failed fetch (undici puts it on the TypeError's cause). */
function systemCode(error: ApiError): string | undefined {
  const failed = error.cause;
  const cause = failed instanceof Error ? failed.cause : undefined;
  return cause instanceof Error && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
}

/** Why nothing answered, in words when the system said, and the code that names it. */
function unreachableBecause(error: ApiError, baseUrl: string): { code: ErrorCode; because?: string } {
  const system = systemCode(error);
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (system === 'ECONNREFUSED')
    return { code: 'unreachable', because: `connection refused: nothing listens at ${plain(url?.host ?? baseUrl)}` };
  if (system === 'ENOTFOUND' || system === 'EAI_AGAIN')
    return { code: 'dns', because: `the name ${plain(url?.hostname ?? baseUrl)} does not resolve in DNS` };
  if (system === 'ECONNRESET') return { code: 'unreachable', because: 'the connection was reset' };
  if (system === 'ETIMEDOUT' || system === 'UND_ERR_CONNECT_TIMEOUT') return { code: 'unreachable', because: 'the connection timed out' };
  if (system !== undefined && /CERT|TLS|SSL|SELF_SIGNED/.test(system))
    return { code: 'tls', because: `its TLS certificate was not accepted (${system})` };
  return { code: 'unreachable', because: system };
}

/** The key a request was sent with, masked (`sk_live_…a1b2 from profile default`), and how to fix a refused one. */
export interface KeyInUse {
  masked: string;
  fix: string;
}

/** Maps anything thrown by the client to the sentence, code and exit code the user sees. */
export function toCliError(error: unknown, baseUrl: string, key?: KeyInUse): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof ProcessingError)
    return new CliError(
      `${error.resource === 'document' ? 'Document' : 'Web source'} ${plain(error.id)} failed: the service reports status "${plain(error.status)}".`,
      'failed',
    );
  if (!(error instanceof ApiError)) return new CliError('Something unexpected went wrong in the CLI.', 'internal');
  switch (error.kind) {
    case 'validation':
      return usageError(`${serviceSays(error)}.`);
    case 'network': {
      const { code, because } = unreachableBecause(error, baseUrl);
      return new CliError(`Could not reach the service at ${printableUrl(baseUrl)}${because ? ` (${because})` : ''}.`, code);
    }
    case 'timeout':
      return new CliError('The service did not answer in time.', 'request_timeout');
    case 'aborted':
      return new CliError('Stopped.', 'interrupted');
    case 'invalid_response':
      if (error.code === ANSWER_TOO_LARGE) return new CliError(`${serviceSays(error)}; nothing of it was used.`, 'answer_too_large', error);
      return new CliError(`The service sent an answer this CLI does not understand (${serviceSays(error)}).`, 'invalid_answer', error);
    case 'http':
      return httpError(error, baseUrl, key);
  }
}

/** A refused key's code: 401 says the key is not valid, 403 that it may not do this. */
export const refusedKeyCode = (status: number): ErrorCode => (status === 401 ? 'unauthorized' : 'forbidden');

function httpError(error: ApiError, baseUrl: string, key: KeyInUse | undefined): CliError {
  const { status } = error;
  if (status === 401 || status === 403)
    return new CliError(
      key
        ? `The service at ${printableUrl(baseUrl)} refused the API key ${key.masked} (${status}: ${serviceSays(error)}); ${key.fix}.`
        : `The service refused the API key (${status}: ${serviceSays(error)}); check AGENT_API_KEY and its agent scope.`,
      refusedKeyCode(status),
      error,
    );
  if (status === 404) return new CliError(`Not found (404: ${serviceSays(error)}).`, 'not_found', error);
  if (status === 402) return new CliError(`Not enough credits (402: ${serviceSays(error)}).`, 'insufficient_credits', error);
  if (status === 429) {
    const wait = error.retryAfter === undefined ? '' : `; try again in ${error.retryAfter} s`;
    return new CliError(`The service is rate limiting this key${wait}.`, 'rate_limited', error);
  }
  // The service's own words say what failed; an answer without its envelope (a proxy's page) has none.
  if (status >= 500)
    return new CliError(
      `The service failed (${status}${error.withoutEnvelope ? '' : `: ${serviceSays(error)}`}); try again later.`,
      'service_error',
      error,
    );
  return new CliError(
    `The service refused the request (${status}: ${serviceSays(error)}).`,
    status === 400 ? 'bad_request' : 'refused',
    error,
  );
}
