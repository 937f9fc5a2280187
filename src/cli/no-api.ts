// A base URL without the API's path prefix: whatever answers there (a web site, a dev server) sends an
// HTML page, or a 404 without the service's JSON, for every path. That is said as such, instead of
// "Not found" as if the id were wrong.
import { ApiError } from '../core/http';
import { CliError, printableUrl } from './errors';
import type { Setting } from './settings';

/** The last answer of a run: its URL (as it may be printed) and whether it was an HTML page. */
export interface LastAnswer {
  url?: string;
  html?: boolean;
}

export function noteAnswer(answers: LastAnswer, printedUrl: string, response: Response): void {
  answers.url = printedUrl;
  answers.html = /\btext\/html\b/i.test(response.headers.get('Content-Type') ?? '');
}

/** The sentence for an answer that is not the service's, when that is what `error` is; undefined otherwise. */
export function noApiHere(error: unknown, answers: LastAnswer, baseUrl: Setting | undefined): CliError | undefined {
  if (!(error instanceof ApiError) || !error.withoutEnvelope || answers.url === undefined) return undefined;
  // A success, or "no such path": an error page for a failing service (5xx) or a gate (401) says something else.
  const { status } = error;
  if (status >= 300 && status !== 404 && status !== 405) return undefined;
  let what = "a 404 without the service's JSON";
  if (answers.html) what = 'an HTML page';
  else if (status !== 404) return undefined;
  const setting = baseUrl ? ` The base URL is ${printableUrl(baseUrl.value)}, from ${baseUrl.from}.` : '';
  return new CliError(`Got ${what} from ${answers.url}: no API here; is the base URL right?${setting}`, 'no_api_here', error);
}
