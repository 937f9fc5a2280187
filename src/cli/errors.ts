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

export class CliError extends Error {
  override readonly name = 'CliError';
  /** What a script needs of the work done before the failure (an upload's documentId, callId, status so far), for --json. */
  details: Record<string, unknown> | undefined;
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}

export const usageError = (message: string): CliError => new CliError(message, EXIT.usage);

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

/** Why nothing answered, in words, when the system said; undefined when it did not. */
function unreachableBecause(error: ApiError, baseUrl: string): string | undefined {
  const code = systemCode(error);
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (code === 'ECONNREFUSED') return `connection refused: nothing listens at ${plain(url?.host ?? baseUrl)}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the name ${plain(url?.hostname ?? baseUrl)} does not resolve in DNS`;
  if (code === 'ECONNRESET') return 'the connection was reset';
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'the connection timed out';
  if (code !== undefined && /CERT|TLS|SSL|SELF_SIGNED/.test(code)) return `its TLS certificate was not accepted (${code})`;
  return code;
}

/** The key a request was sent with, masked (`sk_live_…a1b2 from profile default`), and how to fix a refused one. */
export interface KeyInUse {
  masked: string;
  fix: string;
}

/** Maps anything thrown by the client to the sentence and exit code the user sees. */
export function toCliError(error: unknown, baseUrl: string, key?: KeyInUse): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof ProcessingError)
    return new CliError(
      `${error.resource === 'document' ? 'Document' : 'Web source'} ${plain(error.id)} failed: the service reports status "${plain(error.status)}".`,
      EXIT.failed,
    );
  if (!(error instanceof ApiError)) return new CliError('Something unexpected went wrong in the CLI.', EXIT.unavailable);
  switch (error.kind) {
    case 'validation':
      return usageError(`${serviceSays(error)}.`);
    case 'network': {
      const because = unreachableBecause(error, baseUrl);
      return new CliError(`Could not reach the service at ${printableUrl(baseUrl)}${because ? ` (${because})` : ''}.`, EXIT.unavailable);
    }
    case 'timeout':
      return new CliError('The service did not answer in time.', EXIT.timeout);
    case 'aborted':
      return new CliError('Stopped.', EXIT.interrupted);
    case 'invalid_response':
      if (error.code === ANSWER_TOO_LARGE) return new CliError(`${serviceSays(error)}; nothing of it was used.`, EXIT.unavailable);
      return new CliError(`The service sent an answer this CLI does not understand (${serviceSays(error)}).`, EXIT.unavailable);
    case 'http':
      return httpError(error, baseUrl, key);
  }
}

function httpError(error: ApiError, baseUrl: string, key: KeyInUse | undefined): CliError {
  const { status } = error;
  if (status === 401 || status === 403)
    return new CliError(
      key
        ? `The service at ${printableUrl(baseUrl)} refused the API key ${key.masked} (${status}: ${serviceSays(error)}); ${key.fix}.`
        : `The service refused the API key (${status}: ${serviceSays(error)}); check AGENT_API_KEY and its agent scope.`,
      EXIT.auth,
    );
  if (status === 404) return new CliError(`Not found (404: ${serviceSays(error)}).`, EXIT.notFound);
  if (status === 402) return new CliError(`Not enough credits (402: ${serviceSays(error)}).`, EXIT.refused);
  if (status === 429) {
    const wait = error.retryAfter === undefined ? '' : `; try again in ${error.retryAfter} s`;
    return new CliError(`The service is rate limiting this key${wait}.`, EXIT.rateLimited);
  }
  // The service's own words say what failed; an answer without its envelope (a proxy's page) has none.
  if (status >= 500)
    return new CliError(
      `The service failed (${status}${error.withoutEnvelope ? '' : `: ${serviceSays(error)}`}); try again later.`,
      EXIT.unavailable,
    );
  return new CliError(`The service refused the request (${status}: ${serviceSays(error)}).`, EXIT.refused);
}
