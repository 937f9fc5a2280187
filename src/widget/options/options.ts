// Every option of the widget is validated here, whether it came from data-* attributes or init().
// A missing or malformed required option: ONE console.error naming it, and nothing is drawn.
// A malformed optional one: one console.warn, and its default is used. The options only the panel uses,
// and the owner's strings (checked against the dictionary), are read by the panel's code when it arrives
// (./panel-options).
import { attempt } from '../../core/attempt';
import { isRecord } from '../../core/guards';
import type { Strings } from '../i18n';
import { logError, logWarning } from '../platform/log';
import { PANEL_KEYS } from './panel-keys';
import { asText, httpUrl, isTextEntry, kebab, nonEmpty, oneOf, optionName, readRules, type Problems, type Rule, type Rules } from './rules';

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
  /** Bubble mode: a short message beside the closed launcher, once per visitor (docs/widget.md: Teaser). */
  teaser?: string;
  /** Bubble mode: seconds after load before the teaser shows, 0 to 3600; 5 unless given. */
  teaserDelay?: number | string;
  /** Bubble mode: the stacking order on the page, 0 to 2147483647 (the default: above everything). */
  zIndex?: number | string;
}

/**
 * What the loader reads and checks: all it needs to draw the launcher and to start. The options only
 * the panel uses (greeting, starters, avatar, prefill, UTM) are read by the panel when its code arrives
 * (./panel-options), from `panelInput`.
 */
export interface ResolvedOptions {
  agentId: string;
  apiBase: string;
  chatUrl: string;
  title: string | undefined;
  color: string;
  position: Position;
  theme: Theme;
  locale: string;
  persist: Persist;
  mode: Mode;
  target: string | Element | undefined;
  /** The owner's texts by key, every value text: the loader takes those of its own keys. */
  strings: OwnerStrings;
  view: View;
  teaser: string | undefined;
  teaserDelay: number;
  zIndex: string;
  panelInput: PanelInput;
}

/** The options as given, for the panel to read its own from. */
export interface PanelInput {
  given: Readonly<Record<string, unknown>>;
  /** What relative URLs (the avatar) resolve against. */
  baseUri: string;
  /** The page's address when the widget started: its query may supply prefill values and UTM parameters. */
  pageUrl: string;
}

/** Texts by key as the owner gave them: whether each key names a string of the dictionary is not known yet. */
export type OwnerStrings = Readonly<Record<string, string>>;

export const DEFAULT_COLOR = '#4f46e5';

/** The options given as text that the loader reads (ResolvedOptions less what is read another way). */
type Parsed = Omit<ResolvedOptions, 'locale' | 'target' | 'strings' | 'panelInput'> & {
  /** Undefined: the page's language decides. */
  locale: string | undefined;
  target: string | undefined;
};

/** Undefined for no tag (Intl gives no locale for it) as for a malformed one. */
const canonicalLocale = (value: string | undefined): string | undefined => attempt(() => Intl.getCanonicalLocales(value)[0]);

/** Characters of the teaser: a line or two beside the launcher. */
export const MAX_TEASER_CHARS = 140;

const optional = <T>(parse: Rule<T | undefined>['parse'], expected: string): Rule<T | undefined> => ({
  parse,
  expected,
  fallback: undefined,
});
const required = (parse: Rule<string>['parse'], expected: string): Rule<string> => ({ parse, expected, fallback: '', required: true });

const RULES: Rules<Parsed> = {
  agentId: required((v) => (/^\S{1,200}$/.test(v) ? v : undefined), 'an id'),
  apiBase: required(httpUrl, 'an http(s) URL'),
  chatUrl: required(httpUrl, 'an http(s) URL'),
  title: optional(asText, 'text'),
  color: {
    parse: (v) => (/^#([0-9a-f]{3}){1,2}$/i.test(v) ? v.toLowerCase() : undefined),
    expected: '#rgb or #rrggbb',
    fallback: DEFAULT_COLOR,
  },
  position: oneOf('right', 'left'),
  theme: oneOf('light', 'dark', 'auto'),
  locale: optional(canonicalLocale, 'a language tag'),
  persist: oneOf('local', 'session', 'none'),
  view: oneOf(...VIEWS),
  teaser: optional((v) => (v.length > MAX_TEASER_CHARS ? undefined : v), `text of up to ${MAX_TEASER_CHARS} characters`),
  teaserDelay: { parse: (v) => (/^\d{1,4}$/.test(v) && +v <= 3600 ? +v : undefined), expected: '0 to 3600 (seconds)', fallback: 5 },
  // The browser caps a larger number at the top, 2147483647.
  zIndex: { parse: (v) => (/^\d{1,10}$/.test(v) ? v : undefined), expected: 'a whole number', fallback: '2147483647' },
  mode: oneOf('bubble', 'inline'),
  target: optional(asText, 'a selector'),
};

/** The options only a bubble has: the <agent-widget> element (always inline) takes none of them. */
const BUBBLE_ONLY: readonly string[] = ['teaser', 'teaserDelay', 'zIndex', 'mode', 'target'];

/** Every option a tag can carry (as data-<kebab-case>): the loader's, and the panel's (./panel-options). */
const SCRIPT_KEYS = [...Object.keys(RULES), 'strings', ...PANEL_KEYS];

/** SCRIPT_KEYS in kebab-case, in the same order: the attribute names without their prefix. */
const SCRIPT_NAMES = SCRIPT_KEYS.map(kebab);

/** The <agent-widget> element's attributes: the script tag's without "data-", and none of the bubble's own. */
export const ELEMENT_ATTRIBUTES: readonly string[] = SCRIPT_KEYS.filter((key) => !BUBBLE_ONLY.includes(key)).map(kebab);

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
};

/** `options` only when `errors` is empty. */
export interface Resolution {
  options: ResolvedOptions | undefined;
  errors: string[];
  warnings: string[];
}

/**
 * The owner's texts as the loader uses them (the launcher's, the stand-in's): an object from init(), JSON
 * from data-strings, its text values. The panel checks them against the dictionary and reports what it
 * cannot use (./panel-options).
 */
const ownerTexts = (value: unknown): OwnerStrings => {
  const given: unknown = typeof value === 'string' ? attempt(() => JSON.parse(value)) : value;
  return isRecord(given) ? Object.fromEntries(Object.entries(given).filter(isTextEntry)) : {};
};

/** Pure validation: the resolved options, or every reason they cannot be used. */
export function resolveOptions(input: unknown, baseUri: string, fallbackLocale?: string, pageUrl = baseUri): Resolution {
  const problems: Problems = { errors: isRecord(input) ? [] : ['init() needs an options object.'], warnings: [] };
  const given: Record<string, unknown> = isRecord(input) ? input : {};
  // Only ever run beside a document (readOptions; the tests' jsdom), so Element exists.
  const element = given.target instanceof Element ? given.target : undefined;
  const parsed = readRules(RULES, { ...given, target: element ? undefined : given.target }, baseUri, problems);
  const options: ResolvedOptions = {
    ...parsed,
    target: element ?? parsed.target,
    locale: parsed.locale ?? canonicalLocale(fallbackLocale) ?? 'en',
    strings: ownerTexts(given.strings),
    panelInput: { given, baseUri, pageUrl },
  };
  const { errors, warnings } = problems;
  return { options: errors.length ? undefined : options, errors, warnings };
}

/** Validates and reports to the console: one error (nothing drawn) or one warning (defaults used). */
export function readOptions(input: unknown, doc: Document): ResolvedOptions | undefined {
  const { options, errors, warnings } = resolveOptions(
    input,
    doc.baseURI,
    // The page's language, else the browser's (one for all its windows); neither (or no valid tag): English.
    doc.documentElement.lang || navigator.language,
    doc.URL,
  );
  if (warnings.length) logWarning(`Defaults used: ${warnings.join(' ')}`);
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
  logError(`Not started: ${optionName('target')} ${target ? 'matches no element' : 'is missing'}.`);
  return undefined;
}
