// Which way a language's text runs.

/** Arabic, Hebrew, Persian and Urdu, with or without a region. */
export const textDirection = (locale: string): 'rtl' | 'ltr' => (/^(ar|he|fa|ur)\b/i.test(locale) ? 'rtl' : 'ltr');
