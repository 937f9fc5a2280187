// Counts read right in every language: the dictionary's forms are picked by Intl.PluralRules, so Polish
// says "2 wolne terminy" and "5 wolnych terminów", Arabic has its six forms, and the number itself is
// written the way the language writes numbers.
import { describe, expect, test } from 'vitest';
import { defaultStrings, type Strings } from '../../../src/widget/i18n';
import { plural } from '../../../src/widget/i18n/format';
import ar from '../../../src/widget/i18n/locales/ar';
import pl from '../../../src/widget/i18n/locales/pl';

const files = import.meta.glob<Strings>('../../../src/widget/i18n/locales/*.ts', { eager: true, import: 'default' });
const dictionaries = [
  { code: 'en', strings: defaultStrings },
  ...Object.entries(files).map(([path, strings]) => ({ code: path.replace(/^.*\/|\.ts$/g, ''), strings })),
];
/** The dictionary strings that take a count. */
const COUNTED = ['timesCount', 'chatBusy'] as const;
const formsOf = (text: string) => [...text.matchAll(/(?:^|\|)\s*(\w+):/g)].map((m) => m[1]);

describe('plural()', () => {
  test('English: one and other', () => {
    expect(plural('en', defaultStrings.timesCount, 1)).toBe('1 time available');
    expect(plural('en', defaultStrings.timesCount, 2)).toBe('2 times available');
    expect(plural('en', defaultStrings.chatBusy, 1)).toBe('We are busy right now. Retrying in 1 second.');
    expect(plural('en', defaultStrings.chatBusy, 30)).toBe('We are busy right now. Retrying in 30 seconds.');
  });

  test.each([
    [1, '1 wolny termin', 'za 1 sekundę.'],
    [2, '2 wolne terminy', 'za 2 sekundy.'],
    [5, '5 wolnych terminów', 'za 5 sekund.'],
    [22, '22 wolne terminy', 'za 22 sekundy.'],
  ])('Polish %i: "%s", "%s"', (count, times, busy) => {
    expect(plural('pl', pl.timesCount, count)).toBe(times);
    expect(plural('pl', pl.chatBusy, count)).toMatch(new RegExp(`${busy}$`));
  });

  test.each([
    [0, 'لا توجد مواعيد متاحة'],
    [1, 'موعد واحد متاح'],
    [2, 'موعدان متاحان'],
    [3, '3 مواعيد متاحة'],
    [11, '11 موعدًا متاحًا'],
    [100, '100 موعد متاح'],
  ])('Arabic %i: "%s"', (count, times) => {
    // The digits are the ones Intl writes for "ar" (Latin in current CLDR, Arabic-Indic in some engines).
    const number = new Intl.NumberFormat('ar').format(count);
    expect(plural('ar', ar.timesCount, count)).toBe(times.replace(String(count), number));
  });

  test('numbers are written the way the language writes them', () => {
    expect(plural('de', 'other: {count} Termine frei', 1234)).toBe('1.234 Termine frei');
    expect(plural('ar-EG', 'other: {count}', 12)).toBe('١٢');
  });

  test('a missing form falls back to other; text without forms serves every count', () => {
    expect(plural('pl', 'one: jeden | other: {count} inne', 5)).toBe('5 inne');
    expect(plural('ja', '空き{count}件', 3)).toBe('空き3件');
    // An owner's override without forms, with a colon of its own, is used as written.
    expect(plural('en', 'Free: {count}', 2)).toBe('Free: 2');
  });

  describe.each(dictionaries)('$code', ({ code, strings }) => {
    test.each(COUNTED)('%s has a form for every count from 0 to 200, and no other forms', (key) => {
      const text = strings[key];
      const forms = formsOf(text);
      const needed = new Set(Array.from({ length: 201 }, (_, n) => new Intl.PluralRules(code).select(n)));
      if (forms.length === 0) expect([...needed]).toEqual(['other']);
      else {
        for (const category of needed) expect(forms, `${code} ${key} lacks "${category}"`).toContain(category);
        for (const form of forms) expect(new Intl.PluralRules(code).resolvedOptions().pluralCategories).toContain(form);
      }
    });
  });
});
