// Formatting with Intl (formatters are costly to build, so each is made once: core/time keeps them).
import { dateTimeFormat as dtf, isAmbiguousAt, zonedToInstant } from '../../core/time';

// One time shape everywhere, so 12/24-hour follows the locale the same way from slots to confirmation.
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
const MONTH: Intl.DateTimeFormatOptions = { month: 'long', year: 'numeric' };
const LONG_DAY: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' };

/** A calendar date (YYYY-MM-DD) or month (YYYY-MM) in words; zone-free. */
export const formatDate = (locale: string, date: string, options: Intl.DateTimeFormatOptions = LONG_DAY): string => {
  // ECMA-262 reads both date-only forms as UTC midnight (of the 1st, for a month).
  return dtf(locale, 'UTC', options).format(Date.parse(date));
};

/** A month (YYYY-MM) in words: "June 2026". */
export const monthName = (locale: string, month: string): string => formatDate(locale, month, MONTH);

/**
 * The time (or with `withDay`, day and time) of `instant` on `zone`'s wall clock. When that wall time
 * occurs twice in `zone` (a DST fall-back hour) the zone's abbreviation tells the two apart.
 */
export const formatInstant = (locale: string, zone: string, instant: Date, withDay?: boolean): string => {
  const options = { ...(withDay && LONG_DAY), ...TIME, ...(isAmbiguousAt(instant, zone) && { timeZoneName: 'short' as const }) };

  return dtf(locale, zone, options).format(instant);
};

/**
 * From `start` to `end` on `zone`'s wall clock, with the day: "Monday, November 23, 2026, 3:00 – 3:30 PM",
 * both days when it ends on another. As formatInstant, a wall time that occurs twice carries the zone's
 * abbreviation.
 */
export const formatSpan = (locale: string, zone: string, start: Date, end: Date): string => {
  const twice = isAmbiguousAt(start, zone) || isAmbiguousAt(end, zone);
  return dtf(locale, zone, { ...LONG_DAY, ...TIME, ...(twice && { timeZoneName: 'short' as const }) }).formatRange(start, end);
};

/**
 * `zone`'s name as of the instants shown: "Central European Summer Time" in June, the generic "Central
 * European Time" when they straddle a change; the IANA name where Intl has no name for it. Every zone
 * here is Intl's own or was checked where it entered (isTimeZone): the formatter does not throw.
 */
export const zoneName = (locale: string, zone: string, ...at: [Date, ...Date[]]): string => {
  const name = (t: Date, timeZoneName: 'long' | 'longGeneric' = 'long') =>
    dtf(locale, zone, { timeZoneName })
      .formatToParts(t)
      .find((p) => p.type === 'timeZoneName')?.value ?? zone;
  return name(at[0], new Set(at.map((t) => name(t))).size > 1 ? 'longGeneric' : 'long');
};

/** The locale's first day of the week, 0 = Sunday; Monday where the browser cannot say. */
export const weekStart = (locale: string): number => {
  type WeekInfo = { firstDay: number };
  const loc = new Intl.Locale(locale) as Intl.Locale & { weekInfo?: WeekInfo; getWeekInfo?: () => WeekInfo };
  const info = loc.getWeekInfo?.() ?? loc.weekInfo;
  return (info?.firstDay ?? 1) % 7;
};

/**
 * A remembered booking's start, short: on `visitorZone`'s clock when the agent's `zone` is known,
 * else as the bare wall time it was stored with.
 */
export const formatStart = (locale: string, date: string, time: string, zone: string | undefined, visitorZone: string): string => {
  return dtf(locale, zone ? visitorZone : 'UTC', { weekday: 'short', day: 'numeric', month: 'short', ...TIME }).format(
    zonedToInstant(date, time, zone ?? 'UTC'),
  );
};

/**
 * Whether a duration's label already says its length: it holds the minutes ("30 min consultation"), or the
 * whole hours before an h ("1 hour session", "2h"). Then the length in words would say it twice.
 */
export const labelStatesLength = (label: string, minutes: number): boolean => {
  const number = (n: number) => `(?<!\\d)${n}(?!\\d)`;
  const hours = minutes % 60 === 0 ? `|${number(minutes / 60)}\\s*h` : '';
  return new RegExp(`${number(minutes)}${hours}`, 'i').test(label);
};

/** A duration as the config labels it, else its minutes in words ("30 minutes"): the label is optional. */
export const durationText = (locale: string, label: string, minutes: number): string =>
  label || new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(minutes);
