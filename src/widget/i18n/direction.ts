// Which way a language's text runs.

export type TextDirection = 'rtl' | 'ltr';

/** Arabic, Hebrew, Persian and Urdu, with or without a region. */
export const textDirection = (locale: string): TextDirection => (/^(ar|he|fa|ur)\b/i.test(locale) ? 'rtl' : 'ltr');
