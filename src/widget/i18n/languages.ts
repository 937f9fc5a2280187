// Which built-in language the widget speaks, and laying texts over each other. The dictionaries themselves
// come from files next to the script (../embedding/script-files) or from the owner's bundle; English is
// built in and never fetched.
import type { ResolvedOptions } from '../options/options';

/** A tag whose first subtag is one of the languages in ./locales (a test keeps the two equal). */
export const LANGUAGES = /^(ar|de|es|fr|he|it|ja|ko|nl|pl|pt|sv|tr|zh)\b/i;

/** The built-in language for a language tag: its first subtag (pt-BR -> pt, zh-TW -> zh), else English. */
export const languageOf = (locale: string): string => LANGUAGES.exec(locale)?.[1]?.toLowerCase() ?? 'en';

/**
 * `base` with each layer laid over it in turn, key by key: only the keys `base` has, and only where the
 * layer holds text there. A layer that is not an object (a dictionary that did not arrive) adds nothing.
 */
export function layerTexts<T extends Record<string, string>>(base: T, ...layers: unknown[]): T {
  const texts: Record<string, string> = { ...base };
  for (const layer of layers) {
    if (typeof layer !== 'object' || layer === null) continue;
    for (const key of Object.keys(base)) {
      const text: unknown = Object.hasOwn(layer, key) ? (layer as Record<string, unknown>)[key] : undefined;
      if (typeof text === 'string') texts[key] = text;
    }
  }
  return texts as T;
}

/**
 * The language the text is in, for the root's lang and dir: the fetched dictionary's; else English, unless
 * the widget fetches no dictionaries (a bundler user) and the owner gave texts of their own, which are
 * then in `locale`.
 */
export function spokenLanguage(
  { locale, strings }: Pick<ResolvedOptions, 'locale' | 'strings'>,
  code: string,
  { arrived, fetches }: { arrived: boolean; fetches: boolean },
): string {
  if (arrived) return code;
  return !fetches && Object.keys(strings).length ? locale : 'en';
}
