// The options only the panel uses, read by the panel's code from the options as given (the loader reads
// and checks the rest, ./options): the greeting, the starter questions, the avatar, what booking carries
// along (prefill values, UTM parameters), and the owner's strings, checked against the dictionary. When
// the panel's code arrives, a malformed option is one console warning (its default is used), a mistake
// in the strings one console error (the built-in text is used).
import { isNonEmptyString, isRecord } from '../../core/guards';
import { attempt } from '../../core/attempt';
import { pickStrings, type Strings } from '../i18n';
import { logError, logWarning } from '../platform/log';
import type { PanelInput } from './options';
import type { PANEL_KEYS } from './panel-keys';
import { asText, httpUrl, isTextEntry, nonEmpty, optionName, readRules, type Problems, type Rules } from './rules';

export interface PanelOptions {
  greeting: string | undefined;
  starters: readonly string[];
  /** An http(s) URL of an image before the title. */
  avatar: string | undefined;
  /** Booking form answers to prefill, keyed by form field id (or name / email). */
  prefill: Record<string, string> | undefined;
  /** The page's UTM parameters, when the owner opted in. */
  utm: Record<string, string> | undefined;
  /** The owner's texts that the dictionary knows. */
  strings: Partial<Strings>;
}

/** Characters of one starter question: a button, not a paragraph. */
export const MAX_STARTER_CHARS = 120;

const isStarter = (v: unknown): v is string => isNonEmptyString(v) && v.length <= MAX_STARTER_CHARS;

/** A list of 1-4 starter questions. */
const starterList = (list: unknown): string[] | undefined =>
  Array.isArray(list) && list.length && list.length < 5 && list.every(isStarter) ? list : undefined;

interface RuleValues {
  greeting: string | undefined;
  starters: readonly string[];
  avatar: string | undefined;
  /** Undefined: off, as false is. */
  utm: boolean | undefined;
}

/** What the rules read: every option PANEL_KEYS names (which the loader collects) but prefillFromUrl, read by prefillOf. */
type Parsed = Pick<RuleValues, Exclude<(typeof PANEL_KEYS)[number], 'prefillFromUrl'>>;

/** A boolean written as text; anything else is malformed. */
const BOOLEAN_TEXT: Partial<Record<string, boolean>> = { true: true, false: false };

const RULES: Rules<Parsed> = {
  greeting: { parse: asText, expected: 'text', fallback: undefined },
  starters: {
    parse: (v) => starterList(attempt(() => JSON.parse(v))),
    expected: `1-4 texts of up to ${MAX_STARTER_CHARS} characters (JSON)`,
    fallback: [],
  },
  avatar: { parse: httpUrl, expected: 'an http(s) URL', fallback: undefined },
  // "true" from an attribute or the iframe's URL; init()'s boolean is turned into text first.
  utm: { parse: (v) => BOOLEAN_TEXT[v], expected: 'one of true, false', fallback: undefined },
};

const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'];

/** The string entries of an object; undefined for anything else. */
const stringRecord = (value: unknown): Record<string, string> | undefined =>
  isRecord(value) ? Object.fromEntries(Object.entries(value).filter(isTextEntry)) : undefined;

/** `keys` from the page's query string, only those present; capped, as anyone can craft a link. */
const fromQuery = (pageUrl: string, keys: readonly string[]): Record<string, string> | undefined => {
  const query = new URL(pageUrl).searchParams;
  const found = keys.map((key): [string, unknown] => [key, (key && query.get(key)?.trim().slice(0, 200)) || undefined]);
  return nonEmpty(Object.fromEntries(found.filter(isTextEntry)));
};

/** The owner's values win over the URL's: a crafted link must not replace what the page knows. */
const prefillOf = (given: Readonly<Record<string, unknown>>, pageUrl: string): Record<string, string> | undefined => {
  // A list or "name,email": an array's String() is its items joined by commas.
  const keys = String(given.prefillFromUrl ?? '')
    .split(',')
    .map((k) => k.trim());
  return nonEmpty({ ...fromQuery(pageUrl, keys), ...stringRecord(given.prefill) });
};

/**
 * The owner's strings: an object from init(), JSON from data-strings. What cannot be used goes to
 * `mistakes`.
 */
const stringsOf = (value: unknown, mistakes: string[]): Partial<Strings> => {
  if (value === undefined || value === '') return {};
  const given: unknown = typeof value === 'string' ? attempt(() => JSON.parse(value)) : value;
  if (!isRecord(given)) {
    mistakes.push(`${optionName('strings')} is not a JSON object.`);
    return {};
  }
  const [strings, rejected] = pickStrings(given);
  if (rejected.length) mistakes.push(`${optionName('strings')} has unknown or non-text ${rejected.join(', ')}.`);
  return strings;
};

export interface PanelResolution {
  options: PanelOptions;
  /** Options that fell back to their default. */
  warnings: string[];
  /** What in the owner's strings could not be used. */
  mistakes: string[];
}

/** Pure: the panel's options, and what could not be used. */
export function resolvePanelOptions({ given, baseUri, pageUrl }: PanelInput): PanelResolution {
  const problems: Problems = { errors: [], warnings: [] };
  const mistakes: string[] = [];
  // init() may pass starters as a list: any item but text fails the rule, so JSON cannot throw on a cycle or a BigInt.
  const starters = Array.isArray(given.starters) ? JSON.stringify(given.starters.map((s: unknown) => isStarter(s) && s)) : given.starters;
  const parsed = readRules(RULES, { ...given, starters }, baseUri, problems);
  const options: PanelOptions = {
    ...parsed,
    prefill: prefillOf(given, pageUrl),
    utm: parsed.utm ? fromQuery(pageUrl, UTM_KEYS) : undefined,
    strings: stringsOf(given.strings, mistakes),
  };
  return { options, warnings: problems.warnings, mistakes };
}

/** The panel's options; the console names what could not be used (a warning, and an error for the strings). */
export function readPanelOptions(input: PanelInput): PanelOptions {
  const { options, warnings, mistakes } = resolvePanelOptions(input);
  if (warnings.length) logWarning(`Defaults used: ${warnings.join(' ')}`);
  if (mistakes.length) logError(`Built-in text used: ${mistakes.join(' ')}`);
  return options;
}
