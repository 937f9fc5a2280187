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

  // One test per language: each problem found is one line of its failure, naming the key.
  it.each(locales)('$code: every key, each non-empty, with its placeholders, and translated', ({ strings }) => {
    const translated: Record<string, string> = strings;
    expect(Object.keys(translated).sort()).toEqual(keys);
    const problems = keys.flatMap((key) => problemsOf(key, translated[key] ?? '', english[key] ?? ''));
    expect(problems).toEqual([]);
  });
});

/** What is wrong with one key's translation, in words; empty when nothing is. */
function problemsOf(key: string, text: string, englishText: string): string[] {
  const problems: string[] = [];
  if (key === 'bookingPhrases') {
    // Not shown, and a phrase's leading space means "at the start of a word".
    for (const phrase of text.split('|')) {
      if (!/\p{L}/u.test(phrase)) problems.push(`${key}: the phrase "${phrase}" has no letter`);
      if (/\s\s/.test(phrase)) problems.push(`${key}: the phrase "${phrase}" has a run of spaces`);
    }
  } else {
    if (text.trim() === '') problems.push(`${key}: empty`);
    if (text !== text.trim()) problems.push(`${key}: stray spaces at an end`);
  }
  const expected = [...placeholders(englishText)].sort().join(',');
  const found = [...placeholders(text)].sort().join(',');
  if (found !== expected) problems.push(`${key}: placeholders {${found}} instead of {${expected}}`);
  // A brace left after the placeholders go is a broken one ("{ title}", "{title"): fmt would show it.
  if (/[{}]/.test(withoutPlaceholders(text))) problems.push(`${key}: a broken placeholder`);
  if (englishText.length > UNTRANSLATED_OVER && !(key in SAME_AS_ENGLISH) && text === englishText) {
    problems.push(`${key}: left in English`);
  }
  return problems;
}
