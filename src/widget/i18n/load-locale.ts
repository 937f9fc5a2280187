// Choosing a built-in language at run time from an app's bundle: each language is a static import()
// that webpack, Vite and the others see and split into a chunk of its own, loaded only when asked for.
// (A template-literal import of `agent-widget/locales/${code}` is not something every bundler can resolve.)
import type { Strings } from './index';
import { languageOf } from './languages';

type Dictionary = () => Promise<{ default: Strings }>;

/** Every language in ./locales (test/widget/i18n/load-locale.test.ts keeps the two equal). */
const dictionaries: Record<string, Dictionary> = {
  ar: () => import('./locales/ar'),
  de: () => import('./locales/de'),
  es: () => import('./locales/es'),
  fr: () => import('./locales/fr'),
  he: () => import('./locales/he'),
  it: () => import('./locales/it'),
  ja: () => import('./locales/ja'),
  ko: () => import('./locales/ko'),
  nl: () => import('./locales/nl'),
  pl: () => import('./locales/pl'),
  pt: () => import('./locales/pt'),
  sv: () => import('./locales/sv'),
  tr: () => import('./locales/tr'),
  zh: () => import('./locales/zh'),
};

/**
 * The built-in dictionary for a language tag (`de`, `pt-BR` -> pt, `zh-TW` -> zh), for `mount()`'s
 * `strings`; undefined for English (built in) and for a language not shipped: the widget then speaks English.
 */
export async function loadLocale(locale: string): Promise<Strings | undefined> {
  const load = dictionaries[languageOf(locale)];
  return load === undefined ? undefined : (await load()).default;
}
