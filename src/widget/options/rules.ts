// How an option given as text (a data-* attribute, the iframe's URL, init()) is read: each option has a
// rule; absent or blank takes the rule's default (an error if the option is required), malformed takes
// the default with a warning (an error if required). The loader reads its options with these
// (./options), the panel its own (./panel-options).
import { attempt } from '../../core/attempt';

export interface Rule<T> {
  /** The value, from its text (trimmed, never blank); undefined when malformed. */
  parse(text: string, baseUri: string): T | undefined;
  /** What a good value looks like, for the console. */
  expected: string;
  /** The value when absent or malformed. */
  fallback: T;
  /** There is nothing to fall back on: absent or malformed, the widget does not start. */
  required?: boolean;
}

/** A rule for each option of `P`. */
export type Rules<P> = { readonly [K in keyof P]: Rule<P[K]> };

export interface Problems {
  /** Options that stop the widget. */
  errors: string[];
  /** Options that fell back to their default. */
  warnings: string[];
}

export const kebab = (key: string): string => key.replace(/[A-Z]/g, '-$&').toLowerCase();

/** Messages name both spellings, so they read right for a script tag and for init(). */
export const optionName = (key: string): string => `data-${kebab(key)} (${key})`;

export const asText = (value: string): string => value;

export const httpUrl = (value: string, baseUri: string): string | undefined => {
  const url = attempt(() => new URL(value, baseUri));
  return url && /^https?:$/.test(url.protocol) ? url.href : undefined;
};

/** One of `allowed`, the first being the default. */
export const oneOf = <T extends string>(...allowed: [T, ...T[]]): Rule<T> => ({
  parse: (text) => allowed.find((value) => value === text),
  expected: `one of ${allowed.join(', ')}`,
  fallback: allowed[0],
});

export const isTextEntry = (entry: [string, unknown]): entry is [string, string] => typeof entry[1] === 'string';

/** `record`, or undefined when it has no keys. */
export const nonEmpty = <T extends object>(record: T): T | undefined => (Object.keys(record).length ? record : undefined);

/** Each option of `rules` read off `raw`; what could not be used is added to `problems`. */
export function readRules<P>(rules: Rules<P>, raw: Readonly<Record<string, unknown>>, baseUri: string, problems: Problems): P {
  const read = <T>(key: string, { parse, expected, fallback, required }: Rule<T>): T => {
    const value = raw[key];
    // init() may give a number (zIndex) or a boolean (utm): read as their text. Any other type is malformed.
    const text = ['string', 'number', 'boolean'].includes(typeof value) ? `${String(value)}`.trim() : undefined;
    if (value == null || text === '') {
      if (required) problems.errors.push(`${optionName(key)} is missing.`);
      return fallback;
    }
    const result = text === undefined ? undefined : parse(text, baseUri);
    if (result === undefined) (required ? problems.errors : problems.warnings).push(`${optionName(key)} must be ${expected}.`);
    return result ?? fallback;
  };
  const entries = Object.entries<Rule<unknown>>(rules).map(([key, rule]) => [key, read(key, rule)]);
  // One entry per key of P, each read by its own rule.
  return Object.fromEntries(entries) as P;
}
