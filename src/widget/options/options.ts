// Every option of the widget is validated here, whether it came from data-* attributes or init().
// A missing or malformed required option: ONE console.error naming it, and nothing is drawn.
// A malformed optional one: one console.warn, and its default is used. The owner's strings are the
// exception: a mistake there is one console.error naming it, and the built-in text is used for it.
// Whether each key names a text of the dictionary is checked when the panel (which holds the
// dictionary) arrives: see reportUnknownStrings.
import { isNonEmptyString, isRecord } from '../../core/schema';
import { attempt } from '../../core/attempt';
import type { Strings } from '../i18n';
import { logError, logWarning } from '../platform/log';

export { isRecord };

export const VIEWS = ['chat', 'booking', 'lookup'] as const;
export type View = (typeof VIEWS)[number];
/** For values from plain JS or another window. */
export const isView = (value: unknown): value is View => (VIEWS as readonly unknown[]).includes(value);
export type Persist = 'local' | 'session' | 'none';
export type Position = 'left' | 'right';
export type Theme = 'light' | 'dark' | 'auto';
export type Mode = 'bubble' | 'inline';

/** What owners pass to init() (or mount()); data-* attributes map onto the same names. */
export interface WidgetOptions {
  agentId: string;
  /** Base URL of /booking/public/*; relative URLs resolve against the page. */
  apiBase: string;
  /** The owner's chat proxy. */
  chatUrl: string;
  title?: string;
  greeting?: string;
  /** #rgb or #rrggbb. */
  color?: string;
  position?: Position;
  theme?: Theme;
  /** BCP 47; drives Intl formatting and the text direction. */
  locale?: string;
  persist?: Persist;
  mode?: Mode;
  /** Inline mode: a selector or the element the panel fills. */
  target?: string | Element;
  /** Overrides of the visible text by key; from a tag, JSON (data-strings). */
  strings?: Partial<Strings>;
  /** Booking form answers to prefill, keyed by form field id (or name / email). */
  prefill?: Record<string, string>;
  /** Prefill keys the page URL's query may supply (?email=…): a list or "name,email". Off unless given. */
  prefillFromUrl?: string | readonly string[];
  /** Attach the page's utm_* query parameters to booking:created. Off unless true. */
  utm?: boolean | 'true' | 'false';
  /** The view shown first: inline at once, bubble on the first open. */
  view?: View;
  /** 1-4 questions offered as buttons on an empty conversation; from a tag, JSON (data-starters). */
  starters?: readonly string[] | string;
  /** An http(s) URL of an avatar or logo shown before the title. */
  avatar?: string;
  /** Bubble mode: a short message beside the closed launcher, once per visitor (README: Teaser). */
  teaser?: string;
  /** Bubble mode: seconds after load before the teaser shows, 0 to 3600; 5 unless given. */
  teaserDelay?: number | string;
  /** Bubble mode: the stacking order on the page, 0 to 2147483647 (the default: above everything). */
  zIndex?: number | string;
}

export interface ResolvedOptions {
  agentId: string;
  apiBase: string;
  chatUrl: string;
  title: string | undefined;
  greeting: string | undefined;
  color: string;
  position: Position;
  theme: Theme;
  locale: string;
  persist: Persist;
  mode: Mode;
  target: string | Element | undefined;
  /** The owner's texts by key, every value text; the keys are checked against the dictionary by the panel. */
  strings: OwnerStrings;
  prefill: Record<string, string> | undefined;
  /** The page's UTM parameters, when the owner opted in. */
  utm: Record<string, string> | undefined;
  view: View;
  starters: readonly string[];
  avatar: string | undefined;
  teaser: string | undefined;
  teaserDelay: number;
  zIndex: string;
}

/** Texts by key as the owner gave them: whether each key names a string of the dictionary is not known yet. */
export type OwnerStrings = Readonly<Record<string, string>>;

export const DEFAULT_COLOR = '#4f46e5';

/**
 * How an option is read: its parser (undefined: malformed), what a good value looks like (for the
 * console), and its default, left out where that is undefined. An empty default marks a required option:
 * there is nothing to fall back on.
 */
type Rule<T> = readonly [parse: (value: string, baseUri: string) => T | undefined, expected: string, fallback?: T];

/** The options given as text (attributes, the iframe's URL, init()), as they come out of their rules. */
type Parsed = Omit<ResolvedOptions, 'locale' | 'utm' | 'target' | 'strings' | 'prefill'> & {
  /** Undefined: the page's language decides. */
  locale: string | undefined;
  /** Undefined: off, as false is. */
  utm: boolean | undefined;
  target: string | undefined;
};

const same = (value: string): string => value;

const httpUrl = (value: string, baseUri: string): string | undefined => {
  const url = attempt(() => new URL(value, baseUri));
  return url && /^https?:$/.test(url.protocol) ? url.href : undefined;
};

/** Undefined for no tag (Intl gives no locale for it) as for a malformed one. */
const canonicalLocale = (value: string | undefined): string | undefined => attempt(() => Intl.getCanonicalLocales(value)[0]);

/** Characters of one starter question: a button, not a paragraph. */
export const MAX_STARTER_CHARS = 120;

const isStarter = (v: unknown): v is string => isNonEmptyString(v) && v.length <= MAX_STARTER_CHARS;

/** Characters of the teaser: a line or two beside the launcher. */
export const MAX_TEASER_CHARS = 140;

/** A list of 1-4 starter questions. */
const starterList = (list: unknown): string[] | undefined =>
  Array.isArray(list) && list.length && list.length < 5 && list.every(isStarter) ? list : undefined;

/** One of `allowed`, the first being the default. */
const oneOf = <T extends string>(...allowed: [T, ...T[]]): Required<Rule<T>> => [
  (v) => allowed.find((a) => a === v),
  `one of ${allowed.join(', ')}`,
  allowed[0],
];

/** Every option a script tag can carry, as data-<kebab-case>. */
const RULES: { [K in keyof Parsed]: undefined extends Parsed[K] ? Rule<Parsed[K]> : Required<Rule<Parsed[K]>> } = {
  agentId: [(v) => (/^\S{1,200}$/.test(v) ? v : undefined), 'an id', ''],
  apiBase: [httpUrl, 'an http(s) URL', ''],
  chatUrl: [httpUrl, 'an http(s) URL', ''],
  title: [same, 'text'],
  greeting: [same, 'text'],
  starters: [(v) => starterList(attempt(() => JSON.parse(v))), `1-4 texts of up to ${MAX_STARTER_CHARS} characters (JSON)`, []],
  avatar: [httpUrl, 'an http(s) URL'],
  color: [(v) => (/^#([0-9a-f]{3}){1,2}$/i.test(v) ? v.toLowerCase() : undefined), '#rgb or #rrggbb', DEFAULT_COLOR],
  position: oneOf('right', 'left'),
  theme: oneOf('light', 'dark', 'auto'),
  locale: [canonicalLocale, 'a language tag'],
  persist: oneOf('local', 'session', 'none'),
  view: oneOf(...VIEWS),
  // "true" from an attribute or the iframe's URL; init()'s boolean is turned into text first.
  utm: [(v) => (v === 'true' ? true : v === 'false' ? false : undefined), 'one of true, false'],
  // Last: the <agent-widget> element has none of these (it is always inline).
  teaser: [(v) => (v.length > MAX_TEASER_CHARS ? undefined : v), `text of up to ${MAX_TEASER_CHARS} characters`],
  teaserDelay: [(v) => (/^\d{1,4}$/.test(v) && +v <= 3600 ? +v : undefined), '0 to 3600 (seconds)', 5],
  // The browser caps a larger number at the top, 2147483647.
  zIndex: [(v) => (/^\d{1,10}$/.test(v) ? v : undefined), 'a whole number', '2147483647'],
  mode: oneOf('bubble', 'inline'),
  target: [same, 'a selector'],
};

/** prefillFromUrl is a list (or "name,email"), read by prefillOf; strings is JSON, read by stringsOf. */
const SCRIPT_KEYS = ['prefillFromUrl', 'strings', ...Object.keys(RULES)];

const kebab = (key: string): string => key.replace(/[A-Z]/g, '-$&').toLowerCase();

/** SCRIPT_KEYS in kebab-case, in the same order: the attribute names without their prefix. */
const SCRIPT_NAMES = SCRIPT_KEYS.map(kebab);

/** The <agent-widget> element's attributes: the script tag's without "data-", and none of the bubble's own. */
export const ELEMENT_ATTRIBUTES: readonly string[] = SCRIPT_NAMES.slice(0, -5);

const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'];

/** Messages name both spellings, so they read right for a script tag and for init(). */
const name = (key: string): string => `data-${kebab(key)} (${key})`;

const nonEmpty = <T extends object>(record: T): T | undefined => (Object.keys(record).length ? record : undefined);

/**
 * The options an element's attributes carry (`prefix` "data-" on the script tag, "" on <agent-widget>);
 * absent attributes stay absent, and none at all is undefined. <prefix>prefill-<key> attributes gather
 * into `prefill`, keyed as written.
 */
export const optionsFromScript = (el: Element, prefix = 'data-'): Record<string, string | Record<string, string>> | undefined => {
  const found: Record<string, string | Record<string, string>> = {};
  const prefill: Record<string, string> = {};
  for (const { name, value } of el.attributes) {
    const rest = name.startsWith(prefix) ? name.slice(prefix.length) : '';
    // prefill-from-url is an option of its own, found first.
    const key = SCRIPT_KEYS[SCRIPT_NAMES.indexOf(rest)];
    if (key) found[key] = value;
    else if (/^prefill-./.test(rest)) prefill[rest.slice(8)] = value;
  }
  if (nonEmpty(prefill)) found.prefill = prefill;
  return nonEmpty(found);
}

const isPair = (entry: [string, unknown]): entry is [string, string] => typeof entry[1] === 'string';

/** The string entries of an object; undefined for anything else. */
const stringRecord = (value: unknown): Record<string, string> | undefined =>
  isRecord(value) ? Object.fromEntries(Object.entries(value).filter(isPair)) : undefined;

/** `keys` from the page's query string, only those present; capped, as anyone can craft a link. */
const fromQuery = (pageUrl: string, keys: readonly string[]): Record<string, string> | undefined => {
  const query = new URL(pageUrl).searchParams;
  return nonEmpty(
    Object.fromEntries(keys.map((key): [string, unknown] => [key, (key && query.get(key)?.trim().slice(0, 200)) || undefined]).filter(isPair)),
  );
};

/** The owner's values win over the URL's: a crafted link must not replace what the page knows. */
const prefillOf = (raw: Record<string, unknown>, pageUrl: string): Record<string, string> | undefined => {
  // A list or "name,email": an array's String() is its items joined by commas.
  const keys = String(raw.prefillFromUrl ?? '').split(',').map((k) => k.trim());
  return nonEmpty({ ...fromQuery(pageUrl, keys), ...stringRecord(raw.prefill) });
};

/** `options` only when `errors` is empty. `mistakes` (in the owner's strings) do not stop the widget. */
export interface Resolution {
  options: ResolvedOptions | undefined;
  errors: string[];
  warnings: string[];
  mistakes: string[];
}

const unknownOrNonText = (keys: readonly string[]): string => `${name('strings')} has unknown or non-text ${keys.join(', ')}.`;

/**
 * The owner's strings: an object from init(), JSON from data-strings. A value that is not text goes to
 * `mistakes`; keys the dictionary does not know are reported by reportUnknownStrings.
 */
const stringsOf = (value: unknown, mistakes: string[]): OwnerStrings => {
  if (value === undefined || value === '') return {};
  const given: unknown = typeof value === 'string' ? attempt(() => JSON.parse(value)) : value;
  if (!isRecord(given)) {
    mistakes.push(`${name('strings')} is not a JSON object.`);
    return {};
  }
  const texts = Object.entries(given).filter(isPair);
  if (texts.length < Object.keys(given).length) mistakes.push(unknownOrNonText(Object.keys(given).filter((key) => typeof given[key] !== 'string')));
  return Object.fromEntries(texts);
};

/**
 * The console error for the owner's keys that name no text of the dictionary, made when the dictionary is
 * there (the panel's file); the built-in text is used for them.
 */
export const reportUnknownStrings = (unknown: readonly string[]): void => {
  if (unknown.length) logError(`Built-in text used: ${unknownOrNonText(unknown)}`);
};

/**
 * Pure validation: the resolved options, or every reason they cannot be used. `pageUrl` is the
 * address whose query may supply prefill values and UTM parameters, when the owner opted in.
 */
export function resolveOptions(input: unknown, baseUri: string, fallbackLocale?: string, pageUrl = baseUri): Resolution {
  const errors: string[] = isRecord(input) ? [] : ['init() needs an options object.'];
  const warnings: string[] = [];
  const mistakes: string[] = [];
  const given: Record<string, unknown> = isRecord(input) ? input : {};
  // Only ever run beside a document (readOptions; the tests' jsdom), so Element exists.
  const element = given.target instanceof Element ? given.target : undefined;
  // init() may pass target as an element and starters as a list (any item but text fails the rule, so
  // JSON cannot throw on a cycle or a BigInt); read() turns numbers and booleans into text for the rules.
  const raw: Record<string, unknown> = {
    ...given,
    target: element ? undefined : given.target,
    starters: Array.isArray(given.starters) ? JSON.stringify(given.starters.map((s: unknown) => isStarter(s) && s)) : given.starters,
  };

  /** Absent (or blank): the default, an error if required. Malformed: the default, with an error or a warning. */
  const read = (key: keyof Parsed): unknown => {
    const [parse, expected, fallback]: Rule<unknown> = RULES[key];
    const required = fallback === '';
    const value = raw[key];
    // init() may give a number (zIndex) or a boolean (utm): read as their text. Any other type is malformed.
    const text = ['string', 'number', 'boolean'].includes(typeof value) ? `${value}`.trim() : undefined;
    if (value == null || text === '') {
      if (required) errors.push(`${name(key)} is missing.`);
      return fallback;
    }
    // Text here is never blank: none means a type the rules cannot read.
    const result = text ? parse(text, baseUri) : undefined;
    if (result === undefined) (required ? errors : warnings).push(`${name(key)} must be ${expected}.`);
    return result ?? fallback;
  };
  const parsed = Object.fromEntries((Object.keys(RULES) as (keyof Parsed)[]).map((key) => [key, read(key)])) as Parsed;
  const options: ResolvedOptions = {
    ...parsed,
    target: element ?? parsed.target,
    locale: parsed.locale ?? canonicalLocale(fallbackLocale) ?? 'en',
    strings: stringsOf(raw.strings, mistakes),
    prefill: prefillOf(raw, pageUrl),
    utm: parsed.utm ? fromQuery(pageUrl, UTM_KEYS) : undefined,
  };
  return { options: errors.length ? undefined : options, errors, warnings, mistakes };
}

/** Validates and reports to the console: one error (nothing drawn) or one warning (defaults used). */
export function readOptions(input: unknown, doc: Document): ResolvedOptions | undefined {
  const { options, errors, warnings, mistakes } = resolveOptions(
    input,
    doc.baseURI,
    // The page's language, else the browser's (one for all its windows); neither (or no valid tag): English.
    doc.documentElement.lang || navigator.language,
    doc.URL,
  );
  if (warnings.length) logWarning(`Defaults used: ${warnings.join(' ')}`);
  if (mistakes.length) logError(`Built-in text used: ${mistakes.join(' ')}`);
  if (!options) logError(`Not started: ${errors.join(' ')}`);
  return options;
}

/**
 * Where the widget's host element goes: the page body in bubble mode, the target in inline mode.
 * A missing or unknown inline target is reported like a missing required option.
 */
export function resolveContainer({ mode, target }: ResolvedOptions, doc: Document): Element | undefined {
  if (mode === 'bubble') return doc.body;
  const found = typeof target === 'string' ? attempt(() => doc.querySelector(target)) : target;
  if (found) return found;
  logError(`Not started: ${name('target')} ${target ? 'matches no element' : 'is missing'}.`);
  return undefined;
}
