// The first Intl formatters of a page are slow to build (the first zoned one loads the browser's time zone
// data: 80-110 ms at 4x CPU), and the first open and the first calendar would build them in the click's
// task. Built while the browser is idle once the panel's code is here, one per idle callback, they are
// cached (../i18n/format, ../../core/time) and those clicks stay short.
import { formatDate, formatInstant, monthName } from '../booking/intl';
import { relativeTimeFormat } from '../i18n/format';
import { whenIdle } from '../platform/idle';

/** The formatters the chat's stamps and the calendar use first, for `locale`; the returned function stops what has not run. */
export function warmUp(win: Window, locale: string): () => void {
  const today = new Date();
  const date = today.toISOString().slice(0, 10);
  const steps = [
    () => relativeTimeFormat(locale),
    () => monthName(locale, date.slice(0, 7)),
    () => formatDate(locale, date),
    // The visitor's zone: its rules, and the slots' time shape (the agent's zone comes with its config).
    () => formatInstant(locale, Intl.DateTimeFormat().resolvedOptions().timeZone, today),
  ];
  let cancel = (): void => undefined;
  const next = () => {
    const step = steps.shift();
    if (step)
      cancel = whenIdle(win, () => {
        step();
        next();
      });
  };
  next();
  return () => cancel();
}
