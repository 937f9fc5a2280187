// Every option of the widget is validated here, whether it came from data-* attributes or init().
// A missing or malformed required option: ONE console.error naming it, and nothing is drawn.
// A malformed optional one: one console.warn, and its default is used.
import type { Strings } from './i18n';

export const VIEWS = ['chat', 'booking', 'lookup'] as const;
export type View = (typeof VIEWS)[number];
/** For values from plain JS or another window. */
export const isView = (value: unknown): value is View => VIEWS.some((v) => v === value);
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
  strings?: Partial<Strings>;
  /** Booking form answers to prefill, keyed by form field id (or name / email). */
  prefill?: Record<string, string>;
  /** Prefill keys the page URL's query may supply (?email=…): a list or "name,email". Off unless given. */
  prefillFromUrl?: string | readonly string[];
  /** Attach the page's utm_* query parameters to booking:created. Off unless true. */
  utm?: boolean | 'true' | 'false';
  /** The view shown first: inline at once, bubble on the first open. */
  view?: View;
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
  strings: Partial<Strings>;
  prefill: Record<string, string> | undefined;
  utm: Record<string, string> | undefined;
  view: View;
}

const PREFIX = '[AgentWidget]';
export const DEFAULT_COLOR = '#4f46e5';

/** The options a script tag can carry, each as data-<kebab-case> (mode and target last: the element has neither). */
const SCRIPT_KEYS = [
  'agentId', 'apiBase', 'chatUrl', 'title', 'greeting', 'color', 'position', 'theme', 'locale', 'persist', 'view', 'prefillFromUrl', 'utm', 'mode', 'target',
] as const;

const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
const attribute = (key: string): string => 'data-' + kebab(key);

/** The <agent-widget> element's attributes: the script tag's without "data-", and no mode or target. */
export const ELEMENT_ATTRIBUTES: readonly string[] = SCRIPT_KEYS.slice(0, -2).map(kebab);

const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'];

/** Messages name both spellings, so they read right for a script tag and for init(). */
const name = (key: keyof WidgetOptions): string => `${attribute(key)} (${key})`;

/**
 * The options an element's attributes carry (`prefix` "data-" on the script tag, "" on <agent-widget>);
 * absent attributes stay absent. <prefix>prefill-<key> attributes gather into `prefill`, keyed as written.
 */
export function optionsFromScript(el: Element, prefix = 'data-'): Record<string, string | Record<string, string>> {
  const found: Record<string, string | Record<string, string>> = {};
  for (const key of SCRIPT_KEYS) {
    const value = el.getAttribute(prefix + kebab(key));
    if (value !== null) found[key] = value;
  }
  const prefill: Record<string, string> = {};
  for (const { name, value } of el.attributes) {
    const key = name.startsWith(prefix + 'prefill-') ? name.slice(prefix.length + 8) : '';
    if (key && key !== 'from-url') prefill[key] = value;
  }
  if (Object.keys(prefill).length > 0) found.prefill = prefill;
  return found;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function httpUrl(value: string, baseUri: string): string | undefined {
  try {
    const url = new URL(value, baseUri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function canonicalLocale(value: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(value)[0];
  } catch {
    return undefined;
  }
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** The owner's values win over the URL's: a crafted link must not replace what the page knows. */
function prefillOf(raw: Record<string, unknown>, pageUrl: string): Record<string, string> | undefined {
  // A list or "name,email": an array's String() is its items joined by commas.
  const keys = String(raw.prefillFromUrl ?? '').split(',').map((k) => k.trim());
  const merged = { ...fromQuery(pageUrl, keys), ...stringRecord(raw.prefill) };
  return Object.keys(merged).length > 0 ? merged : undefined;
}

export type Resolution =
  | { options: ResolvedOptions; errors: []; warnings: string[] }
  | { options: undefined; errors: string[]; warnings: string[] };

/** `keys` from the page's query string, only those present; capped, as anyone can craft a link. */
function fromQuery(pageUrl: string, keys: readonly string[]): Record<string, string> | undefined {
  const query = new URL(pageUrl).searchParams;
  const found: Record<string, string> = {};
  for (const key of keys) {
    const value = query.get(key)?.trim();
    if (key && value) found[key] = value.slice(0, 200);
  }
  return Object.keys(found).length > 0 ? found : undefined;
}

/**
 * Pure validation: the resolved options, or every reason they cannot be used. `pageUrl` is the
 * address whose query may supply prefill values and UTM parameters, when the owner opted in.
 */
export function resolveOptions(input: unknown, baseUri: string, fallbackLocale = 'en', pageUrl = baseUri): Resolution {
  const errors: string[] = [];
  const warnings: string[] = [];
  const raw = isRecord(input) ? input : {};
  if (!isRecord(input)) errors.push('init() needs an options object.');

  const required = (key: 'agentId' | 'apiBase' | 'chatUrl', parse: (v: string) => string | undefined, what: string) => {
    const value = raw[key];
    const blank = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
    const parsed = !blank && typeof value === 'string' ? parse(value.trim()) : undefined;
    if (blank) errors.push(`${name(key)} is missing: ${what} is required.`);
    else if (parsed === undefined) errors.push(`${name(key)} is malformed (${JSON.stringify(value)}): expected ${what}.`);
    return parsed ?? '';
  };
  /** Absent: the default, silently. Malformed: the default, with a warning. */
  const optional = <T>(key: keyof WidgetOptions, parse: (v: string) => T | undefined, fallback: T, expected: string): T => {
    const value = raw[key];
    if (value === undefined || value === null || value === '') return fallback;
    const parsed = typeof value === 'string' ? parse(value.trim()) : undefined;
    if (parsed === undefined) warnings.push(`${name(key)} must be ${expected}; the default is used.`);
    return parsed ?? fallback;
  };
  const choice = <T extends string>(key: keyof WidgetOptions, allowed: readonly T[], fallback: T): T =>
    optional(key, (v) => allowed.find((a) => a === v), fallback, `one of ${allowed.join(', ')}`);
  const text = (key: 'title' | 'greeting') => optional<string | undefined>(key, (v) => v || undefined, undefined, 'text');

  const agentId = required('agentId', (v) => (/^\S{1,200}$/.test(v) ? v : undefined), "the agent's id");
  const apiBase = required('apiBase', (v) => httpUrl(v, baseUri), 'an http(s) URL of the booking API');
  const chatUrl = required('chatUrl', (v) => httpUrl(v, baseUri), 'an http(s) URL of your chat proxy');
  const target =
    typeof Element !== 'undefined' && raw.target instanceof Element
      ? raw.target
      : optional<string | undefined>('target', (v) => v || undefined, undefined, 'a selector or an element');

  // true from init(), "true" from an attribute or the iframe's URL.
  const utmOn = raw.utm === true || (raw.utm !== false && choice('utm', ['true', 'false'] as const, 'false') === 'true');

  const options: ResolvedOptions = {
    agentId,
    apiBase,
    chatUrl,
    title: text('title'),
    greeting: text('greeting'),
    color: optional('color', (v) => (/^#([0-9a-f]{3}){1,2}$/i.test(v) ? v.toLowerCase() : undefined), DEFAULT_COLOR, '#rgb or #rrggbb'),
    position: choice('position', ['left', 'right'] as const, 'right'),
    theme: choice('theme', ['light', 'dark', 'auto'] as const, 'light'),
    locale: optional('locale', canonicalLocale, canonicalLocale(fallbackLocale) ?? 'en', 'a language tag like en or de-CH'),
    persist: choice('persist', ['local', 'session', 'none'] as const, 'local'),
    mode: choice('mode', ['bubble', 'inline'] as const, 'bubble'),
    target,
    strings: stringRecord(raw.strings) ?? {},
    prefill: prefillOf(raw, pageUrl),
    utm: utmOn ? fromQuery(pageUrl, UTM_KEYS) : undefined,
    view: choice('view', VIEWS, 'chat'),
  };
  if (errors.length > 0) return { options: undefined, errors, warnings };
  return { options, errors: [], warnings };
}

/** Validates and reports to the console: one error (nothing drawn) or one warning (defaults used). */
export function readOptions(input: unknown, doc: Document): ResolvedOptions | undefined {
  const nav = doc.defaultView?.navigator;
  const result = resolveOptions(input, doc.baseURI, doc.documentElement.lang || nav?.language || 'en', doc.URL);
  if (result.warnings.length > 0) console.warn(`${PREFIX} ${result.warnings.join(' ')}`);
  if (!result.options) {
    console.error(`${PREFIX} The widget was not started. ${result.errors.join(' ')}`);
    return undefined;
  }
  return result.options;
}

/**
 * Where the widget's host element goes: the page body in bubble mode, the target in inline mode.
 * A missing or unknown inline target is reported like a missing required option.
 */
export function resolveContainer(options: ResolvedOptions, doc: Document): Element | undefined {
  if (options.mode === 'bubble') return doc.body ?? undefined;
  const { target } = options;
  let found: Element | null = null;
  if (typeof target === 'string') {
    try {
      found = doc.querySelector(target);
    } catch {
      found = null;
    }
  } else if (target) found = target;
  if (found) return found;
  console.error(
    target === undefined
      ? `${PREFIX} The widget was not started. ${name('target')} is missing: inline mode needs the element to fill.`
      : `${PREFIX} The widget was not started. ${name('target')} matches no element (${String(target)}).`,
  );
  return undefined;
}
