// Filling the dictionary's strings, and the Intl formatters they are filled with.

const relativeTimeFormats: Record<string, Intl.RelativeTimeFormat> = {};

/**
 * "5 min. ago" in `locale`, made once per locale: the first Intl formatter of a page loads the browser's
 * locale data (tens of ms at 4x CPU), and each one costs about a hundred times what formatting does.
 */
export function relativeTimeFormat(locale: string): Intl.RelativeTimeFormat {
  // Keys are prefixed: no locale tag names an Object.prototype property.
  const key = `:${locale}`;
  relativeTimeFormats[key] ??= new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  return relativeTimeFormats[key];
}

const dateTimeFormats: Record<string, Intl.DateTimeFormat> = {};

/** A date and time in full ("Monday, November 23, 2026 at 9:00 AM") in `locale`, made once per locale. */
export function fullDateTimeFormat(locale: string): Intl.DateTimeFormat {
  const key = `:${locale}`;
  dateTimeFormats[key] ??= new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short' });
  return dateTimeFormats[key];
}

/** "{name}" placeholders in dictionary strings. Values are inserted as text, never markup. */
export function fmt(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (Object.hasOwn(values, key) ? String(values[key]) : whole));
}

/**
 * A string with a count, its forms named by the Intl.PluralRules categories of `locale`:
 * "one: {count} time available | other: {count} times available" (Polish adds few and many, Arabic zero,
 * two, few and many). A missing form falls back to `other`; text without forms is used for every count.
 * {count} is the number as `locale` writes it.
 */
export function plural(locale: string, template: string, count: number): string {
  const forms: Partial<Record<string, string>> = Object.fromEntries(
    template.split('|').map((part) => part.split(/:(.*)/s).map((text) => text.trim()) as [string, string | undefined]),
  );
  const form = forms[new Intl.PluralRules(locale).select(count)] ?? forms.other ?? template;
  return fmt(form, { count: count.toLocaleString(locale) });
}
