// loadLocale: a bundler user's way to pick a built-in language at run time.
import { describe, expect, test } from 'vitest';
import { loadLocale } from '../../../src/widget/entries/bundler';
import type { Strings } from '../../../src/widget/i18n';

const files = import.meta.glob<Strings>('../../../src/widget/i18n/locales/*.ts', { eager: true, import: 'default' });
const shipped = Object.entries(files).map(([path, dictionary]): [string, Strings] => [path.replace(/^.*\/|\.ts$/g, ''), dictionary]);

describe('loadLocale', () => {
  test.each(shipped)('%s: the dictionary of that language, as its own module exports it', async (code, dictionary) => {
    expect(await loadLocale(code)).toBe(dictionary);
  });

  test('a region or another case gives the language: pt-BR is pt, zh-TW is zh, DE-at is de', async () => {
    expect(await loadLocale('pt-BR')).toBe(await loadLocale('pt'));
    expect(await loadLocale('zh-TW')).toBe(await loadLocale('zh'));
    expect(await loadLocale('DE-at')).toBe(await loadLocale('de'));
    expect((await loadLocale('de'))?.send).toBe('Senden');
  });

  test('English (built in) and a language not shipped give nothing to load: the widget speaks English', async () => {
    expect(await loadLocale('en-GB')).toBeUndefined();
    expect(await loadLocale('fa')).toBeUndefined();
    expect(await loadLocale('')).toBeUndefined();
  });
});
