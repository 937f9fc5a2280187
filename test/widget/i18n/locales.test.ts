// A visitor who reads one of the built-in languages sees every string in that language: nothing
// missing, nothing left in English, and every "{name}" the widget fills in still there to fill.
import { describe, expect, it } from 'vitest';
import { defaultStrings, type StringKey, type Strings } from '../../../src/widget/i18n';

const files = import.meta.glob<Strings>('../../../src/widget/i18n/locales/*.ts', { eager: true, import: 'default' });
const locales = Object.entries(files).map(([path, strings]) => ({ code: path.replace(/^.*\/|\.ts$/g, ''), strings }));

/** The languages the design promises (shared/design.md, "Languages and theming"). */
const PROMISED = ['ar', 'de', 'es', 'fr', 'he', 'it', 'ja', 'ko', 'nl', 'pl', 'pt', 'sv', 'tr', 'zh'];

/** English text longer than this that comes back unchanged is a line nobody translated. */
const UNTRANSLATED_OVER = 12;

/** Keys whose translation may equal the English, and why. */
const SAME_AS_ENGLISH: Partial<Record<StringKey, string>> = {
  dayLabel: 'only placeholders and a comma ("{date}, {status}"), the same in Latin-script languages',
  slotName: 'only placeholders and a comma ("{time}, {zone}"), the same in Latin-script languages',
};

const english: Record<string, string> = defaultStrings;
const keys = Object.keys(english).sort();
const placeholders = (text: string) => new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
const withoutPlaceholders = (text: string) => text.replace(/\{\w+\}/g, '');

describe('built-in languages', () => {
  it('are exactly the promised ones', () => {
    expect(locales.map((l) => l.code).sort()).toEqual(PROMISED);
  });

  it('allow English through only where the allow-list says why', () => {
    for (const [key, reason] of Object.entries(SAME_AS_ENGLISH)) {
      expect(english[key], `${key} is not an English key`).toBeTypeOf('string');
      expect(reason.length, `${key} needs a reason`).toBeGreaterThan(10);
    }
  });

  describe.each(locales)('$code', ({ strings }) => {
    const translated: Record<string, string> = strings;

    it('has every English key and no other', () => {
      expect(Object.keys(translated).sort()).toEqual(keys);
    });

    // bookingPhrases is not shown, and a phrase's leading space means "at the start of a word".
    it.each(keys.filter((key) => key !== 'bookingPhrases'))('%s is non-empty text without stray spaces', (key) => {
      const text = translated[key];
      expect(text).toBeTypeOf('string');
      expect(text?.trim()).not.toBe('');
      expect(text).toBe(text?.trim());
    });

    it('bookingPhrases: each phrase has letters, no empty one, no run of spaces', () => {
      for (const phrase of translated.bookingPhrases?.split('|') ?? []) {
        expect(phrase).toMatch(/\p{L}/u);
        expect(phrase).not.toMatch(/\s\s/);
      }
    });

    it.each(keys)('%s keeps every placeholder and adds none', (key) => {
      const text = translated[key] ?? '';
      expect(placeholders(text)).toEqual(placeholders(english[key] ?? ''));
      // A brace left after the placeholders go is a broken one ("{ title}", "{title"): fmt would show it.
      expect(withoutPlaceholders(text)).not.toMatch(/[{}]/);
    });

    it.each(keys.filter((key) => (english[key] ?? '').length > UNTRANSLATED_OVER && !(key in SAME_AS_ENGLISH)))(
      '%s is translated',
      (key) => {
        expect(translated[key]).not.toBe(english[key]);
      },
    );
  });
});
