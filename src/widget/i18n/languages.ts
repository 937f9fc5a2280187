// Which built-in language the widget speaks, and fetching its dictionary from next to the script
// (dist/locales/<code>.js, an ES module): the origin that serves widget.js, already allowed in the
// page's script-src, serves the languages too. English is built in and never fetched.
import { isRecord } from '../options/options';
import { pickStrings, type Strings } from '.';
import { logWarning } from '../platform/log';

/** A tag whose first subtag is one of the languages in ./locales (a test keeps the two equal). */
export const LANGUAGES = /^(ar|de|es|fr|he|it|ja|ko|nl|pl|pt|sv|tr|zh)\b/i;

/** The built-in language for a language tag: its first subtag (pt-BR -> pt, zh-TW -> zh), else English. */
export const languageOf = (locale: string): string => LANGUAGES.exec(locale)?.[1]?.toLowerCase() ?? 'en';

/** One request per language and page, however many widgets ask: the console hears of a failure once. */
const loads: Record<string, Promise<Partial<Strings> | undefined>> = {};

/**
 * The dictionary of `code` from `<scriptUrl's folder>/locales/<code>.js`, checked as it enters (known
 * keys with text); undefined (English) when it cannot load. The URL is made at run time: the comments
 * tell Vite and webpack (an app bundling agent-widget) not to resolve it.
 */
export const loadLanguage = (code: string, scriptUrl: string): Promise<Partial<Strings> | undefined> => {
  const url = new URL(`locales/${code}.js`, scriptUrl).href;
  return (loads[code] ??= (import(/* @vite-ignore */ /* webpackIgnore: true */ url) as Promise<{ default?: unknown }>)
    .then(({ default: found }) => {
      if (!isRecord(found)) throw new Error('not a dictionary');
      return pickStrings(found)[0];
    })
    .catch((error: unknown) => void logWarning(`Speaking English: ${url} failed.`, error)));
}
